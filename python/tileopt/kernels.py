"""Kernels written in tileopt.tile: row softmax, RMSNorm, a GEMM and
FlashAttention's forward pass, each with a function that traces it into a
Program at given shapes::

    from tileopt import kernels
    program = kernels.softmax_program((8192, 8192), "bf16")
    program.compile("softmax.art")

Rows are read whole into one tile (the next power of two of the row,
padded: -inf for softmax's maximum, 0 for RMSNorm's sum of squares), and
computed in f32 whatever the stored type, as examples/tile/ does. Each
kernel has an autotuner (`softmax_tuner`, ...: docs/tile-dsl.md).
"""

import math

from . import tile

__all__ = ["softmax", "rms_norm", "gemm", "softmax_program", "rms_norm_program",
           "gemm_program", "attention", "attention_program", "softmax_tuner", "rms_norm_tuner",
           "gemm_tuner", "attention_tuner"]


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
         STAGES: tile.constexpr, GROUP_M: tile.constexpr):
    # A 1-D grid walked in groups of GROUP_M tile rows, down each column of
    # the group first: consecutive blocks share a column tile of b and the
    # group's row tiles of a while they are in L2.
    blocks_m, blocks_n = tile.num_tiles(c, 0, (TM, TN)), tile.num_tiles(c, 1, (TM, TN))
    block = tile.bid(0)
    first = block // (GROUP_M * blocks_n) * GROUP_M
    rows = tile.minimum(blocks_m - first, GROUP_M)
    i = first + block % rows
    j = block % (GROUP_M * blocks_n) // rows
    acc = tile.zeros((TM, TN), tile.float32)
    for k in tile.range(tile.num_tiles(a, 1, (TM, TK))):
        # Zero padding: a ragged K step multiplies zeros. TMA copies the
        # operands of wgmma on sm_90a (else cp.async).
        ta = tile.load(a, (i, k), (TM, TK), latency=STAGES, allow_tma=True, padding="zero")
        tb = tile.load(b, (k, j), (TK, TN), latency=STAGES, allow_tma=True, padding="zero")
        acc = tile.mma(ta, tb, acc)
    tile.store(c, (i, j), acc.astype(c.dtype))


@tile.kernel
def attention(q, k, v, o, SEQ: tile.constexpr, TQ: tile.constexpr, TKV: tile.constexpr,
              CAUSAL: tile.constexpr, STAGES: tile.constexpr):
    # FlashAttention's forward pass: q, k, v, o are (batch * heads * SEQ, d);
    # block (i, bh) computes query tile i of head bh over the key tiles,
    # with a running maximum m and sum l of each row, in base 2.
    i, bh = tile.bid(0), tile.bid(1)
    d = q.shape[1]
    q_tiles, kv_tiles = SEQ // TQ, SEQ // TKV
    tq = tile.load(q, (bh * q_tiles + i, 0), (TQ, d))
    scale = math.log2(math.e) / math.sqrt(d)
    m = tile.full((TQ, 1), -math.inf, tile.float32)
    l = tile.zeros((TQ, 1), tile.float32)
    acc = tile.zeros((TQ, d), tile.float32)
    # Causal: the key tiles up to the diagonal (TQ a multiple of TKV).
    for j in tile.range((i + 1) * (TQ // TKV) if CAUSAL else kv_tiles):
        tk = tile.load(k, (bh * kv_tiles + j, 0), (TKV, d), latency=STAGES)
        s = tile.mma(tq, tk.T, tile.zeros((TQ, TKV), tile.float32)) * scale
        if CAUSAL:
            rows = tile.arange(TQ)[:, None] + i * TQ
            cols = tile.arange(TKV)[None, :] + j * TKV
            s = tile.where(cols <= rows, s, -math.inf)
        # Key tile 0 is never wholly masked, so m is finite from then on.
        m_new = tile.maximum(m, tile.max(s, 1, keepdims=True))
        p = tile.exp2(s - m_new)
        alpha = tile.exp2(m - m_new)
        l = l * alpha + tile.sum(p, 1, keepdims=True)
        tv = tile.load(v, (bh * kv_tiles + j, 0), (TKV, d), latency=STAGES)
        acc = tile.mma(p.astype(v.dtype), tv, acc * alpha)
        m = m_new
    tile.store(o, (bh * q_tiles + i, 0), (acc / l).astype(o.dtype))


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


def gemm_program(m, n, k, dtype="bf16", tiles=(128, 128, 64), stages=4, group_m=8):
    """c = a @ b, a (m, k), b (k, n), accumulated in f32 on tensor cores;
    blocks in groups of `group_m` tile rows."""
    tm, tn, tk = tiles
    a, b, c = tile.array((m, k), dtype), tile.array((k, n), dtype), tile.array((m, n), dtype)
    return gemm.trace((tile.cdiv(m, tm) * tile.cdiv(n, tn),), a, b, c, tm, tn, tk, stages,
                      group_m)


def attention_program(batch, heads, seq, d, causal=False, dtype="bf16", tiles=(128, 64),
                      stages=2):
    """o = softmax(q k^T / sqrt(d)) v per head (causal: key <= query), q, k,
    v, o of shape (batch, heads, seq, d) seen as (batch * heads * seq, d);
    `tiles` (query rows, key rows) a block, seq a multiple of both."""
    tq, tkv = tiles
    if seq % tq or seq % tkv or (causal and tq % tkv):
        raise tile.TileError(f"attention needs seq ({seq}) a multiple of the tiles {tiles}"
                             f"{' and the query tile a multiple of the key tile' if causal else ''}")
    spec = tile.array((batch * heads * seq, d), dtype)
    return attention.trace((seq // tq, batch * heads), spec, spec, spec, spec, seq, tq, tkv,
                           causal, stages)


# Autotuners (tile.autotune) of the kernels, keyed by shape and dtype.
# Row kernels: rows per block and warps. The GEMM: wgmma's tiles (M a
# multiple of 64 per warpgroup, N and K of 64), pipeline stages (as many as
# shared memory holds), the block order and warps, on sm_90a (wgmma and
# TMA); an accumulator of at most 128 f32 a thread (256 spilled: 128 x 256
# on 4 warps ran 13x slower than on 8 on the H200).
softmax_tuner = tile.autotune.Autotuner(
    "softmax", lambda rows, cols, dtype, ROWS: softmax_program((rows, cols), dtype, ROWS),
    tile.autotune.Space(ROWS=(1, 2, 4), num_warps=(4, 8, 16), chip=("sm_90a",)))

rms_norm_tuner = tile.autotune.Autotuner(
    "rms_norm", lambda rows, cols, dtype, ROWS: rms_norm_program((rows, cols), dtype, 1e-6, ROWS),
    tile.autotune.Space(ROWS=(1, 2, 4), num_warps=(4, 8, 16), chip=("sm_90a",)))

gemm_tuner = tile.autotune.Autotuner(
    "gemm", lambda m, n, k, dtype, TM, TN, TK, STAGES, GROUP_M:
        gemm_program(m, n, k, dtype, (TM, TN, TK), STAGES, GROUP_M),
    tile.autotune.Space(TM=(64, 128, 256), TN=(128, 256), TK=(64, 128), STAGES=(2, 3, 4, 5),
                        GROUP_M=(1, 8), num_warps=(4, 8), chip=("sm_90a",),
                        where=lambda c: c["TM"] * c["TN"] <= 128 * 32 * c["num_warps"] and
                        c["TM"] % (64 * (c["num_warps"] // 4)) == 0 and
                        # Stages beyond what shared memory holds are the same kernel.
                        c["STAGES"] * (c["TM"] + c["TN"]) * c["TK"] * 2 <= 232448))

# Attention: tiles of queries and keys, on mma.sync (q k^T multiplies a
# transposed rhs, which the wgmma lowering does not read).
attention_tuner = tile.autotune.Autotuner(
    "attention", lambda batch, heads, seq, d, causal, dtype, TQ, TKV, STAGES:
        attention_program(batch, heads, seq, d, causal, dtype, (TQ, TKV), STAGES),
    tile.autotune.Space(TQ=(64, 128), TKV=(64, 128), STAGES=(2, 3), num_warps=(4, 8),
                        chip=("sm_90a",), where=lambda c: c["TQ"] >= c["TKV"]))
