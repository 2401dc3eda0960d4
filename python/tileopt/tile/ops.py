"""The DSL's values and operations, each emitting tile-dialect ops.

`Tile` is an immutable tile (a `tensor<...>` of power-of-two dims),
`Index` an `index` scalar (block ids, tile indices, loop counters), `Array`
a kernel argument (a `!tile.view`). Python numbers and constexpr
parameters are folded at trace time. Every function maps onto ops the
tile dialect has (docs/ir/TileDialect.md) or onto `arith`/`math`/`scf`.
"""

import builtins
import math as _math
import struct

import numpy as np

from . import tracing
from .ir import DTYPES, INDEX, DType, ScalarType, TileType
from .tracing import TileError, Traced, current

__all__ = [
    "Tile", "Index", "Array", "float64", "float32", "float16", "bfloat16", "int64", "int32",
    "int16", "int8", "bool_", "as_dtype", "bid", "num_blocks", "num_tiles", "cdiv", "range",
    "load", "store", "mma", "matmul", "sum", "max", "min", "prod", "cumsum", "cumprod", "exp",
    "exp2", "log", "log2", "log1p", "expm1", "sqrt", "rsqrt", "tanh", "abs", "sin", "cos",
    "floor", "ceil", "erf", "maximum", "minimum", "where", "astype", "reshape", "permute",
    "transpose", "broadcast_to", "full", "zeros", "arange",
]

float64, float32, float16, bfloat16 = (DTYPES[n] for n in ("f64", "f32", "f16", "bf16"))
int64, int32, int16, int8, bool_ = (DTYPES[n] for n in ("i64", "i32", "i16", "i8", "i1"))

_DTYPE_ALIASES = {
    "float64": "f64", "double": "f64", "float32": "f32", "float": "f32", "float16": "f16",
    "half": "f16", "bfloat16": "bf16", "int64": "i64", "int32": "i32", "int16": "i16",
    "int8": "i8", "bool": "i1",
}


def as_dtype(dtype):
    """A DType from a DType, an MLIR or NumPy name ("bf16", "float32"), a
    NumPy dtype or a torch dtype (by its name); None if it has none."""
    if isinstance(dtype, DType):
        return dtype
    name = str(getattr(dtype, "name", dtype) if not isinstance(dtype, str) else dtype)
    name = name.removeprefix("torch.")
    name = _DTYPE_ALIASES.get(name, name)
    return DTYPES.get(name)


def _is_pow2(n):
    return isinstance(n, int) and n > 0 and n & (n - 1) == 0


def _tile_type(shape, dtype):
    shape = tuple(shape)
    if not shape or not all(_is_pow2(d) for d in shape):
        raise TileError(f"tile shape {shape} is not made of powers of two: tiles have static "
                        f"power-of-two dims (load a larger tile and let `padding` fill it)")
    return TileType(shape, dtype)


def _float_literal(value, dtype):
    """`value` as an MLIR literal of float type `dtype`: decimal when finite,
    the bit pattern otherwise (MLIR has no inf/nan literals)."""
    value = float(value)
    if _math.isfinite(value):
        text = repr(value)
        if "." not in text:  # MLIR float literals need a point: 1e-06 -> 1.0e-06
            text = text.replace("e", ".0e") if "e" in text else text + ".0"
        return text
    if dtype.mlir == "f64":
        return hex(struct.unpack("<Q", struct.pack("<d", value))[0])
    if dtype.mlir == "f16":
        return hex(struct.unpack("<H", struct.pack("<e", value))[0])
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return hex(bits >> 16 if dtype.mlir == "bf16" else bits)


def _literal(value, dtype):
    if dtype.is_float:
        return _float_literal(value, dtype)
    if dtype.mlir == "i1":
        return "true" if value else "false"
    if isinstance(value, float) and not value.is_integer():
        raise TileError(f"{value!r} is not an integer, for a {dtype!r} tile")
    return str(int(value))


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------


class Array:
    """A kernel's array argument: a row-major tensor in device memory of
    static `shape`, read and written a tile at a time (`load`, `store`)."""

    def __init__(self, value, name, position):
        self.value = value
        self.shape = value.type.shape
        self.dtype = value.type.dtype
        self.ndim = len(self.shape)
        self.name = name
        self.position = position

    def __repr__(self):
        return f"Array({self.name}: {self.value.type})"


class Index(Traced):
    """An `index` scalar: block coordinates, tile indices, loop counters.
    +, -, *, // (rounding toward zero) and % with ints or other Index."""

    def _arith(self, other, op, reverse=False):
        if not isinstance(other, (Index, int)) or isinstance(other, bool):
            return NotImplemented
        trace = current()
        a, b = self.value, trace.index(other)
        if reverse:
            a, b = b, a
        return Index(trace.emit(f"arith.{op} {{0}}, {{1}} : index", [a, b], [INDEX])[0])

    def __add__(self, o): return self._arith(o, "addi")
    def __radd__(self, o): return self._arith(o, "addi", True)
    def __sub__(self, o): return self._arith(o, "subi")
    def __rsub__(self, o): return self._arith(o, "subi", True)
    def __mul__(self, o): return self._arith(o, "muli")
    def __rmul__(self, o): return self._arith(o, "muli", True)
    def __floordiv__(self, o): return self._arith(o, "divsi")
    def __rfloordiv__(self, o): return self._arith(o, "divsi", True)
    def __mod__(self, o): return self._arith(o, "remsi")
    def __rmod__(self, o): return self._arith(o, "remsi", True)

    def __bool__(self):
        raise TileError("a traced index has no value at trace time, so it cannot steer Python "
                        "control flow (`if`, `while`, `and`); use tile.where on tiles")

    def __index__(self):
        raise TileError("a traced index cannot be used where Python needs an int (a shape, a "
                        "Python range); shapes must be Python ints or constexpr parameters")

    def __repr__(self):
        return "Index"


_FLOAT_OPS = {"+": "addf", "-": "subf", "*": "mulf", "/": "divf", "**": None}
_INT_OPS = {"+": "addi", "-": "subi", "*": "muli", "//": "divsi", "%": "remsi",
            "&": "andi", "|": "ori", "^": "xori"}
_FLOAT_COMPARE = {"<": "olt", "<=": "ole", ">": "ogt", ">=": "oge", "==": "oeq", "!=": "une"}
_INT_COMPARE = {"<": "slt", "<=": "sle", ">": "sgt", ">=": "sge", "==": "eq", "!=": "ne"}


class Tile(Traced):
    """An immutable tile. Arithmetic and comparisons broadcast as NumPy does
    (size-1 dims and missing leading dims); operands must share the element
    type (convert with `astype`); Python numbers take the tile's type."""

    __hash__ = Traced.__hash__

    @property
    def shape(self):
        return self.type.shape

    @property
    def dtype(self):
        return self.type.dtype

    @property
    def ndim(self):
        return len(self.type.shape)

    def _binary(self, other, symbol, reverse=False):
        a, b = _operands(self, other, symbol)
        if reverse:
            a, b = b, a
        dtype = a.dtype
        if symbol == "**":
            _need_float(dtype, "**")
            return _emit_tile("math.powf {0}, {1} : " + str(a.type), [a.value, b.value], a.type)
        op = (_FLOAT_OPS if dtype.is_float else _INT_OPS).get(symbol)
        if op is None:
            kind = "floating-point" if dtype.is_float else "integer"
            raise TileError(f"`{symbol}` is not defined on {kind} tiles ({dtype!r})"
                            + ("; convert with astype first" if symbol == "/" else ""))
        return _emit_tile(f"arith.{op} {{0}}, {{1}} : {a.type}", [a.value, b.value], a.type)

    def _compare(self, other, symbol):
        a, b = _operands(self, other, symbol)
        if a.dtype.is_float:
            text = f"arith.cmpf {_FLOAT_COMPARE[symbol]}, {{0}}, {{1}} : {a.type}"
        else:
            text = f"arith.cmpi {_INT_COMPARE[symbol]}, {{0}}, {{1}} : {a.type}"
        return _emit_tile(text, [a.value, b.value], TileType(a.shape, bool_))

    def __add__(self, o): return self._binary(o, "+")
    def __radd__(self, o): return self._binary(o, "+", True)
    def __sub__(self, o): return self._binary(o, "-")
    def __rsub__(self, o): return self._binary(o, "-", True)
    def __mul__(self, o): return self._binary(o, "*")
    def __rmul__(self, o): return self._binary(o, "*", True)
    def __truediv__(self, o): return self._binary(o, "/")
    def __rtruediv__(self, o): return self._binary(o, "/", True)
    def __floordiv__(self, o): return self._binary(o, "//")
    def __mod__(self, o): return self._binary(o, "%")
    def __pow__(self, o): return self._binary(o, "**")
    def __and__(self, o): return self._binary(o, "&")
    def __or__(self, o): return self._binary(o, "|")
    def __xor__(self, o): return self._binary(o, "^")
    def __lt__(self, o): return self._compare(o, "<")
    def __le__(self, o): return self._compare(o, "<=")
    def __gt__(self, o): return self._compare(o, ">")
    def __ge__(self, o): return self._compare(o, ">=")
    def __eq__(self, o): return self._compare(o, "==")
    def __ne__(self, o): return self._compare(o, "!=")

    def __neg__(self):
        if self.dtype.is_float:
            return _emit_tile(f"arith.negf {{0}} : {self.type}", [self.value], self.type)
        return 0 - self

    def __invert__(self):
        if self.dtype != bool_:
            raise TileError(f"`~` takes a bool tile (a comparison), not {self.dtype!r}")
        return self ^ True

    def __matmul__(self, other):
        return matmul(self, other)

    def __bool__(self):
        raise TileError("a tile has no truth value at trace time, so it cannot steer Python "
                        "control flow (`if`, `while`, `and`); use tile.where")

    def __iter__(self):
        raise TileError("a tile cannot be iterated over; index tiles are loaded with tile.load")

    def __getitem__(self, key):
        """`t[:, None]`, `t[None]`: adds unit dims (a reshape); only `:`
        and None are taken."""
        key = key if isinstance(key, tuple) else (key,)
        shape, dims = [], iter(self.shape)
        for k in key:
            if k is None:
                shape.append(1)
            elif k == slice(None):
                shape.append(next(dims, None))
            else:
                raise TileError(f"tiles are indexed only with `:` and None (to add unit dims), "
                                f"not {k!r}")
        if None in shape:
            raise TileError(f"{key} has more `:` than the tile {self.shape} has dims")
        return reshape(self, tuple(shape) + tuple(dims))

    def astype(self, dtype):
        return astype(self, dtype)

    def reshape(self, *shape):
        return reshape(self, shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape)

    def permute(self, *axes):
        return permute(self, axes[0] if len(axes) == 1 and isinstance(axes[0], tuple) else axes)

    @property
    def T(self):
        return transpose(self)

    def sum(self, axis, keepdims=False): return sum(self, axis, keepdims)
    def max(self, axis, keepdims=False): return max(self, axis, keepdims)
    def min(self, axis, keepdims=False): return min(self, axis, keepdims)

    def __repr__(self):
        return f"Tile({self.type})"


def _emit_tile(text, operands, type):
    return Tile(current().emit(text, operands, [type])[0])


def _need_float(dtype, what):
    if not dtype.is_float:
        raise TileError(f"{what} takes floating-point tiles, not {dtype!r} (astype first)")


def _need_tile(x, what):
    if not isinstance(x, Tile):
        raise TileError(f"{what} takes a tile, not {type(x).__name__}")
    return x


def _scalar_tile(value, dtype, shape):
    """A Python number or traced Index as a tile of `dtype` and `shape`."""
    trace = current()
    type = _tile_type(shape, dtype)
    if isinstance(value, Index):
        if dtype == bool_:
            raise TileError("an index cannot become a bool tile")
        integer = ScalarType("i64" if dtype.is_float else dtype.mlir)
        scalar = trace.emit(f"arith.index_cast {{0}} : index to {integer}", [value.value],
                            [integer])[0]
        if dtype.is_float:
            scalar = trace.emit(f"arith.sitofp {{0}} : i64 to {dtype.mlir}", [scalar],
                                [ScalarType(dtype.mlir)])[0]
        return _emit_tile(f"tile.splat {{0}} : {scalar.type} -> {type}", [scalar], type)
    if isinstance(value, (bool, int, float, np.number)):
        return Tile(trace.constant(f"dense<{_literal(value, dtype)}>", type))
    raise TileError(f"{value!r} ({type(value).__name__}) cannot be a {dtype!r} tile")


def _broadcast_shape(shapes, what):
    rank = builtins.max(len(s) for s in shapes)
    out = []
    for dims in zip(*[(1,) * (rank - len(s)) + tuple(s) for s in shapes]):
        sizes = {d for d in dims if d != 1}
        if len(sizes) > 1:
            raise TileError(f"{what}: shapes {' and '.join(map(str, shapes))} do not broadcast")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def _operands(a, b, symbol):
    """`a` and `b` as tiles of one type and shape (NumPy broadcasting)."""
    tiles = [x for x in (a, b) if isinstance(x, Tile)]
    dtypes = {t.dtype for t in tiles}
    if len(dtypes) > 1:
        raise TileError(f"`{symbol}` on {' and '.join(map(repr, (a.dtype, b.dtype)))} tiles: "
                        f"convert one with astype (no implicit promotion)")
    shape = _broadcast_shape([t.shape for t in tiles], f"`{symbol}`")
    dtype = tiles[0].dtype
    return [broadcast_to(x, shape) if isinstance(x, Tile) else _scalar_tile(x, dtype, shape)
            for x in (a, b)]


# ---------------------------------------------------------------------------
# Blocks, memory and loops
# ---------------------------------------------------------------------------

_AXES = "xyz"


def _grid_axis(axis):
    if axis not in (0, 1, 2):
        raise TileError(f"grid axis {axis!r} is not 0, 1 or 2 (x, y, z)")
    return _AXES[axis]


def bid(axis):
    """This block's coordinate along grid axis 0, 1 or 2 (`tile.block_id`)."""
    return Index(current().emit(f"tile.block_id {_grid_axis(axis)}", [], [INDEX])[0])


def num_blocks(axis):
    """The grid's extent along axis 0, 1 or 2 (`tile.num_blocks`)."""
    return Index(current().emit(f"tile.num_blocks {_grid_axis(axis)}", [], [INDEX])[0])


def cdiv(a, b):
    """ceil(a / b) of Python ints."""
    return -(-a // b)


def num_tiles(array, axis, shape):
    """How many tiles of `shape` cover `array` along `axis` (a Python int:
    array shapes are static)."""
    return cdiv(array.shape[axis], shape[axis])


def range(*bounds):
    """`for i in tile.range(stop)` / `(start, stop[, step])`: an `scf.for`.
    The body is traced once; variables it rebinds are carried from one
    iteration to the next. Bounds are Python ints or traced indices; the
    step must be positive."""
    trace = current()
    if not 1 <= len(bounds) <= 3:
        raise TileError(f"tile.range takes 1 to 3 bounds, got {len(bounds)}")
    if len(bounds) == 1:
        lower, upper, step = 0, bounds[0], 1
    elif len(bounds) == 2:
        lower, upper, step = bounds[0], bounds[1], 1
    else:
        lower, upper, step = bounds
    for b in (lower, upper, step):
        if not isinstance(b, (int, Index)) or isinstance(b, bool):
            raise TileError(f"tile.range bounds are ints or traced indices, not {b!r}")
    if isinstance(step, int) and step <= 0:
        raise TileError(f"tile.range needs a positive step, got {step}")
    return tracing.Loop(trace, trace.index(lower), trace.index(upper), trace.index(step), Index)


_PADDING = ("undetermined", "zero", "neg_zero", "nan", "pos_inf", "neg_inf")


def _access(array, index, shape, what):
    if not isinstance(array, Array):
        raise TileError(f"{what} takes a kernel array argument first, not {type(array).__name__}")
    index = index if isinstance(index, tuple) else (index,)
    if len(index) != array.ndim or len(shape) != array.ndim:
        raise TileError(f"{what} of the rank-{array.ndim} array `{array.name}` needs "
                        f"{array.ndim} indices and a rank-{array.ndim} shape, got index "
                        f"{index} and shape {tuple(shape)}")
    for i in index:
        if not isinstance(i, (int, Index)) or isinstance(i, bool):
            raise TileError(f"tile indices are ints or traced indices, not {i!r}")
    trace = current()
    return trace, [trace.index(i) for i in index]


def _hints(latency, allow_tma):
    text = ""
    if latency is not None:
        if not isinstance(latency, int) or not 1 <= latency <= 10:
            raise TileError(f"latency is an int in 1-10, got {latency!r}")
        text += f" latency {latency}"
    if allow_tma:
        text += " allow_tma"
    return text


def load(array, index, shape, latency=None, allow_tma=False, padding=None):
    """The tile of `shape` at `index` in tile space (tile (i, j) starts at
    element (i * shape[0], j * shape[1])). Elements outside the array read
    as `padding`: "zero", "neg_zero", "nan", "pos_inf", "neg_inf", or None
    (unspecified; the interpreter and the code generator give 0).
    `latency` (1-10) is the prefetch depth in a loop; `allow_tma` allows
    Hopper's tensor memory accelerator."""
    trace, indices = _access(array, index, shape, "tile.load")
    type = _tile_type(shape, array.dtype)
    text = "tile.load {0}[" + ", ".join(f"{{{i + 1}}}" for i in builtins.range(len(indices))) + "]"
    text += _hints(latency, allow_tma)
    if padding is not None:
        if padding not in _PADDING:
            raise TileError(f"padding {padding!r} is not one of {', '.join(_PADDING)}")
        if padding not in ("undetermined", "zero") and not array.dtype.is_float:
            raise TileError(f"padding {padding!r} needs a floating-point array, "
                            f"`{array.name}` holds {array.dtype!r}")
        text += f" padding {padding}"
    text += f" : {array.value.type} -> {type}"
    trace.reads.add(array.position)
    return _emit_tile(text, [array.value, *indices], type)


def store(array, index, tile, latency=None, allow_tma=False):
    """Writes `tile` at `index` in tile space; elements outside the array are
    not written. The tile's element type must be the array's."""
    tile = _need_tile(tile, "tile.store")
    trace, indices = _access(array, index, tile.shape, "tile.store")
    if tile.dtype != array.dtype:
        raise TileError(f"storing a {tile.dtype!r} tile into `{array.name}` of {array.dtype!r}: "
                        f"convert it with astype first")
    text = ("tile.store {0}, {1}[" + ", ".join(f"{{{i + 2}}}" for i in builtins.range(len(indices)))
            + "]" + _hints(latency, allow_tma) + f" : {tile.type}, {array.value.type}")
    trace.writes.add(array.position)
    trace.emit(text, [tile.value, array.value, *indices], [])


# ---------------------------------------------------------------------------
# Tensor cores
# ---------------------------------------------------------------------------

# Multiplicand type -> accumulator types tensor cores offer (tile.mma).
_MMA_ACCUMULATORS = {"f16": ("f32", "f16"), "bf16": ("f32",), "f32": ("f32",),
                     "i8": ("i32",)}


def mma(a, b, acc):
    """acc + a @ b on tensor cores (`tile.mma`): [M, K] @ [K, N] into
    [M, N], optionally with a leading batch dim. bf16 -> f32, f16 ->
    f16/f32, i8 -> i32; f32 -> f32 runs on the CUDA cores (fp32 FMA)."""
    a, b, acc = (_need_tile(t, "tile.mma") for t in (a, b, acc))
    if not 2 <= a.ndim <= 3 or a.ndim != b.ndim or a.ndim != acc.ndim:
        raise TileError(f"tile.mma takes rank-2 tiles (or rank 3 with a batch dim), got "
                        f"{a.shape}, {b.shape}, {acc.shape}")
    batch, (m, k), (k2, n) = a.shape[:-2], a.shape[-2:], b.shape[-2:]
    if k != k2 or acc.shape != batch + (m, n) or b.shape[:-2] != batch:
        raise TileError(f"tile.mma shapes do not match: {a.shape} @ {b.shape} into {acc.shape}")
    if a.dtype != b.dtype or acc.dtype.mlir not in _MMA_ACCUMULATORS.get(a.dtype.mlir, ()):
        raise TileError(f"tensor cores do not multiply {a.dtype!r} by {b.dtype!r} into "
                        f"{acc.dtype!r}; they take bf16 -> f32, f16 -> f16/f32, f32 -> f32, "
                        f"i8 -> i32")
    return _emit_tile(f"tile.mma {{0}}, {{1}}, {{2}} : {a.type}, {b.type}, {acc.type}",
                      [a.value, b.value, acc.value], acc.type)


def matmul(a, b):
    """a @ b into a fresh f32 accumulator (i32 for i8)."""
    a, b = _need_tile(a, "matmul"), _need_tile(b, "matmul")
    acc = _MMA_ACCUMULATORS.get(a.dtype.mlir, ("f32",))[0]
    shape = a.shape[:-1] + b.shape[-1:]
    return mma(a, b, zeros(shape, DTYPES[acc]))


# ---------------------------------------------------------------------------
# Reductions and scans
# ---------------------------------------------------------------------------


def _axis(t, axis, what):
    if not isinstance(axis, int) or not -t.ndim <= axis < t.ndim:
        raise TileError(f"{what}: axis {axis!r} is not a dim of a rank-{t.ndim} tile")
    return axis % t.ndim


def _reduce(kind, t, axis, keepdims):
    t = _need_tile(t, f"tile.{kind}")
    axis = _axis(t, axis, f"tile.{kind}")
    if t.ndim == 1 and not keepdims:
        raise TileError(f"tile.{kind} of a 1-D tile would be a rank-0 tile; pass keepdims=True "
                        f"(a tile of shape (1,))")
    shape = t.shape[:axis] + t.shape[axis + 1:]
    type = TileType(shape, t.dtype)
    r = _emit_tile(f"tile.reduce {kind} {{0}} dim {axis} : {t.type} -> {type}", [t.value], type)
    return reshape(r, t.shape[:axis] + (1,) + t.shape[axis + 1:]) if keepdims else r


def sum(t, axis, keepdims=False):
    """The sum along `axis` (`tile.reduce sum`), which is dropped unless
    `keepdims`."""
    return _reduce("sum", t, axis, keepdims)


def max(t, axis, keepdims=False):
    """The maximum along `axis` (NaN-propagating)."""
    return _reduce("max", t, axis, keepdims)


def min(t, axis, keepdims=False):
    """The minimum along `axis` (NaN-propagating)."""
    return _reduce("min", t, axis, keepdims)


def prod(t, axis, keepdims=False):
    """The product along `axis`."""
    return _reduce("prod", t, axis, keepdims)


def _scan(kind, t, axis, reverse):
    t = _need_tile(t, f"tile.cum{kind}")
    axis = _axis(t, axis, f"tile.cum{kind}")
    rev = " reverse" if reverse else ""
    return _emit_tile(f"tile.scan {kind} {{0}} dim {axis}{rev} : {t.type}", [t.value], t.type)


def cumsum(t, axis, reverse=False):
    """Inclusive prefix sums along `axis` (`tile.scan sum`); `reverse` sums
    from the last element."""
    return _scan("sum", t, axis, reverse)


def cumprod(t, axis, reverse=False):
    """Inclusive prefix products along `axis` (`tile.scan prod`)."""
    return _scan("prod", t, axis, reverse)


# ---------------------------------------------------------------------------
# Elementwise math
# ---------------------------------------------------------------------------


def _unary_math(op, t):
    t = _need_tile(t, f"tile.{op}")
    _need_float(t.dtype, f"tile.{op}")
    return _emit_tile(f"math.{op} {{0}} : {t.type}", [t.value], t.type)


def exp(t): return _unary_math("exp", t)
def exp2(t): return _unary_math("exp2", t)
def log(t): return _unary_math("log", t)
def log2(t): return _unary_math("log2", t)
def log1p(t): return _unary_math("log1p", t)
def expm1(t): return _unary_math("expm1", t)
def sqrt(t): return _unary_math("sqrt", t)
def rsqrt(t): return _unary_math("rsqrt", t)
def tanh(t): return _unary_math("tanh", t)
def sin(t): return _unary_math("sin", t)
def cos(t): return _unary_math("cos", t)
def floor(t): return _unary_math("floor", t)
def ceil(t): return _unary_math("ceil", t)
def erf(t): return _unary_math("erf", t)


def abs(t):
    t = _need_tile(t, "tile.abs")
    op = "math.absf" if t.dtype.is_float else "math.absi"
    return _emit_tile(f"{op} {{0}} : {t.type}", [t.value], t.type)


def _pairwise(float_op, int_op, a, b, what):
    if isinstance(a, Index) and isinstance(b, (Index, int)) or isinstance(b, Index) and isinstance(a, int):
        trace = current()
        return Index(trace.emit(f"arith.{int_op} {{0}}, {{1}} : index",
                                [trace.index(a), trace.index(b)], [INDEX])[0])
    if not isinstance(a, Tile) and not isinstance(b, Tile):
        raise TileError(f"{what} takes tiles or traced indices")
    a, b = _operands(a, b, what)
    op = float_op if a.dtype.is_float else int_op
    return _emit_tile(f"arith.{op} {{0}}, {{1}} : {a.type}", [a.value, b.value], a.type)


def maximum(a, b):
    """The elementwise maximum (NaN-propagating), broadcasting; also of two
    indices."""
    return _pairwise("maximumf", "maxsi", a, b, "tile.maximum")


def minimum(a, b):
    """The elementwise minimum (NaN-propagating), broadcasting; also of two
    indices."""
    return _pairwise("minimumf", "minsi", a, b, "tile.minimum")


def where(cond, x, y):
    """`x` where `cond` (a bool tile) holds, else `y`; broadcasting
    (`arith.select` on tiles)."""
    cond = _need_tile(cond, "tile.where")
    if cond.dtype != bool_:
        raise TileError(f"tile.where takes a bool tile (a comparison) first, not {cond.dtype!r}")
    values = [v for v in (x, y) if isinstance(v, Tile)]
    if not values:
        raise TileError("tile.where needs a tile among its two values, to give the result's type")
    dtype = values[0].dtype
    if builtins.any(v.dtype != dtype for v in values):
        raise TileError(f"tile.where on {x.dtype!r} and {y.dtype!r}: convert one with astype")
    shape = _broadcast_shape([cond.shape] + [v.shape for v in values], "tile.where")
    cond = broadcast_to(cond, shape)
    x, y = (broadcast_to(v, shape) if isinstance(v, Tile) else _scalar_tile(v, dtype, shape)
            for v in (x, y))
    return _emit_tile(f"arith.select {{0}}, {{1}}, {{2}} : {cond.type}, {x.type}",
                      [cond.value, x.value, y.value], x.type)


def astype(t, dtype):
    """`t` converted to `dtype`: floats extended or rounded, integers to
    floats (signed; bools as 0/1), floats to integers (toward zero)."""
    t = _need_tile(t, "astype")
    to = as_dtype(dtype)
    if to is None:
        raise TileError(f"{dtype!r} is not an element type")
    src = t.dtype
    if to == src:
        return t
    if src.is_float and to.is_float:
        op = "extf" if to.bits > src.bits else "truncf"
        if to.bits == src.bits:  # f16 <-> bf16: through f32
            return astype(astype(t, float32), to)
    elif to.is_float:
        op = "uitofp" if src == bool_ else "sitofp"
    elif src.is_float:
        op = "fptosi"
    else:
        op = "extui" if src == bool_ else ("extsi" if to.bits > src.bits else "trunci")
    type = TileType(t.shape, to)
    return _emit_tile(f"arith.{op} {{0}} : {t.type} to {type}", [t.value], type)


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------


def reshape(t, shape):
    """The same elements, read row-major, in another shape (`tile.reshape`)."""
    t = _need_tile(t, "tile.reshape")
    shape = tuple(shape)
    if np.prod(shape) != np.prod(t.shape):
        raise TileError(f"cannot reshape a {t.shape} tile ({np.prod(t.shape)} elements) "
                        f"into {shape}")
    if shape == t.shape:
        return t
    type = _tile_type(shape, t.dtype)
    return _emit_tile(f"tile.reshape {{0}} : {t.type} -> {type}", [t.value], type)


def permute(t, axes):
    """Result dim i is input dim axes[i] (`tile.permute`)."""
    t = _need_tile(t, "tile.permute")
    axes = tuple(axes)
    if sorted(axes) != list(builtins.range(t.ndim)):
        raise TileError(f"{axes} is not a permutation of the {t.ndim} dims of {t.shape}")
    if axes == tuple(builtins.range(t.ndim)):
        return t
    type = TileType(tuple(t.shape[a] for a in axes), t.dtype)
    text = f"tile.permute {{0}} [{', '.join(map(str, axes))}] : {t.type} -> {type}"
    return _emit_tile(text, [t.value], type)


def transpose(t):
    """The last two dims swapped."""
    t = _need_tile(t, "tile.transpose")
    if t.ndim < 2:
        raise TileError(f"tile.transpose needs 2 dims or more, got {t.shape}")
    axes = list(builtins.range(t.ndim))
    axes[-2:] = axes[-1], axes[-2]
    return permute(t, axes)


def broadcast_to(t, shape):
    """`t` repeated along its size-1 (and missing leading) dims to `shape`
    (`tile.reshape` to the rank, then `tile.broadcast`)."""
    t = _need_tile(t, "tile.broadcast_to")
    shape = tuple(shape)
    if len(shape) < t.ndim or _broadcast_shape([t.shape, shape], "broadcast_to") != shape:
        raise TileError(f"a {t.shape} tile does not broadcast to {shape}")
    t = reshape(t, (1,) * (len(shape) - t.ndim) + t.shape)
    if t.shape == shape:
        return t
    type = _tile_type(shape, t.dtype)
    return _emit_tile(f"tile.broadcast {{0}} : {t.type} -> {type}", [t.value], type)


def full(shape, value, dtype):
    """A tile of `shape` with every element `value` (a Python number: a
    constant; a traced index: `tile.splat`)."""
    to = as_dtype(dtype)
    if to is None:
        raise TileError(f"{dtype!r} is not an element type")
    return _scalar_tile(value, to, tuple(shape))


def zeros(shape, dtype):
    return full(shape, 0, dtype)


def arange(n, dtype=int32):
    """The 1-D tile 0, 1, ..., n - 1 (`tile.iota`, then a conversion for
    other than int32)."""
    if not _is_pow2(n):
        raise TileError(f"tile.arange({n!r}): tiles have power-of-two sizes")
    iota = _emit_tile(f"tile.iota : {TileType((n,), int32)}", [], TileType((n,), int32))
    return astype(iota, dtype)
