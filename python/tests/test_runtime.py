"""The ctypes binding's error paths, which need no GPU (and no torch), and,
over the runtime's stand-in driver (runtime/tests/fake-driver, whose device
memory is host memory), how it binds and launches an artifact with a
constant buffer.

Run: TILEOPT_RUNTIME_LIB=build/lib/libtileopt_runtime.so \
     PYTHONPATH=python python3 -m unittest discover -s python/tests
and, for the stand-in driver's tests, with TILEOPT_FAKE_DRIVER=1 and
LD_LIBRARY_PATH=build/runtime/tests/fake-driver too. (ctest runs both.)
"""

import ctypes
import json
import os
import struct
import tempfile
import unittest
from pathlib import Path

from tileopt.runtime import Artifact, NoDeviceError, TileOptError

MANIFEST = {
    "format": "tileopt-artifact", "version": 1,
    "source_hash": "0" * 64,
    "target": {"arch": "sm_90"},
    "buffers": [{"name": "y", "role": "output", "dtype": "f32",
                 "shape": [4], "strides": [1]}],
    "kernels": [{"name": "fill", "cubin": "fill.cubin", "symbol": "fill",
                 "block": [4, 1, 1], "shared_memory": {"static": 0, "dynamic": 0},
                 "params": ["ptr"]}],
    "launches": [{"kernel": 0, "grid": [1, 1, 1], "args": [{"buffer": 0}]}],
}


class ArtifactErrors(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def test_missing_manifest(self):
        with self.assertRaisesRegex(TileOptError, r"cannot read .*manifest.json"):
            Artifact(self.path)

    def test_invalid_manifest_names_the_field(self):
        manifest = dict(MANIFEST, launches=[{"kernel": 0, "grid": [1, 1, 1], "args": []}])
        (self.path / "manifest.json").write_text(json.dumps(manifest))
        with self.assertRaisesRegex(
                TileOptError, r'launches\[0\]\.args: kernel "fill" takes 1 params '
                              r"but the launch gives 0 args"):
            Artifact(self.path)

    def test_no_gpu(self):
        (self.path / "manifest.json").write_text(json.dumps(MANIFEST))
        (self.path / "fill.cubin").write_bytes(b"not a cubin")
        try:
            Artifact(self.path)
        except NoDeviceError as e:
            self.assertIn("no CUDA driver or GPU found", str(e))
        except TileOptError:
            self.skipTest("a GPU is present (the fake cubin was rejected)")

    def test_short_constant_file_names_file_and_buffer(self):
        manifest = dict(MANIFEST, buffers=[
            {"name": "w", "role": "constant", "dtype": "f32", "shape": [4],
             "strides": [1], "data": {"file": "w.bin", "offset": 16, "bytes": 16}},
            *MANIFEST["buffers"]],
            launches=[{"kernel": 0, "grid": [1, 1, 1], "args": [{"buffer": 1}]}])
        (self.path / "manifest.json").write_text(json.dumps(manifest))
        (self.path / "fill.cubin").write_bytes(b"not a cubin")
        (self.path / "w.bin").write_bytes(b"\0" * 20)
        with self.assertRaisesRegex(
                TileOptError, r'buffers\[0\]\.data: ".*w\.bin" holds 20 bytes, too few '
                              r'for constant buffer "w" \(bytes 16 to 32\)'):
            Artifact(self.path)


# y = x + w (the stand-in driver's add_f32), w a constant at byte 16 of
# constants.bin.
ADD_MANIFEST = {
    "format": "tileopt-artifact", "version": 1,
    "source_hash": "0" * 64,
    "target": {"arch": "sm_90"},
    "buffers": [
        {"name": "x", "role": "input", "dtype": "f32", "shape": [4], "strides": [1]},
        {"name": "w", "role": "constant", "dtype": "f32", "shape": [4], "strides": [1],
         "data": {"file": "constants.bin", "offset": 16, "bytes": 16}},
        {"name": "y", "role": "output", "dtype": "f32", "shape": [4], "strides": [1]}],
    "kernels": [{"name": "add", "cubin": "add.cubin", "symbol": "add_f32",
                 "block": [4, 1, 1], "shared_memory": {"static": 0, "dynamic": 0},
                 "params": ["ptr", "ptr", "ptr", "i64"]}],
    "launches": [{"kernel": 0, "grid": [1, 1, 1], "args": [
        {"buffer": 0}, {"buffer": 1}, {"buffer": 2}, {"i64": 4}]}],
}
W = [0.5, -1.0, 2.25, 8.0]


class HostTensor:
    """Four f32 in host memory, the stand-in driver's device memory: what
    the binding needs of a tensor to launch (data_ptr)."""

    def __init__(self, values=(0.0, 0.0, 0.0, 0.0)):
        self.array = (ctypes.c_float * 4)(*values)

    def data_ptr(self):
        return ctypes.addressof(self.array)


class HostArtifact(Artifact):
    # The torch checks of a tensor's device, dtype and layout: no torch here.
    def _check_tensor(self, b, tensor):
        pass


class DefaultStream:
    cuda_stream = 0


@unittest.skipUnless(os.environ.get("TILEOPT_FAKE_DRIVER"),
                     "needs the stand-in driver (TILEOPT_FAKE_DRIVER=1, LD_LIBRARY_PATH)")
class ConstantBuffers(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        path = Path(self.dir.name)
        (path / "manifest.json").write_text(json.dumps(ADD_MANIFEST))
        (path / "add.cubin").write_bytes(b"\x7fELF")
        (path / "constants.bin").write_bytes(b"\xff" * 16 + struct.pack("<4f", *W))
        self.artifact = HostArtifact(path)

    def tearDown(self):
        self.artifact.close()
        self.dir.cleanup()

    def test_constants_are_listed_but_not_arguments(self):
        self.assertEqual([(b.name, b.role) for b in self.artifact.buffers],
                         [("x", "input"), ("w", "constant"), ("y", "output")])
        self.assertEqual([b.name for b in self.artifact.arguments], ["x", "y"])
        self.assertEqual(self.artifact.buffers[1].size_bytes, 16)

    def test_positional_binding_skips_constants(self):
        x, y = HostTensor([1, 2, 3, 4]), HostTensor()
        self.artifact(x, y, stream=DefaultStream())
        self.assertEqual(list(y.array), [a + b for a, b in zip([1, 2, 3, 4], W)])

    def test_named_binding(self):
        x, y = HostTensor([-1, 0, 1, 0.5]), HostTensor()
        self.artifact(y=y, x=x, stream=DefaultStream())
        self.assertEqual(list(y.array), [a + b for a, b in zip([-1, 0, 1, 0.5], W)])

    def test_a_constant_is_never_passed(self):
        x, y, w = HostTensor(), HostTensor(), HostTensor()
        with self.assertRaisesRegex(TileOptError, r"buffer 'w' is a constant: the "
                                                   r"artifact holds its values"):
            self.artifact(x=x, y=y, w=w, stream=DefaultStream())
        with self.assertRaisesRegex(TileOptError, r"got 3 tensors, the artifact takes 2 "
                                                   r"buffers \(it holds its constants w"):
            self.artifact(x, w, y, stream=DefaultStream())


if __name__ == "__main__":
    unittest.main()
