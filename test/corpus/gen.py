#!/usr/bin/env python3
"""Writes the TOSA corpus: programs as ONNX/TF/torch front ends emit them.

    test/corpus/gen.py                      # rewrite test/corpus/programs/*.mlir
    test/corpus/gen.py --check              # fail if a committed file is stale
    test/corpus/gen.py --size=full -o DIR   # the BENCHMARKS.md workloads at
                                            # benchmark shapes, b=1 and b=8

Each program is a Python function over a dict of dims that builds one
`func.func` with the small `Fn` builder below. The builder only spells TOSA
(MLIR 22 syntax) and infers result types; the ops, their order and their
constants are the program's. Where a front end would write a rank-3 batched
`tosa.matmul` with batch 1 and reshapes around it, so does the program.

A header comment gives the program's meaning and, where uniform(-1, 1) does
not suit an argument, the distribution its inputs are drawn from:

    // input %x: uniform(-8, 8)
    // input %mask: choice(0, 1)

(read by reference.py), and where the default comparison tolerance of
check.py (2e-2 with f16/bf16, else 1e-4) does not suit, its own:

    // tolerance: 5e-2 The test size keeps every dim <= 128 so that one
upstream CPU run takes well under a second; it uses odd sizes on purpose
(1 row, 6 rows, primes 7, 13, 37).
"""

import argparse
import math
import os
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
PROGRAMS_DIR = HERE / "programs"

# ---------------------------------------------------------------------------
# A tiny TOSA text builder
# ---------------------------------------------------------------------------


class Val:
    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, tuple(shape), dtype

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype)


def tensor_type(shape, dtype):
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"


def fmt_float(value, dtype):
    """A literal that parses back to exactly the value rounded to dtype."""
    if dtype == "f16":
        v = float(np.float16(value))
    elif dtype == "f32" or dtype == "bf16":
        v = float(np.float32(value))
    else:
        v = float(value)
    if math.isinf(v):
        raise ValueError("use the largest finite value, as front ends do")
    # The exact value if it is short (1/64 = 0.015625), else numpy's repr,
    # the shortest text that rounds back to the same value (1e-05 in f16).
    np_type = {"f16": np.float16, "f32": np.float32}.get(dtype)
    s = repr(v)
    if np_type and len(s) > 12:
        s = repr(np_type(v)).split("(")[-1].rstrip(")")
    mantissa, e, exponent = s.partition("e")
    if "." not in mantissa:  # MLIR wants a '.' in a float literal: 1.0e-06
        mantissa += ".0"
    return mantissa + e + exponent


def fmt_elem(value, dtype):
    if dtype == "i1":
        return "true" if value else "false"
    if dtype.startswith("i"):
        return str(int(value))
    return fmt_float(value, dtype)


def dense(values, shape, dtype):
    a = np.asarray(values)
    if a.size == 1:
        return f"dense<{fmt_elem(a.reshape(-1)[0], dtype)}>"

    def nest(x):
        if x.ndim == 0:
            return fmt_elem(x.item(), dtype)
        return "[" + ", ".join(nest(y) for y in x) + "]"

    return "dense<" + nest(a.reshape(shape)) + ">"


def broadcast(*shapes):
    ranks = {len(s) for s in shapes}
    assert len(ranks) == 1, f"TOSA broadcasts only equal ranks: {shapes}"
    out = []
    for dims in zip(*shapes):
        big = {d for d in dims if d != 1}
        assert len(big) <= 1, f"cannot broadcast {shapes}"
        out.append(big.pop() if big else 1)
    return tuple(out)


class Fn:
    """One func.func: arguments, a list of op lines, results."""

    def __init__(self, name, doc, inputs=None, tolerance=None):
        self.name, self.doc = name, doc.strip()
        self.input_specs = inputs or {}
        self.tolerance = tolerance
        self.args, self.lines, self.used = [], [], set()
        self.shifts, self.zero_points = None, {}

    def fresh(self, base):
        name, i = base, 0
        while name in self.used:
            i += 1
            name = f"{base}_{i}"
        self.used.add(name)
        return name

    def emit(self, base, text, shape, dtype):
        v = Val(self.fresh(base), shape, dtype)
        self.lines.append(f"  %{v.name} = {text}")
        return v

    # arguments and constants ------------------------------------------------

    def arg(self, name, shape, dtype="f32"):
        v = Val(self.fresh(name), shape, dtype)
        self.args.append(v)
        return v

    def const(self, name, values, shape, dtype="f32"):
        t = tensor_type(shape, dtype)
        return self.emit(name, f'"tosa.const"() <{{values = {dense(values, shape, dtype)} : {t}}}> : () -> {t}',
                         shape, dtype)

    def scalar(self, name, value, rank, dtype="f32"):
        """A constant of shape 1x...x1, as front ends write a scalar operand."""
        return self.const(name, value, (1,) * rank, dtype)

    def shape_const(self, dims, name="shape"):
        n = len(dims)
        t = f"!tosa.shape<{n}>"
        vals = ", ".join(str(d) for d in dims)
        return self.emit(name, f"tosa.const_shape {{values = dense<[{vals}]> : tensor<{n}xindex>}} : () -> {t}",
                         (n,), t)

    def zero_point(self, dtype):
        if dtype not in self.zero_points:
            self.zero_points[dtype] = self.const(f"zp_{dtype}", 0.0, (1,), dtype)
        return self.zero_points[dtype]

    def shift(self):
        if self.shifts is None:
            self.shifts = self.const("shift", 0, (1,), "i8")
        return self.shifts

    # ops ----------------------------------------------------------------------

    def binary(self, op, a, b, name, out_dtype=None):
        shape = broadcast(a.shape, b.shape)
        dtype = out_dtype or a.dtype
        return self.emit(name, f"tosa.{op} %{a.name}, %{b.name} : ({a.type}, {b.type}) -> {tensor_type(shape, dtype)}",
                         shape, dtype)

    def add(self, a, b, name="add"):
        return self.binary("add", a, b, name)

    def sub(self, a, b, name="sub"):
        return self.binary("sub", a, b, name)

    def maximum(self, a, b, name="max"):
        return self.binary("maximum", a, b, name)

    def pow(self, a, b, name="pow"):
        return self.binary("pow", a, b, name)

    def greater(self, a, b, name="gt"):
        return self.binary("greater", a, b, name, "i1")

    def equal(self, a, b, name="eq"):
        return self.binary("equal", a, b, name, "i1")

    def mul(self, a, b, name="mul"):
        shape = broadcast(a.shape, b.shape)
        s = self.shift()
        return self.emit(name, f"tosa.mul %{a.name}, %{b.name}, %{s.name} : ({a.type}, {b.type}, {s.type}) -> "
                               f"{tensor_type(shape, a.dtype)}", shape, a.dtype)

    def mul_const(self, x, value, name="scaled", const_name="c"):
        return self.mul(x, self.scalar(const_name, value, len(x.shape), x.dtype), name)

    def add_const(self, x, value, name="add", const_name="c"):
        return self.add(x, self.scalar(const_name, value, len(x.shape), x.dtype), name)

    def unary(self, op, x, name, out_dtype=None):
        dtype = out_dtype or x.dtype
        return self.emit(name, f"tosa.{op} %{x.name} : ({x.type}) -> {tensor_type(x.shape, dtype)}", x.shape, dtype)

    def exp(self, x, name="exp"):
        return self.unary("exp", x, name)

    def log(self, x, name="log"):
        return self.unary("log", x, name)

    def rsqrt(self, x, name="rsqrt"):
        return self.unary("rsqrt", x, name)

    def reciprocal(self, x, name="recip"):
        return self.unary("reciprocal", x, name)

    def sigmoid(self, x, name="sigmoid"):
        return self.unary("sigmoid", x, name)

    def tanh(self, x, name="tanh"):
        return self.unary("tanh", x, name)

    def erf(self, x, name="erf"):
        return self.unary("erf", x, name)

    def cast(self, x, dtype, name="cast"):
        return self.unary("cast", x, name, dtype)

    def negate(self, x, name="neg"):
        zp = self.zero_point(x.dtype)
        return self.emit(name, f"tosa.negate %{x.name}, %{zp.name}, %{zp.name} : ({x.type}, {zp.type}, {zp.type}) -> "
                               f"{x.type}", x.shape, x.dtype)

    def clamp(self, x, lo, hi, name="clamp"):
        return self.emit(name, f"tosa.clamp %{x.name} {{min_val = {fmt_float(lo, x.dtype)} : {x.dtype}, "
                               f"max_val = {fmt_float(hi, x.dtype)} : {x.dtype}}} : ({x.type}) -> {x.type}",
                         x.shape, x.dtype)

    def select(self, cond, a, b, name="select"):
        shape = broadcast(cond.shape, a.shape, b.shape)
        return self.emit(name, f"tosa.select %{cond.name}, %{a.name}, %{b.name} : ({cond.type}, {a.type}, {b.type}) "
                               f"-> {tensor_type(shape, a.dtype)}", shape, a.dtype)

    def reduce(self, op, x, axis, name):
        axis %= len(x.shape)
        shape = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
        return self.emit(name, f"tosa.{op} %{x.name} {{axis = {axis} : i32}} : ({x.type}) -> "
                               f"{tensor_type(shape, x.dtype)}", shape, x.dtype)

    def reduce_sum(self, x, axis=-1, name="sum"):
        return self.reduce("reduce_sum", x, axis, name)

    def reduce_max(self, x, axis=-1, name="rowmax"):
        return self.reduce("reduce_max", x, axis, name)

    def matmul(self, a, b, name="mm", out_dtype=None):
        (n, h, c), (n2, c2, w) = a.shape, b.shape
        assert n == n2 and c == c2, (a.shape, b.shape)
        zp = self.zero_point(a.dtype)
        dtype = out_dtype or a.dtype
        return self.emit(name, f"tosa.matmul %{a.name}, %{b.name}, %{zp.name}, %{zp.name} : "
                               f"({a.type}, {b.type}, {zp.type}, {zp.type}) -> {tensor_type((n, h, w), dtype)}",
                         (n, h, w), dtype)

    def reshape(self, x, shape, name="reshape"):
        assert math.prod(shape) == math.prod(x.shape), (x.shape, shape)
        s = self.shape_const(shape)
        return self.emit(name, f"tosa.reshape %{x.name}, %{s.name} : ({x.type}, {s.dtype}) -> "
                               f"{tensor_type(shape, x.dtype)}", shape, x.dtype)

    def transpose(self, x, perms, name="transpose"):
        shape = tuple(x.shape[p] for p in perms)
        p = ", ".join(str(i) for i in perms)
        return self.emit(name, f"tosa.transpose %{x.name} {{perms = array<i32: {p}>}} : ({x.type}) -> "
                               f"{tensor_type(shape, x.dtype)}", shape, x.dtype)

    def slice(self, x, start, size, name="slice"):
        s0, s1 = self.shape_const(start, "start"), self.shape_const(size, "size")
        return self.emit(name, f"tosa.slice %{x.name}, %{s0.name}, %{s1.name} : ({x.type}, {s0.dtype}, {s1.dtype}) "
                               f"-> {tensor_type(size, x.dtype)}", size, x.dtype)

    def concat(self, xs, axis, name="concat"):
        axis %= len(xs[0].shape)
        shape = list(xs[0].shape)
        shape[axis] = sum(x.shape[axis] for x in xs)
        names = ", ".join(f"%{x.name}" for x in xs)
        types = ", ".join(x.type for x in xs)
        return self.emit(name, f"tosa.concat {names} {{axis = {axis} : i32}} : ({types}) -> "
                               f"{tensor_type(shape, xs[0].dtype)}", shape, xs[0].dtype)

    def tile(self, x, multiples, name="tiled"):
        m = self.shape_const(multiples, "multiples")
        shape = tuple(d * k for d, k in zip(x.shape, multiples))
        return self.emit(name, f"tosa.tile %{x.name}, %{m.name} : ({x.type}, {m.dtype}) -> "
                               f"{tensor_type(shape, x.dtype)}", shape, x.dtype)

    def conv2d(self, x, w, b, pad, stride=(1, 1), name="conv"):
        """NHWC input, OHWI weight (tosa.conv2d), pad (top, bottom, left,
        right)."""
        (n, h, wd, c), (o, kh, kw, c2) = x.shape, w.shape
        assert c == c2, (x.shape, w.shape)
        oh = (h + pad[0] + pad[1] - kh) // stride[0] + 1
        ow = (wd + pad[2] + pad[3] - kw) // stride[1] + 1
        zp = self.zero_point(x.dtype)
        shape = (n, oh, ow, o)
        attrs = (f"acc_type = {x.dtype}, dilation = array<i64: 1, 1>, "
                 f"pad = array<i64: {', '.join(str(p) for p in pad)}>, "
                 f"stride = array<i64: {stride[0]}, {stride[1]}>")
        return self.emit(name, f"tosa.conv2d %{x.name}, %{w.name}, %{b.name}, %{zp.name}, %{zp.name} {{{attrs}}} : "
                               f"({x.type}, {w.type}, {b.type}, {zp.type}, {zp.type}) -> {tensor_type(shape, x.dtype)}",
                         shape, x.dtype)

    def depthwise_conv2d(self, x, w, b, pad, name="dwconv"):
        """NHWC input, HWCM weight (tosa.depthwise_conv2d), stride 1."""
        (n, h, wd, c), (kh, kw, c2, m) = x.shape, w.shape
        assert c == c2, (x.shape, w.shape)
        shape = (n, h + pad[0] + pad[1] - kh + 1, wd + pad[2] + pad[3] - kw + 1, c * m)
        zp = self.zero_point(x.dtype)
        attrs = (f"acc_type = {x.dtype}, dilation = array<i64: 1, 1>, "
                 f"pad = array<i64: {', '.join(str(p) for p in pad)}>, stride = array<i64: 1, 1>")
        return self.emit(name, f"tosa.depthwise_conv2d %{x.name}, %{w.name}, %{b.name}, %{zp.name}, %{zp.name} "
                               f"{{{attrs}}} : ({x.type}, {w.type}, {b.type}, {zp.type}, {zp.type}) -> "
                               f"{tensor_type(shape, x.dtype)}", shape, x.dtype)

    def pool2d(self, op, x, kernel, stride, pad, name="pool"):
        """tosa.max_pool2d / tosa.avg_pool2d over NHWC."""
        n, h, w, c = x.shape
        shape = (n, (h + pad[0] + pad[1] - kernel[0]) // stride[0] + 1,
                 (w + pad[2] + pad[3] - kernel[1]) // stride[1] + 1, c)
        attrs = (f"kernel = array<i64: {kernel[0]}, {kernel[1]}>, "
                 f"pad = array<i64: {', '.join(str(p) for p in pad)}>, "
                 f"stride = array<i64: {stride[0]}, {stride[1]}>")
        if op == "avg_pool2d":
            zp = self.zero_point(x.dtype)
            return self.emit(name, f"tosa.avg_pool2d %{x.name}, %{zp.name}, %{zp.name} {{acc_type = {x.dtype}, "
                                   f"{attrs}}} : ({x.type}, {zp.type}, {zp.type}) -> {tensor_type(shape, x.dtype)}",
                             shape, x.dtype)
        return self.emit(name, f"tosa.max_pool2d %{x.name} {{{attrs}}} : ({x.type}) -> {tensor_type(shape, x.dtype)}",
                         shape, x.dtype)

    def pad(self, x, padding, value, name="padded"):
        """tosa.pad: padding (before, after) per dim, a constant value."""
        p = self.shape_const([q for pair in padding for q in pair], "padding")
        v = self.const(f"{name}_value", value, (1,), x.dtype)
        shape = tuple(d + a + b for d, (a, b) in zip(x.shape, padding))
        return self.emit(name, f"tosa.pad %{x.name}, %{p.name}, %{v.name} : ({x.type}, {p.dtype}, {v.type}) -> "
                               f"{tensor_type(shape, x.dtype)}", shape, x.dtype)

    # front-end idioms ----------------------------------------------------------

    def linear(self, x, w, name="linear", out_dtype=None):
        """x (M, K) @ w (K, N) as torch-mlir/ONNX emit it: reshape to rank 3
        (batch 1), tosa.matmul, reshape back."""
        (m, k), (k2, n) = x.shape, w.shape
        x3 = self.reshape(x, (1, m, k), f"{name}_lhs")
        w3 = self.reshape(w, (1, k2, n), f"{name}_rhs")
        y3 = self.matmul(x3, w3, f"{name}_mm", out_dtype)
        return self.reshape(y3, (m, n), name)

    def linear_t(self, x, w, name="linear"):
        """nn.Linear: x @ w^T with w stored (N, K)."""
        return self.linear(x, self.transpose(w, (1, 0), f"{name}_wt"), name)

    def mean(self, x, axis=-1, name="mean"):
        """reduce_sum times the constant 1/n (TF, ONNX ReduceMean)."""
        n = x.shape[axis % len(x.shape)]
        s = self.reduce_sum(x, axis, f"{name}_sum")
        return self.mul_const(s, 1.0 / n, name, "inv_n")

    def rms_norm(self, x, eps, axis=-1, name="rms"):
        sq = self.mul(x, x, f"{name}_sq")
        ms = self.mean(sq, axis, f"{name}_ms")
        r = self.rsqrt(self.add_const(ms, eps, f"{name}_ms_eps", "eps"), f"{name}_inv")
        return self.mul(x, r, name)

    def silu(self, x, name="silu"):
        return self.mul(x, self.sigmoid(x, f"{name}_sig"), name)

    def softmax(self, x, axis=-1, name="softmax"):
        """Stable softmax as torch-mlir writes it: max, sub, exp, sum,
        reciprocal, mul."""
        m = self.reduce_max(x, axis, f"{name}_max")
        e = self.exp(self.sub(x, m, f"{name}_shifted"), f"{name}_exp")
        s = self.reduce_sum(e, axis, f"{name}_sum")
        return self.mul(e, self.reciprocal(s, f"{name}_inv"), name)

    # text ------------------------------------------------------------------------

    def text(self, results):
        out = [f"// {line}".rstrip() for line in self.doc.splitlines()]
        for arg, spec in self.input_specs.items():
            out.append(f"// input %{arg}: {spec}")
        if self.tolerance:
            out.append(f"// tolerance: {self.tolerance}")
        args = ", ".join(f"%{a.name}: {a.type}" for a in self.args)
        rtypes = ", ".join(r.type for r in results)
        if len(results) > 1:
            rtypes = f"({rtypes})"
        out.append(f"func.func @{self.name}({args}) -> {rtypes} {{")
        out += self.lines
        out.append(f"  return {', '.join('%' + r.name for r in results)} : {', '.join(r.type for r in results)}")
        out.append("}")
        return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# The programs. Each takes its dims and returns the text of one file.
# ---------------------------------------------------------------------------

PROGRAMS = {}   # name -> (builder, {size name: dims})
BENCH = {}      # name -> {"b1": dims, "b8": dims}: BENCHMARKS.md shapes


def program(test_dims, bench=None):
    def register(fn):
        PROGRAMS[fn.__name__] = (fn, test_dims)
        if bench:
            BENCH[fn.__name__] = bench
        return fn
    return register


# --- The BENCHMARKS.md workloads (fp16, as in the benchmark) -------------------

def _bench(**shapes_by_b):
    return {f"b{b}": dims for b, dims in shapes_by_b.items()}


@program(dict(M=6, K=64, N=37),
         _bench(**{"1": dict(M=2, K=4096, N=6144), "8": dict(M=16, K=4096, N=6144)}))
def rmsnorm_linear(d):
    f = Fn("rmsnorm_linear", f"""
rmsnorm_linear (BENCHMARKS.md): rms_norm(X) @ W, fp16, no norm weight.
X ({d['M']}, {d['K']}), W ({d['K']}, {d['N']}); eps 1e-5 in fp16.""")
    x = f.arg("x", (d["M"], d["K"]), "f16")
    w = f.arg("w", (d["K"], d["N"]), "f16")
    return f.text([f.linear(f.rms_norm(x, 1e-5, name="x_norm"), w, "out")])


@program(dict(M=7, K=64, N=48),
         _bench(**{"1": dict(M=8, K=4096, N=4096), "8": dict(M=64, K=4096, N=4096)}))
def gated_mlp(d):
    f = Fn("gated_mlp", f"""
gated_mlp (BENCHMARKS.md): silu(X @ W1) * (X @ W2), fp16, silu as
x * sigmoid(x). X ({d['M']}, {d['K']}), W1, W2 ({d['K']}, {d['N']}).""")
    x = f.arg("x", (d["M"], d["K"]), "f16")
    w1 = f.arg("w1", (d["K"], d["N"]), "f16")
    w2 = f.arg("w2", (d["K"], d["N"]), "f16")
    gate = f.silu(f.linear(x, w1, "gate_proj"), "gate")
    up = f.linear(x, w2, "up")
    return f.text([f.mul(gate, up, "out")])


@program(dict(M=13, K=64, N=96, R=8),
         _bench(**{"1": dict(M=16, K=256, N=4096, R=16), "8": dict(M=128, K=256, N=4096, R=16)}))
def lora(d):
    f = Fn("lora", f"""
lora (BENCHMARKS.md): X @ W + (X @ A) @ B, fp16.
X ({d['M']}, {d['K']}), W ({d['K']}, {d['N']}), A ({d['K']}, {d['R']}), B ({d['R']}, {d['N']}).""")
    x = f.arg("x", (d["M"], d["K"]), "f16")
    w = f.arg("w", (d["K"], d["N"]), "f16")
    a = f.arg("lora_a", (d["K"], d["R"]), "f16")
    b = f.arg("lora_b", (d["R"], d["N"]), "f16")
    base = f.linear(x, w, "base")
    low = f.linear(f.linear(x, a, "xa"), b, "delta")
    return f.text([f.add(base, low, "out")])


@program(dict(B=2, Q=7, D=64, S=37),
         _bench(**{"1": dict(B=2, Q=256, D=64, S=4096), "8": dict(B=16, Q=256, D=64, S=4096)}))
def gqa_decode(d):
    f = Fn("gqa_decode", f"""
gqa_decode (BENCHMARKS.md): softmax(Q @ K) @ V, fp16, no scale; K stored
transposed. Q ({d['B']}, {d['Q']}, {d['D']}), K ({d['B']}, {d['D']}, {d['S']}), V ({d['B']}, {d['S']}, {d['D']}).""")
    q = f.arg("q", (d["B"], d["Q"], d["D"]), "f16")
    k = f.arg("k_t", (d["B"], d["D"], d["S"]), "f16")
    v = f.arg("v", (d["B"], d["S"], d["D"]), "f16")
    p = f.softmax(f.matmul(q, k, "scores"), name="probs")
    return f.text([f.matmul(p, v, "out")])


@program(dict(B=2, Q=7, D=64, S=13),
         _bench(**{"1": dict(B=2, Q=256, D=64, S=4096), "8": dict(B=16, Q=256, D=64, S=4096)}))
def qknorm_attention(d):
    f = Fn("qknorm_attention", f"""
qknorm_attention (BENCHMARKS.md): softmax(rms_norm(Q) @ rms_norm(K)) @ V, fp16.
Each query and each key is normalized over the head dim ({d['D']}): Q over its
last dim, K (stored as K^T, ({d['B']}, {d['D']}, {d['S']})) over dim 1.
Q ({d['B']}, {d['Q']}, {d['D']}), V ({d['B']}, {d['S']}, {d['D']}); eps 1e-5.
The scores are not scaled: for unit-RMS rows they reach +-30, where fp16
rounds to 1/32 and exp turns that into a few percent, hence the tolerance.""",
           tolerance="5e-2")
    q = f.arg("q", (d["B"], d["Q"], d["D"]), "f16")
    k = f.arg("k_t", (d["B"], d["D"], d["S"]), "f16")
    v = f.arg("v", (d["B"], d["S"], d["D"]), "f16")
    qn = f.rms_norm(q, 1e-5, axis=2, name="q_norm")
    kn = f.rms_norm(k, 1e-5, axis=1, name="k_norm")
    p = f.softmax(f.matmul(qn, kn, "scores"), name="probs")
    return f.text([f.matmul(p, v, "out")])


@program(dict(M=6, K=64, N=64),
         _bench(**{"1": dict(M=8, K=4096, N=4096), "8": dict(M=64, K=4096, N=4096)}))
def ntrans(d):
    f = Fn("ntrans", f"""
ntrans (BENCHMARKS.md): rms_norm(X + rms_norm(Y @ W)), fp16, eps 1e-5.
X, Y ({d['M']}, {d['K']}), W ({d['K']}, {d['N']}).""")
    x = f.arg("x", (d["M"], d["N"]), "f16")
    y = f.arg("y", (d["M"], d["K"]), "f16")
    w = f.arg("w", (d["K"], d["N"]), "f16")
    inner = f.rms_norm(f.linear(y, w, "yw"), 1e-5, name="yw_norm")
    return f.text([f.rms_norm(f.add(x, inner, "resid"), 1e-5, name="out")])


@program(dict(H=3, B=1, D=16, S=37, L=24),
         _bench(**{"1": dict(H=16, B=1, D=128, S=4096, L=512), "8": dict(H=16, B=8, D=128, S=4096, L=512)}))
def mla_decode(d):
    H, B, D, S, L = d["H"], d["B"], d["D"], d["S"], d["L"]
    f = Fn("mla_decode", f"""
mla_decode (BENCHMARKS.md), literal form: per head h,
softmax(Q_h @ (C @ Wk_h)^T) @ (C @ Wv_h), fp16. The latent cache C is
broadcast over the heads with tosa.tile (torch.matmul's broadcast).
Q ({H}, {B}, {D}), C ({S}, {L}), Wk, Wv ({H}, {L}, {D}).""")
    q = f.arg("q", (H, B, D), "f16")
    c = f.arg("c_kv", (S, L), "f16")
    wk = f.arg("w_k", (H, L, D), "f16")
    wv = f.arg("w_v", (H, L, D), "f16")
    ch = f.tile(f.reshape(c, (1, S, L), "c3"), (H, 1, 1), "c_heads")
    k = f.matmul(ch, wk, "k")
    v = f.matmul(ch, wv, "v")
    s = f.matmul(q, f.transpose(k, (0, 2, 1), "k_t"), "scores")
    return f.text([f.matmul(f.softmax(s, name="probs"), v, "out")])


# --- Norms ------------------------------------------------------------------------

@program(dict(M=6, N=64))
def rmsnorm(d):
    f = Fn("rmsnorm", f"""
RMSNorm with weight and eps (TF/ONNX style, f32): x * rsqrt(mean(x^2) + 1e-6) * w.
x ({d['M']}, {d['N']}), w ({d['N']},) reshaped to (1, {d['N']}) for the broadcast.""")
    x = f.arg("x", (d["M"], d["N"]))
    w = f.arg("weight", (d["N"],))
    y = f.rms_norm(x, 1e-6, name="normed")
    return f.text([f.mul(y, f.reshape(w, (1, d["N"]), "weight2d"), "out")])


@program(dict(M=1, N=37))
def rmsnorm_f16_upcast(d):
    f = Fn("rmsnorm_f16_upcast", f"""
HF LlamaRMSNorm on fp16 activations, one row (decode), prime width:
h = x.to(f32); var = h.pow(2).mean(-1, keepdim); h = h * rsqrt(var + 1e-6);
out = weight * h.to(f16). torch-mlir writes pow(h, 2) and the mean's 1/n as
reciprocal(n) * sum. x ({d['M']}, {d['N']}) f16, weight ({d['N']},) f16.""")
    x = f.arg("hidden", (d["M"], d["N"]), "f16")
    w = f.arg("weight", (d["N"],), "f16")
    h = f.cast(x, "f32", "h")
    sq = f.pow(h, f.scalar("two", 2.0, 2), "h_pow2")
    s = f.reduce_sum(sq, 1, "h_pow2_sum")
    inv_n = f.reciprocal(f.scalar("n", float(d["N"]), 2), "inv_n")
    var = f.mul(s, inv_n, "variance")
    r = f.rsqrt(f.add_const(var, 1e-6, "var_eps", "eps"), "inv_rms")
    hn = f.cast(f.mul(h, r, "h_normed"), "f16", "h_f16")
    return f.text([f.mul(f.reshape(w, (1, d["N"]), "weight2d"), hn, "out")])


@program(dict(M=13, N=37))
def layernorm(d):
    f = Fn("layernorm", f"""
LayerNorm over the last dim with mean, variance, gamma and beta, eps 1e-5,
f32 (torch-mlir: mean as sum * reciprocal(n)). x ({d['M']}, {d['N']}), gamma, beta ({d['N']},).""")
    n = d["N"]
    x = f.arg("x", (d["M"], n))
    g = f.arg("gamma", (n,))
    b = f.arg("beta", (n,))
    inv_n = f.reciprocal(f.scalar("n", float(n), 2), "inv_n")
    mean = f.mul(f.reduce_sum(x, 1, "x_sum"), inv_n, "mean")
    xc = f.sub(x, mean, "centered")
    var = f.mul(f.reduce_sum(f.mul(xc, xc, "centered_sq"), 1, "var_sum"), inv_n, "var")
    r = f.rsqrt(f.add_const(var, 1e-5, "var_eps", "eps"), "inv_std")
    y = f.mul(xc, r, "normed")
    y = f.mul(y, f.reshape(g, (1, n), "gamma2d"), "scaled")
    return f.text([f.add(y, f.reshape(b, (1, n), "beta2d"), "out")])


@program(dict(M=7, N=37))
def l2_normalize(d):
    f = Fn("l2_normalize", f"""
F.normalize(x, p=2, dim=-1, eps=1e-12), f32, as pow/maximum/reciprocal:
x * reciprocal(maximum(pow(sum(pow(x, 2)), 0.5), eps)). x ({d['M']}, {d['N']}).""")
    x = f.arg("x", (d["M"], d["N"]))
    sq = f.pow(x, f.scalar("two", 2.0, 2), "x_sq")
    norm = f.pow(f.reduce_sum(sq, 1, "sum_sq"), f.scalar("half", 0.5, 2), "norm")
    norm = f.maximum(norm, f.scalar("eps", 1e-12, 2), "norm_clamped")
    return f.text([f.mul(x, f.reciprocal(norm, "inv_norm"), "out")])


# --- Activations and MLPs ------------------------------------------------------------

@program(dict(M=13, N=37))
def gelu_erf(d):
    f = Fn("gelu_erf", f"""
GELU, exact (erf) form, f32: 0.5 * x * (1 + erf(x * 1/sqrt(2))). x ({d['M']}, {d['N']}).""")
    x = f.arg("x", (d["M"], d["N"]))
    e = f.erf(f.mul_const(x, 1 / math.sqrt(2), "x_scaled", "inv_sqrt2"), "erf")
    one_plus = f.add_const(e, 1.0, "one_plus", "one")
    return f.text([f.mul(f.mul_const(x, 0.5, "half_x", "half"), one_plus, "out")])


@program(dict(M=7, K=32, N=40))
def geglu_tanh(d):
    f = Fn("geglu_tanh", f"""
GeGLU with the tanh GELU approximation, f32:
gelu_tanh(x @ Wg) * (x @ Wu), gelu_tanh(g) = 0.5 g (1 + tanh(sqrt(2/pi) (g + 0.044715 g^3))).
x ({d['M']}, {d['K']}), Wg, Wu ({d['K']}, {d['N']}).""")
    x = f.arg("x", (d["M"], d["K"]))
    wg = f.arg("w_gate", (d["K"], d["N"]))
    wu = f.arg("w_up", (d["K"], d["N"]))
    g = f.linear(x, wg, "gate")
    g3 = f.mul(f.mul(g, g, "gate_sq"), g, "gate_cube")
    inner = f.add(g, f.mul_const(g3, 0.044715, "gate_cube_c", "c0"), "inner")
    t = f.tanh(f.mul_const(inner, math.sqrt(2 / math.pi), "inner_scaled", "sqrt_2_over_pi"), "t")
    gelu = f.mul(f.mul_const(g, 0.5, "half_gate", "half"), f.add_const(t, 1.0, "one_plus_t", "one"), "gelu")
    return f.text([f.mul(gelu, f.linear(x, wu, "up"), "out")])


@program(dict(M=6, K=48, F=40))
def swiglu_fused(d):
    f = Fn("swiglu_fused", f"""
SwiGLU MLP with a fused gate/up projection (Phi-3 style), f32:
gu = x @ W_gate_up; gate, up = gu[:, :F], gu[:, F:]; out = (silu(gate) * up) @ W_down.
x ({d['M']}, {d['K']}), W_gate_up ({d['K']}, {2 * d['F']}), W_down ({d['F']}, {d['K']}).""")
    M, K, F = d["M"], d["K"], d["F"]
    x = f.arg("x", (M, K))
    wgu = f.arg("w_gate_up", (K, 2 * F))
    wd = f.arg("w_down", (F, K))
    gu = f.linear(x, wgu, "gate_up")
    gate = f.slice(gu, (0, 0), (M, F), "gate")
    up = f.slice(gu, (0, F), (M, F), "up")
    return f.text([f.linear(f.mul(f.silu(gate, "gate_act"), up, "hidden"), wd, "out")])


@program(dict(M=6, E=32, F=48))
def decoder_mlp(d):
    f = Fn("decoder_mlp", f"""
A whole decoder-block MLP (Llama), f32, nn.Linear weights stored (out, in):
h = rms_norm(x) * w_norm; out = x + (silu(h @ Wg^T) * (h @ Wu^T)) @ Wd^T.
x ({d['M']}, {d['E']}), w_norm ({d['E']},), Wg, Wu ({d['F']}, {d['E']}), Wd ({d['E']}, {d['F']}); eps 1e-6.""")
    M, E, F = d["M"], d["E"], d["F"]
    x = f.arg("x", (M, E))
    wn = f.arg("norm_weight", (E,))
    wg = f.arg("w_gate", (F, E))
    wu = f.arg("w_up", (F, E))
    wd = f.arg("w_down", (E, F))
    h = f.mul(f.rms_norm(x, 1e-6, name="x_rms"), f.reshape(wn, (1, E), "norm_weight2d"), "h")
    act = f.mul(f.silu(f.linear_t(h, wg, "gate"), "gate_act"), f.linear_t(h, wu, "up"), "act")
    return f.text([f.add(x, f.linear_t(act, wd, "down"), "out")])


@program(dict(M=1, N=37))
def residual_bias(d):
    f = Fn("residual_bias", f"""
Residual and bias adds around a linear, one row, f32:
out = x + (x @ W + b), b ({d['N']},) broadcast as (1, {d['N']}). x ({d['M']}, {d['N']}), W ({d['N']}, {d['N']}).""")
    x = f.arg("x", (d["M"], d["N"]))
    w = f.arg("w", (d["N"], d["N"]))
    b = f.arg("bias", (d["N"],))
    y = f.add(f.linear(x, w, "xw"), f.reshape(b, (1, d["N"]), "bias2d"), "xw_b")
    return f.text([f.add(x, y, "out")])


@program(dict(M=6, K=64, N=40, R=4))
def lora_scaled(d):
    f = Fn("lora_scaled", f"""
LoRA as PEFT writes it, f32: x @ W + bias + (x @ A) @ B * (alpha / r), alpha/r = 2.
x ({d['M']}, {d['K']}), W ({d['K']}, {d['N']}), bias ({d['N']},), A ({d['K']}, {d['R']}), B ({d['R']}, {d['N']}).""")
    x = f.arg("x", (d["M"], d["K"]))
    w = f.arg("w", (d["K"], d["N"]))
    bias = f.arg("bias", (d["N"],))
    a = f.arg("lora_a", (d["K"], d["R"]))
    b = f.arg("lora_b", (d["R"], d["N"]))
    base = f.add(f.linear(x, w, "base"), f.reshape(bias, (1, d["N"]), "bias2d"), "base_b")
    low = f.mul_const(f.linear(f.linear(x, a, "xa"), b, "xab"), 2.0, "delta", "scaling")
    return f.text([f.add(base, low, "out")])


@program(dict(M=37, N=13))
def relu6_hardswish(d):
    f = Fn("relu6_hardswish", f"""
ReLU6 and hard-swish (MobileNet), f32, via tosa.clamp:
relu6 = clamp(x, 0, 6); hardswish = x * clamp(x + 3, 0, 6) * (1/6). x ({d['M']}, {d['N']}).""",
           inputs={"x": "uniform(-8, 8)"})
    x = f.arg("x", (d["M"], d["N"]))
    relu6 = f.clamp(x, 0.0, 6.0, "relu6")
    gate = f.clamp(f.add_const(x, 3.0, "x_plus_3", "three"), 0.0, 6.0, "gate")
    hs = f.mul_const(f.mul(x, gate, "x_gate"), 1 / 6, "hardswish", "sixth")
    return f.text([relu6, hs])


# --- Softmax family --------------------------------------------------------------

@program(dict(M=13, N=37))
def softmax(d):
    f = Fn("softmax", f"""
Softmax over the last dim, f32: exp(x - max) * reciprocal(sum(exp(x - max))).
x ({d['M']}, {d['N']}), inputs in (-4, 4).""", inputs={"x": "uniform(-4, 4)"})
    x = f.arg("x", (d["M"], d["N"]))
    return f.text([f.softmax(x, name="out")])


@program(dict(M=7, N=37))
def log_softmax(d):
    f = Fn("log_softmax", f"""
Log-softmax over the last dim, f32: (x - max) - log(sum(exp(x - max))). x ({d['M']}, {d['N']}).""",
           inputs={"x": "uniform(-4, 4)"})
    x = f.arg("x", (d["M"], d["N"]))
    m = f.reduce_max(x, 1, "row_max")
    sh = f.sub(x, m, "shifted")
    lse = f.log(f.reduce_sum(f.exp(sh, "e"), 1, "e_sum"), "log_sum")
    return f.text([f.sub(sh, lse, "out")])


@program(dict(M=6, N=37))
def softmax_f16_upcast(d):
    f = Fn("softmax_f16_upcast", f"""
softmax(x, dim=-1, dtype=torch.float32).to(torch.float16) on fp16 x: cast
f16 -> f32, softmax in f32, cast back. x ({d['M']}, {d['N']}).""", inputs={"x": "uniform(-4, 4)"})
    x = f.arg("x", (d["M"], d["N"]), "f16")
    p = f.softmax(f.cast(x, "f32", "x_f32"), name="probs")
    return f.text([f.cast(p, "f16", "out")])


@program(dict(M=6, K=64, N=37))
def linear_bf16_f32acc(d):
    f = Fn("linear_bf16_f32acc", f"""
A bf16 linear layer with f32 accumulation, as TOSA types it (bf16 x bf16 ->
f32 matmul), f32 bias, output cast to bf16.
x ({d['M']}, {d['K']}) bf16, W ({d['K']}, {d['N']}) bf16, bias ({d['N']},) f32.""")
    x = f.arg("x", (d["M"], d["K"]), "bf16")
    w = f.arg("w", (d["K"], d["N"]), "bf16")
    b = f.arg("bias", (d["N"],), "f32")
    y = f.linear(x, w, "xw", out_dtype="f32")
    y = f.add(y, f.reshape(b, (1, d["N"]), "bias2d"), "xw_b")
    return f.text([f.cast(y, "bf16", "out")])


@program(dict(M=6, K=64, N=37))
def linear_f16_f32acc(d):
    f = Fn("linear_f16_f32acc", f"""
An fp16 linear layer accumulating in f32 (f16 x f16 -> f32 tosa.matmul),
GELU-erf in f32, cast to f16 (what torch-mlir emits for an fp16 model with
f32 accumulation). x ({d['M']}, {d['K']}), W ({d['K']}, {d['N']}).""")
    x = f.arg("x", (d["M"], d["K"]), "f16")
    w = f.arg("w", (d["K"], d["N"]), "f16")
    y = f.linear(x, w, "xw", out_dtype="f32")
    e = f.erf(f.mul_const(y, 1 / math.sqrt(2), "y_scaled", "inv_sqrt2"), "erf")
    g = f.mul(f.mul_const(y, 0.5, "half_y", "half"), f.add_const(e, 1.0, "one_plus", "one"), "gelu")
    return f.text([f.cast(g, "f16", "out")])


# --- Attention ---------------------------------------------------------------------

def _attention_core(f, q, k, v, scale, out="out", mask_fn=None):
    """softmax(q @ k^T * scale [masked]) @ v over (heads, seq, dim)."""
    kt = f.transpose(k, (0, 2, 1), "k_t")
    s = f.mul_const(f.matmul(q, kt, "qk"), scale, "scores", "scale")
    if mask_fn:
        s = mask_fn(s)
    return f.matmul(f.softmax(s, name="probs"), v, out)


@program(dict(H=2, S=7, D=16))
def attention_causal_select(d):
    H, S, D = d["H"], d["S"], d["D"]
    f = Fn("attention_causal_select", f"""
Causal self-attention per head, f32: softmax(mask(Q K^T / sqrt({D}))) V; the
mask is select(col > row, finfo.min, scores) with the row/col ids constant
(what torch.triu / ONNX Trilu leave after constant folding).
Q, K, V ({H}, {S}, {D}).""")
    q, k, v = (f.arg(n, (H, S, D)) for n in ("q", "k", "v"))

    def mask(s):
        rows = f.const("row_ids", np.arange(S).reshape(1, S, 1), (1, S, 1), "i32")
        cols = f.const("col_ids", np.arange(S).reshape(1, 1, S), (1, 1, S), "i32")
        future = f.greater(cols, rows, "future")
        neg = f.scalar("min_f32", float(np.finfo(np.float32).min), 3)
        return f.select(future, neg, s, "masked")

    return f.text([_attention_core(f, q, k, v, 1 / math.sqrt(D), "out", mask)])


@program(dict(H=2, S=6, D=32))
def attention_causal_additive_f16(d):
    H, S, D = d["H"], d["S"], d["D"]
    f = Fn("attention_causal_additive_f16", f"""
Causal self-attention in fp16 throughout with an additive constant mask
(0 on and below the diagonal, finfo(f16).min above, as HF builds it):
softmax(Q K^T * 1/sqrt({D}) + mask) V. Q, K, V ({H}, {S}, {D}) f16.""")
    q, k, v = (f.arg(n, (H, S, D), "f16") for n in ("q", "k", "v"))
    m = np.triu(np.full((S, S), float(np.finfo(np.float16).min)), 1).reshape(1, S, S)

    def mask(s):
        return f.add(s, f.const("causal_mask", m, (1, S, S), "f16"), "masked")

    return f.text([_attention_core(f, q, k, v, 1 / math.sqrt(D), "out", mask)])


@program(dict(H=4, S=7, T=13, D=16))
def attention_mask_input(d):
    H, S, T, D = d["H"], d["S"], d["T"], d["D"]
    f = Fn("attention_mask_input", f"""
Cross-attention with an additive mask input broadcast over the heads, f32:
softmax(Q K^T / sqrt({D}) + mask) V. Q ({H}, {S}, {D}), K, V ({H}, {T}, {D}), mask (1, {S}, {T}).""",
           inputs={"mask": "uniform(-4, 0)"})
    q = f.arg("q", (H, S, D))
    k = f.arg("k", (H, T, D))
    v = f.arg("v", (H, T, D))
    mk = f.arg("mask", (1, S, T))
    return f.text([_attention_core(f, q, k, v, 1 / math.sqrt(D), "out", lambda s: f.add(s, mk, "masked"))])


@program(dict(H=2, S=5, T=13, D=16))
def attention_padding_mask(d):
    H, S, T, D = d["H"], d["S"], d["T"], d["D"]
    f = Fn("attention_padding_mask", f"""
Attention with a key padding mask of 0/1 (HF attention_mask), f32:
scores.masked_fill(mask == 0, finfo.min), as equal + select.
Q ({H}, {S}, {D}), K, V ({H}, {T}, {D}), mask (1, {T}) of 0/1.""", inputs={"mask": "choice(0, 1)"})
    q = f.arg("q", (H, S, D))
    k = f.arg("k", (H, T, D))
    v = f.arg("v", (H, T, D))
    mk = f.arg("mask", (1, T))

    def mask(s):
        pad = f.equal(f.reshape(mk, (1, 1, T), "mask3"), f.scalar("zero", 0.0, 3), "is_pad")
        return f.select(pad, f.scalar("min_f32", float(np.finfo(np.float32).min), 3), s, "masked")

    return f.text([_attention_core(f, q, k, v, 1 / math.sqrt(D), "out", mask)])


@program(dict(H=2, S=5, D=64))
def qknorm_weighted(d):
    H, S, D = d["H"], d["S"], d["D"]
    f = Fn("qknorm_weighted", f"""
QK-norm per head as in OLMo-2/Qwen-3, f32: q and k are RMS-normalized over the
head dim ({D}) with weights, eps 1e-6, then softmax(qn kn^T / sqrt({D})) v.
Q, K, V ({H}, {S}, {D}); q_norm_weight, k_norm_weight ({D},).""")
    q, k, v = (f.arg(n, (H, S, D)) for n in ("q", "k", "v"))
    wq = f.arg("q_norm_weight", (D,))
    wk = f.arg("k_norm_weight", (D,))
    qn = f.mul(f.rms_norm(q, 1e-6, name="q_rms"), f.reshape(wq, (1, 1, D), "wq3"), "q_normed")
    kn = f.mul(f.rms_norm(k, 1e-6, name="k_rms"), f.reshape(wk, (1, 1, D), "wk3"), "k_normed")
    return f.text([_attention_core(f, qn, kn, v, 1 / math.sqrt(D), "out")])


@program(dict(HQ=8, HKV=2, S=13, D=16))
def gqa_decode_grouped(d):
    HQ, HKV, S, D = d["HQ"], d["HKV"], d["S"], d["D"]
    G = HQ // HKV
    f = Fn("gqa_decode_grouped", f"""
GQA decode, one token, heads grouped by reshape: the {HQ} query heads become
({HKV} kv heads, {G} queries each), so each kv head's K and V serve a ({G}, {D})
block; softmax(Q_g K^T / sqrt({D})) V, f32.
q (1, {HQ}, 1, {D}), k, v cache (1, {HKV}, {S}, {D}); out (1, {HQ}, 1, {D}).""")
    q = f.arg("q", (1, HQ, 1, D))
    k = f.arg("k_cache", (1, HKV, S, D))
    v = f.arg("v_cache", (1, HKV, S, D))
    qg = f.reshape(q, (HKV, G, D), "q_grouped")
    k3 = f.reshape(k, (HKV, S, D), "k3")
    v3 = f.reshape(v, (HKV, S, D), "v3")
    o = _attention_core(f, qg, k3, v3, 1 / math.sqrt(D), "o_grouped")
    return f.text([f.reshape(o, (1, HQ, 1, D), "out")])


@program(dict(HQ=6, HKV=2, S=37, D=16))
def gqa_decode_repeat_kv(d):
    HQ, HKV, S, D = d["HQ"], d["HKV"], d["S"], d["D"]
    G = HQ // HKV
    f = Fn("gqa_decode_repeat_kv", f"""
GQA decode as HF writes it, fp16: repeat_kv expands each kv head to {G} query
heads (reshape to (H_kv, 1, S, D), tosa.tile by {G}, reshape to (H_q, S, D)),
then per-head softmax(q k^T / sqrt({D})) v.
q ({HQ}, 1, {D}), k, v cache ({HKV}, {S}, {D}), fp16.""")
    q = f.arg("q", (HQ, 1, D), "f16")
    k = f.arg("k_cache", (HKV, S, D), "f16")
    v = f.arg("v_cache", (HKV, S, D), "f16")

    def repeat(x, name):
        x4 = f.reshape(x, (HKV, 1, S, D), f"{name}4")
        return f.reshape(f.tile(x4, (1, G, 1, 1), f"{name}_tiled"), (HQ, S, D), f"{name}_rep")

    return f.text([_attention_core(f, q, repeat(k, "k"), repeat(v, "v"), 1 / math.sqrt(D), "out")])


@program(dict(S=6, E=32, H=4))
def mha_block(d):
    S, E, H = d["S"], d["E"], d["H"]
    Dh = E // H
    f = Fn("mha_block", f"""
A causal multi-head self-attention block, f32, nn.Linear weights (out, in):
q, k, v = x Wq^T, x Wk^T, x Wv^T split into {H} heads of {Dh} (reshape +
transpose), causal additive constant mask, softmax(q k^T / sqrt({Dh}) + mask) v,
heads merged back (transpose + reshape), out = x + o Wo^T.
x ({S}, {E}), Wq, Wk, Wv, Wo ({E}, {E}).""")
    x = f.arg("x", (S, E))
    ws = [f.arg(n, (E, E)) for n in ("w_q", "w_k", "w_v", "w_o")]

    def heads(t, name):
        return f.transpose(f.reshape(t, (S, H, Dh), f"{name}_split"), (1, 0, 2), f"{name}_heads")

    q, k, v = (heads(f.linear_t(x, w, n), n) for w, n in zip(ws[:3], ("q", "k", "v")))
    m = np.triu(np.full((S, S), float(np.finfo(np.float32).min)), 1)
    o = _attention_core(f, q, k, v, 1 / math.sqrt(Dh), "attn",
                        lambda s: f.add(s, f.const("causal_mask", m, (1, S, S)), "masked"))
    merged = f.reshape(f.transpose(o, (1, 0, 2), "attn_t"), (S, E), "merged")
    return f.text([f.add(x, f.linear_t(merged, ws[3], "o_proj"), "out")])


# --- Rotary embeddings --------------------------------------------------------------

@program(dict(S=7, H=2, D=16))
def rotary_half(d):
    S, H, D = d["S"], d["H"], d["D"]
    f = Fn("rotary_half", f"""
Rotary embedding, rotate_half form (HF Llama), f32:
out = x * cos + cat(-x[..., D/2:], x[..., :D/2]) * sin, cos/sin ({S}, {D}) inputs
broadcast over the heads as ({S}, 1, {D}). x ({S}, {H}, {D}).""")
    x = f.arg("x", (S, H, D))
    cos = f.arg("cos", (S, D))
    sin = f.arg("sin", (S, D))
    x1 = f.slice(x, (0, 0, 0), (S, H, D // 2), "x1")
    x2 = f.slice(x, (0, 0, D // 2), (S, H, D // 2), "x2")
    rot = f.concat([f.negate(x2, "neg_x2"), x1], 2, "rotated")
    c = f.reshape(cos, (S, 1, D), "cos3")
    s = f.reshape(sin, (S, 1, D), "sin3")
    return f.text([f.add(f.mul(x, c, "x_cos"), f.mul(rot, s, "rot_sin"), "out")])


@program(dict(S=6, H=2, D=8))
def rotary_interleaved(d):
    S, H, D = d["S"], d["H"], d["D"]
    P = D // 2
    f = Fn("rotary_interleaved", f"""
Rotary embedding on interleaved pairs (GPT-J / Meta Llama complex form), f32:
x viewed as ({S}, {H}, {P}, 2) pairs (a, b); out pair = (a cos - b sin, a sin + b cos),
cos/sin ({S}, {P}) inputs. x (1, {S}, {H}, {D}).""")
    x = f.arg("x", (1, S, H, D))
    cos = f.arg("cos", (S, P))
    sin = f.arg("sin", (S, P))
    xp = f.reshape(x, (S, H, P, 2), "pairs")
    a = f.slice(xp, (0, 0, 0, 0), (S, H, P, 1), "a")
    b = f.slice(xp, (0, 0, 0, 1), (S, H, P, 1), "b")
    c = f.reshape(cos, (S, 1, P, 1), "cos4")
    s = f.reshape(sin, (S, 1, P, 1), "sin4")
    ra = f.sub(f.mul(a, c, "a_cos"), f.mul(b, s, "b_sin"), "rot_a")
    rb = f.add(f.mul(a, s, "a_sin"), f.mul(b, c, "b_cos"), "rot_b")
    return f.text([f.reshape(f.concat([ra, rb], 3, "rot_pairs"), (1, S, H, D), "out")])


# --- Convolutional networks: no tk op models a window; each is a kernel of
# its own (tk.structured), the elementwise ops around it searched ------------

@program(dict(N=1, H=9, W=7, C=3, O=5))
def conv_bias_relu(d):
    f = Fn("conv_bias_relu", f"""
A convolution block (ONNX Conv + Relu): relu(conv2d(x, w, pad 1) + b), f32,
NHWC. x ({d['N']}, {d['H']}, {d['W']}, {d['C']}), w ({d['O']}, 3, 3, {d['C']}) (OHWI), b ({d['O']}).""")
    x = f.arg("x", (d["N"], d["H"], d["W"], d["C"]))
    w = f.arg("w", (d["O"], 3, 3, d["C"]))
    b = f.arg("b", (d["O"],))
    return f.text([f.clamp(f.conv2d(x, w, b, (1, 1, 1, 1)), 0.0, 3.4028234663852886e38, "out")])


@program(dict(N=2, H=11, W=7, C=4, O=6))
def conv_strided_residual(d):
    f = Fn("conv_strided_residual", f"""
A strided 1x1 projection plus a 3x3 convolution of stride 2, added (a ResNet
downsampling block), f32, NHWC. x ({d['N']}, {d['H']}, {d['W']}, {d['C']}); w3 ({d['O']}, 3, 3, {d['C']}),
w1 ({d['O']}, 1, 1, {d['C']}), zero biases.""")
    x = f.arg("x", (d["N"], d["H"], d["W"], d["C"]))
    w3 = f.arg("w3", (d["O"], 3, 3, d["C"]))
    w1 = f.arg("w1", (d["O"], 1, 1, d["C"]))
    zero = f.const("bias", 0.0, (d["O"],))
    main = f.conv2d(x, w3, zero, (1, 1, 1, 1), (2, 2), "main")
    skip = f.conv2d(x, w1, zero, (0, 0, 0, 0), (2, 2), "skip")
    return f.text([f.add(main, skip, "out")])


@program(dict(N=1, H=8, W=13, C=6))
def depthwise_conv(d):
    f = Fn("depthwise_conv", f"""
A depthwise 3x3 convolution (MobileNet), pad 1, multiplier 1, then ReLU6, f32,
NHWC. x ({d['N']}, {d['H']}, {d['W']}, {d['C']}), w (3, 3, {d['C']}, 1) (HWCM), b ({d['C']}).""")
    x = f.arg("x", (d["N"], d["H"], d["W"], d["C"]))
    w = f.arg("w", (3, 3, d["C"], 1))
    b = f.arg("b", (d["C"],))
    return f.text([f.clamp(f.depthwise_conv2d(x, w, b, (1, 1, 1, 1)), 0.0, 6.0, "out")])


@program(dict(N=2, H=9, W=7, C=5))
def max_pool(d):
    f = Fn("max_pool", f"""
Max pooling 3x3, stride 2, pad 1 (ResNet's stem), f32, NHWC. x ({d['N']}, {d['H']}, {d['W']}, {d['C']}).""")
    x = f.arg("x", (d["N"], d["H"], d["W"], d["C"]))
    return f.text([f.pool2d("max_pool2d", x, (3, 3), (2, 2), (1, 1, 1, 1), "out")])


@program(dict(N=1, H=7, W=7, C=13))
def avg_pool_scale(d):
    f = Fn("avg_pool_scale", f"""
Average pooling 2x2, stride 1, no padding, then a per-channel scale
(squeeze-and-excitation's gate applied), f32, NHWC. x ({d['N']}, {d['H']}, {d['W']}, {d['C']}), s ({d['C']}).""")
    x = f.arg("x", (d["N"], d["H"], d["W"], d["C"]))
    s = f.arg("s", (d["C"],))
    pooled = f.pool2d("avg_pool2d", x, (2, 2), (1, 1), (0, 0, 0, 0), "pooled")
    return f.text([f.mul(pooled, f.reshape(s, (1, 1, 1, d["C"]), "s4"), "out")])


@program(dict(M=6, N=37))
def pad_exp(d):
    f = Fn("pad_exp", f"""
exp of x padded with -1: one row above, two columns left and three right
(tosa.pad), f32. x ({d['M']}, {d['N']}).""")
    x = f.arg("x", (d["M"], d["N"]))
    return f.text([f.exp(f.pad(x, ((1, 0), (2, 3)), -1.0), "out")])


# ---------------------------------------------------------------------------

def generate(size):
    """{file name: text} for `test`, or for `full` (the benchmark workloads,
    b=1 and b=8)."""
    out = {}
    for name, (build, test_dims) in PROGRAMS.items():
        if size == "test":
            out[f"{name}.mlir"] = build(test_dims)
        elif name in BENCH:
            for tag, dims in BENCH[name].items():
                out[f"{name}_{tag}.mlir"] = build(dims)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", choices=["test", "full"], default="test")
    ap.add_argument("-o", "--out", help="output directory (default for --size=test: test/corpus/programs)")
    ap.add_argument("--check", action="store_true", help="compare with the files in the directory instead")
    args = ap.parse_args()
    if args.size == "full" and not args.out:
        ap.error("--size=full writes to a directory of your choice: give -o DIR (not committed)")
    out_dir = Path(args.out) if args.out else PROGRAMS_DIR
    files = generate(args.size)
    if args.check:
        stale = [n for n, t in files.items() if not (out_dir / n).exists() or (out_dir / n).read_text() != t]
        extra = sorted({p.name for p in out_dir.glob("*.mlir")} - set(files))
        for n in stale:
            print(f"stale: {out_dir / n}")
        for n in extra:
            print(f"not generated: {out_dir / n}")
        return 1 if stale or extra else 0
    out_dir.mkdir(parents=True, exist_ok=True)
    for n, t in files.items():
        (out_dir / n).write_text(t)
    print(f"wrote {len(files)} programs to {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
