//===- AbsorbProducers.h - Producers into fused kernels ------*- C++ -*-===//
//
// A kernel that only normalizes a tensor's rows (tk.rms_norm) or maps its
// elements (tk.unary), and whose every use is a graph-defined kernel whose
// blocks read it in whole rows, can be computed by those blocks on their
// own tiles instead: one launch and one round trip through device memory
// fewer, for the cost of recomputing it in every block that reads a tile.
// qknorm_attention's rms_norm of Q is such a kernel: its split-KV blocks
// each read whole rows of Q, 64 elements of the head dim. So is an
// rms_norm over a dim other than the last, which the importer writes as
// `transpose(rms_norm(transpose(x)))` (tk.rms_norm normalizes the last
// dim), where the blocks read that dim whole: qknorm_attention's K, stored
// as K^T and normalized over the head dim of each key, whose split-KV
// blocks read all 64 head-dim rows of their keys.
//
// The search keeps ops that depend on one argument alone as kernels of
// their own and searches the rest in segments (docs/superoptimizer.md, step
// 11); the µGraph with such an op inside the next kernel needs one block op
// more than the segment's, a depth the block search's budget does not
// reach. So the superoptimizer offers each spliced candidate with its kept
// producers absorbed as a candidate too, verified and priced like any other.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_SUPEROPT_ABSORBPRODUCERS_H
#define TILEOPT_SUPEROPT_ABSORBPRODUCERS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace mlir::tileopt::superopt {

/// Patterns that move a tk.rms_norm or tk.unary whose every use is a
/// tk.fused input into those kernels, after each tb.input_iterator that
/// reads it; an rms_norm only where every such tile holds whole rows. Also
/// `transpose(rms_norm(transpose(x)))`, the transposes undoing each other
/// (x normalized over the dim d the first moves last), where every tile
/// holds d whole: as `x * rsqrt(mean(x^2 over d) + epsilon)` in tb ops.
/// A producer (the op whose result the kernels read: the unary, the
/// rms_norm, the outer transpose) for which `stays` holds stays.
void populateAbsorbProducersPatterns(
    RewritePatternSet &patterns,
    std::function<bool(Operation *)> stays = nullptr);

/// The producers of `func` that can move now, in program order (a unary
/// behind one of them may move once that one has).
SmallVector<Operation *> absorbableProducers(func::FuncOp func);

/// Applies the patterns to `func` until none applies, leaving the
/// producers `stays` holds for; whether any applied.
bool absorbProducers(func::FuncOp func,
                     std::function<bool(Operation *)> stays = nullptr);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_SUPEROPT_ABSORBPRODUCERS_H
