#!/usr/bin/env python3
"""Random TOSA programs (issue 28): seeded, valid, written as front ends do.

    test/random/generate.py --seed=S --count=N -o DIR
    test/random/generate.py --seed=S --index=I            # one program, to stdout

writes DIR/rand_S_I.mlir for I in 0..N-1. Program I of seed S is drawn from
its own generator, numpy's default_rng([S, I]), so it is the same whatever
--count is and whichever other programs are written.

A program is a chain of ops over a pool of values: each step takes the value
made last (or, less often, any earlier one) through one of the ops below,
sometimes with a second operand (a new argument, an earlier value, a
constant). The ops are those TileOpt's importer takes (docs/import.md) and
a few it refuses, spelled as test/corpus/gen.py's `Fn` builder spells them
(MLIR 22 TOSA):

- tosa.matmul, rank 3 with a batch, its lhs reshaped to rank 3 and back as
  front ends do, its rhs a new weight (maybe stored transposed) or the lhs
  itself (x @ x^T); f16/bf16 operands may accumulate into f32;
- elementwise: add, sub, mul, maximum with a broadcast partner (an earlier
  value, a new argument with unit dims, a splat or dense constant); exp,
  tanh, sigmoid, reciprocal, rsqrt, negate, clamp; select on a greater /
  greater_equal / equal mask, of values, of a 0/1 mask argument or of
  causal row/column ids; casts between f16, bf16 and f32;
- reduce_sum, reduce_max over any axis (the kept dim sometimes reshaped
  away), mean as sum * 1/n;
- idioms: softmax (also causally masked), RMSNorm, LayerNorm, silu,
  tanh-approximated gelu;
- transpose, reshape (merge or split dims, add or drop unit dims, flatten).

Shapes have odd, prime and unit dims. Most programs are small (SMALL: dims
up to 37, at most 2048 elements a tensor); some are larger (LARGE: dims up
to 257, at most 2^16 elements), so that a dim spans several tiles and ends
in a partial one. The program's element type is f32, f16 or bf16 and casts
mix them.

Every value carries an interval that bounds it on the inputs' ranges; ops
that could overflow, divide by ~0 or leave a function's domain are given
operands that keep them finite (rsqrt(x*x + c), a scale by 2^-k first), so
that the reference and TileOpt are compared on finite numbers.

Headers as in test/corpus (read by test/corpus/reference.py and check.py):
`// input %x: uniform(-4, 4)` or `choice(0, 1)` where an argument is not
drawn from uniform(-1, 1). Tolerances are check.py's defaults.

--twin writes the program's float64 twin: every f16, bf16 and f32 replaced
by f64 (casts between them vanish; constants keep the values rounded to the
type they had, but for the 1/n of a mean, which TileOpt's importer reads as
the mean it stands for): what the program computes without rounding, which
TileOpt's interpreter approaches (docs/interpreter.md: arithmetic in f32
whatever the type) and upstream's execution in the program's types may not
(a sequential f32 sum of 27,776 terms is off by 2e-4). test/random/run.py
uses it to tell rounding from wrong values.

--other-mean-rounding writes the program with each mean's 1/n rounded to its
other neighbour in the type (0.33333331 instead of 0.33333334 in f32): the
same program up to the last bit of a constant. TileOpt's importer reads that
factor as a division by n, which may round either way; where the two
programs' results differ beyond the tolerance, the program's result is
decided by that one bit (a LayerNorm of a row whose values are all equal,
eps 1e-6), and run.py calls values that match either ill-conditioned.
"""

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "corpus"))
import gen as corpus_gen  # noqa: E402  (the TOSA text builder)
import reference  # noqa: E402  (rounding to an element type)



@dataclass
class Sizes:
    dims: list
    weights: list
    max_elements: int


SMALL = Sizes([1, 2, 3, 4, 5, 7, 8, 11, 13, 16, 17, 23, 32, 37], [4, 3, 3, 2, 3, 3, 2, 3, 3, 2, 2, 1, 1, 1], 2048)
LARGE = Sizes([1, 3, 7, 31, 64, 67, 96, 127, 128, 129, 200, 257], [4, 2, 2, 2, 2, 2, 1, 2, 2, 2, 1, 1], 1 << 16)
FLOAT_TYPES = ["f32", "f16", "bf16"]
# Constants exact in f16 and bf16, so that a program means the same in each.
DYADIC = [0.125, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0]
# Values are kept within this bound (2^-k scalings, tanh, clamp, rms_norm
# otherwise), well inside f16's range (65504) after a sum or matmul.
TAME_ABOVE = 16.0
F16_SAFE = 3.0e4


@dataclass
class Value:
    """A value of the program: the builder's Val (what the text says), its
    element type in the program proper (`dtype`; the twin says f32) and
    bounds lo <= every element <= hi on the inputs' ranges."""
    val: corpus_gen.Val
    dtype: str
    lo: float
    hi: float
    # The axis along which the value sums to 0 (a LayerNorm's result before
    # its weight): a sum over it is rounding noise, which no tolerance
    # relative to the output's magnitude can judge.
    zero_sum_axis: int = None

    @property
    def shape(self):
        return self.val.shape

    @property
    def bound(self):
        return max(abs(self.lo), abs(self.hi))


class Builder:
    """Fn plus the bookkeeping of a random program: bounds, the program's own
    element types (for the twin), the op summary of the header."""

    def __init__(self, rng, name, twin, other_mean_rounding=False):
        self.rng, self.twin = rng, twin
        self.other_mean_rounding = other_mean_rounding
        self.sizes = self.choice([SMALL, LARGE], [3, 1])
        self.f = corpus_gen.Fn(name, "")
        self.input_specs = {}
        self.ops = []          # what was built, for the header
        self.pool = []         # values an op may take
        self.args = []         # the arguments among them

    # helpers -----------------------------------------------------------------

    def emitted(self, dtype):
        return "f64" if self.twin else dtype

    def value(self, val, dtype, lo, hi):
        return Value(val, dtype, float(lo), float(hi))

    def choice(self, items, weights=None):
        if weights is not None:
            p = np.asarray(weights, dtype=np.float64)
            return items[int(self.rng.choice(len(items), p=p / p.sum()))]
        return items[int(self.rng.integers(len(items)))]

    def chance(self, p):
        return self.rng.random() < p

    def dim(self):
        return int(self.choice(self.sizes.dims, self.sizes.weights))

    def shape(self, rank):
        while True:
            s = tuple(self.dim() for _ in range(rank))
            if math.prod(s) <= self.sizes.max_elements:
                return s

    def arg(self, name, shape, dtype, spec=None):
        lo, hi = -1.0, 1.0
        if spec is None and self.chance(0.15):
            spec = "uniform(-4, 4)"
        if spec == "uniform(-4, 4)":
            lo, hi = -4.0, 4.0
        elif spec == "choice(0, 1)":
            lo, hi = 0.0, 1.0
        v = self.f.arg(name, shape, self.emitted(dtype))
        if spec:
            self.input_specs[v.name] = spec
        self.args.append(self.value(v, dtype, lo, hi))
        return self.args[-1]

    def const(self, name, value, shape, dtype, mean_factor=False):
        """A constant rounded to the program's type (the twin keeps that
        value). A mean's 1/n (mean_factor) stays exact in the twin and is
        rounded the other way with other_mean_rounding."""
        # As a 1-D array: reference.bf16_bits does not take 0-d ones.
        flat = np.asarray(value, dtype=np.float64).reshape(-1)
        if mean_factor and self.twin:
            values = flat
        elif mean_factor and self.other_mean_rounding:
            values = reference.round_other_way(flat, dtype)
        else:
            values = reference.round_to(flat, dtype)
        values = values.reshape(np.shape(value))
        return self.f.const(name, values, shape, self.emitted(dtype)), values

    @staticmethod
    def rounded(value, dtype):
        return float(reference.round_to(np.array([value]), dtype)[0])

    def scalar(self, name, value, rank, dtype, mean_factor=False):
        val, values = self.const(name, value, (1,) * rank, dtype, mean_factor)
        v = float(values)
        return self.value(val, dtype, v, v)

    def broadcast_shape(self, shape):
        """The shape with some dims (maybe none) made 1: a broadcast partner."""
        return tuple(1 if self.chance(0.4) else d for d in shape)

    # elementwise -------------------------------------------------------------

    def cast(self, x, dtype):
        if x.dtype == dtype:
            return x
        if {x.dtype, dtype} == {"f16", "bf16"}:
            # Through f32, as front ends do: upstream's tosa-to-linalg makes an
            # invalid arith.truncf of a direct f16 <-> bf16 cast.
            x = self.cast(x, "f32")
        if dtype == "f16" and x.bound > F16_SAFE:
            x = self.tame(x)
        self.ops.append(f"cast {x.dtype}->{dtype}")
        val = x.val if self.twin else self.f.cast(x.val, dtype)
        return self.value(val, dtype, x.lo, x.hi)

    def binary(self, op, a, b):
        b = self.cast(b, a.dtype)
        if op == "mul":
            val = self.f.mul(a.val, b.val)
            corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
            lo, hi = min(corners), max(corners)
        else:
            val = self.f.binary(op, a.val, b.val, op)
            lo, hi = {"add": (a.lo + b.lo, a.hi + b.hi),
                      "sub": (a.lo - b.hi, a.hi - b.lo),
                      "maximum": (max(a.lo, b.lo), max(a.hi, b.hi))}[op]
        return self.value(val, a.dtype, lo, hi)

    def square(self, x):
        m = x.bound
        lo = 0.0 if x.lo <= 0 <= x.hi else min(x.lo * x.lo, x.hi * x.hi)
        return self.value(self.f.mul(x.val, x.val, "sq"), x.dtype, lo, m * m)

    def scale(self, x, factor):
        c = self.scalar("c", factor, len(x.shape), x.dtype)
        return self.binary("mul", x, c)

    def divide_sum(self, s, n):
        """The sum `s` of n values times 1/n, a mean as front ends write it.
        TileOpt's importer reads a factor equal to 1/n rounded to the type
        as the mean it stands for (docs/import.md), so the twin, what
        TileOpt computes without rounding, multiplies by 1/n itself."""
        c = self.scalar("c", 1.0 / n, len(s.shape), s.dtype, mean_factor=True)
        return self.binary("mul", s, c)

    def tame(self, x):
        """x brought within TAME_ABOVE: a 2^-k scale, tanh or clamp."""
        how = self.choice(["scale", "tanh", "clamp"], [3, 1, 1])
        self.ops.append(f"tame:{how}")
        if how == "scale":
            k = math.ceil(math.log2(x.bound / 4.0))
            return self.scale(x, 2.0 ** -k)
        if how == "tanh":
            return self.value(self.f.tanh(x.val), x.dtype, math.tanh(x.lo), math.tanh(x.hi))
        return self.clamp(x, -4.0, 4.0)

    def clamp(self, x, lo, hi):
        val = self.f.clamp(x.val, self.rounded(lo, x.dtype), self.rounded(hi, x.dtype))
        return self.value(val, x.dtype, min(max(x.lo, lo), hi), max(min(x.hi, hi), lo))

    def positive(self, x):
        """A value >= 1/4 made from x: x itself if it is, else x*x + c."""
        if x.lo >= 0.25:
            return x
        c = self.choice([0.25, 0.5, 1.0])
        return self.binary("add", self.square(x), self.scalar("c", c, len(x.shape), x.dtype))

    def partner(self, x, with_shape=None):
        """A second operand for an elementwise op on x, broadcasting with
        with_shape (default x's: a select's other operand must also
        broadcast with its mask)."""
        own = with_shape or x.shape
        rank = len(own)
        kind = self.choice(["earlier", "arg", "outer", "splat", "dense"], [4, 3, 1 if 1 in own else 0, 3, 1])
        if kind == "outer":  # grows unit dims: 5x1 + 1x7 -> 5x7
            shape = tuple(self.dim() if d == 1 else self.choice([1, d]) for d in own)
            if math.prod(corpus_gen.broadcast(own, shape)) <= self.sizes.max_elements:
                return self.arg("b", shape, x.dtype)
            kind = "arg"
        if kind == "earlier":
            fits = [v for v in self.pool if v is not x and len(v.shape) == rank
                    and all(a == b or a == 1 or b == 1 for a, b in zip(own, v.shape))
                    and math.prod(corpus_gen.broadcast(own, v.shape)) <= self.sizes.max_elements]
            if fits:
                return self.choice(fits)
            kind = "arg"
        if kind == "arg":
            return self.arg("b", self.broadcast_shape(own), x.dtype)
        if kind == "splat":
            return self.scalar("c", self.choice(DYADIC) * self.choice([1, -1]), rank, x.dtype)
        shape = self.broadcast_shape(own)
        values = self.rng.choice(DYADIC, size=shape) * self.rng.choice([1, -1], size=shape)
        val, values = self.const("w", values, shape, x.dtype)
        return self.value(val, x.dtype, values.min(), values.max())

    # the ops of a step: each takes the chosen value and returns a new one -------

    def op_unary(self, x):
        op = self.choice(["exp", "tanh", "sigmoid", "negate", "reciprocal", "rsqrt", "clamp"])
        self.ops.append(op)
        if op == "exp":
            if x.hi > 4.0:
                x = self.tame(x)
            return self.value(self.f.exp(x.val), x.dtype, math.exp(x.lo), math.exp(x.hi))
        if op == "tanh":
            return self.value(self.f.tanh(x.val), x.dtype, math.tanh(x.lo), math.tanh(x.hi))
        if op == "sigmoid":
            sig = lambda t: 0.5 * (1.0 + math.tanh(0.5 * t))  # noqa: E731  (exp(-t) overflows)
            return self.value(self.f.sigmoid(x.val), x.dtype, sig(x.lo), sig(x.hi))
        if op == "negate":
            return self.value(self.f.negate(x.val), x.dtype, -x.hi, -x.lo)
        if op == "reciprocal":
            p = self.positive(x)
            return self.value(self.f.reciprocal(p.val), x.dtype, 1.0 / p.hi, 1.0 / p.lo)
        if op == "rsqrt":
            p = self.positive(x)
            return self.value(self.f.rsqrt(p.val), x.dtype, 1.0 / math.sqrt(p.hi), 1.0 / math.sqrt(p.lo))
        lo, hi = sorted(self.rng.choice([-4.0, -2.0, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 2.0, 6.0], 2, replace=False))
        return self.clamp(x, lo, hi)

    def op_binary(self, x):
        op = self.choice(["add", "sub", "mul", "maximum"], [3, 2, 3, 1])
        b = self.partner(x)
        self.ops.append(f"{op}{list(b.shape)}")
        return self.binary(op, x, b)

    def mask(self, x):
        """An i1 value broadcasting with x."""
        kind = self.choice(["values", "mask_arg", "causal"], [3, 2, 1] if len(x.shape) >= 2 else [3, 2, 0])
        rank = len(x.shape)
        if kind == "causal":
            rows, cols = x.shape[-2], x.shape[-1]
            r = self.f.const("row_ids", np.arange(rows), (1,) * (rank - 2) + (rows, 1), "i32")
            c = self.f.const("col_ids", np.arange(cols), (1,) * (rank - 1) + (cols,), "i32")
            self.ops.append("causal mask")
            return self.f.greater(c, r, "future")
        if kind == "mask_arg":
            m = self.arg("mask", self.broadcast_shape(x.shape), x.dtype, "choice(0, 1)")
            half = self.scalar("half", 0.5, rank, x.dtype)
            self.ops.append("mask argument")
            return self.f.greater(m.val, half.val, "keep")
        b = self.partner(x)
        b = self.cast(b, x.dtype)
        cmp = self.choice(["greater", "greater_equal", "equal"], [3, 2, 1])
        self.ops.append(f"{cmp}{list(b.shape)}")
        a, b = (x, b) if self.chance(0.5) else (b, x)
        return self.f.binary(cmp, a.val, b.val, cmp, "i1")

    def op_select(self, x):
        cond = self.mask(x)
        other = self.partner(x, corpus_gen.broadcast(x.shape, cond.shape)) if self.chance(0.6) else self.scalar("fill", self.choice([0.0, -1.0, -8.0]),
                                                                       len(x.shape), x.dtype)
        other = self.cast(other, x.dtype)
        a, b = (x, other) if self.chance(0.5) else (other, x)
        self.ops.append("select")
        return self.value(self.f.select(cond, a.val, b.val), x.dtype, min(a.lo, b.lo), max(a.hi, b.hi))

    def op_cast(self, x):
        return self.cast(x, self.choice([t for t in FLOAT_TYPES if t != x.dtype]))

    def op_reduce(self, x):
        axis = int(self.rng.integers(len(x.shape)))
        n = x.shape[axis]
        kind = self.choice(["reduce_sum", "reduce_max", "mean"], [2, 2, 1])
        if axis == x.zero_sum_axis:
            kind = "reduce_max"
        self.ops.append(f"{kind}(axis {axis})")
        if kind == "reduce_max":
            r = self.value(self.f.reduce_max(x.val, axis), x.dtype, x.lo, x.hi)
        else:
            if x.bound * n > F16_SAFE:
                x = self.tame(x)
            r = self.value(self.f.reduce_sum(x.val, axis), x.dtype, n * x.lo, n * x.hi)
            if kind == "mean":
                r = self.divide_sum(r, n)
        if len(x.shape) > 1 and self.chance(0.3):
            r = self.reshape_to(r, tuple(d for i, d in enumerate(r.shape) if i != axis))
        return r

    def op_matmul(self, x):
        if x.bound > TAME_ABOVE:
            x = self.tame(x)
        shape = x.shape
        if len(shape) == 3:
            lhs = x
        else:
            m, k = (shape[-2], shape[-1]) if len(shape) >= 2 else (1, shape[0])
            lhs = self.reshape_to(x, (math.prod(shape[:-2]) if len(shape) > 2 else 1, m, k))
        lhs_t = self.chance(0.2)
        if lhs_t:  # x holds A^T: (b, k, m)
            lhs = self.transpose_by(lhs, (0, 2, 1))
        b, m, k = lhs.shape
        earlier = [v for v in self.pool if v.shape[-2:] == (k,) + v.shape[-1:] and len(v.shape) in (2, 3)
                   and (len(v.shape) == 3 and v.shape[0] == b or len(v.shape) == 2 and b == 1)
                   and b * m * v.shape[-1] <= self.sizes.max_elements and v.bound <= TAME_ABOVE]
        rhs_kind = self.choice(["weight", "weight_t", "self_t", "earlier"], [3, 2, 1, 2 if earlier else 0])
        if rhs_kind == "self_t":
            rhs = self.transpose_by(lhs, (0, 2, 1))
            n = m
        elif rhs_kind == "earlier":  # P @ V
            rhs = self.choice(earlier)
            n = rhs.shape[-1]
            rhs = self.cast(rhs if len(rhs.shape) == 3 else self.reshape_to(rhs, (1, k, n)), lhs.dtype)
        else:
            n = self.dim()
            while n > 1 and b * m * n > self.sizes.max_elements:  # x itself may be larger
                n = self.dim()
            dtype = lhs.dtype
            if rhs_kind == "weight":
                rhs = self.arg("w", (b, k, n), dtype)
            else:
                rhs = self.transpose_by(self.arg("w", (b, n, k), dtype), (0, 2, 1))
        out_dtype = "f32" if lhs.dtype != "f32" and self.chance(0.3) else lhs.dtype
        self.ops.append(f"matmul {b}x{m}x{k} @ {b}x{k}x{n} -> {out_dtype} ({'lhs transposed, ' * lhs_t}{rhs_kind})")
        bound = k * lhs.bound * rhs.bound
        y = self.value(self.f.matmul(lhs.val, rhs.val, out_dtype=self.emitted(out_dtype)), out_dtype, -bound, bound)
        if len(shape) != 3 and not lhs_t and self.chance(0.6):
            y = self.reshape_to(y, shape[:-1] + (n,))
        if self.chance(0.4):
            y = self.scale(y, 1.0 / math.sqrt(k))
        return y

    def transpose_by(self, x, perm):
        return self.value(self.f.transpose(x.val, perm), x.dtype, x.lo, x.hi)

    def op_transpose(self, x):
        if len(x.shape) < 2:
            return None
        perm = tuple(int(p) for p in self.rng.permutation(len(x.shape)))
        while perm == tuple(range(len(x.shape))):
            perm = tuple(int(p) for p in self.rng.permutation(len(x.shape)))
        self.ops.append(f"transpose{list(perm)}")
        return self.transpose_by(x, perm)

    def reshape_to(self, x, shape):
        return self.value(self.f.reshape(x.val, shape), x.dtype, x.lo, x.hi)

    def op_reshape(self, x):
        s = list(x.shape)
        ways = ["flatten"] if len(s) > 1 else []
        if len(s) > 1:
            ways.append("merge")
        if len(s) < 4:
            ways += ["split", "unit"]
        if 1 in s and len(s) > 1:
            ways.append("drop_unit")
        way = self.choice(ways)
        if way == "flatten":
            new = [math.prod(s)]
        elif way == "merge":
            i = int(self.rng.integers(len(s) - 1))
            new = s[:i] + [s[i] * s[i + 1]] + s[i + 2:]
        elif way == "split":
            i = int(self.rng.integers(len(s)))
            divisors = [d for d in range(1, s[i] + 1) if s[i] % d == 0]
            a = self.choice(divisors)
            new = s[:i] + [a, s[i] // a] + s[i + 1:]
        elif way == "unit":
            i = int(self.rng.integers(len(s) + 1))
            new = s[:i] + [1] + s[i:]
        else:
            i = self.choice([j for j, d in enumerate(s) if d == 1])
            new = s[:i] + s[i + 1:]
        if tuple(new) == x.shape:
            return None
        self.ops.append(f"reshape {way}")
        return self.reshape_to(x, tuple(new))

    def op_softmax(self, x):
        axis = int(self.rng.integers(len(x.shape)))
        if len(x.shape) >= 2 and axis == len(x.shape) - 1 and self.chance(0.3):
            lowest = {"f32": -3.4028235e38, "bf16": -3.3895314e38, "f16": -65504.0}[x.dtype]
            fill = self.scalar("min", lowest, len(x.shape), x.dtype)
            x = self.value(self.f.select(self.mask(x), fill.val, x.val), x.dtype, lowest, x.hi)
        elif x.bound > TAME_ABOVE:
            x = self.tame(x)
        self.ops.append(f"softmax(axis {axis})")
        return self.value(self.f.softmax(x.val, axis), x.dtype, 0.0, 1.0)

    def mean_of(self, x, axis, name):
        n = x.shape[axis]
        s = self.value(self.f.reduce_sum(x.val, axis, f"{name}_sum"), x.dtype, n * x.lo, n * x.hi)
        if self.chance(0.5):  # torch-mlir: sum * reciprocal(n)
            n_const = self.scalar("n", n, len(x.shape), x.dtype)
            inv = self.value(self.f.reciprocal(n_const.val, "inv_n"), x.dtype, 1.0 / n, 1.0 / n)
            return self.binary("mul", s, inv)
        return self.divide_sum(s, n)

    def op_norm(self, x):
        if x.bound > TAME_ABOVE:
            x = self.tame(x)
        rank = len(x.shape)
        axis = rank - 1 if self.chance(0.7) else int(self.rng.integers(rank))
        n = x.shape[axis]
        kind = self.choice(["rms_norm", "layer_norm"])
        eps = self.choice([1e-5, 1e-6, 1e-3])
        self.ops.append(f"{kind}(axis {axis}, eps {eps:g})")
        if kind == "layer_norm":
            mean = self.mean_of(x, axis, "mean")
            x = self.binary("sub", x, mean)
        ms = self.mean_of(self.square(x), axis, "var" if kind == "layer_norm" else "ms")
        inv = self.rsqrt_of(self.binary("add", ms, self.scalar("eps", eps, rank, x.dtype)))
        y = self.binary("mul", x, inv)
        y.lo, y.hi = -math.sqrt(n), math.sqrt(n)
        if kind == "layer_norm":
            y.zero_sum_axis = axis
        if self.chance(0.5):
            weight_shape = tuple(d if i == axis else 1 for i, d in enumerate(x.shape))
            y = self.binary("mul", y, self.arg("gamma", weight_shape, x.dtype))
            if kind == "layer_norm":
                y = self.binary("add", y, self.arg("beta", weight_shape, x.dtype))
        return y

    def rsqrt_of(self, p):
        """rsqrt of a value >= eps > 0 (its lower bound may be ~0)."""
        lo = max(p.lo, 1e-6)
        return self.value(self.f.rsqrt(p.val), p.dtype, 1.0 / math.sqrt(p.hi), 1.0 / math.sqrt(lo))

    def op_activation(self, x):
        if x.bound > TAME_ABOVE:
            x = self.tame(x)
        kind = self.choice(["silu", "gelu_tanh"])
        self.ops.append(kind)
        if kind == "silu":
            sig = self.value(self.f.sigmoid(x.val), x.dtype, 0.0, 1.0)
            return self.binary("mul", x, sig)
        # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), as torch writes it
        cube = self.binary("mul", self.square(x), x)
        inner = self.binary("add", x, self.scale(cube, 0.044715))
        t = self.scale(inner, math.sqrt(2.0 / math.pi))
        th = self.value(self.f.tanh(t.val), x.dtype, -1.0, 1.0)
        one_plus = self.binary("add", th, self.scalar("one", 1.0, len(x.shape), x.dtype))
        return self.binary("mul", self.scale(x, 0.5), one_plus)

    STEPS = {
        "unary": 4, "binary": 5, "select": 2, "cast": 2, "reduce": 3, "matmul": 3,
        "transpose": 2, "reshape": 2, "softmax": 2, "norm": 2, "activation": 1,
    }

    def step(self):
        x = self.pool[-1] if self.chance(0.65) else self.choice(self.pool)
        names = list(self.STEPS)
        op = getattr(self, "op_" + self.choice(names, [self.STEPS[n] for n in names]))
        y = op(x)
        if y is None:
            return
        if y.bound > 64 * TAME_ABOVE:
            y = self.tame(y)
        self.pool.append(y)


def build(seed, index, twin=False, other_mean_rounding=False):
    """The text of program `index` of `seed` (its float64 twin, or its means'
    1/n rounded the other way, if asked)."""
    rng = np.random.default_rng([seed, index])
    b = Builder(rng, f"rand_{seed}_{index}", twin, other_mean_rounding)
    dtype = b.choice(FLOAT_TYPES, [2, 1, 1])
    b.pool.append(b.arg("x", b.shape(int(b.choice([1, 2, 3, 4], [1, 3, 3, 2]))), dtype))
    for _ in range(int(rng.integers(2, 11))):
        b.step()
    results = [b.pool[-1]]
    # Chosen among Values, not among their text (the twin's casts are its
    # operand's text), so that the twin returns the same values.
    others = [v for v in b.pool[:-1] if all(v is not a for a in b.args) and v is not results[0]]
    if others and b.chance(0.3):
        results.append(b.choice(others))
    b.f.doc = "\n".join([f"Random program {index} of seed {seed} (test/random/generate.py"
                         f"{' --twin' if twin else ''}"
                         f"{' --other-mean-rounding' if other_mean_rounding else ''}), {dtype}:"]
                        + [f"  {op}" for op in b.ops])
    b.f.input_specs = b.input_specs
    return b.f.text([r.val for r in results])


def file_name(seed, index):
    return f"rand_{seed}_{index}.mlir"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--index", type=int, help="print only program INDEX of the seed")
    ap.add_argument("-o", "--out", help="output directory (required unless --index)")
    ap.add_argument("--twin", action="store_true", help="the programs' float64 twins")
    ap.add_argument("--other-mean-rounding", action="store_true",
                    help="each mean's 1/n rounded to its other neighbour in the type")
    args = ap.parse_args()
    if args.index is not None:
        sys.stdout.write(build(args.seed, args.index, args.twin, args.other_mean_rounding))
        return 0
    if not args.out:
        ap.error("give -o DIR (or --index I to print one program)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(args.count):
        (out / file_name(args.seed, i)).write_text(build(args.seed, i, args.twin, args.other_mean_rounding))
    print(f"wrote {args.count} programs to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
