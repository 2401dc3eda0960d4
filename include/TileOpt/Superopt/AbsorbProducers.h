//===- AbsorbProducers.h - Producers into fused kernels ------*- C++ -*-===//
//
// A kernel that only normalizes a tensor's rows (tk.rms_norm) or maps its
// elements (tk.unary), and whose every use is a graph-defined kernel whose
// blocks read it in whole rows, can be computed by those blocks on their
// own tiles instead: one launch and one round trip through device memory
// fewer, for the cost of recomputing it in every block that reads a tile.
// qknorm_attention's rms_norm of Q is such a kernel: its split-KV blocks
// each read whole rows of Q, 64 elements of the head dim.
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

namespace mlir::tileopt::superopt {

/// Patterns that move a tk.rms_norm or tk.unary whose every use is a
/// tk.fused input into those kernels, after each tb.input_iterator that
/// reads it; an rms_norm only where every such tile holds whole rows.
void populateAbsorbProducersPatterns(RewritePatternSet &patterns);

/// Applies them to `func` until none applies; whether any applied.
bool absorbProducers(func::FuncOp func);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_SUPEROPT_ABSORBPRODUCERS_H
