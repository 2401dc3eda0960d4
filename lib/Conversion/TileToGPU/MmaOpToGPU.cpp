//===- MmaOpToGPU.cpp - tile.mma on operands in registers -----------------===//
//
// A tile.mma whose operands are fragments in registers stages them in shared
// memory and multiplies them from there, on mma.sync (MmaSync.cpp) or wgmma
// (Wgmma.cpp), whichever its accumulator's layout says. Also how operands are
// laid out in shared memory, which the staged loops share (Mma.h).
//
//===----------------------------------------------------------------------===//
#include "Mma.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

//===----------------------------------------------------------------------===//
// Staged operands
//===----------------------------------------------------------------------===//

Value StagedOperand::offset(OpBuilder &b, Location loc, Value row,
                            Value col) const {
  if (layout == StagingLayout::padded)
    return addIndex(b, loc, mulIndex(b, loc, row, rowStride()), col);
  auto constant = [&](int64_t v) { return indexConstant(b, loc, v); };
  if (layout == StagingLayout::panels && cols > kPanel) {
    Value panel = arith::DivUIOp::create(b, loc, col, constant(kPanel));
    Value inPanel = arith::RemUIOp::create(b, loc, col, constant(kPanel));
    return addIndex(b, loc, mulIndex(b, loc, panel, rows * kPanel),
                    swizzledOffset(b, loc, row, inPanel, kPanel));
  }
  return swizzledOffset(b, loc, row, col, cols);
}

Value StagedOperand::swizzledOffset(OpBuilder &b, Location loc, Value row,
                                    Value col, int64_t width) {
  auto constant = [&](int64_t v) { return indexConstant(b, loc, v); };
  int64_t chunks = width / kChunk;
  Value chunk = addIndex(b, loc, mulIndex(b, loc, row, chunks),
                         arith::DivUIOp::create(b, loc, col, constant(kChunk)));
  Value line =
      chunks >= 8
          ? row
          : Value(arith::DivUIOp::create(b, loc, row, constant(8 / chunks)));
  Value key = arith::RemUIOp::create(b, loc, line, constant(8));
  Value moved = arith::XOrIOp::create(b, loc, chunk, key);
  return addIndex(b, loc, mulIndex(b, loc, moved, kChunk),
                  arith::RemUIOp::create(b, loc, col, constant(kChunk)));
}

StagingLayout tiletogpu::registerStagingLayout(tile::MmaOp mma,
                                               RankedTensorType operand) {
  if (isWgmma(mma))
    return StagingLayout::panels;
  int64_t rowBytes =
      operand.getDimSize(1) * operand.getElementTypeBitWidth() / 8;
  return rowBytes < target::kSm90.sharedMemoryLineBytes()
             ? StagingLayout::swizzled
             : StagingLayout::padded;
}

int64_t tiletogpu::stagingElements(tile::MmaOp mma) {
  RankedTensorType lhs = mma.getLhs().getType(), rhs = mma.getRhs().getType();
  return StagedOperand(lhs, registerStagingLayout(mma, lhs)).numElements() +
         StagedOperand(rhs, registerStagingLayout(mma, rhs)).numElements();
}

//===----------------------------------------------------------------------===//
// Multiplying
//===----------------------------------------------------------------------===//

SmallVector<Value> tiletogpu::fragmentElements(OpBuilder &b, Location loc,
                                               Value fragment) {
  SmallVector<Value> elements;
  for (int64_t i = 0, e = cast<VectorType>(fragment.getType()).getNumElements();
       i < e; ++i)
    elements.push_back(extractElement(b, loc, fragment, i));
  return elements;
}

void tiletogpu::multiplyStaged(OpBuilder &b, Location loc, tile::MmaOp mma,
                               Value staging, const StagedOperand &lhs,
                               Value lhsBase, const StagedOperand &rhs,
                               Value rhsBase, int64_t numThreads,
                               MutableArrayRef<Value> acc,
                               int64_t pendingWgmmaGroups) {
  if (isWgmma(mma))
    return multiplyStagedWgmma(b, loc, staging, lhs, lhsBase, rhs, rhsBase,
                               numThreads, acc, pendingWgmmaGroups);
  FragmentLayout accumulator = layoutOf(mma.getAcc().getType());
  multiplyStagedMmaSync(b, loc, staging, lhs, lhsBase, rhs, rhsBase,
                        mma.getRhsTransposed(), accumulator.warpsM,
                        accumulator.warpsN, acc);
}

//===----------------------------------------------------------------------===//
// The pattern
//===----------------------------------------------------------------------===//

namespace {

/// Calls `fn` on each chunk of the current thread's fragment of a `type`
/// tile (blocked layout, `numThreads` threads) that is staged as `staged`
/// at element `base`: its first element in the fragment, its width, and its
/// element offset in the staging buffer.
void forEachStagedChunk(
    OpBuilder &b, Location loc, RankedTensorType type, int64_t numThreads,
    const StagedOperand &staged, Value base,
    function_ref<void(int64_t first, int64_t width, Value at)> fn) {
  FragmentLayout in = layoutOf(type);
  Value tid = threadIdOf(b, loc);
  for (int64_t first = 0; first < in.fragmentSize(); first += in.vectorWidth) {
    SmallVector<Value> coords = delinearize(
        b, loc, in.linearIndex(b, loc, tid, first), type.getShape());
    fn(first, in.vectorWidth,
       addIndex(b, loc, base, staged.offset(b, loc, coords[0], coords[1])));
  }
}

/// tile.mma on tensor cores, with operands in registers: both are staged in
/// shared memory (padded or swizzled rows, or panels for wgmma:
/// registerStagingLayout) between two barriers and multiplied from there
/// (multiplyStaged). The left operand is not staged again when the mma
/// before it left it there (tile.lhs_staged).
struct MmaLowering : public TilePattern<tile::MmaOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType lhsType = op.getLhs().getType(),
                     rhsType = op.getRhs().getType();
    StagedOperand lhs(lhsType, registerStagingLayout(op, lhsType)),
        rhs(rhsType, registerStagingLayout(op, rhsType));
    Value staging = workgroupBuffer(op, lhsType.getElementType());

    gpu::BarrierOp::create(rewriter, loc);
    auto stage = [&](Value fragment, RankedTensorType type,
                     const StagedOperand &staged, int64_t base) {
      forEachStagedChunk(rewriter, loc, type, numThreads, staged,
                         indexConstant(rewriter, loc, base),
                         [&](int64_t first, int64_t width, Value at) {
                           vector::StoreOp::create(rewriter, loc,
                                                   extractSlice(rewriter, loc,
                                                                fragment, first,
                                                                width),
                                                   staging, ValueRange{at});
                         });
    };
    if (!op->hasAttr(tile::TileDialect::LhsStagedAttrHelper::getNameStr()))
      stage(adaptor.getLhs(), lhsType, lhs, 0);
    stage(adaptor.getRhs(), rhsType, rhs, lhs.numElements());
    fenceForWgmma(rewriter, loc, op);
    gpu::BarrierOp::create(rewriter, loc);

    SmallVector<Value> acc = fragmentElements(rewriter, loc, adaptor.getAcc());
    multiplyStaged(
        rewriter, loc, op, staging, lhs, indexConstant(rewriter, loc, 0), rhs,
        indexConstant(rewriter, loc, lhs.numElements()), numThreads, acc);
    rewriter.replaceOp(op, fromElements(rewriter, loc, acc));
    return success();
  }
};

} // namespace

void tileopt::populateMmaOpToGPUPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         int64_t numThreads) {
  patterns.add<MmaLowering>(converter, patterns.getContext(), numThreads);
}
