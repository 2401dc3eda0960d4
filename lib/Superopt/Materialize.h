//===- Materialize.h - Candidates as tk / tb IR -----------------*- C++ -*-===//
#ifndef TILEOPT_LIB_SUPEROPT_MATERIALIZE_H
#define TILEOPT_LIB_SUPEROPT_MATERIALIZE_H

#include "Graphs.h"
#include "ProgramModel.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tileopt::superopt {

/// Builds `graph` as a function `name` of `type` at the end of `into`;
/// choices[i] picks the block graph of the i-th fused kernel from its group.
/// `program` gives the element type and the regions of its maps.
func::FuncOp materialize(ModuleOp into, StringRef name, FunctionType type,
                         const KernelGraph &graph, ArrayRef<size_t> choices,
                         const ProgramInfo &program, int64_t blockThreads);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_MATERIALIZE_H
