//===- Admissibility.h - Which ops the search may add -----------*- C++ -*-===//
//
// Rules on the structure of a graph that the abstract expressions cannot
// see, checked before the oracle: reductions over axes the program reduces
// only, no value the graph has up to a constant factor, and exps shifted by
// a maximum as the program's are, combined only where their shifts agree
// (docs/superoptimizer.md, "Pruning and soundness").
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_SUPEROPT_ADMISSIBILITY_H
#define TILEOPT_LIB_SUPEROPT_ADMISSIBILITY_H

#include "Graphs.h"
#include "ProgramModel.h"

namespace mlir::tileopt::superopt {

/// Whether `e` is x - max(...): the argument of a stable exp.
bool shiftedByMax(const Expr *e);

/// Per tile of `g`: whether it holds an exp shifted by a *partial*
/// maximum, one over fewer elements than the program's (a tile's or a
/// chunk's maximum; sum_rescale's running maximum when its loop walks only
/// part of the axis). Such values differ from the program's by a factor
/// exp(M - m) that varies from tile to tile: they are right only rescaled
/// (sum_rescale) or kept as partial results for a kernel that rescales
/// them. The abstract expressions forget the shift, so they cannot tell,
/// and the verifier would reject every such graph: like the stable-exp rule
/// of `admissible`, this is checked on the structure.
SmallVector<bool, 16> shiftedByPartialMax(ExprContext &ctx,
                                          const ProgramInfo &program,
                                          const BlockGraph &g);

/// One step of shiftedByPartialMax: whether `op`'s value holds such an exp,
/// given `shifted` for every tile of `g` before it (the block search keeps
/// that vector as it pushes and pops ops).
bool shiftsByPartialMax(ExprContext &ctx, const ProgramInfo &program,
                        const BlockGraph &g, const OpDesc &op,
                        ArrayRef<bool> shifted);

/// Whether an accumulator of `kind` may combine the iterations of `tile`,
/// given `shifted` (shiftedByPartialMax): `sum`, `mean` and `rms` must not
/// add up exps shifted by different partial maxima.
bool combinesShiftsConsistently(ArrayRef<bool> shifted, int tile,
                                tb::AccumKind kind);

/// Whether the search may add `op` with `result` next to `existing`
/// values: reductions only over axes the program reduces (summing over any
/// other axis mixes values the program keeps apart), no constants, and no
/// value that another one has up to a constant factor unless the op is an
/// explicit scaling, and no exp of an unshifted value in a program whose
/// exps are all shifted by a maximum.
/// With `existingPost`, only values of the result's phase (`post`) count.
bool admissible(const ProgramInfo &program, const OpDesc &op,
                ArrayRef<const ValueInfo *> operands, const ValueInfo &result,
                ArrayRef<ValueInfo> existing, ArrayRef<bool> existingPost = {},
                bool post = false);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_ADMISSIBILITY_H
