//===- StructuredOp.h - tk.structured, loop by loop --------------*- C++
//-*-===//
//
// The reference semantics of a tk.structured: its linalg.generic run as the
// loop nest it is, every payload op evaluated on scalars (floats in the
// domain's precision, integers and indices as int64_t). It shares nothing
// with the generic kernel the lowering builds (StructuredKernels.cpp), so
// the two check each other.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_INTERPRETER_STRUCTUREDOP_H
#define TILEOPT_LIB_INTERPRETER_STRUCTUREDOP_H

#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Interpreter/Tensor.h"

namespace mlir::tileopt::interp::detail {

/// Computes `op` on `inputs` (one per input of `op`) into `result`, with
/// floats of type T (float or double); fails with a diagnostic at the
/// payload op it cannot evaluate.
template <typename T>
LogicalResult runStructured(tk::StructuredOp op,
                            ArrayRef<const Tensor<T> *> inputs,
                            Tensor<T> &result);

} // namespace mlir::tileopt::interp::detail

#endif // TILEOPT_LIB_INTERPRETER_STRUCTUREDOP_H
