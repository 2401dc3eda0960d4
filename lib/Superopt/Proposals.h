//===- Proposals.h - Candidate ops in canonical order -----------*- C++ -*-===//
//
// Both levels grow a graph one op at a time in a canonical order: every op
// has a key (its newest operand first), and an op is only added after ops
// with smaller keys, so each graph is generated once, in one op order.
// Here are the keys and the compute ops both levels propose; the block
// search adds its accumulators and grid-wide norms (BlockSearch.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_SUPEROPT_PROPOSALS_H
#define TILEOPT_LIB_SUPEROPT_PROPOSALS_H

#include "Graphs.h"
#include "ProgramModel.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <array>

namespace mlir::tileopt::superopt {

/// Orders ops: newest operand, kind, sub-kind, other operand, dim, scalar.
using OpKey = std::array<int64_t, 6>;

struct Proposal {
  OpDesc op;
  OpKey key;
};

/// Appends to `out` the compute ops (not accumulators) on `values` whose
/// newest operand is value `newest`, with their keys (the caller drops those
/// not above its graph's last key). `meet(u, t)` says whether values u and t
/// may be operands of one op.
void proposeComputeOps(const ProgramInfo &program, ArrayRef<ValueInfo> values,
                       llvm::function_ref<bool(int, int)> meet, int newest,
                       bool allowRmsNorm, SmallVectorImpl<Proposal> &out);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_PROPOSALS_H
