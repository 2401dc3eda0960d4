#!/usr/bin/env python3
"""Runs a tileopt-compile artifact on the GPU through the Python binding
(python/tileopt/runtime.py) and times it beside PyTorch computing the same
function. The GPU half of scripts/run-example.sh; needs torch with CUDA
(and triton, for its timer), not LLVM.

    scripts/run-artifact.py ARTIFACT_DIR [--peer NAME] [--cuda-graph]
                            [--torch-compile]

Inputs are random (uniform in [-1, 1)), one tensor per input buffer of the
manifest. The PyTorch peer and the float64 reference come from
bench/tile/bench.py, which knows the BENCHMARKS.md workloads
(bench.WORKLOADS); the workload is read off the kernels' names (the
function gated_mlp gives kernels gated_mlp_k0, ...), or named by --peer.
A program of another name is run and timed alone. The result passes within
1e-2 of the reference (relative to its largest magnitude), or within twice
torch's own error where the dtype allows no better; exits 1 if not.

Times are medians of triton.testing.do_bench (CUDA events, L2 flushed), or
with --cuda-graph of both sides replayed from CUDA graphs (what
BENCHMARKS.md's peers do; a program of a few microseconds is otherwise
timed as much by its launches from Python). --torch-compile adds
torch.compile (max-autotune) as a peer: minutes of autotuning.
"""

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "bench" / "tile")]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("artifact", help="artifact directory (tileopt-compile -o)")
    parser.add_argument("--peer", help="the bench.py workload to compare with "
                        "(default: from the kernels' names)")
    parser.add_argument("--cuda-graph", action="store_true",
                        help="time both sides replayed from CUDA graphs")
    parser.add_argument("--torch-compile", action="store_true",
                        help="add torch.compile as a peer (slow to autotune)")
    args = parser.parse_args()

    manifest = json.loads((Path(args.artifact) / "manifest.json").read_text())
    function = re.sub(r"_k\d+$", "", manifest["kernels"][0]["name"])

    # torch, triton and the runtime's library are the GPU machine's.
    import torch
    import bench
    from triton.testing import do_bench, do_bench_cudagraph
    from tileopt.runtime import Artifact

    timer = do_bench_cudagraph if args.cuda_graph else do_bench
    workload = args.peer or bench.workload_of(function)
    if args.peer and args.peer not in bench.WORKLOADS:
        sys.exit(f"--peer {args.peer}: bench/tile/bench.py knows "
                 f"{', '.join(bench.WORKLOADS)}")

    torch.manual_seed(0)
    artifact = Artifact(args.artifact)
    inputs, outputs = bench.random_buffers(artifact)
    run = lambda: artifact(*inputs, *outputs)
    run()
    torch.cuda.synchronize()
    # A compiled program's first output is its result; the others hold
    # the tensors between its kernels.
    output = outputs[0]
    nans = torch.isnan(output).sum().item() if output.is_floating_point() else 0
    ours = timer(run, return_mode="median") * 1e3

    print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    timing = "CUDA graph replays" if args.cuda_graph else "do_bench"
    if workload is None:
        print(f"{function}: TileOpt {ours:.1f} us ({timing}); "
              f"no PyTorch peer for it in bench/tile/bench.py "
              f"(it knows {', '.join(bench.WORKLOADS)}; --peer names one)")
        sys.exit(1 if nans else 0)

    peers, reference = bench.peers_of(f"ugraph-{workload}", inputs,
                                      args.torch_compile)
    expected = reference()
    err = bench.rel_err(output, expected)
    theirs = {p: timer(f, return_mode="median") * 1e3 for p, f in peers.items()}
    best = min(theirs, key=theirs.get)
    peer_err = bench.rel_err(peers[best](), expected)
    ok = err < max(1e-2, 2 * peer_err) and nans == 0

    print(f"{function} (peers: bench.py's {workload}), median times, {timing}:")
    print(f"  {'TileOpt':<28} {ours:9.1f} us   rel. err {err:.1e}"
          + (f", {nans} NaN" if nans else ""))
    for peer, us in theirs.items():
        print(f"  {peer:<28} {us:9.1f} us   TileOpt {us / ours:.2f}x as fast")
    print(f"  {'correct' if ok else 'WRONG'} against float64 "
          f"(torch's own rel. err {peer_err:.1e})")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
