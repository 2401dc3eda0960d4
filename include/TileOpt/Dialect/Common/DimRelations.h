//===- DimRelations.h - Dims shared by operands and results -*- C++ -*-===//
//
// The superoptimizer's axis model (ProgramAxes), the verifier's shrinking
// (DimClasses) and the block-graph lowering's tile axes (TileDims) group the
// dims of values into classes that index one thing: an elementwise operand's
// dim and the result's, a matmul's M, K, N and batch dims. They join dims in
// their own structures; which dims an op relates is written here, once.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_DIALECT_COMMON_DIMRELATIONS_H
#define TILEOPT_DIALECT_COMMON_DIMRELATIONS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::tileopt {

/// Called with two (value, dim) pairs that index the same thing.
using EquateDims = llvm::function_ref<void(Value, int64_t, Value, int64_t)>;

/// numpy broadcasting: `operand`'s trailing dims line up with `result`'s,
/// leaving out the last `unrelated` of both (a matmul's matrix dims). A dim
/// of the result's extent is the result's; a dim of 1 that broadcasts is
/// not related.
void equateBroadcastDims(Value operand, Value result, EquateDims equate,
                         int64_t unrelated = 0);

/// `result = lhs @ rhs` on the last two dims, the batch dims broadcast
/// (tk.matmul; tb.matmul's are equal, a case of it): lhs's M and result's,
/// lhs's K and rhs's, rhs's N and result's, and the batch dims.
void equateMatmulDims(Value lhs, Value rhs, Value result, EquateDims equate);

} // namespace mlir::tileopt

#endif // TILEOPT_DIALECT_COMMON_DIMRELATIONS_H
