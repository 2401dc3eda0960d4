"""`torch.compile(model, backend="tileopt")`: TileOpt's kernels for the parts
of a model it can take, the default backend for the rest::

    import tileopt
    fast = torch.compile(model, backend="tileopt", options={"time_budget": 30})
    # or, to see what was taken:
    backend = tileopt.backend(time_budget=30)
    fast = torch.compile(model, backend=backend)
    fast(x)
    print(backend.partitions)

Dynamo hands the backend each graph it captures; AOTAutograd turns it into
functional ATen ops, with no decompositions beyond torch's own
(CompositeImplicitAutograd), so silu, softmax or gelu keep their names.
The partitioner (torch.fx's CapabilityBasedPartitioner) groups maximal sets
of ops that tileopt.torch_export maps onto the graph builder, sets that do
not form a cycle through the rest of the graph. Each set that holds a
matrix product becomes a kernel graph, superoptimized into a
CompiledGraph, and is replaced by one call of the custom op
`tileopt::call`. The graph around those calls goes to the fallback backend:
inductor (the default; its own decompositions then apply to what is left)
or eager. An op the mapping cannot take stays in the fallback's part; a
partition the compiler refuses, or tools that are not installed, leave that
partition to the fallback with a RuntimeWarning. A model never fails for
either.

Left out of partitions, and why:
- casts, which give the graph two element types, and `pow` by other
  numbers than 2 and +-0.5 (math.powf, which the verifier cannot model):
  either would keep the search off the partition's whole graph (other
  scalar code, `c / x`, is searched with the rest);
- partitions without a matrix product: the fallback fuses elementwise ops
  and reductions with their neighbours itself; TileOpt's search pays where
  it fuses around products;
- tensors of dynamic shape (the search works at fixed shapes) or of other
  dtypes than float16, bfloat16 and float32.

TileOpt's kernels run on CUDA devices. A graph on the CPU goes to the
fallback whole, with a warning, unless on_cpu="interpreter": then the
partitions run on the tile interpreter (float64; slow, for testing small
models). Only forward and inference graphs are partitioned; a backward
graph goes to the fallback.

A call of tileopt::call costs the host a few microseconds (the
dispatcher, the output allocation, one C call that launches the
partition's kernels: the artifact is loaded and the arguments' packing
prepared by the partition's first call). For small batches, where the
host sets the pace, cuda_graphs=True (or torch.compile's
mode="reduce-overhead") replays each inference graph, TileOpt's kernels
and the fallback's together, as one CUDA graph (tileopt.cuda_graph).
"""

import importlib.abc
import importlib.util
import itertools
import operator
import sys
import warnings
from dataclasses import dataclass

from .compiler import CompileError
from .cuda_graph import CudaGraphed
from .graph import DTYPES, GraphError, KernelGraph
from .torch_export import ATEN_OPS, _Broadcast, _dtype, map_node, require_torch

__all__ = ["TileOptBackend", "Partition", "tileopt_backend", "register_backend",
           "fold_upcast_rms_norms"]

# Ops with a matrix product, the ones worth a partition.
_PRODUCTS = {"aten.mm.default", "aten.bmm.default", "aten.matmul.default",
             "aten.linear.default", "aten.addmm.default",
             "aten.scaled_dot_product_attention.default"}
_FALLBACKS = ("inductor", "eager")
_ON_CPU = ("fallback", "interpreter")
_MODES = (None, "default", "reduce-overhead")


@dataclass
class Partition:
    """A set of ATen ops the backend handed to TileOpt."""
    ops: list            # the FX nodes' names, in graph order
    targets: list        # their ATen overloads, "aten.mm.default", ...
    graph: KernelGraph = None  # what they were mapped to
    compiled: object = None    # its CompiledGraph; None when left to the fallback
    reason: str = None         # why it was left to the fallback


# What the builder writes for a cast (two element types in one graph) and
# for x ** c (no model in the verifier's finite field): a graph holding
# either is compiled as it is, unsearched.
_UNSEARCHED_SCALAR_CODE = ("arith.extf", "arith.truncf", "math.powf")


class _Runner:
    """What `tileopt::call` runs for one partition: on a CUDA device, the
    compiled graph's launcher, with no checks per call, since the FX graph
    fixes the tensors' shapes, dtypes and device; on the CPU, the tile
    interpreter. The launcher is made (the artifact loaded) by the first
    call: the backend compiles under torch's fake tensors, which have no
    memory to bind, and a CUDA graph is captured on a later call."""

    def __init__(self, compiled, interpret):
        self.compiled = compiled
        self.interpret = interpret
        self.launch = None

    def run(self, inputs):
        # The fallback may hand over strided views; artifacts read row-major.
        inputs = [x.contiguous() for x in inputs]
        if self.interpret:
            return self.compiled.run_on_cpu(inputs=inputs)
        if self.launch is None:
            self.launch = self.compiled.launcher(inputs[0].device)
        return self.launch(inputs)

    def fake(self, inputs):
        import torch
        from .compiled import _torch_dtype
        return [torch.empty(s.dims, dtype=_torch_dtype(s.dtype), device=inputs[0].device)
                for s in self.compiled.outputs]


_runners = {}  # the key tileopt::call is given -> its _Runner
_keys = itertools.count()
_library = None


def _call_op():
    """tileopt::call(str key, Tensor[] inputs) -> Tensor[]: runs the
    partition `key` names. AOTAutograd and inductor see an opaque op (an
    extern kernel), whose fake implementation gives the outputs' shapes."""
    global _library
    import torch
    if _library is None:
        library = torch.library.Library("tileopt", "DEF")
        library.define("call(str key, Tensor[] inputs) -> Tensor[]")
        library.impl("call", lambda key, inputs: _runners[key].run(inputs),
                     "CompositeExplicitAutograd")
        torch.library.register_fake("tileopt::call",
                                    lambda key, inputs: _runners[key].fake(inputs),
                                    lib=library)
        _library = library
    return torch.ops.tileopt.call.default


class TileOptBackend:
    """A torch.compile backend. `fallback` ("inductor" or "eager") compiles
    what TileOpt does not take; `on_cpu` ("fallback" or "interpreter") says
    what happens to a graph on the CPU; `cuda_graphs` replays each
    inference graph on a CUDA device as one CUDA graph (CudaGraphed); the
    other options are superoptimize's (time_budget, search_threads,
    cache_dir, ...), for each partition. `partitions` lists the partitions
    of every graph compiled."""

    def __init__(self, fallback="inductor", on_cpu="fallback", cuda_graphs=False,
                 fold_rms_norms=True, **superoptimize_options):
        require_torch("the tileopt backend")
        if fallback not in _FALLBACKS:
            raise ValueError(f"tileopt backend: fallback must be one of {_FALLBACKS}, "
                             f"got {fallback!r}")
        if on_cpu not in _ON_CPU:
            raise ValueError(f"tileopt backend: on_cpu must be one of {_ON_CPU}, "
                             f"got {on_cpu!r}")
        self.fallback = fallback
        self.on_cpu = on_cpu
        self.cuda_graphs = cuda_graphs
        self.fold_rms_norms = fold_rms_norms
        self.superoptimize_options = superoptimize_options
        self.partitions = []
        self.cuda_graphed = []  # the CudaGraphed of each graph, with cuda_graphs

    def __call__(self, gm, example_inputs):
        from torch._dynamo.backends.common import aot_autograd
        return aot_autograd(fw_compiler=self._compile_forward,
                            bw_compiler=self._compile_fallback,
                            inference_compiler=self._compile_inference)(gm, example_inputs)

    def _compile_forward(self, gm, example_inputs):
        self.take_partitions(gm)
        return self._compile_fallback(gm, example_inputs)

    def _compile_inference(self, gm, example_inputs):
        """A graph that needs no backward: the forward's, replayed as a CUDA
        graph with cuda_graphs=True. (A training forward is not: the
        tensors it saves for the backward would be the graph's, which the
        next replay overwrites.)"""
        import torch
        compiled = self._compile_forward(gm, example_inputs)
        if not self.cuda_graphs:
            return compiled
        devices = {x.device if isinstance(x, torch.Tensor) else None for x in example_inputs}
        if len(devices) != 1 or None in devices or next(iter(devices)).type != "cuda":
            warnings.warn("tileopt backend: cuda_graphs is on but the graph's inputs are not "
                          "all tensors on one CUDA device "
                          f"({', '.join(sorted(map(str, devices)))}), so it runs without one",
                          RuntimeWarning)
            return compiled
        graphed = CudaGraphed(compiled, next(iter(devices)))
        self.cuda_graphed.append(graphed)
        return graphed

    def _compile_fallback(self, gm, example_inputs):
        from torch._functorch.aot_autograd import make_boxed_func
        if self.fallback == "eager":
            return make_boxed_func(gm.forward)
        from torch._inductor.compile_fx import compile_fx
        return make_boxed_func(compile_fx(gm, example_inputs))

    def take_partitions(self, gm):
        """Replaces the partitions of `gm` (an FX graph of ATen ops whose
        nodes carry torch's fake values) that TileOpt compiles by calls of
        their CompiledGraphs; returns the Partitions it tried."""
        from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
        from torch.fx.passes.tools_common import legalize_graph
        devices = {v.device.type for v in _tensor_values(gm)}
        if devices <= {"cpu"} and self.on_cpu == "fallback":
            warnings.warn("tileopt backend: the graph's tensors are on the CPU and "
                          "TileOpt's kernels run on CUDA devices, so "
                          f"{self.fallback} runs all of it (on_cpu='interpreter' runs "
                          "TileOpt's parts on the tile interpreter)", RuntimeWarning)
            return []
        device = "cpu" if devices <= {"cpu"} else "cuda"
        if self.fold_rms_norms:
            fold_upcast_rms_norms(gm)
        support = _MappableOps(device)
        proposed = CapabilityBasedPartitioner(gm, support, allows_single_node_partition=True
                                              ).propose_partitions()
        order = {node: i for i, node in enumerate(gm.graph.nodes)}
        tried = []
        for proposal in sorted(proposed, key=lambda p: min(map(order.get, p.nodes))):
            nodes = sorted(proposal.nodes, key=order.get)
            if not any(str(n.target) in _PRODUCTS for n in nodes):
                continue
            partition = Partition([n.name for n in nodes], [str(n.target) for n in nodes])
            tried.append(partition)
            try:
                self._replace(gm, nodes, partition, f"partition{len(tried) - 1}")
            except (GraphError, CompileError) as e:
                partition.reason = str(e)
                warnings.warn(f"tileopt backend: {len(nodes)} ops ({_summary(nodes)}) "
                              f"are left to {self.fallback}: {e}", RuntimeWarning)
        self.partitions += tried
        if any(p.compiled for p in tried):
            legalize_graph(gm)
            gm.graph.lint()
            gm.recompile()
        return tried

    def _replace(self, gm, nodes, partition, name):
        """Maps `nodes` onto a kernel graph, superoptimizes it and puts one
        tileopt::call in their place."""
        import torch
        members = set(nodes)
        inputs = []  # the nodes outside the partition it reads, in order of use
        for node in nodes:
            inputs += [a for a in node.all_input_nodes if a not in members and a not in inputs]
        outputs = [n for n in nodes if any(user not in members for user in n.users)]
        key = str(next(_keys))
        # Named by its place in this FX graph, not by `key`, which counts
        # the partitions of the process: the same model compiled again, here
        # or in another process, finds its graphs in the cache (whose key
        # holds the name).
        graph = KernelGraph(name)
        values = {}
        for a in inputs:
            val = a.meta["val"]
            values[a.name] = graph.new_input(tuple(val.shape), _dtype(val.dtype, a.name))
        for node in nodes:
            values[node.name] = map_node(graph, node, values)
        # Each output is a result of the kernel graph or one of its inputs
        # (clone and its kin map to their operand), possibly read as a
        # broadcast (aten.expand): the FX graph takes the result, or clones
        # the input, and expands it.
        results, recipes = [], []
        for node in outputs:
            value, dims = values[node.name], None
            if isinstance(value, _Broadcast):
                value, dims = value.tensor, value.dims
            if value in graph.inputs:
                recipes.append((None, inputs[graph.inputs.index(value)], dims))
                continue
            if value not in results:
                results.append(value)
                graph.mark_output(value)
            recipes.append((results.index(value), None, dims))
        if not results:
            raise GraphError("the partition computes nothing: its outputs are its inputs")
        if not inputs:
            raise GraphError("the partition reads no tensor, so it has no device")
        partition.graph = graph
        partition.compiled = graph.superoptimize(**self.superoptimize_options)
        _runners[key] = _Runner(partition.compiled,
                                interpret=inputs[0].meta["val"].device.type == "cpu")
        fx = gm.graph
        with fx.inserting_before(nodes[0]):
            call = fx.call_function(_call_op(), (key, inputs))
            for node, (index, source, dims) in zip(outputs, recipes):
                if index is not None:
                    value = fx.call_function(operator.getitem, (call, index))
                else:
                    value = fx.call_function(torch.ops.aten.clone.default, (source,))
                if dims is not None:
                    value = fx.call_function(torch.ops.aten.expand.default, (value, list(dims)))
                value.meta["val"] = node.meta["val"]  # what the next partitions read
                node.replace_all_uses_with(value, delete_user_cb=lambda u: u not in members)
        for node in reversed(nodes):
            fx.erase_node(node)


def fold_upcast_rms_norms(gm):
    """Rewrites each RMSNorm of an f16 or bf16 tensor that the FX graph
    computes in float32 between casts (torch's decomposition of rms_norm
    and Llama's RMSNorm: x.to(float32), pow 2, mean over the last dim
    keeping it, + eps, rsqrt, times x (times the weight), .to(x.dtype)),
    or as aten._fused_rms_norm (on CUDA devices) whose rstd nothing reads,
    into one aten.rms_norm of x, which maps onto tk.rms_norm: TileOpt's
    kernels compute f16 and bf16 in float32 (tb.rms_norm's sum of squares
    among them), so the casts are what tk.rms_norm does anyway, and the
    norm joins the partition of the products it feeds instead of keeping
    the search off it. Returns how many norms it rewrote; the fallback runs
    a rewritten norm that no partition takes as torch's rms_norm."""
    import torch
    folded = 0
    for result in list(gm.graph.nodes):
        norm = _upcast_rms_norm(result) or _fused_rms_norm(result)
        if norm is None:
            continue
        x, weight, eps, pattern = norm
        with gm.graph.inserting_before(result):
            rms_norm = gm.graph.call_function(torch.ops.aten.rms_norm.default,
                                              (x, [x.meta["val"].shape[-1]], weight, eps))
        rms_norm.meta.update(result.meta)
        result.replace_all_uses_with(rms_norm)
        for node in pattern:  # users first
            gm.graph.erase_node(node)
        folded += 1
    if folded:
        gm.graph.lint()
        gm.recompile()
    return folded


def _upcast_rms_norm(cast):
    """(x, weight or None, eps, its nodes, users before what they read) if
    `cast` ends an RMSNorm computed in float32 (fold_upcast_rms_norms),
    each node of it read only inside it; else None."""
    import torch

    def call(node, *targets):
        return (isinstance(node, torch.fx.Node) and node.op == "call_function"
                and str(node.target) in targets)

    def operands(node, is_first):
        """node's two operands, the one is_first takes first."""
        a, b = node.args[:2]
        return (a, b) if is_first(a) else (b, a) if is_first(b) else (None, None)

    low = cast.meta.get("val")
    if not (call(cast, "aten._to_copy.default", "aten.to.dtype")
            and isinstance(low, torch.Tensor) and low.dtype in (torch.float16, torch.bfloat16)
            and len(cast.args) >= 1 and _cast_dtype(cast) == low.dtype):
        return None
    scaled, weight = cast.args[0], None
    if call(scaled, "aten.mul.Tensor") and not (call(scaled.args[0], "aten.rsqrt.default")
                                                or call(scaled.args[1], "aten.rsqrt.default")):
        normed, weight = operands(scaled, lambda n: call(n, "aten.mul.Tensor"))
        if normed is None or not isinstance(weight, torch.fx.Node):
            return None
        w = weight.meta.get("val")
        if not (isinstance(w, torch.Tensor) and w.dtype == low.dtype
                and tuple(w.shape) == (low.shape[-1],)):
            return None
    else:
        normed = scaled
    if not call(normed, "aten.mul.Tensor"):
        return None
    rsqrt_node, upcast = operands(normed, lambda n: call(n, "aten.rsqrt.default"))
    if rsqrt_node is None:
        return None
    shifted = rsqrt_node.args[0]
    if not (call(shifted, "aten.add.Scalar", "aten.add.Tensor")
            and isinstance(shifted.args[1], float) and shifted.kwargs.get("alpha", 1) == 1):
        return None
    eps, mean = shifted.args[1], shifted.args[0]
    if not (call(mean, "aten.mean.dim") and len(mean.args) >= 3 and mean.args[2] is True):
        return None
    squares, dims = mean.args[:2]
    rank = low.dim()
    if [d % rank for d in dims] != [rank - 1]:
        return None
    if not (call(squares, "aten.pow.Tensor_Scalar") and squares.args[0] is upcast
            and squares.args[1] == 2):
        return None
    if not (call(upcast, "aten._to_copy.default", "aten.to.dtype")
            and _cast_dtype(upcast) == torch.float32):
        return None
    x = upcast.args[0]
    high = x.meta.get("val") if isinstance(x, torch.fx.Node) else None
    if not (isinstance(high, torch.Tensor) and high.dtype == low.dtype
            and high.device == low.device):
        return None
    pattern = [cast] + ([scaled] if weight is not None else []) + [
        normed, rsqrt_node, shifted, mean, squares, upcast]
    # Checks of the intermediates' metadata (torch.export and AOTAutograd
    # write them for .to()) go with them.
    checks = [user for node in pattern[1:] for user in node.users
              if call(user, "aten._assert_tensor_metadata.default")]
    inside = set(pattern + checks)
    if any(user not in inside for node in pattern[1:] for user in node.users):
        return None
    return x, weight, eps, checks + pattern


def _fused_rms_norm(item):
    """(x, weight or None, eps, its nodes, users first) if `item` is the
    normalized output of aten._fused_rms_norm (what rms_norm becomes on
    CUDA devices: the same float32 computation in one kernel) over the last
    dim, whose other output (rstd, for a backward) nothing reads; else
    None."""
    import torch
    if not (item.op == "call_function" and item.target is operator.getitem
            and item.args[1] == 0):
        return None
    fused = item.args[0]
    if not (isinstance(fused, torch.fx.Node) and fused.op == "call_function"
            and str(fused.target) == "aten._fused_rms_norm.default"):
        return None
    x, shape, weight, eps = (list(fused.args) + [None, None])[:4]
    low = item.meta.get("val")
    if not (isinstance(low, torch.Tensor) and list(shape) == [low.shape[-1]]
            and isinstance(eps, float)):
        return None
    if weight is not None and weight.meta["val"].dtype != low.dtype:
        return None
    rest = [u for u in fused.users if u is not item]
    if any(not (u.target is operator.getitem and u.args[1] == 1 and not u.users)
           for u in rest):
        return None
    return x, weight, eps, [item, *rest, fused]


def _cast_dtype(node):
    """The dtype an aten._to_copy or aten.to.dtype node casts to."""
    if "dtype" in node.kwargs:
        return node.kwargs["dtype"]
    return node.args[1] if len(node.args) > 1 else None


class _MappableOps:
    """The partitioner's question, per node: does this one op map onto a
    kernel graph, on its own, without scalar code? (An OperatorSupportBase,
    duck-typed so that importing this module needs no torch.)"""

    def __init__(self, device):
        self.device = device

    def is_node_supported(self, submodules, node):
        if node.op != "call_function" or str(node.target) not in ATEN_OPS:
            return False
        operands = node.all_input_nodes
        if not all(self._takes(n.meta.get("val")) for n in [*operands, node]):
            return False
        graph = KernelGraph("probe")
        values = {}
        for a in operands:
            val = a.meta["val"]
            if str(a.target) == "aten.expand.default":  # read as a broadcast, as in the partition
                source = a.args[0].meta["val"]
                values[a.name] = _Broadcast(graph.new_input(tuple(source.shape),
                                                            _dtype(source.dtype, a.name)),
                                            tuple(val.shape))
            else:
                values[a.name] = graph.new_input(tuple(val.shape), _dtype(val.dtype, a.name))
        try:
            map_node(graph, node, values)
        except GraphError:
            return False
        return not any(unsearched in op.text for op in graph._ops
                       for unsearched in _UNSEARCHED_SCALAR_CODE)

    def _takes(self, value):
        import torch
        return (isinstance(value, torch.Tensor) and value.device.type == self.device
                and any(str(value.dtype) == f"torch.{d.name}" for d in DTYPES)
                and all(type(n) is int for n in value.shape))


def _tensor_values(gm):
    import torch
    for node in gm.graph.nodes:
        if node.op == "placeholder" and isinstance(node.meta.get("val"), torch.Tensor):
            yield node.meta["val"]


def _summary(nodes):
    names = [str(n.target).removeprefix("aten.").split(".")[0] for n in nodes]
    return ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")


def tileopt_backend(gm, example_inputs, options=None, mode=None, name=None):
    """The backend `torch.compile(model, backend="tileopt", options={...})`
    runs: TileOptBackend(**options) on each graph. mode="reduce-overhead"
    (which torch.compile takes instead of options) is cuda_graphs=True."""
    if mode not in _MODES:
        raise ValueError(f"the tileopt backend takes mode {' or '.join(map(repr, _MODES[1:]))}, "
                         f"not {mode!r}; its other options are TileOptBackend's, through "
                         "options={...}")
    options = dict(options or {})
    if mode == "reduce-overhead":
        options["cuda_graphs"] = True
    return TileOptBackend(**options)(gm, example_inputs)


def register_backend():
    """Registers tileopt_backend as torch.compile's "tileopt" (once)."""
    from torch._dynamo.backends.registry import _COMPILER_FNS, register_backend
    if "tileopt" not in _COMPILER_FNS:
        register_backend(tileopt_backend, name="tileopt")


class _RegisterAfterLoading(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Registers the backend right after torch._dynamo is imported.
    Registering imports torch._dynamo, which takes seconds; so `import
    tileopt` only puts this finder on sys.meta_path when torch is installed
    but its compiler not yet imported, and torch.compile imports it."""

    MODULE = "torch._dynamo"

    def find_spec(self, name, path, target=None):
        if name != self.MODULE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        self.loader, spec.loader = spec.loader, self
        return spec

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        module.__spec__.loader = module.__loader__ = self.loader
        self.loader.exec_module(module)
        register_backend()


def register_when_torch_loads():
    """Makes backend="tileopt" known to torch.compile, without importing
    torch where it is not imported yet (or not installed)."""
    if _RegisterAfterLoading.MODULE in sys.modules:
        register_backend()
    elif importlib.util.find_spec("torch") is not None:
        sys.meta_path.insert(0, _RegisterAfterLoading())
