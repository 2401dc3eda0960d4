//===- Enumerate.h - Kernel- and block-level enumeration --------*- C++ -*-===//
#ifndef TILEOPT_LIB_SUPEROPT_ENUMERATE_H
#define TILEOPT_LIB_SUPEROPT_ENUMERATE_H

#include "Graphs.h"
#include "ProgramModel.h"
#include "TileOpt/Superopt/SearchOptions.h"
#include "llvm/ADT/DenseSet.h"

#include <atomic>
#include <chrono>
#include <functional>

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

/// The values `op` reads, of the graph's `values`.
SmallVector<const ValueInfo *, 2> operandsOf(const OpDesc &op,
                                             ArrayRef<ValueInfo> values);

/// Remembers the terms ops built: the search applies the same op to the
/// same terms in many branches, and building a term (its normal form, then
/// interning under the context's lock) is most of the search's time. Terms
/// are interned, so a remembered one is the one the context would build.
/// One per thread.
class TermCache {
public:
  /// The term of an op of `kind`/`sub`/`scalar` over `extent` elements (the
  /// reduced, contracted or normalized dim; the loop range) on `a` and `b`
  /// (null for one operand), built by `build` the first time.
  const Expr *get(OpKind kind, int sub, double scalar, int64_t extent,
                  const Expr *a, const Expr *b,
                  llvm::function_ref<const Expr *()> build);

private:
  using Key = std::tuple<uint64_t, uint64_t, int64_t, const Expr *,
                         const Expr *>;
  llvm::DenseMap<Key, const Expr *> terms;
};

/// The result of `op` on `operands`, or nothing when shapes or axes do not
/// fit (the search's rules: dims that meet must index the same axis).
/// With `cache`, terms are looked up there first. With `broadcastBatch`
/// (tk.matmul, not tb.matmul), a matmul's batch dims broadcast. `grid` is a
/// block graph's blocks per grid dim (for a grid-wide rms_norm).
std::optional<ValueInfo> applyOp(ExprContext &ctx, const OpDesc &op,
                                 ArrayRef<const ValueInfo *> operands,
                                 int64_t forloopRange,
                                 TermCache *cache = nullptr,
                                 bool broadcastBatch = false,
                                 ArrayRef<int64_t> grid = {});

/// Whether `e` is x - max(...): the argument of a stable exp.
bool shiftedByMax(const Expr *e);

/// Per tile of `g`: whether it holds an exp shifted by a *partial*
/// maximum, one over fewer elements than the program's (a tile's or a
/// chunk's maximum; sum_rescale's running maximum when its loop walks only
/// part of the axis). Such values differ from the program's by a factor
/// exp(M - m) that varies from tile to tile: they are right only rescaled
/// (sum_rescale) or kept as partial results for a kernel that rescales
/// them. The abstract expressions forget the shift, so they cannot tell,
/// and the verifier would reject every such graph: like the stable-exp rule
/// of `admissible`, this is checked on the structure.
SmallVector<bool, 16> shiftedByPartialMax(ExprContext &ctx,
                                          const ProgramInfo &program,
                                          const BlockGraph &g);

/// One step of shiftedByPartialMax: whether `op`'s value holds such an exp,
/// given `shifted` for every tile of `g` before it (the block search keeps
/// that vector as it pushes and pops ops).
bool shiftsByPartialMax(ExprContext &ctx, const ProgramInfo &program,
                        const BlockGraph &g, const OpDesc &op,
                        ArrayRef<bool> shifted);

/// Whether an accumulator of `kind` may combine the iterations of `tile`,
/// given `shifted` (shiftedByPartialMax): `sum`, `mean` and `rms` must not
/// add up exps shifted by different partial maxima.
bool combinesShiftsConsistently(ArrayRef<bool> shifted, int tile,
                                tb::AccumKind kind);

/// Whether the search may add `op` with `result` next to `existing`
/// values: reductions only over axes the program reduces (summing over any
/// other axis mixes values the program keeps apart), no constants, and no
/// value that another one has up to a constant factor unless the op is an
/// explicit scaling, and no exp of an unshifted value in a program whose
/// exps are all shifted by a maximum.
/// With `existingPost`, only values of the result's phase (`post`) count.
bool admissible(const ProgramInfo &program, const OpDesc &op,
                ArrayRef<const ValueInfo *> operands, const ValueInfo &result,
                ArrayRef<ValueInfo> existing, ArrayRef<bool> existingPost = {},
                bool post = false);

/// Enumerates kernel graphs computing the program's outputs and calls
/// `onComplete` on each, in a deterministic order for given options.
void enumerateKernelGraphs(
    ExprContext &ctx, const ProgramInfo &program, const SearchOptions &options,
    SearchProgress &progress,
    llvm::function_ref<void(const KernelGraph &)> onComplete);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_ENUMERATE_H
