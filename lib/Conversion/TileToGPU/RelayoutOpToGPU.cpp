//===- RelayoutOpToGPU.cpp - broadcast, reshape, permute, convert_layout --===//
//
// A tile moves from the layout of its source to that of its result: not at
// all, by warp shuffles, or through shared memory (relayoutOf).
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

namespace {

/// Moves a tile between layouts through shared memory: each thread writes
/// its elements at their row-major position in the source, then reads, for
/// every element of its result fragment, the source position `sourceOf`
/// gives; or without memory, as relayoutOf says: a source that every warp
/// holds whole (the row maxima and sums of a decode step's 16 rows,
/// broadcast over their columns) moves by warp shuffles, with no barrier.
template <typename OpT> struct RelayoutLowering : public TilePattern<OpT> {
  using TilePattern<OpT>::TilePattern;
  using OpAdaptor = typename TilePattern<OpT>::OpAdaptor;

  virtual Value sourceOf(OpBuilder &b, Location loc, OpT op,
                         Value resultPosition) const = 0;

  LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type sourceType = op.getInput().getType();
    FragmentLayout in = this->layout(sourceType);
    FragmentLayout out = this->layout(op.getType());
    Value fragment = adaptor.getInput();
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    Relayout how = relayoutOf(op);
    if (how == Relayout::Splat) {
      rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
          op, resultType, extractElement(rewriter, loc, fragment, 0));
      return success();
    }
    if (how == Relayout::InPlace) {
      rewriter.replaceOp(op, fragment);
      return success();
    }
    Type elementType = getElementTypeOrSelf(sourceType);
    if (how == Relayout::Shuffles) {
      Value word = toScratchWord(rewriter, loc,
                                 extractElement(rewriter, loc, fragment, 0));
      Value tid = threadIdOf(rewriter, loc);
      Value width = arith::ConstantIntOp::create(rewriter, loc, 32, 32);
      SmallVector<Value> elements;
      for (int64_t i = 0; i < out.fragmentSize(); ++i) {
        Value source =
            sourceOf(rewriter, loc, op, out.linearIndex(rewriter, loc, tid, i));
        Value lane = arith::IndexCastUIOp::create(
            rewriter, loc, rewriter.getI32Type(), source);
        Value moved = gpu::ShuffleOp::create(rewriter, loc, word, lane, width,
                                             gpu::ShuffleMode::IDX)
                          .getShuffleResult();
        elements.push_back(fromScratchWord(rewriter, loc, moved, elementType));
      }
      rewriter.replaceOp(op, fromElements(rewriter, loc, elements));
      return success();
    }

    Value scratch = scratchOf(op);
    gpu::BarrierOp::create(rewriter, loc);
    storeToScratch(rewriter, loc, fragment, in, scratch);
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, loadFromScratch(rewriter, loc, out, elementType,
                                           scratch, [&](Value position) {
                                             return sourceOf(rewriter, loc, op,
                                                             position);
                                           }));
    return success();
  }
};

struct ReshapeLowering : public RelayoutLowering<tile::ReshapeOp> {
  using RelayoutLowering::RelayoutLowering;
  Value sourceOf(OpBuilder &, Location, tile::ReshapeOp,
                 Value position) const override {
    return position;
  }
};

/// The same tile in another layout: each element goes where it is.
struct ConvertLayoutLowering : public RelayoutLowering<tile::ConvertLayoutOp> {
  using RelayoutLowering::RelayoutLowering;
  Value sourceOf(OpBuilder &, Location, tile::ConvertLayoutOp,
                 Value position) const override {
    return position;
  }
};

struct BroadcastLowering : public RelayoutLowering<tile::BroadcastOp> {
  using RelayoutLowering::RelayoutLowering;
  Value sourceOf(OpBuilder &b, Location loc, tile::BroadcastOp op,
                 Value position) const override {
    ArrayRef<int64_t> source = op.getInput().getType().getShape();
    SmallVector<Value> coords =
        delinearize(b, loc, position, op.getType().getShape());
    for (auto [coord, size] : llvm::zip(coords, source))
      if (size == 1)
        coord = indexConstant(b, loc, 0);
    return linearize(b, loc, coords, source);
  }
};

struct PermuteLowering : public RelayoutLowering<tile::PermuteOp> {
  using RelayoutLowering::RelayoutLowering;
  Value sourceOf(OpBuilder &b, Location loc, tile::PermuteOp op,
                 Value position) const override {
    SmallVector<Value> coords =
        delinearize(b, loc, position, op.getType().getShape());
    SmallVector<Value> sourceCoords(coords.size());
    for (auto [i, p] : llvm::enumerate(op.getPermutation()))
      sourceCoords[p] = coords[i];
    return linearize(b, loc, sourceCoords, op.getInput().getType().getShape());
  }
};

} // namespace

void tileopt::populateRelayoutOpToGPUPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns,
                                              int64_t numThreads) {
  patterns.add<ReshapeLowering, ConvertLayoutLowering, BroadcastLowering,
               PermuteLowering>(converter, patterns.getContext(), numThreads);
}
