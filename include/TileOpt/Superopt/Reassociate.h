//===- Reassociate.h - Matmul chains in their cheapest order ----*- C++ -*-===//
//
// (X @ A) @ B = X @ (A @ B), and X @ (A @ B)^T = (X @ B^T) @ A^T: the order
// of a chain of products decides its flops, by orders of magnitude when a
// thin operand meets a wide product (mla_decode's query against the keys
// its latent cache projects to). The µGraph search builds graphs from the
// program's own operators in its own association, so the superoptimizer
// reassociates first.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_SUPEROPT_REASSOCIATE_H
#define TILEOPT_SUPEROPT_REASSOCIATE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tileopt::superopt {

/// Patterns that reassociate tk.matmul chains, each applied only where it
/// lowers the flops and the product it reorders has no other use.
void populateReassociateMatmulPatterns(RewritePatternSet &patterns);

/// Applies them to `func` until none applies; whether any did.
bool reassociateMatmuls(func::FuncOp func);

/// Multiplies and adds of the tk.matmul ops of `func`.
double matmulFlops(func::FuncOp func);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_SUPEROPT_REASSOCIATE_H
