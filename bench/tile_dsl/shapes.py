"""The Mamba-2 SSD shapes of ../shared/BENCHMARKS.md (b, L, h, P, N, g,
chunk) and one small shape with every option on, for the GPU check."""
SSD_CONFIGS = [
    dict(shape=(2, 512, 8, 64, 128, 2, 256), opts=dict(d_kind="per_head", has_z=True, has_dt_bias=True, has_initial=True, dt_softplus=True)),
    dict(shape=(1, 4096, 32, 64, 128, 1, 256), opts=dict(d_kind="per_head", has_dt_bias=True, dt_softplus=True)),
    dict(shape=(4, 8192, 32, 64, 128, 1, 256), opts=dict(d_kind="per_head", has_dt_bias=True, dt_softplus=True)),
    dict(shape=(1, 16384, 64, 64, 128, 8, 256), opts=dict(d_kind="per_head", has_dt_bias=True, dt_softplus=True)),
]
# The shapes checked against the float64 reference (the others are timed).
CHECKED = 2
