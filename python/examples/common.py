"""What the examples share: search options from the command line, and a
run on the GPU, checked against PyTorch, where there is one.

    python3 python/examples/attention.py [--time-budget S] [--search-threads N]
"""

import argparse
import sys
from pathlib import Path

# The examples run from a checkout, without installing the package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def search_options():
    parser = argparse.ArgumentParser()
    parser.add_argument("--time-budget", type=float, default=60,
                        help="seconds the search may take (default 60)")
    parser.add_argument("--search-threads", type=int, default=0,
                        help="search threads (default 0: one per hardware thread)")
    args = parser.parse_args()
    return {"time_budget": args.time_budget, "search_threads": args.search_threads}


def report(compiled, reference):
    """Prints the µGraph's kernels; on a GPU, runs the compiled graph on
    random inputs and compares it with `reference` (a torch function of the
    same inputs) in float32."""
    kernels = compiled.tile_program.count("tile.launch")
    print(f"{compiled}\n{kernels} kernel launches")
    try:
        import torch
    except ImportError:
        print("no torch: the run on the GPU is skipped")
        return
    if not torch.cuda.is_available():
        print("no CUDA device: the run on the GPU is skipped")
        return
    inputs = [torch.rand(s.dims, dtype=getattr(torch, s.dtype.name), device="cuda") - 0.5
              for s in compiled.inputs]
    (got,) = compiled(inputs=inputs)
    want = reference(*(x.float() for x in inputs))
    error = ((got.float() - want).abs().max() / want.abs().max()).item()
    print(f"relative error against torch: {error:.2e}")
    if error > 2e-2:
        sys.exit("the compiled graph does not compute what torch does")
