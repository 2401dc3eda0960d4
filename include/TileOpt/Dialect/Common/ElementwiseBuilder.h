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
/// the factor of mul_scalar.
Value buildUnary(OpBuilder &b, Location loc, UnaryKind kind, Value x,
                 std::optional<APFloat> scalar);

/// Builds `kind(lhs, rhs)` for operands of one float type.
Value buildBinary(OpBuilder &b, Location loc, BinaryKind kind, Value lhs,
                  Value rhs);

} // namespace mlir::tileopt

#endif // TILEOPT_DIALECT_COMMON_ELEMENTWISEBUILDER_H
