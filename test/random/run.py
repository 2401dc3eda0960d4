#!/usr/bin/env python3
"""Random TOSA programs through TileOpt, against upstream MLIR (issue 28).

    test/random/run.py --seed=S --count=N [--start=I] [--jobs=J] [--compile-args='...']
    test/random/run.py FILE.mlir...        # programs of your own, e.g. regressions/

For programs I..I+N-1 of seed S (test/random/generate.py), exactly as
test/corpus/check.py does for a corpus program:

1. inputs: reference.draw_inputs (the program's `// input` headers);
2. the reference: reference.run_reference, upstream mlir-opt + mlir-runner;
3. "ours": check.ours_tile, tileopt-compile --emit=tile then tileopt-interp;
4. check.compare with check.tolerance (2e-2 with f16/bf16, else 1e-4).

Each program ends in one of these, the last four being failures:

  match       ours equals the reference within the tolerance
  rounding    ours differs from the reference but is as close (the same
              tolerance) to upstream's execution of its float64 twin
              (generate.py --twin), the program without rounding:
              TileOpt's interpreter computes in f32 (docs/interpreter.md)
              where upstream rounds every op to f16/bf16, and sums in
              another order than upstream's sequential f32 loop. Not a
              tighter tolerance: ours folds constants in the program's type
              (reciprocal(5) in bf16 is 0.2002), the twin in f64, and a
              bf16 LayerNorm of values near 2 turns that 0.1% into 1%
  ill-conditioned
              ours is farther from the twin than the tolerance, but no
              farther than upstream's own execution in the program's types
              is: the program cannot be computed closer at its precision
              (a LayerNorm of nearly equal values, a sum of a normalized
              row), and TileOpt did no worse than upstream. Or ours matches
              upstream's execution of the program with each mean's 1/n
              rounded the other way (generate.py --other-mean-rounding),
              which is how TileOpt reads that factor: the result hangs on
              the last bit of a constant. Or the exact value of each output
              that differs is 0 (a cancellation: the sum of a normalized
              row) and ours is within the tolerance of 0 on the inputs'
              scale: both are rounding noise, whose relative error means
              nothing
  refused     tileopt-compile stopped with a diagnostic (classified by its
              reason: the importer's first warning, else the error)
  unchecked   compiled, but tileopt-interp refused the tile program with a
              diagnostic
  MISMATCH    values that differ from both references
  CRASH       a tool died: a signal, an assertion, an LLVM fatal error
  TIMEOUT     a tool ran longer than --timeout seconds
  INVALID     the generator failed, or upstream could not run what it wrote:
              a generator bug

Each failing program is written to --failures (default
/tmp/tileopt-random/seed-S) with its symptom and a command that reproduces
it, ready to become a regression test (test/random/regressions/). Exit
status 1 if any program failed.

TILEOPT_BUILD_DIR, MLIR_TOOLS_DIR and TILEOPT_CORPUS_COMPILE_ARGS mean what
they mean for check.py.
"""

import argparse
import concurrent.futures
import functools
import re
import shlex
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "corpus"))
import check  # noqa: E402
import generate  # noqa: E402
import reference  # noqa: E402

FAILURES = ("MISMATCH", "CRASH", "TIMEOUT", "INVALID")
STATUSES = ("match", "rounding", "ill-conditioned", "refused", "unchecked") + FAILURES


@dataclass
class Outcome:
    index: int
    name: str
    dtypes: str = ""
    ops: int = 0
    status: str = ""
    err: float = float("nan")
    detail: str = ""        # the reason of a refusal, the symptom of a failure
    log: str = ""           # what the tools said, for a failure's .log
    source: str = ""        # the program's text
    compiled: bool = False
    seconds: float = 0.0

    @property
    def failed(self):
        return self.status in FAILURES


def refusal_reason(ours):
    """The cause of a refusal, with tensor types and float values elided so
    that programs refused for the same reason group together."""
    msg = ours.warnings[0][1] if ours.warnings else ours.error
    msg = re.sub(r"tensor<[^>]*>", "tensor<...>", msg)
    return re.sub(r"-?\d+\.\d*(e[-+]?\d+)?", "X", msg)


def check_random(seed, index, work_root):
    """The outcome of program `index` of `seed`, checked in a fresh
    directory under work_root."""
    name = generate.file_name(seed, index)
    work = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=work_root))
    path = work / name
    try:
        path.write_text(generate.build(seed, index))
    except Exception as e:  # noqa: BLE001  (any generator bug is a finding, not the end of the run)
        return Outcome(index, path.stem, status="INVALID", detail=f"generator: {e!r}", log=traceback.format_exc())
    return check_file(path, work, index, functools.partial(generate.build, seed, index))


def check_file(path, work, index=0, variant=None):
    """The outcome of the program at `path` (its inputs and tile program go
    to `work`). variant(**options) gives the text of the program as
    generate.build(seed, index, **options) writes it: its float64 twin,
    which tells rounding from wrong values, and its means rounded the other
    way; without it any difference beyond the tolerance is a MISMATCH."""
    start = time.monotonic()
    program = reference.Program(path)
    out = Outcome(index, path.stem, source=program.text)
    out.dtypes = ",".join(sorted(program.dtypes()))
    out.ops = len(re.findall(r"^\s+%\S+ = tosa\.(?!const)", program.text, re.M))
    inputs = reference.draw_inputs(program, check.SEED)
    inputs_file = work / "inputs.txt"
    inputs_file.write_text(reference.format_tensors(inputs, [f"%{a[0]}" for a in program.args]))
    try:
        ref = reference.run_reference(program, inputs, timeout=check.TIMEOUT)
    except (reference.ReferenceError, subprocess.TimeoutExpired) as e:
        out.status, out.detail, out.log = "INVALID", reference_failure(e), str(e)
        out.seconds = time.monotonic() - start
        return out
    try:
        ours = check.ours_tile(program, inputs_file, work)
    except subprocess.TimeoutExpired as e:
        out.status, out.detail = "TIMEOUT", f"{Path(e.cmd[0]).name} ran over {e.timeout:g} s"
        out.seconds = time.monotonic() - start
        return out
    out.compiled = ours.stage_ok
    tol = check.tolerance(program)
    if ours.crash:
        out.status, out.detail, out.log = "CRASH", ours.crash.splitlines()[0], ours.crash
    elif ours.outputs is None:
        out.status = "unchecked" if ours.stage_ok else "refused"
        out.detail = refusal_reason(ours) if not ours.stage_ok else ours.error
    else:
        ok, out.err, why = check.compare(ref, ours.outputs, tol)
        out.status, out.detail = ("match", "") if ok else ("MISMATCH", why)
        if not ok and variant:
            try:
                exact = variant_reference(variant(twin=True), work / "twin.mlir", inputs)
                ours_err = check.compare(exact, ours.outputs, tol)[1]
                upstream_err = check.compare(exact, ref, tol)[1]
                out.status = check.verdict_by_exact(ours_err, upstream_err, tol) or "MISMATCH"
                if out.status == "ill-conditioned":
                    out.detail += (f"; {ours_err:.2e} from the float64 twin, upstream's "
                                   f"own execution {upstream_err:.2e}")
                elif vanishing_outputs_agree(ref, exact, ours.outputs, inputs, tol):
                    out.status = "ill-conditioned"
                    out.detail += "; the exact result is 0 where they differ, and ours is within the tolerance of it"
            except (reference.ReferenceError, subprocess.TimeoutExpired) as e:
                out.status, out.detail, out.log = "INVALID", "float64 twin: " + reference_failure(e), str(e)
        if out.status == "MISMATCH" and variant:
            try:
                other = variant_reference(variant(other_mean_rounding=True), work / "other-mean-rounding.mlir", inputs)
                other_ok, other_err, _ = check.compare(other, ours.outputs, tol)
                if other_ok:
                    out.status = "ill-conditioned"
                    out.detail += (f"; {other_err:.2e} from upstream's execution with each mean's "
                                   "1/n rounded the other way")
            except (reference.ReferenceError, subprocess.TimeoutExpired) as e:
                out.status, out.detail, out.log = "INVALID", "means rounded the other way: " + reference_failure(e), str(e)
        if out.status == "MISMATCH":
            out.log = "\n".join([why, "reference:", reference.format_tensors(ref),
                                 "tileopt-interp:", reference.format_tensors(ours.outputs)])
    out.seconds = time.monotonic() - start
    return out


def vanishing_outputs_agree(ref, exact, ours, inputs, tol):
    """Whether each output of ours matches upstream's (`ref`), or its exact
    value (the float64 twin's, `exact`) vanishes and ours is within `tol`
    of it on the scale of the inputs. An exact 0 that comes of cancellation
    (the sum of a normalized row) is computed as rounding noise, 1e-9 in
    f32, whose size no largest |output| can scale: upstream's 3.7e-9 and
    ours 6.5e-9 are both right, and a relative error between them says
    nothing. A wrong kernel still misses by the inputs' scale."""
    scale = max([1.0] + [float(np.max(np.abs(a), initial=0.0)) for a in inputs])
    for r, e, o in zip(ref, exact, ours):
        if check.compare([r], [o], tol)[0]:
            continue
        e, o = np.asarray(e, dtype=np.float64), np.asarray(o, dtype=np.float64)
        if e.shape != o.shape or not np.all(np.isfinite(e)) or not np.all(np.isfinite(o)):
            return False
        # float64's own rounding of a cancellation is 1e-16 of the scale.
        if np.max(np.abs(e), initial=0.0) > 1e-12 * scale or np.max(np.abs(o - e), initial=0.0) > tol * scale:
            return False
    return True


def reference_failure(e):
    """The line of upstream's error that says what went wrong."""
    lines = str(e).splitlines()
    return next((line for line in lines if "error:" in line), lines[0])


def variant_reference(text, path, inputs):
    """Upstream's results for a variant of the program (written to path),
    on the program's inputs."""
    path.write_text(text)
    return reference.run_reference(reference.Program(path), inputs, timeout=check.TIMEOUT)


def reproducer(program_args):
    """The run.py command that checks the same program(s) the same way."""
    compile_args = shlex.join(check.COMPILE_ARGS)
    return f"test/random/run.py {program_args}" + (f" --compile-args={shlex.quote(compile_args)}" if compile_args else "")


def save_failure(out, reproduce, failures_dir):
    """The program with its symptom and the command `reproduce` on top, and
    what the tools said beside it."""
    failures_dir.mkdir(parents=True, exist_ok=True)
    header = [f"// {out.status}: {out.detail}", f"// reproduce: {reproduce}"]
    (failures_dir / f"{out.name}.mlir").write_text("\n".join(header) + "\n" + out.source)
    (failures_dir / f"{out.name}.log").write_text(out.log + "\n")


def row(out):
    err = "" if np.isnan(out.err) else f"{out.err:.1e}"
    return (out.name, out.dtypes, str(out.ops), out.status, err, f"{out.seconds:.1f}", out.detail[:110])


WIDTHS = (16, 13, 3, 9, 7, 5, 0)


def print_row(cells):
    print("  ".join(c.ljust(w) for c, w in zip(cells, WIDTHS)).rstrip(), flush=True)


def summary(outcomes, seconds):
    n = len(outcomes)
    by = Counter(o.status for o in outcomes)
    lines = [f"{n} programs: compiled {sum(o.compiled for o in outcomes)}, "
             f"refused {by['refused']}, matched {by['match'] + by['rounding']} "
             f"({by['rounding']} only up to rounding), ill-conditioned {by['ill-conditioned']}, "
             f"unchecked {by['unchecked']}, "
             f"mismatched {by['MISMATCH']}, crashed {by['CRASH']}, timed out {by['TIMEOUT']}, "
             f"invalid {by['INVALID']}"]
    for status, title in (("refused", "Refused, by reason"), ("unchecked", "Unchecked, by reason")):
        reasons = Counter(o.detail for o in outcomes if o.status == status)
        if reasons:
            lines.append(f"\n{title} (count: reason):")
            lines += [f"  {k:4d}  {r}" for r, k in reasons.most_common()]
    failed = [o for o in outcomes if o.failed]
    if failed:
        lines.append("\nFailures:")
        lines += [f"  {o.name}: {o.status}: {o.detail}" for o in failed]
    times = sorted(o.seconds for o in outcomes)
    if times:
        lines.append(f"\n{seconds:.0f} s in all; per program: median {times[n // 2]:.1f} s, "
                     f"mean {sum(times) / n:.1f} s, max {times[-1]:.1f} s")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="*", help="check these .mlir files instead of generated programs")
    ap.add_argument("--seed", type=int, help="seed of the generated programs (required without files)")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--start", type=int, default=0, help="index of the first program (default 0)")
    ap.add_argument("--jobs", type=int, default=1, help="programs checked at once (default 1)")
    ap.add_argument("--timeout", type=float, default=180, help="seconds a tool may run (default 180)")
    ap.add_argument("--failures", help="where failing programs go (default /tmp/tileopt-random/seed-S)")
    ap.add_argument("--compile-args", default=None,
                    help="extra tileopt-compile options, e.g. '--search-threads=1 --time-budget=5' "
                         "(default: $TILEOPT_CORPUS_COMPILE_ARGS)")
    args = ap.parse_args()
    if args.seed is None and not args.programs:
        ap.error("give --seed S (generated programs) or .mlir files")
    if args.compile_args is not None:
        check.COMPILE_ARGS[:] = shlex.split(args.compile_args)
    check.TIMEOUT = args.timeout
    failures_dir = Path(args.failures or ("/tmp/tileopt-random/files" if args.programs
                                          else f"/tmp/tileopt-random/seed-{args.seed}"))
    start = time.monotonic()
    print_row(("program", "dtypes", "ops", "status", "error", "s", "reason / symptom"))
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="tileopt-random-") as work_root, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        if args.programs:
            futures = {pool.submit(check_file, Path(p), Path(tempfile.mkdtemp(dir=work_root)), i): p
                       for i, p in enumerate(args.programs)}
        else:
            futures = {pool.submit(check_random, args.seed, i, work_root): f"--seed={args.seed} --start={i} --count=1"
                       for i in range(args.start, args.start + args.count)}
        for future in concurrent.futures.as_completed(futures):
            out = future.result()
            outcomes.append(out)
            print_row(row(out))
            if out.failed:
                save_failure(out, reproducer(futures[future]), failures_dir)
    outcomes.sort(key=lambda o: o.index)
    print("\n" + summary(outcomes, time.monotonic() - start))
    if any(o.failed for o in outcomes):
        print(f"\nFailing programs written to {failures_dir}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
