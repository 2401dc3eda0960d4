"""The Triton peers of tileopt.kernels, written the way the DSL kernels
are: a row of softmax or RMSNorm per program, read whole, computed in f32;
the bf16 GEMM as Triton's matmul tutorial (grouped block order, a K loop of
tl.dot). Each has a few autotune configs of its own. Imported on the GPU
machine only (Triton needs a GPU).
"""
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({}, num_warps=w) for w in (4, 8, 16)], key=["cols"])
@triton.jit
def _softmax(x, y, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64) * cols
    offsets = tl.arange(0, BLOCK)
    mask = offsets < cols
    t = tl.load(x + row + offsets, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(t - tl.max(t, 0))
    tl.store(y + row + offsets, (e * (1.0 / tl.sum(e, 0))).to(y.dtype.element_ty), mask=mask)


@triton.autotune(configs=[triton.Config({}, num_warps=w) for w in (4, 8, 16)], key=["cols"])
@triton.jit
def _rms_norm(x, w, y, cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64) * cols
    offsets = tl.arange(0, BLOCK)
    mask = offsets < cols
    t = tl.load(x + row + offsets, mask=mask, other=0.0).to(tl.float32)
    g = tl.load(w + offsets, mask=mask, other=0.0).to(tl.float32)
    mean_square = tl.sum(t * t, 0) / cols
    tl.store(y + row + offsets, (t * tl.rsqrt(mean_square + eps) * g).to(y.dtype.element_ty),
             mask=mask)


@triton.autotune(
    configs=[triton.Config({"BM": bm, "BN": bn, "BK": 64, "GROUP_M": 8}, num_stages=s, num_warps=w)
             for bm, bn, s, w in ((128, 256, 3, 8), (256, 128, 3, 8), (128, 128, 4, 4),
                                  (128, 128, 4, 8), (128, 256, 4, 8), (64, 256, 4, 4))],
    key=["m", "n", "k"])
@triton.jit
def _gemm(a, b, c, m, n, k, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
          GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    blocks_m, blocks_n = tl.cdiv(m, BM), tl.cdiv(n, BN)
    first = pid // (GROUP_M * blocks_n) * GROUP_M
    rows = min(blocks_m - first, GROUP_M)
    i = first + pid % rows
    j = pid % (GROUP_M * blocks_n) // rows
    rm = (i * BM + tl.arange(0, BM)) % m
    rn = (j * BN + tl.arange(0, BN)) % n
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * k + rk[None, :]
    pb = b + rk[:, None] * n + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for step in range(0, tl.cdiv(k, BK)):
        left = k - step * BK
        acc = tl.dot(tl.load(pa, mask=rk[None, :] < left, other=0.0),
                     tl.load(pb, mask=rk[:, None] < left, other=0.0), acc)
        pa += BK
        pb += BK * n
    cm = i * BM + tl.arange(0, BM)
    cn = j * BN + tl.arange(0, BN)
    tl.store(c + cm[:, None] * n + cn[None, :], acc.to(c.dtype.element_ty),
             mask=(cm[:, None] < m) & (cn[None, :] < n))


def softmax(x, y):
    rows, cols = x.shape
    _softmax[(rows,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))


def rms_norm(x, w, y, eps=1e-6):
    rows, cols = x.shape
    _rms_norm[(rows,)](x, w, y, cols, eps, BLOCK=triton.next_power_of_2(cols))


def gemm(a, b, c):
    (m, k), n = a.shape, b.shape[1]
    _gemm[lambda meta: (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)](
        a, b, c, m, n, k)


def chosen():
    """The configs Triton's autotuner kept, by kernel."""
    return {name: str(kernel.best_config)
            for name, kernel in (("softmax", _softmax), ("rms_norm", _rms_norm), ("gemm", _gemm))}
