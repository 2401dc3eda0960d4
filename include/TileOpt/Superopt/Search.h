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
#include "TileOpt/Superopt/SearchOptions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir::tileopt::superopt {

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
