//===- KernelSearch.h - Kernel graphs of the program ------------*- C++ -*-===//
#ifndef TILEOPT_LIB_SUPEROPT_KERNELSEARCH_H
#define TILEOPT_LIB_SUPEROPT_KERNELSEARCH_H

#include "Graphs.h"
#include "ProgramModel.h"
#include "SearchProgress.h"
#include "TileOpt/Superopt/SearchOptions.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::tileopt::superopt {

/// Enumerates kernel graphs computing the program's outputs and calls
/// `onComplete` on each, in a deterministic order for given options.
void enumerateKernelGraphs(
    ExprContext &ctx, const ProgramInfo &program, const SearchOptions &options,
    SearchProgress &progress,
    llvm::function_ref<void(const KernelGraph &)> onComplete);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_KERNELSEARCH_H
