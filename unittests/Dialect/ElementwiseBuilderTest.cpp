//===- ElementwiseBuilderTest.cpp - What each elementwise kind computes ---===//
//
// buildUnary/buildBinary define the arithmetic of every kind for the thread
// graphs and the tile lowering. These tests build each kind on f64 scalars,
// evaluate the emitted arith/math ops, and compare with the textbook
// definition.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Dialect/Common/ElementwiseBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// Evaluates the straight-line f64 arith/math code in `block` on doubles:
/// just the ops ElementwiseBuilder emits.
class ScalarEvaluator {
public:
  void bind(Value v, double x) { values[v] = x; }

  double run(Block &block, Value result) {
    for (Operation &op : block.without_terminator()) {
      auto in = [&](unsigned i) { return values.at(op.getOperand(i)); };
      double out =
          llvm::TypeSwitch<Operation *, double>(&op)
              .Case([&](arith::ConstantOp c) {
                return cast<FloatAttr>(c.getValue()).getValueAsDouble();
              })
              .Case([&](arith::AddFOp) { return in(0) + in(1); })
              .Case([&](arith::SubFOp) { return in(0) - in(1); })
              .Case([&](arith::MulFOp) { return in(0) * in(1); })
              .Case([&](arith::DivFOp) { return in(0) / in(1); })
              .Case([&](arith::NegFOp) { return -in(0); })
              .Case([&](arith::MaximumFOp) { return std::fmax(in(0), in(1)); })
              .Case([&](math::ExpOp) { return std::exp(in(0)); })
              .Case([&](math::SqrtOp) { return std::sqrt(in(0)); })
              .Case([&](math::RsqrtOp) { return 1.0 / std::sqrt(in(0)); })
              .Case([&](math::ErfOp) { return std::erf(in(0)); })
              .Case([&](math::PowFOp) { return std::pow(in(0), in(1)); })
              .Default([&](Operation *unknown) {
                ADD_FAILURE() << "unexpected op "
                              << unknown->getName().getStringRef().str();
                return NAN;
              });
      values[op.getResult(0)] = out;
    }
    return values.at(result);
  }

private:
  llvm::DenseMap<Value, double> values;
};

class ElementwiseBuilderTest : public ::testing::Test {
protected:
  ElementwiseBuilderTest() {
    context.loadDialect<arith::ArithDialect, math::MathDialect,
                        func::FuncDialect>();
  }

  /// Builds `emit(x, y)` for f64 block arguments x and y and evaluates it.
  double evaluate(function_ref<Value(OpBuilder &, Value, Value)> emit,
                  double x, double y = 0.0) {
    OpBuilder b(&context);
    Block block;
    Type f64 = b.getF64Type();
    Value xv = block.addArgument(f64, b.getUnknownLoc());
    Value yv = block.addArgument(f64, b.getUnknownLoc());
    b.setInsertionPointToEnd(&block);
    Value result = emit(b, xv, yv);
    ScalarEvaluator eval;
    eval.bind(xv, x);
    eval.bind(yv, y);
    double out = eval.run(block, result);
    block.clear();
    return out;
  }

  double unary(UnaryKind kind, double x, double scalar = 0.0) {
    std::optional<APFloat> s;
    if (kind == UnaryKind::mul_scalar || kind == UnaryKind::add_scalar)
      s = APFloat(scalar);
    return evaluate(
        [&](OpBuilder &b, Value xv, Value) {
          return buildUnary(b, b.getUnknownLoc(), kind, xv, s);
        },
        x);
  }

  double binary(BinaryKind kind, double x, double y) {
    return evaluate(
        [&](OpBuilder &b, Value xv, Value yv) {
          return buildBinary(b, b.getUnknownLoc(), kind, xv, yv);
        },
        x, y);
  }

  MLIRContext context;
};

TEST_F(ElementwiseBuilderTest, UnaryKindsMatchTheirDefinitions) {
  for (double x : {-2.5, -0.75, 0.0, 0.5, 3.0}) {
    SCOPED_TRACE(x);
    EXPECT_DOUBLE_EQ(unary(UnaryKind::exp, x), std::exp(x));
    EXPECT_NEAR(unary(UnaryKind::silu, x), x / (1.0 + std::exp(-x)), 1e-15);
    EXPECT_NEAR(unary(UnaryKind::gelu, x),
                0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))), 1e-15);
    EXPECT_DOUBLE_EQ(unary(UnaryKind::relu, x), x > 0 ? x : 0.0);
    EXPECT_NEAR(unary(UnaryKind::sigmoid, x), 1.0 / (1.0 + std::exp(-x)),
                1e-15);
    EXPECT_DOUBLE_EQ(unary(UnaryKind::square, x), x * x);
    EXPECT_DOUBLE_EQ(unary(UnaryKind::neg, x), -x);
    EXPECT_DOUBLE_EQ(unary(UnaryKind::mul_scalar, x, 0.125), 0.125 * x);
    EXPECT_DOUBLE_EQ(unary(UnaryKind::add_scalar, x, 0.125), x + 0.125);
  }
  for (double x : {0.25, 1.0, 9.0}) {
    SCOPED_TRACE(x);
    EXPECT_DOUBLE_EQ(unary(UnaryKind::sqrt, x), std::sqrt(x));
    EXPECT_DOUBLE_EQ(unary(UnaryKind::rsqrt, x), 1.0 / std::sqrt(x));
  }
}

TEST_F(ElementwiseBuilderTest, BinaryKindsMatchTheirDefinitions) {
  EXPECT_DOUBLE_EQ(binary(BinaryKind::add, 1.5, -4.0), -2.5);
  EXPECT_DOUBLE_EQ(binary(BinaryKind::sub, 1.5, -4.0), 5.5);
  EXPECT_DOUBLE_EQ(binary(BinaryKind::mul, 1.5, -4.0), -6.0);
  EXPECT_DOUBLE_EQ(binary(BinaryKind::div, 1.5, -4.0), -0.375);
  EXPECT_DOUBLE_EQ(binary(BinaryKind::pow, 2.0, 10.0), 1024.0);
  // Operand order matters for the non-commutative kinds.
  EXPECT_DOUBLE_EQ(binary(BinaryKind::sub, -4.0, 1.5), -5.5);
  EXPECT_DOUBLE_EQ(binary(BinaryKind::pow, 10.0, 2.0), 100.0);
}

TEST_F(ElementwiseBuilderTest, TensorOperandsGetSplatConstants) {
  OpBuilder b(&context);
  Block block;
  auto type = RankedTensorType::get({4, 8}, b.getF32Type());
  Value x = block.addArgument(type, b.getUnknownLoc());
  b.setInsertionPointToEnd(&block);
  Value y = buildUnary(b, b.getUnknownLoc(), UnaryKind::mul_scalar, x,
                       APFloat(0.5f));
  EXPECT_EQ(y.getType(), type);
  auto mul = y.getDefiningOp<arith::MulFOp>();
  ASSERT_TRUE(mul);
  auto cst = mul.getRhs().getDefiningOp<arith::ConstantOp>();
  ASSERT_TRUE(cst);
  auto splat = dyn_cast<SplatElementsAttr>(cst.getValue());
  ASSERT_TRUE(splat);
  EXPECT_EQ(splat.getSplatValue<APFloat>().convertToFloat(), 0.5f);
  block.clear();
}

} // namespace
