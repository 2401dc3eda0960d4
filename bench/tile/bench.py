"""Tile examples against their torch peers on one GPU, in one process, on
the same inputs. Usage:
bench.py <artifact-dir> [--no-compile] [--cuda-graph] [name...]
(scripts/device-run.sh). Names are artifact directories (default: the five
examples); a name starting with "gemm" is a GEMM (bench/tile/gemm-sweep.sh
makes variants), one starting with "ugraph-" a lowered µGraph of a
BENCHMARKS.md workload (scripts/prepare-device-run.sh), in its own dtype,
whose first output is the result. --no-compile leaves torch.compile out of
the peers. --cuda-graph times every side, ours and the peers, replayed from
a CUDA graph (triton.testing.do_bench_cudagraph), as BENCHMARKS.md's best
peers are: programs of a few microseconds are otherwise timed as much by
their launches from Python as by their kernels.

A result passes within 1e-2 of the float64 reference (relative to its
largest magnitude), or within twice the best peer's error where the dtype
allows no better (mla_decode's fp16 scores feed a sharp softmax).

Times are medians from triton.testing.do_bench (CUDA events, L2 flushed).
Bandwidth counts every input read once and every output written once;
the copy ceiling measured on the H200 is 4.26 TB/s (BENCHMARKS.md).
"""

import sys

import torch
import torch.nn.functional as F
from triton.testing import do_bench, do_bench_cudagraph

from tileopt.runtime import Artifact

COPY_TBPS = 4.26
N = 8192
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
          "f64": torch.float64, "i8": torch.int8, "i32": torch.int32,
          "i64": torch.int64}


def rel_err(got, expected):
    """Max |got - expected| / max(|expected|), over every element."""
    return ((got.double() - expected).abs().max() / expected.abs().max()).item()


# The BENCHMARKS.md workloads peers_of knows, as the names of their
# examples (examples/linalg/NAME.mlir, examples/ugraph/NAME*.mlir); their
# artifacts are named ugraph-NAME... here. scripts/run-artifact.py picks
# the peers of a compiled program by these names.
WORKLOADS = ("gated_mlp", "rmsnorm_linear", "ntrans", "lora", "gqa_decode",
             "qknorm_attention", "mla_decode")


def workload_of(name):
    """The workload a program or function name is a form of
    (gated_mlp_b8 -> gated_mlp), or None."""
    return next((w for w in WORKLOADS if name.startswith(w)), None)


def random_buffers(artifact):
    """Inputs uniform in [-1, 1) (integer ones 0 or 1, as masks) and
    outputs filled with NaN (integer ones with -1) for `artifact`'s
    buffers, in manifest order (scratch and constants left out)."""
    def random(b):
        dtype = DTYPES[b.dtype]
        if dtype.is_floating_point:
            return torch.rand(b.shape, device="cuda", dtype=dtype) * 2 - 1
        return torch.randint(0, 2, b.shape, device="cuda", dtype=dtype)

    def poisoned(b):
        dtype = DTYPES[b.dtype]
        return torch.full(b.shape, float("nan") if dtype.is_floating_point else -1,
                          device="cuda", dtype=dtype)

    inputs = [random(b) for b in artifact.buffers if b.role == "input"]
    outputs = [poisoned(b) for b in artifact.buffers if b.role == "output"]
    return inputs, outputs


# The workloads' eps (examples/linalg/rmsnorm_linear.mlir), in fp16.
UGRAPH_EPS = 1.0013580322265625e-05


def rms_norm(x, dim=-1):
    return x * torch.rsqrt(x.pow(2).mean(dim, keepdim=True) + UGRAPH_EPS)


def peers_of(name, inputs, with_compile):
    """The peers of `name` (torch eager, other forms of the same function in
    `extra`, and each of them through torch.compile) and a float64
    reference."""
    x = inputs[0]
    extra = {}
    if name.startswith("ugraph-gated_mlp"):
        x, w1, w2 = inputs
        eager = lambda: F.silu(x @ w1) * (x @ w2)
        reference = lambda: F.silu(x.double() @ w1.double()) * (x.double() @ w2.double())
    elif name.startswith("ugraph-rmsnorm_linear"):
        x, w = inputs
        eager = lambda: rms_norm(x) @ w
        reference = lambda: rms_norm(x.double()) @ w.double()
    elif name.startswith("ugraph-ntrans"):
        x, y, w = inputs
        eager = lambda: rms_norm(x + rms_norm(y @ w))
        reference = lambda: rms_norm(x.double() + rms_norm(y.double() @ w.double()))
    elif name.startswith("ugraph-lora"):
        x, w, a, b = inputs
        eager = lambda: x @ w + (x @ a) @ b
        reference = lambda: x.double() @ w.double() + \
            (x.double() @ a.double()) @ b.double()
    elif name.startswith("ugraph-gqa_decode"):  # the fused form and split-KV
        q, k, v = inputs
        eager = lambda: torch.softmax(q @ k, dim=-1) @ v
        reference = lambda: torch.softmax(q.double() @ k.double(), dim=-1) @ v.double()
    elif name.startswith("ugraph-qknorm_attention"):
        # QK-norm: each query and each key over the head dim; K is stored
        # as K^T (heads, head dim, keys), so its norm is over dim -2.
        q, k, v = inputs
        eager = lambda: torch.softmax(rms_norm(q) @ rms_norm(k, -2), dim=-1) @ v
        reference = lambda: torch.softmax(
            rms_norm(q.double()) @ rms_norm(k.double(), -2), dim=-1) @ v.double()
    elif name.startswith("ugraph-mla_decode"):
        # The absorbed form, (Q Wk^T) C^T, is BENCHMARKS.md's best peer;
        # the literal form forms K = C Wk and V = C Wv for every head.
        q, c, wk, wv = inputs
        eager = lambda: torch.softmax(
            (q @ wk.transpose(-1, -2)) @ c.T, dim=-1) @ c @ wv
        literal = lambda: torch.softmax(
            q @ (c @ wk).transpose(-1, -2), dim=-1) @ (c @ wv)
        extra["literal"] = literal
        reference = lambda: torch.softmax(
            q.double() @ (c.double() @ wk.double()).transpose(-1, -2),
            dim=-1) @ (c.double() @ wv.double())
    elif name == "softmax":
        eager = lambda: torch.softmax(x, dim=-1)
        reference = lambda: torch.softmax(x.double(), dim=-1)
    elif name == "rms_norm":
        eager = lambda: F.rms_norm(x, (N,), eps=1e-6)
        reference = lambda: x.double() * torch.rsqrt(
            x.double().pow(2).mean(-1, keepdim=True) + 1e-6)
    elif name == "gemm":
        a, b = inputs
        eager = lambda: torch.matmul(a, b)
        reference = lambda: torch.matmul(a.double(), b.double())
    else:
        a, b = inputs
        eager = lambda: F.silu(a) * b
        reference = lambda: F.silu(a.double()) * b.double()
    forms = {"": eager, **{f" ({form})": f for form, f in extra.items()}}
    peers = {f"torch eager{form}": f for form, f in forms.items()}
    if not with_compile:
        return peers, reference
    for form, f in forms.items():
        try:
            compiled = torch.compile(f, mode="max-autotune-no-cudagraphs")
            compiled()
            peers[f"torch.compile{form}"] = compiled
        except Exception as error:  # a peer that fails is reported, not fatal
            print(f"{name}: torch.compile{form} failed: {error}", file=sys.stderr)
    return peers, reference


def main():
    root = sys.argv[1]
    flags = ("--no-compile", "--cuda-graph")
    with_compile = "--no-compile" not in sys.argv[2:]
    bench = do_bench_cudagraph if "--cuda-graph" in sys.argv[2:] else do_bench
    names = [a for a in sys.argv[2:] if a not in flags] or \
        ["softmax", "rms_norm", "elementwise", "gemm", "gemm-wgmma"]
    torch.manual_seed(0)
    rows = []
    gemm_tflops = {}
    ok = True
    for name in names:
        kind = "gemm" if name.startswith("gemm") else name
        artifact = Artifact(f"{root}/{name}")
        inputs, outputs = random_buffers(artifact)
        # A lowered µGraph's first output is its result, the others the
        # tensors between its kernels; a tile example has one output.
        output = outputs[0]
        run = lambda: artifact(*inputs, *outputs)
        run()
        torch.cuda.synchronize()
        peers, reference = peers_of(kind, inputs, with_compile)
        err = rel_err(output, reference())
        nans = torch.isnan(output).sum().item()
        ours = bench(run, return_mode="median") * 1e3
        theirs = {p: bench(f, return_mode="median") * 1e3 for p, f in peers.items()}
        best = min(theirs, key=theirs.get)
        # fp16 peers round too: their error says what the dtype allows.
        peer_err = rel_err(peers[best](), reference())
        ok &= err < max(1e-2, 2 * peer_err) and nans == 0
        nbytes = sum(t.numel() * t.element_size() for t in inputs) + \
            output.numel() * output.element_size()
        tbps = nbytes / ours / 1e6
        rows.append((name, ours, theirs[best], best, theirs[best] / ours, tbps,
                     tbps / COPY_TBPS, err, nans, peer_err))
        if kind == "gemm":
            flops = 2 * inputs[0].shape[0] * inputs[0].shape[1] * inputs[1].shape[1]
            gemm_tflops[name] = (ours, theirs["torch eager"], flops / ours / 1e6,
                                 flops / theirs["torch eager"] / 1e6)

    print(f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"shape {N}x{N} bf16 (ugraph-*: the workload's shapes, fp16)")
    print("| kernel | TileOpt us | best peer us | best peer | speedup | TB/s | "
          "of copy BW | rel. err | NaN | best peer's rel. err |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]:.1f} | {r[2]:.1f} | {r[3]} | {r[4]:.2f}x | "
              f"{r[5]:.2f} | {r[6]:.0%} | {r[7]:.1e} | {r[8]} | {r[9]:.1e} |")
    if gemm_tflops:
        print("| gemm | TileOpt us | torch.matmul us | TileOpt TFLOP/s | "
              "torch.matmul TFLOP/s | of torch.matmul |")
        print("|---|---|---|---|---|---|")
    for name, (ours, theirs, tflops, peer_tflops) in gemm_tflops.items():
        print(f"| {name} | {ours:.1f} | {theirs:.1f} | {tflops:.0f} | "
              f"{peer_tflops:.0f} | {tflops / peer_tflops:.0%} |")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
