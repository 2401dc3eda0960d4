#!/usr/bin/env python3
"""On the GPU machine: the tile-DSL kernels compiled by prepare.py against
torch (float64 references), and the Mamba-2 SSD against the float64 chunked
reference (small shapes) and timed at the BENCHMARKS.md shapes. Prints a
table last.

    TILEOPT_RUNTIME_LIB=... PYTHONPATH=python python3 bench/tile_dsl/gpu_check.py [DIR]
"""
import os
import sys
from pathlib import Path

import torch

art = Path(sys.argv[1] if len(sys.argv) > 1 else "build/device-dsl").resolve()
os.environ["TILEOPT_CACHE_DIR"] = str(art / "cache")
sys.path.insert(0, str(Path(__file__).parent))

from shapes import CHECKED, SSD_CONFIGS  # noqa: E402
from tileopt.ops import mamba_chunk_scan_combined  # noqa: E402
from tileopt.ops.ssd_reference import ssd_chunked  # noqa: E402
from tileopt.runtime import Artifact  # noqa: E402

dev = "cuda"
rows = []


def rel(a, b):
    return float((a.double() - b.double()).abs().max() / b.double().abs().max())


def time_us(fn, reps=20):
    """Median of `reps` timed calls after a warm-up, in microseconds."""
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1000)
    return sorted(times)[len(times) // 2]


print(torch.cuda.get_device_name())
x = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
y = torch.empty_like(x)
softmax = Artifact(str(art / "softmax.art"))
softmax(x=x, y=y)
rows.append(("softmax 8192x8192 bf16", rel(y, torch.softmax(x.double(), 1)),
             time_us(lambda: softmax(x=x, y=y)), time_us(lambda: torch.softmax(x, 1))))
w = torch.randn(8192, device=dev, dtype=torch.bfloat16)
rms = Artifact(str(art / "rms_norm.art"))
rms(x=x, w=w, y=y)
xd = x.double()
ref = xd / torch.sqrt((xd * xd).mean(1, keepdim=True) + 1e-6) * w.double()
rows.append(("rms_norm 8192x8192 bf16", rel(y, ref), time_us(lambda: rms(x=x, w=w, y=y)),
             time_us(lambda: torch.nn.functional.rms_norm(x, (8192,), w, 1e-6))))
a = torch.randn(4096, 4096, device=dev, dtype=torch.bfloat16)
b = torch.randn(4096, 4096, device=dev, dtype=torch.bfloat16)
c = torch.empty_like(a)
gemm = Artifact(str(art / "gemm.art"))
gemm(a=a, b=b, c=c)
rows.append(("gemm 4096^3 bf16", rel(c, a.double() @ b.double()), time_us(lambda: gemm(a=a, b=b, c=c)),
             time_us(lambda: a @ b)))

for i, config in enumerate(SSD_CONFIGS):
    bs, L, h, P, N, g, Q = config["shape"]
    opts = config["opts"]
    gen = torch.Generator(device=dev).manual_seed(0)
    xs = torch.randn(bs, L, h, P, device=dev, generator=gen).to(torch.bfloat16)
    dt = torch.rand(bs, L, h, device=dev, generator=gen) * 3 - 2
    A = -(torch.rand(h, device=dev, generator=gen) * 1.5 + 0.5)
    Bm = torch.randn(bs, L, g, N, device=dev, generator=gen).to(torch.bfloat16)
    Cm = torch.randn(bs, L, g, N, device=dev, generator=gen).to(torch.bfloat16)
    D = torch.randn(h, device=dev, generator=gen)
    z = torch.randn(bs, L, h, P, device=dev, generator=gen).to(torch.bfloat16) if opts.get("has_z") else None
    bias = torch.rand(h, device=dev, generator=gen) - 0.5
    init = torch.randn(bs, h, P, N, device=dev, generator=gen) if opts.get("has_initial") else None

    def run():
        return mamba_chunk_scan_combined(xs, dt, A, Bm, Cm, Q, D=D, z=z, dt_bias=bias,
                                         initial_states=init, dt_softplus=True,
                                         return_final_states=True)

    y_out, final = run()
    torch.cuda.synchronize()
    t = time_us(run, 5)
    error = float("nan")
    if i < CHECKED:
        host = (lambda v: None if v is None else v.double().cpu().numpy())
        y_ref, final_ref = ssd_chunked(host(xs), host(dt), host(A), host(Bm), host(Cm), Q, D=host(D),
                                       z=host(z), dt_bias=host(bias), initial_states=host(init),
                                       dt_softplus=True)
        error = max(rel(y_out, torch.from_numpy(y_ref).to(dev)),
                    rel(final, torch.from_numpy(final_ref).to(dev)))
    elif torch.isnan(y_out).any():
        error = float("inf")
    rows.append((f"ssd {config['shape']}", error, t, float("nan")))

print(f"\n{'kernel':44} {'rel err':>9} {'tileopt us':>11} {'torch us':>9}")
for name, error, ours, peer in rows:
    print(f"{name:44} {error:9.2e} {ours:11.1f} {peer:9.1f}")
