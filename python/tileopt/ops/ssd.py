"""Mamba-2's SSD forward on the GPU, written in tileopt.tile.

`mamba_chunk_scan_combined` has mamba_ssm's signature. It checks its
arguments and runs five kernels (below), each compiled into an artifact of
its own so that each has its own tile sizes and warps: the autotuned
choice where `bench/mamba2` tuned one for this shape and GPU (the
`ssd_<stage>` tuners), else the default. Everything a call needs but the
tensors (the artifacts, loaded once, the order of their buffers) is kept
per configuration in the process, so a call is five launches on the
tensors' stream and can be captured in a CUDA graph. `ssd_program` puts
the five launches in one Program, which the CPU tests run through the tile
interpreter against ssd_reference.

The stages (REFERENCES.md, "Mamba-2 SSD forward"), one kernel each:

| kernel | grid | computes |
|---|---|---|
| chunk_cumsum | (chunks, heads / HT, batch) | dt after bias, softplus and limits; dA_cs = cumsum(dt A) in the chunk; HT heads a block |
| chunk_cb | (tiles on and below the diagonal of the chunk's Q x Q, groups, batch * chunks) | C B^T per chunk and group, shared by the group's heads |
| chunk_state | (chunks, heads, batch) | S_c = (x * exp(dA_last - dA_cs) dt)^T B on tensor cores, K positions of the chunk at a time |
| state_passing | (P N / T, heads, batch) | s = exp(dA_last) s + S_c over the chunks (a tile.range loop) on T elements of the state, the state entering each chunk, the final state |
| chunk_scan | (row tiles, heads, batch) | C prev^T scaled by exp(dA_cs), plus CB * decay * dt times x over the row tiles up to this one (the decay split into a row and a column factor before the diagonal tile, the causal mask on it alone), D skip, z gate |

Layouts: x, z and y are seen as (b*L, h*P) matrices, B and C as (b*L, g*N),
dt as (b*L, h): a tile of rows of one chunk and the columns of one head
(group) is one load. dt and dA_cs after stage 1 are (b, h, chunks, Q) in
float32, CB (b, chunks, g, Q, Q) and the chunk and entering states
(b, chunks, h, P, N) in `SSDConfig.inner_dtype` (bf16 by default: they are
rounded to bf16 for the tensor cores anyway, and they are most of the
memory traffic), the final states float32.
"""

import math
import os
import tempfile
from pathlib import Path

from .. import tile
from ..tile import autotune

__all__ = ["SSDConfig", "STAGES", "check_arguments", "ssd_program", "stage_program",
           "stage_tuners", "default_params", "tuned_params", "compiled_stage", "Plan", "plan",
           "mamba_chunk_scan_combined"]

_FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
_DEFAULT_LIMIT = (0.0, math.inf)


@tile.kernel
def chunk_cumsum(dt, A, dt_bias, dt_out, dA_cs, Q: tile.constexpr, HT: tile.constexpr,
                 SOFTPLUS: tile.constexpr, HAS_BIAS: tile.constexpr, LIMIT: tile.constexpr):
    c, ht, batch = tile.bid(0), tile.bid(1), tile.bid(2)
    chunks, head_tiles = tile.num_blocks(0), tile.num_blocks(1)
    # The chunk's dt of HT heads: Q rows of HT contiguous columns, turned
    # to a row per head to scan it.
    d = tile.load(dt, (batch * chunks + c, ht), (Q, HT)).T
    if HAS_BIAS:
        d = d + tile.load(dt_bias, (ht,), (HT,))[:, None]
    if SOFTPLUS:
        # log1p(exp(20)) is 20 in f32; the where keeps exp from overflowing.
        d = tile.where(d <= 20.0, tile.log1p(tile.exp(tile.minimum(d, 20.0))), d)
    if LIMIT != _DEFAULT_LIMIT:
        d = tile.minimum(tile.maximum(d, LIMIT[0]), LIMIT[1])
    a = tile.load(A, (ht,), (HT,))[:, None]
    # dt_out and dA_cs seen as (b*h, chunks*Q): HT rows, the chunk's columns.
    at = (batch * head_tiles + ht, c)
    tile.store(dt_out, at, d)
    tile.store(dA_cs, at, tile.cumsum(d * a, 1))


@tile.kernel
def chunk_cb(B, C, cb, Q: tile.constexpr, N: tile.constexpr, T: tile.constexpr):
    # The (T, T) tiles of C B^T on and below the diagonal, the only ones the
    # chunk scan reads: with n tiles a side, blocks p * (n + 1) + q take row
    # p's p + 1 tiles, then row n - 1 - p's n - p.
    t, group, bc = tile.bid(0), tile.bid(1), tile.bid(2)  # bc: batch * chunks + chunk
    groups = tile.num_blocks(1)
    n = Q // T
    if n == 1:
        i, j = 0, 0
    else:
        p, q = t // (n + 1), t % (n + 1)
        past = tile.minimum(tile.maximum(q - p, 0), 1)  # 1 past row p's diagonal
        i, j = p + past * (n - 1 - 2 * p), q - past * (p + 1)
    cm = tile.load(C, (bc * n + i, group), (T, N))
    bn = tile.load(B, (bc * n + j, group), (T, N))
    out = tile.mma(cm, bn.T, tile.zeros((T, T), tile.float32))
    tile.store(cb, ((bc * groups + group) * n + i, j), out.astype(cb.dtype))


@tile.kernel
def chunk_state(x, B, dt, dA_cs, states, Q: tile.constexpr, P: tile.constexpr,
                N: tile.constexpr, K: tile.constexpr, HEADS_PER_GROUP: tile.constexpr):
    c, head, batch = tile.bid(0), tile.bid(1), tile.bid(2)
    chunks, heads = tile.num_blocks(0), tile.num_blocks(1)
    row = (batch * heads + head) * chunks + c
    last = tile.load(dA_cs, (row, Q - 1), (1, 1))  # dA_cs at the chunk's end
    s = tile.zeros((P, N), tile.float32)
    # K positions of the chunk at a time: x^T goes through shared memory.
    for k in tile.range(Q // K):
        scale = tile.exp(last - tile.load(dA_cs, (row, k), (1, K))) * tile.load(dt, (row, k), (1, K))
        rows = (batch * chunks + c) * (Q // K) + k
        xt = tile.load(x, (rows, head), (K, P)).T
        b = tile.load(B, (rows, head // HEADS_PER_GROUP), (K, N))
        s = tile.mma((xt.astype(tile.float32) * scale).astype(x.dtype), b, s)
    tile.store(states, ((batch * chunks + c) * heads + head, 0), s.astype(states.dtype))


@tile.kernel
def state_passing(states, dA_cs, initial_states, entering, final_states, Q: tile.constexpr,
                  T: tile.constexpr, CHUNKS: tile.constexpr, HAS_INITIAL: tile.constexpr,
                  LATENCY: tile.constexpr):
    # The states seen as rows of P*N elements; this block walks T of them.
    part, head, batch = tile.bid(0), tile.bid(1), tile.bid(2)
    heads = tile.num_blocks(1)
    if HAS_INITIAL:
        s = tile.load(initial_states, (batch * heads + head, part), (1, T))
    else:
        s = tile.zeros((1, T), tile.float32)
    for c in tile.range(CHUNKS):
        at = (batch * CHUNKS + c) * heads + head
        tile.store(entering, (at, part), s.astype(entering.dtype))
        last = tile.load(dA_cs, ((batch * heads + head) * CHUNKS + c, Q - 1), (1, 1),
                         latency=LATENCY)
        added = tile.load(states, (at, part), (1, T), latency=LATENCY)
        s = tile.exp(last) * s + added.astype(tile.float32)
    tile.store(final_states, (batch * heads + head, part), s)


@tile.kernel
def chunk_scan(x, z, C, D, cb, dt, dA_cs, entering, y, Q: tile.constexpr, P: tile.constexpr,
               N: tile.constexpr, M: tile.constexpr, HEADS_PER_GROUP: tile.constexpr,
               D_KIND: tile.constexpr, HAS_Z: tile.constexpr, LATENCY: tile.constexpr):
    t, head, batch = tile.bid(0), tile.bid(1), tile.bid(2)
    tiles, heads = tile.num_blocks(0), tile.num_blocks(1)
    per_chunk = Q // M
    c, m = t // per_chunk, t % per_chunk  # the chunk, the row tile in it
    chunks = tiles // per_chunk
    groups = heads // HEADS_PER_GROUP
    group = head // HEADS_PER_GROUP
    dA_row = (batch * heads + head) * chunks + c
    cs_row = tile.load(dA_cs, (dA_row, m), (1, M))
    cs_m = cs_row.reshape(M, 1)
    # dA_cs where the row tile before this one ends (its first element for
    # the first tile, whose loop below is empty). The decay from position
    # j of an earlier tile to row i, exp(cs_i - cs_j), is
    # exp(cs_i - last) exp(last - cs_j): a row factor applied after the
    # loop and a column factor in it, each at most 1 when dt A <= 0.
    last = tile.load(dA_cs, (dA_row, tile.maximum(m * M - 1, 0)), (1, 1))
    cm = tile.load(C, (batch * tiles + t, group), (M, N))
    # The state entering the chunk: exp(cs_i) C_i prev^T, of which
    # exp(last) now and the rest with the loop's row factor.
    prev = tile.load(entering, ((batch * chunks + c) * heads + head, 0), (P, N))
    acc = tile.mma(cm, prev.astype(C.dtype).T, tile.zeros((M, P), tile.float32))
    acc = acc * tile.exp(last)
    # CB seen as (b*chunks*g*Q, Q): the row tile's (M, M) tiles.
    cb_row = ((batch * chunks + c) * groups + group) * per_chunk + m
    first = batch * tiles + c * per_chunk  # the chunk's first row tile of x
    # Within the chunk: the row tiles before this one, wholly causal ...
    for k in tile.range(m):
        cs_k = tile.load(dA_cs, (dA_row, k), (1, M), latency=LATENCY)
        column = tile.exp(last - cs_k) * tile.load(dt, (dA_row, k), (1, M), latency=LATENCY)
        w = tile.load(cb, (cb_row, k), (M, M), latency=LATENCY).astype(tile.float32) * column
        xk = tile.load(x, (first + k, head), (M, P), latency=LATENCY)
        acc = tile.mma(w.astype(x.dtype), xk, acc)
    acc = acc * tile.exp(cs_m - last)
    # ... and this one, causally masked (row i // M, column i % M of an
    # iota: no broadcast of a row and a column).
    i = tile.arange(M * M).reshape(M, M)
    decay = tile.exp(tile.where(i // M >= i % M, cs_m - cs_row, float("-inf")))
    w = tile.load(cb, (cb_row, m), (M, M)).astype(tile.float32) * decay
    w = w * tile.load(dt, (dA_row, m), (1, M))
    xm = tile.load(x, (batch * tiles + t, head), (M, P))
    acc = tile.mma(w.astype(x.dtype), xm, acc)
    if D_KIND == "per_head":
        acc = acc + xm.astype(tile.float32) * tile.load(D, (head,), (1,))[None, :]
    elif D_KIND == "per_channel":
        acc = acc + xm.astype(tile.float32) * tile.load(D, (head, 0), (1, P))
    if HAS_Z:
        g = tile.load(z, (batch * tiles + t, head), (M, P)).astype(tile.float32)
        acc = acc * g / (1.0 + tile.exp(-g))
    tile.store(y, (batch * tiles + t, head), acc.astype(y.dtype))


STAGES = ("chunk_cumsum", "chunk_cb", "chunk_state", "state_passing", "chunk_scan")


class SSDConfig:
    """What the SSD kernels depend on: shapes, dtypes and options.
    `inner_dtype` is the type of CB and of the chunk and entering states."""

    def __init__(self, batch, seqlen, heads, headdim, dstate, groups, chunk_size, dtype,
                 d_kind=None, has_z=False, has_dt_bias=False, has_initial=False,
                 dt_softplus=False, dt_limit=_DEFAULT_LIMIT, inner_dtype="bf16"):
        self.batch, self.seqlen, self.heads, self.headdim = batch, seqlen, heads, headdim
        self.dstate, self.groups, self.chunk_size = dstate, groups, chunk_size
        self.dtype = tile.as_dtype(dtype).mlir
        self.inner_dtype = tile.as_dtype(inner_dtype).mlir
        self.d_kind, self.has_z, self.has_dt_bias = d_kind, has_z, has_dt_bias
        self.has_initial, self.dt_softplus = has_initial, dt_softplus
        self.dt_limit = (float(dt_limit[0]), float(dt_limit[1]))

    def key(self):
        """The config as an autotuner shape key, of ints and strings."""
        key = dict(vars(self))
        key["d_kind"] = self.d_kind or "none"
        for flag in ("has_z", "has_dt_bias", "has_initial", "dt_softplus"):
            key[flag] = int(key[flag])
        key["dt_limit"] = f"{self.dt_limit[0]!r},{self.dt_limit[1]!r}"
        return key

    @classmethod
    def from_key(cls, key):
        values = dict(key)
        values["d_kind"] = None if values["d_kind"] == "none" else values["d_kind"]
        for flag in ("has_z", "has_dt_bias", "has_initial", "dt_softplus"):
            values[flag] = bool(values[flag])
        values["dt_limit"] = tuple(float(v) for v in values["dt_limit"].split(","))
        return cls(**values)

    def __repr__(self):
        return f"SSDConfig({self.key()})"


def default_params(cfg):
    """Each stage's tile sizes and compile options when nothing was tuned:
    what the tuners chose on an H100 at most BENCHMARKS.md shapes
    (docs/performance.md, 2026-12-06)."""
    Q = cfg.chunk_size
    return {
        "chunk_cumsum": dict(HT=min(cfg.heads & -cfg.heads, 8), num_warps=4),
        "chunk_cb": dict(T=min(64, Q), num_warps=4),
        "chunk_state": dict(K=min(32, Q), num_warps=4),
        "state_passing": dict(T=min(512, cfg.headdim * cfg.dstate), LATENCY=3, num_warps=4),
        "chunk_scan": dict(M=min(64, Q), LATENCY=1, num_warps=4),
    }


class _Buffers:
    """The buffers of an SSD Program, each made on first use."""

    def __init__(self, program, cfg):
        b, L, h, P, N, g, Q = (cfg.batch, cfg.seqlen, cfg.heads, cfg.headdim, cfg.dstate,
                               cfg.groups, cfg.chunk_size)
        nc = L // Q
        f32, inner = "f32", cfg.inner_dtype
        self.program = program
        self.specs = {
            "x": ((b, L, h, P), cfg.dtype), "dt": ((b, L, h), f32), "A": ((h,), f32),
            "B": ((b, L, g, N), cfg.dtype), "C": ((b, L, g, N), cfg.dtype),
            "D": ((h,) if cfg.d_kind == "per_head" else (h, P), f32),
            "z": ((b, L, h, P), cfg.dtype), "dt_bias": ((h,), f32),
            "initial_states": ((b, h, P, N), f32),
            "y": ((b, L, h, P), cfg.dtype), "final_states": ((b, h, P, N), f32),
            "dt_processed": ((b, h, nc, Q), f32), "dA_cumsum": ((b, h, nc, Q), f32),
            "cb": ((b, nc, g, Q, Q), inner),
            "chunk_states": ((b, nc, h, P, N), inner),
            "entering_states": ((b, nc, h, P, N), inner),
        }
        self.made = {}

    def __getitem__(self, name):
        if name not in self.made:
            shape, dtype = self.specs[name]
            self.made[name] = self.program.array(name, shape, dtype)
        return self.made[name]


def _launch(prog, buf, cfg, stage, p):
    """Appends `stage`'s launch with parameters `p` to `prog`."""
    b, L, h, P, N, g, Q = (cfg.batch, cfg.seqlen, cfg.heads, cfg.headdim, cfg.dstate,
                           cfg.groups, cfg.chunk_size)
    nc = L // Q
    rows, bc_rows = (b * L, h * P), (b * L, g * N)
    per_chunk = (b * h * nc, Q)
    states = (b * nc * h, P * N)
    # Parameters a configuration leaves out are bound to a buffer of the
    # right rank that the kernel never reads (the flag turns the read off).
    if stage == "chunk_cumsum":
        HT = p["HT"]
        prog.launch(chunk_cumsum, (nc, h // HT, b), buf["dt"].view(b * L, h), buf["A"],
                    buf["dt_bias"] if cfg.has_dt_bias else buf["A"],
                    buf["dt_processed"].view(b * h, nc * Q), buf["dA_cumsum"].view(b * h, nc * Q),
                    Q, HT, cfg.dt_softplus, cfg.has_dt_bias, cfg.dt_limit)
    elif stage == "chunk_cb":
        n = Q // p["T"]
        lower_tiles = n * (n + 1) // 2
        prog.launch(chunk_cb, (lower_tiles, g, b * nc), buf["B"].view(bc_rows),
                    buf["C"].view(bc_rows), buf["cb"].view(b * nc * g * Q, Q), Q, N, p["T"])
    elif stage == "chunk_state":
        prog.launch(chunk_state, (nc, h, b), buf["x"].view(rows), buf["B"].view(bc_rows),
                    buf["dt_processed"].view(per_chunk), buf["dA_cumsum"].view(per_chunk),
                    buf["chunk_states"].view(b * nc * h * P, N), Q, P, N, p["K"], h // g)
    elif stage == "state_passing":
        initial = buf["initial_states"] if cfg.has_initial else buf["final_states"]
        prog.launch(state_passing, (P * N // p["T"], h, b), buf["chunk_states"].view(states),
                    buf["dA_cumsum"].view(per_chunk), initial.view(b * h, P * N),
                    buf["entering_states"].view(states), buf["final_states"].view(b * h, P * N),
                    Q, p["T"], nc, cfg.has_initial, p["LATENCY"])
    elif stage == "chunk_scan":
        M = p["M"]
        d_view = buf["D"] if cfg.d_kind else buf["A"]
        z = buf["z"] if cfg.has_z else buf["x"]
        prog.launch(chunk_scan, (nc * (Q // M), h, b), buf["x"].view(rows), z.view(rows),
                    buf["C"].view(bc_rows), d_view, buf["cb"].view(b * nc * g * Q, Q),
                    buf["dt_processed"].view(per_chunk), buf["dA_cumsum"].view(per_chunk),
                    buf["entering_states"].view(b * nc * h * P, N), buf["y"].view(rows),
                    Q, P, N, M, h // g, cfg.d_kind, cfg.has_z, p["LATENCY"])
    else:
        raise ValueError(f"no SSD stage {stage!r}; the stages are {', '.join(STAGES)}")


def _build_params(params):
    return {k: v for k, v in params.items() if k not in autotune.COMPILE_OPTIONS}


def ssd_program(cfg, params=None):
    """The tile Program of the whole SSD forward for `cfg`, the five
    launches in order (`params`: stage -> its parameters, default
    `default_params`). Inputs x, dt, A, B, C and, per the options, D, z,
    dt_bias, initial_states; outputs y and final_states, and the
    intermediate buffers between the kernels."""
    params = params or default_params(cfg)
    prog = tile.Program()
    buf = _Buffers(prog, cfg)
    for name in ("x", "dt", "A", "B", "C"):
        buf[name]
    for name, present in (("D", cfg.d_kind), ("z", cfg.has_z), ("dt_bias", cfg.has_dt_bias),
                          ("initial_states", cfg.has_initial)):
        if present:
            buf[name]
    for stage in STAGES:
        _launch(prog, buf, cfg, stage, _build_params(params[stage]))
    return prog


def stage_program(cfg, stage, **params):
    """The Program of one stage's launch (its buffers named as in
    ssd_program); `params`: the stage's constexpr parameters."""
    prog = tile.Program()
    _launch(prog, _Buffers(prog, cfg), cfg, stage, params)
    return prog


_SPACES = {
    "chunk_cumsum": lambda cfg: autotune.Space(
        HT=sorted({min(cfg.heads & -cfg.heads, t) for t in (8, 32)}), num_warps=(4, 8)),
    "chunk_cb": lambda cfg: autotune.Space(
        T=(64, 128), num_warps=(4, 8), where=lambda c: c["T"] <= cfg.chunk_size),
    # sm_90a runs the chunk state's product on wgmma (K of 64 only).
    "chunk_state": lambda cfg: autotune.Space(
        K=(16, 32, 64), num_warps=(4, 8), chip=("sm_90", "sm_90a"),
        where=lambda c: c["K"] <= cfg.chunk_size and (c["chip"] == "sm_90" or c["K"] == 64)),
    "state_passing": lambda cfg: autotune.Space(
        T=(512, 1024, 2048), LATENCY=(1, 2, 3), num_warps=(4,),
        where=lambda c: c["T"] <= cfg.headdim * cfg.dstate),
    # Rows of 32: the loop's column factor is broadcast by shuffles.
    "chunk_scan": lambda cfg: autotune.Space(
        M=(32, 64, 128), LATENCY=(1, 2), num_warps=(4, 8),
        where=lambda c: c["M"] <= cfg.chunk_size and (c["M"] <= 64 or c["num_warps"] == 8)),
}


def stage_tuners(cfg):
    """stage -> the Autotuner of that stage's kernel at `cfg` (its key:
    `cfg.key()`); the spaces are small, each config one artifact."""
    tuners = {}
    for stage in STAGES:
        def build(stage=stage, **values):
            params = {k: values.pop(k) for k in list(values) if k.isupper()}
            return stage_program(SSDConfig.from_key(values), stage, **params)
        tuners[stage] = autotune.Autotuner(f"ssd_{stage}", build, _SPACES[stage](cfg))
    return tuners


def _cache_root():
    return Path(os.environ.get("TILEOPT_CACHE_DIR", Path(tempfile.gettempdir()) / "tileopt"))


def compiled_stage(cfg, stage, params):
    """The artifact directory of `stage` at `cfg` with `params` (its
    constexpr parameters and compile options), compiled once into
    $TILEOPT_CACHE_DIR/ssd (else the temporary directory's tileopt/ssd).
    The key is the program without its locations and the options, so that
    a checkout elsewhere finds the same entry (a GPU machine without LLVM
    runs what was compiled here)."""
    options = {k: v for k, v in params.items() if k in autotune.COMPILE_OPTIONS}
    options.setdefault("chip", "sm_90")
    program = stage_program(cfg, stage, **_build_params(params))
    path = _cache_root() / "ssd" / program.fingerprint(sorted(options.items()))[:24]
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        program.compile(path, **options)
    return path


# ---------------------------------------------------------------------------
# The public function
# ---------------------------------------------------------------------------


def _dtype_name(t):
    return str(t.dtype).removeprefix("torch.")


def _device(t):
    return str(getattr(t, "device", "cpu"))


def check_arguments(x, dt, A, B, C, chunk_size, D=None, z=None, dt_bias=None,
                    initial_states=None, dt_limit=_DEFAULT_LIMIT):
    """Raises ValueError (TypeError for dtypes) on arguments
    mamba_chunk_scan_combined cannot take; the sizes (b, L, h, P, N, g)."""
    if len(x.shape) != 4:
        raise ValueError(f"x must be (batch, seqlen, nheads, headdim), got shape {tuple(x.shape)}")
    b, L, h, P = x.shape
    if len(B.shape) != 4:
        raise ValueError(f"B must be (batch, seqlen, ngroups, dstate), got {tuple(B.shape)}")
    g, N = B.shape[2], B.shape[3]
    expected = {"dt": (dt, (b, L, h)), "A": (A, (h,)), "B": (B, (b, L, g, N)),
                "C": (C, (b, L, g, N)), "z": (z, (b, L, h, P)), "dt_bias": (dt_bias, (h,)),
                "initial_states": (initial_states, (b, h, P, N))}
    for name, (t, shape) in expected.items():
        if t is not None and tuple(t.shape) != shape:
            raise ValueError(f"{name} must have shape {shape} for x {tuple(x.shape)} and "
                             f"B {tuple(B.shape)}, got {tuple(t.shape)}")
    if D is not None and tuple(D.shape) not in ((h,), (h, P)):
        raise ValueError(f"D must have shape ({h},) or ({h}, {P}), got {tuple(D.shape)}")
    if h % g != 0:
        raise ValueError(f"nheads ({h}) must be a multiple of ngroups ({g}): each group of B "
                         f"and C serves nheads / ngroups heads")
    if not isinstance(chunk_size, int) or chunk_size <= 0 or L % chunk_size != 0:
        raise ValueError(f"seqlen ({L}) must be a multiple of chunk_size ({chunk_size!r})")
    if len(dt_limit) != 2 or not dt_limit[0] <= dt_limit[1]:
        raise ValueError(f"dt_limit must be (min, max) with min <= max, got {dt_limit!r}")
    named = {"x": x, "dt": dt, "A": A, "B": B, "C": C, "D": D, "z": z, "dt_bias": dt_bias,
             "initial_states": initial_states}
    given = {n: t for n, t in named.items() if t is not None}
    for name, t in given.items():
        if _dtype_name(t) not in _FLOAT_DTYPES:
            raise TypeError(f"{name} must be floating-point ({', '.join(_FLOAT_DTYPES)}), "
                            f"got {_dtype_name(t)}")
    for name in ("B", "C", "z"):
        if name in given and _dtype_name(given[name]) != _dtype_name(x):
            raise TypeError(f"{name} must have x's dtype ({_dtype_name(x)}), "
                            f"got {_dtype_name(given[name])}")
    devices = {n: _device(t) for n, t in given.items()}
    if not devices["x"].startswith("cuda"):
        raise ValueError(f"x is on {devices['x']}: the SSD kernels run on a CUDA device "
                         f"(tileopt.ops.ssd_reference computes the same on the CPU, in NumPy)")
    for name, device in devices.items():
        if device != devices["x"]:
            raise ValueError(f"{name} is on {device}, x on {devices['x']}: all tensors must "
                             f"be on one device")
    return b, L, h, P, N, g


def tuned_params(cfg, device_name):
    """default_params, with each stage that bench/mamba2 tuned for `cfg` on
    the GPU `device_name` replaced by the tuned choice (its config and,
    under "artifact", its compiled artifact)."""
    params = default_params(cfg)
    for stage, tuner in stage_tuners(cfg).items():
        cached = tuner.cached(cfg.key(), device_name)
        if cached is not None:
            params[stage] = dict(cached.best.config, artifact=cached.artifact)
    return params


class Plan:
    """What a call at one configuration needs but the tensors: each stage's
    artifact, loaded, with the names of its buffers in launch order;
    `params` (stage -> parameters, default tuned_params) says which."""

    def __init__(self, cfg, params=None, device_name=None):
        from ..runtime import Artifact  # needs the runtime library, not LLVM
        self.cfg = cfg
        self.params = params or tuned_params(cfg, device_name)
        self.stages = []
        for stage in STAGES:
            p = self.params[stage]
            artifact = Artifact(p["artifact"] if "artifact" in p else compiled_stage(cfg, stage, p))
            self.stages.append((stage, artifact, [b.name for b in artifact.buffers]))
        self.shapes = _Buffers(tile.Program(), cfg).specs

    def tensors(self, x, dt, A, B, C, D=None, z=None, dt_bias=None, initial_states=None):
        """The tensors of a call: the inputs, contiguous and in the
        kernels' dtypes, and new outputs and intermediates."""
        import torch
        tensors = {"x": x.contiguous(), "B": B.contiguous(), "C": C.contiguous()}
        for name, t in (("dt", dt), ("A", A), ("D", D), ("dt_bias", dt_bias),
                        ("initial_states", initial_states)):
            if t is not None:
                tensors[name] = t.to(torch.float32).contiguous()
        if z is not None:
            tensors["z"] = z.contiguous()
        for name in ("y", "final_states", "dt_processed", "dA_cumsum", "cb", "chunk_states",
                     "entering_states"):
            shape, dtype = self.shapes[name]
            tensors[name] = torch.empty(shape, dtype=_torch_dtype(torch, dtype), device=x.device)
        return tensors

    def run(self, tensors, stream):
        """The five launches on the CUDA stream handle `stream`."""
        for _, artifact, names in self.stages:
            artifact.launch([tensors[n].data_ptr() for n in names], stream)


_PLANS = {}


def plan(cfg):
    """The Plan of `cfg` on the current CUDA device, made once per process
    (tuned_params: what bench/mamba2 tuned, if it ran, else the defaults)."""
    import torch
    device = torch.cuda.current_device()
    key = (tuple(sorted(cfg.key().items())), device)
    if key not in _PLANS:
        _PLANS[key] = Plan(cfg, device_name=torch.cuda.get_device_name(device))
    return _PLANS[key]


def _torch_dtype(torch, mlir):
    return {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
            "f64": torch.float64}[mlir]


def mamba_chunk_scan_combined(x, dt, A, B, C, chunk_size, D=None, z=None, dt_bias=None,
                              initial_states=None, dt_softplus=False, dt_limit=_DEFAULT_LIMIT,
                              return_final_states=False):
    """Mamba-2's SSD forward (mamba_ssm.ops.triton.ssd_combined's signature)
    on CUDA tensors: y (b, L, h, P) in x's dtype, and with
    `return_final_states` the final states (b, h, P, N) in float32."""
    b, L, h, P, N, g = check_arguments(x, dt, A, B, C, chunk_size, D, z, dt_bias,
                                       initial_states, dt_limit)
    import torch  # the GPU path alone needs torch

    d_kind = None if D is None else ("per_head" if D.dim() == 1 else "per_channel")
    cfg = SSDConfig(b, L, h, P, N, g, chunk_size, tile.as_dtype(x.dtype), d_kind,
                    z is not None, dt_bias is not None, initial_states is not None,
                    dt_softplus, dt_limit)
    with torch.cuda.device(x.device):
        p = plan(cfg)
        tensors = p.tensors(x, dt, A, B, C, D, z, dt_bias, initial_states)
        p.run(tensors, torch.cuda.current_stream(x.device).cuda_stream)
    y = tensors["y"]
    return (y, tensors["final_states"]) if return_final_states else y
