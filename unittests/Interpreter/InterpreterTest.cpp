//===- InterpreterTest.cpp - Interpreter against direct evaluation --------===//
//
// The float64 interpreter against plain C++ loops on random inputs with odd
// sizes (so a wrong stride or offset cannot hide behind a power of two), and
// the field domain's algebra.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Interpreter/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::interp;

namespace {

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry.insert<func::FuncDialect, arith::ArithDialect, math::MathDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source` and runs its only function on random f64 inputs.
  std::pair<SmallVector<Tensor<double>>, SmallVector<Tensor<double>>>
  run(StringRef source, uint64_t seed = 1) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    auto func = *module->getOps<func::FuncOp>().begin();
    F64Domain domain;
    SplitMix64 rng(seed);
    auto inputs = randomInputs(func, domain, rng);
    EXPECT_TRUE(succeeded(inputs));
    auto results = interpret(func, *inputs);
    EXPECT_TRUE(succeeded(results));
    return {*inputs, *results};
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

void expectNear(const Tensor<double> &actual, const Tensor<double> &expected) {
  ASSERT_EQ(actual.getShape(), expected.getShape());
  for (int64_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-12 * (1 + std::fabs(expected[i])))
        << "at flat index " << i;
}

TEST_F(InterpreterTest, BatchedMatmulOddSizes) {
  auto [in, out] = run(R"(
    func.func @f(%a: tensor<2x3x5xf32>, %b: tensor<2x5x7xf32>) -> tensor<2x3x7xf32> {
      %c = tk.matmul %a, %b : tensor<2x3x5xf32>, tensor<2x5x7xf32> -> tensor<2x3x7xf32>
      return %c : tensor<2x3x7xf32>
    })");
  Tensor<double> expected({2, 3, 7});
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 7; ++j)
        for (int64_t k = 0; k < 5; ++k)
          expected.at({b, i, j}) += in[0].at({b, i, k}) * in[1].at({b, k, j});
  expectNear(out[0], expected);
}

// numpy.matmul's batch broadcasting: a missing leading dim and a dim of 1,
// on either side.
TEST_F(InterpreterTest, MatmulBroadcastsBatchDims) {
  auto [in, out] = run(R"(
    func.func @f(%a: tensor<3x5xf32>, %b: tensor<2x1x5x7xf32>, %c: tensor<4x3x5xf32>) -> (tensor<2x1x3x7xf32>, tensor<2x4x3x7xf32>) {
      %ab = tk.matmul %a, %b : tensor<3x5xf32>, tensor<2x1x5x7xf32> -> tensor<2x1x3x7xf32>
      %cb = tk.matmul %c, %b : tensor<4x3x5xf32>, tensor<2x1x5x7xf32> -> tensor<2x4x3x7xf32>
      return %ab, %cb : tensor<2x1x3x7xf32>, tensor<2x4x3x7xf32>
    })");
  Tensor<double> ab({2, 1, 3, 7}), cb({2, 4, 3, 7});
  for (int64_t p = 0; p < 2; ++p)
    for (int64_t q = 0; q < 4; ++q)
      for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 7; ++j)
          for (int64_t k = 0; k < 5; ++k) {
            double b = in[1].at({p, 0, k, j});
            if (q == 0)
              ab.at({p, 0, i, j}) += in[0].at({i, k}) * b;
            cb.at({p, q, i, j}) += in[2].at({q, i, k}) * b;
          }
  expectNear(out[0], ab);
  expectNear(out[1], cb);
}

TEST_F(InterpreterTest, BroadcastReduceAndElementwiseKinds) {
  auto [in, out] = run(R"(
    func.func @f(%x: tensor<3x1x5xf32>, %y: tensor<4x5xf32>)
        -> (tensor<3x4x5xf32>, tensor<3x4x1xf32>, tensor<3x4x5xf32>) {
      %s = tk.binary sub %x, %y : tensor<3x1x5xf32>, tensor<4x5xf32> -> tensor<3x4x5xf32>
      %m = tk.reduce mean %s dim 2 : tensor<3x4x5xf32> -> tensor<3x4x1xf32>
      %g = tk.unary gelu %s : tensor<3x4x5xf32>
      %u = tk.unary silu %g : tensor<3x4x5xf32>
      return %s, %m, %u : tensor<3x4x5xf32>, tensor<3x4x1xf32>, tensor<3x4x5xf32>
    })");
  Tensor<double> s({3, 4, 5}), m({3, 4, 1}), u({3, 4, 5});
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t k = 0; k < 5; ++k) {
        double d = in[0].at({i, 0, k}) - in[1].at({j, k});
        s.at({i, j, k}) = d;
        m.at({i, j, 0}) += d / 5;
        double gelu = 0.5 * d * (1 + std::erf(d / std::sqrt(2.0)));
        u.at({i, j, k}) = gelu / (1 + std::exp(-gelu));
      }
  expectNear(out[0], s);
  expectNear(out[1], m);
  // gelu's 1/sqrt(2) is rounded to f32, as the fused code has it.
  for (int64_t i = 0; i < u.size(); ++i)
    EXPECT_NEAR(out[2][i], u[i], 1e-7);
}

TEST_F(InterpreterTest, RmsNormWithEpsilon) {
  auto [in, out] = run(R"(
    func.func @f(%x: tensor<3x7xf32>) -> tensor<3x7xf32> {
      %y = tk.rms_norm %x {epsilon = 0.25 : f32} : tensor<3x7xf32>
      return %y : tensor<3x7xf32>
    })");
  Tensor<double> expected({3, 7});
  for (int64_t r = 0; r < 3; ++r) {
    double ss = 0;
    for (int64_t i = 0; i < 7; ++i)
      ss += in[0].at({r, i}) * in[0].at({r, i});
    for (int64_t i = 0; i < 7; ++i)
      expected.at({r, i}) = in[0].at({r, i}) / std::sqrt(ss / 7 + 0.25);
  }
  expectNear(out[0], expected);
}

// A 3-block, 5-iteration kernel on odd tiles: Y = (X @ W) / rowmax(X), the
// max through a max accumulator and a thread graph doing the division.
TEST_F(InterpreterTest, BlockGraphOddGridAndLoop) {
  auto [in, out] = run(R"(
    func.func @f(%X: tensor<3x15xf32>, %W: tensor<15x9xf32>) -> tensor<3x9xf32> {
      %Y = tk.fused grid [3, 1, 1] block [32, 1, 1] forloop 5
             (%x = %X : tensor<3x15xf32>, %w = %W : tensor<15x9xf32>) -> tensor<3x9xf32> {
        %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
                : tensor<3x15xf32> -> !tb.tile<3x3xf32>
        %wt = tb.input_iterator %w imap [1, -1, -1] fmap 0
                : tensor<15x9xf32> -> !tb.tile<3x3xf32>
        %p = tb.matmul %xt, %wt : !tb.tile<3x3xf32>, !tb.tile<3x3xf32> -> !tb.tile<3x3xf32>
        %m = tb.reduce max %xt dim 1 : !tb.tile<3x3xf32> -> !tb.tile<3x1xf32>
        %acc = tb.forloop_accum sum %p : (!tb.tile<3x3xf32>) -> !tb.tile<3x3xf32>
        %mx = tb.forloop_accum max %m : (!tb.tile<3x1xf32>) -> !tb.tile<3x1xf32>
        %y = th.graph (%a = %acc : !tb.tile<3x3xf32>, %b = %mx : !tb.tile<3x1xf32>)
               -> !tb.tile<3x3xf32> {
          %q = arith.divf %a, %b : f32
          th.yield %q : f32
        }
        %out = tb.output_saver %y omap [1, -1, -1] : !tb.tile<3x3xf32> -> tensor<3x9xf32>
        tb.yield %out : tensor<3x9xf32>
      }
      return %Y : tensor<3x9xf32>
    })");
  Tensor<double> expected({3, 9});
  for (int64_t i = 0; i < 3; ++i) {
    double rowMax = -INFINITY;
    for (int64_t k = 0; k < 15; ++k)
      rowMax = std::max(rowMax, in[0].at({i, k}));
    for (int64_t j = 0; j < 9; ++j) {
      double dot = 0;
      for (int64_t k = 0; k < 15; ++k)
        dot += in[0].at({i, k}) * in[1].at({k, j});
      expected.at({i, j}) = dot / rowMax;
    }
  }
  expectNear(out[0], expected);
}

// Online softmax's accumulator against its definition, two-pass.
TEST_F(InterpreterTest, SumRescaleMatchesDefinition) {
  auto [in, out] = run(R"(
    func.func @f(%X: tensor<3x10xf32>, %S: tensor<3x5xf32>) -> tensor<3x2xf32> {
      %Y = tk.fused grid [1, 1, 1] block [32, 1, 1] forloop 5
             (%x = %X : tensor<3x10xf32>, %s = %S : tensor<3x5xf32>) -> tensor<3x2xf32> {
        %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
                : tensor<3x10xf32> -> !tb.tile<3x2xf32>
        %st = tb.input_iterator %s imap [-1, -1, -1] fmap 1
                : tensor<3x5xf32> -> !tb.tile<3x1xf32>
        %acc = tb.forloop_accum sum_rescale %xt, %st
                 : (!tb.tile<3x2xf32>, !tb.tile<3x1xf32>) -> !tb.tile<3x2xf32>
        %out = tb.output_saver %acc omap [-1, -1, -1] : !tb.tile<3x2xf32> -> tensor<3x2xf32>
        tb.yield %out : tensor<3x2xf32>
      }
      return %Y : tensor<3x2xf32>
    })");
  Tensor<double> expected({3, 2});
  for (int64_t r = 0; r < 3; ++r) {
    double m = -INFINITY;
    for (int64_t i = 0; i < 5; ++i)
      m = std::max(m, in[1].at({r, i}));
    for (int64_t c = 0; c < 2; ++c)
      for (int64_t i = 0; i < 5; ++i)
        expected.at({r, c}) +=
            std::exp(in[1].at({r, i}) - m) * in[0].at({r, 2 * i + c});
  }
  expectNear(out[0], expected);
}

// Blocks run in lock step, yet a failure is the one block-by-block order
// meets first: block 0 divides by zero in the th.graph, block 1 already in
// the tb.binary before it.
TEST_F(InterpreterTest, BlockGraphFailureIsReportedInGridOrder) {
  module = parseSourceString<ModuleOp>(R"(
    func.func @f(%X: tensor<1x4xf32>, %Y: tensor<1x4xf32>, %Z: tensor<1x4xf32>)
        -> tensor<1x4xf32> {
      %R = tk.fused grid [2, 1, 1] block [32, 1, 1] forloop 1
             (%x = %X : tensor<1x4xf32>, %y = %Y : tensor<1x4xf32>,
              %z = %Z : tensor<1x4xf32>) -> tensor<1x4xf32> {
        %xt = tb.input_iterator %x imap [1, -1, -1] fmap -1
                : tensor<1x4xf32> -> !tb.tile<1x2xf32>
        %yt = tb.input_iterator %y imap [1, -1, -1] fmap -1
                : tensor<1x4xf32> -> !tb.tile<1x2xf32>
        %zt = tb.input_iterator %z imap [1, -1, -1] fmap -1
                : tensor<1x4xf32> -> !tb.tile<1x2xf32>
        %q = tb.binary div %xt, %yt
               : !tb.tile<1x2xf32>, !tb.tile<1x2xf32> -> !tb.tile<1x2xf32>
        %r = th.graph (%a = %q : !tb.tile<1x2xf32>, %b = %zt : !tb.tile<1x2xf32>)
               -> !tb.tile<1x2xf32> {
          %d = arith.divf %a, %b : f32
          th.yield %d : f32
        }
        %acc = tb.forloop_accum sum %r
                 : (!tb.tile<1x2xf32>) -> !tb.tile<1x2xf32>
        %out = tb.output_saver %acc omap [1, -1, -1]
                 : !tb.tile<1x2xf32> -> tensor<1x4xf32>
        tb.yield %out : tensor<1x4xf32>
      }
      return %R : tensor<1x4xf32>
    })", &context);
  ASSERT_TRUE(module);
  auto tensor = [](std::initializer_list<uint32_t> values) {
    Tensor<FieldElement> t({1, 4});
    for (auto [i, v] : llvm::enumerate(values))
      t[i] = {v, v};
    return t;
  };
  SmallVector<Tensor<FieldElement>> inputs = {
      tensor({1, 2, 3, 4}), tensor({5, 6, 0, 0}), tensor({0, 0, 7, 8})};
  std::string errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    errors += d.str();
    return success();
  });
  FieldDomain field;
  EXPECT_TRUE(failed(interpret<FieldDomain>(
      *module->getOps<func::FuncOp>().begin(), inputs, field)));
  EXPECT_EQ(errors.find("'th.graph' op division by zero"), 0u) << errors;
}

TEST_F(InterpreterTest, WrongInputShapeIsReported) {
  module = parseSourceString<ModuleOp>(R"(
    func.func @f(%x: tensor<3x7xf32>) -> tensor<3x7xf32> {
      return %x : tensor<3x7xf32>
    })", &context);
  std::string errors;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    errors += d.str();
    return success();
  });
  SmallVector<Tensor<double>> inputs = {Tensor<double>({7, 3})};
  EXPECT_TRUE(failed(interpret(*module->getOps<func::FuncOp>().begin(), inputs)));
  EXPECT_NE(errors.find("input #0 has shape [7, 3], the argument needs [3, 7]"),
            std::string::npos)
      << errors;
}

//===----------------------------------------------------------------------===//
// Field domain
//===----------------------------------------------------------------------===//

TEST(FieldDomainTest, ExpIsAHomomorphism) {
  FieldDomain f(7);
  SplitMix64 rng(3);
  for (int i = 0; i < 100; ++i) {
    FieldElement a = f.random(rng), b = f.random(rng);
    EXPECT_EQ(f.exp(f.add(a, b)).p, f.mul(f.exp(a), f.exp(b)).p);
    EXPECT_EQ(f.exp(f.neg(a)).p, f.div(f.constant(APFloat(1.0)), f.exp(a)).p);
  }
  EXPECT_EQ(f.exp(f.zero()).p, 1u);
  EXPECT_FALSE(f.failed());
}

TEST(FieldDomainTest, DyadicConstantsAndCountsAreExact) {
  FieldDomain f;
  FieldElement half = f.constant(APFloat(0.5));
  EXPECT_EQ(f.mul(half, f.constant(APFloat(2.0))), f.constant(APFloat(1.0)));
  EXPECT_EQ(f.constant(APFloat(2.44140625e-4)), f.inverseCount(4096));
  EXPECT_EQ(f.mul(f.inverseCount(7), f.constant(APFloat(7.0))),
            f.constant(APFloat(1.0)));
  EXPECT_EQ(f.constant(APFloat(-3.0)), f.neg(f.constant(APFloat(3.0))));
  EXPECT_FALSE(f.failed());
}

TEST(FieldDomainTest, WhatItCannotModelIsReported) {
  FieldDomain f;
  (void)f.div(f.constant(APFloat(1.0)), f.zero());
  EXPECT_NE(f.takeError()->find("division by zero"), std::string::npos);
  (void)f.exp(f.exp(f.constant(APFloat(1.0))));
  EXPECT_NE(f.takeError()->find("at most one exp"), std::string::npos);
  (void)f.pow(f.zero(), f.zero());
  EXPECT_NE(f.takeError()->find("pow"), std::string::npos);
  (void)f.constant(APFloat::getInf(APFloat::IEEEsingle()));
  EXPECT_TRUE(f.takeError().has_value());
}

TEST(FieldDomainTest, MaxIsASemilatticeThatPicksAnOperand) {
  FieldDomain f(11);
  SplitMix64 rng(5);
  int firstWins = 0;
  for (int i = 0; i < 200; ++i) {
    FieldElement a = f.random(rng), b = f.random(rng), c = f.random(rng);
    EXPECT_EQ(f.maximum(a, b), f.maximum(b, a));
    EXPECT_EQ(f.maximum(f.maximum(a, b), c), f.maximum(a, f.maximum(b, c)));
    EXPECT_EQ(f.maximum(a, a), a);
    firstWins += f.maximum(a, b) == a;
  }
  // A coin flip, not a fixed side: replacing max by an operand is caught.
  EXPECT_GT(firstWins, 60);
  EXPECT_LT(firstWins, 140);
}

} // namespace
