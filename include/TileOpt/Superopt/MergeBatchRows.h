//===- MergeBatchRows.h - Shared-rhs batches as rows of one matmul -*- C++
//-*-===//
//
// A batched lhs against one rhs that every batch shares, `A[h, m, k] @
// B[k, n]`, is one matmul over h * m rows: reshape(reshape(A) @ B). The
// µGraph search then partitions those rows like any others, so a kernel
// reads B once for all the batches instead of once per batch, and the rows
// fill the tensor cores' M (mla_decode, reassociated: the 16 heads' single
// query rows against one latent cache). The reshapes are layout changes,
// which the search does not build: row-wise ops between two such matmuls
// (a softmax) move onto the rows, so the reshapes meet and cancel.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_SUPEROPT_MERGEBATCHROWS_H
#define TILEOPT_SUPEROPT_MERGEBATCHROWS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tileopt::superopt {

/// Patterns that merge the batch of a shared-rhs tk.matmul into its rows
/// and move row-wise ops (unary, binary, rms_norm, reductions over the last
/// dim) whose every use reshapes them to rows onto the rows.
void populateMergeBatchRowsPatterns(RewritePatternSet &patterns);

/// Applies them to `func` until none applies, then folds the reshapes that
/// cancel and merges the ops that became equal; whether any matmul merged.
bool mergeBatchRows(func::FuncOp func);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_SUPEROPT_MERGEBATCHROWS_H
