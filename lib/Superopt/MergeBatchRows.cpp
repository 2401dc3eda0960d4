//===- MergeBatchRows.cpp - Shared-rhs batches as rows of one matmul ------===//
//
// A tensor [d0, ..., dk, m, n] read as rows is [d0 * ... * dk * m, n]: the
// same elements in the same (row-major) order, so every rewrite here keeps
// the values and only changes which reshapes the function holds.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Superopt/MergeBatchRows.h"

#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Superopt/Passes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_MERGEBATCHROWS
#include "TileOpt/Superopt/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// `type` as rows: its leading dims merged into one, its last dim kept.
RankedTensorType rowsType(RankedTensorType type) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rows = 1;
  for (int64_t d : shape.drop_back())
    rows *= d;
  return type.clone({rows, shape.back()});
}

/// `value` reshaped to `type` (a reshape of a reshape folds at once).
Value reshapeTo(PatternRewriter &rewriter, Location loc, Value value,
                RankedTensorType type) {
  return rewriter.createOrFold<tk::ReshapeOp>(loc, type, value);
}

/// lhs[d..., m, k] @ rhs[k, n] -> reshape(reshape(lhs)[d... * m, k] @ rhs).
struct MergeSharedRhsBatch : public OpRewritePattern<tk::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tk::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType lhs = typeOf(op.getLhs());
    if (typeOf(op.getRhs()).getRank() != 2 || lhs.getRank() <= 2)
      return rewriter.notifyMatchFailure(op, "not a batch against one rhs");
    Location loc = op.getLoc();
    Value rows = tk::MatmulOp::create(
        rewriter, loc, rowsType(op.getType()),
        reshapeTo(rewriter, loc, op.getLhs(), rowsType(lhs)), op.getRhs());
    rewriter.replaceOpWithNewOp<tk::ReshapeOp>(op, op.getType(), rows);
    return success();
  }
};

/// An op that computes each row of its result from the same row of its
/// operands, when every use reshapes its result to rows: the op on rows.
/// The reshapes move to its operands, where they meet the reshapes that
/// made them (and fold) or stay.
struct ComputeOnRows : public OpRewritePattern<tk::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tk::ReshapeOp reshape,
                                PatternRewriter &rewriter) const override {
    Operation *op = reshape.getInput().getDefiningOp();
    if (!op || !isa<tk::UnaryOp, tk::BinaryOp, tk::RmsNormOp, tk::ReduceOp>(op))
      return failure();
    RankedTensorType type = typeOf(reshape.getInput());
    RankedTensorType rows = rowsType(type);
    if (type.getRank() <= 2 || reshape.getType() != rows)
      return rewriter.notifyMatchFailure(reshape, "not a reshape to rows");
    if (!llvm::all_of(op->getUsers(), [&](Operation *user) {
          auto other = dyn_cast<tk::ReshapeOp>(user);
          return other && other.getType() == rows;
        }))
      return rewriter.notifyMatchFailure(op, "a use needs the batch dims");
    auto reduce = dyn_cast<tk::ReduceOp>(op);
    if (reduce && static_cast<int64_t>(reduce.getDim()) != type.getRank() - 1)
      return rewriter.notifyMatchFailure(op, "reduces across rows");

    // Each operand as rows: a broadcast operand broadcasts over all the
    // leading dims or over none of them.
    Location loc = op->getLoc();
    SmallVector<Value, 2> operands;
    for (Value operand : op->getOperands()) {
      RankedTensorType t = typeOf(operand);
      if (t.getRank() < 2) {
        operands.push_back(operand);
        continue;
      }
      ArrayRef<int64_t> lead = t.getShape().drop_back();
      ArrayRef<int64_t> resultLead = type.getShape().drop_back();
      if (lead.size() == resultLead.size() && lead == resultLead) {
        operands.push_back(reshapeTo(rewriter, loc, operand, rowsType(t)));
      } else if (llvm::all_of(lead, [](int64_t d) { return d == 1; })) {
        operands.push_back(reshapeTo(rewriter, loc, operand,
                                     t.clone({1, t.getShape().back()})));
      } else {
        return rewriter.notifyMatchFailure(op, "an operand broadcasts over "
                                               "some of the leading dims");
      }
    }
    Operation *onRows = rewriter.clone(*op);
    onRows->setOperands(operands);
    onRows->getResult(0).setType(rows);
    if (reduce)
      cast<tk::ReduceOp>(onRows).setDim(1);
    for (Operation *user : llvm::make_early_inc_range(op->getUsers()))
      rewriter.replaceOp(user, onRows->getResults());
    return success();
  }
};

struct MergeBatchRowsPass
    : public tileopt::impl::MergeBatchRowsBase<MergeBatchRowsPass> {
  void runOnOperation() override { mergeBatchRows(getOperation()); }
};

} // namespace

void superopt::populateMergeBatchRowsPatterns(RewritePatternSet &patterns) {
  patterns.add<MergeSharedRhsBatch, ComputeOnRows>(patterns.getContext());
}

bool superopt::mergeBatchRows(func::FuncOp func) {
  auto sharedRhsBatch = [&] {
    return func
        .walk([](tk::MatmulOp op) {
          return typeOf(op.getRhs()).getRank() == 2 &&
                         typeOf(op.getLhs()).getRank() > 2
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  };
  if (!sharedRhsBatch())
    return false;
  RewritePatternSet patterns(func.getContext());
  populateMergeBatchRowsPatterns(patterns);
  (void)applyPatternsGreedily(func, std::move(patterns));
  // Ops moved onto rows from several uses are equal; one of each stays.
  IRRewriter rewriter(func.getContext());
  DominanceInfo dominance(func);
  eliminateCommonSubExpressions(rewriter, dominance, func);
  return true;
}
