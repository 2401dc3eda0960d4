//===- MmaOpToGPU.cpp - tile.mma on operands in registers -----------------===//
//
// A tile.mma whose operands are fragments in registers stages them in shared
// memory and multiplies them from there, on mma.sync (MmaSync.cpp) or wgmma
// (Wgmma.cpp), whichever its accumulator's layout says; one of f32 operands,
// on the CUDA cores. Also how operands are laid out in shared memory, which
// the staged loops share (Mma.h).
//
//===----------------------------------------------------------------------===//
#include "Mma.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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
    if (!op.runsOnTensorCores())
      return rewriter.notifyMatchFailure(op, "runs on the CUDA cores");
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

/// tile.mma of f32 operands, on the CUDA cores: both operands are written
/// to the f32 scratch by row-major position (lhs, then rhs) between two
/// barriers, and each thread adds to each element it holds of the
/// accumulator the dot product of its row of lhs and its column of rhs, in
/// fp32 fused multiply-adds along K (all of its elements at once, one K step
/// an iteration).
struct CudaCoreMmaLowering : public TilePattern<tile::MmaOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.runsOnTensorCores())
      return rewriter.notifyMatchFailure(op, "runs on the tensor cores");
    Location loc = op.getLoc();
    RankedTensorType lhsType = op.getLhs().getType(),
                     rhsType = op.getRhs().getType(),
                     accType = op.getAcc().getType();
    int64_t m = accType.getDimSize(0), n = accType.getDimSize(1),
            k = lhsType.getDimSize(1);
    Value scratch = scratchOf(op);
    int64_t rhsWords = lhsType.getNumElements();
    Value rhsBase = indexConstant(rewriter, loc, rhsWords);

    gpu::BarrierOp::create(rewriter, loc);
    storeToScratch(rewriter, loc, adaptor.getLhs(), layout(lhsType), scratch);
    storeToScratch(rewriter, loc, adaptor.getRhs(), layout(rhsType), scratch,
                   rhsWords);
    gpu::BarrierOp::create(rewriter, loc);

    // Where each element's row of lhs and column of rhs start, and how far
    // apart their K steps are.
    FragmentLayout out = layout(accType);
    Value tid = threadIdOf(rewriter, loc);
    SmallVector<Value> rowStarts, colStarts;
    for (int64_t i = 0; i < out.fragmentSize(); ++i) {
      SmallVector<Value> coords = delinearize(
          rewriter, loc, out.linearIndex(rewriter, loc, tid, i), {m, n});
      rowStarts.push_back(mulIndex(rewriter, loc, coords[0], k));
      colStarts.push_back(addIndex(rewriter, loc, rhsBase,
                                   op.getRhsTransposed()
                                       ? mulIndex(rewriter, loc, coords[1], k)
                                       : coords[1]));
    }
    int64_t rhsStep = op.getRhsTransposed() ? 1 : n;

    auto loop = scf::ForOp::create(
        rewriter, loc, indexConstant(rewriter, loc, 0),
        indexConstant(rewriter, loc, k), indexConstant(rewriter, loc, 1),
        fragmentElements(rewriter, loc, adaptor.getAcc()),
        [&](OpBuilder &b, Location loc, Value step, ValueRange sums) {
          Value rhsOffset = mulIndex(b, loc, step, rhsStep);
          SmallVector<Value> next;
          for (auto [sum, row, col] : llvm::zip(sums, rowStarts, colStarts)) {
            Value a = memref::LoadOp::create(b, loc, scratch,
                                             addIndex(b, loc, row, step));
            Value x = memref::LoadOp::create(b, loc, scratch,
                                             addIndex(b, loc, col, rhsOffset));
            next.push_back(math::FmaOp::create(b, loc, a, x, sum));
          }
          scf::YieldOp::create(b, loc, next);
        });
    rewriter.replaceOp(
        op, fromElements(rewriter, loc, SmallVector<Value>(loop.getResults())));
    return success();
  }
};

} // namespace

void tileopt::populateMmaOpToGPUPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         int64_t numThreads) {
  patterns.add<MmaLowering, CudaCoreMmaLowering>(
      converter, patterns.getContext(), numThreads);
}
