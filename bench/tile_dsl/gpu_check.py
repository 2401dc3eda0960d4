#!/usr/bin/env python3
"""On the GPU machine: the tile-DSL kernels, autotuned over the configs
prepare.py compiled (tileopt.kernels' tuners; the choice cached in
DIR/cache), against torch, Triton 3.6 (triton_kernels.py) and cuTile Python
(cutile_kernels.py, where the `cuda-tile` wheel was carried and runs),
checked against float64. Prints a table last. (The Mamba-2 SSD has its
own: bench/mamba2/run.py.)

    TILEOPT_RUNTIME_LIB=... PYTHONPATH=python python3 bench/tile_dsl/gpu_check.py [DIR]
"""
import os
import sys
from pathlib import Path

import torch

art = Path(sys.argv[1] if len(sys.argv) > 1 else "build/device-dsl").resolve()
os.environ["TILEOPT_CACHE_DIR"] = str(art / "cache")
sys.path.insert(0, str(Path(__file__).parent))

import triton_kernels  # noqa: E402
from shapes import ATTENTION, TUNED  # noqa: E402
from tileopt import kernels  # noqa: E402
from tileopt.runtime import Artifact  # noqa: E402
from tileopt.tile import autotune  # noqa: E402

try:
    import cutile_kernels
except Exception as e:  # no wheel carried, or it does not load here
    cutile_kernels, cutile_missing = None, f"{type(e).__name__}: {e}"

dev = "cuda"
rows = []
NAN = float("nan")


def rel(a, b):
    return float((a.double() - b.double()).abs().max() / b.double().abs().max())


def time_us(fn, reps=50):
    """Median of `reps` timed calls after a warm-up, in microseconds."""
    fn()
    torch.cuda.synchronize()
    return sorted(autotune.cuda_event_timer(fn) for _ in range(reps))[reps // 2]


def tuned(name, launch, key=None):
    """The DSL kernel `name` at `key` (default: its shapes.py key),
    autotuned (or the cached choice): (its launch, the choice's text)."""
    result = getattr(kernels, f"{name}_tuner").tune(key or TUNED[name], launch)
    print(f"\n{name}: {len(result.measurements)} configs timed"
          f"{' (cached choice)' if result.cached else ''}, {len(result.failures)} failed")
    for m in sorted(result.measurements, key=lambda m: m.median_us):
        print(f"  {'*' if m == result.best else ' '} {autotune.config_name(m.config):55} "
              f"{m.median_us:9.1f} us  {len(m.samples):2} samples"
              f"{'  (stopped early)' if m.stopped_early else ''}")
    for config, message in result.failures:
        print(f"  failed {autotune.config_name(config)}: {message.splitlines()[0]}")
    artifact = Artifact(result.artifact)
    return (lambda: launch(artifact)), autotune.config_name(result.best.config)


def cutile(name, *args):
    """cuTile's launch of kernel `name`, tuned by cuTile, or None with the
    reason printed."""
    if cutile_kernels is None:
        print(f"cuTile {name}: not run ({cutile_missing})")
        return None, ""
    try:
        launch, config = getattr(cutile_kernels, name)(*args)
        launch()
        return launch, str(config)
    except Exception as e:
        print(f"cuTile {name}: failed: {type(e).__name__}: {str(e)[:1500]}")
        return None, ""


def compare(name, outputs, reference, ours, peers):
    """A row: our error and time, then each peer's (None: not run); peers
    but torch (which returns a new tensor) write `outputs`."""
    ours_launch, choice = ours
    ours_launch()
    row = dict(name=name, error=rel(outputs, reference), ours=time_us(ours_launch),
               choice=choice)
    for peer, launch in peers.items():
        row[peer], row[f"{peer} error"] = NAN, NAN
        if launch is None:
            continue
        outputs.zero_()
        launch()
        if peer != "torch":
            row[f"{peer} error"] = rel(outputs, reference)
        row[peer] = time_us(launch)
    rows.append(row)


print(torch.cuda.get_device_name())
x = torch.randn(TUNED["softmax"]["rows"], TUNED["softmax"]["cols"], device=dev,
                dtype=torch.bfloat16)
y = torch.empty_like(x)
ct_softmax, ct_softmax_config = cutile("softmax", x, y)
compare("softmax 8192x8192 bf16", y, torch.softmax(x.double(), 1),
        tuned("softmax", lambda art: art(x=x, y=y)),
        {"torch": lambda: torch.softmax(x, 1),
         "triton": lambda: triton_kernels.softmax(x, y), "cutile": ct_softmax})
w = torch.randn(x.shape[1], device=dev, dtype=torch.bfloat16)
xd = x.double()
ct_rms, ct_rms_config = cutile("rms_norm", x, w, y)
compare("rms_norm 8192x8192 bf16", y, xd / torch.sqrt((xd * xd).mean(1, keepdim=True) + 1e-6) *
        w.double(), tuned("rms_norm", lambda art: art(x=x, w=w, y=y)),
        {"torch": lambda: torch.nn.functional.rms_norm(x, (x.shape[1],), w, 1e-6),
         "triton": lambda: triton_kernels.rms_norm(x, w, y), "cutile": ct_rms})
g = TUNED["gemm"]
a = torch.randn(g["m"], g["k"], device=dev, dtype=torch.bfloat16)
b = torch.randn(g["k"], g["n"], device=dev, dtype=torch.bfloat16)
c = torch.empty(g["m"], g["n"], device=dev, dtype=torch.bfloat16)
ct_gemm, ct_gemm_config = cutile("gemm", a, b, c)
compare("gemm 4096^3 bf16", c, a.double() @ b.double(), tuned("gemm", lambda art: art(a=a, b=b, c=c)),
        {"torch": lambda: a @ b, "triton": lambda: triton_kernels.gemm(a, b, c),
         "cutile": ct_gemm})
for key in ATTENTION:
    b, h, L, d, causal = (key[n] for n in ("batch", "heads", "seq", "d", "causal"))
    q, k, v = (torch.randn(b, h, L, d, device=dev, dtype=torch.bfloat16) for _ in range(3))
    o = torch.empty_like(q)
    views = {n: t.view(b * h * L, d) for n, t in dict(q=q, k=k, v=v, o=o).items()}
    reference = torch.nn.functional.scaled_dot_product_attention(
        q.double(), k.double(), v.double(), is_causal=causal)

    def flash():
        with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.FLASH_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)

    compare(f"attention {b},{h},{L},{d}{' causal' if causal else ''}", o, reference,
            tuned("attention", lambda art: art(**views), key), {"torch": flash})
    del reference
print("\nTriton's choices:", triton_kernels.chosen())
print("cuTile's choices:", dict(softmax=ct_softmax_config, rms_norm=ct_rms_config,
                                gemm=ct_gemm_config))

peers = ("torch", "triton", "cutile")
print(f"\n{'kernel (us, medians)':24} {'rel err':>8} {'tileopt':>8} " +
      " ".join(f"{p:>8}" for p in peers) + "  tileopt config")
for row in rows:
    print(f"{row['name']:24} {row['error']:8.1e} {row['ours']:8.1f} " +
          " ".join(f"{row.get(p, NAN):8.1f}" for p in peers) + f"  {row['choice']}")
print("peer errors: " + "; ".join(
    f"{row['name'].split()[0]} " + " ".join(f"{p} {row.get(p + ' error', NAN):.1e}"
                                            for p in peers[1:])
    for row in rows))
