"""The shapes of the GPU check: the tile-DSL kernels' autotuner keys
(tileopt.kernels' tuners) and attention's. (The Mamba-2 SSD's are in
bench/mamba2/shapes.py.)"""
TUNED = {
    "softmax": dict(rows=8192, cols=8192, dtype="bf16"),
    "rms_norm": dict(rows=8192, cols=8192, dtype="bf16"),
    "gemm": dict(m=4096, n=4096, k=4096, dtype="bf16"),
}
# FlashAttention forward, (batch, heads, seq, d) in bf16, against SDPA's
# flash backend (BENCHMARKS.md has no prefill shapes).
ATTENTION = [dict(batch=b, heads=h, seq=L, d=d, causal=causal, dtype="bf16")
             for b, h, L, d in ((4, 16, 2048, 128), (2, 32, 4096, 64)) for causal in (False, True)]
