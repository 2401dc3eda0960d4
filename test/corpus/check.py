#!/usr/bin/env python3
"""Runs the TOSA corpus through TileOpt and compares with upstream MLIR.

    test/corpus/check.py                  # every program, "ours" = --ours=tile
    test/corpus/check.py --ours=import    # today's fallback (see below)
    test/corpus/check.py --ours=import rmsnorm softmax -v

For each program of test/corpus/programs (or the given names / paths):

1. draw seeded inputs (reference.draw_inputs: uniform(-1, 1) unless the
   program's header says otherwise, rounded to each argument's type);
2. the reference: reference.run_reference, upstream mlir-opt + mlir-runner
   only;
3. self-checks of the reference: it must agree with the program's NumPy
   meaning (meaning.MEANINGS), and must reject a deliberately perturbed copy
   of itself and the program's near miss (meaning.NEAR_MISSES);
4. "ours" (one function per mode, OURS below), compared with the reference
   relative to the largest output magnitude: 2e-2 if the program has f16 or
   bf16 anywhere, else 1e-4, unless its header says `// tolerance: X`.

--ours=tile     tileopt-compile PROGRAM --emit=tile -o -  (a tile program
                with a host function), then tileopt-interp TILEFILE
                --inputs=IN --domain=f32.
--ours=import   stock mlir-opt tosa-to-linalg passes, tileopt-opt
                --tileopt-import-linalg (warnings = what did not import),
                tileopt-interp --function=NAME --inputs=IN --domain=f32 on
                the kernel graph.

Exit status: 1 if a reference self-check fails or "ours" gives values that
do not match; with --strict also if "ours" gives no values at all.
TILEOPT_BUILD_DIR (default: build/) locates TileOpt's tools; MLIR_TOOLS_DIR
the stock ones; TILEOPT_CORPUS_COMPILE_ARGS (or --compile-args) adds
tileopt-compile options in --ours=tile.
"""

import argparse
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import meaning  # noqa: E402
import reference  # noqa: E402

ROOT = HERE.parents[1]
PROGRAMS_DIR = HERE / "programs"
BUILD_DIR = Path(os.environ.get("TILEOPT_BUILD_DIR", ROOT / "build"))
SEED = 0
TIMEOUT = 300
# Extra tileopt-compile options for --ours=tile (e.g. a search budget).
COMPILE_ARGS = shlex.split(os.environ.get("TILEOPT_CORPUS_COMPILE_ARGS", ""))


def tool(name):
    return str(BUILD_DIR / "bin" / name)


def tolerance(program):
    """Relative to the largest output: 2e-2 with f16/bf16 anywhere in the
    program, else 1e-4; a `// tolerance: X` header line overrides it."""
    m = re.search(r"^//\s*tolerance:\s*(\S+)", program.text, re.M)
    if m:
        return float(m.group(1))
    return 2e-2 if program.dtypes() & {"f16", "bf16"} else 1e-4


def compare(want, got, tol):
    """(ok, relative error, why not) of outputs `got` against `want`: the
    largest difference over the largest |want|, per output; NaNs must match."""
    if len(want) != len(got):
        return False, float("inf"), f"{len(got)} outputs, expected {len(want)}"
    worst = 0.0
    for i, (w, g) in enumerate(zip(want, got)):
        w, g = np.asarray(w, dtype=np.float64), np.asarray(g, dtype=np.float64)
        if w.shape != g.shape:
            return False, float("inf"), f"output #{i}: shape {g.shape}, expected {w.shape}"
        if not np.array_equal(np.isnan(w), np.isnan(g)):
            return False, float("inf"), f"output #{i}: NaNs differ"
        finite = ~np.isnan(w)
        scale = max(np.max(np.abs(w[finite]), initial=0.0), np.finfo(np.float32).tiny)
        err = float(np.max(np.abs(w[finite] - g[finite]), initial=0.0) / scale)
        if not np.isfinite(err):
            return False, float("inf"), f"output #{i}: infinities differ"
        worst = max(worst, err)
    return worst <= tol, worst, "" if worst <= tol else f"relative error {worst:.2e} > {tol:g}"


def verdict_by_exact(ours_from_exact, upstream_from_exact, tol):
    """What values that miss upstream's result are, by their error against
    the program's exact (float64) meaning: `rounding` within the tolerance;
    `ill-conditioned` no farther than upstream's own execution in the
    program's types is (the program cannot be computed closer at its
    precision, and TileOpt did no worse than upstream); else None, a
    mismatch (test/random/run.py, test/corpus/gpu.py)."""
    if ours_from_exact <= tol:
        return "rounding"
    if ours_from_exact <= upstream_from_exact:
        return "ill-conditioned"
    return None


def perturbed(outputs, tol):
    """A copy with one element moved by 10x the tolerance of its output."""
    out = [np.array(o, dtype=np.float64) for o in outputs]
    flat = out[-1].reshape(-1)
    flat[flat.size // 2] += 10 * tol * max(np.max(np.abs(flat)), 1.0)
    return out


# ---------------------------------------------------------------------------
# "Ours"
# ---------------------------------------------------------------------------


@dataclass
class Ours:
    outputs: list = None                           # None: ours gave no values
    stage_ok: bool = False                         # compiled (tile) / imported whole (import)
    warnings: list = field(default_factory=list)   # (line, message)
    error: str = ""                                # why there are no values
    crash: str = ""                                # a tool died: crash_report's text


def _run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, **kw)


def _warnings(stderr):
    """(line, message) of each `warning:` diagnostic, the message extended
    with the constant it is about for the importer's constant warnings."""
    warnings = []
    for m in re.finditer(r"^[^:\n]+:(\d+):\d+: warning: (.*)$((?:\n(?![^:\n]+:\d+:\d+: warning).*)*)",
                         stderr, re.M):
        msg = m.group(2).strip()
        # Say which constant: eps, the 1 of a reciprocal or sigmoid, ...
        const = re.search(r"note: see current operation: .*arith\.constant (dense\w*<[^>]*>)", m.group(3))
        if msg.startswith("constant in the kernel graph") and const:
            value = "a non-splat tensor" if const.group(1).startswith("dense_resource") else const.group(1)
            msg += f" [{value}]"
        # tileopt-compile locates diagnostics in the TOSA source: say at which op.
        src = m.group(3).lstrip("\n").split("\n", 1)[0]
        tosa = re.search(r"\btosa\.\w+", src)
        if tosa:
            msg += f" (at {tosa.group(0)})"
        warnings.append((int(m.group(1)), msg))
    return warnings


# What LLVM prints when a tool dies rather than refuses its input with a
# diagnostic (an assertion, llvm_unreachable, report_fatal_error, a signal).
CRASH_MARKERS = ("Assertion", "LLVM ERROR:", "UNREACHABLE executed", "PLEASE submit a bug report", "Stack dump:")


def crash_report(tool_name, run):
    """"" when `run` exited on its own without LLVM's crash output (a clean
    diagnostic is a refusal, not a crash); else a headline (the signal, the
    assertion or fatal error) and then the end of what the tool printed."""
    lines = run.stderr.splitlines()
    marked = [line for line in lines if any(m in line for m in CRASH_MARKERS[:3])]
    if run.returncode >= 0 and not any(m in run.stderr for m in CRASH_MARKERS):
        return ""
    how = f"killed by {signal.Signals(-run.returncode).name}" if run.returncode < 0 else f"exit {run.returncode}"
    headline = f"{tool_name} {how}: {marked[0].strip() if marked else _first_error(run.stderr)}"
    return "\n".join([headline, *lines[-40:]])


def _first_error(stderr):
    for line in stderr.splitlines():
        if "error" in line:
            return re.sub(r"^.*?error: ", "", line).strip()
    return stderr.strip().splitlines()[-1] if stderr.strip() else "failed without a message"


def _interp(graph_file, inputs_file, function=None):
    cmd = [tool("tileopt-interp"), str(graph_file), f"--inputs={inputs_file}", "--domain=f32", "--precision=9"]
    if function:
        cmd.append(f"--function={function}")
    run = _run(cmd)
    if run.returncode:
        return None, "tileopt-interp: " + _first_error(run.stderr), crash_report("tileopt-interp", run)
    try:
        return reference.parse_tensors(run.stdout), "", ""
    except ValueError as e:
        return None, f"cannot read tileopt-interp's output: {e}", ""


def _host_output_names(tile_text, name):
    """The tileopt.name of each tileopt.output argument of the host function
    @name, in order ("" where it has none)."""
    m = re.search(r"func\.func\s+@" + re.escape(name) + r"\s*\(", tile_text)
    if not m:
        return None
    args, _ = reference._balanced(tile_text, m.end() - 1)
    names = []
    for arg in re.split(r",\s*(?=%)", args):
        if "tileopt.output" in arg:
            n = re.search(r'tileopt\.name\s*=\s*"([^"]*)"', arg)
            names.append(n.group(1) if n else "")
    return names


def _select_results(outputs, names, program):
    """The program's results among the host's output buffers: those not
    named tmp* (scratch the host also marks tileopt.output), else the first
    ones."""
    n = len(program.results)
    if names and len(names) == len(outputs):
        kept = [o for o, nm in zip(outputs, names) if not nm.startswith("tmp")]
        if len(kept) == n:
            return kept
    return outputs[:n] if len(outputs) >= n else outputs


def ours_tile(program, inputs_file, work):
    """THE pipeline: tileopt-compile --emit=tile, then the tile interpreter."""
    compiled = _run([tool("tileopt-compile"), str(program.path), "--emit=tile", "-o", "-", *COMPILE_ARGS])
    warnings = _warnings(compiled.stderr)
    if compiled.returncode:
        return Ours(warnings=warnings, error="tileopt-compile: " + _first_error(compiled.stderr),
                    crash=crash_report("tileopt-compile", compiled))
    tile_file = work / "tile.mlir"
    tile_file.write_text(compiled.stdout)
    outputs, error, crash = _interp(tile_file, inputs_file)
    if outputs is not None:
        outputs = _select_results(outputs, _host_output_names(compiled.stdout, program.name), program)
    return Ours(outputs=outputs, stage_ok=True, warnings=warnings, error=error, crash=crash)


def ours_import(program, inputs_file, work):
    """Fallback while --emit=tile does not exist: the kernel graph the
    importer makes, run by the kernel-graph interpreter."""
    lowered = _run([str(reference.MLIR_TOOLS_DIR / "mlir-opt"), str(program.path),
                    f"--pass-pipeline=builtin.module({reference.TOSA_TO_LINALG})"])
    if lowered.returncode:
        return Ours(error="mlir-opt (tosa-to-linalg): " + _first_error(lowered.stderr))
    graph = work / "tk.mlir"
    imported = _run([tool("tileopt-opt"), "--tileopt-import-linalg", "-", "-o", str(graph)], input=lowered.stdout)
    warnings = _warnings(imported.stderr)
    if imported.returncode:
        return Ours(warnings=warnings, error="tileopt-opt: " + _first_error(imported.stderr),
                    crash=crash_report("tileopt-opt", imported))
    outputs, error, crash = _interp(graph, inputs_file, program.name)
    return Ours(outputs=outputs, stage_ok=not warnings, warnings=warnings, error=error, crash=crash)


OURS = {"tile": ours_tile, "import": ours_import}

# ---------------------------------------------------------------------------
# One program
# ---------------------------------------------------------------------------


@dataclass
class Result:
    name: str
    dtypes: str = ""
    tol: float = 0.0
    ref_ok: bool = False
    self_check: list = field(default_factory=list)   # failed self-checks
    ours: Ours = None
    match: bool = None                                 # None: nothing to compare
    err: float = float("nan")
    why: str = ""
    seconds: float = 0.0

    @property
    def failed(self):
        return not self.ref_ok or bool(self.self_check) or self.match is False


def reference_and_self_check(program, inputs):
    """The upstream outputs and the list of failed self-checks."""
    tol = tolerance(program)
    ref = reference.run_reference(program, inputs)
    failures = []
    fn = meaning.MEANINGS.get(program.name)
    if fn is None:
        failures.append("no NumPy meaning in meaning.py")
    else:
        want = fn(*inputs)
        want = list(want) if isinstance(want, tuple) else [want]
        ok, err, why = compare(want, ref, tol)
        if not ok:
            failures.append(f"upstream disagrees with the NumPy meaning: {why}")
    if compare(ref, perturbed(ref, tol), tol)[0]:
        failures.append("a perturbed output was accepted")
    near = meaning.NEAR_MISSES.get(program.name)
    if near is not None:
        wrong = near(*inputs)
        wrong = list(wrong) if isinstance(wrong, tuple) else [wrong]
        if compare(wrong, ref, tol)[0]:
            failures.append("the near miss was accepted")
    return ref, failures


def check_program(path, mode):
    start = time.monotonic()
    program = reference.Program(path)
    r = Result(program.name, ",".join(sorted(program.dtypes())), tolerance(program))
    inputs = reference.draw_inputs(program, SEED)
    with tempfile.TemporaryDirectory(prefix=f"corpus-{program.name}-") as tmp:
        work = Path(tmp)
        inputs_file = work / "inputs.txt"
        inputs_file.write_text(reference.format_tensors(inputs, [f"%{a[0]}" for a in program.args]))
        try:
            ref, r.self_check = reference_and_self_check(program, inputs)
            r.ref_ok = True
        except reference.ReferenceError as e:
            r.why = str(e).splitlines()[0]
            r.seconds = time.monotonic() - start
            return r
        r.ours = OURS[mode](program, inputs_file, work)
        if r.ours.outputs is not None:
            r.match, r.err, r.why = compare(ref, r.ours.outputs, r.tol)
        else:
            r.why = r.ours.error
    r.seconds = time.monotonic() - start
    return r


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def report(results, mode, verbose):
    stage = {"tile": "compiles", "import": "imports"}[mode]
    rows = [("program", "dtypes", "reference", stage, "matches", "error", "s")]
    for r in results:
        ref = "ok" if r.ref_ok and not r.self_check else ("SELF-CHECK" if r.ref_ok else "FAILED")
        if r.ours is None:
            st = "-"
        elif r.ours.warnings and not r.ours.stage_ok:
            st = f"no ({len(r.ours.warnings)} warn)"
        else:
            st = "yes" if r.ours.stage_ok else "no"
        m = {True: "yes", False: "NO", None: "no values"}[r.match]
        rows.append((r.name, r.dtypes, ref, st, m, "" if np.isnan(r.err) else f"{r.err:.1e}", f"{r.seconds:.2f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for k, row in enumerate(rows):
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
        if k == 0:
            print("  ".join("-" * w for w in widths))

    problems = [r for r in results if r.self_check or not r.ref_ok]
    if problems:
        print("\nReference problems:")
        for r in problems:
            for p in r.self_check or [r.why]:
                print(f"  {r.name}: {p}")
    no_values = [r for r in results if r.ref_ok and r.match is None]
    if no_values:
        print("\nWhy \"ours\" gave no values:")
        for r in no_values:
            print(f"  {r.name}: {r.why}")
    mismatches = [r for r in results if r.match is False]
    if mismatches:
        print("\nMismatches:")
        for r in mismatches:
            print(f"  {r.name}: {r.why}")
    groups = defaultdict(list)
    for r in results:
        for _, msg in (r.ours.warnings if r.ours else []):
            groups[msg].append(r.name)
    if groups:
        who = "tileopt-compile" if mode == "tile" else "Importer"
        print(f"\n{who} warnings, grouped (count: programs):")
        for msg, names in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            uniq = sorted(set(names))
            print(f"  {len(names):3d}  {msg}\n       in {len(uniq)}: {', '.join(uniq)}")
    if verbose:
        for r in results:
            for line, msg in (r.ours.warnings if r.ours else []):
                print(f"  {r.name}: line {line}: {msg}")


def corpus(names):
    if not names:
        return sorted(PROGRAMS_DIR.glob("*.mlir"))
    return [Path(n) if n.endswith(".mlir") else PROGRAMS_DIR / f"{n}.mlir" for n in names]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="*", help="names in test/corpus/programs or .mlir paths (default: all)")
    ap.add_argument("--ours", choices=sorted(OURS), default="tile")
    ap.add_argument("--strict", action="store_true", help="also fail when ours gives no values")
    ap.add_argument("-v", "--verbose", action="store_true", help="every warning with its line")
    ap.add_argument("--compile-args", default=None,
                    help="extra tileopt-compile options for --ours=tile, e.g. '--time-budget=10 --search-threads=1' "
                         "(default: $TILEOPT_CORPUS_COMPILE_ARGS)")
    args = ap.parse_args()
    if args.compile_args is not None:
        COMPILE_ARGS[:] = shlex.split(args.compile_args)
    start = time.monotonic()
    results = [check_program(p, args.ours) for p in corpus(args.programs)]
    report(results, args.ours, args.verbose)
    n = len(results)
    print(f"\n{n} programs, --ours={args.ours}: reference ok {sum(r.ref_ok and not r.self_check for r in results)}, "
          f"{'compiled' if args.ours == 'tile' else 'imported whole'} "
          f"{sum(bool(r.ours and r.ours.stage_ok) for r in results)}, "
          f"values {sum(r.match is not None for r in results)}, matching {sum(r.match is True for r in results)}; "
          f"{time.monotonic() - start:.1f} s")
    bad = any(r.failed for r in results) or (args.strict and any(r.match is None for r in results))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
