"""GEMM artifacts against torch.matmul in alternating rounds, in one process,
on one set of inputs: each round times every artifact and, right after it,
torch.matmul (triton.testing.do_bench medians), so that clock and power
drifts, which move single timings by several percent on the H200, fall on
both sides of each ratio. Prints, per artifact, the median over the rounds
of its time, of torch.matmul's time beside it and of their ratio, and the
range of the ratio. Usage:
  gemm-rounds.py <artifact-dir> [--rounds R] name...
Names are square bf16 GEMM artifacts of one size (bench/tile/gemm-sweep.sh,
examples/tile/gemm-wgmma.mlir); scripts/device-run.sh checks them first.
"""

import argparse
import statistics

import torch
from triton.testing import do_bench

from tileopt.runtime import Artifact


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("names", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    torch.manual_seed(0)
    artifacts = {name: Artifact(f"{args.root}/{name}") for name in args.names}
    shapes = {tuple(b.shape) for a in artifacts.values() for b in a.buffers}
    if len(shapes) != 1:
        raise SystemExit(f"the artifacts' buffers differ in shape: {shapes}")
    (m, n), = shapes
    a, b = (torch.rand(m, n, device="cuda", dtype=torch.bfloat16) * 2 - 1
            for _ in range(2))
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    flops = 2 * m * n * n

    times = {name: [] for name in args.names}
    for _ in range(args.rounds):
        for name, artifact in artifacts.items():
            ours = do_bench(lambda: artifact(a, b, c), return_mode="median")
            theirs = do_bench(lambda: torch.matmul(a, b), return_mode="median")
            times[name].append((ours * 1e3, theirs * 1e3))

    print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"{m}x{n}x{n} bf16, {args.rounds} rounds")
    print("| gemm | TileOpt us | torch.matmul us | TileOpt TFLOP/s | "
          "of torch.matmul (median) | range |")
    print("|---|---|---|---|---|---|")
    for name, pairs in times.items():
        ours = statistics.median(p[0] for p in pairs)
        theirs = statistics.median(p[1] for p in pairs)
        ratios = [p[1] / p[0] for p in pairs]
        print(f"| {name} | {ours:.1f} | {theirs:.1f} | {flops / ours / 1e6:.0f} | "
              f"{statistics.median(ratios):.1%} | "
              f"{min(ratios):.1%} - {max(ratios):.1%} |")


if __name__ == "__main__":
    main()
