//===- ElementwiseBuilder.h - Kinds as arith/math ops -----------*- C++ -*-===//
//
// The one place that says what a UnaryKind or BinaryKind computes in terms of
// upstream arith and math ops. Thread-graph fusion uses it on scalars; the
// lowering of block graphs to tile programs uses it on tiles (arith and math
// apply elementwise to tensors), so both produce the same arithmetic.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_DIALECT_COMMON_ELEMENTWISEBUILDER_H
#define TILEOPT_DIALECT_COMMON_ELEMENTWISEBUILDER_H

#include "TileOpt/Dialect/Common/TileOptEnums.h"
#include "mlir/IR/Builders.h"

namespace mlir::tileopt {

/// Builds `kind(x)` for a float scalar or a float tensor `x`. `scalar` is
/// the factor of mul_scalar. The constants of the kind (the scalar, silu's
/// 1, gelu's 1/sqrt(2)) are rounded to `constantType` when it is given,
/// else to x's element type: a kind meant on f16 values and computed on
/// f32 tiles keeps f16's constants.
Value buildUnary(OpBuilder &b, Location loc, UnaryKind kind, Value x,
                 std::optional<APFloat> scalar, FloatType constantType = {});

/// Builds `kind(lhs, rhs)` for operands of one float type.
Value buildBinary(OpBuilder &b, Location loc, BinaryKind kind, Value lhs,
                  Value rhs);

} // namespace mlir::tileopt

#endif // TILEOPT_DIALECT_COMMON_ELEMENTWISEBUILDER_H
