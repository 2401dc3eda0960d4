//===- Enumerate.h - Kernel- and block-level enumeration --------*- C++ -*-===//
#ifndef TILEOPT_LIB_SUPEROPT_ENUMERATE_H
#define TILEOPT_LIB_SUPEROPT_ENUMERATE_H

#include "Graphs.h"
#include "AbstractOps.h"
#include "Admissibility.h"
#include "ProgramModel.h"
#include "SearchProgress.h"
#include "TileOpt/Superopt/SearchOptions.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

namespace mlir::tileopt::superopt {

/// Enumerates kernel graphs computing the program's outputs and calls
/// `onComplete` on each, in a deterministic order for given options.
void enumerateKernelGraphs(
    ExprContext &ctx, const ProgramInfo &program, const SearchOptions &options,
    SearchProgress &progress,
    llvm::function_ref<void(const KernelGraph &)> onComplete);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_ENUMERATE_H
