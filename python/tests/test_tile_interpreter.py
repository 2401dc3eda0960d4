"""The tile interpreter against NumPy on the tile examples, at ragged sizes.

Each program of examples/tile/ (and bench/tile/checks/ragged.mlir) is
rewritten textually to small sizes that the tiles do not divide (37 rows, 21
or 23 columns), run with `tileopt-interp --domain=f64` on seeded random
inputs, and its outputs are compared with the same computation in NumPy
float64. Blocks past the edge load padding and store nothing, so a wrong
bounds check or tile offset shows up as a mismatch (or as the NaN the
interpreter starts outputs with). Each comparison also has a near miss that
must be rejected.

Run: TILEOPT_BUILD_DIR=build python3 -m pytest -q python/tests
"""
from pathlib import Path

import numpy as np
import pytest

# `interpret` runs tileopt-interp in f64 on a file and an inputs file; for a
# tile program it runs the host function and returns its outputs.
from test_interpreter_examples import interpret

ROOT = Path(__file__).resolve().parents[2]
RTOL = 1e-12


def rewrite(path, replacements):
    text = (ROOT / path).read_text()
    for old, new in replacements:
        assert old in text, f"{path}: `{old}` not found"
        text = text.replace(old, new)
    return text


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# name -> (program, input shapes, reference, near miss, input range). Row
# kernels keep one block per row and a tile as wide as the row; the others
# get ragged edges in both dims.
EXAMPLES = {
    "softmax": (
        rewrite("examples/tile/softmax.mlir",
                [("8192x8192", "37x64"), ("8192", "64"), ("grid [64, 1, 1]", "grid [37, 1, 1]")]),
        [(37, 64)],
        lambda x: softmax(x),
        lambda x: np.exp(x) / np.exp(x).sum(axis=1, keepdims=True) * 1.0001,
    ),
    "rms_norm": (
        rewrite("examples/tile/rms_norm.mlir",
                [("8192x8192", "37x64"), ("8192", "64"), ("grid [64, 1, 1]", "grid [37, 1, 1]"),
                 ("1.220703125E-4", "1.5625E-2")]),
        [(37, 64)],
        lambda x: x / np.sqrt(np.mean(x * x, axis=1, keepdims=True) + np.float32(1e-6)),
        lambda x: x / np.sqrt(np.mean(x * x, axis=1, keepdims=True)),
    ),
    "elementwise": (
        rewrite("examples/tile/elementwise.mlir",
                [("8192x8192", "37x21"), ("?x8192", "?x21"), ("4x1024", "4x8"),
                 ("grid [2048, 8, 1]", "grid [10, 3, 1]")]),
        [(37, 21), (37, 21)],
        lambda a, b: a / (1 + np.exp(-a)) * b,
        lambda a, b: a / (1 + np.exp(-b)) * a,
    ),
    "gemm": (
        rewrite("examples/tile/gemm.mlir",
                [("4096x4096", "23x23"), ("128x128", "8x8"), ("128x32", "8x4"),
                 ("32x128", "4x8"), ("constant 128 : index", "constant 6 : index"),
                 ("grid [32, 32, 1]", "grid [3, 3, 1]")]),
        [(23, 23), (23, 23)],
        lambda a, b: a @ b,
        lambda a, b: a[:, :20] @ b[:20, :],
    ),
    "ragged": (
        (ROOT / "bench/tile/checks/ragged.mlir").read_text(),
        [(37, 100)],
        lambda x: x + x.max(axis=1, keepdims=True),
        # Padding with 0 instead of -inf: seen on rows of negative numbers.
        lambda x: x + np.maximum(x.max(axis=1, keepdims=True), 0),
        (-2, -1),
    ),
}


def close(actual, expected):
    scale = np.max(np.abs(expected))
    return not np.isnan(actual).any() and np.max(np.abs(actual - expected)) <= RTOL * scale


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_tile_example_matches_numpy(name):
    program, shapes, reference, near_miss, *value_range = EXAMPLES[name]
    low, high = value_range[0] if value_range else (-1, 1)
    rng = np.random.default_rng(7)
    inputs = [rng.uniform(low, high, shape) for shape in shapes]
    (output,) = interpret(program, inputs)
    expected = reference(*inputs)
    assert output.shape == expected.shape
    assert close(output, expected), f"max error {np.max(np.abs(output - expected))}"
    assert not close(output, near_miss(*inputs)), "the comparison cannot tell a near miss"
