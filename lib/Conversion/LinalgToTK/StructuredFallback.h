//===- StructuredFallback.h - What no tk op models, as tk.structured --*- C++
//-*-===//
//
// Private to lib/Conversion/LinalgToTK. An op the import patterns refuse —
// a convolution, a pooling window, tensor.pad, a payload that reads
// linalg.index or another tensor — still computes something the program
// needs: it becomes a tk.structured, a kernel of its own that the lowering
// gives a generic kernel, so the function stays a kernel graph.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_CONVERSION_LINALGTOTK_STRUCTUREDFALLBACK_H
#define TILEOPT_LIB_CONVERSION_LINALGTOTK_STRUCTUREDFALLBACK_H

#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tileopt {

/// Replaces `op` (a linalg structured op or a tensor.pad) with a
/// tk.structured that computes it as one linalg.generic; on failure, says
/// why in `why` and leaves the IR as it was.
FailureOr<tk::StructuredOp>
wrapAsStructured(Operation *op, RewriterBase &rewriter, llvm::raw_ostream &why);

} // namespace mlir::tileopt

#endif // TILEOPT_LIB_CONVERSION_LINALGTOTK_STRUCTUREDFALLBACK_H
