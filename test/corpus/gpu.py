#!/usr/bin/env python3
"""The corpus on the GPU: compiled artifacts against upstream MLIR's results.

    # here (LLVM/MLIR, no GPU): compile each program and compute its
    # reference with mlir-runner, into DIR (git-ignored, carried)
    test/corpus/gpu.py prepare build/device-corpus [--full] [NAME...]
    # on the GPU machine (torch, the runtime; no MLIR)
    test/corpus/gpu.py run build/device-corpus

prepare: for each program of programs/ (with --full also gen.py's full-size
workloads, written to DIR/full-programs), `tileopt-compile PROGRAM -o
DIR/NAME` (TILEOPT_CORPUS_COMPILE_ARGS adds options), seeded inputs drawn as
check.py draws them, and the outputs of upstream MLIR's own execution of the
program (reference.run_reference: mlir-opt + mlir-runner only), saved as
DIR/NAME/corpus.npz (as f32, with the program's path and tolerance; the
inputs are drawn again on the GPU machine from the same seed, since at full
size they are hundreds of MB). A program that does not compile or whose
reference fails is listed as such, not dropped.

run: loads each artifact (tileopt.runtime.Artifact, on torch's current
device), binds the inputs by buffer name (the source's argument names),
runs it, and compares its outputs with the reference as check.py does (the
largest difference over the largest |reference|, per output, against the
program's tolerance): upstream MLIR's at test size, the program's float64
NumPy meaning (meaning.py) at full size, where upstream's f16 execution
accumulates in f16 and overflows; both errors are printed. Then it times it (CUDA events, median of 50 launches
after warm-up). Prints one line per program and a table; exit status 1 if
any program is wrong or did not run.
"""

import argparse
import json
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


def prepare(args):
    import check  # noqa: E402  (MLIR tools: only here)
    import meaning  # noqa: E402
    import reference  # noqa: E402

    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    programs = sorted((HERE / "programs").glob("*.mlir"))
    if args.full:
        full = out / "full-programs"
        subprocess.run([sys.executable, str(HERE / "gen.py"), "--size=full", "-o", str(full)],
                       check=True, capture_output=True)
        programs += sorted(full.glob("*.mlir"))
    if args.names:
        programs = [p for p in programs if p.stem in args.names]
    compile_args = shlex.split(os.environ.get("TILEOPT_CORPUS_COMPILE_ARGS", ""))
    failed = 0
    for path in programs:
        name = path.stem + ("_full" if path.parent.name == "full-programs" else "")
        artifact = out / name
        start = time.monotonic()
        compiled = subprocess.run([check.tool("tileopt-compile"), str(path), "-o", str(artifact),
                                   *compile_args], capture_output=True, text=True)
        if compiled.returncode:
            errors = [l for l in compiled.stderr.splitlines() if "error:" in l]
            print(f"{name}: does not compile: {errors[0] if errors else compiled.stderr[-300:]}")
            failed += 1
            continue
        program = reference.Program(path)
        inputs = reference.draw_inputs(program, check.SEED)
        try:
            expected = reference.run_reference(program, inputs, timeout=1800)
        except reference.ReferenceError as e:
            print(f"{name}: no reference: {str(e)[:300]}")
            failed += 1
            continue
        meant = meaning.MEANINGS[program.name](*inputs)
        meant = meant if isinstance(meant, tuple) else (meant,)
        np.savez(artifact / REFERENCE_FILE,
                 program=str(path.resolve().relative_to(ROOT)),
                 tolerance=check.tolerance(program),
                 **{f"expected{i}": np.asarray(r, dtype=np.float32)
                    for i, r in enumerate(expected)},
                 **{f"meaning{i}": np.asarray(r, dtype=np.float32)
                    for i, r in enumerate(meant)})
        print(f"{name}: compiled and referenced in {time.monotonic() - start:.1f} s")
    return 1 if failed else 0


def run(args):
    import torch
    from tileopt.runtime import Artifact
    import check  # noqa: E402  (the seed; no MLIR tool runs here)
    import reference  # noqa: E402  (draw_inputs)

    rows, failed = [], 0
    for artifact_dir in sorted(p for p in Path(args.dir).iterdir() if (p / REFERENCE_FILE).is_file()):
        name = artifact_dir.name
        ref = np.load(artifact_dir / REFERENCE_FILE)
        program = reference.Program(ROOT / str(ref["program"]))
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

            def error(key):
                """check.compare's error of the outputs against reference `key`
                (inf where their count, shapes or NaNs differ)."""
                count = sum(f.startswith(key) for f in ref.files)
                return check.compare([ref[f"{key}{i}"] for i in range(count)], got, tol)[1]
            upstream, meant = error("expected"), error("meaning")
            # At full size the f16 programs' upstream execution accumulates
            # and squares in f16 (sums of 4096 terms; overflows in ntrans's
            # norms), so the judge there is the float64 meaning.
            worst = meant if name.endswith("_full") else upstream
            ok = worst <= tol
            for _ in range(5):
                artifact(**named)
            times = []
            for _ in range(50):
                begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                begin.record()
                artifact(**named)
                end.record()
                end.synchronize()
                times.append(begin.elapsed_time(end) * 1000)
            us = float(np.median(times))
            artifact.close()
        except Exception as e:  # noqa: BLE001  (a program that cannot run is a row of the table)
            print(f"{name}: ERROR {type(e).__name__}: {e}")
            rows.append((name, "ERROR", math.nan, math.nan, tol, math.nan))
            failed += 1
            continue
        failed += not ok
        rows.append((name, "match" if ok else "MISMATCH", upstream, meant, tol, us))
        print(f"{name}: {'match' if ok else 'MISMATCH'} rel err {worst:.2e} (tolerance {tol:g}), {us:.1f} us")
    print(f"\n{'program':32} {'verdict':9} {'upstream':>9} {'float64':>9} {'tol':>7} {'us':>9}")
    for name, verdict, upstream, meant, tol, us in rows:
        print(f"{name:32} {verdict:9} {upstream:9.2e} {meant:9.2e} {tol:7g} {us:9.1f}")
    print(f"\n{sum(r[1] == 'match' for r in rows)} of {len(rows)} match on "
          f"{torch.cuda.get_device_name()}")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("dir")
    p.add_argument("--full", action="store_true", help="also the full-size workloads of gen.py")
    p.add_argument("names", nargs="*")
    r = sub.add_parser("run")
    r.add_argument("dir")
    args = parser.parse_args()
    return prepare(args) if args.command == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
