"""Mamba-2's SSD forward on the GPU, written in tileopt.tile.

`mamba_chunk_scan_combined` has mamba_ssm's signature. It checks its
arguments, traces `ssd_program` at their shapes (four kernels, below),
compiles it with tileopt-compile (once per configuration) and runs the
artifact on the tensors' stream. `ssd_program` is also what the CPU tests
run, through the tile interpreter, against ssd_reference.

The stages (REFERENCES.md, "Mamba-2 SSD forward"), one kernel each but C·B,
which the chunk scan computes per head as it needs it:

| kernel | grid | computes |
|---|---|---|
| chunk_cumsum | (chunks, heads, batch) | dt after bias, softplus and limits; dA_cs = cumsum(dt A) in the chunk |
| chunk_state | (chunks, heads, batch) | S_c = (x * exp(dA_last - dA_cs) dt)^T B on tensor cores, `row_tile` positions of the chunk at a time |
| state_passing | (heads, batch) | s = exp(dA_last) s + S_c over the chunks (a tile.range loop), the state entering each chunk, the final state |
| chunk_scan | (row tiles, heads, batch) | C prev^T scaled by exp(dA_cs), plus the causal C B^T decay dt x of the row tile's chunk, D skip, z gate |

Layouts: x, z and y are seen as (b*L, h*P) matrices, B and C as (b*L, g*N),
dt as (b*L, h): a tile of rows of one chunk and the columns of one head
(group) is one load. dt and dA_cs after stage 1 are (b, h, chunks, Q), the
chunk states (b, chunks, h, P, N), all float32.
"""

import math
import os
import tempfile
from pathlib import Path

from .. import tile

__all__ = ["SSDConfig", "check_arguments", "ssd_program", "compiled_program",
           "mamba_chunk_scan_combined"]

_FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
_DEFAULT_LIMIT = (0.0, math.inf)


@tile.kernel
def chunk_cumsum(dt, A, dt_bias, dt_out, dA_cs, Q: tile.constexpr, SOFTPLUS: tile.constexpr,
                 HAS_BIAS: tile.constexpr, LIMIT: tile.constexpr):
    c, head, batch = tile.bid(0), tile.bid(1), tile.bid(2)
    chunks, heads = tile.num_blocks(0), tile.num_blocks(1)
    # The chunk's dt of this head: a column, read as a row to scan it.
    d = tile.load(dt, (batch * chunks + c, head), (Q, 1)).reshape(1, Q)
    if HAS_BIAS:
        d = d + tile.load(dt_bias, (head,), (1,))[None, :]
    if SOFTPLUS:
        # log1p(exp(20)) is 20 in f32; the where keeps exp from overflowing.
        d = tile.where(d <= 20.0, tile.log1p(tile.exp(tile.minimum(d, 20.0))), d)
    if LIMIT != _DEFAULT_LIMIT:
        d = tile.minimum(tile.maximum(d, LIMIT[0]), LIMIT[1])
    a = tile.load(A, (head,), (1,))[None, :]
    row = (batch * heads + head) * chunks + c
    tile.store(dt_out, (row, 0), d)
    tile.store(dA_cs, (row, 0), tile.cumsum(d * a, 1))


@tile.kernel
def chunk_state(x, B, dt, dA_cs, states, Q: tile.constexpr, P: tile.constexpr,
                N: tile.constexpr, K: tile.constexpr, HEADS_PER_GROUP: tile.constexpr):
    c, head, batch = tile.bid(0), tile.bid(1), tile.bid(2)
    chunks, heads = tile.num_blocks(0), tile.num_blocks(1)
    row = (batch * heads + head) * chunks + c
    last = tile.load(dA_cs, (row, Q - 1), (1, 1))  # dA_cs at the chunk's end
    s = tile.zeros((P, N), tile.float32)
    # K positions of the chunk at a time: x^T goes through shared memory,
    # 48 KiB of it (a whole 256 x 64 f32 chunk would need 64 KiB).
    for k in tile.range(Q // K):
        scale = tile.exp(last - tile.load(dA_cs, (row, k), (1, K))) * tile.load(dt, (row, k), (1, K))
        rows = batch * (chunks * (Q // K)) + c * (Q // K) + k
        xt = tile.load(x, (rows, head), (K, P)).astype(tile.float32).T
        b = tile.load(B, (rows, head // HEADS_PER_GROUP), (K, N))
        s = tile.mma((xt * scale).astype(x.dtype), b, s)
    tile.store(states, ((batch * chunks + c) * heads + head, 0), s)


@tile.kernel
def state_passing(states, dA_cs, initial_states, entering, final_states, Q: tile.constexpr,
                  P: tile.constexpr, N: tile.constexpr, CHUNKS: tile.constexpr,
                  HAS_INITIAL: tile.constexpr):
    head, batch = tile.bid(0), tile.bid(1)
    heads = tile.num_blocks(0)
    if HAS_INITIAL:
        s = tile.load(initial_states, (batch * heads + head, 0), (P, N))
    else:
        s = tile.zeros((P, N), tile.float32)
    for c in tile.range(CHUNKS):
        at = (batch * CHUNKS + c) * heads + head
        tile.store(entering, (at, 0), s)
        last = tile.load(dA_cs, ((batch * heads + head) * CHUNKS + c, Q - 1), (1, 1))
        s = tile.exp(last) * s + tile.load(states, (at, 0), (P, N))
    tile.store(final_states, (batch * heads + head, 0), s)


@tile.kernel
def chunk_scan(x, z, B, C, D, dt, dA_cs, entering, y, Q: tile.constexpr, P: tile.constexpr,
               N: tile.constexpr, M: tile.constexpr, HEADS_PER_GROUP: tile.constexpr,
               D_KIND: tile.constexpr, HAS_Z: tile.constexpr):
    t, head, batch = tile.bid(0), tile.bid(1), tile.bid(2)
    tiles, heads = tile.num_blocks(0), tile.num_blocks(1)
    per_chunk = Q // M
    c, m = t // per_chunk, t % per_chunk  # the chunk, the row tile in it
    chunks = tiles // per_chunk
    group = head // HEADS_PER_GROUP
    dA_row = (batch * heads + head) * chunks + c
    cs_m = tile.load(dA_cs, (dA_row, m), (1, M)).reshape(M, 1)
    cm = tile.load(C, (batch * tiles + t, group), (M, N))
    # The state entering the chunk, decayed to each row.
    prev = tile.load(entering, ((batch * chunks + c) * heads + head, 0), (P, N))
    acc = tile.mma(cm, prev.astype(C.dtype).T, tile.zeros((M, P), tile.float32))
    acc = acc * tile.exp(cs_m)
    rows = tile.arange(M)[:, None] + m * M
    # Within the chunk: the row tiles up to this one, causally masked.
    for k in tile.range(m + 1):
        bk = tile.load(B, (batch * tiles + c * per_chunk + k, group), (M, N))
        cb = tile.mma(cm, bk.T, tile.zeros((M, M), tile.float32))
        cs_k = tile.load(dA_cs, (dA_row, k), (1, M))
        causal = rows >= tile.arange(M)[None, :] + k * M
        decay = tile.exp(tile.where(causal, cs_m - cs_k, float("-inf")))
        w = cb * decay * tile.load(dt, (dA_row, k), (1, M))
        xk = tile.load(x, (batch * tiles + c * per_chunk + k, head), (M, P))
        acc = tile.mma(w.astype(x.dtype), xk, acc)
    xm = tile.load(x, (batch * tiles + t, head), (M, P)).astype(tile.float32)
    if D_KIND == "per_head":
        acc = acc + xm * tile.load(D, (head,), (1,))[None, :]
    elif D_KIND == "per_channel":
        acc = acc + xm * tile.load(D, (head, 0), (1, P))
    if HAS_Z:
        g = tile.load(z, (batch * tiles + t, head), (M, P)).astype(tile.float32)
        acc = acc * g / (1.0 + tile.exp(-g))
    tile.store(y, (batch * tiles + t, head), acc.astype(y.dtype))


class SSDConfig:
    """What a compiled SSD program depends on: shapes, dtype and options."""

    def __init__(self, batch, seqlen, heads, headdim, dstate, groups, chunk_size, dtype,
                 d_kind=None, has_z=False, has_dt_bias=False, has_initial=False,
                 dt_softplus=False, dt_limit=_DEFAULT_LIMIT, row_tile=64):
        self.batch, self.seqlen, self.heads, self.headdim = batch, seqlen, heads, headdim
        self.dstate, self.groups, self.chunk_size, self.dtype = dstate, groups, chunk_size, dtype
        self.d_kind, self.has_z, self.has_dt_bias = d_kind, has_z, has_dt_bias
        self.has_initial, self.dt_softplus = has_initial, dt_softplus
        self.dt_limit = (float(dt_limit[0]), float(dt_limit[1]))
        self.row_tile = min(row_tile, chunk_size)

    def key(self):
        return repr(sorted(vars(self).items()))


def ssd_program(cfg):
    """The tile Program of the SSD forward for `cfg`. Inputs x, dt, A, B, C
    and, per the options, D, z, dt_bias, initial_states; outputs y and
    final_states (and the intermediate buffers between the kernels)."""
    b, L, h, P, N, g, Q = (cfg.batch, cfg.seqlen, cfg.heads, cfg.headdim, cfg.dstate,
                           cfg.groups, cfg.chunk_size)
    nc, M = L // Q, cfg.row_tile
    prog = tile.Program()
    f32 = tile.float32
    x = prog.array("x", (b, L, h, P), cfg.dtype)
    dt = prog.array("dt", (b, L, h), f32)
    A = prog.array("A", (h,), f32)
    B = prog.array("B", (b, L, g, N), cfg.dtype)
    C = prog.array("C", (b, L, g, N), cfg.dtype)
    D = prog.array("D", (h,) if cfg.d_kind == "per_head" else (h, P), f32) if cfg.d_kind else None
    z = prog.array("z", (b, L, h, P), cfg.dtype) if cfg.has_z else None
    bias = prog.array("dt_bias", (h,), f32) if cfg.has_dt_bias else None
    init = prog.array("initial_states", (b, h, P, N), f32) if cfg.has_initial else None
    y = prog.array("y", (b, L, h, P), cfg.dtype)
    final = prog.array("final_states", (b, h, P, N), f32)
    dt_out = prog.array("dt_processed", (b, h, nc, Q), f32)
    dA_cs = prog.array("dA_cumsum", (b, h, nc, Q), f32)
    states = prog.array("chunk_states", (b, nc, h, P, N), f32)
    entering = prog.array("entering_states", (b, nc, h, P, N), f32)
    # Parameters a configuration leaves out are bound to a buffer of the
    # right rank that the kernel never reads (the flag turns the read off).
    rows = (b * L, h * P)
    prog.launch(chunk_cumsum, (nc, h, b), dt.view(b * L, h), A, bias or A,
                dt_out.view(b * h * nc, Q), dA_cs.view(b * h * nc, Q), Q, cfg.dt_softplus,
                cfg.has_dt_bias, cfg.dt_limit)
    prog.launch(chunk_state, (nc, h, b), x.view(rows), B.view(b * L, g * N),
                dt_out.view(b * h * nc, Q), dA_cs.view(b * h * nc, Q),
                states.view(b * nc * h * P, N), Q, P, N, M, h // g)
    prog.launch(state_passing, (h, b), states.view(b * nc * h * P, N),
                dA_cs.view(b * h * nc, Q), (init or final).view(b * h * P, N),
                entering.view(b * nc * h * P, N), final.view(b * h * P, N), Q, P, N, nc,
                cfg.has_initial)
    d_view = {None: A, "per_head": D, "per_channel": D}[cfg.d_kind]
    prog.launch(chunk_scan, (nc * (Q // M), h, b), x.view(rows), (z or x).view(rows),
                B.view(b * L, g * N), C.view(b * L, g * N), d_view,
                dt_out.view(b * h * nc, Q), dA_cs.view(b * h * nc, Q),
                entering.view(b * nc * h * P, N), y.view(rows), Q, P, N, M, h // g,
                cfg.d_kind, cfg.has_z)
    return prog


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


def compiled_program(cfg):
    """(artifact directory, Program) of `cfg`, compiled once per
    configuration into $TILEOPT_CACHE_DIR/ssd (else the temporary
    directory's tileopt/ssd). The key is the program without its
    locations, so that a checkout elsewhere finds the same entry (a GPU
    machine without LLVM runs what was compiled here)."""
    program = ssd_program(cfg)
    root = Path(os.environ.get("TILEOPT_CACHE_DIR", Path(tempfile.gettempdir()) / "tileopt"))
    path = root / "ssd" / program.fingerprint()[:24]
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        program.compile(path, chip="sm_90")
    return path, program


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
    path, program = compiled_program(cfg)
    from ..runtime import Artifact  # needs the runtime library, not LLVM
    artifact = Artifact(path)
    f32 = {"dt": dt, "A": A, "D": D, "dt_bias": dt_bias, "initial_states": initial_states}
    same = {"x": x, "B": B, "C": C, "z": z}
    inputs = {n: t.to(torch.float32).contiguous() for n, t in f32.items() if t is not None}
    inputs.update({n: t.contiguous() for n, t in same.items() if t is not None})
    outputs = {o.name: artifact.empty(o.name) for o in program.outputs}
    artifact(**inputs, **outputs)
    y = outputs["y"]
    return (y, outputs["final_states"]) if return_final_states else y
