"""The graph builder (tileopt.graph): the MLIR it writes, which tileopt-opt
must parse and verify, and the errors it raises at build time, each naming
the op. Needs the tools (TILEOPT_BUILD_DIR), not torch."""

import re
import subprocess

import pytest

import tileopt as mi
from tileopt.compiler import find_tool


def parses(mlir):
    """tileopt-opt parses and verifies `mlir`; returns its generic print."""
    run = subprocess.run([find_tool("tileopt-opt"), "-", "--mlir-print-op-generic"],
                         input=mlir, capture_output=True, text=True)
    assert run.returncode == 0, f"tileopt-opt rejected:\n{mlir}\n{run.stderr}"
    return run.stdout


def attention_graph():
    """REFERENCES.md's Mirage attention example."""
    graph = mi.new_kernel_graph()
    Q = graph.new_input(dims=(64, 1, 128), dtype=mi.float16)
    K = graph.new_input(dims=(64, 128, 4096), dtype=mi.float16)
    V = graph.new_input(dims=(64, 4096, 128), dtype=mi.float16)
    A = graph.matmul(Q, K)
    S = graph.softmax(A)
    O = graph.matmul(S, V)
    return graph, O


def ops_of(mlir):
    return re.findall(r"= (tk\.\w+(?: \w+)?)", mlir)


def test_attention_emits_the_softmax_decomposition():
    graph, O = attention_graph()
    assert O.dims == (64, 1, 128) and O.dtype == mi.float16
    mlir = graph.to_mlir()
    parses(mlir)
    assert ops_of(mlir) == ["tk.matmul", "tk.reduce max", "tk.binary sub", "tk.unary exp",
                            "tk.reduce sum", "tk.binary div", "tk.matmul"]
    # Unmarked: the output is the one result nothing reads.
    assert "return %t6 : tensor<64x1x128xf16>" in mlir
    assert "%in0: tensor<64x1x128xf16>" in mlir


def test_every_op_parses_and_verifies():
    g = mi.new_kernel_graph("every_op")
    x = g.new_input((4, 8, 16), mi.float32, name="x")
    w = g.new_input((16,), mi.float32, name="w")
    m = g.new_input((16, 8), mi.float32, name="m")
    y = x
    for op in ("exp", "silu", "gelu", "relu", "sigmoid", "sqrt", "rsqrt", "square", "neg"):
        y = getattr(g, op)(y)
    y = g.add(g.sub(g.mul(g.div(y, w), 2.0), 1.5), x)
    y = g.div(3.0, g.sub(1.0, g.add(0.5, g.mul(0.25, y))))
    y = g.pow(g.pow(y, 3.0), w)
    y = g.rms_norm(g.layer_norm(y, w, w, eps=1e-3), w, eps=1e-6)
    y = g.softmax(g.mean(g.max(g.sum(y, 1), 0), 2, keepdim=False), dim=0)
    z = g.matmul(g.reshape(g.transpose(x, 0, 2), (-1, 8)), g.permute(m, (1, 0)))
    g.mark_output(g.cast(y, mi.bfloat16))
    g.mark_output(z)
    generic = parses(g.to_mlir())
    for op in ("tk.unary", "tk.binary", "tk.map", "tk.matmul", "tk.reduce", "tk.rms_norm",
               "tk.reshape", "tk.transpose"):
        assert f'"{op}"' in generic, op
    assert y.dims == (1, 1) and z.dims == (64, 16)


def test_scalars_and_special_powers_use_tk_kinds():
    g = mi.new_kernel_graph()
    x = g.new_input((8, 8), mi.float16)
    ys = [g.sub(x, 2.0), g.div(x, 4), g.sub(1.0, x), g.pow(x, 2), g.pow(x, 0.5),
          g.pow(x, -0.5)]
    for y in ys:
        g.mark_output(y)
    mlir = g.to_mlir()
    parses(mlir)
    assert "add_scalar(-2.0) %in0" in mlir
    assert "mul_scalar(0.25) %in0" in mlir
    assert re.search(r"%(t\d+) = tk.unary neg %in0.*\n.*add_scalar\(1.0\) %\1", mlir)
    assert ops_of(mlir)[-3:] == ["tk.unary square", "tk.unary sqrt", "tk.unary rsqrt"]
    assert "tk.map" not in mlir


def test_batched_lhs_times_a_matrix_is_one_product():
    g = mi.new_kernel_graph()
    x = g.new_input((2, 3, 16), mi.float16)
    w = g.new_input((16, 32), mi.float16)
    y = g.matmul(x, w)
    assert y.dims == (2, 3, 32)
    mlir = g.to_mlir()
    parses(mlir)
    assert "tk.matmul %t0, %in1 : tensor<6x16xf16>, tensor<16x32xf16> -> tensor<6x32xf16>" in mlir


def test_ops_carry_the_python_line_that_built_them():
    g = mi.new_kernel_graph()
    x = g.new_input((4, 4), mi.float32)
    line = test_ops_carry_the_python_line_that_built_them.__code__.co_firstlineno + 4
    g.exp(x)
    assert f'tk.unary exp %in0 : tensor<4x4xf32> loc("{__file__}":{line}:0)' in g.to_mlir()


def test_unused_ops_are_left_out():
    g = mi.new_kernel_graph()
    x = g.new_input((4, 4), mi.float32)
    g.exp(x)
    g.mark_output(g.relu(x))
    assert ops_of(g.to_mlir()) == ["tk.unary relu"]


@pytest.mark.parametrize("build, message", [
    (lambda g, a, b, h: g.matmul(a, a),
     r"matmul: the inner dims differ: lhs \[4, 8\] has K = 8, rhs \[4, 8\] has K = 4"),
    (lambda g, a, b, h: g.add(a, b), r"add: shapes \[4, 8\] and \[8, 4\] do not broadcast"),
    (lambda g, a, b, h: g.mul(a, h), "mul: the operands have dtypes tileopt.float32 and "
                                     "tileopt.float16"),
    (lambda g, a, b, h: g.sum(a, 2), r"sum: dim 2 is out of range for dims \[4, 8\]"),
    (lambda g, a, b, h: g.softmax(a, dim=-3), "softmax: dim -3 is out of range"),
    (lambda g, a, b, h: g.reshape(a, (3, 11)), r"reshape: \[4, 8\] has 32 elements, "
                                                r"\[3, 11\] has 33"),
    (lambda g, a, b, h: g.reshape(a, (-1, 5)), "reshape: .* cannot take the shape"),
    (lambda g, a, b, h: g.permute(a, (0, 0)), "permute: .* is not a permutation"),
    (lambda g, a, b, h: g.rms_norm(a, b), r"rms_norm: the weight must have dims \[8\]"),
    (lambda g, a, b, h: g.layer_norm(a, None, h), "layer_norm: the operands have dtypes"),
    (lambda g, a, b, h: g.mul_scalar(a, float("nan")), "mul_scalar: the scalar nan is not"),
    (lambda g, a, b, h: g.add_scalar(a, 1e39), "add_scalar: the scalar 1e.39 is not a finite"),
    (lambda g, a, b, h: g.div(a, 0), "div: division by the constant 0"),
    (lambda g, a, b, h: g.exp(3.0), "exp: expected a DTensor of this graph, got 3.0"),
    (lambda g, a, b, h: g.exp(mi.new_kernel_graph().new_input((2,), mi.float32)),
     "exp: .* belongs to another graph"),
    (lambda g, a, b, h: g.matmul(g.reshape(a, (32,)), b), "matmul: the lhs has dims"),
    (lambda g, a, b, h: g.cast(a, "f16"), "cast: dtype must be one of"),
    (lambda g, a, b, h: g.mark_output(a), "mark_output: an input cannot be an output"),
    (lambda g, a, b, h: g.new_input((4, 0)), "new_input: dims must be a non-empty tuple"),
    (lambda g, a, b, h: g.new_input((4,), dtype="float16"), "new_input: dtype must be"),
    (lambda g, a, b, h: g.new_input((4,), name="out0"), "new_input: 'out0' cannot name"),
    (lambda g, a, b, h: g.new_input((4,), name="a"), "new_input: an input is already named"),
])
def test_bad_operands_name_the_op(build, message):
    g = mi.new_kernel_graph()
    a = g.new_input((4, 8), mi.float32, name="a")
    b = g.new_input((8, 4), mi.float32, name="b")
    h = g.new_input((8,), mi.float16, name="h")
    with pytest.raises(mi.GraphError, match=message):
        build(g, a, b, h)


def test_an_output_is_marked_once():
    g = mi.new_kernel_graph()
    y = g.exp(g.new_input((4,), mi.float32))
    g.mark_output(y)
    with pytest.raises(mi.GraphError, match="mark_output: .* is already an output"):
        g.mark_output(y)


def test_a_graph_without_ops_has_nothing_to_return():
    g = mi.new_kernel_graph()
    g.new_input((4,), mi.float32)
    with pytest.raises(mi.GraphError, match="the graph computes nothing"):
        g.to_mlir()


def test_graph_names_are_mlir_symbols():
    with pytest.raises(mi.GraphError, match="new_kernel_graph: '1x' is not a valid"):
        mi.new_kernel_graph("1x")
