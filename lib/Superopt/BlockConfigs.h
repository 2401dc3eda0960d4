//===- BlockConfigs.h - Partitions of a kernel's inputs ---------*- C++ -*-===//
//
// A graph-defined kernel's block graph runs under a partition of the
// kernel's inputs: the axes its grid splits among blocks and the axis its
// for-loop walks (docs/superoptimizer.md, step 3). These are the
// partitions the block search tries, and how it groups them so that one
// search serves several (Mirage's dim_strategy).
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_SUPEROPT_BLOCKCONFIGS_H
#define TILEOPT_LIB_SUPEROPT_BLOCKCONFIGS_H

#include "Graphs.h"
#include "ProgramModel.h"
#include "TileOpt/Superopt/SearchOptions.h"

#include <vector>

namespace mlir::tileopt::superopt {

/// One partition of the kernel's inputs: which axes the grid splits and
/// which one the for-loop walks.
struct BlockConfig {
  SmallVector<std::pair<int, int64_t>, 3> grid; // axis, blocks
  int loopAxis = -1;
  int64_t forloopRange = 1;
  /// The loop walks the chunks of partial results over `loopAxis` that an
  /// earlier kernel wrote (AxisRef::partialOf), one chunk per iteration.
  bool loopOverPartials = false;
};

/// The partitions tried for a kernel with `inputs`: every set of up to
/// maxGridDims axes split into tiles of the allowed extents, times every
/// axis the loop may walk in the allowed ranges (in chunks of a power of
/// two), or no loop. A kernel that reads chunks of partial results is there
/// to combine them: its loop walks the chunks, one per iteration.
SmallVector<BlockConfig> blockConfigs(const ProgramInfo &program,
                                      ArrayRef<ValueInfo> inputs,
                                      const SearchOptions &options);

/// Configs searched together: those that split the same reduced axes and
/// loop alike, searched once under `search`, a config at least as fine as
/// each of them along every axis (what fits in shared memory there may not
/// under coarser ones, never the other way round).
struct BlockConfigGroup {
  BlockConfig search;
  /// Finest first: the block search replays what it found under each, and
  /// collects the results in this order.
  SmallVector<BlockConfig, 8> members;
};

/// `configs` in groups, the partitions most likely to fuse first (a budget
/// may stop the search before the last): a loop over an axis the program
/// reduces (accumulators) and a grid over axes it keeps (independent
/// blocks). A group whose grids split more axes together than a grid has
/// dims is split by the axes they split.
std::vector<BlockConfigGroup> groupBlockConfigs(const ProgramInfo &program,
                                                ArrayRef<BlockConfig> configs);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_BLOCKCONFIGS_H
