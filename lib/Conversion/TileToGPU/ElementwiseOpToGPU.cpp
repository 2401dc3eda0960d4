//===- ElementwiseOpToGPU.cpp - Ops each thread computes alone ------------===//
//
// arith and math ops on tiles, tile.splat and tile.iota: every tile of one
// shape has one layout, so each thread computes the elements of its own
// fragment and nothing moves between threads. tile.block_id and
// tile.num_blocks are the block's coordinates and the grid's size.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

namespace {

/// tile.block_id and tile.num_blocks: the gpu op that reads the same dim.
template <typename TileOp, typename GpuOp>
struct GridDimLowering : public TilePattern<TileOp> {
  using TilePattern<TileOp>::TilePattern;
  LogicalResult
  matchAndRewrite(TileOp op, typename TilePattern<TileOp>::OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<GpuOp>(
        op, static_cast<gpu::Dimension>(op.getDim()));
    return success();
  }
};
using BlockIdLowering = GridDimLowering<tile::BlockIdOp, gpu::BlockIdOp>;
using NumBlocksLowering = GridDimLowering<tile::NumBlocksOp, gpu::GridDimOp>;

/// arith and math ops on tiles: the same op on the fragments, which share
/// one layout because the operands share one shape.
struct ElementwiseLowering : public ConversionPattern {
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      return rewriter.notifyMatchFailure(op, "not an arith or math op");
    SmallVector<Type> resultTypes;
    if (failed(typeConverter->convertTypes(op->getResultTypes(), resultTypes)))
      return rewriter.notifyMatchFailure(op, "result types do not convert");
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto splat = cast<SplatElementsAttr>(constant.getValue());
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, SplatElementsAttr::get(cast<ShapedType>(resultTypes.front()),
                                     splat.getSplatValue<Attribute>()));
      return success();
    }
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct SplatLowering : public TilePattern<tile::SplatOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getInput());
    return success();
  }
};

struct IotaLowering : public TilePattern<tile::IotaOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(tile::IotaOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentLayout out = layout(op.getType());
    Type elementType = op.getType().getElementType();
    Value tid = threadIdOf(rewriter, loc);
    SmallVector<Value> elements;
    for (int64_t i = 0; i < out.fragmentSize(); ++i)
      elements.push_back(arith::IndexCastOp::create(
          rewriter, loc, elementType, out.linearIndex(rewriter, loc, tid, i)));
    rewriter.replaceOp(op, fromElements(rewriter, loc, elements));
    return success();
  }
};

} // namespace

void tileopt::populateElementwiseOpToGPUPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 int64_t numThreads) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseLowering>(converter, ctx);
  patterns.add<BlockIdLowering, NumBlocksLowering, SplatLowering, IotaLowering>(
      converter, ctx, numThreads);
}
