"""Runs TileOpt artifacts on PyTorch tensors.

A pure-Python (ctypes) binding of the runtime's C ABI,
runtime/include/tileopt/runtime.h; docs/artifact-format.md describes
artifacts. It lets a benchmark time TileOpt kernels and torch peers in one
process::

    from tileopt.runtime import Artifact
    softmax = Artifact("build/runtime/tests/gpu/row_softmax")
    x = torch.randn(2048, 16384, device="cuda", dtype=torch.bfloat16)
    y = torch.empty_like(x)
    softmax(x=x, y=y)        # or softmax(x, y): buffers in manifest order

Launches go on torch's current stream and do not synchronize. Scratch
buffers need not be passed: the artifact allocates them once. Constant
buffers (role "constant": weights and masks the compiled program fixes) are
never passed: the runtime uploads them when the artifact loads. They are
listed in `Artifact.buffers` but skipped by positional binding, which counts
only the others (`Artifact.arguments`), and naming one is an error.

The shared library is taken from $TILEOPT_RUNTIME_LIB, else from the
package's lib/ (a wheel's), else from this checkout's build directories
(build/lib, runtime/build/lib), else found by the dynamic loader. torch
is imported only when tensors are involved.
"""

import ctypes
import functools
import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Artifact", "Buffer", "TileOptError", "NoDeviceError"]

# The order of tileopt_dtype and tileopt_role in runtime.h.
_DTYPES = ("f16", "bf16", "f32", "f64", "i8", "i32", "i64")
_ROLES = ("input", "output", "scratch", "constant")
_MAX_RANK = 8
_OK = 0
_NO_DEVICE_STATUSES = (4, 6)  # TILEOPT_ERROR_NO_DEVICE, _UNSUPPORTED_DEVICE


class TileOptError(RuntimeError):
    """A runtime call failed; the message says why."""


class NoDeviceError(TileOptError):
    """No CUDA driver or GPU, or a GPU that cannot run the artifact."""


@dataclass(frozen=True)
class Buffer:
    name: str
    role: str  # "input", "output", "scratch" or "constant"
    dtype: str  # manifest spelling: "bf16", ...
    shape: tuple
    strides: tuple  # in elements
    size_bytes: int


class _BufferInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("role", ctypes.c_int),
        ("dtype", ctypes.c_int),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.c_int64 * _MAX_RANK),
        ("strides", ctypes.c_int64 * _MAX_RANK),
        ("size_bytes", ctypes.c_uint64),
    ]


_library = None


def _load_library():
    global _library
    if _library is not None:
        return _library
    root = Path(__file__).resolve().parents[2]
    candidates = [os.environ.get("TILEOPT_RUNTIME_LIB")]
    candidates += [str(d / "lib" / "libtileopt_runtime.so")
                   for d in (Path(__file__).resolve().parent, root / "build",
                             root / "runtime/build")]
    path = next((c for c in candidates if c and os.path.exists(c)),
                "libtileopt_runtime.so")
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise TileOptError(
            f"cannot load the TileOpt runtime library ({e}); build runtime/ "
            "or set TILEOPT_RUNTIME_LIB") from None
    c = ctypes
    signatures = {
        "tileopt_last_error": ([], c.c_char_p),
        "tileopt_artifact_load": ([c.c_char_p, c.POINTER(c.c_void_p)], c.c_int),
        "tileopt_artifact_destroy": ([c.c_void_p], None),
        "tileopt_artifact_num_buffers": ([c.c_void_p], c.c_int32),
        "tileopt_artifact_buffer":
            ([c.c_void_p, c.c_int32, c.POINTER(_BufferInfo)], c.c_int),
        "tileopt_artifact_reference": ([c.c_void_p], c.c_char_p),
        "tileopt_artifact_launch":
            ([c.c_void_p, c.POINTER(c.c_uint64), c.c_int32, c.c_void_p], c.c_int),
    }
    for name, (argtypes, restype) in signatures.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = restype
    _library = lib
    return lib


def _check(lib, status):
    if status != _OK:
        message = lib.tileopt_last_error().decode(errors="replace")
        raise (NoDeviceError if status in _NO_DEVICE_STATUSES else TileOptError)(message)


@functools.cache
def _torch_dtype(dtype):
    import torch
    return {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
            "f64": torch.float64, "i8": torch.int8, "i32": torch.int32,
            "i64": torch.int64}[dtype]


class Artifact:
    """A loaded artifact: its buffers, and a call that launches it."""

    def __init__(self, path):
        self._handle = None
        self._device = None
        self._scratch = {}
        self._lib = _load_library()
        try:
            import torch
        except ImportError:
            torch = None
        if torch is not None and torch.cuda.is_available():
            # Make torch's context for its current device current on this
            # thread, so the runtime loads the cubins into it (and not into
            # device 0's, which it picks when no context is current).
            self._device = torch.cuda.current_device()
            torch.cuda.synchronize()
        handle = ctypes.c_void_p()
        _check(self._lib, self._lib.tileopt_artifact_load(
            os.fsencode(str(path)), ctypes.byref(handle)))
        self._handle = handle
        self.reference = self._lib.tileopt_artifact_reference(handle).decode()
        self.buffers = []
        for i in range(self._lib.tileopt_artifact_num_buffers(handle)):
            info = _BufferInfo()
            _check(self._lib, self._lib.tileopt_artifact_buffer(handle, i, ctypes.byref(info)))
            self.buffers.append(Buffer(
                info.name.decode(), _ROLES[info.role], _DTYPES[info.dtype],
                tuple(info.shape[:info.rank]), tuple(info.strides[:info.rank]),
                info.size_bytes))
        # The buffers a call binds, in manifest order: all but the constants.
        self.arguments = [b for b in self.buffers if b.role != "constant"]
        # The addresses a launch passes, filled in place on each launch.
        self._pointers = (ctypes.c_uint64 * len(self.buffers))()

    def close(self):
        if self._handle is not None:
            self._lib.tileopt_artifact_destroy(self._handle)
            self._handle = None
        self._scratch.clear()

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def empty(self, name):
        """A new uninitialised tensor with buffer `name`'s dtype and layout."""
        import torch
        b = self._buffer(name)
        return torch.empty_strided(b.shape, b.strides, dtype=_torch_dtype(b.dtype),
                                   device=torch.device("cuda", self._device))

    def __call__(self, *tensors, stream=None, **named):
        """Enqueues the launch sequence on `stream` (default: torch's current
        stream). Tensors bind buffers by position (the order of
        `self.arguments`: manifest order, constants left out) or name."""
        if self._handle is None:
            raise TileOptError("the artifact is closed")
        bound = self._bind(tensors, named)
        if stream is None:
            import torch
            stream = torch.cuda.current_stream(self._device)
        # One address per buffer of self.buffers: 0 in the constants' slots,
        # as tileopt_artifact_launch takes them.
        self.launch([0 if t is None else t.data_ptr() for t in bound], stream.cuda_stream)

    def launch(self, pointers, stream):
        """Enqueues the launch sequence on the CUDA stream handle `stream`
        (an int) with one device address per buffer of `self.buffers` (0
        for the constants), unchecked: for callers that checked the tensors
        themselves."""
        if len(pointers) != len(self.buffers):
            raise TileOptError(f"got {len(pointers)} addresses for "
                               f"{len(self.buffers)} buffers")
        self._pointers[:] = pointers
        self.launcher(self._pointers)(stream)

    def launcher(self, pointers):
        """The launch as a function of the stream handle, for callers that
        launch often (tileopt.CompiledGraph): `pointers`, a ctypes array of
        one c_uint64 per buffer of `self.buffers` (0 for the constants), is
        read on each launch, so the caller writes each call's addresses
        into it in place; nothing is checked but the runtime's status."""
        if self._handle is None:
            raise TileOptError("the artifact is closed")
        if len(pointers) != len(self.buffers):
            raise TileOptError(f"got {len(pointers)} addresses for "
                               f"{len(self.buffers)} buffers")
        lib, count, launch = self._lib, len(pointers), self._lib.tileopt_artifact_launch

        def run(stream):
            # self._handle, not a copy: a closed artifact is a null handle,
            # which the runtime refuses.
            status = launch(self._handle, pointers, count, stream)
            if status != _OK:
                _check(lib, status)
        return run

    def _buffer(self, name):
        for b in self.buffers:
            if b.name == name:
                return b
        raise TileOptError(f"the artifact has no buffer {name!r} "
                           f"(it has {', '.join(b.name for b in self.buffers)})")

    def _bind(self, tensors, named):
        """One tensor per buffer of self.buffers, None for the constants."""
        if len(tensors) > len(self.arguments):
            constants = [b.name for b in self.buffers if b.role == "constant"]
            raise TileOptError(
                f"got {len(tensors)} tensors, the artifact takes "
                f"{len(self.arguments)} buffers"
                + (f" (it holds its constants {', '.join(constants)} itself)"
                   if constants else ""))
        by_name = dict(zip((b.name for b in self.arguments), tensors))
        for name, tensor in named.items():
            if self._buffer(name).role == "constant":
                raise TileOptError(f"buffer {name!r} is a constant: the artifact "
                                   "holds its values, do not pass it")
            if name in by_name:
                raise TileOptError(f"buffer {name!r} given twice")
            by_name[name] = tensor
        bound = []
        for b in self.buffers:
            if b.role == "constant":
                bound.append(None)
                continue
            tensor = by_name.get(b.name)
            if tensor is None and b.role == "scratch":
                tensor = self._scratch.get(b.name)
                if tensor is None:
                    tensor = self._scratch[b.name] = self.empty(b.name)
            if tensor is None:
                raise TileOptError(f"no tensor for {b.role} buffer {b.name!r}")
            self._check_tensor(b, tensor)
            bound.append(tensor)
        return bound

    def _check_tensor(self, b, tensor):
        what = f"buffer {b.name!r}"
        if not tensor.is_cuda or tensor.device.index != self._device:
            raise TileOptError(f"{what}: expected a tensor on cuda:{self._device}, "
                               f"got one on {tensor.device}")
        if tensor.dtype != _torch_dtype(b.dtype):
            raise TileOptError(f"{what}: expected dtype {b.dtype} "
                               f"({_torch_dtype(b.dtype)}), got {tensor.dtype}")
        if tuple(tensor.shape) != b.shape:
            raise TileOptError(f"{what}: expected shape {list(b.shape)}, "
                               f"got {list(tensor.shape)}")
        # The stride of a dim of size 1 never moves an address.
        if any(n > 1 and s != want
               for n, s, want in zip(b.shape, tensor.stride(), b.strides)):
            raise TileOptError(f"{what}: expected strides {list(b.strides)} "
                               f"(elements), got {list(tensor.stride())}; "
                               "use .contiguous() or the artifact's layout")
