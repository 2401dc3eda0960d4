//===- Shrink.h - Reduced instances of kernel graphs ------------*- C++ -*-===//
//
// The verifier tests two functions on small instances of them: every dim
// shrunk while the partition structure — grid divisions, for-loop divisions,
// `to` sizes of reductions — is kept. Shrinking rewrites the functions
// (clones with new types and rescaled attributes); docs/verifier.md says why
// that is sound for the graphs the search produces.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_VERIFIER_SHRINK_H
#define TILEOPT_VERIFIER_SHRINK_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tileopt::verifier {

struct ShrinkOptions {
  /// No dim shrinks below this extent (dims already smaller keep theirs):
  /// at 1 a transposition or a reduction over the wrong dim could go unseen.
  int64_t minExtent = 2;
};

/// Clones `funcs` (all with one signature) into `into`, every dim shrunk the
/// same way in all of them: the dims of one equivalence class (dims that must
/// stay equal or in a fixed ratio because an op relates them) shrink by one
/// common factor, so every shape rule of every op still holds. A constant
/// 1/N (a mul_scalar factor, or a float constant of a thread graph) where N is an
/// extent that shrinks to N' becomes 1/N': it is the factor of a mean over
/// that dim. Reports, at the op responsible, what it cannot shrink.
FailureOr<SmallVector<func::FuncOp>> shrink(ArrayRef<func::FuncOp> funcs,
                                            ModuleOp into,
                                            const ShrinkOptions &options = {});

} // namespace mlir::tileopt::verifier

#endif // TILEOPT_VERIFIER_SHRINK_H
