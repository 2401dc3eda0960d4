//===- SearchOptions.h - What the µGraph search explores --------*- C++ -*-===//
//
// The bounds of the search space, the budgets and the target: what
// tileopt-superoptimize's options set (Passes.td) and what the search's
// cache key records. The lowest layer of the search's headers: the
// enumeration (lib/Superopt) reads these without the driver's Search.h.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_SUPEROPT_SEARCHOPTIONS_H
#define TILEOPT_SUPEROPT_SEARCHOPTIONS_H

#include "TileOpt/Superopt/CostModel.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::tileopt::superopt {

struct SearchOptions {
  /// Kernel launches in a candidate (predefined and graph-defined).
  unsigned maxKernelOps = 5;
  /// Compute ops and accumulators in one block graph (iterators and savers
  /// are not counted).
  unsigned maxBlockOps = 11;
  /// Two: a kernel of partial results and the one that combines them
  /// (split-K, split-KV), or two fusions side by side.
  unsigned maxFusedKernels = 2;
  unsigned maxBlockInputs = 3;
  /// Three: split-KV attention writes partial maxima, sums and products.
  unsigned maxBlockOutputs = 3;
  /// Grid dims a block graph partitions (at most 3).
  unsigned maxGridDims = 2;
  /// Lets block graphs normalize rows that their blocks share
  /// (tb.rms_norm `across`, a grid-wide barrier): ntrans as one kernel.
  /// Off by default: on the H200 the barriers cost more than the launch
  /// they save (docs/superoptimizer.md).
  bool gridReductions = false;
  /// For-loop ranges tried (1 is always tried).
  SmallVector<int64_t> forloopRanges = {4, 16, 64};
  /// Extents of a tile along a dim the grid partitions.
  SmallVector<int64_t> tileExtents = {16, 32, 64, 128};
  int64_t blockThreads = 128;
  /// Worker threads (0: the hardware's). Results do not depend on it unless
  /// a budget stops the search.
  unsigned numThreads = 0;
  double timeBudgetSeconds = 60;
  /// Partial graphs explored before the search stops.
  uint64_t graphBudget = 50'000'000;
  /// Partial block graphs explored for one partition of one set of kernel
  /// inputs before deeper block graphs are given up.
  uint64_t blockGraphBudget = 4'000'000;
  /// Draws the verifier's random tests.
  uint64_t seed = 0;
  /// Searches the program with its matmul chains in their cheapest order
  /// (Reassociate.h), once the verifier has checked that order.
  bool reassociate = true;
  /// Searches the program with the batches of its shared-rhs matmuls
  /// merged into rows (MergeBatchRows.h), once the verifier has checked it.
  bool mergeBatchRows = true;
  /// Compiles every candidate before it is returned and turns down those
  /// the code generator refuses or whose kernels ptxas spills
  /// (Compilation.h).
  bool compileCandidates = true;
  /// Candidates verified equivalent and returned, cheapest first. They are
  /// verified in order of cost, so the search stops verifying once it has
  /// this many.
  unsigned keep = 5;
  /// Prints progress to stderr about once a second.
  bool progress = false;
  GpuTarget target = GpuTarget::h200();

  /// The options that change the result, as text (the cache key's part).
  std::string fingerprint() const;
};

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_SUPEROPT_SEARCHOPTIONS_H
