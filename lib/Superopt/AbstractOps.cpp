//===- AbstractOps.cpp - What an op does to a value -----------------------===//
#include "AbstractOps.h"

#include "TileOpt/Superopt/Abstraction.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

static bool scalarKind(UnaryKind kind) {
  return kind == UnaryKind::mul_scalar || kind == UnaryKind::add_scalar;
}

SmallVector<const ValueInfo *, 2>
superopt::operandsOf(const OpDesc &op, ArrayRef<ValueInfo> values) {
  SmallVector<const ValueInfo *, 2> operands;
  for (int o : op.operands)
    operands.push_back(&values[o]);
  return operands;
}

/// Broadcasts `r` (an elementwise op's result so far) with its operand
/// `y`, numpy's rules on equal ranks: dims that meet index the same axis,
/// or one of them is 1. False where they do not fit.
static bool broadcastWith(ValueInfo &r, const ValueInfo &y) {
  if (r.shape.size() != y.shape.size())
    return false;
  for (size_t d = 0; d < r.shape.size(); ++d) {
    if (r.shape[d] == y.shape[d] && r.axes[d] == y.axes[d])
      continue;
    // Where both are 1, a single row of an axis the program keeps (a
    // tile of one) stays that axis against a reduced dim of y.
    bool keepR = y.shape[d] == 1 && !r.axes[d].reduced && y.axes[d].reduced;
    if (r.shape[d] == 1 && !keepR) {
      r.shape[d] = y.shape[d];
      r.axes[d] = y.axes[d];
    } else if (y.shape[d] != 1) {
      return false;
    }
  }
  return true;
}

const Expr *TermCache::get(OpKind kind, int sub, double scalar, int64_t extent,
                           const Expr *a, const Expr *b,
                           llvm::function_ref<const Expr *()> build) {
  Key key{(static_cast<uint64_t>(kind) << 32) | static_cast<uint32_t>(sub),
          llvm::bit_cast<uint64_t>(scalar), extent, a, b};
  auto [it, inserted] = terms.try_emplace(key, nullptr);
  if (inserted)
    it->second = build();
  return it->second;
}

std::optional<ValueInfo> superopt::applyOp(ExprContext &ctx, const OpDesc &op,
                                           ArrayRef<const ValueInfo *> operands,
                                           int64_t forloopRange,
                                           TermCache *cache,
                                           bool broadcastBatch,
                                           ArrayRef<int64_t> grid) {
  const ValueInfo &x = *operands[0];
  ValueInfo r = x;
  auto term = [&](int64_t extent, llvm::function_ref<const Expr *()> build) {
    if (!cache)
      return build();
    const Expr *y = operands.size() > 1 ? operands[1]->expr : nullptr;
    return cache->get(op.kind, op.sub, op.scalar, extent, x.expr, y, build);
  };
  switch (op.kind) {
  case OpKind::Unary: {
    auto kind = static_cast<UnaryKind>(op.sub);
    r.expr = term(0, [&] {
      return applyUnary(ctx, kind, x.expr,
                        scalarKind(kind) ? std::optional<double>(op.scalar)
                                         : std::nullopt);
    });
    return r;
  }
  case OpKind::RmsNorm: {
    if (x.shape.empty() || x.axes.back().reduced ||
        x.axes.back().partialOf >= 0)
      return std::nullopt;
    // Across a grid dim, a row is the blocks' parts of it.
    int64_t blocks = 1;
    if (op.sub == kAcrossGrid) {
      if (op.dim >= static_cast<int64_t>(grid.size()) || grid[op.dim] < 2)
        return std::nullopt;
      blocks = grid[op.dim];
    }
    int64_t n = x.shape.back() * blocks;
    if (n < 2)
      return std::nullopt;
    r.expr = term(n, [&] { return ctx.rmsNorm(x.expr, n, op.scalar); });
    return r;
  }
  case OpKind::Binary: {
    const ValueInfo &y = *operands[1];
    if (!broadcastWith(r, y))
      return std::nullopt;
    r.expr = term(0, [&] {
      return applyBinary(ctx, static_cast<BinaryKind>(op.sub), x.expr, y.expr);
    });
    return r;
  }
  case OpKind::Map: {
    SmallVector<const Expr *, 4> args;
    for (const ValueInfo *operand : operands) {
      if (!broadcastWith(r, *operand))
        return std::nullopt;
      args.push_back(operand->expr);
    }
    auto build = [&] { return ctx.map(op.sub, args); };
    // The cache keys on two operands.
    r.expr = operands.size() <= 2 ? term(0, build) : build();
    return r;
  }
  case OpKind::Reduce: {
    int64_t n = x.shape[op.dim];
    AxisRef axis = x.axes[op.dim];
    // A dim of partial results combines with its chunks only when each
    // chunk is one element (a partial maximum per block, not a partial
    // product stacked along another axis).
    if (n < 2 || (axis.partialOf >= 0 && n != axis.partials))
      return std::nullopt;
    r.shape[op.dim] = 1;
    r.axes[op.dim] = AxisRef{axis.axis, true};
    r.expr = term(n, [&] {
      return applyReduce(ctx, static_cast<ReduceKind>(op.sub), x.expr, n);
    });
    return r;
  }
  case OpKind::Matmul: {
    const ValueInfo &y = *operands[1];
    int64_t rx = x.shape.size(), ry = y.shape.size();
    if (rx < 2 || ry < 2 || (rx != ry && !broadcastBatch))
      return std::nullopt;
    // Batch dims line up from the right; with broadcastBatch a missing dim
    // or one of 1 takes the other operand's.
    int64_t rank = std::max(rx, ry);
    r.shape.resize(rank);
    r.axes.resize(rank);
    for (int64_t d = 0; d + 2 < rank; ++d) {
      int64_t dx = d - (rank - rx), dy = d - (rank - ry);
      const ValueInfo *from = dx >= 0 ? &x : &y;
      int64_t dim = dx >= 0 ? dx : dy;
      if (dx >= 0 && dy >= 0 &&
          (x.shape[dx] != y.shape[dy] || x.axes[dx] != y.axes[dy])) {
        if (!broadcastBatch || (x.shape[dx] != 1 && y.shape[dy] != 1))
          return std::nullopt;
        if (x.shape[dx] == 1) {
          from = &y;
          dim = dy;
        }
      }
      r.shape[d] = from->shape[dim];
      r.axes[d] = from->axes[dim];
    }
    // The contracted dims must index one axis of the program.
    if (x.shape[rx - 1] != y.shape[ry - 2] ||
        x.axes[rx - 1] != y.axes[ry - 2] || x.axes[rx - 1].reduced ||
        x.axes[rx - 1].partialOf >= 0)
      return std::nullopt;
    r.shape[rank - 2] = x.shape[rx - 2];
    r.axes[rank - 2] = x.axes[rx - 2];
    r.shape[rank - 1] = y.shape[ry - 1];
    r.axes[rank - 1] = y.axes[ry - 1];
    r.expr = term(x.shape[rx - 1],
                  [&] { return ctx.matmul(x.expr, y.expr, x.shape[rx - 1]); });
    return r;
  }
  case OpKind::Accum:
    r.expr = term(forloopRange, [&] {
      return applyAccum(ctx, static_cast<tb::AccumKind>(op.sub), x.expr,
                        forloopRange);
    });
    return r;
  }
  llvm_unreachable("unknown op kind");
}
