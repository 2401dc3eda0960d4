"""The Mamba-2 SSD shapes of ../shared/BENCHMARKS.md, (b, L, h, P, N, g,
chunk), with the options a Mamba-2 layer uses (dt bias, softplus, D per
head), their floors there (microseconds on the H200: each input and output
moved once at 4.26 TB/s, or the chunked algorithm's tensor-core flops at
790 TFLOP/s), and one small shape with every option on, checked too."""
LAYER = dict(d_kind="per_head", has_dt_bias=True, dt_softplus=True)
SHAPES = [
    dict(shape=(2, 512, 8, 64, 128, 2, 256),
         opts=dict(LAYER, has_z=True, has_initial=True), floor_us=None),
    dict(shape=(1, 4096, 32, 64, 128, 1, 256), opts=LAYER, floor_us=11.2),
    dict(shape=(4, 8192, 32, 64, 128, 1, 256), opts=LAYER, floor_us=89.7),
    dict(shape=(1, 16384, 64, 64, 128, 8, 256), opts=LAYER, floor_us=97.9),
]


def floor_terms(shape):
    """(bytes, flops) of BENCHMARKS.md's floor: x, dt, B, C and y moved
    once (16-bit x, B, C, y; f32 dt), and the tensor-core flops of C B^T
    per group, the intra-chunk product per head and the chunk states in
    and out."""
    b, L, h, P, N, g, Q = shape
    nc = L // Q
    moved = 2 * b * L * h * P * 2 + b * L * h * 4 + 2 * b * L * g * N * 2
    flops = 2 * b * nc * (g * Q * Q * N + h * Q * Q * P + 2 * h * Q * P * N)
    return moved, flops
