#!/usr/bin/env python3
"""The corpus on the GPU: compiled artifacts against upstream MLIR's results.

    # here (LLVM/MLIR, no GPU): compile each program and compute its
    # reference with mlir-runner, into DIR (git-ignored, carried)
    test/corpus/gpu.py prepare build/device-corpus [--full] [NAME...]
    # or random programs (test/random/generate.py), programs START.. of SEED
    test/corpus/gpu.py prepare build/device-random --random SEED:START:COUNT
    # on the GPU machine (torch, the runtime; no MLIR)
    test/corpus/gpu.py run build/device-corpus

prepare: for each program of programs/ (with --full also gen.py's full-size
workloads, written to DIR/full-programs), `tileopt-compile PROGRAM -o
DIR/NAME` (TILEOPT_CORPUS_COMPILE_ARGS adds options), seeded inputs drawn as
check.py draws them, and the outputs of upstream MLIR's own execution of the
program (reference.run_reference: mlir-opt + mlir-runner only), saved as
DIR/NAME/corpus.npz (as f32, with the program's path relative to it and
its tolerance; the
inputs are drawn again on the GPU machine from the same seed, since at full
size they are hundreds of MB). A program that does not compile or whose
reference fails is listed as such, not dropped (a random program that
TileOpt refuses with a diagnostic is counted apart, as run.py counts it).
Each program has judges, the first of which decides: upstream at test
size, the float64 meaning at full size (upstream's f16 execution
accumulates in f16 and overflows); a random program whose values are as
close to its float64 twin's upstream results is `rounding`, and one no
farther from that exact meaning than upstream's own execution in the
program's types is `ill-conditioned` (judge()).

run: loads each artifact (tileopt.runtime.Artifact, on torch's current
device), binds the inputs by buffer name (the source's argument names),
runs it, and compares its outputs with the reference as check.py does (the
largest difference over the largest |reference|, per output, against the
program's tolerance), against each of its judges; all errors are printed. Then it times it (CUDA events, median of 50 launches
after warm-up; --check-only launches once and does not time, for
compute-sanitizer; --test-size leaves the full-size programs out). Prints
one line per program and a table; exit status 1 if
any program is wrong or did not run.
"""

import argparse
import math
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "python"))

REFERENCE_FILE = "corpus.npz"


def corpus_programs(out, full, names):
    """The corpus's programs (with `full` also gen.py's full-size workloads,
    written to out/full-programs), each with the float64 NumPy meaning as
    its second judge."""
    import meaning  # noqa: E402

    programs = [(p, p.stem) for p in sorted((HERE / "programs").glob("*.mlir"))]
    if full:
        full_dir = out / "full-programs"
        subprocess.run([sys.executable, str(HERE / "gen.py"), "--size=full", "-o", str(full_dir)],
                       check=True, capture_output=True)
        programs += [(p, p.stem + "_full") for p in sorted(full_dir.glob("*.mlir"))]
    for path, name in programs:
        if names and path.stem not in names:
            continue

        def judges(program, inputs, expected):
            meant = meaning.MEANINGS[program.name](*inputs)
            # At full size the f16 programs' upstream execution accumulates
            # and squares in f16 (sums of 4096 terms; overflows in ntrans's
            # norms), so the judge there is the float64 meaning.
            order = ["meaning", "expected"] if name.endswith("_full") else ["expected", "meaning"]
            return order, {"meaning": meant if isinstance(meant, tuple) else (meant,)}
        yield path, name, judges


def random_programs(out, seed, start, count):
    """Programs start..start+count-1 of test/random/generate.py's `seed`,
    written to out/random-programs; a program's second judge is upstream's
    execution of its float64 twin, as test/random/run.py judges it (the
    kernels may keep f32 between ops where upstream rounds each, and sum in
    another order)."""
    import reference  # noqa: E402

    sys.path.insert(0, str(ROOT / "test" / "random"))
    import generate  # noqa: E402

    programs = out / "random-programs"
    programs.mkdir(parents=True, exist_ok=True)
    for index in range(start, start + count):
        path = programs / generate.file_name(seed, index)
        path.write_text(generate.build(seed, index))

        def judges(program, inputs, expected, index=index):
            twin = programs / (path.stem + "_twin.mlir")
            twin.write_text(generate.build(seed, index, twin=True))
            return ["expected", "twin"], {
                "twin": reference.run_reference(reference.Program(twin), inputs, timeout=600)}
        yield path, path.stem, judges


def prepare(args):
    import check  # noqa: E402  (MLIR tools: only here)
    import reference  # noqa: E402

    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    if args.random:
        seed, start, count = (int(n) for n in args.random.split(":"))
        programs = random_programs(out, seed, start, count)
    else:
        programs = corpus_programs(out, args.full, args.names)
    compile_args = shlex.split(os.environ.get("TILEOPT_CORPUS_COMPILE_ARGS", ""))
    failed = refused = 0
    for path, name, judges in programs:
        artifact = out / name
        start = time.monotonic()
        compiled = subprocess.run([check.tool("tileopt-compile"), str(path), "-o", str(artifact),
                                   *compile_args], capture_output=True, text=True)
        if compiled.returncode:
            errors = [l for l in compiled.stderr.splitlines() if "error:" in l]
            print(f"{name}: does not compile: {errors[0] if errors else compiled.stderr[-300:]}")
            # A generated program may use what TileOpt refuses with a
            # diagnostic (run.py counts those apart); a corpus program must compile.
            refused += bool(args.random) and compiled.returncode == 1
            failed += not (args.random and compiled.returncode == 1)
            continue
        program = reference.Program(path)
        inputs = reference.draw_inputs(program, check.SEED)
        try:
            expected = reference.run_reference(program, inputs, timeout=1800)
            order, others = judges(program, inputs, expected)
        except reference.ReferenceError as e:
            print(f"{name}: no reference: {str(e)[:300]}")
            failed += 1
            continue
        np.savez(artifact / REFERENCE_FILE,
                 program=os.path.relpath(path.resolve(), artifact.resolve()),
                 tolerance=check.tolerance(program), judges=np.array(order),
                 **{f"{key}{i}": np.asarray(r, dtype=np.float32)
                    for key, results in {"expected": expected, **others}.items()
                    for i, r in enumerate(results)})
        print(f"{name}: compiled and referenced in {time.monotonic() - start:.1f} s")
    print(f"prepared {len(list(out.glob('*/' + REFERENCE_FILE)))} programs; "
          f"{refused} refused by TileOpt, {failed} failed")
    return 1 if failed else 0


def judge_results(ref, key):
    """The outputs of judge `key` (`expected`, `meaning`, `twin`) as saved
    by prepare: key0, key1, ..."""
    return [ref[f"{key}{i}"] for i in range(sum(f.startswith(key) for f in ref.files))]


def judge(ref, judges, errors, tol):
    """The first judge decides; a later one within the tolerance makes it
    `rounding`. Beyond that, the exact meaning (the float64 twin or
    meaning) and upstream's execution decide as check.verdict_by_exact
    says."""
    import check  # noqa: E402  (no MLIR tool runs here)
    if errors[0] <= tol:
        return "match"
    if any(e <= tol for e in errors[1:]):
        return "rounding"
    exact = next((j for j in judges if j in ("twin", "meaning")), None)
    if exact and "expected" in judges:
        upstream = check.compare(judge_results(ref, exact), judge_results(ref, "expected"), tol)[1]
        return check.verdict_by_exact(errors[judges.index(exact)], upstream, tol) or "MISMATCH"
    return "MISMATCH"


def run(args):
    import torch
    from tileopt.runtime import Artifact
    import check  # noqa: E402  (the seed; no MLIR tool runs here)
    import reference  # noqa: E402  (draw_inputs)

    rows, failed = [], 0
    for artifact_dir in sorted(p for p in Path(args.dir).iterdir() if (p / REFERENCE_FILE).is_file()):
        name = artifact_dir.name
        if args.test_size and name.endswith("_full"):
            continue
        ref = np.load(artifact_dir / REFERENCE_FILE)
        program = reference.Program(artifact_dir / str(ref["program"]))
        tol = float(ref["tolerance"])
        try:
            artifact = Artifact(artifact_dir)
            dtypes = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
            by_name = {b.name: b for b in artifact.buffers}
            named = {}
            inputs = reference.draw_inputs(program, check.SEED)
            for (arg, _, _), values in zip(program.args, inputs):
                b = by_name[arg]
                named[arg] = torch.tensor(values, dtype=torch.float64).to(
                    dtypes[b.dtype]).reshape(b.shape).cuda()
            outputs = [b for b in artifact.buffers if b.role == "output"]
            results = [torch.full(b.shape, float("nan"), dtype=dtypes[b.dtype], device="cuda")
                       for b in outputs]
            named.update({b.name: t for b, t in zip(outputs, results)})
            artifact(**named)
            torch.cuda.synchronize()
            got = [r.double().cpu().numpy() for r in results]

            judges = [str(j) for j in ref["judges"]]
            # check.compare's error against each judge (inf where the
            # outputs' count, shapes or NaNs differ).
            errors = [check.compare(judge_results(ref, j), got, tol)[1] for j in judges]
            verdict = judge(ref, judges, errors, tol)
            for _ in range(0 if args.check_only else 5):
                artifact(**named)
            times = []
            for _ in range(0 if args.check_only else 50):
                begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                begin.record()
                artifact(**named)
                end.record()
                end.synchronize()
                times.append(begin.elapsed_time(end) * 1000)
            us = float(np.median(times)) if times else math.nan
            artifact.close()
        except Exception as e:  # noqa: BLE001  (a program that cannot run is a row of the table)
            print(f"{name}: ERROR {type(e).__name__}: {e}")
            rows.append((name, "ERROR", "", tol, math.nan))
            failed += 1
            continue
        failed += verdict == "MISMATCH"
        rows.append((name, verdict, ", ".join(f"{j} {e:.2e}" for j, e in zip(judges, errors)), tol, us))
        print(f"{name}: {verdict} rel err {rows[-1][2]} (tolerance {tol:g}), {us:.1f} us")
    print(f"\n{'program':32} {'verdict':9} {'errors (first judge decides)':40} {'tol':>7} {'us':>9}")
    for name, verdict, errors, tol, us in rows:
        print(f"{name:32} {verdict:9} {errors:40} {tol:7g} {us:9.1f}")
    counts = {v: sum(r[1] == v for r in rows)
              for v in ("match", "rounding", "ill-conditioned", "MISMATCH", "ERROR")}
    print(f"\n{len(rows)} programs on {torch.cuda.get_device_name()}: "
          + ", ".join(f"{n} {v}" for v, n in counts.items()))
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("dir")
    p.add_argument("--full", action="store_true", help="also the full-size workloads of gen.py")
    p.add_argument("--random", metavar="SEED:START:COUNT",
                   help="test/random/generate.py's programs instead of the corpus")
    p.add_argument("names", nargs="*")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--check-only", action="store_true",
                   help="one launch each, not timed (for compute-sanitizer)")
    r.add_argument("--test-size", action="store_true", help="leave the full-size programs out")
    args = parser.parse_args()
    return prepare(args) if args.command == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
