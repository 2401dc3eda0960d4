"""Kernels and host programs: `@tile.kernel` functions traced at the array
shapes and constexpr values of a launch, and `Program`, the host side (the
buffers and the `tile.launch` sequence) that `tileopt-compile` turns into an
artifact and `tileopt-interp` runs on the CPU.
"""

import hashlib
import inspect
import linecache
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import tools
from .ir import Location, Value, ViewType, print_kernel
from .ops import Array, as_dtype
from .tracing import TileError, Trace

__all__ = ["constexpr", "kernel", "Kernel", "ArraySpec", "array", "Program", "Buffer"]


class constexpr:
    """Annotation of a kernel parameter whose value is fixed when the kernel
    is traced (a tile size, a flag, an epsilon): `def k(x, y, N: tile.constexpr)`.
    Each set of values gives a kernel of its own."""


def _is_constexpr(annotation):
    return annotation is constexpr or (isinstance(annotation, str)
                                       and annotation.split(".")[-1] == "constexpr")


def _definition_location(fn):
    code = fn.__code__
    line = code.co_firstlineno
    return Location(code.co_filename, line, 1, linecache.getline(code.co_filename, line))


@dataclass
class _TracedKernel:
    """A kernel traced at one set of view types and constants."""
    name: str
    arguments: list  # Values of ViewType, named after the parameters
    body: object
    location: Location
    attributes: str
    writes: set  # positions of the array arguments it stores into

    def mlir(self, symbol):
        return print_kernel(symbol, self.arguments, self.body, self.location, self.attributes)


class Kernel:
    """A `@tile.kernel` function. It is not called directly: `trace` or
    `Program.launch` trace it at the shapes of their arrays."""

    def __init__(self, fn, occupancy=None, num_ctas=None):
        self.fn = fn
        self.name = fn.__name__
        self.parameters = list(inspect.signature(fn).parameters.values())
        self.constexprs = {p.name for p in self.parameters if _is_constexpr(p.annotation)}
        hints = [f"{k} = {v} : i32" for k, v in (("occupancy", occupancy), ("num_ctas", num_ctas))
                 if v is not None]
        self.attributes = f" attributes {{{', '.join(hints)}}}" if hints else ""
        self._specializations = {}

    def __call__(self, *args, **kwargs):
        raise TileError(f"the tile kernel `{self.name}` is not called directly: trace it with "
                        f"{self.name}.trace(grid, ...) or launch it in a tile.Program")

    def _bind(self, args):
        """(array arguments, constexpr values) from a launch's arguments."""
        if len(args) != len(self.parameters):
            raise TileError(f"`{self.name}` takes {len(self.parameters)} arguments "
                            f"({', '.join(p.name for p in self.parameters)}), got {len(args)}")
        arrays, constants = [], {}
        for p, a in zip(self.parameters, args):
            if p.name in self.constexprs:
                constants[p.name] = a
            else:
                arrays.append((p.name, a))
        return arrays, constants

    def specialize(self, views, constants):
        """The kernel traced at `views` (ViewType per array parameter) and
        `constants` (constexpr parameter -> value)."""
        key = (tuple(views), tuple(sorted((k, repr(v)) for k, v in constants.items())))
        if key not in self._specializations:
            self._specializations[key] = self._trace(views, constants)
        return self._specializations[key]

    def _trace(self, views, constants):
        trace = Trace()
        arguments, call = [], {}
        views = iter(views)
        for p in self.parameters:
            if p.name in self.constexprs:
                call[p.name] = constants[p.name]
            else:
                value = Value(next(views), p.name)
                call[p.name] = Array(value, p.name, len(arguments))
                arguments.append(value)
        with trace:
            returned = self.fn(**call)
            trace.check_closed()
        location = _definition_location(self.fn)
        if returned is not None:
            raise TileError(f"the tile kernel `{self.name}` returns {returned!r}; a kernel "
                            f"returns nothing and writes its results with tile.store", location)
        return _TracedKernel(self.name, arguments, trace.body_with_constants(), location,
                             self.attributes, trace.writes)

    def trace(self, grid, *args):
        """A Program of one launch of this kernel over `grid`: one buffer per
        array parameter, named after it, of the shape and dtype of the
        argument (a NumPy array, a torch tensor, a tile.array(shape, dtype));
        constexpr parameters take their values."""
        program = Program()
        arrays, _ = self._bind(args)
        buffers = dict((name, program.array(name, a.shape, a.dtype)) for name, a in arrays)
        program.launch(self, grid, *(buffers.get(p.name, a) for p, a in zip(self.parameters, args)))
        return program


def kernel(fn=None, *, occupancy=None, num_ctas=None):
    """Decorator: a tile kernel, the program of one thread block.
    `occupancy` (1-32) and `num_ctas` are the tile dialect's hints."""
    if fn is None:
        return lambda f: Kernel(f, occupancy, num_ctas)
    return Kernel(fn, occupancy, num_ctas)


@dataclass(frozen=True)
class ArraySpec:
    """The shape and dtype of an array argument, without its data."""
    shape: tuple
    dtype: object


def array(shape, dtype):
    """An ArraySpec: an array argument of `kernel.trace` by shape and dtype."""
    return ArraySpec(tuple(shape), dtype)


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class Buffer:
    """A device buffer of a Program: an input, or an output once a launch
    stores into it."""

    def __init__(self, name, shape, dtype, position):
        self.name, self.shape, self.dtype, self.position = name, tuple(shape), dtype, position
        self.written = False

    @property
    def buffer(self):
        return self

    @property
    def memref(self):
        return "memref<" + "".join(f"{d}x" for d in self.shape) + f"{self.dtype.mlir}>"

    def view(self, *shape):
        """This buffer seen by a kernel as another row-major shape of as many
        elements (no copy: `tile.launch` binds a fully static view to any
        buffer of its element type and element count)."""
        shape = tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], tuple) else shape
        if int(np.prod(shape)) != int(np.prod(self.shape)):
            raise TileError(f"buffer `{self.name}` {self.shape} has {int(np.prod(self.shape))} "
                            f"elements, the view {shape} {int(np.prod(shape))}")
        return _BufferView(self, shape)

    def __repr__(self):
        return f"Buffer({self.name}: {self.memref})"


@dataclass(frozen=True)
class _BufferView:
    buffer: Buffer
    shape: tuple


@dataclass(frozen=True)
class _Launch:
    symbol: str
    grid: tuple
    buffers: list


class Program:
    """The host side of tile kernels: buffers (static shapes) and the
    launches over them, in order. Buffers that a launch stores into are
    outputs (`tileopt.output`), the others inputs."""

    def __init__(self):
        self.buffers = []
        self._launches = []
        self._kernels = {}  # symbol -> _TracedKernel

    def array(self, name, shape, dtype):
        """A new buffer named `name` (its name in the artifact's manifest)."""
        dt = as_dtype(dtype)
        if dt is None:
            raise TileError(f"buffer `{name}`: {dtype!r} is not an element type")
        if not _NAME.match(str(name)) or any(b.name == name for b in self.buffers):
            raise TileError(f"buffer name {name!r} is not an identifier or is taken")
        shape = tuple(int(d) for d in shape)
        if not shape or any(d <= 0 for d in shape):
            raise TileError(f"buffer `{name}` needs a static shape of positive dims, got {shape}")
        buffer = Buffer(name, shape, dt, len(self.buffers))
        self.buffers.append(buffer)
        return buffer

    @property
    def inputs(self):
        return [b for b in self.buffers if not b.written]

    @property
    def outputs(self):
        return [b for b in self.buffers if b.written]

    def launch(self, kernel, grid, *args):
        """Runs `kernel` once per block of `grid` (1 to 3 ints); array
        parameters take Buffers (or their views), constexpr ones values."""
        if not isinstance(kernel, Kernel):
            raise TileError(f"{kernel!r} is not a @tile.kernel")
        grid = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
        if not 1 <= len(grid) <= 3 or any(not isinstance(g, int) or g <= 0 for g in grid):
            raise TileError(f"grid {grid} is not 1 to 3 positive ints")
        arrays, constants = kernel._bind(args)
        for name, a in arrays:
            if not isinstance(a, (Buffer, _BufferView)) or a.buffer not in self.buffers:
                raise TileError(f"argument `{name}` of `{kernel.name}` must be a buffer of this "
                                f"program (Program.array), not {type(a).__name__}")
        views = [ViewType(a.shape, a.buffer.dtype) for _, a in arrays]
        traced = kernel.specialize(views, constants)
        symbol = next((s for s, k in self._kernels.items() if k is traced), None)
        if symbol is None:  # a kernel's first specialization keeps its name
            symbol, n = kernel.name, 1
            while symbol in self._kernels:
                symbol, n = f"{kernel.name}_{n}", n + 1
            self._kernels[symbol] = traced
        for position in traced.writes:
            arrays[position][1].buffer.written = True
        self._launches.append(_Launch(symbol, grid + (1,) * (3 - len(grid)),
                                      [a.buffer for _, a in arrays]))

    def mlir(self):
        """The tile program: every kernel, then the host function @main."""
        parts = [k.mlir(symbol) for symbol, k in self._kernels.items()]
        args = []
        for b in self.buffers:
            attrs = f'tileopt.name = "{b.name}"' + (", tileopt.output" if b.written else "")
            args.append(f"%{b.name}: {b.memref} {{{attrs}}}")
        lines = [f"func.func @main({', '.join(args)}) {{"]
        for launch in self._launches:
            names = ", ".join(f"%{b.name}" for b in launch.buffers)
            types = ", ".join(b.memref for b in launch.buffers)
            grid = ", ".join(map(str, launch.grid))
            lines.append(f"  tile.launch @{launch.symbol} grid [{grid}] ({names}) : {types}")
        lines += ["  return", "}"]
        parts.append("\n".join(lines) + "\n")
        return "\n".join(parts)

    def fingerprint(self, *options):
        """A hex digest of the program without its locations and of the
        compile `options`: a key for artifacts compiled from it that a
        checkout elsewhere (a GPU machine without LLVM, running what was
        compiled here) computes alike."""
        text = re.sub(r' loc\("[^"]*":\d+:\d+\)', "", self.mlir())
        return hashlib.sha256("\n".join([text, *map(str, options)]).encode()).hexdigest()

    def interpret(self, *inputs, **named):
        """Runs the program on the CPU with the tile interpreter in float64
        (`tileopt-interp --domain=f64`): inputs by position (in the order of
        `inputs`) or by name; returns {output name: NumPy float64 array}.
        The interpreter computes every element type in float64."""
        if inputs and named:
            raise TileError("pass the inputs by position or by name, not both")
        expected = self.inputs
        values = list(inputs) if inputs else [named.pop(b.name, None) for b in expected]
        if named or len(values) != len(expected) or any(v is None for v in values):
            raise TileError(f"the program's inputs are {', '.join(b.name for b in expected)}")
        for b, v in zip(expected, values):
            if tuple(np.shape(v)) != b.shape:
                raise TileError(f"input `{b.name}` has shape {np.shape(v)}, the buffer {b.shape}")
        with tempfile.TemporaryDirectory() as tmp:
            program, inputs_file = Path(tmp, "program.mlir"), Path(tmp, "inputs.txt")
            program.write_text(self.mlir())
            inputs_file.write_text(tools.format_tensors(values))
            result = tools.run("tileopt-interp", [program, f"--inputs={inputs_file}",
                                                  "--domain=f64", "--precision=17"])
        outputs = tools.parse_tensors(result.stdout)
        return {b.name: o for b, o in zip(self.outputs, outputs)}

    def compile(self, path, chip=None, num_warps=None):
        """Compiles the program into the artifact directory `path` with
        `tileopt-compile`; ToolError with its diagnostics (which name the
        kernels' Python lines) if the code generator refuses it."""
        # Absolute: tileopt-compile stages a relative -o path's artifact in
        # the temporary directory (LLVM's createUniqueDirectory), where its
        # parent folder does not exist.
        path = Path(path).resolve()
        options = ([f"--chip={chip}"] if chip else []) + \
                  ([f"--num-warps={num_warps}"] if num_warps else [])
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp, "program.mlir")
            source.write_text(self.mlir())
            tools.run("tileopt-compile", [source, "-o", path, *options])
        return path
