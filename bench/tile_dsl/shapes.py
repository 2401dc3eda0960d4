"""The shapes of the GPU check: the tile-DSL kernels' autotuner keys
(tileopt.kernels' tuners) and attention's, the Mamba-2 SSD shapes of ../shared/BENCHMARKS.md
(b, L, h, P, N, g, chunk) and one small shape with every option on."""
TUNED = {
    "softmax": dict(rows=8192, cols=8192, dtype="bf16"),
    "rms_norm": dict(rows=8192, cols=8192, dtype="bf16"),
    "gemm": dict(m=4096, n=4096, k=4096, dtype="bf16"),
}
# FlashAttention forward, (batch, heads, seq, d) in bf16, against SDPA's
# flash backend (BENCHMARKS.md has no prefill shapes).
ATTENTION = [dict(batch=b, heads=h, seq=L, d=d, causal=causal, dtype="bf16")
             for b, h, L, d in ((4, 16, 2048, 128), (2, 32, 4096, 64)) for causal in (False, True)]
SSD_CONFIGS = [
    dict(shape=(2, 512, 8, 64, 128, 2, 256), opts=dict(d_kind="per_head", has_z=True, has_dt_bias=True, has_initial=True, dt_softplus=True)),
    dict(shape=(1, 4096, 32, 64, 128, 1, 256), opts=dict(d_kind="per_head", has_dt_bias=True, dt_softplus=True)),
    dict(shape=(4, 8192, 32, 64, 128, 1, 256), opts=dict(d_kind="per_head", has_dt_bias=True, dt_softplus=True)),
    dict(shape=(1, 16384, 64, 64, 128, 8, 256), opts=dict(d_kind="per_head", has_dt_bias=True, dt_softplus=True)),
]
# The shapes checked against the float64 reference (the others are timed).
CHECKED = 2
