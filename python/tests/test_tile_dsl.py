"""tileopt.tile, the Python tile DSL: what it traces, that the tools take
it, what it computes, and where its errors point.

- The traced IR of softmax, checked with FileCheck (the CHECK lines below),
  and parsed and verified by `tileopt-opt`.
- softmax, rms_norm and the GEMM of tileopt.kernels compiled to artifacts
  (cubins) at benchmark sizes with `tileopt-compile`.
- The same kernels at ragged sizes run by the tile interpreter (float64)
  against NumPy, each with a near miss the comparison must reject.
- tile.range: loop-carried values, values that may not leave the loop.
- Errors: tracing errors and the code generator's diagnostics name the
  user's Python line.

Run: TILEOPT_BUILD_DIR=build python3 -m pytest -q python/tests/test_tile_dsl.py
"""

import inspect
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tileopt import kernels, tile, tools

LLVM_TOOLS = Path(os.environ.get("TILEOPT_LLVM_TOOLS_DIR", "/usr/lib/llvm-22/bin"))
RTOL = 1e-12

SOFTMAX_CHECKS = """
CHECK-LABEL: tile.kernel @softmax(%x: !tile.view<37x100xbf16>, %y: !tile.view<37x100xbf16>)
CHECK-DAG:  %[[ONE:.*]] = arith.constant dense<1.0> : tensor<4x1xf32> loc("{file}":{line_p}:
CHECK-DAG:  %[[C0:.*]] = arith.constant 0 : index
CHECK:      %[[I:.*]] = tile.block_id x loc("{file}":{line_i}:
CHECK-NEXT: %[[T:.*]] = tile.load %x[%[[I]], %[[C0]]] padding neg_inf : !tile.view<37x100xbf16> -> tensor<4x128xbf16>
CHECK-NEXT: %[[F:.*]] = arith.extf %[[T]] : tensor<4x128xbf16> to tensor<4x128xf32>
CHECK-NEXT: %[[M:.*]] = tile.reduce max %[[F]] dim 1 : tensor<4x128xf32> -> tensor<4xf32>
CHECK-NEXT: %[[M1:.*]] = tile.reshape %[[M]] : tensor<4xf32> -> tensor<4x1xf32>
CHECK-NEXT: %[[MB:.*]] = tile.broadcast %[[M1]] : tensor<4x1xf32> -> tensor<4x128xf32>
CHECK-NEXT: %[[D:.*]] = arith.subf %[[F]], %[[MB]] : tensor<4x128xf32>
CHECK-NEXT: %[[E:.*]] = math.exp %[[D]] : tensor<4x128xf32>
CHECK-NEXT: %[[S:.*]] = tile.reduce sum %[[E]] dim 1 : tensor<4x128xf32> -> tensor<4xf32>
CHECK-NEXT: %[[S1:.*]] = tile.reshape %[[S]] : tensor<4xf32> -> tensor<4x1xf32>
CHECK-NEXT: %[[INV:.*]] = arith.divf %[[ONE]], %[[S1]] : tensor<4x1xf32>
CHECK-NEXT: %[[IB:.*]] = tile.broadcast %[[INV]] : tensor<4x1xf32> -> tensor<4x128xf32>
CHECK-NEXT: %[[P:.*]] = arith.mulf %[[E]], %[[IB]] : tensor<4x128xf32>
CHECK-NEXT: %[[O:.*]] = arith.truncf %[[P]] : tensor<4x128xf32> to tensor<4x128xbf16>
CHECK-NEXT: tile.store %[[O]], %y[%[[I]], %[[C0]]] : tensor<4x128xbf16>, !tile.view<37x100xbf16>
CHECK-NEXT: tile.return
CHECK:      func.func @main(%x: memref<37x100xbf16> {{tileopt.name = "x"}}, %y: memref<37x100xbf16> {{tileopt.name = "y", tileopt.output}})
CHECK-NEXT: tile.launch @softmax grid [10, 1, 1] (%x, %y) : memref<37x100xbf16>, memref<37x100xbf16>
"""


def _line_of(fn, text):
    """The line of `fn`'s source file that holds `text` within `fn`."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def run_filecheck(text, checks, tmp_path):
    check_file = tmp_path / "checks.txt"
    check_file.write_text(checks)
    return subprocess.run([str(LLVM_TOOLS / "FileCheck"), str(check_file)], input=text,
                          capture_output=True, text=True)


def softmax_checks():
    fn = kernels.softmax.fn
    return SOFTMAX_CHECKS.format(file=fn.__code__.co_filename,
                                 line_i=_line_of(fn, "tile.bid(0)"),
                                 line_p=_line_of(fn, "p = e * "))


def test_softmax_ir(tmp_path):
    text = kernels.softmax_program((37, 100), "bf16", rows_per_block=4).mlir()
    result = run_filecheck(text, softmax_checks(), tmp_path)
    assert result.returncode == 0, result.stderr + text
    tools.run("tileopt-opt", ["--verify-diagnostics", "-"], input=text)


def test_softmax_ir_checks_can_fail(tmp_path):
    """The checks reject the IR of a kernel that differs by one op (sum and
    max swapped)."""
    text = kernels.softmax_program((37, 100), "bf16", rows_per_block=4).mlir()
    wrong = text.replace("tile.reduce max", "tile.reduce MAX").replace(
        "tile.reduce sum", "tile.reduce max").replace("tile.reduce MAX", "tile.reduce sum")
    assert run_filecheck(wrong, softmax_checks(), tmp_path).returncode != 0


# name -> Program at benchmark size (BENCHMARKS.md-like shapes, examples/tile's).
BENCHMARK_PROGRAMS = {
    "softmax": lambda: kernels.softmax_program((8192, 8192), "bf16"),
    "rms_norm": lambda: kernels.rms_norm_program((8192, 8192), "bf16"),
    "gemm": lambda: kernels.gemm_program(4096, 4096, 4096),
}


@pytest.mark.parametrize("name", sorted(BENCHMARK_PROGRAMS))
def test_compiles_to_an_artifact(name, tmp_path):
    artifact = BENCHMARK_PROGRAMS[name]().compile(tmp_path / f"{name}.art")
    assert (artifact / "kernels.cubin").stat().st_size > 0
    manifest = json.loads((artifact / "manifest.json").read_text())
    assert [k["symbol"] for k in manifest["kernels"]] == [name]


def softmax_ref(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def rms_norm_ref(x, w, eps=float(np.float32(1e-6))):
    return x / np.sqrt(np.mean(x * x, axis=1, keepdims=True) + eps) * w


# name -> (program, input shapes, reference, near miss). Ragged: 37 rows in
# blocks of 4 or 2, rows of 100 in tiles of 128; a 23 x 21 x 37 GEMM in
# 8 x 8 x 16 tiles.
NUMERIC = {
    "softmax": (lambda: kernels.softmax_program((37, 100), "bf16", rows_per_block=4),
                [(37, 100)], softmax_ref,
                lambda x: np.exp(x) / np.exp(x).sum(axis=1, keepdims=True) * 1.0001),
    "rms_norm": (lambda: kernels.rms_norm_program((37, 100), "f32", rows_per_block=2),
                 [(37, 100), (100,)], rms_norm_ref,
                 lambda x, w: x / np.sqrt(np.mean(x * x, axis=1, keepdims=True)) * w),
    "gemm": (lambda: kernels.gemm_program(23, 21, 37, tiles=(8, 8, 16)),
             [(23, 37), (37, 21)], lambda a, b: a @ b,
             lambda a, b: a[:, :32] @ b[:32, :]),
    # Two heads of 32 positions, query tiles of 16 and key tiles of 8; the
    # near misses: the other masking.
    "attention": (lambda: kernels.attention_program(1, 2, 32, 16, tiles=(16, 8)),
                  [(64, 16)] * 3, lambda q, k, v: attention_ref(q, k, v, False),
                  lambda q, k, v: attention_ref(q, k, v, True)),
    "attention_causal": (lambda: kernels.attention_program(1, 2, 32, 16, True, tiles=(16, 8)),
                         [(64, 16)] * 3, lambda q, k, v: attention_ref(q, k, v, True),
                         lambda q, k, v: attention_ref(q, k, v, False)),
}


def attention_ref(q, k, v, causal, seq=32):
    """softmax(q k^T / sqrt(d)) v per head of `seq` rows of the (heads *
    seq, d) arrays."""
    out = []
    for h in range(0, q.shape[0], seq):
        s = q[h:h + seq] @ k[h:h + seq].T / np.sqrt(q.shape[1])
        if causal:
            s = np.where(np.tril(np.ones((seq, seq), bool)), s, -np.inf)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        out.append(e / e.sum(axis=1, keepdims=True) @ v[h:h + seq])
    return np.concatenate(out)


# Attention's scale, log2(e) / sqrt(d), is an f32 constant of the kernel:
# exact to 6e-8 only.
RTOL_OF = {"attention": 1e-6, "attention_causal": 1e-6}


def close(actual, expected, rtol=RTOL):
    scale = np.max(np.abs(expected))
    return not np.isnan(actual).any() and np.max(np.abs(actual - expected)) <= rtol * scale


@pytest.mark.parametrize("name", sorted(NUMERIC))
def test_interpreter_matches_numpy(name):
    program, shapes, reference, near_miss = NUMERIC[name]
    rng = np.random.default_rng(3)
    inputs = [rng.uniform(-3, 3, s) for s in shapes]
    [output] = program().interpret(*inputs).values()
    expected = reference(*inputs)
    assert output.shape == expected.shape
    rtol = RTOL_OF.get(name, RTOL)
    assert close(output, expected, rtol), f"max error {np.max(np.abs(output - expected))}"
    assert not close(output, near_miss(*inputs), rtol), "the comparison cannot tell a near miss"


# ---------------------------------------------------------------------------
# tile.range
# ---------------------------------------------------------------------------


@tile.kernel
def running_sums(x, y, S: tile.constexpr):
    """Row i of y: the sum of x's first i + 1 row tiles of S columns, and a
    counter carried beside it (an Index)."""
    total = tile.zeros((1, S), tile.float32)
    row = tile.bid(0) * 0
    for k in tile.range(x.shape[0]):
        total = total + tile.load(x, (k, 0), (1, S))
        tile.store(y, (row, 0), total)
        row = row + 1


def test_range_carries_values():
    x = np.random.default_rng(0).uniform(-1, 1, (5, 8))
    program = running_sums.trace((1,), x.astype(np.float32), x.astype(np.float32), 8)
    text = program.mlir()
    assert "iter_args(" in text and "-> (tensor<1x8xf32>, index)" in text, text
    y = program.interpret(x)["y"]
    np.testing.assert_allclose(y, np.cumsum(x, axis=0), rtol=1e-12)


def test_range_cumsum_and_where():
    """tile.cumsum and tile.where on a row with a mask from tile.arange."""
    @tile.kernel
    def masked_cumsum(x, y, N: tile.constexpr):
        t = tile.load(x, (0, 0), (1, N))
        keep = tile.arange(N)[None, :] < 5
        tile.store(y, (0, 0), tile.where(keep, tile.cumsum(t, 1), 0.0))

    x = np.arange(1.0, 9.0).reshape(1, 8)
    y = masked_cumsum.trace((1,), x, x, 8).interpret(x)["y"]
    np.testing.assert_array_equal(y, [[1, 3, 6, 10, 15, 0, 0, 0]])


def raises_at(fn_line_text, match):
    """pytest.raises for a TileError whose location is this file's line
    holding `fn_line_text`."""
    return _LocatedRaises(fn_line_text, match)


class _LocatedRaises:
    def __init__(self, line_text, match):
        self.line_text, self.match = line_text, match

    def __enter__(self):
        self.raises = pytest.raises(tile.TileError, match=self.match)
        self.info = self.raises.__enter__()
        return self.info

    def __exit__(self, *exc):
        suppressed = self.raises.__exit__(*exc)
        error = self.info.value
        source = Path(__file__).read_text().splitlines()
        assert error.location.file == __file__
        assert self.line_text in source[error.location.line - 1], str(error)
        assert str(error).startswith(f"{__file__}:{error.location.line}: ")
        return suppressed


F32_8 = tile.array((8, 8), tile.float32)


def test_value_from_inside_a_loop_is_refused_after_it():
    @tile.kernel
    def leak(x, y):
        for k in tile.range(2):
            t = tile.load(x, (k, 0), (4, 8))
        tile.store(y, (0, 0), t)  # LEAK

    with raises_at("# LEAK", "computed inside the tile.range loop"):
        leak.trace((1,), F32_8, F32_8)


def test_python_number_carried_is_refused():
    @tile.kernel
    def number(x, y):
        total = 0.0
        for k in tile.range(2):  # NUMBER
            total = total + tile.load(x, (k, 0), (4, 8))
        tile.store(y, (0, 0), total)

    with raises_at("# NUMBER", "`total` is the Python float 0.0 before this loop"):
        number.trace((1,), F32_8, F32_8)


def test_aliased_carried_value_is_refused():
    @tile.kernel
    def alias(x, y):
        acc = tile.zeros((4, 8), tile.float32)
        init = acc
        for k in tile.range(2):  # ALIAS
            acc = acc + init
        tile.store(y, (0, 0), acc)

    with raises_at("# ALIAS", "`acc` changes in this loop and `init` held the same value"):
        alias.trace((1,), F32_8, F32_8)


def test_break_is_refused():
    @tile.kernel
    def early(x, y):
        for k in tile.range(2):  # BREAK
            tile.store(y, (k, 0), tile.load(x, (k, 0), (4, 8)))
            break

    with raises_at("# BREAK", "left early"):
        early.trace((1,), F32_8, F32_8)


# ---------------------------------------------------------------------------
# Errors name the user's line
# ---------------------------------------------------------------------------


def test_mixed_types_error_names_the_line():
    @tile.kernel
    def mixed(x, y):
        t = tile.load(x, (0, 0), (8, 8))
        tile.store(y, (0, 0), t + t.astype(tile.bfloat16))  # MIXED

    with raises_at("# MIXED", "convert one with astype"):
        mixed.trace((1,), F32_8, F32_8)


def test_non_power_of_two_tile_error_names_the_line():
    @tile.kernel
    def odd(x, y):
        tile.store(y, (0, 0), tile.load(x, (0, 0), (8, 6)))  # ODD

    with raises_at("# ODD", r"tile shape \(8, 6\) is not made of powers of two"):
        odd.trace((1,), F32_8, F32_8)


def test_control_flow_on_a_tile_error_names_the_line():
    @tile.kernel
    def branch(x, y):
        t = tile.load(x, (0, 0), (8, 8))
        if t.sum(1, keepdims=True) > 0:  # BRANCH
            tile.store(y, (0, 0), t)

    with raises_at("# BRANCH", "use tile.where"):
        branch.trace((1,), F32_8, F32_8)


def test_code_generator_error_names_the_line(tmp_path):
    """The code generator reduces the last dim only; its diagnostic carries
    the location of the Python call."""
    @tile.kernel
    def column_sums(x, y):
        t = tile.load(x, (0, 0), (8, 8))
        tile.store(y, (0, 0), tile.sum(t, 0, keepdims=True))  # COLUMNS

    program = column_sums.trace((1,), F32_8, tile.array((1, 8), tile.float32))
    with pytest.raises(tools.ToolError) as info:
        program.compile(tmp_path / "columns.art")
    line = _line_of(test_code_generator_error_names_the_line, "# COLUMNS")
    assert f"{__file__}:{line}:" in str(info.value), str(info.value)
    assert "reduces the last dim only" in str(info.value)
    assert not (tmp_path / "columns.art").exists()


def test_kernel_hints_reach_the_ir():
    @tile.kernel(occupancy=2, num_ctas=1)
    def copy(x, y):
        tile.store(y, (0, 0), tile.load(x, (0, 0), (8, 8), latency=2, allow_tma=True))

    text = copy.trace((1,), F32_8, F32_8).mlir()
    assert "attributes {occupancy = 2 : i32, num_ctas = 1 : i32}" in text, text
    assert "latency 2 allow_tma" in text, text
    tools.run("tileopt-opt", ["-"], input=text)


@tile.kernel
def nested_sums(x, y, leak: tile.constexpr):
    """y = the sum of x's 4 x 8 tiles over a 2 x 2 grid of them, by two
    nested loops; with `leak`, a value of the inner loop is stored after
    the outer one."""
    total = tile.zeros((4, 8), tile.float32)
    for i in tile.range(2):
        row = tile.zeros((4, 8), tile.float32)
        for j in tile.range(2):
            row = row + tile.load(x, (i, j), (4, 8))
        total = total + row
    tile.store(y, (0, 0), row if leak else total)  # NESTED


def test_nested_ranges():
    x = np.random.default_rng(1).uniform(-1, 1, (8, 16))
    out = nested_sums.trace((1,), x.astype(np.float32), tile.array((4, 8), "f32"), False)
    expected = x.reshape(2, 4, 2, 8).sum(axis=(0, 2))
    np.testing.assert_allclose(out.interpret(x)["y"], expected, rtol=1e-12)
    with raises_at("# NESTED", "computed inside the tile.range loop"):
        nested_sums.trace((1,), x.astype(np.float32), tile.array((4, 8), "f32"), True)


def test_carried_zeros_stay_apart_from_equal_constants():
    """A loop carrying a zero tile replaces that tile in its body, and no
    other zero tile (each constant is a value of its own)."""
    @tile.kernel
    def clamp_sums(x, y):
        acc = tile.zeros((4, 8), tile.float32)
        for k in tile.range(2):
            acc = acc + tile.maximum(tile.load(x, (k, 0), (4, 8)), tile.zeros((4, 8), tile.float32))
        tile.store(y, (0, 0), acc)

    x = np.random.default_rng(2).uniform(-1, 1, (8, 8))
    out = clamp_sums.trace((1,), x.astype(np.float32), tile.array((4, 8), "f32")).interpret(x)
    np.testing.assert_allclose(out["y"], np.maximum(x[:4], 0) + np.maximum(x[4:], 0), rtol=1e-12)
