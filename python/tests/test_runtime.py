"""The ctypes binding's error paths, which need no GPU (and no torch).

Run: TILEOPT_RUNTIME_LIB=build/lib/libtileopt_runtime.so \
     PYTHONPATH=python python3 -m unittest discover -s python/tests
(ctest runs it so.)
"""

import json
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


if __name__ == "__main__":
    unittest.main()
