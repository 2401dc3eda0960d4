//===- AbsorbProducers.cpp - Row-local producers into fused kernels -------===//
//
// A tile's rms_norm equals the tensor's on the same elements when the tile
// holds whole rows (the last dim, over which it normalizes); an elementwise
// op is the same on any tile. Every rewrite here keeps the values and only
// changes which kernel computes them.
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

/// Whether `iterator`'s tiles hold whole rows of the tensor it reads: its
/// last dim whole (the iterator's verifier divides the dim by the blocks
/// and the iterations that take parts of it, so none does).
bool readsWholeRows(tb::InputIteratorOp iterator) {
  auto tensor = cast<RankedTensorType>(iterator.getInput().getType());
  auto tile = cast<tb::TileType>(iterator.getResult().getType());
  return tile.getShape().back() == tensor.getShape().back();
}

/// The producer's op on one tile, built after the tile's iterator.
Value computeOnTile(PatternRewriter &rewriter, Operation *producer,
                    tb::InputIteratorOp iterator) {
  Location loc = producer->getLoc();
  Value tile = iterator.getResult();
  Type type = tile.getType();
  if (auto norm = dyn_cast<tk::RmsNormOp>(producer))
    return tb::RmsNormOp::create(rewriter, loc, type, tile,
                                 norm.getEpsilonAttr(),
                                 /*across=*/IntegerAttr());
  auto unary = cast<tk::UnaryOp>(producer);
  return tb::UnaryOp::create(rewriter, loc, type, unary.getKind(), tile,
                             unary.getScalarAttr());
}

/// Moves `ProducerOp` into every graph-defined kernel that reads it, when
/// it has no other use and each of those kernels' tiles of it can compute
/// it (an elementwise op on any tile, an rms_norm on whole rows).
template <typename ProducerOp>
struct AbsorbIntoFusedConsumers : public OpRewritePattern<ProducerOp> {
  using OpRewritePattern<ProducerOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ProducerOp producer,
                                PatternRewriter &rewriter) const override {
    constexpr bool rowwise = std::is_same_v<ProducerOp, tk::RmsNormOp>;
    SmallVector<OpOperand *> uses;
    SmallVector<tb::InputIteratorOp> iterators;
    for (OpOperand &use : producer.getResult().getUses()) {
      auto fused = dyn_cast<tk::FusedOp>(use.getOwner());
      if (!fused)
        return rewriter.notifyMatchFailure(producer, "a use is not a kernel");
      uses.push_back(&use);
      BlockArgument arg =
          fused.getBody().front().getArgument(use.getOperandNumber());
      for (Operation *user : arg.getUsers()) {
        auto iterator = dyn_cast<tb::InputIteratorOp>(user);
        if (!iterator || (rowwise && !readsWholeRows(iterator)))
          return rewriter.notifyMatchFailure(
              producer, "a kernel's tiles of it are not whole rows");
        iterators.push_back(iterator);
      }
    }
    if (uses.empty())
      return rewriter.notifyMatchFailure(producer, "no kernel reads it");
    for (tb::InputIteratorOp iterator : iterators) {
      rewriter.setInsertionPointAfter(iterator);
      Value computed = computeOnTile(rewriter, producer, iterator);
      rewriter.replaceAllUsesExcept(iterator.getResult(), computed,
                                    computed.getDefiningOp());
    }
    for (OpOperand *use : uses)
      rewriter.modifyOpInPlace(use->getOwner(),
                               [&] { use->set(producer.getInput()); });
    rewriter.eraseOp(producer);
    return success();
  }
};

struct AbsorbProducersPass
    : public tileopt::impl::AbsorbProducersBase<AbsorbProducersPass> {
  void runOnOperation() override { absorbProducers(getOperation()); }
};

} // namespace

void superopt::populateAbsorbProducersPatterns(RewritePatternSet &patterns) {
  patterns.add<AbsorbIntoFusedConsumers<tk::RmsNormOp>,
               AbsorbIntoFusedConsumers<tk::UnaryOp>>(patterns.getContext());
}

bool superopt::absorbProducers(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  populateAbsorbProducersPatterns(patterns);
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
