"""Compiled graphs: an artifact and the µGraph it was compiled from.

A CompiledGraph is a directory: the artifact `tileopt-compile` wrote
(manifest.json, kernels.cubin, ...; docs/artifact-format.md), so
`tileopt-run DIR` runs it too, plus the stages it was compiled from:
`graph.mlir` (the kernel graph the builder emitted), `ugraph.mlir` (the
µGraph the search chose) and `tile.mlir` (its tile program, whose sha256 is
the manifest's source_hash)::

    compiled = graph.superoptimize(time_budget=30)
    outputs = compiled(inputs=[q, k, v])    # CUDA tensors; outputs allocated
    compiled(inputs=[q, k, v], out=[o])     # or written into `out`
    compiled.save("attention.tileopt")
    again = tileopt.load("attention.tileopt")
    cpu = again.run_on_cpu(inputs=[q, k, v])  # the tile interpreter, no GPU
    again.visualize("attention")              # attention.dot (+ .svg, .png)

Inputs are the artifact's input buffers in manifest order (the graph's
inputs, in the order they were created); outputs its buffers out0, out1,
... (the graph's outputs). The other buffers the artifact writes
(intermediates between kernels, tmp0, ...) are allocated on the first
call and kept: a compiled graph runs on the device of its first call.
"""

import ctypes
import functools
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path

from .compiler import run_tool
from .graph import DTYPES
from .runtime import _torch_dtype as _torch_dtype_of_manifest

__all__ = ["CompiledGraph", "TensorSpec", "load"]

KERNEL_GRAPH_FILE = "graph.mlir"
UGRAPH_FILE = "ugraph.mlir"
TILE_FILE = "tile.mlir"
REMARKS_FILE = "remarks.txt"  # the search's remarks, one a line
_OUTPUT_NAME = re.compile(r"out([0-9]+)\Z")


@dataclass(frozen=True)
class TensorSpec:
    """What a call binds to one of the artifact's buffers."""
    name: str
    dims: tuple
    dtype: object  # a tileopt DType


def write_sources(directory, kernel_graph, ugraph, tile_program, remarks):
    """Adds the stages an artifact was compiled from, and the search's
    remarks, to its directory."""
    for name, text in ((KERNEL_GRAPH_FILE, kernel_graph), (UGRAPH_FILE, ugraph),
                       (TILE_FILE, tile_program), (REMARKS_FILE, "".join(
                           f"{remark}\n" for remark in remarks))):
        Path(directory, name).write_text(text)


def _torch_dtype(dtype):
    return _torch_dtype_of_manifest(dtype.mlir)  # cached


class CompiledGraph:
    """A superoptimized kernel graph: call it on CUDA tensors."""

    def __init__(self, directory, temporary=None):
        """`temporary`: a directory to remove with the object."""
        self.directory = Path(directory)
        if temporary is not None:
            weakref.finalize(self, shutil.rmtree, temporary, ignore_errors=True)
        manifest_file = self.directory / "manifest.json"
        try:
            manifest = json.loads(manifest_file.read_text())
        except (OSError, ValueError) as e:
            raise ValueError(f"{self.directory} is not a compiled TileOpt graph: "
                             f"cannot read {manifest_file.name} ({e})") from None
        for name in (KERNEL_GRAPH_FILE, UGRAPH_FILE, TILE_FILE):
            if not (self.directory / name).is_file():
                raise ValueError(f"{self.directory} is not a compiled TileOpt graph: "
                                 f"it has no {name} (an artifact alone runs with "
                                 "tileopt.runtime.Artifact)")
        digest = hashlib.sha256((self.directory / TILE_FILE).read_bytes()).hexdigest()
        if manifest.get("source_hash") != digest:
            raise ValueError(f"{self.directory}: the artifact was not compiled from its "
                             f"{TILE_FILE} (source_hash differs)")
        by_mlir = {d.mlir: d for d in DTYPES}
        self.inputs, outputs, self._intermediates = [], {}, []
        for b in manifest["buffers"]:
            if b["role"] == "constant":
                continue
            if b["dtype"] not in by_mlir:
                raise ValueError(f"{self.directory}: buffer {b['name']!r} has dtype "
                                 f"{b['dtype']}, not one of a kernel graph's")
            shape = tuple(b["shape"])
            if tuple(b["strides"]) != _row_major(shape):
                raise ValueError(f"{self.directory}: buffer {b['name']!r} is not "
                                 f"row-major (strides {b['strides']})")
            spec = TensorSpec(b["name"], shape, by_mlir[b["dtype"]])
            result = _OUTPUT_NAME.match(b["name"])
            if b["role"] == "input":
                self.inputs.append(spec)
            elif b["role"] == "output" and result:
                outputs[int(result.group(1))] = spec
            else:
                self._intermediates.append(spec)
        if sorted(outputs) != list(range(len(outputs))) or not outputs:
            raise ValueError(f"{self.directory}: the artifact's outputs are not "
                             f"out0 ... out<N>: {sorted(outputs)}")
        self.outputs = [outputs[i] for i in range(len(outputs))]
        self._launcher = None  # on the device of the first call

    @property
    def kernel_graph(self):
        """The tk kernel graph the search started from (MLIR text)."""
        return (self.directory / KERNEL_GRAPH_FILE).read_text()

    @property
    def ugraph(self):
        """The µGraph the search chose (MLIR text)."""
        return (self.directory / UGRAPH_FILE).read_text()

    @property
    def tile_program(self):
        """The µGraph's tile kernels and host function, which the artifact
        was generated from (MLIR text)."""
        return (self.directory / TILE_FILE).read_text()

    def visualize(self, path, formats=("svg", "png")):
        """Draws the µGraph the search chose: writes `path` with the suffix
        .dot, Graphviz's DOT from `tileopt-opt --tileopt-view-ugraph` (each
        kernel a cluster labelled with its grid, block and for-loop range,
        its loop body a cluster inside; the ops with their maps and tile
        types; the accumulators filled), and, where Graphviz's `dot` is
        installed, renders it into `path` with each suffix of `formats`.
        Returns the paths written: the DOT alone without Graphviz."""
        base = Path(path)
        if base.suffix in (".dot", *(f".{f}" for f in formats)):
            base = base.with_suffix("")
        dot_file = base.with_suffix(".dot")
        dot_file.write_text(run_tool(
            "tileopt-opt", [self.directory / UGRAPH_FILE, "--tileopt-view-ugraph=output=-",
                            "-o", os.devnull], "drawing the µGraph"))
        written = [dot_file]
        graphviz = shutil.which("dot")
        for suffix in formats if graphviz else ():
            picture = base.with_suffix(f".{suffix}")
            run = subprocess.run([graphviz, f"-T{suffix}", str(dot_file), "-o", str(picture)],
                                 capture_output=True, text=True)
            if run.returncode:
                raise RuntimeError(f"dot -T{suffix} failed: {run.stderr.strip()}")
            written.append(picture)
        return written

    def save(self, directory):
        """Copies the compiled graph to `directory`, which must not exist;
        tileopt.load reads it back."""
        directory = Path(directory)
        if directory.exists():
            raise FileExistsError(f"save: {directory} already exists")
        shutil.copytree(self.directory, directory)
        return directory

    def __call__(self, inputs, out=None):
        """Runs the artifact on torch's current stream of the inputs' device
        and returns the list of outputs (`out`, if given). Inputs and
        outputs must be contiguous CUDA tensors of one device with the
        graph's dims and dtypes: torch tensors, or any library's that
        DLPack takes (CuPy, JAX, ...: torch.from_dlpack, no copy)."""
        launcher = self._launcher
        if launcher is not None and launcher.fits(inputs, out):
            return launcher(inputs, out)
        # The first call, or one whose tensors the launcher's test refused:
        # DLPack tensors of other libraries as torch's views of them, then
        # the checks that say what is wrong, if anything.
        self._check_list("inputs", inputs, self.inputs)
        inputs = [_from_dlpack(t) for t in inputs]
        device = inputs[0].device if inputs else None
        self._check_tensors("input {}", self.inputs, inputs, device)
        given = out
        if out is not None:
            self._check_list("out", out, self.outputs)
            out = [_from_dlpack(t) for t in out]
            self._check_tensors("out[{}]", self.outputs, out, device)
        if launcher is None or launcher.device != device:
            launcher = self.launcher(device)
        result = launcher(inputs, out)
        return result if given is None else given

    def launcher(self, device):
        """The call without its checks, for callers that know their tensors
        fit (the torch.compile backend, whose graph fixes them): a function
        of (inputs, out=None) that launches on torch's current stream of
        `device`. Made once: the first call of launcher (or of the graph)
        loads the artifact into the device's context, which synchronizes
        the device, so it must not happen while a CUDA graph is captured."""
        import torch
        device = torch.device(device)
        if device.type != "cuda":
            raise ValueError(f"{self!r} runs on CUDA devices, not on {device}")
        if device.index is None:
            device = torch.device("cuda", torch.cuda.current_device())
        if self._launcher is None:
            self._launcher = _Launcher(self, device)
        elif self._launcher.device != device:
            raise ValueError(f"the graph was loaded on {self._launcher.device}; "
                             f"it cannot run on {device} too")
        return self._launcher

    def _check_tensors(self, what, specs, tensors, device):
        """Each tensor is a contiguous CUDA tensor on `device` with its
        spec's dtype and dims, or an error that says which is not and why."""
        for i, (spec, t) in enumerate(zip(specs, tensors)):
            self._check_tensor(what.format(i), spec, t, device)

    def run_on_cpu(self, inputs):
        """Runs the artifact's tile program with the tile interpreter
        (`tileopt-interp --domain=f64`), without a GPU. Inputs are torch
        tensors of any device, or NumPy arrays (float16 or float32: NumPy
        has no bfloat16); the outputs are CPU tensors, or arrays, of the
        outputs' dtypes. Slow (the interpreter walks every op of every
        block): for small shapes, to check results."""
        inputs = self._check_list("inputs", inputs, self.inputs)
        use_numpy = bool(inputs) and type(inputs[0]).__module__ == "numpy"
        for i, (spec, x) in enumerate(zip(self.inputs, inputs)):
            if use_numpy:
                self._check_array(f"input {i}", spec, x)
            else:
                self._check_tensor(f"input {i}", spec, x, None)
        flat = [x.ravel().tolist() if use_numpy else x.detach().cpu().flatten().tolist()
                for x in inputs]
        with tempfile.TemporaryDirectory(prefix="tileopt-cpu-") as work:
            inputs_file = Path(work) / "inputs.txt"
            inputs_file.write_text("".join(
                f"tensor {'x'.join(map(str, spec.dims))}\n" + " ".join(map(repr, values)) + "\n"
                for spec, values in zip(self.inputs, flat)))
            printed = run_tool("tileopt-interp", [self.directory / TILE_FILE,
                                                  f"--inputs={inputs_file}",
                                                  "--domain=f64", "--precision=17"],
                               "interpreting the tile program")
        tensors = _parse_tensors(printed)
        # The host function's output buffers: out0, ... then intermediates.
        if len(tensors) < len(self.outputs):
            raise RuntimeError(f"tileopt-interp printed {len(tensors)} "
                               f"tensors, expected at least {len(self.outputs)}")
        results = []
        for spec, (dims, values) in zip(self.outputs, tensors):
            if dims != spec.dims:
                raise RuntimeError(f"the interpreter's output {spec.name} has dims "
                                   f"{list(dims)}, expected {list(spec.dims)}")
            if use_numpy:
                import numpy
                results.append(numpy.array(values).reshape(dims)
                               .astype(self._numpy_dtype(f"output {spec.name!r}", spec)))
            else:
                import torch
                results.append(torch.tensor(values, dtype=torch.float64).reshape(dims)
                               .to(_torch_dtype(spec.dtype)))
        return results

    @staticmethod
    def _numpy_dtype(what, spec):
        if spec.dtype.name == "bfloat16":
            raise TypeError(f"{what} is bfloat16, which NumPy has not: use torch tensors")
        return spec.dtype.name

    def _check_array(self, what, spec, a):
        what = f"{what} ({spec.name!r})"
        if type(a).__module__ != "numpy":
            raise TypeError(f"{what}: expected a NumPy array like the first input, "
                            f"got {type(a).__name__}")
        if a.dtype != self._numpy_dtype(what, spec):
            raise ValueError(f"{what}: expected dtype {spec.dtype.name}, got {a.dtype}")
        if tuple(a.shape) != spec.dims:
            raise ValueError(f"{what}: expected shape {list(spec.dims)}, got {list(a.shape)}")

    def _check_list(self, what, tensors, specs):
        if not isinstance(tensors, (list, tuple)):
            raise TypeError(f"{what} must be a list of tensors, got {type(tensors).__name__}")
        if len(tensors) != len(specs):
            raise ValueError(f"expected {len(specs)} {what} "
                             f"({', '.join(s.name for s in specs)}), got {len(tensors)}")
        return list(tensors)

    def _check_tensor(self, what, spec, t, device):
        """`device` None: any device (run_on_cpu); else t must be on it, a
        CUDA device."""
        import torch
        what = f"{what} ({spec.name!r})"
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{what}: expected a torch.Tensor, got {type(t).__name__}")
        if t.dtype != _torch_dtype(spec.dtype):
            raise ValueError(f"{what}: expected dtype {_torch_dtype(spec.dtype)}, "
                             f"got {t.dtype}")
        if tuple(t.shape) != spec.dims:
            raise ValueError(f"{what}: expected shape {list(spec.dims)}, "
                             f"got {list(t.shape)}")
        if device is None:
            return
        if t.device.type != "cuda":
            raise ValueError(f"{what}: expected a CUDA tensor, got one on {t.device} "
                             "(run_on_cpu runs the graph on the CPU)")
        if t.device != device:
            raise ValueError(f"{what}: on {t.device}, the first input is on {device}")
        if not t.is_contiguous():
            raise ValueError(f"{what}: not contiguous (strides {list(t.stride())}); "
                             "pass .contiguous()")

    def __repr__(self):
        def specs(ts):
            return ", ".join(f"{s.name}: {list(s.dims)} {s.dtype!r}" for s in ts)
        return f"CompiledGraph({specs(self.inputs)} -> {specs(self.outputs)})"


class _Launcher:
    """A CompiledGraph's launch on one device, its argument packing done
    ahead: the artifact loaded, the intermediates allocated and their
    addresses written once into the ctypes array the runtime reads; a call
    writes its tensors' addresses into their slots, allocates the outputs
    not given, and makes one C call."""

    def __init__(self, compiled, device):
        import torch
        from .runtime import Artifact
        self.device = device
        with torch.cuda.device(device):
            self.artifact = Artifact(compiled.directory)
        place = {s.name: i for i, s in enumerate(compiled.inputs + compiled.outputs)}
        intermediates = {s.name: s for s in compiled._intermediates}
        self._intermediates = []  # kept alive: the artifact writes them
        self.pointers = (ctypes.c_uint64 * len(self.artifact.buffers))()
        slots = [None] * len(place)
        for i, b in enumerate(self.artifact.buffers):
            if b.name in place:
                slots[place[b.name]] = i
            elif b.name in intermediates:
                spec = intermediates[b.name]
                tensor = torch.empty(spec.dims, dtype=_torch_dtype(spec.dtype), device=device)
                self._intermediates.append(tensor)
                self.pointers[i] = tensor.data_ptr()
            elif b.role != "constant":
                raise ValueError(f"{compiled.directory}: the artifact's buffer {b.name!r} "
                                 "is none of the graph's")
        if None in slots:
            missing = [n for n, i in place.items() if slots[i] is None]
            raise ValueError(f"{compiled.directory}: the artifact has no buffer "
                             f"{', '.join(missing)}")
        self._input_slots = slots[:len(compiled.inputs)]
        self._output_slots = slots[len(compiled.inputs):]
        self._input_types = [(_torch_dtype(s.dtype), s.dims) for s in compiled.inputs]
        self._output_types = [(_torch_dtype(s.dtype), s.dims) for s in compiled.outputs]
        self._launch = self.artifact.launcher(self.pointers)
        self._stream = _stream_getter(device)
        self._empty = torch.empty
        self._tensor = torch.Tensor

    def fits(self, inputs, out):
        """Whether `inputs` and `out` (None, or the outputs) are lists or
        tuples of contiguous CUDA tensors on this device with the graph's
        dtypes and dims: the test of every CompiledGraph call, a few
        attribute reads a tensor and no message built. A tensor of a
        subclass of torch.Tensor fails it and is looked at by the full
        checks."""
        return (self._fit(inputs, self._input_types)
                and (out is None or self._fit(out, self._output_types)))

    def _fit(self, tensors, types):
        if type(tensors) not in (list, tuple) or len(tensors) != len(types):
            return False
        index, tensor = self.device.index, self._tensor
        for t, (dtype, dims) in zip(tensors, types):
            if not (type(t) is tensor and t.is_cuda and t.get_device() == index
                    and t.dtype is dtype and t.shape == dims and t.is_contiguous()):
                return False
        return True

    def __call__(self, inputs, out=None):
        pointers = self.pointers
        for slot, tensor in zip(self._input_slots, inputs):
            pointers[slot] = tensor.data_ptr()
        if out is None:
            # Dims as separate arguments: torch parses a tuple of them about
            # 0.8 us slower.
            empty, device = self._empty, self.device
            out = [empty(*dims, dtype=dtype, device=device) for dtype, dims in self._output_types]
        for slot, tensor in zip(self._output_slots, out):
            pointers[slot] = tensor.data_ptr()
        self._launch(self._stream())
        return out


def _from_dlpack(t):
    """torch's view of `t` if it is a DLPack tensor but not a torch.Tensor
    (torch.from_dlpack: no copy, ordered after the producer's stream);
    anything else as it is, for the checks to name."""
    import torch
    if isinstance(t, torch.Tensor) or not hasattr(t, "__dlpack__"):
        return t
    try:
        return torch.from_dlpack(t)
    except (RuntimeError, TypeError, BufferError) as e:
        raise ValueError(f"cannot take a {type(t).__name__} through DLPack: {e}") from None


def _stream_getter(device):
    """A function giving the handle of torch's current CUDA stream on
    `device`: torch's private accessor is ~10x faster than
    current_stream(), which builds a Stream object each call; the public
    one where it is missing."""
    import torch
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return functools.partial(raw, device.index)
    return lambda: torch.cuda.current_stream(device).cuda_stream


def _row_major(shape):
    strides, n = [], 1
    for d in reversed(shape):
        strides.append(n)
        n *= d
    return tuple(reversed(strides))


def _parse_tensors(text):
    """(dims, values) of each tensor tileopt-interp printed: `tensor AxB`
    headers, then the values; `#` starts a comment."""
    words = []
    for line in text.splitlines():
        words += line.split("#", 1)[0].split()
    tensors, pos = [], 0
    while pos < len(words):
        if words[pos] != "tensor" or pos + 1 == len(words):
            raise RuntimeError(f"cannot read tileopt-interp's output at {words[pos]!r}")
        dims = tuple(int(d) for d in words[pos + 1].split("x"))
        count = math.prod(dims)
        values = [float(w) for w in words[pos + 2:pos + 2 + count]]
        if len(values) != count:
            raise RuntimeError(f"tileopt-interp printed {len(values)} values of a "
                               f"{words[pos + 1]} tensor")
        tensors.append((dims, values))
        pos += 2 + count
    return tensors


def load(directory):
    """The CompiledGraph saved in `directory` (CompiledGraph.save)."""
    return CompiledGraph(directory)
