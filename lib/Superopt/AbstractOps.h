//===- AbstractOps.h - What an op does to a value ---------------*- C++ -*-===//
//
// The semantics both levels of the search share: an op of the light graphs
// (Graphs.h) applied to values gives a value's shape, the axes its dims
// index and its abstract expression, or nothing where shapes or axes do not
// fit.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_SUPEROPT_ABSTRACTOPS_H
#define TILEOPT_LIB_SUPEROPT_ABSTRACTOPS_H

#include "Graphs.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <tuple>

namespace mlir::tileopt::superopt {

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
  using Key =
      std::tuple<uint64_t, uint64_t, int64_t, const Expr *, const Expr *>;
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

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_ABSTRACTOPS_H
