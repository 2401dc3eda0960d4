"""A Llama decoder block in PyTorch through TileOpt: its MLP through
tileopt.compile, the whole block through torch.compile(backend="tileopt")
(the products and what surrounds them to TileOpt, attention and the norms'
casts to inductor). On a GPU, both run against eager PyTorch and the block
is timed against torch.compile's default (inductor).

    python3 python/examples/decoder_block.py [--time-budget S] [--search-threads N]
    python3 python/examples/decoder_block.py --prepare   # compile only, no GPU

--prepare compiles, on a machine without a GPU, every graph the GPU run
will ask for into the cache ($TILEOPT_CACHE_DIR), which a GPU machine
without the tools then loads.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import tileopt  # noqa: E402

DIM, HEADS, HIDDEN, TOKENS = 2048, 16, 5632, 8


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(DIM, HIDDEN, bias=False)
        self.up = nn.Linear(DIM, HIDDEN, bias=False)
        self.down = nn.Linear(HIDDEN, DIM, bias=False)

    def forward(self, x):
        return self.down(F.silu(self.gate(x)) * self.up(x))


class DecoderBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention_norm = nn.RMSNorm(DIM, eps=1e-5)
        self.q, self.k, self.v, self.o = (nn.Linear(DIM, DIM, bias=False) for _ in range(4))
        self.mlp_norm = nn.RMSNorm(DIM, eps=1e-5)
        self.mlp = MLP()

    def forward(self, x):
        batch, tokens, _ = x.shape
        h = self.attention_norm(x)
        q, k, v = (p(h).view(batch, tokens, HEADS, DIM // HEADS).transpose(1, 2)
                   for p in (self.q, self.k, self.v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o(a.transpose(1, 2).reshape(batch, tokens, DIM))
        return x + self.mlp(self.mlp_norm(x))


def model_and_input(device):
    torch.manual_seed(0)
    block = DecoderBlock().half().to(device).eval()
    with torch.no_grad():
        for p in block.parameters():
            p.mul_(2)  # weights of about 1/sqrt(dim): activations of about 1
    return block, torch.randn(1, TOKENS, DIM, dtype=torch.float16, device=device)


def prepare(options):
    """Compiles, on the CPU, the graphs the GPU run superoptimizes: the
    MLP's (tileopt.compile) and the backend's partitions of the block, on
    the ATen graph AOTAutograd gives torch.compile."""
    from torch._functorch.aot_autograd import aot_export_module
    block, x = model_and_input("cpu")
    compiled = tileopt.compile(block.mlp, [x], **options)
    print(f"MLP: {compiled.compiled}")
    class ReturnsATuple(nn.Module):  # as aot_export_module wants
        def __init__(self):
            super().__init__()
            self.block = block

        def forward(self, x):
            return (self.block(x),)
    with torch.no_grad():
        graph, _ = aot_export_module(ReturnsATuple(), [x], trace_joint=False)
    backend = tileopt.backend(on_cpu="interpreter", **options)
    for p in backend.take_partitions(graph):
        print(f"partition of {len(p.ops)} ops: {p.compiled or p.reason}")


def median_ms(fn, x, repeats=7, iterations=50):
    for _ in range(5):
        fn(x)
    times = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(iterations):
            fn(x)
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e3 / iterations)
    return statistics.median(times)


def relative_error(got, want):
    return ((got.float() - want.float()).abs().max() / want.float().abs().max()).item()


def run(options):
    block, x = model_and_input("cuda")
    with torch.no_grad():
        want = block(x)
        mlp = tileopt.compile(block.mlp, [x], **options)
        mlp_error = relative_error(mlp(x), block.mlp(x))
        print(f"tileopt.compile(MLP): relative error against eager {mlp_error:.2e}")
        backend = tileopt.backend(**options)
        fast = torch.compile(block, backend=backend)
        error = relative_error(fast(x), want)
        taken = [p for p in backend.partitions if p.compiled]
        print(f"torch.compile(backend=tileopt): {len(taken)} of {len(backend.partitions)} "
              f"partitions to TileOpt ({sum(len(p.ops) for p in taken)} ATen ops); "
              f"relative error against eager {error:.2e}")
        inductor = torch.compile(block)
        inductor(x)
        times = {"eager": median_ms(block, x), "torch.compile (inductor)": median_ms(inductor, x),
                 "torch.compile (tileopt)": median_ms(fast, x)}
        # Where the time goes: each partition's kernels alone, and the MLP
        # (the largest) three ways.
        for i, p in enumerate(taken):
            inputs = [torch.randn(s.dims, dtype=getattr(torch, s.dtype.name), device="cuda")
                      for s in p.compiled.inputs]
            times[f"partition {i} ({len(p.ops)} ops) alone"] = median_ms(
                lambda _: p.compiled(inputs=inputs), None)
        mlp_inductor = torch.compile(block.mlp)
        mlp_inductor(x)
        times.update({"MLP: eager": median_ms(block.mlp, x),
                      "MLP: torch.compile (inductor)": median_ms(mlp_inductor, x),
                      "MLP: tileopt.compile": median_ms(mlp, x)})
    print(f"decoder block, {TOKENS} tokens, dim {DIM}, hidden {HIDDEN}, f16, "
          f"{torch.cuda.get_device_name()}:")
    for name, ms in times.items():
        print(f"  {name:34s} {ms * 1e3:8.1f} us")
    if max(mlp_error, error) > 2e-2:
        sys.exit("TileOpt does not compute what torch does")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--time-budget", type=float, default=60)
    parser.add_argument("--search-threads", type=int, default=0)
    parser.add_argument("--prepare", action="store_true",
                        help="compile into the cache only (no GPU needed)")
    args = parser.parse_args()
    options = {"time_budget": args.time_budget, "search_threads": args.search_threads}
    if args.prepare:
        prepare(options)
    elif torch.cuda.is_available():
        run(options)
    else:
        sys.exit("no CUDA device: --prepare compiles without one")


if __name__ == "__main__":
    main()
