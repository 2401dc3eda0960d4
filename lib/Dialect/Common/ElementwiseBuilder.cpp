//===- ElementwiseBuilder.cpp - Kinds as arith/math ops -------------------===//
#include "TileOpt/Dialect/Common/ElementwiseBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

/// A constant of `value`, rounded to `precision` (if given), with the type
/// of `like` (a splat for tensors).
static Value roundedConstant(OpBuilder &b, Location loc, Value like,
                             double value, FloatType precision) {
  Type type = like.getType();
  auto elementType = cast<FloatType>(getElementTypeOrSelf(type));
  if (precision) {
    APFloat rounded(value);
    bool losesInfo;
    rounded.convert(precision.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    value = rounded.convertToDouble();
  }
  TypedAttr attr = b.getFloatAttr(elementType, value);
  if (auto shaped = dyn_cast<ShapedType>(type))
    attr = DenseElementsAttr::get(shaped, attr);
  return arith::ConstantOp::create(b, loc, attr);
}

Value tileopt::buildUnary(OpBuilder &b, Location loc, UnaryKind kind, Value x,
                          std::optional<APFloat> scalar,
                          FloatType constantType) {
  auto constant = [&](double value) {
    return roundedConstant(b, loc, x, value, constantType);
  };
  switch (kind) {
  case UnaryKind::exp:
    return math::ExpOp::create(b, loc, x);
  case UnaryKind::silu: {
    // x * sigmoid(x) = x / (1 + exp(-x))
    Value negExp =
        math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    Value denom = arith::AddFOp::create(b, loc, constant(1.0), negExp);
    return arith::DivFOp::create(b, loc, x, denom);
  }
  case UnaryKind::gelu: {
    // 0.5 x (1 + erf(x / sqrt(2))), the exact form PyTorch uses by default.
    Value scaled =
        arith::MulFOp::create(b, loc, x, constant(llvm::numbers::inv_sqrt2));
    Value onePlusErf = arith::AddFOp::create(
        b, loc, constant(1.0), math::ErfOp::create(b, loc, scaled));
    Value half = arith::MulFOp::create(b, loc, x, constant(0.5));
    return arith::MulFOp::create(b, loc, half, onePlusErf);
  }
  case UnaryKind::sigmoid: {
    // 1 / (1 + exp(-x)), as tosa.sigmoid is lowered.
    Value negExp =
        math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    Value denom = arith::AddFOp::create(b, loc, constant(1.0), negExp);
    return arith::DivFOp::create(b, loc, constant(1.0), denom);
  }
  case UnaryKind::relu:
    return arith::MaximumFOp::create(b, loc, x, constant(0.0));
  case UnaryKind::sqrt:
    return math::SqrtOp::create(b, loc, x);
  case UnaryKind::rsqrt:
    return math::RsqrtOp::create(b, loc, x);
  case UnaryKind::square:
    return arith::MulFOp::create(b, loc, x, x);
  case UnaryKind::neg:
    return arith::NegFOp::create(b, loc, x);
  case UnaryKind::mul_scalar:
    return arith::MulFOp::create(b, loc, x,
                                 constant(scalar->convertToDouble()));
  case UnaryKind::add_scalar:
    return arith::AddFOp::create(b, loc, x,
                                 constant(scalar->convertToDouble()));
  }
  llvm_unreachable("unknown unary kind");
}

Value tileopt::buildBinary(OpBuilder &b, Location loc, BinaryKind kind,
                           Value lhs, Value rhs) {
  switch (kind) {
  case BinaryKind::add:
    return arith::AddFOp::create(b, loc, lhs, rhs);
  case BinaryKind::sub:
    return arith::SubFOp::create(b, loc, lhs, rhs);
  case BinaryKind::mul:
    return arith::MulFOp::create(b, loc, lhs, rhs);
  case BinaryKind::div:
    return arith::DivFOp::create(b, loc, lhs, rhs);
  case BinaryKind::pow:
    return math::PowFOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown binary kind");
}
