//===- Search.h - The µGraph superoptimizer ---------------------*- C++ -*-===//
//
// Searches kernel graphs that compute what a function of tk ops computes:
// sequences of predefined kernels and graph-defined kernels (tk.fused, whose
// block graphs are enumerated too), pruned by abstract expressions
// (AbstractExpr.h), each complete one checked by the probabilistic verifier
// and ranked by the cost model. docs/superoptimizer.md describes the search
// space, the pruning and its soundness argument, and the options.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_SUPEROPT_SEARCH_H
#define TILEOPT_SUPEROPT_SEARCH_H

#include "TileOpt/Superopt/CostModel.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
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

struct SearchStatistics {
  uint64_t explored = 0;  // partial graphs built (kernel and block level)
  uint64_t pruned = 0;    // partial graphs dropped by the abstract check
  uint64_t complete = 0;  // graphs whose outputs match the program's terms
  uint64_t verified = 0;  // complete graphs the verifier ran on
  uint64_t equivalent = 0;
  uint64_t uncompiled = 0; // equivalent, but turned down by whyNotCompiled
  /// Of those, the ones ptxas could not judge (CompileCheck::notRun), and
  /// why the first could not: the answer then depends on this machine's
  /// state, so it is not cached.
  uint64_t notRun = 0;
  std::string whyNotRun;
  double seconds = 0;
  bool budgetExhausted = false;

  void print(raw_ostream &os) const;
};

struct RankedCandidate {
  func::FuncOp function; // lives in SearchResult::module
  ProgramCost cost;
  /// The input program itself (the search always ranks it too).
  bool isInput = false;
  /// Its run time on a GPU, when `rankByMeasurement` was given one.
  std::optional<double> measuredSeconds;
};

struct SearchResult {
  /// Verified candidates, cheapest first; the input program is among them
  /// (it is its own candidate), so there is always one.
  OwningOpRef<ModuleOp> module;
  SmallVector<RankedCandidate> ranked;
  SearchStatistics stats;
};

/// `func` in generic form with its name replaced by "program": two functions
/// that differ only in their names and locations print the same.
std::string canonicalText(func::FuncOp func);

/// Names a µGraph in measured run times (docs/superoptimizer.md, "Measured
/// ranking"): 16 hex digits of the xxh3 hash of its canonical text.
std::string candidateKey(func::FuncOp func);

/// Orders `result.ranked` by measured run time: the candidates whose
/// `candidateKey` has an entry in `secondsByKey` first, fastest first, then
/// the others in the cost model's order (a candidate that could not be timed
/// is not assumed faster or slower than one that was). Returns how many
/// candidates were measured; with none, the order is unchanged.
unsigned rankByMeasurement(SearchResult &result,
                           const llvm::StringMap<double> &secondsByKey);

/// Searches µGraphs equivalent to `program`. Fails, with a remark at the op
/// responsible, on programs it cannot model (an op without an abstract
/// expression, a shape it cannot partition, a program the verifier refuses).
FailureOr<SearchResult> superoptimize(func::FuncOp program,
                                      const SearchOptions &options);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_SUPEROPT_SEARCH_H
