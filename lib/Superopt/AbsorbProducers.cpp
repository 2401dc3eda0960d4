//===- AbsorbProducers.cpp - Row-local producers into fused kernels -------===//
//
// A tile's rms_norm equals the tensor's on the same elements when the tile
// holds whole rows (the last dim, over which it normalizes); an elementwise
// op is the same on any tile. An rms_norm over another dim d of a tensor
// (`transpose(rms_norm(transpose(x)))`, the importer's form of it) equals
// the tile's over d where the tile holds d whole. Every rewrite here keeps
// the values and only changes which kernel computes them.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Superopt/AbsorbProducers.h"

#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Superopt/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_ABSORBPRODUCERS
#include "TileOpt/Superopt/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

/// Whether `iterator`'s tiles hold `dim` of the tensor it reads whole (the
/// iterator's verifier divides the dim by the blocks and the iterations
/// that take parts of it, so none does).
bool readsWholeDim(tb::InputIteratorOp iterator, int64_t dim) {
  auto tensor = cast<RankedTensorType>(iterator.getInput().getType());
  auto tile = cast<tb::TileType>(iterator.getResult().getType());
  return tile.getShape()[dim] == tensor.getShape()[dim];
}

/// A producer that can move into the kernels reading it.
struct Absorption {
  /// The op whose result the kernels read, and what they read instead.
  Operation *producer = nullptr;
  Value source;
  /// The elementwise op, the rms_norm over the last dim, or the rms_norm
  /// (with its transposes) over `dim`.
  enum { unary, rmsNorm, rmsNormOverDim } kind = unary;
  int64_t dim = -1;
  SmallVector<OpOperand *> uses;
  SmallVector<tb::InputIteratorOp> iterators;
};

/// How `op` moves into the kernels reading it, if it can: every use of its
/// result is a graph-defined kernel, and each of their tiles of it can
/// compute it (an elementwise op on any tile, an rms_norm on tiles that
/// hold the dim it normalizes whole). `why` says why not.
FailureOr<Absorption> planAbsorption(Operation *op, std::string &why) {
  Absorption plan;
  plan.producer = op;
  if (auto unary = dyn_cast<tk::UnaryOp>(op)) {
    plan.source = unary.getInput();
  } else if (auto norm = dyn_cast<tk::RmsNormOp>(op)) {
    plan.kind = Absorption::rmsNorm;
    plan.source = norm.getInput();
    plan.dim = cast<RankedTensorType>(norm.getType()).getRank() - 1;
  } else if (auto outer = dyn_cast<tk::TransposeOp>(op)) {
    // transpose(rms_norm(transpose(x))), the transposes undoing each other:
    // x normalized over the dim the first moves last.
    auto norm = outer.getInput().getDefiningOp<tk::RmsNormOp>();
    if (!norm || !norm->hasOneUse()) {
      why = "not the one use of an rms_norm";
      return failure();
    }
    auto inner = norm.getInput().getDefiningOp<tk::TransposeOp>();
    if (!inner) {
      why = "not an rms_norm of a transpose";
      return failure();
    }
    ArrayRef<int64_t> in = inner.getPermutation(), out = outer.getPermutation();
    for (auto [i, p] : llvm::enumerate(out))
      if (in[p] != static_cast<int64_t>(i)) {
        why = "the transposes do not undo each other";
        return failure();
      }
    plan.kind = Absorption::rmsNormOverDim;
    plan.source = inner.getInput();
    plan.dim = in.back();
  } else {
    why = "not an elementwise op or an rms_norm";
    return failure();
  }
  for (OpOperand &use : op->getResult(0).getUses()) {
    auto fused = dyn_cast<tk::FusedOp>(use.getOwner());
    if (!fused) {
      why = "a use is not a kernel";
      return failure();
    }
    plan.uses.push_back(&use);
    BlockArgument arg =
        fused.getBody().front().getArgument(use.getOperandNumber());
    for (Operation *user : arg.getUsers()) {
      auto iterator = dyn_cast<tb::InputIteratorOp>(user);
      if (!iterator || (plan.kind != Absorption::unary &&
                        !readsWholeDim(iterator, plan.dim))) {
        why = "a kernel's tiles of it do not hold the normalized dim whole";
        return failure();
      }
      plan.iterators.push_back(iterator);
    }
  }
  if (plan.uses.empty()) {
    why = "no kernel reads it";
    return failure();
  }
  return plan;
}

/// The producer's op on the tile of `iterator`, built after it.
Value computeOnTile(RewriterBase &rewriter, const Absorption &plan,
                    tb::InputIteratorOp iterator) {
  Location loc = plan.producer->getLoc();
  Value tile = iterator.getResult();
  auto type = cast<tb::TileType>(tile.getType());
  switch (plan.kind) {
  case Absorption::unary: {
    auto unary = cast<tk::UnaryOp>(plan.producer);
    return tb::UnaryOp::create(rewriter, loc, type, unary.getKind(), tile,
                               unary.getScalarAttr());
  }
  case Absorption::rmsNorm:
    return tb::RmsNormOp::create(
        rewriter, loc, type, tile,
        cast<tk::RmsNormOp>(plan.producer).getEpsilonAttr(),
        /*across=*/IntegerAttr());
  case Absorption::rmsNormOverDim: {
    // x * rsqrt(mean(x^2 over d) + epsilon): tb.rms_norm normalizes the
    // last dim only, tb.reduce takes any.
    auto norm =
        cast<tk::RmsNormOp>(plan.producer->getOperand(0).getDefiningOp());
    SmallVector<int64_t> reducedShape(type.getShape());
    reducedShape[plan.dim] = 1;
    auto reducedType = tb::TileType::get(reducedShape, type.getElementType());
    Value square = tb::UnaryOp::create(rewriter, loc, type, UnaryKind::square,
                                       tile, FloatAttr());
    Value scale =
        tb::ReduceOp::create(rewriter, loc, reducedType, ReduceKind::mean,
                             square, plan.dim, IntegerAttr());
    float epsilon = norm.getEpsilon().convertToFloat();
    if (epsilon != 0.0f)
      scale =
          tb::UnaryOp::create(rewriter, loc, reducedType, UnaryKind::add_scalar,
                              scale, norm.getEpsilonAttr());
    scale = tb::UnaryOp::create(rewriter, loc, reducedType, UnaryKind::rsqrt,
                                scale, FloatAttr());
    return tb::BinaryOp::create(rewriter, loc, type, BinaryKind::mul, tile,
                                scale);
  }
  }
  llvm_unreachable("unknown absorption");
}

/// Moves a producer into every graph-defined kernel that reads it, where
/// `planAbsorption` allows and `stays` does not hold for it: after each
/// iterator of it, the kernel computes it on the tile (the tile's other
/// readers read that), and reads the producer's source instead.
struct AbsorbIntoFusedConsumers : public RewritePattern {
  AbsorbIntoFusedConsumers(MLIRContext *context,
                           std::function<bool(Operation *)> stays)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        stays(std::move(stays)) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<tk::UnaryOp, tk::RmsNormOp, tk::TransposeOp>(op))
      return failure();
    if (stays && stays(op))
      return rewriter.notifyMatchFailure(op, "asked to stay");
    std::string why;
    FailureOr<Absorption> plan = planAbsorption(op, why);
    if (failed(plan))
      return rewriter.notifyMatchFailure(op, why);
    for (tb::InputIteratorOp iterator : plan->iterators) {
      rewriter.setInsertionPointAfter(iterator);
      Value computed = computeOnTile(rewriter, *plan, iterator);
      // The ops just built read the tile; the kernel's others read the
      // computed one.
      SmallPtrSet<Operation *, 8> built;
      for (Operation *o = iterator->getNextNode();
           o != computed.getDefiningOp()->getNextNode(); o = o->getNextNode())
        built.insert(o);
      rewriter.replaceAllUsesExcept(iterator.getResult(), computed, built);
    }
    for (OpOperand *use : plan->uses)
      rewriter.modifyOpInPlace(use->getOwner(),
                               [&] { use->set(plan->source); });
    // The producer, and for a norm over a dim the norm and the transpose
    // before it, unless something else reads that transpose.
    Operation *norm = plan->kind == Absorption::rmsNormOverDim
                          ? op->getOperand(0).getDefiningOp()
                          : nullptr;
    rewriter.eraseOp(op);
    if (norm) {
      Operation *inner = norm->getOperand(0).getDefiningOp();
      rewriter.eraseOp(norm);
      if (inner->use_empty())
        rewriter.eraseOp(inner);
    }
    return success();
  }

  std::function<bool(Operation *)> stays;
};

struct AbsorbProducersPass
    : public tileopt::impl::AbsorbProducersBase<AbsorbProducersPass> {
  void runOnOperation() override { absorbProducers(getOperation()); }
};

} // namespace

void superopt::populateAbsorbProducersPatterns(
    RewritePatternSet &patterns, std::function<bool(Operation *)> stays) {
  patterns.add<AbsorbIntoFusedConsumers>(patterns.getContext(),
                                         std::move(stays));
}

SmallVector<Operation *> superopt::absorbableProducers(func::FuncOp func) {
  SmallVector<Operation *> producers;
  std::string why;
  for (Operation &op : func.getBody().front())
    if (isa<tk::UnaryOp, tk::RmsNormOp, tk::TransposeOp>(op) &&
        succeeded(planAbsorption(&op, why)))
      producers.push_back(&op);
  return producers;
}

bool superopt::absorbProducers(func::FuncOp func,
                               std::function<bool(Operation *)> stays) {
  RewritePatternSet patterns(func.getContext());
  populateAbsorbProducersPatterns(patterns, std::move(stays));
  // Whether a producer moved: it inserts its op on a tile, where the
  // driver's own clean-up (erasing dead ops) inserts nothing.
  struct InsertionListener : public RewriterBase::Listener {
    void notifyOperationInserted(Operation *, OpBuilder::InsertPoint) override {
      inserted = true;
    }
    bool inserted = false;
  } listener;
  GreedyRewriteConfig config;
  config.enableFolding(false)
      .enableConstantCSE(false)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .setListener(&listener);
  (void)applyPatternsGreedily(func, std::move(patterns), config);
  return listener.inserted;
}
