"""TileOpt from Python: build kernel graphs, superoptimize them into
artifacts, run them on torch tensors (docs/python.md).

    import tileopt as mi
    graph = mi.new_kernel_graph()
    X = graph.new_input(dims=(8, 4096), dtype=mi.float16)
    W = graph.new_input(dims=(4096, 6144), dtype=mi.float16)
    graph.mark_output(graph.matmul(graph.rms_norm(X), W))
    compiled = graph.superoptimize(time_budget=30)
    (y,) = compiled(inputs=[x, w])          # CUDA tensors

`tileopt.compile(fn, example_inputs)` does the same from a PyTorch function
or module, captured with torch.export, and `torch.compile(model,
backend="tileopt")` for the parts of a model TileOpt can take. torch is
imported only by what needs it.
"""

from .compiled import CompiledGraph, TensorSpec, load
from .compiler import CompileError, ToolNotFoundError
from .graph import (DTensor, DType, GraphError, KernelGraph, bfloat16, float16,
                    float32, new_kernel_graph)

__all__ = ["new_kernel_graph", "KernelGraph", "DTensor", "DType", "float16", "bfloat16",
           "float32", "GraphError", "CompileError", "ToolNotFoundError",
           "CompiledGraph", "TensorSpec", "load", "compile", "backend"]


def compile(fn_or_module, example_inputs, **superoptimize_options):
    """Captures `fn_or_module` with torch.export on `example_inputs`, maps its
    aten ops onto a kernel graph and superoptimizes it; returns a callable
    (tileopt.torch_export.CompiledFunction)."""
    from .torch_export import compile_function
    return compile_function(fn_or_module, example_inputs, **superoptimize_options)


def backend(**options):
    """A torch.compile backend with these options (TileOptBackend's:
    fallback, on_cpu, and superoptimize's), whose `.partitions` says what
    it handed to TileOpt: torch.compile(model, backend=tileopt.backend(...))."""
    from .torch_backend import TileOptBackend
    return TileOptBackend(**options)


# backend="tileopt" for torch.compile, once torch's compiler is imported.
from .torch_backend import register_when_torch_loads  # noqa: E402

register_when_torch_loads()
