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
#include "AbstractOps.h"
#include "Admissibility.h"
#include "ProgramModel.h"
#include "Materialize.h"

#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Verifier/Verifier.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include <gtest/gtest.h>

#include <functional>

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
  EXPECT_EQ(ctx.sum(8, ctx.add({x, y})),
            ctx.add({ctx.sum(8, x), ctx.sum(8, y)}));
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

TEST_F(AbstractExprNormalForm, OracleSplitsMaximaInsideASumOfTerms) {
  // The values of sum(exp(x - max(x))) over rows of 8: online softmax
  // subtracts the maximum of a tile of 4 instead.
  const Expr *rowMax = ctx.max(8, x);
  const Expr *shifted = ctx.sub(x, rowMax);
  SubexpressionOracle oracle(
      {x, rowMax, shifted, ctx.exp(shifted), ctx.sum(8, ctx.exp(shifted))});
  EXPECT_TRUE(oracle.mayBeSubexpression(ctx.max(4, x)));
  EXPECT_TRUE(oracle.mayBeSubexpression(ctx.sub(x, ctx.max(4, x))));
  EXPECT_FALSE(oracle.mayBeSubexpression(ctx.sub(x, ctx.max(3, x))));
  EXPECT_FALSE(oracle.mayBeSubexpression(ctx.sub(x, ctx.max(4, y))));
  EXPECT_FALSE(oracle.mayBeSubexpression(ctx.sub(x, ctx.sum(4, x))));
}

// A map is an uninterpreted function: equal to itself on equal arguments,
// and nothing moves through it.
TEST_F(AbstractExprNormalForm, MapsAreUninterpretedFunctions) {
  int64_t f = ctx.function("f"), g = ctx.function("g");
  EXPECT_EQ(ctx.function("f"), f);
  EXPECT_NE(f, g);
  const Expr *fx = ctx.map(f, {x});
  EXPECT_EQ(ctx.map(f, {x}), fx);
  EXPECT_EQ(fx->getKind(), ExprKind::Map);
  EXPECT_NE(ctx.map(g, {x}), fx);
  EXPECT_NE(ctx.map(f, {y}), fx);
  EXPECT_NE(ctx.map(f, {x, y}), ctx.map(f, {y, x}));
  EXPECT_NE(ctx.map(f, {ctx.scale(x, 2)}), ctx.scale(fx, 2));
  EXPECT_NE(ctx.map(f, {ctx.add({x, y})}), ctx.add({fx, ctx.map(f, {y})}));
  EXPECT_EQ(ctx.map(f, {ctx.sum(4, x)})->str(), "map0(sum4(in0))");

  // Pruning: a map of the program's arguments, or a part of the sum around
  // it, may be a subexpression; a map of a partial sum, or another map, not.
  const Expr *inner = ctx.map(f, {ctx.sum(4, x)});
  const Expr *target = ctx.sum(8, ctx.mul({inner, y}));
  SubexpressionOracle oracle(ArrayRef<const Expr *>{target});
  EXPECT_TRUE(oracle.mayBeSubexpression(inner));
  EXPECT_TRUE(oracle.mayBeSubexpression(ctx.sum(4, x)));
  EXPECT_TRUE(oracle.mayBeSubexpression(ctx.sum(2, ctx.mul({inner, y}))));
  EXPECT_FALSE(oracle.mayBeSubexpression(ctx.map(f, {ctx.sum(2, x)})));
  EXPECT_FALSE(oracle.mayBeSubexpression(ctx.map(g, {ctx.sum(4, x)})));
  EXPECT_FALSE(oracle.mayBeSubexpression(fx));
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

class AbstractExprProgram : public ::testing::Test {
protected:
  AbstractExprProgram() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry
        .insert<func::FuncDialect, arith::ArithDialect, math::MathDialect>();
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

  /// Single-threaded: the enumerations verify hundreds of thousands of small
  /// candidates, and with threads mlir::verify hands the region of each
  /// fused op to the thread pool, where waking the workers costs more than
  /// the verification.
  MLIRContext context{MLIRContext::Threading::DISABLED};
  OwningOpRef<ModuleOp> module;
  ExprContext ctx;
};

// Maps are one function when their scalar code is the same, whatever its
// names; a th.graph cloned from a map (how the search places it in a block
// graph) is that function too.
constexpr StringLiteral kMaps = R"mlir(
func.func @maps(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>)
    -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>,
        tensor<8x64xf32>, tensor<8x64xf32>) {
  %a = tk.map (%p = %x : tensor<8x64xf32>) -> tensor<8x64xf32> {
    %six = arith.constant 6.0 : f32
    %m = arith.minimumf %p, %six : f32
    tk.yield %m : f32
  }
  %b = tk.map (%q = %x : tensor<8x64xf32>) -> tensor<8x64xf32> {
    %c = arith.constant 6.0 : f32
    %r = arith.minimumf %q, %c : f32
    tk.yield %r : f32
  }
  %c = tk.map (%p = %x : tensor<8x64xf32>) -> tensor<8x64xf32> {
    %five = arith.constant 5.0 : f32
    %m = arith.minimumf %p, %five : f32
    tk.yield %m : f32
  }
  %d = tk.map (%p = %x : tensor<8x64xf32>) -> tensor<8x64xf32> {
    %six = arith.constant 6.0 : f32
    %m = arith.maximumf %p, %six : f32
    tk.yield %m : f32
  }
  %e = tk.map (%p = %y : tensor<8x64xf32>) -> tensor<8x64xf32> {
    %six = arith.constant 6.0 : f32
    %m = arith.minimumf %p, %six : f32
    tk.yield %m : f32
  }
  return %a, %b, %c, %d, %e
    : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>,
      tensor<8x64xf32>, tensor<8x64xf32>
}

func.func @thread_graph(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
         (%xx = %x : tensor<8x64xf32>) -> tensor<8x64xf32> {
    %t = tb.input_iterator %xx imap [-1, -1, -1] fmap -1
           : tensor<8x64xf32> -> !tb.tile<8x64xf32>
    %g = th.graph (%s = %t : !tb.tile<8x64xf32>) -> !tb.tile<8x64xf32> {
      %six = arith.constant 6.0 : f32
      %m = arith.minimumf %s, %six : f32
      th.yield %m : f32
    }
    %acc = tb.forloop_accum none %g
             : (!tb.tile<8x64xf32>) -> !tb.tile<8x64xf32>
    %out = tb.output_saver %acc omap [-1, -1, -1]
             : !tb.tile<8x64xf32> -> tensor<8x64xf32>
    tb.yield %out : tensor<8x64xf32>
  }
  return %r : tensor<8x64xf32>
}
)mlir";

TEST_F(AbstractExprProgram, MapsAreKeyedByTheirScalarCode) {
  parse(kMaps);
  SmallVector<const Expr *> maps = resultTerms("maps");
  ASSERT_EQ(maps.size(), 5u);
  EXPECT_EQ(maps[0]->getKind(), ExprKind::Map);
  EXPECT_EQ(maps[0]->getOperands()[0], ctx.input(0));
  EXPECT_EQ(maps[0], maps[1]) << "other names, the same code";
  EXPECT_NE(maps[0], maps[2]) << "another constant";
  EXPECT_NE(maps[0], maps[3]) << "another op";
  EXPECT_NE(maps[0], maps[4]) << "another operand";
  EXPECT_EQ(maps[4]->getCount(), maps[0]->getCount());
  SmallVector<const Expr *> graph = resultTerms("thread_graph");
  ASSERT_EQ(graph.size(), 1u);
  EXPECT_EQ(graph[0], maps[0]);
}

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

//===----------------------------------------------------------------------===//
// Soundness: no equivalent graph is pruned
//===----------------------------------------------------------------------===//

namespace {

/// The ops the exhaustive enumeration tries: those of the program and some
/// it does not use. Scalar ops (add_scalar, mul_scalar, rms_norm) take the
/// program's constants, as in the search.
struct Vocabulary {
  SmallVector<UnaryKind> unary;
  SmallVector<ReduceKind> reduce;
  SmallVector<BinaryKind> binary;
  bool scalars = false;
  /// The program's maps (uninterpreted functions), on every operand tuple.
  bool maps = false;
};

/// A dim of a program argument, which names the axis it indexes.
struct ArgDim {
  int argument;
  int64_t dim;
};

/// One partition of a block graph: grid dims, and the loop.
struct Partition {
  SmallVector<std::pair<ArgDim, int64_t>, 2> grid; // axis, blocks
  std::optional<ArgDim> loop;
  int64_t forloopRange = 1;
};

struct SoundnessCase {
  StringRef function;
  Vocabulary vocabulary;
  unsigned kernelOps, blockOps;
  SmallVector<Partition> partitions;
  /// An argument that equivalent graphs may factor out of the program's
  /// terms: X W + X A B = X (W + A B). The oracle admits parts of the
  /// program's terms only, and W + A B is none, so the search loses such
  /// graphs; their rejected values (terms without the argument) are
  /// counted apart instead of failing the test.
  std::optional<int64_t> factoredArgument = std::nullopt;
  /// Whether some kept graph must use a loop-invariant tile after the
  /// accumulators (the one-kernel form needs it).
  bool needsPostLoopInvariant = false;
};

/// Split-K / split-KV: a first kernel whose grid splits a reduced axis into
/// `chunks` writes per-block partial results (up to `partialOutputs`), and
/// a second one combines them, its loop walking the chunks.
struct SplitCase {
  unsigned partialOps, partialOutputs, combineOps;
  ArgDim split;
  int64_t chunks;
};

struct SoundnessCounts {
  uint64_t candidates = 0;   // complete graphs verified
  uint64_t equivalent = 0;   // verified equivalent
  uint64_t admitted = 0;     // ... that the search's `admissible` admits
  uint64_t sameOutput = 0;   // ... whose output term is the program's
  uint64_t kept = 0;         // ... none of whose values the oracle rejects
  uint64_t prunedValues = 0; // values of partial graphs the oracle rejects
  uint64_t values = 0;
  uint64_t factored = 0; // equivalent graphs lost to factoredArgument only
  /// Kept graphs with an op after the accumulators on a loop-invariant tile.
  uint64_t keptPostLoopInvariant = 0;
};

/// Per tile of `g`: whether it is the same in every iteration of a loop
/// (`looped`): a tile the loop does not walk, or computed from such alone.
SmallVector<bool, 16> invariantTiles(const BlockGraph &g, bool looped) {
  SmallVector<bool, 16> invariant;
  for (const BlockInput &in : g.inputs)
    invariant.push_back(looped && in.fmap < 0);
  for (const OpDesc &op : g.ops)
    invariant.push_back(op.kind != OpKind::Accum &&
                        llvm::all_of(op.operands,
                                     [&](int o) { return invariant[o]; }));
  return invariant;
}

/// Whether `e` reads argument `argument`.
bool reads(const Expr *e, int64_t argument) {
  if (e->getKind() == ExprKind::Input)
    return e->getCount() == argument;
  return llvm::any_of(e->getOperands(),
                      [&](const Expr *o) { return reads(o, argument); });
}

/// Enumerates every graph of a vocabulary up to a size, without pruning,
/// as kernel graphs of tk ops and as single block graphs under given
/// partitions; verifies each complete one against the program, and records
/// every equivalent one of which the oracle would reject a value.
class ExhaustiveEnumeration {
public:
  ExhaustiveEnumeration(func::FuncOp program, ExprContext &ctx,
                        const ProgramInfo &info, const SoundnessCase &c)
      : ctx(ctx), info(info), c(c), oracle(info.makeOracle()), checker(program),
        type(program.getFunctionType()),
        scratch(ModuleOp::create(UnknownLoc::get(program.getContext()))) {}

  void run() {
    SmallVector<ValueInfo, 8> values(info.arguments.begin(),
                                     info.arguments.end());
    SmallVector<OpDesc, 8> ops;
    growKernel(values, ops, {-1, 0}, /*admitted=*/true);
    for (const Partition &p : c.partitions)
      runBlock(p, c.blockOps);
  }

  /// Every partial kernel under `split`'s grid and every combining kernel
  /// over its partial results.
  void runSplit(const SplitCase &split);

  SoundnessCounts counts;
  /// Equivalent graphs with a value the oracle rejects, or whose output
  /// term is not the program's: each is a graph the search cannot find.
  SmallVector<std::string> lost;
  /// How many of `lost` only have a different output term.
  uint64_t lostToNormalForm = 0;

private:
  using Key = std::pair<int, int>; // newest operand, proposal number

  /// Ops whose newest operand is `t`, in a fixed order: values meet within
  /// their phase (`post`), loop-invariant ones (`invariant`) with any.
  SmallVector<OpDesc> propose(ArrayRef<ValueInfo> values, ArrayRef<bool> post,
                              ArrayRef<bool> invariant, int t) const;
  /// `admitted`: whether the search's rule against duplicate values and
  /// reductions over axes the program keeps (`admissible`) admits every op.
  void growKernel(SmallVectorImpl<ValueInfo> &values,
                  SmallVectorImpl<OpDesc> &ops, Key last, bool admitted);
  void runBlock(const Partition &p, unsigned ops);
  void growBlock(BlockGraph &g, Key last, int accumKind, bool admitted);
  std::optional<BlockOutput> blockOutput(const BlockGraph &g,
                                         int accumKind) const;
  /// Counts a new value of a partial graph against the oracle.
  void count(const ValueInfo &v) {
    ++counts.values;
    counts.prunedValues += !oracle.mayBeSubexpression(v.expr);
  }
  /// Verifies `g`; `terms` are the terms the enumeration built, in the order
  /// of the materialized function's ops.
  void check(const KernelGraph &g, ArrayRef<size_t> choices,
             ArrayRef<const Expr *> terms, bool admitted);

  ExprContext &ctx;
  const ProgramInfo &info;
  const SoundnessCase &c;
  SubexpressionOracle oracle;
  verifier::EquivalenceChecker checker;
  FunctionType type;
  OwningOpRef<ModuleOp> scratch;
  Partition partition;
  unsigned blockOps = 0;

  /// The partial kernel's outputs as chunks of partial results, or nothing
  /// when a value it leaves unused is not after an accumulator or there are
  /// more than the case allows.
  std::optional<SmallVector<BlockOutput, 3>>
  partialOutputs(const BlockGraph &g) const;
  /// Enumerates the combining kernels over the partial kernel `first`.
  void runCombine(const BlockGraph &first, bool admitted);
  /// Set while the combining kernels of a partial kernel are enumerated.
  const SplitCase *split = nullptr;
  const BlockGraph *partialKernel = nullptr;
  bool partialAdmitted = true;
};

SmallVector<OpDesc> ExhaustiveEnumeration::propose(ArrayRef<ValueInfo> values,
                                                   ArrayRef<bool> post,
                                                   ArrayRef<bool> invariant,
                                                   int t) const {
  SmallVector<OpDesc> ops;
  auto unary = [&](UnaryKind kind, double scalar) {
    ops.push_back({OpKind::Unary, static_cast<int>(kind), scalar, 0, {t}});
  };
  for (UnaryKind kind : c.vocabulary.unary)
    unary(kind, 0);
  if (c.vocabulary.scalars) {
    for (double a : info.addends) {
      unary(UnaryKind::add_scalar, a);
      ops.push_back({OpKind::RmsNorm, 0, a, 0, {t}});
    }
    for (double f : info.factors)
      unary(UnaryKind::mul_scalar, f);
  }
  for (ReduceKind kind : c.vocabulary.reduce)
    for (int64_t d = 0; d < static_cast<int64_t>(values[t].shape.size()); ++d)
      ops.push_back({OpKind::Reduce, static_cast<int>(kind), 0, d, {t}});
  // Every tuple of values one of which is `t`, all in one phase: not only
  // those the search proposes (the terms the program applies a map to).
  auto meets = [&](int u, int v) {
    return post[u] == post[v] || invariant[u] || invariant[v];
  };
  if (c.vocabulary.maps)
    for (const ProgramInfo::MapFunction &map : info.maps) {
      SmallVector<int, 2> operands;
      std::function<void()> choose = [&] {
        if (operands.size() == map.applications.front().size()) {
          if (llvm::is_contained(operands, t))
            ops.push_back(
                {OpKind::Map, static_cast<int>(map.function), 0, 0, operands});
          return;
        }
        for (int u = 0; u <= t; ++u) {
          if (!llvm::all_of(operands, [&](int o) { return meets(o, u); }))
            continue;
          operands.push_back(u);
          choose();
          operands.pop_back();
        }
      };
      choose();
    }
  for (int u = 0; u <= t; ++u) {
    if (post[u] != post[t] && !invariant[u] && !invariant[t])
      continue;
    for (BinaryKind kind : c.vocabulary.binary) {
      ops.push_back({OpKind::Binary, static_cast<int>(kind), 0, 0, {u, t}});
      bool commutes = kind == BinaryKind::add || kind == BinaryKind::mul;
      if (u != t && !commutes)
        ops.push_back({OpKind::Binary, static_cast<int>(kind), 0, 0, {t, u}});
    }
    ops.push_back({OpKind::Matmul, 0, 0, 0, {u, t}});
    if (u != t)
      ops.push_back({OpKind::Matmul, 0, 0, 0, {t, u}});
  }
  return ops;
}

/// Values of `values` from `first` on that no op in `ops` reads.
static unsigned unusedFrom(ArrayRef<OpDesc> ops, size_t first, size_t size) {
  SmallVector<bool, 16> used(size, false);
  for (const OpDesc &op : ops)
    for (int o : op.operands)
      used[o] = true;
  return llvm::count(ArrayRef(used).drop_front(first), false);
}

void ExhaustiveEnumeration::growKernel(SmallVectorImpl<ValueInfo> &values,
                                       SmallVectorImpl<OpDesc> &ops, Key last,
                                       bool admitted) {
  size_t numArgs = info.arguments.size();
  unsigned unused = unusedFrom(ops, numArgs, values.size());
  // Complete: one value left unused, the newest, of the output's shape.
  if (!ops.empty() && unused == 1 &&
      values.back().shape == info.outputs.front().shape) {
    KernelGraph g;
    g.tensors.assign(values.begin(), values.end());
    SmallVector<const Expr *, 8> terms;
    for (auto [i, op] : llvm::enumerate(ops)) {
      KernelOp kop;
      kop.op = op;
      kop.results = {static_cast<int>(numArgs + i)};
      g.ops.push_back(std::move(kop));
      terms.push_back(values[numArgs + i].expr);
    }
    g.outputs = {static_cast<int>(values.size() - 1)};
    check(g, {}, terms, admitted);
  }
  // Each op leaves at most one more value unused than it uses.
  unsigned remaining = c.kernelOps - ops.size();
  if (remaining == 0 || unused > remaining + 1)
    return;
  SmallVector<bool, 16> none(values.size(), false);
  for (int t = std::max(last.first, 0); t < static_cast<int>(values.size());
       ++t) {
    for (auto [i, op] : llvm::enumerate(propose(values, none, none, t))) {
      Key key{t, static_cast<int>(i)};
      if (key <= last)
        continue;
      SmallVector<const ValueInfo *, 2> operands = operandsOf(op, values);
      std::optional<ValueInfo> result = applyOp(ctx, op, operands, 1);
      if (!result)
        continue;
      count(*result);
      bool admits = admissible(info, op, operands, *result, values);
      values.push_back(std::move(*result));
      ops.push_back(op);
      growKernel(values, ops, key, admitted && admits);
      ops.pop_back();
      values.pop_back();
    }
  }
}

void ExhaustiveEnumeration::runBlock(const Partition &p, unsigned ops) {
  partition = p;
  blockOps = ops;
  BlockGraph g;
  g.forloopRange = p.forloopRange;
  auto axisOf = [&](ArgDim a) {
    return AxisRef{info.arguments[a.argument].axes[a.dim].axis, false};
  };
  for (auto [i, part] : llvm::enumerate(p.grid))
    g.grid[i] = part.second;
  for (auto [i, arg] : llvm::enumerate(info.arguments)) {
    BlockInput in;
    in.tensor = static_cast<int>(i);
    ValueInfo tile = arg;
    for (size_t d = 0; d < tile.shape.size(); ++d) {
      for (auto [gi, part] : llvm::enumerate(p.grid))
        if (tile.axes[d] == axisOf(part.first)) {
          in.imap[gi] = static_cast<int64_t>(d);
          tile.shape[d] /= part.second;
        }
      if (p.loop && tile.axes[d] == axisOf(*p.loop)) {
        in.fmap = static_cast<int64_t>(d);
        tile.shape[d] /= p.forloopRange;
      }
    }
    g.inputs.push_back(in);
    g.tiles.push_back(std::move(tile));
    g.post.push_back(false);
  }
  growBlock(g, {-1, 0}, -1, /*admitted=*/true);
}

std::optional<BlockOutput>
ExhaustiveEnumeration::blockOutput(const BlockGraph &g, int accumKind) const {
  BlockOutput out;
  out.tile = static_cast<int>(g.tiles.size() - 1);
  const ValueInfo &tile = g.tiles.back();
  out.tensor = tile;
  auto place = [&](AxisRef axis, int64_t times) -> std::optional<int64_t> {
    auto *it = llvm::find(tile.axes, axis);
    if (it == tile.axes.end())
      it = llvm::find(tile.axes, AxisRef{axis.axis, true});
    if (it == tile.axes.end())
      return std::nullopt;
    int64_t d = it - tile.axes.begin();
    out.tensor.shape[d] *= times;
    return d;
  };
  for (auto [gi, part] : llvm::enumerate(partition.grid)) {
    const ValueInfo &arg = info.arguments[part.first.argument];
    std::optional<int64_t> d = place(arg.axes[part.first.dim], part.second);
    if (!d)
      return std::nullopt;
    out.omap[gi] = *d;
  }
  // Iterations kept side by side (a `none` accumulator) are laid out along
  // the dim the loop walks.
  if (accumKind == static_cast<int>(tb::AccumKind::none) &&
      partition.forloopRange > 1) {
    const ValueInfo &arg = info.arguments[partition.loop->argument];
    std::optional<int64_t> d =
        place(arg.axes[partition.loop->dim], partition.forloopRange);
    if (!d)
      return std::nullopt;
    out.fmap = *d;
  }
  if (out.tensor.shape != info.outputs.front().shape)
    return std::nullopt;
  return out;
}

void ExhaustiveEnumeration::growBlock(BlockGraph &g, Key last, int accumKind,
                                      bool admitted) {
  size_t numInputs = g.inputs.size();
  unsigned unused = unusedFrom(g.ops, numInputs, g.tiles.size());
  if (split && !partialKernel) {
    // The partial kernel: its unused values are its outputs.
    if (std::optional<SmallVector<BlockOutput, 3>> outputs =
            g.ops.empty() ? std::nullopt : partialOutputs(g)) {
      g.outputs.assign(outputs->begin(), outputs->end());
      runCombine(g, admitted);
      g.outputs.clear();
    }
  } else if (!g.ops.empty() && unused == 1 && g.post.back()) {
    // Complete: one value left unused, the newest, after the accumulators.
    if (std::optional<BlockOutput> out = blockOutput(g, accumKind)) {
      KernelGraph k;
      k.tensors.assign(info.arguments.begin(), info.arguments.end());
      SmallVector<const Expr *, 16> terms;
      auto place = [&](const BlockGraph &kernel) {
        auto group = std::make_shared<BlockGraphGroup>();
        group->push_back(kernel);
        KernelOp op;
        op.graphs = group;
        for (const BlockOutput &o : kernel.outputs) {
          op.results.push_back(static_cast<int>(k.tensors.size()));
          k.tensors.push_back(o.tensor);
        }
        k.ops.push_back(std::move(op));
        for (const ValueInfo &tile : kernel.tiles)
          terms.push_back(tile.expr);
        for (const BlockOutput &o : kernel.outputs)
          terms.push_back(o.tensor.expr);
      };
      if (partialKernel)
        place(*partialKernel);
      BlockGraph last = g;
      last.outputs = {*out};
      place(last);
      k.outputs = k.ops.back().results;
      SmallVector<size_t, 2> choices(k.ops.size(), 0);
      check(k, choices, terms, admitted && partialAdmitted);
    }
  }
  // Each op leaves at most one more value unused than it uses; a partial
  // kernel may leave several (its outputs).
  unsigned outputs = split && !partialKernel ? split->partialOutputs : 1;
  unsigned remaining = blockOps - g.ops.size();
  if (remaining == 0 || unused > remaining + outputs)
    return;
  bool looped = partition.forloopRange > 1;
  // Tiles the loop does not walk, and what is computed from them alone, are
  // the same in every iteration: they may meet values after the
  // accumulators. Without a loop every tile is such, and an op after a
  // `none` accumulator on a tile from before it computes what the op
  // before it would: the search builds only that order, and so does this.
  SmallVector<bool, 16> invariant = invariantTiles(g, looped);
  for (int t = std::max(last.first, 0); t < static_cast<int>(g.tiles.size());
       ++t) {
    SmallVector<OpDesc> ops = propose(g.tiles, g.post, invariant, t);
    // Accumulators: `none` keeps the iterations side by side along the dim
    // the loop walks, the others combine them, so a tile that walks the
    // loop can only be kept and the others only combined; one kind of
    // layout per graph.
    if (!g.post[t]) {
      // A loop over chunks of partial results (no ArgDim) is walked by
      // no tile dim: its tiles are combined.
      bool walks =
          looped && partition.loop &&
          llvm::is_contained(g.tiles[t].axes,
                             AxisRef{info.arguments[partition.loop->argument]
                                         .axes[partition.loop->dim]
                                         .axis,
                                     false});
      bool none = !looped || walks;
      auto accum = [&](tb::AccumKind kind, SmallVector<int, 2> operands) {
        bool isNone = kind == tb::AccumKind::none;
        if (isNone != none ||
            (accumKind >= 0 &&
             isNone != (accumKind == static_cast<int>(tb::AccumKind::none))))
          return;
        ops.push_back({OpKind::Accum, static_cast<int>(kind), 0, 0, operands});
      };
      for (tb::AccumKind kind : {tb::AccumKind::none, tb::AccumKind::sum,
                                 tb::AccumKind::mean, tb::AccumKind::max})
        accum(kind, {t});
      // The scale of sum_rescale broadcasts to the tile it rescales.
      for (int s = 0; s < static_cast<int>(g.tiles.size()); ++s)
        if (s != t && !g.post[s] &&
            g.tiles[s].shape.size() == g.tiles[t].shape.size() &&
            llvm::all_of(llvm::seq<size_t>(0, g.tiles[s].shape.size()),
                         [&](size_t d) {
                           return g.tiles[s].shape[d] == 1 ||
                                  g.tiles[s].shape[d] == g.tiles[t].shape[d];
                         }))
          accum(tb::AccumKind::sum_rescale, {t, s});
    }
    for (auto [i, op] : llvm::enumerate(ops)) {
      Key key{t, static_cast<int>(i)};
      if (key <= last)
        continue;
      SmallVector<const ValueInfo *, 2> operands = operandsOf(op, g.tiles);
      std::optional<ValueInfo> result =
          applyOp(ctx, op, operands, partition.forloopRange);
      if (!result)
        continue;
      count(*result);
      int nextAccum = accumKind;
      if (op.kind == OpKind::Accum && accumKind < 0)
        nextAccum = op.sub;
      bool post = op.kind == OpKind::Accum ||
                  llvm::any_of(op.operands, [&](int o) { return g.post[o]; });
      bool admits =
          admissible(info, op, operands, *result, g.tiles, g.post, post);
      g.post.push_back(post);
      g.tiles.push_back(std::move(*result));
      g.ops.push_back(op);
      growBlock(g, key, nextAccum, admitted && admits);
      g.ops.pop_back();
      g.tiles.pop_back();
      g.post.pop_back();
    }
  }
}

std::optional<SmallVector<BlockOutput, 3>>
ExhaustiveEnumeration::partialOutputs(const BlockGraph &g) const {
  int axis =
      info.arguments[split->split.argument].axes[split->split.dim].axis;
  SmallVector<bool, 16> used(g.tiles.size(), false);
  for (const OpDesc &op : g.ops)
    for (int o : op.operands)
      used[o] = true;
  SmallVector<BlockOutput, 3> outputs;
  SmallVector<bool, 16> shifted = shiftedByPartialMax(ctx, info, g);
  for (size_t t = g.inputs.size(); t < g.tiles.size(); ++t) {
    if (used[t])
      continue;
    const ValueInfo &tile = g.tiles[t];
    // Blocks holding the split axis write whole values, not partials.
    if (!g.post[t] || outputs.size() == split->partialOutputs ||
        llvm::is_contained(tile.axes, AxisRef{axis, false}))
      return std::nullopt;
    // Chunks go along the dim that holds the axis reduced, else the
    // outermost free one (BlockSearch::placeOutput); no other grid dim or
    // loop takes a dim here.
    auto *it = llvm::find(tile.axes, AxisRef{axis, true});
    int64_t d = it != tile.axes.end() ? it - tile.axes.begin() : 0;
    BlockOutput out;
    out.tile = static_cast<int>(t);
    out.omap[0] = d;
    out.tensor = tile;
    out.tensor.shape[d] *= split->chunks;
    out.tensor.axes[d].partialOf = axis;
    out.tensor.axes[d].partials = split->chunks;
    out.tensor.partialShift = shifted[t];
    outputs.push_back(std::move(out));
  }
  if (outputs.empty())
    return std::nullopt;
  return outputs;
}

void ExhaustiveEnumeration::runCombine(const BlockGraph &first,
                                       bool admitted) {
  Partition saved = partition;
  unsigned savedOps = blockOps;
  partition = Partition{{}, std::nullopt, split->chunks};
  blockOps = split->combineOps;
  partialKernel = &first;
  partialAdmitted = admitted;
  BlockGraph g;
  g.forloopRange = split->chunks;
  for (auto [i, out] : llvm::enumerate(first.outputs)) {
    BlockInput in;
    in.tensor = static_cast<int>(info.arguments.size() + i);
    ValueInfo tile = out.tensor;
    int64_t d = out.omap[0];
    in.fmap = d;
    tile.shape[d] /= split->chunks;
    tile.axes[d] = AxisRef{tile.axes[d].axis, tile.axes[d].reduced};
    g.inputs.push_back(in);
    g.tiles.push_back(std::move(tile));
    g.post.push_back(false);
  }
  growBlock(g, {-1, 0}, -1, /*admitted=*/true);
  partialKernel = nullptr;
  partition = saved;
  blockOps = savedOps;
}

void ExhaustiveEnumeration::runSplit(const SplitCase &s) {
  split = &s;
  runBlock(Partition{{{s.split, s.chunks}}, std::nullopt, 1}, s.partialOps);
  split = nullptr;
}

void ExhaustiveEnumeration::check(const KernelGraph &g,
                                  ArrayRef<size_t> choices,
                                  ArrayRef<const Expr *> terms, bool admitted) {
  ++counts.candidates;
  func::FuncOp f = materialize(scratch.get(), "candidate", type, g, choices,
                               info, /*blockThreads=*/32);
  llvm::scope_exit erase([&] { f.erase(); });
  FailureOr<verifier::VerificationResult> verdict;
  {
    ScopedDiagnosticHandler quiet(f.getContext(),
                                  [](Diagnostic &) { return success(); });
    // The enumeration builds well-formed graphs only; the verifier assumes
    // them.
    if (failed(verify(f))) {
      ADD_FAILURE() << "ill-formed candidate";
      return;
    }
    verdict = checker.check(f);
  }
  if (failed(verdict) || !verdict->equivalent)
    return;
  ++counts.equivalent;

  // The terms of the materialized graph, as the search's input program
  // would get them, are those the enumeration built.
  FailureOr<llvm::DenseMap<Value, const Expr *>> exprs = abstractValues(f, ctx);
  ASSERT_TRUE(succeeded(exprs));
  SmallVector<const Expr *, 16> built;
  f.walk([&](Operation *op) {
    // The scalar code of a map has no terms of its own.
    if (!isa<tb::OutputSaverOp, tb::YieldOp, func::ReturnOp>(op) &&
        !isa<tk::MapOp, th::GraphOp>(op->getParentOp()))
      for (Value r : op->getResults())
        built.push_back(exprs->lookup(r));
  });
  EXPECT_EQ(ArrayRef(built), terms);

  // A graph with a value it already has, such as x^2 / x next to x, is
  // never built by the search, whatever the oracle says: the graph without
  // the detour is built instead.
  if (!admitted)
    return;
  ++counts.admitted;
  std::string text;
  llvm::raw_string_ostream os(text);
  bool sameOutput = terms.back() == info.outputs.front().expr;
  counts.sameOutput += sameOutput;
  if (!sameOutput)
    os << "output term " << terms.back()->str() << " is not the program's "
       << info.outputs.front().expr->str() << "\n";
  bool kept = true, factored = true;
  for (const Expr *e : terms)
    if (!oracle.mayBeSubexpression(e)) {
      kept = false;
      factored &= c.factoredArgument && !reads(e, *c.factoredArgument);
      os << "pruned: " << e->str() << "\n";
    }
  // The search's structural rules on exps shifted by partial maxima: not
  // added up by sum, mean or rms, and saved only as partial results.
  bool postLoopInvariant = false;
  for (auto [op, choice] : llvm::zip(
           llvm::make_filter_range(g.ops,
                                   [](const KernelOp &op) {
                                     return op.graphs != nullptr;
                                   }),
           choices)) {
    const BlockGraph &block = (*op.graphs)[choice];
    SmallVector<bool, 16> shifted = shiftedByPartialMax(ctx, info, block);
    for (const OpDesc &accum : block.ops)
      if (accum.kind == OpKind::Accum &&
          !combinesShiftsConsistently(shifted, accum.operands[0],
                                      static_cast<tb::AccumKind>(accum.sub))) {
        kept = false;
        os << "pruned: an accumulator mixes exps shifted by partial "
              "maxima\n";
      }
    for (const BlockOutput &out : block.outputs)
      if (shifted[out.tile] && !isPartial(out.tensor)) {
        kept = false;
        factored = false;
        os << "pruned: an exp shifted by a partial maximum is saved whole\n";
      }
    SmallVector<bool, 16> invariant =
        invariantTiles(block, block.forloopRange > 1);
    postLoopInvariant |= llvm::any_of(block.ops, [&](const OpDesc &op) {
      return op.kind != OpKind::Accum &&
             llvm::any_of(op.operands, [&](int o) { return block.post[o]; }) &&
             llvm::any_of(op.operands, [&](int o) { return invariant[o]; });
    });
  }
  counts.kept += kept && sameOutput;
  counts.keptPostLoopInvariant += kept && sameOutput && postLoopInvariant;
  if (!kept && sameOutput && factored) {
    ++counts.factored;
    return;
  }
  if (kept && sameOutput)
    return;
  lostToNormalForm += kept;
  f.print(os);
  lost.push_back(text);
}

} // namespace

namespace {

constexpr StringLiteral kSmallPrograms = R"mlir(
func.func @matmul(%X: tensor<4x8xf32>, %W: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %y = tk.matmul %X, %W : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

func.func @rmsnorm_linear(%X: tensor<4x8xf32>, %W: tensor<8x4xf32>)
    -> tensor<4x4xf32> {
  %n = tk.rms_norm %X {epsilon = 0.5 : f32} : tensor<4x8xf32>
  %y = tk.matmul %n, %W : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

func.func @gated_mlp(%X: tensor<4x8xf32>, %W1: tensor<8x4xf32>,
                     %W2: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %a = tk.matmul %X, %W1 : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %b = tk.matmul %X, %W2 : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %s = tk.unary silu %a : tensor<4x4xf32>
  %y = tk.binary mul %s, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

func.func @softmax_linear(%X: tensor<4x8xf32>, %W: tensor<8x4xf32>)
    -> tensor<4x4xf32> {
  %s = tk.matmul %X, %W : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %m = tk.reduce max %s dim 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %d = tk.binary sub %s, %m : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  %e = tk.unary exp %d : tensor<4x4xf32>
  %l = tk.reduce sum %e dim 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %p = tk.binary div %e, %l : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  return %p : tensor<4x4xf32>
}

func.func @row_sum_exp(%X: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %m = tk.reduce max %X dim 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = tk.binary sub %X, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %e = tk.unary exp %d : tensor<4x8xf32>
  %l = tk.reduce sum %e dim 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %l : tensor<4x1xf32>
}

func.func @exp_mul(%X: tensor<4x8xf32>, %Y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tk.unary exp %X : tensor<4x8xf32>
  %y = tk.binary mul %e, %Y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

func.func @map_linear(%X: tensor<4x8xf32>, %W: tensor<8x4xf32>)
    -> tensor<4x4xf32> {
  %a = tk.matmul %X, %W : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %t = tk.map (%p = %a : tensor<4x4xf32>) -> tensor<4x4xf32> {
    %r = math.tanh %p : f32
    tk.yield %r : f32
  }
  return %t : tensor<4x4xf32>
}

func.func @lora(%X: tensor<4x8xf32>, %W: tensor<8x4xf32>, %A: tensor<8x2xf32>,
                %B: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %xw = tk.matmul %X, %W : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %xa = tk.matmul %X, %A : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  %xab = tk.matmul %xa, %B : tensor<4x2xf32>, tensor<2x4xf32> -> tensor<4x4xf32>
  %y = tk.binary add %xw, %xab : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
)mlir";

class AbstractExprSoundness : public AbstractExprProgram {};

/// Prints the counts of an enumeration and fails on every equivalent graph
/// the search would lose; every program must have more than
/// `minEquivalent` equivalent graphs in reach, and the oracle must prune.
void expectNothingLost(StringRef label,
                       const ExhaustiveEnumeration &enumeration,
                       uint64_t minEquivalent) {
  const SoundnessCounts &n = enumeration.counts;
  llvm::errs() << label << ": " << n.values << " values built, "
               << n.prunedValues << " rejected by the oracle; "
               << n.candidates << " complete graphs, " << n.equivalent
               << " equivalent, " << n.admitted << " admissible, "
               << n.sameOutput << " with the program's output term, "
               << n.kept << " kept (" << n.keptPostLoopInvariant
               << " with a loop-invariant tile after the accumulators), "
               << n.factored << " lost to a factored-out argument\n";
  for (const std::string &graph : enumeration.lost)
    ADD_FAILURE() << label.str() << ": the search loses\n" << graph;
  EXPECT_GT(n.equivalent, minEquivalent) << label.str();
  EXPECT_GT(n.prunedValues, 0u) << label.str();
}

TEST_F(AbstractExprSoundness, NoEquivalentGraphIsPruned) {
  parse(kSmallPrograms);
  ArgDim rows{0, 0}, hidden{0, 1}, columns{1, 1};
  SmallVector<Partition> matmulPartitions = {
      {}, {{{columns, 2}}}, {{}, hidden, 2}, {{{rows, 2}}, hidden, 2}};
  SoundnessCase cases[] = {
      {"matmul",
       {{UnaryKind::exp, UnaryKind::square},
        {ReduceKind::sum},
        {BinaryKind::add, BinaryKind::mul}},
       3,
       4,
       matmulPartitions},
      {"rmsnorm_linear",
       {{UnaryKind::sqrt, UnaryKind::rsqrt, UnaryKind::square},
        {ReduceKind::mean},
        {BinaryKind::mul, BinaryKind::div},
        /*scalars=*/true},
       4,
       4,
       matmulPartitions},
      {"gated_mlp",
       {{UnaryKind::silu}, {}, {BinaryKind::mul}},
       4,
       5,
       {{{{columns, 2}}}}},
      {"softmax_linear",
       {{UnaryKind::exp},
        {ReduceKind::sum, ReduceKind::max},
        {BinaryKind::sub, BinaryKind::div}},
       4,
       5,
       {{{{rows, 2}}}}},
      {"row_sum_exp",
       {{UnaryKind::exp},
        {ReduceKind::sum, ReduceKind::max},
        {BinaryKind::sub, BinaryKind::mul}},
       4,
       5,
       {{{{rows, 2}}}, {{}, hidden, 2}}},
      {"exp_mul",
       {{UnaryKind::exp, UnaryKind::silu},
        {ReduceKind::sum},
        {BinaryKind::add, BinaryKind::mul, BinaryKind::sub, BinaryKind::div}},
       3,
       3,
       {{}, {{{rows, 2}}}, {{{rows, 2}}, hidden, 2}}},
      // A map is a function of whole products only: of a partial product
      // (a grid or a loop over the hidden dim) it is another one.
      {"map_linear",
       {{UnaryKind::exp},
        {ReduceKind::sum},
        {BinaryKind::add},
        /*scalars=*/false,
        /*maps=*/true},
       3,
       4,
       matmulPartitions},
      // One kernel needs B after the loop: X W and X A accumulate over the
      // hidden dim, then the block multiplies X A by its tile of B, which
      // the loop does not walk.
      {"lora",
       {{}, {}, {BinaryKind::add}},
       4,
       6,
       {{{{columns, 2}}}, {{{columns, 2}}, hidden, 2}},
       /*factoredArgument=*/0,
       /*needsPostLoopInvariant=*/true},
  };
  for (const SoundnessCase &c : cases) {
    func::FuncOp program = lookup(c.function);
    FailureOr<ProgramInfo> info = modelProgram(program, ctx);
    ASSERT_TRUE(succeeded(info)) << c.function.str();
    ExhaustiveEnumeration enumeration(program, ctx, *info, c);
    enumeration.run();
    expectNothingLost(c.function, enumeration, 1);
    if (c.needsPostLoopInvariant) {
      EXPECT_GT(enumeration.counts.keptPostLoopInvariant, 0u)
          << c.function.str();
    }
  }
}

// The same for the search's partial results: a kernel whose grid splits a
// reduced axis writes its blocks' partial results (split-K, split-KV) and a
// second kernel combines them. Every equivalent pair must have its output
// term, and every value of both kernels (the partial results included) must
// be admitted by the oracle (partial sums and maxima, the max-shift).
TEST_F(AbstractExprSoundness, NoEquivalentSplitIsPruned) {
  parse(kSmallPrograms);
  ArgDim hidden{0, 1};
  struct {
    SoundnessCase c;
    SplitCase split;
  } cases[] = {
      // Split-K: partial products, summed.
      {{"matmul",
        {{UnaryKind::exp}, {ReduceKind::sum}, {BinaryKind::add}},
        0,
        0,
        {}},
       {3, 1, 2, hidden, 2}},
      // The stable row sum of exp, split: partial maxima and sums, combined
      // with a rescaling sum (FlashDecoding's combine).
      {{"row_sum_exp",
        {{UnaryKind::exp},
         {ReduceKind::sum, ReduceKind::max},
         {BinaryKind::sub}},
        0,
        0,
        {}},
       {6, 2, 1, hidden, 2}},
  };
  for (auto &[c, split] : cases) {
    func::FuncOp program = lookup(c.function);
    FailureOr<ProgramInfo> info = modelProgram(program, ctx);
    ASSERT_TRUE(succeeded(info)) << c.function.str();
    ExhaustiveEnumeration enumeration(program, ctx, *info, c);
    enumeration.runSplit(split);
    expectNothingLost((c.function + " split").str(), enumeration, 0);
  }
}

} // namespace
