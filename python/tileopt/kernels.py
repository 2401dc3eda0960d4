"""Kernels written in tileopt.tile: row softmax, RMSNorm and a GEMM, each
with a function that traces it into a Program at given shapes::

    from tileopt import kernels
    program = kernels.softmax_program((8192, 8192), "bf16")
    program.compile("softmax.art")

Rows are read whole into one tile (the next power of two of the row,
padded: -inf for softmax's maximum, 0 for RMSNorm's sum of squares), and
computed in f32 whatever the stored type, as examples/tile/ does.
"""

from . import tile

__all__ = ["softmax", "rms_norm", "gemm", "softmax_program", "rms_norm_program",
           "gemm_program"]


def _row_tile(n):
    return 1 << (n - 1).bit_length()


@tile.kernel
def softmax(x, y, ROWS: tile.constexpr, COLS: tile.constexpr):
    i = tile.bid(0)
    t = tile.load(x, (i, 0), (ROWS, COLS), padding="neg_inf").astype(tile.float32)
    e = tile.exp(t - tile.max(t, 1, keepdims=True))
    # One division per row, then a product per element.
    p = e * (1.0 / tile.sum(e, 1, keepdims=True))
    tile.store(y, (i, 0), p.astype(y.dtype))


@tile.kernel
def rms_norm(x, w, y, ROWS: tile.constexpr, COLS: tile.constexpr, EPS: tile.constexpr):
    i = tile.bid(0)
    t = tile.load(x, (i, 0), (ROWS, COLS), padding="zero").astype(tile.float32)
    # Divided by n, not multiplied by 1/n: n is exact in f32, 1/n is not.
    mean_square = tile.sum(t * t, 1, keepdims=True) / x.shape[1]
    g = tile.load(w, (0,), (COLS,), padding="zero").astype(tile.float32)
    tile.store(y, (i, 0), (t * tile.rsqrt(mean_square + EPS) * g).astype(y.dtype))


@tile.kernel
def gemm(a, b, c, TM: tile.constexpr, TN: tile.constexpr, TK: tile.constexpr,
         STAGES: tile.constexpr):
    i, j = tile.bid(0), tile.bid(1)
    acc = tile.zeros((TM, TN), tile.float32)
    for k in tile.range(tile.num_tiles(a, 1, (TM, TK))):
        # Zero padding: a ragged K step multiplies zeros.
        ta = tile.load(a, (i, k), (TM, TK), latency=STAGES, padding="zero")
        tb = tile.load(b, (k, j), (TK, TN), latency=STAGES, padding="zero")
        acc = tile.mma(ta, tb, acc)
    tile.store(c, (i, j), acc.astype(c.dtype))


def softmax_program(shape, dtype, rows_per_block=1):
    """Softmax of every row of a `shape` (rows, cols) matrix x into y."""
    rows, cols = shape
    x, y = tile.array(shape, dtype), tile.array(shape, dtype)
    return softmax.trace((tile.cdiv(rows, rows_per_block),), x, y, rows_per_block,
                         _row_tile(cols))


def rms_norm_program(shape, dtype, eps=1e-6, rows_per_block=1):
    """y = x / sqrt(mean(x^2) + eps) * w over the rows of x, w of the row's
    length."""
    rows, cols = shape
    x, w, y = tile.array(shape, dtype), tile.array((cols,), dtype), tile.array(shape, dtype)
    return rms_norm.trace((tile.cdiv(rows, rows_per_block),), x, w, y, rows_per_block,
                          _row_tile(cols), eps)


def gemm_program(m, n, k, dtype="bf16", tiles=(128, 128, 32), stages=3):
    """c = a @ b, a (m, k), b (k, n), accumulated in f32 on tensor cores."""
    tm, tn, tk = tiles
    a, b, c = tile.array((m, k), dtype), tile.array((k, n), dtype), tile.array((m, n), dtype)
    return gemm.trace((tile.cdiv(m, tm), tile.cdiv(n, tn)), a, b, c, tm, tn, tk, stages)
