//===- BlockSearch.h - Block graphs of a graph-defined kernel ---*- C++ -*-===//
#ifndef TILEOPT_LIB_SUPEROPT_BLOCKSEARCH_H
#define TILEOPT_LIB_SUPEROPT_BLOCKSEARCH_H

#include "Graphs.h"
#include "ProgramModel.h"
#include "SearchProgress.h"
#include "TileOpt/Superopt/SearchOptions.h"

#include <vector>

namespace mlir::tileopt::superopt {

/// Block graphs over `inputs` under every partition (blockConfigs), in the
/// order of their groups (groupBlockConfigs), which run on
/// `options.numThreads` workers.
std::vector<BlockGraph> searchBlockGraphs(ExprContext &ctx,
                                          const ProgramInfo &program,
                                          const SearchOptions &options,
                                          SearchProgress &progress,
                                          ArrayRef<ValueInfo> inputs);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_BLOCKSEARCH_H
