//===- SearchProgress.h - The search's counters and budgets -----*- C++ -*-===//
//
// What the workers of one search share: the counts of partial graphs it
// explored, pruned and completed (SearchStatistics reports them), and the
// budgets that stop it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_SUPEROPT_SEARCHPROGRESS_H
#define TILEOPT_LIB_SUPEROPT_SEARCHPROGRESS_H

#include <atomic>
#include <chrono>
#include <cstdint>

namespace mlir::tileopt::superopt {

/// Counters shared by the workers, and the budgets.
struct SearchProgress {
  std::atomic<uint64_t> explored{0}, pruned{0}, complete{0};
  std::atomic<bool> stop{false};
  std::chrono::steady_clock::time_point deadline;
  uint64_t graphBudget = 0;
  /// Counts one explored graph; false when a budget ran out.
  bool tick() {
    uint64_t n = explored.fetch_add(1, std::memory_order_relaxed) + 1;
    if ((n & 1023) == 0 &&
        (n >= graphBudget || std::chrono::steady_clock::now() > deadline))
      stop.store(true, std::memory_order_relaxed);
    return !stop.load(std::memory_order_relaxed);
  }
  /// Whether the time budget ran out (then stops the workers too): for work
  /// between ticks that is slow per step, such as pricing each combination
  /// of a kernel graph's block graphs. Not the graph budget: the graphs
  /// already found are still priced when it runs out.
  bool expired() {
    if (std::chrono::steady_clock::now() <= deadline)
      return false;
    stop.store(true, std::memory_order_relaxed);
    return true;
  }
};

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_SEARCHPROGRESS_H
