"""PyTorch programs as kernel graphs, through torch.export::

    import tileopt
    mlp = tileopt.compile(lambda x, w1, w2: F.silu(x @ w1) * (x @ w2),
                          [x, w1, w2], time_budget=30)
    y = mlp(x, w1, w2)                 # CUDA tensors in, a tensor out

torch.export captures the function (or nn.Module) on the example inputs as
ATen ops; each op maps onto the graph builder's (ATEN_OPS lists them), its
result checked against the shape and dtype torch recorded. The module's
parameters and buffers become graph inputs that the callable passes from
the module at each call. An op with no mapping is a GraphError that names
it and the line of the program it came from; the ops carry those lines
into the MLIR, so the compiler's diagnostics name them too.
"""

import contextlib
import os
import re
import warnings
from dataclasses import dataclass

from .graph import DTYPES, GraphError, KernelGraph

__all__ = ["CompiledFunction", "CapturedGraph", "capture", "compile_function", "map_node",
           "require_torch", "ATEN_OPS", "TORCH_VERSIONS"]

# The torch releases tileopt.compile and the torch.compile backend are
# tested with: the oldest, which they need (the GPU machine's), and the
# newest. Both lean on torch.export's graph signatures and AOTAutograd's
# compiler hooks, which change between releases.
TORCH_VERSIONS = ((2, 11), (2, 15))
_warned_newer_torch = False


def require_torch(what):
    """torch, for `what` ("tileopt.compile", ...): an ImportError without
    it, a RuntimeError naming the supported range for a release older than
    TORCH_VERSIONS[0], and a RuntimeWarning, once, for one newer than the
    newest tested."""
    global _warned_newer_torch
    try:
        import torch
    except ImportError:
        raise ImportError(f"{what} needs PyTorch {_version_range()}, which is not "
                          "installed (pip install 'tileopt[torch]')") from None
    version = _release(torch.__version__)
    oldest, newest = TORCH_VERSIONS
    if version < oldest:
        raise RuntimeError(f"{what} needs PyTorch {_version_range()}; this is "
                           f"torch {torch.__version__}")
    if version > newest and not _warned_newer_torch:
        _warned_newer_torch = True
        warnings.warn(f"{what}: torch {torch.__version__} is newer than the releases "
                      f"tileopt was tested with ({_version_range()})", RuntimeWarning)
    return torch


def _release(version):
    """(major, minor) of a torch version string: "2.11.0+cu130" -> (2, 11)."""
    match = re.match(r"(\d+)\.(\d+)", version)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def _version_range():
    (a, b), (c, d) = TORCH_VERSIONS
    return f"{a}.{b} to {c}.{d}"


@dataclass(frozen=True)
class _Broadcast:
    """The result of aten.expand: `tensor` read as `dims`. tk has no
    broadcast op; elementwise ops and matmul broadcast their operands
    themselves, so they read `tensor`."""
    tensor: object
    dims: tuple


def _dtype(torch_dtype, what):
    for d in DTYPES:
        if str(torch_dtype) == f"torch.{d.name}":
            return d
    raise GraphError(f"{what} has dtype {torch_dtype}; kernel graphs compute on "
                     f"{', '.join('torch.' + d.name for d in DTYPES)}")


def _plain(value, op):
    """The tensor an op reads: a broadcast is only for the ops that take one."""
    if isinstance(value, _Broadcast):
        raise GraphError(f"{op} reads the result of aten.expand, a broadcast; tk "
                         "broadcasts only as an operand of elementwise ops and matmul")
    return value


def _operand(value):
    """The tensor an elementwise op or matmul reads: a broadcast's source."""
    return value.tensor if isinstance(value, _Broadcast) else value


def _dims(value, x):
    """A list of dims of torch's (possibly negative) normalised to x's rank."""
    dims = [value] if isinstance(value, int) else list(value)
    return sorted({d % x.num_dims for d in dims})


def _reduction(kind):
    def reduce(g, x, dims=None, keepdim=False, *, dtype=None):
        x = _plain(x, f"aten.{kind}")
        if dtype is not None:
            x = g.cast(x, _dtype(dtype, f"the dtype of aten.{kind}"))
        # Reducing every dim: torch's None or [].
        every = range(x.num_dims) if not dims else _dims(dims, x)
        for d in sorted(every, reverse=True):  # so that dropped dims keep the others' indices
            x = getattr(g, kind)(x, d, keepdim=keepdim)
        return x
    return reduce


def _scalar_or_operand(value):
    return value if isinstance(value, (int, float)) else _operand(value)


def _elementwise(method):
    def apply(g, a, b):
        return getattr(g, method)(_scalar_or_operand(a), _scalar_or_operand(b))
    return apply


def _add(method):
    def apply(g, a, b, *, alpha=1):
        if alpha != 1:
            b = b * alpha if isinstance(b, (int, float)) else g.mul(_operand(b), alpha)
        return getattr(g, method)(_scalar_or_operand(a), _scalar_or_operand(b))
    return apply


def _unary(method):
    return lambda g, x: getattr(g, method)(_plain(x, f"aten.{method}"))


def _gelu(g, x, *, approximate="none"):
    if approximate != "none":
        raise GraphError(f"gelu(approximate={approximate!r}) has no tk operator "
                         "(tk's gelu is the exact, erf form)")
    return g.gelu(_plain(x, "aten.gelu"))


def _softmax(g, x, dim, dtype_or_half_to_float=None):
    x = _plain(x, "aten.softmax")
    # softmax.int's third argument is a dtype; _softmax's a bool that keeps
    # the type when False.
    if dtype_or_half_to_float not in (None, False):
        if dtype_or_half_to_float is True:
            raise GraphError("_softmax(half_to_float=True) is not supported")
        x = g.cast(x, _dtype(dtype_or_half_to_float, "the dtype of aten.softmax"))
    return g.softmax(x, dim)


def _normalized_dim(op, x, normalized_shape):
    if list(normalized_shape) != [x.dims[-1]]:
        raise GraphError(f"{op}: only the last dim can be normalized: normalized_shape "
                         f"{list(normalized_shape)} of dims {list(x.dims)}")


def _rms_norm(g, x, normalized_shape, weight=None, eps=None):
    x = _plain(x, "aten.rms_norm")
    _normalized_dim("rms_norm", x, normalized_shape)
    if eps is None:
        import torch
        eps = torch.finfo(getattr(torch, x.dtype.name)).eps  # torch's default
    return g.rms_norm(x, weight, eps)


def _layer_norm(g, x, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    x = _plain(x, "aten.layer_norm")
    _normalized_dim("layer_norm", x, normalized_shape)
    return g.layer_norm(x, weight, bias, eps)


def _matmul(g, a, b):
    return g.matmul(_operand(a), _operand(b))


def _linear(g, x, w, bias=None):
    y = g.matmul(_plain(x, "aten.linear"), g.transpose(w, 0, 1))
    return y if bias is None else g.add(y, _operand(bias))


def _addmm(g, bias, a, b, *, beta=1, alpha=1):
    if beta != 1 or alpha != 1:
        raise GraphError(f"addmm with beta={beta}, alpha={alpha}: only 1 and 1 are mapped")
    return g.add(g.matmul(a, b), _operand(bias))


def _reshape(g, x, dims):
    return g.reshape(_plain(x, "aten.view/reshape"), dims)


def _unsqueeze(g, x, dim):
    x = _plain(x, "aten.unsqueeze")
    d = dim % (x.num_dims + 1)
    return g.reshape(x, x.dims[:d] + (1,) + x.dims[d:])


def _squeeze(g, x, dims=None):
    x = _plain(x, "aten.squeeze")
    drop = range(x.num_dims) if dims is None else _dims(dims, x)
    kept = tuple(n for d, n in enumerate(x.dims) if not (d in drop and n == 1))
    return g.reshape(x, kept or (1,))


def _expand(g, x, sizes):
    x = _operand(x)
    rank = len(sizes)
    source = (1,) * (rank - x.num_dims) + x.dims
    dims = tuple(n if s == -1 else s for n, s in zip(source, sizes))
    return x if dims == x.dims else _Broadcast(x, dims)


def _cast(g, x, dtype=None, *args, **kwargs):
    """aten.to.dtype (x, dtype, ...) and aten._to_copy (x, dtype=...)."""
    x = _plain(x, "aten.to")
    dtype = kwargs.get("dtype", dtype)
    return x if dtype is None else g.cast(x, _dtype(dtype, "the dtype of aten.to"))


def _identity(g, x, *args, **kwargs):
    return x


def _dropout(g, x, p, train):
    if train and p:
        raise GraphError("dropout in training mode is random: export the model in eval()")
    return x


def _sdpa(g, q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None,
          enable_gqa=False):
    if attn_mask is not None or is_causal or dropout_p or enable_gqa:
        raise GraphError("scaled_dot_product_attention: masks, causal attention, "
                         "dropout and enable_gqa are not mapped")
    q = _plain(q, "scaled_dot_product_attention")
    scale = q.dims[-1] ** -0.5 if scale is None else scale
    scores = g.mul(g.matmul(q, g.transpose(_plain(k, "scaled_dot_product_attention"))), scale)
    return g.matmul(g.softmax(scores), _plain(v, "scaled_dot_product_attention"))


# aten overload (as str(OpOverload) spells it) -> fn(graph, *args, **kwargs),
# the args as torch.export recorded them with tensors replaced by DTensors.
ATEN_OPS = {
    "aten.mm.default": _matmul,
    "aten.bmm.default": _matmul,
    "aten.matmul.default": _matmul,
    "aten.linear.default": _linear,
    "aten.addmm.default": _addmm,
    "aten.t.default": lambda g, x: g.transpose(x, 0, 1),
    "aten.add.Tensor": _add("add"),
    "aten.add.Scalar": _add("add"),
    "aten.sub.Tensor": _add("sub"),
    "aten.sub.Scalar": _add("sub"),
    "aten.rsub.Scalar": lambda g, a, b, *, alpha=1: _add("sub")(g, b, a, alpha=alpha),
    "aten.mul.Tensor": _elementwise("mul"),
    "aten.mul.Scalar": _elementwise("mul"),
    "aten.div.Tensor": _elementwise("div"),
    "aten.div.Scalar": _elementwise("div"),
    "aten.pow.Tensor_Scalar": lambda g, x, e: g.pow(_plain(x, "aten.pow"), e),
    "aten.pow.Tensor_Tensor": _elementwise("pow"),
    "aten.exp.default": _unary("exp"),
    "aten.silu.default": _unary("silu"),
    "aten.gelu.default": _gelu,
    "aten.relu.default": _unary("relu"),
    "aten.sigmoid.default": _unary("sigmoid"),
    "aten.sqrt.default": _unary("sqrt"),
    "aten.rsqrt.default": _unary("rsqrt"),
    "aten.square.default": _unary("square"),
    "aten.neg.default": _unary("neg"),
    "aten.mean.dim": _reduction("mean"),
    "aten.sum.dim_IntList": _reduction("sum"),
    "aten.amax.default": _reduction("max"),
    "aten.softmax.int": _softmax,
    "aten._softmax.default": _softmax,
    "aten._safe_softmax.default": _softmax,
    "aten.rms_norm.default": _rms_norm,
    "aten.layer_norm.default": _layer_norm,
    "aten.scaled_dot_product_attention.default": _sdpa,
    "aten.view.default": _reshape,
    "aten.reshape.default": _reshape,
    "aten._unsafe_view.default": _reshape,
    "aten.transpose.int": lambda g, x, d0, d1: g.transpose(_plain(x, "aten.transpose"), d0, d1),
    "aten.permute.default": lambda g, x, dims: g.permute(_plain(x, "aten.permute"), dims),
    "aten.unsqueeze.default": _unsqueeze,
    "aten.squeeze.default": _squeeze,
    "aten.squeeze.dim": _squeeze,
    "aten.squeeze.dims": _squeeze,
    "aten.expand.default": _expand,
    "aten.to.dtype": _cast,
    "aten._to_copy.default": _cast,
    "aten.clone.default": _identity,
    "aten.contiguous.default": _identity,
    "aten.detach.default": _identity,
    "aten.alias.default": _identity,
    "aten.dropout.default": _dropout,
}

# Ops that only assert what export already knows; they compute nothing.
_IGNORED = {"aten._assert_tensor_metadata.default", "aten._assert_scalar.default",
            "aten.sym_constrain_range_for_size.default"}


def _user_frame(node):
    """(file, line, source text) of the last frame of the node's stack trace
    outside torch and tileopt, or None."""
    import torch
    libraries = tuple(os.path.dirname(os.path.abspath(f)) + os.sep
                      for f in (torch.__file__, __file__))
    trace = node.meta.get("stack_trace") or ""
    frames = re.findall(r'File "([^"]+)", line (\d+), in [^\n]*\n([^\n]*)', trace)
    user = [f for f in frames if not os.path.abspath(f[0]).startswith(libraries)]
    if not user:
        return None
    filename, line, text = user[-1]
    return filename, int(line), text.strip()


def _where(node):
    frame = _user_frame(node)
    if frame is None:
        return f" (FX node {node.name}; torch recorded no source line)"
    return f" (FX node {node.name}, {frame[0]}, line {frame[1]}: {frame[2]})"


@dataclass
class CapturedGraph:
    """A torch program as a kernel graph, before compiling."""
    graph: KernelGraph
    # One per graph input, in order: ("user", i) for the i-th flattened
    # argument, ("state", name) for a parameter or buffer of the module,
    # ("constant", tensor) for a tensor constant export lifted.
    input_sources: list
    out_spec: object  # the pytree spec of the program's result
    module: object


def _graph_name(fn):
    name = getattr(fn, "__name__", None) or type(fn).__name__
    name = re.sub(r"\W", "_", name)
    return name if re.match(r"[A-Za-z_]", name) else f"graph_{name}"


def capture(fn_or_module, example_inputs):
    """Exports `fn_or_module` on `example_inputs` and maps it onto a kernel
    graph; returns a CapturedGraph."""
    torch = require_torch("tileopt.compile")
    argument_names = []
    if isinstance(fn_or_module, torch.nn.Module):
        module = fn_or_module
    elif callable(fn_or_module):
        module = _function_module(fn_or_module)
        argument_names = _argument_names(fn_or_module)
        # torch.export records the stack frames of `forward` methods only, and
        # of the functions registered as anchors: register `fn`, so that its
        # nodes have its source lines. (A private hook; without it the lines
        # are missing, nothing else.)
        getattr(torch.fx.proxy, "_register_stack_trace_anchor", lambda fn: None)(fn_or_module)
    else:
        raise TypeError(f"tileopt.compile takes a function or an nn.Module, got "
                        f"{type(fn_or_module).__name__}")
    example_inputs = tuple(example_inputs)
    for i, x in enumerate(torch.utils._pytree.tree_leaves(example_inputs)):
        if not isinstance(x, torch.Tensor):
            raise GraphError(f"tileopt.compile: example input {i} is a "
                             f"{type(x).__name__}; only tensors are graph inputs")
    exported = torch.export.export(module, example_inputs)
    signature = exported.graph_signature
    graph = KernelGraph(_graph_name(fn_or_module))
    kinds = torch.export.graph_signature.InputKind
    values, sources, user_index = {}, [], 0
    placeholders = [n for n in exported.graph.nodes if n.op == "placeholder"]
    for node, spec in zip(placeholders, signature.input_specs):
        name = node.name
        if spec.kind == kinds.USER_INPUT:
            if user_index < len(argument_names):
                name = argument_names[user_index]
            sources.append(("user", user_index))
            user_index += 1
        elif spec.kind in (kinds.PARAMETER, kinds.BUFFER):
            sources.append(("state", spec.target))
        elif spec.kind == kinds.CONSTANT_TENSOR:
            sources.append(("constant", exported.constants[spec.target]))
        else:
            raise GraphError(f"tileopt.compile: input {name} is a {spec.kind.name}, "
                             "not mapped")
        val = node.meta["val"]
        if re.fullmatch(r"(out|tmp)[0-9]+", name):  # the artifact's names of results
            name = f"arg_{name}"
        values[node.name] = graph.new_input(tuple(val.shape),
                                            _dtype(val.dtype, f"input {name}"), name=name)
    for node in exported.graph.nodes:
        if node.op != "call_function" or str(node.target) in _IGNORED:
            continue
        try:
            values[node.name] = map_node(graph, node, values)
        except GraphError as e:
            raise GraphError(f"tileopt.compile: {e}") from None
    outputs = [n for n in exported.graph.nodes if n.op == "output"][0].args[0]
    for spec, node in zip(signature.output_specs, outputs):
        if spec.kind != torch.export.graph_signature.OutputKind.USER_OUTPUT:
            raise GraphError(f"tileopt.compile: the program writes {spec.target} "
                             f"({spec.kind.name}); only functional programs are mapped")
        if not isinstance(node, torch.fx.Node):
            raise GraphError(f"tileopt.compile: an output is {node!r}, not a tensor")
        value = values[node.name]
        if isinstance(value, _Broadcast):
            raise GraphError("tileopt.compile: an output is the result of aten.expand, "
                             f"a broadcast; tk has no broadcast op{_where(node)}")
        graph.mark_output(value)
    return CapturedGraph(graph, sources, exported.call_spec.out_spec, module)


def map_node(graph, node, values):
    """Maps `node`, an FX call_function node of an ATen op, onto `graph`;
    its arguments that are nodes are read from `values` (node name -> what
    the node was mapped to). Returns what the node computes, checked
    against the shape and dtype torch recorded; a GraphError names the op
    and the user's line that called it."""
    import torch
    target = str(node.target)
    if target not in ATEN_OPS:
        raise GraphError(f"{target} has no mapping onto a kernel graph{_where(node)}")
    args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), lambda n: values[n.name])
    frame = _user_frame(node)
    try:
        with graph.source_line(*frame[:2]) if frame else contextlib.nullcontext():
            result = ATEN_OPS[target](graph, *args, **kwargs)
    except GraphError as e:
        raise GraphError(f"{target}: {e}{_where(node)}") from None
    _check_result(target, node, result)
    return result


def _check_result(target, node, result):
    """The mapped op computes what torch recorded: same dims and dtype."""
    val = node.meta.get("val")
    dims = result.dims
    dtype = result.dtype if not isinstance(result, _Broadcast) else result.tensor.dtype
    if tuple(val.shape) != dims or str(val.dtype) != f"torch.{dtype.name}":
        raise GraphError(f"{target} was mapped to a tensor of dims "
                         f"{list(dims)} and {dtype!r}, torch computes {list(val.shape)} "
                         f"and {val.dtype}{_where(node)}")


def _argument_names(fn):
    """The names of a plain function's positional parameters, which name
    the graph's inputs (an nn.Module's forward names them in the export)."""
    import inspect
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in parameters if p.kind in positional]


def _function_module(fn):
    """An nn.Module whose forward is `fn`: torch.export takes modules."""
    import torch

    class FunctionModule(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fn = fn

        def forward(self, *args):
            return self.fn(*args)
    return FunctionModule()


class CompiledFunction:
    """A torch program superoptimized: call it as the program was called."""

    def __init__(self, captured, compiled):
        self.captured = captured
        self.graph = captured.graph
        self.compiled = compiled

    def _graph_inputs(self, args):
        import torch
        flat = torch.utils._pytree.tree_leaves(args)
        users = sum(kind == "user" for kind, _ in self.captured.input_sources)
        if len(flat) != users:
            raise ValueError(f"expected {users} tensor arguments, got {len(flat)}")
        state = {**dict(self.captured.module.named_parameters()),
                 **dict(self.captured.module.named_buffers())}
        return [flat[source] if kind == "user"
                else state[source].detach() if kind == "state" else source
                for kind, source in self.captured.input_sources]

    def _structured(self, outputs):
        import torch
        return torch.utils._pytree.tree_unflatten(outputs, self.captured.out_spec)

    def __call__(self, *args):
        """Runs the artifact on CUDA tensors (the module's parameters must be
        on the same device); returns what the program returns."""
        return self._structured(self.compiled(inputs=self._graph_inputs(args)))

    def run_on_cpu(self, *args):
        """The same through the tile interpreter on the CPU (small shapes)."""
        return self._structured(self.compiled.run_on_cpu(inputs=self._graph_inputs(args)))


def compile_function(fn_or_module, example_inputs, **superoptimize_options):
    """tileopt.compile: capture, superoptimize, and wrap as a callable."""
    captured = capture(fn_or_module, example_inputs)
    return CompiledFunction(captured, captured.graph.superoptimize(**superoptimize_options))
