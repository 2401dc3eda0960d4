"""Times the superoptimizer's candidates of one program on a GPU.

Usage: time_candidates.py DIR [--out TIMES.json] [--eager]

DIR is what `scripts/rank-candidates.sh search` writes: candidates.json (the
ranked candidates, their keys and the cost model's estimates) and one
compiled artifact per candidate, DIR/<rank>/. Every artifact runs on the
same seeded inputs; its first output (the program's result; the others are
the tensors between its kernels) must match the input program's within
2e-2 of its largest magnitude, else it is reported and not timed. Inputs
are uniform in [-1, 1), as bench/tile/bench.py's: positive ones overflow
f16 in a gated MLP (silu(X W1) * (X W2) with 4096-long sums of positive
products passes 65504), and an error measured against the largest
magnitude, not per element, is not misled by cancelling sums.

Times are medians of triton.testing.do_bench_cudagraph (replayed from a
CUDA graph, as BENCHMARKS.md's peers are; --eager: do_bench, launched one
by one). The output, for `tileopt-superoptimize{measured-times=...}`:
{"gpu": ..., "times_us": {"<candidate key>": microseconds, ...}}.
"""

import argparse
import json
import sys
from pathlib import Path

import torch
from triton.testing import do_bench, do_bench_cudagraph

from tileopt.runtime import Artifact

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
TOLERANCE = 2e-2


def rel_err(got, expected):
    """Max |got - expected| / max(|expected|), over every element."""
    return ((got.double() - expected.double()).abs().max() /
            expected.double().abs().max()).item()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--eager", action="store_true")
    args = parser.parse_args()
    bench = do_bench if args.eager else do_bench_cudagraph
    listing = json.loads((args.dir / "candidates.json").read_text())
    candidates = listing["candidates"]
    reference = next(c for c in candidates if c["input"])
    # The input program first: it is what the others are checked against.
    order = [reference] + [c for c in candidates if c is not reference]

    torch.manual_seed(0)
    inputs = None
    expected = None
    rows = []
    times = {}
    for c in order:
        path = args.dir / str(c["rank"])
        if not path.is_dir():
            rows.append((c, None, None, "not compiled"))
            continue
        artifact = Artifact(str(path))
        if inputs is None:
            inputs = [torch.rand(b.shape, device="cuda", dtype=DTYPES[b.dtype])
                      * 2 - 1 for b in artifact.buffers if b.role == "input"]
        outputs = [torch.full(b.shape, float("nan"), device="cuda",
                              dtype=DTYPES[b.dtype])
                   for b in artifact.buffers if b.role == "output"]
        run = lambda: artifact(*inputs, *outputs)
        run()
        torch.cuda.synchronize()
        result = outputs[0].clone()
        if expected is None:
            # The input program checks the others; when it did not compile
            # (mla_decode as imported), the first candidate that did, which
            # the verifier found equal to it.
            if c is not reference:
                print(f"the input program did not compile: candidates are "
                      f"checked against candidate {c['rank']}")
            if not torch.isfinite(result).all():
                sys.exit(f"candidate {c['rank']}'s result is not finite on "
                         f"these inputs: nothing to check the others against")
            expected = result
        err = rel_err(result, expected)
        if torch.isnan(result).any() or not err <= TOLERANCE:
            rows.append((c, None, err, "wrong result"))
            continue
        us = bench(run, return_mode="median") * 1e3
        times[c["key"]] = us
        rows.append((c, us, err, ""))

    gpu = torch.cuda.get_device_name()
    print(f"{listing['function']}: {len(times)} of {len(candidates)} "
          f"candidates timed on {gpu} "
          f"({'eager' if args.eager else 'CUDA graph'})")
    print("| rank | key | kernels | cost model us | measured us | "
          "rel. err vs input | note |")
    print("|---|---|---|---|---|---|---|")
    for c, us, err, note in sorted(rows, key=lambda r: r[0]["rank"]):
        input_note = "the input program" + (", " if note else "")
        print(f"| {c['rank']} | {c['key']} | {c['kernels']} | "
              f"{c['model_us']:.2f} | {'-' if us is None else f'{us:.2f}'} | "
              f"{'-' if err is None else f'{err:.1e}'} | "
              f"{input_note if c['input'] else ''}{note} |")
    if args.out:
        args.out.write_text(json.dumps({"function": listing["function"],
                                        "gpu": gpu, "times_us": times},
                                       indent=2) + "\n")
    wrong = [r for r in rows if r[3] == "wrong result"]
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
