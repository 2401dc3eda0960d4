//===- ScanOpToGPU.cpp - tile.scan over the last dim ----------------------===//
//
// A scan inside each chunk, then a per-row Hillis-Steele scan of the chunk
// totals in shared memory.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;
using tile::CombineKind;

namespace {

/// tile.scan over the last dim: an inclusive scan inside each chunk, then a
/// segmented (per row) Hillis-Steele scan of the chunk totals in shared
/// memory, log2(chunks per row) steps, from which each chunk takes the
/// combination of the chunks before it (after it, with `reverse`).
struct ScanLowering : public TilePattern<tile::ScanOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentLayout in = layout(op.getType());
    CombineKind kind = op.getKind();
    bool reverse = op.getReverse();
    Type elementType = op.getType().getElementType();
    bool isFloat = isa<FloatType>(elementType);
    Type accType =
        isFloat ? Type(rewriter.getF32Type()) : Type(rewriter.getI32Type());
    int64_t width = in.vectorWidth;
    int64_t chunksPerRow = in.shape.back() / width;
    Value tid = threadIdOf(rewriter, loc);
    Value scratch = scratchOf(op);
    Value identity = identityOf(rewriter, loc, kind, accType);
    auto constant = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
    // In scan order, `earlier` comes before `later`.
    auto combineInOrder = [&](Value earlier, Value later) {
      return reverse ? combine(rewriter, loc, kind, later, earlier)
                     : combine(rewriter, loc, kind, earlier, later);
    };
    auto widen = [&](Value v) {
      return convertAccumulator(rewriter, loc, v, accType);
    };

    // Inclusive scans inside the chunks.
    SmallVector<SmallVector<Value>> scanned(in.chunksPerThread);
    SmallVector<Value> chunkIds, totals;
    for (int64_t j = 0; j < in.chunksPerThread; ++j) {
      SmallVector<Value> elements;
      for (int64_t i = 0; i < width; ++i)
        elements.push_back(widen(
            extractElement(rewriter, loc, adaptor.getInput(), j * width + i)));
      scanned[j].resize(width);
      Value running;
      for (int64_t step = 0; step < width; ++step) {
        int64_t i = reverse ? width - 1 - step : step;
        running = running ? combineInOrder(running, elements[i]) : elements[i];
        scanned[j][i] = running;
      }
      totals.push_back(running);
      chunkIds.push_back(
          arith::AddIOp::create(rewriter, loc, tid, constant(j * numThreads)));
    }

    // Segmented scan of the chunk totals.
    gpu::BarrierOp::create(rewriter, loc);
    for (auto [id, total] : llvm::zip(chunkIds, totals))
      memref::StoreOp::create(rewriter, loc,
                              toScratchWord(rewriter, loc, total), scratch, id);
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> positions;
    for (Value id : chunkIds)
      positions.push_back(
          arith::RemUIOp::create(rewriter, loc, id, constant(chunksPerRow)));
    // The chunk `distance` away in scan order, in the same row, if any.
    auto neighbour = [&](Value id, Value position,
                         int64_t distance) -> std::pair<Value, Value> {
      Value exists =
          reverse
              ? arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                      arith::AddIOp::create(rewriter, loc,
                                                            position,
                                                            constant(distance)),
                                      constant(chunksPerRow))
              : arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                      position, constant(distance));
      Value other =
          reverse ? arith::AddIOp::create(rewriter, loc, id, constant(distance))
                        .getResult()
                  : arith::SubIOp::create(rewriter, loc, id, constant(distance))
                        .getResult();
      // Read a valid address either way; the select below drops it.
      Value at = arith::SelectOp::create(rewriter, loc, exists, other, id);
      Value word = memref::LoadOp::create(rewriter, loc, scratch, at);
      return {exists, fromScratchWord(rewriter, loc, word, accType)};
    };
    for (int64_t distance = 1; distance < chunksPerRow; distance *= 2) {
      SmallVector<Value> updated;
      for (auto [id, position] : llvm::zip(chunkIds, positions)) {
        Value mine = fromScratchWord(
            rewriter, loc, memref::LoadOp::create(rewriter, loc, scratch, id),
            accType);
        auto [exists, other] = neighbour(id, position, distance);
        updated.push_back(arith::SelectOp::create(
            rewriter, loc, exists, combineInOrder(other, mine), mine));
      }
      gpu::BarrierOp::create(rewriter, loc);
      for (auto [id, value] : llvm::zip(chunkIds, updated))
        memref::StoreOp::create(
            rewriter, loc, toScratchWord(rewriter, loc, value), scratch, id);
      gpu::BarrierOp::create(rewriter, loc);
    }

    // Each element: the chunks before its chunk, then its in-chunk scan.
    SmallVector<Value> results;
    for (int64_t j = 0; j < in.chunksPerThread; ++j) {
      auto [exists, before] = neighbour(chunkIds[j], positions[j], 1);
      Value carry =
          arith::SelectOp::create(rewriter, loc, exists, before, identity);
      for (Value element : scanned[j]) {
        results.push_back(convertAccumulator(
            rewriter, loc, combineInOrder(carry, element), elementType));
      }
    }
    rewriter.replaceOp(op, fromElements(rewriter, loc, results));
    return success();
  }
};

} // namespace

void tileopt::populateScanOpToGPUPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns,
                                          int64_t numThreads) {
  patterns.add<ScanLowering>(converter, patterns.getContext(), numThreads);
}
