"""Kernel graphs built from Python, Mirage style::

    import tileopt as mi
    graph = mi.new_kernel_graph()
    Q = graph.new_input(dims=(64, 1, 128), dtype=mi.float16)
    K = graph.new_input(dims=(64, 128, 4096), dtype=mi.float16)
    V = graph.new_input(dims=(64, 4096, 128), dtype=mi.float16)
    O = graph.matmul(graph.softmax(graph.matmul(Q, K)), V)
    graph.mark_output(O)
    optimized = graph.superoptimize()      # a CompiledGraph

Every op checks its operands' shapes and dtypes when it is called and
raises GraphError naming the op. `to_mlir()` writes the graph as a `tk`
kernel graph (docs/ir/TKDialect.md), the stage `tileopt-compile`
superoptimizes; each op carries the location of the Python line that built
it, so the compiler's diagnostics point at the user's source. Composite ops
(softmax, layer_norm, rms_norm with a weight) are written as the tk ops
they are made of, as the linalg importer would write them.
"""

import contextlib
import inspect
import math
import os
import re
import struct
from dataclasses import dataclass

__all__ = ["DType", "DTensor", "KernelGraph", "GraphError", "new_kernel_graph",
           "float16", "bfloat16", "float32"]


class GraphError(ValueError):
    """An op was given operands it cannot take; the message names the op."""


@dataclass(frozen=True)
class DType:
    """An element type of kernel graphs: tk computes on floats."""
    name: str  # as torch spells it: "float16"
    mlir: str  # as MLIR and the artifact's manifest spell it: "f16"

    def __repr__(self):
        return f"tileopt.{self.name}"


float16 = DType("float16", "f16")
bfloat16 = DType("bfloat16", "bf16")
float32 = DType("float32", "f32")
DTYPES = (float16, bfloat16, float32)


class DTensor:
    """A tensor of a kernel graph: an input or the result of an op."""

    def __init__(self, graph, dims, dtype, ssa):
        self.graph = graph
        self.dims = tuple(dims)
        self.dtype = dtype
        self._ssa = ssa  # the MLIR value name, "%x" or "%t3"

    @property
    def num_dims(self):
        return len(self.dims)

    @property
    def mlir_type(self):
        return _type(self.dims, self.dtype)

    def __repr__(self):
        return f"DTensor({self._ssa}, dims={self.dims}, dtype={self.dtype!r})"


@dataclass
class _Op:
    result: DTensor
    operands: tuple  # DTensors
    text: str        # the op's MLIR, without its location


def _f32(value, op, what="scalar"):
    """The decimal spelling of `value` rounded to f32, which MLIR parses
    back to the same f32 (tk's scalars and epsilons are f32 attributes)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise GraphError(f"{op}: the {what} must be a Python number, got {value!r}")
    try:
        rounded = struct.unpack("<f", struct.pack("<f", float(value)))[0]
    except OverflowError:  # beyond f32's range
        rounded = float("inf")
    if rounded != rounded or rounded in (float("inf"), float("-inf")):
        raise GraphError(f"{op}: the {what} {value!r} is not a finite f32")
    return repr(rounded)


def user_frame():
    """The innermost Python frame outside this package: the user's line
    that called it, or None."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame = inspect.currentframe()
    while frame and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == package:
        frame = frame.f_back
    return frame


def _caller_location():
    """loc("file":line:0) of the user's line that built the op, where the
    compiler's diagnostics will point."""
    frame = user_frame()
    if frame is None:
        return "loc(unknown)"
    return _location(frame.f_code.co_filename, frame.f_lineno)


def _location(filename, line):
    escaped = filename.replace("\\", "\\\\").replace('"', '\\"')
    return f'loc("{escaped}":{line}:0)'


def _broadcast(op, a, b):
    """numpy's broadcast of two shapes, or a GraphError that says where."""
    rank = max(len(a), len(b))
    a1, b1 = (1,) * (rank - len(a)) + a, (1,) * (rank - len(b)) + b
    dims = []
    for d, (x, y) in enumerate(zip(a1, b1)):
        if x != y and 1 not in (x, y):
            raise GraphError(f"{op}: shapes {list(a)} and {list(b)} do not broadcast "
                             f"(dim {d - rank}: {x} vs {y})")
        dims.append(max(x, y))
    return tuple(dims)


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Names tileopt-compile gives the artifact's results and intermediates.
_RESERVED_NAME = re.compile(r"(out|tmp)[0-9]+\Z")

_UNARY = ("exp", "silu", "gelu", "relu", "sigmoid", "sqrt", "rsqrt", "square", "neg")


class KernelGraph:
    """A tk kernel graph under construction. Ops are methods; each returns
    the DTensor it computes."""

    def __init__(self, name="graph"):
        if not _NAME.match(name):
            raise GraphError(f"new_kernel_graph: {name!r} is not a valid function name "
                             "(letters, digits and _, not starting with a digit)")
        self.name = name
        self.inputs = []
        self.outputs = []
        self._ops = []
        self._locations = {}  # ssa -> location of its input or op
        self._source_line = None  # (file, line) that builds the next ops, if set

    # -- inputs and outputs --------------------------------------------------

    def new_input(self, dims, dtype=float16, name=None):
        """A graph input of shape `dims` (positive ints) and `dtype`; `name`
        is its buffer's name in the artifact (default: in0, in1, ...)."""
        dims = tuple(dims) if isinstance(dims, (tuple, list)) else dims
        if (not isinstance(dims, tuple) or not dims
                or any(isinstance(d, bool) or not isinstance(d, int) or d < 1 for d in dims)):
            raise GraphError(f"new_input: dims must be a non-empty tuple of positive "
                             f"ints, got {dims!r}")
        if dtype not in DTYPES:
            raise GraphError(f"new_input: dtype must be one of "
                             f"{', '.join(map(repr, DTYPES))}, got {dtype!r}")
        name = f"in{len(self.inputs)}" if name is None else name
        if not isinstance(name, str) or not _NAME.match(name) or _RESERVED_NAME.match(name):
            raise GraphError(f"new_input: {name!r} cannot name an input: use letters, "
                             "digits and _, not starting with a digit, and not out<N> "
                             "or tmp<N> (the artifact's names of results and intermediates)")
        if any(t._ssa == f"%{name}" for t in self.inputs):
            raise GraphError(f"new_input: an input is already named {name!r}")
        tensor = DTensor(self, dims, dtype, f"%{name}")
        self.inputs.append(tensor)
        self._locations[tensor._ssa] = self._location()
        return tensor

    def mark_output(self, tensor):
        """Makes `tensor` the graph's next output (the artifact's out0, ...).
        A graph with no marked output returns the op results no op reads."""
        self._check_tensor("mark_output", tensor)
        if tensor in self.inputs:
            raise GraphError("mark_output: an input cannot be an output "
                             "(a kernel graph computes its outputs)")
        if tensor in self.outputs:
            raise GraphError(f"mark_output: {tensor} is already an output")
        self.outputs.append(tensor)

    def returned(self):
        """The graph's outputs: those marked, else every op result no op
        reads, in the order they were built."""
        if self.outputs:
            return list(self.outputs)
        read = {id(t) for op in self._ops for t in op.operands}
        sinks = [op.result for op in self._ops if id(op.result) not in read]
        if not sinks:
            raise GraphError("the graph computes nothing: it has no ops")
        return sinks

    # -- elementwise ---------------------------------------------------------

    def _unary(self, kind, x, scalar=None):
        self._check_tensor(kind, x)
        attr = "" if scalar is None else f"({scalar})"
        return self._add_op(x.dims, x.dtype, (x,), lambda r, a:
                            f"{r} = tk.unary {kind}{attr} {a} : {x.mlir_type}")

    def exp(self, x): return self._unary("exp", x)
    def silu(self, x): return self._unary("silu", x)
    def gelu(self, x): return self._unary("gelu", x)  # the exact (erf) form
    def relu(self, x): return self._unary("relu", x)
    def sigmoid(self, x): return self._unary("sigmoid", x)
    def sqrt(self, x): return self._unary("sqrt", x)
    def rsqrt(self, x): return self._unary("rsqrt", x)
    def square(self, x): return self._unary("square", x)
    def neg(self, x): return self._unary("neg", x)

    def mul_scalar(self, x, c):
        return self._unary("mul_scalar", x, _f32(c, "mul_scalar"))

    def add_scalar(self, x, c):
        return self._unary("add_scalar", x, _f32(c, "add_scalar"))

    def add(self, a, b):
        """a + b; either may be a Python number."""
        if _is_number(b):
            return self.add_scalar(a, b)
        if _is_number(a):
            return self.add_scalar(b, a)
        return self._binary("add", a, b)

    def sub(self, a, b):
        """a - b; either may be a Python number."""
        if _is_number(b):
            return self.add_scalar(a, -b)
        if _is_number(a):
            return self.add_scalar(self.neg(b), a)
        return self._binary("sub", a, b)

    def mul(self, a, b):
        """a * b; either may be a Python number."""
        if _is_number(b):
            return self.mul_scalar(a, b)
        if _is_number(a):
            return self.mul_scalar(b, a)
        return self._binary("mul", a, b)

    def div(self, a, b):
        """a / b; either may be a Python number."""
        if _is_number(b):
            if b == 0:
                raise GraphError("div: division by the constant 0")
            return self.mul_scalar(a, 1.0 / b)
        if _is_number(a):
            # tk has no reciprocal operator: c / x is scalar code.
            self._check_tensor("div", b)
            return self._map("div", [b], b.dtype, lambda v, c: [
                f"{c}k = arith.constant {_f32(a, 'div', 'dividend')} : {b.dtype.mlir}",
                f"{c}r = arith.divf {c}k, {v[0]} : {b.dtype.mlir}"], "{c}r")
        return self._binary("div", a, b)

    def pow(self, x, exponent):
        """x ** exponent: a tensor exponent is tk's pow; the numbers 2, 0.5
        and -0.5 are square, sqrt and rsqrt; another number is scalar code
        (math.powf), which the verifier's finite-field domain cannot model:
        the compiler then keeps the graph as it is, one kernel per op, and
        says so."""
        if not _is_number(exponent):
            return self._binary("pow", x, exponent)
        self._check_tensor("pow", x)
        e = exponent
        special = {2: self.square, 0.5: self.sqrt, -0.5: self.rsqrt}
        if e in special:
            return special[e](x)
        if e == 1:
            return x
        return self._map("pow", [x], x.dtype, lambda v, c: [
            f"{c}e = arith.constant {_f32(e, 'pow', 'exponent')} : {x.dtype.mlir}",
            f"{c}r = math.powf {v[0]}, {c}e : {x.dtype.mlir}"], "{c}r")

    def cast(self, x, dtype):
        """x converted to `dtype` (rounded to nearest even). tk ops compute
        in one type, so a cast is scalar code (a tk.map), which gives the
        graph two element types: the superoptimizer, which needs one, then
        keeps the graph as it is, one kernel per op, and says so."""
        self._check_tensor("cast", x)
        if dtype not in DTYPES:
            raise GraphError(f"cast: dtype must be one of {', '.join(map(repr, DTYPES))}, "
                             f"got {dtype!r}")
        if dtype == x.dtype:
            return x
        width = {"f16": 16, "bf16": 16, "f32": 32}
        src, dst = x.dtype.mlir, dtype.mlir

        def body(v, c):
            if width[src] < width[dst]:
                return [f"{c}r = arith.extf {v[0]} : {src} to {dst}"]
            if width[src] > width[dst]:
                return [f"{c}r = arith.truncf {v[0]} : {src} to {dst}"]
            return [f"{c}w = arith.extf {v[0]} : {src} to f32",
                    f"{c}r = arith.truncf {c}w : f32 to {dst}"]
        return self._map("cast", [x], dtype, body, "{c}r")

    def _binary(self, kind, a, b):
        self._check_tensor(kind, a)
        self._check_tensor(kind, b)
        self._check_same_dtype(kind, a, b)
        dims = _broadcast(kind, a.dims, b.dims)
        return self._add_op(dims, a.dtype, (a, b), lambda r, x, y:
                            f"{r} = tk.binary {kind} {x}, {y} : {a.mlir_type}, "
                            f"{b.mlir_type} -> {_type(dims, a.dtype)}")

    def _map(self, op, operands, dtype, body, result):
        """A tk.map of scalar code: body(arguments, prefix) gives its lines,
        `result` (formatted with the prefix) the value it yields."""
        dims = operands[0].dims
        for x in operands[1:]:
            dims = _broadcast(op, dims, x.dims)

        def text(r, *values):
            args = [f"{r}a{i}" for i in range(len(values))]
            bindings = ", ".join(f"{a} = {v} : {x.mlir_type}"
                                 for a, v, x in zip(args, values, operands))
            lines = [f"{r} = tk.map ({bindings}) -> {_type(dims, dtype)} {{"]
            lines += ["  " + line for line in body(args, r)]
            lines.append(f"  tk.yield {result.format(c=r)} : {dtype.mlir}")
            return "\n".join(lines) + "\n}"
        return self._add_op(dims, dtype, tuple(operands), text)

    # -- products and reductions ---------------------------------------------

    def matmul(self, a, b):
        """a @ b over the last two dims, batch dims broadcast as numpy.matmul.
        [batch..., M, K] @ [K, N] is computed as one [batch*M, K] @ [K, N]."""
        self._check_tensor("matmul", a)
        self._check_tensor("matmul", b)
        self._check_same_dtype("matmul", a, b)
        for side, t in (("lhs", a), ("rhs", b)):
            if t.num_dims < 2:
                raise GraphError(f"matmul: the {side} has dims {list(t.dims)}; "
                                 "both operands need at least 2 dims")
        if a.dims[-1] != b.dims[-2]:
            raise GraphError(f"matmul: the inner dims differ: lhs {list(a.dims)} has "
                             f"K = {a.dims[-1]}, rhs {list(b.dims)} has K = {b.dims[-2]}")
        batch = _broadcast("matmul", a.dims[:-2], b.dims[:-2])
        if a.num_dims > 2 and b.num_dims == 2:
            # One product of all the rows: the kernels of tk.matmul take
            # equal batch dims only, and the reshapes are free views.
            rows = self.reshape(a, (math.prod(a.dims[:-1]), a.dims[-1]))
            return self.reshape(self.matmul(rows, b), a.dims[:-1] + b.dims[-1:])
        dims = batch + (a.dims[-2], b.dims[-1])
        return self._add_op(dims, a.dtype, (a, b), lambda r, x, y:
                            f"{r} = tk.matmul {x}, {y} : {a.mlir_type}, {b.mlir_type} "
                            f"-> {_type(dims, a.dtype)}")

    def _reduce(self, kind, x, dim, keepdim):
        self._check_tensor(kind, x)
        d = self._dim(kind, x, dim)
        dims = x.dims[:d] + (1,) + x.dims[d + 1:]
        reduced = self._add_op(dims, x.dtype, (x,), lambda r, a:
                               f"{r} = tk.reduce {kind} {a} dim {d} : {x.mlir_type} "
                               f"-> {_type(dims, x.dtype)}")
        if keepdim or x.num_dims == 1:
            return reduced
        return self.reshape(reduced, x.dims[:d] + x.dims[d + 1:])

    def sum(self, x, dim, keepdim=True):
        """The sum over `dim`; keepdim=False drops it (not for a 1-D x, which
        keeps one element of shape [1])."""
        return self._reduce("sum", x, dim, keepdim)

    def max(self, x, dim, keepdim=True):
        """The maximum over `dim` (keepdim as for sum)."""
        return self._reduce("max", x, dim, keepdim)

    def mean(self, x, dim, keepdim=True):
        """The mean over `dim` (keepdim as for sum)."""
        return self._reduce("mean", x, dim, keepdim)

    def softmax(self, x, dim=-1):
        """exp(x - max) / sum(exp(x - max)) over `dim`."""
        self._check_tensor("softmax", x)
        d = self._dim("softmax", x, dim)
        e = self.exp(self.sub(x, self.max(x, d)))
        return self.div(e, self.sum(e, d))

    def rms_norm(self, x, weight=None, eps=1e-6):
        """x / sqrt(mean(x^2) + eps) over the last dim, times `weight` (a
        tensor of the last dim's size) if given."""
        self._check_tensor("rms_norm", x)
        epsilon = _f32(eps, "rms_norm", "eps")
        self._check_weight("rms_norm", x, weight, "weight")
        normed = self._add_op(x.dims, x.dtype, (x,), lambda r, a:
                              f"{r} = tk.rms_norm {a} {{epsilon = {epsilon} : f32}} "
                              f": {x.mlir_type}")
        return normed if weight is None else self.mul(normed, weight)

    def layer_norm(self, x, weight=None, bias=None, eps=1e-5):
        """(x - mean) / sqrt(var + eps) over the last dim (the biased
        variance, as torch), times `weight`, plus `bias`, where given."""
        self._check_tensor("layer_norm", x)
        _f32(eps, "layer_norm", "eps")
        self._check_weight("layer_norm", x, weight, "weight")
        self._check_weight("layer_norm", x, bias, "bias")
        centered = self.sub(x, self.mean(x, -1))
        variance = self.mean(self.square(centered), -1)
        y = self.mul(centered, self.rsqrt(self.add_scalar(variance, eps)))
        if weight is not None:
            y = self.mul(y, weight)
        return y if bias is None else self.add(y, bias)

    # -- layout --------------------------------------------------------------

    def reshape(self, x, dims):
        """The row-major elements of x with shape `dims` (one dim may be -1)."""
        self._check_tensor("reshape", x)
        dims = tuple(dims)
        if any(isinstance(d, bool) or not isinstance(d, int) or (d < 1 and d != -1)
               for d in dims) or list(dims).count(-1) > 1 or not dims:
            raise GraphError(f"reshape: dims must be positive ints, at most one -1, "
                             f"got {list(dims)}")
        total = math.prod(x.dims)
        if -1 in dims:
            known = math.prod(d for d in dims if d != -1)
            if total % known:
                raise GraphError(f"reshape: {list(x.dims)} ({total} elements) cannot "
                                 f"take the shape {list(dims)}")
            dims = tuple(total // known if d == -1 else d for d in dims)
        if math.prod(dims) != total:
            raise GraphError(f"reshape: {list(x.dims)} has {total} elements, "
                             f"{list(dims)} has {math.prod(dims)}")
        if dims == x.dims:
            return x
        return self._add_op(dims, x.dtype, (x,), lambda r, a:
                            f"{r} = tk.reshape {a} : {x.mlir_type} -> {_type(dims, x.dtype)}")

    def permute(self, x, dims):
        """Result dim i is x's dim dims[i]."""
        self._check_tensor("permute", x)
        perm = tuple(self._dim("permute", x, d) for d in dims)
        if sorted(perm) != list(range(x.num_dims)):
            raise GraphError(f"permute: {list(dims)} is not a permutation of "
                             f"{x.num_dims} dims")
        if perm == tuple(range(x.num_dims)):
            return x
        out = tuple(x.dims[p] for p in perm)
        return self._add_op(out, x.dtype, (x,), lambda r, a:
                            f"{r} = tk.transpose {a} [{', '.join(map(str, perm))}] "
                            f": {x.mlir_type} -> {_type(out, x.dtype)}")

    def transpose(self, x, dim0=-2, dim1=-1):
        """x with dims dim0 and dim1 swapped."""
        self._check_tensor("transpose", x)
        perm = list(range(x.num_dims))
        a, b = self._dim("transpose", x, dim0), self._dim("transpose", x, dim1)
        perm[a], perm[b] = perm[b], perm[a]
        return self.permute(x, perm)

    # -- emission ------------------------------------------------------------

    def to_mlir(self):
        """The graph as a tk kernel graph: a func.func of tk ops, the input
        of `tileopt-compile` (stage tk). Ops no output depends on are left
        out."""
        outputs = self.returned()
        needed = {id(t) for t in outputs}
        live = []
        for op in reversed(self._ops):
            if id(op.result) in needed:
                live.append(op)
                needed.update(id(t) for t in op.operands)
        args = ", ".join(f"{t._ssa}: {t.mlir_type} {self._locations[t._ssa]}"
                         for t in self.inputs)
        results = ", ".join(t.mlir_type for t in outputs)
        lines = [f"func.func @{self.name}({args}) -> ({results}) {{"]
        for op in reversed(live):
            text = f"{op.text} {self._locations[op.result._ssa]}"
            lines += ["  " + line for line in text.split("\n")]
        lines.append(f"  return {', '.join(t._ssa for t in outputs)} : {results}")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def superoptimize(self, **options):
        """Searches for the fastest µGraph computing this graph and compiles
        it (tileopt.compiler.superoptimize has the options); returns a
        CompiledGraph."""
        from .compiler import superoptimize
        return superoptimize(self, **options)

    # -- helpers -------------------------------------------------------------

    def _add_op(self, dims, dtype, operands, text):
        result = DTensor(self, dims, dtype, f"%t{len(self._ops)}")
        self._ops.append(_Op(result, operands,
                             text(result._ssa, *(t._ssa for t in operands))))
        self._locations[result._ssa] = self._location()
        return result

    @contextlib.contextmanager
    def source_line(self, filename, line):
        """Ops built inside `with graph.source_line(file, line):` carry that
        location instead of the calling Python line (front ends set it to
        the line of the program they translate)."""
        saved, self._source_line = self._source_line, (filename, line)
        try:
            yield
        finally:
            self._source_line = saved

    def _location(self):
        if self._source_line is None:
            return _caller_location()
        return _location(*self._source_line)

    def _check_tensor(self, op, t):
        if not isinstance(t, DTensor):
            raise GraphError(f"{op}: expected a DTensor of this graph, got {t!r}")
        if t.graph is not self:
            raise GraphError(f"{op}: {t} belongs to another graph")

    def _check_same_dtype(self, op, a, b):
        if a.dtype != b.dtype:
            raise GraphError(f"{op}: the operands have dtypes {a.dtype!r} and "
                             f"{b.dtype!r}; tk ops compute in one dtype "
                             "(convert one with cast)")

    def _check_weight(self, op, x, w, what):
        if w is None:
            return
        self._check_tensor(op, w)
        self._check_same_dtype(op, x, w)
        if w.dims != x.dims[-1:]:
            raise GraphError(f"{op}: the {what} must have dims [{x.dims[-1]}] (the "
                             f"normalized dim of {list(x.dims)}), got {list(w.dims)}")

    def _dim(self, op, x, dim):
        if isinstance(dim, bool) or not isinstance(dim, int) or not -x.num_dims <= dim < x.num_dims:
            raise GraphError(f"{op}: dim {dim!r} is out of range for dims {list(x.dims)}")
        return dim % x.num_dims


def _type(dims, dtype):
    return f"tensor<{'x'.join(map(str, dims))}x{dtype.mlir}>"


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def new_kernel_graph(name="graph"):
    """An empty kernel graph; `name` names its function in the MLIR."""
    return KernelGraph(name)
