"""A Llama decoder block in PyTorch through TileOpt: its MLP through
tileopt.compile, the whole block through torch.compile(backend="tileopt")
(the products and what surrounds them to TileOpt, attention and the norms'
casts to inductor), without and with CUDA graphs. On a GPU, both run
against eager PyTorch and the block is timed against torch.compile's
default (inductor) and its mode="reduce-overhead" (inductor with CUDA
graphs).

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
    for fold in (True, False):  # run() times both
        with torch.no_grad():
            graph, _ = aot_export_module(ReturnsATuple(), [x], trace_joint=False)
        backend = tileopt.backend(on_cpu="interpreter", fold_rms_norms=fold, **options)
        for p in backend.take_partitions(graph):
            print(f"partition of {len(p.ops)} ops: {p.compiled or p.reason}")


def median_ms(ways, repeats=11, iterations=50):
    """{name: (total, host)} for the functions `ways` names: the median over
    `repeats` rounds, each running `iterations` calls of every way in
    turn (so that a slow spell of the machine falls on all of them), per
    call, in ms: from the start to the GPU's end (synchronized), and to the
    host's (the last call enqueued: the host's own time, when it runs
    ahead of the GPU)."""
    for fn in ways.values():
        for _ in range(5):
            fn()
    total = {name: [] for name in ways}
    host = {name: [] for name in ways}
    for _ in range(repeats):
        for name, fn in ways.items():
            torch.cuda.synchronize()
            start = time.perf_counter()
            for _ in range(iterations):
                fn()
            host[name].append((time.perf_counter() - start) * 1e3 / iterations)
            torch.cuda.synchronize()
            total[name].append((time.perf_counter() - start) * 1e3 / iterations)
    return {name: (statistics.median(total[name]), statistics.median(host[name]))
            for name in ways}


def relative_error(got, want):
    return ((got.float() - want.float()).abs().max() / want.float().abs().max()).item()


def run(options):
    block, x = model_and_input("cuda")
    other_x = torch.randn_like(x)
    with torch.no_grad():
        want, other_want = block(x), block(other_x)
        mlp = tileopt.compile(block.mlp, [x], **options)
        errors = {"tileopt.compile (MLP)": relative_error(mlp(x), block.mlp(x))}
        backend = tileopt.backend(**options)
        graphed = tileopt.backend(cuda_graphs=True, **options)
        unfolded = tileopt.backend(cuda_graphs=True, fold_rms_norms=False, **options)
        compiled = {
            "torch.compile (tileopt)": torch.compile(block, backend=backend),
            "torch.compile (tileopt, cuda_graphs)": torch.compile(block, backend=graphed),
            "torch.compile (tileopt, cuda_graphs, norms not folded)":
                torch.compile(block, backend=unfolded),
            "torch.compile (inductor)": torch.compile(block),
            "torch.compile (inductor, reduce-overhead)":
                torch.compile(block, mode="reduce-overhead"),
        }
        for name, fn in compiled.items():
            # Two inputs, enough calls for CUDA graphs to be captured and
            # replayed, and the first result read again after them: TileOpt's
            # CUDA graphs return copies of their outputs, which the next
            # replay leaves alone. (Inductor's refuse to read an output that
            # a later replay overwrote.)
            first = fn(x)
            error = relative_error(first, want)
            for _ in range(3):
                second = fn(other_x)
            error = max(error, relative_error(second, other_want))
            if "inductor" not in name:
                error = max(error, relative_error(first, want))
            errors[name] = error
            print(f"{name}: relative error against eager {errors[name]:.2e}")
        for name, b in (("tileopt", backend), ("tileopt, norms not folded", unfolded)):
            taken = [p for p in b.partitions if p.compiled]
            print(f"{name}: {len(taken)} of {len(b.partitions)} partitions to TileOpt: "
                  + "; ".join(f"{len(p.ops)} ops ({', '.join(sorted(set(p.targets)))})"
                              for p in taken))
        print("CUDA graphs: " + ", ".join(
            f"{g.records} recorded" if g.failed is None else f"failed: {g.failed}"
            for g in graphed.cuda_graphed + unfolded.cuda_graphed))
        taken = [p for p in backend.partitions if p.compiled]
        ways = {"eager": lambda: block(x)}
        ways.update((name, lambda fn=fn: fn(x)) for name, fn in compiled.items())
        # Where the time goes: each partition's kernels alone.
        for i, p in enumerate(taken):
            inputs = [torch.randn(s.dims, dtype=getattr(torch, s.dtype.name), device="cuda")
                      for s in p.compiled.inputs]
            ways[f"partition {i} ({len(p.ops)} ops) alone"] = (
                lambda p=p, inputs=inputs: p.compiled(inputs=inputs))
        ways.update({"MLP: eager": lambda: block.mlp(x), "MLP: tileopt.compile": lambda: mlp(x)})
        times = median_ms(ways)
    print(f"decoder block, {TOKENS} tokens, dim {DIM}, hidden {HIDDEN}, f16, "
          f"{torch.cuda.get_device_name()}, torch {torch.__version__}:")
    print(f"  {'':56s} {'us/call':>8s} {'host us':>8s}")
    for name, (ms, host_ms) in times.items():
        print(f"  {name:56s} {ms * 1e3:8.1f} {host_ms * 1e3:8.1f}")
    if max(errors.values()) > 2e-2:
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
