//===- ReduceOpToGPU.cpp - tile.reduce over the last dim ------------------===//
//
// In the thread, across the lanes of a warp that share a row, then across
// warps through shared memory; an mma.sync accumulator is reduced where it
// lies.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;
using tile::CombineKind;

namespace {

vector::CombiningKind vectorKind(CombineKind kind, bool isFloat) {
  switch (kind) {
  case CombineKind::sum:
    return vector::CombiningKind::ADD;
  case CombineKind::prod:
    return vector::CombiningKind::MUL;
  case CombineKind::max:
    return isFloat ? vector::CombiningKind::MAXIMUMF
                   : vector::CombiningKind::MAXSI;
  case CombineKind::min:
    return isFloat ? vector::CombiningKind::MINIMUMF
                   : vector::CombiningKind::MINSI;
  }
  llvm_unreachable("unknown combine kind");
}

/// tile.reduce over the last dim: per-thread, then across the lanes that
/// share a row (butterfly shuffles), then across warps through shared
/// memory, from where every thread reads the rows its result fragment holds.
/// A replicated input (fewer elements than threads, thread t holding element
/// t mod N) is reduced by its first N threads, an element each: its rows
/// are whole powers of two of consecutive threads, and the copies in the
/// other threads shuffle among themselves and write nothing. An mma.sync
/// accumulator is reduced where it lies: each thread holds two rows of
/// every m16n8 tile, the four lanes of a quad share them, and the warps
/// side by side along N each write a word per row.
struct ReduceLowering : public TilePattern<tile::ReduceOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentLayout in = layout(op.getInput().getType());
    CombineKind kind = op.getKind();
    Type elementType = op.getType().getElementType();
    bool isFloat = isa<FloatType>(elementType);
    // Accumulate in 32 bits: f16/bf16 sums lose too much otherwise.
    Type accType =
        isFloat ? Type(rewriter.getF32Type()) : Type(rewriter.getI32Type());
    Value tid = threadIdOf(rewriter, loc);
    Value scratch = scratchOf(op);
    auto index = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
    auto accumulate = [&](Value acc, Value v) {
      return acc ? combine(rewriter, loc, kind, acc, v) : v;
    };
    // Combines `partial` over the lanes `offset`s apart, down to 1.
    auto shuffleDown = [&](Value partial, int64_t offset) {
      for (; offset >= 1; offset /= 2) {
        Value other =
            gpu::ShuffleOp::create(rewriter, loc, partial, offset,
                                   /*width=*/32, gpu::ShuffleMode::XOR)
                .getShuffleResult();
        partial = combine(rewriter, loc, kind, partial, other);
      }
      return partial;
    };
    // The thread's elements [first, first + width) of the input, reduced.
    auto reduceSlice = [&](int64_t first, int64_t width) -> Value {
      Value slice = convertAccumulator(
          rewriter, loc,
          extractSlice(rewriter, loc, adaptor.getInput(), first, width),
          VectorType::get({width}, accType));
      return vector::ReductionOp::create(rewriter, loc,
                                         vectorKind(kind, isFloat), slice);
    };
    // Writes `partial` where `isWriter`, as the word of warp `warpInRow` of
    // the warps that share `row`.
    int64_t warpsPerRow = reduceWarpsPerRow(in, numThreads);
    auto writeRow = [&](Value partial, Value row, Value warpInRow,
                        Value isWriter) {
      Value word = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, row, index(warpsPerRow)),
          warpInRow);
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, isWriter,
                                    /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      memref::StoreOp::create(rewriter, loc,
                              toScratchWord(rewriter, loc, partial), scratch,
                              ValueRange{word});
    };

    gpu::BarrierOp::create(rewriter, loc);
    if (in.kind == FragmentLayout::Kind::Mma) {
      int64_t warpsM = in.warpsM, warpsN = in.warpsN;
      int64_t rowsPerWarp = in.shape[0] / warpsM;
      int64_t tilesN = in.shape[1] / warpsN / 8;
      Value warp = arith::DivUIOp::create(rewriter, loc, tid, index(32));
      Value lane = arith::RemUIOp::create(rewriter, loc, tid, index(32));
      Value firstRow = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(
              rewriter, loc,
              arith::DivUIOp::create(rewriter, loc, warp, index(warpsN)),
              index(rowsPerWarp)),
          arith::DivUIOp::create(rewriter, loc, lane, index(4)));
      Value warpInRow =
          arith::RemUIOp::create(rewriter, loc, warp, index(warpsN));
      Value isWriter = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(rewriter, loc, lane, index(4)), index(0));
      // Elements c0, c1 of tile t are in row lane / 4 of its m16 slice, c2,
      // c3 eight rows below; the warp's tiles are row-major, tilesN a row.
      for (int64_t tileRow = 0; tileRow < rowsPerWarp / 16; ++tileRow) {
        for (int64_t half = 0; half < 2; ++half) {
          Value partial;
          for (int64_t tileCol = 0; tileCol < tilesN; ++tileCol) {
            int64_t first = (tileRow * tilesN + tileCol) * 4 + half * 2;
            partial = accumulate(partial, reduceSlice(first, 2));
          }
          partial = shuffleDown(partial, 2);
          Value row = arith::AddIOp::create(rewriter, loc, firstRow,
                                            index(tileRow * 16 + half * 8));
          writeRow(partial, row, warpInRow, isWriter);
        }
      }
    } else {
      int64_t width = in.vectorWidth;
      int64_t threads = in.replicated ? in.numElements : numThreads;
      int64_t cols = in.shape.back();
      int64_t chunksPerRow = cols / width;
      int64_t slotsPerRow = std::max<int64_t>(chunksPerRow / threads, 1);
      int64_t lanes = std::min<int64_t>(chunksPerRow, 32);
      for (int64_t slot = 0; slot < in.chunksPerThread; slot += slotsPerRow) {
        // This thread's part of one row.
        Value partial;
        for (int64_t s = slot; s < slot + slotsPerRow; ++s)
          partial = accumulate(partial, reduceSlice(s * width, width));
        // ... combined over the lanes of the warp that hold the same row.
        partial = shuffleDown(partial, lanes / 2);
        // ... and written, one word per warp and row.
        Value row = chunksPerRow > threads
                        ? index(slot / slotsPerRow)
                        : Value(arith::DivUIOp::create(
                              rewriter, loc,
                              arith::AddIOp::create(rewriter, loc, tid,
                                                    index(slot * threads)),
                              index(chunksPerRow)));
        Value laneInGroup =
            arith::RemUIOp::create(rewriter, loc, tid, index(lanes));
        Value isWriter = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, laneInGroup, index(0));
        if (in.replicated)
          isWriter = arith::AndIOp::create(
              rewriter, loc, isWriter,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                    tid, index(threads)));
        Value warpInRow = arith::DivUIOp::create(
            rewriter, loc,
            arith::RemUIOp::create(rewriter, loc, tid,
                                   index(std::min(chunksPerRow, threads))),
            index(lanes));
        writeRow(partial, row, warpInRow, isWriter);
      }
    }
    gpu::BarrierOp::create(rewriter, loc);

    FragmentLayout out = layout(op.getType());
    SmallVector<Value> results;
    for (int64_t i = 0; i < out.fragmentSize(); ++i) {
      Value row = out.linearIndex(rewriter, loc, tid, i);
      Value base =
          arith::MulIOp::create(rewriter, loc, row, index(warpsPerRow));
      Value acc;
      for (int64_t w = 0; w < warpsPerRow; ++w) {
        Value at = arith::AddIOp::create(rewriter, loc, base, index(w));
        Value word = memref::LoadOp::create(rewriter, loc, scratch, at);
        acc = accumulate(acc, fromScratchWord(rewriter, loc, word, accType));
      }
      results.push_back(convertAccumulator(rewriter, loc, acc, elementType));
    }
    rewriter.replaceOp(op, fromElements(rewriter, loc, results));
    return success();
  }
};

} // namespace

void tileopt::populateReduceOpToGPUPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            int64_t numThreads) {
  patterns.add<ReduceLowering>(converter, patterns.getContext(), numThreads);
}
