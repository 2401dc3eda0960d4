//===- AbstractExprTest.cpp - Normal forms and sound pruning --------------===//
//
// The abstract expressions the superoptimizer prunes with
// (docs/superoptimizer.md, "Pruning and soundness"): the normal forms that
// make the axioms hold by construction, the terms of known-equivalent
// programs, and the soundness of the subexpression check, shown by
// enumerating small programs exhaustively without it.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Superopt/AbstractExpr.h"
#include "TileOpt/Superopt/Abstraction.h"

// The soundness test builds graphs with the search's own ops and materializes
// them the way the search does.
#include "Enumerate.h"
#include "Materialize.h"

#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Verifier/Verifier.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Parser/Parser.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

//===----------------------------------------------------------------------===//
// Normal forms
//===----------------------------------------------------------------------===//

class AbstractExprNormalForm : public ::testing::Test {
protected:
  ExprContext ctx;
  // Created first, so that their ids order commutative operands in print.
  const Expr *x = ctx.input(0), *y = ctx.input(1), *z = ctx.input(2),
             *w = ctx.input(3);
};

TEST_F(AbstractExprNormalForm, EqualTermsAreOnePointer) {
  EXPECT_EQ(ctx.input(0), x);
  EXPECT_NE(x, y);
  EXPECT_EQ(ctx.sum(8, ctx.mul({x, y})), ctx.sum(8, ctx.mul({x, y})));
  EXPECT_EQ(ctx.constant(0.5), ctx.constant(0.5));
  // 1/64 * 1/64 meets 1/4096 written once as an f32 attribute.
  EXPECT_EQ(ctx.scale(ctx.scale(x, 1.0 / 64), 1.0 / 64),
            ctx.scale(x, static_cast<float>(1.0 / 4096)));
  size_t before = ctx.size();
  ctx.add({y, x});
  ctx.add({x, y});
  EXPECT_EQ(ctx.size(), before + 1);
}

TEST_F(AbstractExprNormalForm, AddAndMulAreAssociativeAndCommutative) {
  const Expr *sum = ctx.add({x, ctx.add({y, z})});
  EXPECT_EQ(sum, ctx.add({ctx.add({z, x}), y}));
  EXPECT_EQ(sum->str(), "(in0 + in1 + in2)");
  const Expr *product = ctx.mul({z, ctx.mul({y, x})});
  EXPECT_EQ(product, ctx.mul({ctx.mul({x, z}), y}));
  EXPECT_EQ(product->str(), "(in0 * in1 * in2)");
  // Like terms and coefficients combine.
  EXPECT_EQ(ctx.add({x, x})->str(), "(2 * in0)");
  EXPECT_EQ(ctx.add({ctx.mul({x, y}), ctx.scale(ctx.mul({y, x}), 2)})->str(),
            "(3 * in0 * in1)");
  EXPECT_EQ(ctx.sub(x, x)->str(), "0");
  EXPECT_NE(ctx.add({x, y}), ctx.mul({x, y}));
}

TEST_F(AbstractExprNormalForm, PowersCountInHalves) {
  EXPECT_EQ(ctx.mul({x, x}), ctx.power(x, 4));
  EXPECT_EQ(ctx.mul({x, x})->str(), "(in0^2)");
  EXPECT_EQ(ctx.power(x, 1)->str(), "(in0^0.5)");
  EXPECT_EQ(ctx.power(x, -1)->str(), "(in0^-0.5)");
  EXPECT_EQ(ctx.div(x, y)->str(), "(in0 * in1^-1)");
  // sqrt(x) sqrt(x) = x; x / sqrt(y) = x rsqrt(y); x / x = 1.
  EXPECT_EQ(ctx.mul({ctx.power(x, 1), ctx.power(x, 1)}), x);
  EXPECT_EQ(ctx.div(x, ctx.power(y, 1)), ctx.mul({x, ctx.power(y, -1)}));
  EXPECT_EQ(ctx.div(ctx.mul({x, y}), x), y);
  // sqrt of a product is a product of square roots while the exponents stay
  // in halves; beyond that the product is one base.
  EXPECT_EQ(ctx.power(ctx.mul({x, x, y, y}), -1)->str(), "(in0^-1 * in1^-1)");
  EXPECT_EQ(ctx.power(ctx.mul({x, y}), 1)->str(), "(in0^0.5 * in1^0.5)");
  EXPECT_EQ(ctx.power(ctx.mul({ctx.power(x, 1), y}), 1)->str(),
            "((in0^0.5 * in1)^0.5)");
}

TEST_F(AbstractExprNormalForm, ProductsDistributeOverSums) {
  const Expr *s = ctx.sum(8, x);
  EXPECT_EQ(ctx.mul({y, s}), ctx.sum(8, ctx.mul({y, x})));
  EXPECT_EQ(ctx.mul({y, s})->str(), "sum8((in0 * in1))");
  EXPECT_EQ(ctx.scale(s, 3), ctx.sum(8, ctx.scale(x, 3)));
  EXPECT_EQ(ctx.sum(4, ctx.sum(2, x)), s);
  EXPECT_EQ(ctx.sum(2, ctx.sum(4, x)), s);
  EXPECT_NE(ctx.sum(4, x), s);
  // A sum is linear; a product distributes over an add.
  EXPECT_EQ(ctx.sum(8, ctx.add({x, y})), ctx.add({ctx.sum(8, x), ctx.sum(8, y)}));
  EXPECT_EQ(ctx.mul({z, ctx.add({x, y})}),
            ctx.add({ctx.mul({z, x}), ctx.mul({z, y})}));
  // Only a sum with exponent 1 takes factors in: 1 / sum(x) is a base.
  EXPECT_EQ(ctx.div(y, s)->str(), "(in1 * sum8(in0)^-1)");
  EXPECT_EQ(ctx.max(2, ctx.max(4, x)), ctx.max(8, x));
}

TEST_F(AbstractExprNormalForm, ExpTurnsSumsIntoProducts) {
  EXPECT_EQ(ctx.exp(ctx.add({x, y})), ctx.mul({ctx.exp(x), ctx.exp(y)}));
  EXPECT_EQ(ctx.exp(ctx.scale(x, 2)), ctx.power(ctx.exp(x), 4));
  EXPECT_EQ(ctx.exp(ctx.sub(x, y))->str(), "(exp(in0) * exp(in1)^-1)");
  EXPECT_EQ(ctx.exp(ctx.scale(x, 0.5))->str(), "exp((0.5 * in0))");
  // The max-shift of a stable softmax is forgotten.
  const Expr *shifted = ctx.exp(ctx.sub(x, ctx.max(8, x)));
  EXPECT_EQ(shifted, ctx.exp(x));
  const Expr *softmax = ctx.div(shifted, ctx.sum(8, shifted));
  EXPECT_EQ(softmax, ctx.div(ctx.exp(x), ctx.sum(8, ctx.exp(x))));
  EXPECT_EQ(softmax->str(), "(exp(in0) * sum8(exp(in0))^-1)");
}

TEST_F(AbstractExprNormalForm, ConcatThenMatmulSplitsWhenTheSplitsMatch) {
  const Expr *ab = ctx.concat({x, y}, {3, 5});
  const Expr *cd = ctx.concat({z, w}, {3, 5});
  const Expr *lora = ctx.matmul(ab, cd, 8);
  EXPECT_EQ(lora, ctx.add({ctx.matmul(x, z, 3), ctx.matmul(y, w, 5)}));
  EXPECT_EQ(lora->str(), "(sum3((in0 * in2)) + sum5((in1 * in3)))");
  // Parts of other extents do not meet: the product stays whole.
  const Expr *evenCd = ctx.concat({z, w}, {4, 4});
  const Expr *mismatched = ctx.matmul(ab, evenCd, 8);
  EXPECT_NE(mismatched, ctx.add({ctx.matmul(x, z, 4), ctx.matmul(y, w, 4)}));
  EXPECT_EQ(mismatched, ctx.sum(8, ctx.mul({ab, evenCd})));
}

TEST_F(AbstractExprNormalForm, MeanAndRmsNormExpand) {
  EXPECT_EQ(ctx.mean(8, x), ctx.div(ctx.sum(8, x), ctx.constant(8)));
  EXPECT_EQ(ctx.mean(8, x), ctx.sum(8, ctx.scale(x, 0.125)));
  EXPECT_EQ(ctx.mean(8, x)->str(), "sum8((0.125 * in0))");
  const Expr *norm = ctx.rmsNorm(x, 8, 0.5);
  EXPECT_EQ(norm, ctx.div(x, ctx.power(ctx.add({ctx.mean(8, ctx.mul({x, x})),
                                                ctx.constant(0.5)}),
                                       1)));
  EXPECT_EQ(norm->str(), "(in0 * (sum8((0.125 * in0^2)) + 0.5)^-0.5)");
  // Without an epsilon, x rsqrt(mean(x^2)).
  EXPECT_EQ(ctx.rmsNorm(x, 8, 0),
            ctx.mul({x, ctx.power(ctx.mean(8, ctx.power(x, 4)), -1)}));
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

class AbstractExprProgram : public ::testing::Test {
protected:
  AbstractExprProgram() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry.insert<func::FuncDialect, arith::ArithDialect, math::MathDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  void parse(StringRef text) {
    module = parseSourceString<ModuleOp>(text, &context);
    ASSERT_TRUE(module);
  }

  func::FuncOp lookup(StringRef name) {
    auto func = module->lookupSymbol<func::FuncOp>(name);
    EXPECT_TRUE(func) << name.str();
    return func;
  }

  /// The terms of `name`'s results.
  SmallVector<const Expr *> resultTerms(StringRef name) {
    func::FuncOp func = lookup(name);
    FailureOr<llvm::DenseMap<Value, const Expr *>> exprs =
        abstractValues(func, ctx);
    EXPECT_TRUE(succeeded(exprs)) << name.str();
    SmallVector<const Expr *> terms;
    if (succeeded(exprs))
      for (Value v : func.getBody().front().getTerminator()->getOperands())
        terms.push_back(exprs->lookup(v));
    return terms;
  }

  /// Whether the verifier finds `a` and `b` equivalent, so that the terms
  /// are compared on programs that really are.
  bool equivalent(StringRef a, StringRef b) {
    FailureOr<verifier::VerificationResult> result =
        verifier::checkEquivalence(lookup(a), lookup(b));
    return succeeded(result) && result->equivalent;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  ExprContext ctx;
};

// rms_norm(X) @ W, and examples/ugraph/rmsnorm_linear.mlir at smaller sizes
// with the epsilon the example leaves out: each block accumulates X_i @ W_i
// and the sums of X_i^2 over the hidden dim, then divides once.
constexpr StringLiteral kRmsNormLinear = R"mlir(
func.func @reference(%X: tensor<16x256xf32>, %W: tensor<256x128xf32>)
    -> tensor<16x128xf32> {
  %n = tk.rms_norm %X {epsilon = 1.0e-5 : f32} : tensor<16x256xf32>
  %y = tk.matmul %n, %W
         : tensor<16x256xf32>, tensor<256x128xf32> -> tensor<16x128xf32>
  return %y : tensor<16x128xf32>
}

func.func @fused(%X: tensor<16x256xf32>, %W: tensor<256x128xf32>)
    -> tensor<16x128xf32> {
  %Y = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4
         (%x = %X : tensor<16x256xf32>, %w = %W : tensor<256x128xf32>)
         -> tensor<16x128xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %wt = tb.input_iterator %w imap [1, -1, -1] fmap 0
            : tensor<256x128xf32> -> !tb.tile<64x64xf32>
    %xw = tb.matmul %xt, %wt
            : !tb.tile<16x64xf32>, !tb.tile<64x64xf32> -> !tb.tile<16x64xf32>
    %sq = tb.unary square %xt : !tb.tile<16x64xf32>
    %ss = tb.reduce sum %sq dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    %acc = tb.forloop_accum sum %xw
             : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %sum = tb.forloop_accum sum %ss
             : (!tb.tile<16x1xf32>) -> !tb.tile<16x1xf32>
    %mean = tb.unary mul_scalar(3.906250e-03) %sum : !tb.tile<16x1xf32>
    %var = tb.unary add_scalar(1.0e-5) %mean : !tb.tile<16x1xf32>
    %rms = tb.unary sqrt %var : !tb.tile<16x1xf32>
    %y = tb.binary div %acc, %rms
           : !tb.tile<16x64xf32>, !tb.tile<16x1xf32> -> !tb.tile<16x64xf32>
    %out = tb.output_saver %y omap [1, -1, -1]
             : !tb.tile<16x64xf32> -> tensor<16x128xf32>
    tb.yield %out : tensor<16x128xf32>
  }
  return %Y : tensor<16x128xf32>
}

// The example as it is: without the epsilon it computes something else.
func.func @fused_without_epsilon(%X: tensor<16x256xf32>,
                                 %W: tensor<256x128xf32>)
    -> tensor<16x128xf32> {
  %Y = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4
         (%x = %X : tensor<16x256xf32>, %w = %W : tensor<256x128xf32>)
         -> tensor<16x128xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %wt = tb.input_iterator %w imap [1, -1, -1] fmap 0
            : tensor<256x128xf32> -> !tb.tile<64x64xf32>
    %xw = tb.matmul %xt, %wt
            : !tb.tile<16x64xf32>, !tb.tile<64x64xf32> -> !tb.tile<16x64xf32>
    %sq = tb.unary square %xt : !tb.tile<16x64xf32>
    %ss = tb.reduce sum %sq dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    %acc = tb.forloop_accum sum %xw
             : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %sum = tb.forloop_accum sum %ss
             : (!tb.tile<16x1xf32>) -> !tb.tile<16x1xf32>
    %mean = tb.unary mul_scalar(3.906250e-03) %sum : !tb.tile<16x1xf32>
    %rms = tb.unary sqrt %mean : !tb.tile<16x1xf32>
    %y = tb.binary div %acc, %rms
           : !tb.tile<16x64xf32>, !tb.tile<16x1xf32> -> !tb.tile<16x64xf32>
    %out = tb.output_saver %y omap [1, -1, -1]
             : !tb.tile<16x64xf32> -> tensor<16x128xf32>
    tb.yield %out : tensor<16x128xf32>
  }
  return %Y : tensor<16x128xf32>
}
)mlir";

TEST_F(AbstractExprProgram, RmsNormLinearFusedWithEpsilon) {
  parse(kRmsNormLinear);
  ASSERT_TRUE(equivalent("reference", "fused"));
  EXPECT_EQ(resultTerms("fused"), resultTerms("reference"));
  EXPECT_EQ(resultTerms("reference").front()->str(),
            "sum256((in0 * in1 * (sum256((0.00390625 * in0^2)) + "
            "1e-05)^-0.5))");
  EXPECT_NE(resultTerms("fused_without_epsilon"), resultTerms("reference"));
}

// softmax(Q @ K) @ V, and FlashAttention's online softmax: two blocks of 8
// rows walk the 256 keys in four steps, accumulating against each step's
// own maximum and rescaling with sum_rescale.
constexpr StringLiteral kAttention = R"mlir(
func.func @reference(%Q: tensor<16x32xf32>, %K: tensor<32x256xf32>,
                     %V: tensor<256x32xf32>) -> tensor<16x32xf32> {
  %s = tk.matmul %Q, %K : tensor<16x32xf32>, tensor<32x256xf32> -> tensor<16x256xf32>
  %m = tk.reduce max %s dim 1 : tensor<16x256xf32> -> tensor<16x1xf32>
  %d = tk.binary sub %s, %m : tensor<16x256xf32>, tensor<16x1xf32> -> tensor<16x256xf32>
  %e = tk.unary exp %d : tensor<16x256xf32>
  %l = tk.reduce sum %e dim 1 : tensor<16x256xf32> -> tensor<16x1xf32>
  %p = tk.binary div %e, %l : tensor<16x256xf32>, tensor<16x1xf32> -> tensor<16x256xf32>
  %o = tk.matmul %p, %V : tensor<16x256xf32>, tensor<256x32xf32> -> tensor<16x32xf32>
  return %o : tensor<16x32xf32>
}

func.func @online(%Q: tensor<16x32xf32>, %K: tensor<32x256xf32>,
                  %V: tensor<256x32xf32>) -> tensor<16x32xf32> {
  %O = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4
         (%q = %Q : tensor<16x32xf32>, %k = %K : tensor<32x256xf32>,
          %v = %V : tensor<256x32xf32>) -> tensor<16x32xf32> {
    %qt = tb.input_iterator %q imap [0, -1, -1] fmap -1
            : tensor<16x32xf32> -> !tb.tile<8x32xf32>
    %kt = tb.input_iterator %k imap [-1, -1, -1] fmap 1
            : tensor<32x256xf32> -> !tb.tile<32x64xf32>
    %vt = tb.input_iterator %v imap [-1, -1, -1] fmap 0
            : tensor<256x32xf32> -> !tb.tile<64x32xf32>
    %st = tb.matmul %qt, %kt
            : !tb.tile<8x32xf32>, !tb.tile<32x64xf32> -> !tb.tile<8x64xf32>
    %m = tb.reduce max %st dim 1 : !tb.tile<8x64xf32> -> !tb.tile<8x1xf32>
    %d = tb.binary sub %st, %m
           : !tb.tile<8x64xf32>, !tb.tile<8x1xf32> -> !tb.tile<8x64xf32>
    %e = tb.unary exp %d : !tb.tile<8x64xf32>
    %l = tb.reduce sum %e dim 1 : !tb.tile<8x64xf32> -> !tb.tile<8x1xf32>
    %o = tb.matmul %e, %vt
           : !tb.tile<8x64xf32>, !tb.tile<64x32xf32> -> !tb.tile<8x32xf32>
    %oacc = tb.forloop_accum sum_rescale %o, %m
              : (!tb.tile<8x32xf32>, !tb.tile<8x1xf32>) -> !tb.tile<8x32xf32>
    %lacc = tb.forloop_accum sum_rescale %l, %m
              : (!tb.tile<8x1xf32>, !tb.tile<8x1xf32>) -> !tb.tile<8x1xf32>
    %r = tb.binary div %oacc, %lacc
           : !tb.tile<8x32xf32>, !tb.tile<8x1xf32> -> !tb.tile<8x32xf32>
    %out = tb.output_saver %r omap [0, -1, -1]
             : !tb.tile<8x32xf32> -> tensor<16x32xf32>
    tb.yield %out : tensor<16x32xf32>
  }
  return %O : tensor<16x32xf32>
}

// The same loop with the partial sums added without rescaling.
func.func @online_without_rescale(%Q: tensor<16x32xf32>,
                                  %K: tensor<32x256xf32>,
                                  %V: tensor<256x32xf32>)
    -> tensor<16x32xf32> {
  %O = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4
         (%q = %Q : tensor<16x32xf32>, %k = %K : tensor<32x256xf32>,
          %v = %V : tensor<256x32xf32>) -> tensor<16x32xf32> {
    %qt = tb.input_iterator %q imap [0, -1, -1] fmap -1
            : tensor<16x32xf32> -> !tb.tile<8x32xf32>
    %kt = tb.input_iterator %k imap [-1, -1, -1] fmap 1
            : tensor<32x256xf32> -> !tb.tile<32x64xf32>
    %vt = tb.input_iterator %v imap [-1, -1, -1] fmap 0
            : tensor<256x32xf32> -> !tb.tile<64x32xf32>
    %st = tb.matmul %qt, %kt
            : !tb.tile<8x32xf32>, !tb.tile<32x64xf32> -> !tb.tile<8x64xf32>
    %m = tb.reduce max %st dim 1 : !tb.tile<8x64xf32> -> !tb.tile<8x1xf32>
    %d = tb.binary sub %st, %m
           : !tb.tile<8x64xf32>, !tb.tile<8x1xf32> -> !tb.tile<8x64xf32>
    %e = tb.unary exp %d : !tb.tile<8x64xf32>
    %l = tb.reduce sum %e dim 1 : !tb.tile<8x64xf32> -> !tb.tile<8x1xf32>
    %o = tb.matmul %e, %vt
           : !tb.tile<8x64xf32>, !tb.tile<64x32xf32> -> !tb.tile<8x32xf32>
    %oacc = tb.forloop_accum sum %o
              : (!tb.tile<8x32xf32>) -> !tb.tile<8x32xf32>
    %lacc = tb.forloop_accum sum %l
              : (!tb.tile<8x1xf32>) -> !tb.tile<8x1xf32>
    %r = tb.binary div %oacc, %lacc
           : !tb.tile<8x32xf32>, !tb.tile<8x1xf32> -> !tb.tile<8x32xf32>
    %out = tb.output_saver %r omap [0, -1, -1]
             : !tb.tile<8x32xf32> -> tensor<16x32xf32>
    tb.yield %out : tensor<16x32xf32>
  }
  return %O : tensor<16x32xf32>
}
)mlir";

TEST_F(AbstractExprProgram, OnlineSoftmaxMeetsSoftmax) {
  parse(kAttention);
  ASSERT_TRUE(equivalent("reference", "online"));
  ASSERT_FALSE(equivalent("reference", "online_without_rescale"));
  EXPECT_EQ(resultTerms("online"), resultTerms("reference"));
  EXPECT_EQ(resultTerms("reference").front()->str(),
            "sum256((in2 * exp(sum32((in0 * in1))) * "
            "sum256(exp(sum32((in0 * in1))))^-1))");
  // The terms forget maxima, so they cannot tell the missing rescale: the
  // verifier does (above). Pruning stays sound, the terms only coarser.
  EXPECT_EQ(resultTerms("online_without_rescale"), resultTerms("reference"));
}

// X @ W, and split-K: the loop walks K in four steps into a sum accumulator,
// a grid of 2x2 blocks splits M and N.
constexpr StringLiteral kSplitK = R"mlir(
func.func @reference(%X: tensor<16x256xf32>, %W: tensor<256x64xf32>)
    -> tensor<16x64xf32> {
  %y = tk.matmul %X, %W : tensor<16x256xf32>, tensor<256x64xf32> -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

func.func @split_k(%X: tensor<16x256xf32>, %W: tensor<256x64xf32>)
    -> tensor<16x64xf32> {
  %Y = tk.fused grid [2, 2, 1] block [128, 1, 1] forloop 4
         (%x = %X : tensor<16x256xf32>, %w = %W : tensor<256x64xf32>)
         -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [0, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<8x64xf32>
    %wt = tb.input_iterator %w imap [-1, 1, -1] fmap 0
            : tensor<256x64xf32> -> !tb.tile<64x32xf32>
    %p = tb.matmul %xt, %wt
           : !tb.tile<8x64xf32>, !tb.tile<64x32xf32> -> !tb.tile<8x32xf32>
    %acc = tb.forloop_accum sum %p
             : (!tb.tile<8x32xf32>) -> !tb.tile<8x32xf32>
    %out = tb.output_saver %acc omap [0, 1, -1]
             : !tb.tile<8x32xf32> -> tensor<16x64xf32>
    tb.yield %out : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}
)mlir";

TEST_F(AbstractExprProgram, SplitKMeetsMatmul) {
  parse(kSplitK);
  ASSERT_TRUE(equivalent("reference", "split_k"));
  EXPECT_EQ(resultTerms("split_k"), resultTerms("reference"));
  EXPECT_EQ(resultTerms("reference").front()->str(), "sum256((in0 * in1))");
}

} // namespace
