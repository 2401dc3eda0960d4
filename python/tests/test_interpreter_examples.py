"""The float64 interpreter against NumPy on every linalg example.

For each program of examples/linalg/: import it with
`tileopt-opt --tileopt-import-linalg` (nothing of linalg may be left), run the
kernel graph with `tileopt-interp --domain=f64` on seeded random inputs, and
compare the outputs with a float64 NumPy evaluation of the same program,
written here from what the program computes (BENCHMARKS.md), not from the IR.
So a wrong import, a wrong interpreter operator or a wrong reference shows up
as a mismatch.

Each example runs twice: with its dims rewritten to small odd sizes (no
power of two anywhere, so tiling/remainder assumptions cannot hide), and at
the benchmark shapes where that takes seconds (FULL_SIZE_EXAMPLES).

Run: TILEOPT_BUILD_DIR=build python3 -m pytest -q python/tests
(ctest runs it so, as `python-tests`.)
"""

import functools
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

from tileopt.tools import format_tensors, parse_tensors, tool

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES_DIR = ROOT / "examples" / "linalg"

# Tight: both sides compute in float64 and differ only in summation order.
# Relative to the largest output magnitude, since an element that cancels to
# near zero has no meaningful relative error of its own.
RTOL = 1e-10

# ---------------------------------------------------------------------------
# The programs, in NumPy (float64)
# ---------------------------------------------------------------------------

# The programs write eps as an f16 literal; the interpreter rounds constants
# to the element type (docs/interpreter.md), so the program means f16(1e-5).
EPS = float(np.float16(1e-5))


def rms_norm(x, axis=-1):
    return x / np.sqrt(np.mean(x * x, axis=axis, keepdims=True) + EPS)


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def silu(x):
    return x / (1.0 + np.exp(-x))


REFERENCES = {
    "rmsnorm_linear": lambda x, w: rms_norm(x) @ w,
    "gated_mlp": lambda x, w1, w2: silu(x @ w1) * (x @ w2),
    "lora": lambda x, w, a, b: x @ w + (x @ a) @ b,
    "gqa_decode": lambda q, k, v: softmax(q @ k) @ v,
    # QK-norm: each query and each key normalized over the head dim, Q's
    # last dim and K's dim -2 (K is stored as K^T: heads, head dim, keys).
    "qknorm_attention": lambda q, k, v:
        softmax(rms_norm(q) @ rms_norm(k, axis=-2)) @ v,
    "ntrans": lambda x, y, w: rms_norm(x + rms_norm(y @ w)),
    # Per head h: K_h = C @ Wk_h, V_h = C @ Wv_h (C broadcast over heads).
    "mla_decode": lambda q, c, wk, wv:
        softmax(q @ np.swapaxes(c @ wk, -1, -2)) @ (c @ wv),
}

# Plausible mistakes, each close to the right program: the comparison must
# reject every one (so the tolerance is tight enough to catch, e.g., a
# missing eps).
WRONG_REFERENCES = {
    "rmsnorm_linear": lambda x, w:
        (x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True))) @ w,
    "gated_mlp": lambda x, w1, w2: silu(x @ w2) * (x @ w1),
    "lora": lambda x, w, a, b: x @ w,
    "gqa_decode": lambda q, k, v: np.exp(q @ k) @ v / q.shape[-2],
    # K normalised over the wrong dim: its keys (the last dim of K^T).
    "qknorm_attention": lambda q, k, v: softmax(rms_norm(q) @ rms_norm(k)) @ v,
    "ntrans": lambda x, y, w: rms_norm(x + y @ w),
    "mla_decode": lambda q, c, wk, wv:
        softmax(q @ np.swapaxes(c @ wk, -1, -2)) @ (c @ wk),
}

# The examples at b=8 (NAME_b8.mlir) compute the same functions on 8 times
# the rows or heads.
for table in (REFERENCES, WRONG_REFERENCES):
    table.update({f"{name}_b8": f for name, f in list(table.items())})

EXAMPLES = sorted(REFERENCES)

# Examples whose benchmark-shape run takes a few seconds: inputs of ~1M
# values. The others have 16-25M-value weights (too slow to print and parse),
# or, for mla_decode, 8.6G multiply-adds in the literal projections (~35 s).
FULL_SIZE_EXAMPLES = ["gqa_decode", "lora", "qknorm_attention"]

# ---------------------------------------------------------------------------
# Odd sizes
# ---------------------------------------------------------------------------

# Every benchmark dim > 1 to a distinct small odd size (1 stays: decode's
# single query row).
ODD_SIZES = {4096: 37, 6144: 53, 512: 23, 256: 19, 128: 11, 64: 13,
             16: 5, 8: 7, 2: 3}
# The sizes the examples reduce over; they also appear as constants (the n of
# a mean written `sum / n` or `sum * (1/n)`), which must follow the dim. Other
# constants (pow's 2.0, silu's 1.0) are not sizes and must not be touched.
REDUCED_SIZES = (4096, 64)

TENSOR_TYPE = re.compile(r"tensor<((?:\d+x)+)(\w+)>")
F16_CONSTANT = re.compile(r"(arith\.constant )([-+0-9.eE]+)( : f16)")


def with_odd_sizes(program):
    """`program` with every tensor dim and mean constant rewritten by
    ODD_SIZES: a textual substitution, as a user would resize it."""
    def resize_type(m):
        dims = [str(ODD_SIZES.get(int(d), int(d))) for d in m.group(1)[:-1].split("x")]
        return f"tensor<{'x'.join(dims)}x{m.group(2)}>"

    def resize_constant(m):
        value = float(m.group(2))
        for n in REDUCED_SIZES:
            if value == n:
                return f"{m.group(1)}{ODD_SIZES[n]}.0{m.group(3)}"
            if value == 1.0 / n:
                # 1/n rounded to f16 by the parser: the importer takes an
                # f16-rounded 1/n as an exact mean (docs/import.md).
                return f"{m.group(1)}{1.0 / ODD_SIZES[n]!r}{m.group(3)}"
        return m.group(0)

    return F16_CONSTANT.sub(resize_constant, TENSOR_TYPE.sub(resize_type, program))


# ---------------------------------------------------------------------------
# The tools and their text format
# ---------------------------------------------------------------------------


def run_tool(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{args[0]} failed:\n{result.stderr}"
    return result


def import_linalg(program):
    """The kernel graph of a linalg program: the importer must take all of it
    (no warning, no linalg left)."""
    result = run_tool([tool("tileopt-opt"), "--tileopt-import-linalg"], input=program)
    assert result.stderr == "", f"the importer warned:\n{result.stderr}"
    assert "linalg." not in result.stdout, result.stdout
    return result.stdout


def argument_shapes(graph):
    """The shapes of the function's arguments, from its signature."""
    signature = re.search(r"func\.func @\w+\(([^)]*)\)", graph).group(1)
    return [tuple(int(d) for d in m.group(1)[:-1].split("x"))
            for m in TENSOR_TYPE.finditer(signature)]


def interpret(graph, inputs):
    """The float64 interpreter's outputs of `graph` on `inputs`."""
    with tempfile.TemporaryDirectory() as tmp:
        graph_file, inputs_file = Path(tmp, "graph.mlir"), Path(tmp, "inputs.txt")
        graph_file.write_text(graph)
        inputs_file.write_text(format_tensors(inputs))
        result = run_tool([tool("tileopt-interp"), str(graph_file), "--domain=f64",
                           f"--inputs={inputs_file}", "--precision=17"])
    return parse_tensors(result.stdout)


@functools.lru_cache(maxsize=None)
def interpreted_example(name, odd):
    """(inputs, outputs) of example `name`, at odd sizes or as written; cached
    so the wrong-reference checks reuse the interpreter's run."""
    program = (EXAMPLES_DIR / f"{name}.mlir").read_text()
    if odd:
        program = with_odd_sizes(program)
    graph = import_linalg(program)
    shapes = argument_shapes(graph)
    if odd:
        assert all(d % 2 == 1 for s in shapes for d in s), shapes
    # A seed per example, so each sees different data but runs reproduce.
    rng = np.random.default_rng(EXAMPLES.index(name))
    inputs = [rng.uniform(-1.0, 1.0, shape) for shape in shapes]
    return inputs, interpret(graph, inputs)


def assert_close(actual, expected):
    assert actual.shape == expected.shape
    scale = np.max(np.abs(expected))
    np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=RTOL * scale)


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


def test_every_example_has_a_reference():
    on_disk = sorted(p.stem for p in EXAMPLES_DIR.glob("*.mlir"))
    assert on_disk and on_disk == EXAMPLES == sorted(WRONG_REFERENCES)


@pytest.mark.parametrize("name", EXAMPLES)
def test_odd_sizes_match_numpy(name):
    inputs, (output,) = interpreted_example(name, odd=True)
    assert_close(output, REFERENCES[name](*inputs))


@pytest.mark.parametrize("name", FULL_SIZE_EXAMPLES)
def test_benchmark_sizes_match_numpy(name):
    inputs, (output,) = interpreted_example(name, odd=False)
    assert_close(output, REFERENCES[name](*inputs))


@pytest.mark.parametrize("name", EXAMPLES)
def test_wrong_reference_is_rejected(name):
    inputs, (output,) = interpreted_example(name, odd=True)
    with pytest.raises(AssertionError):
        assert_close(output, WRONG_REFERENCES[name](*inputs))
