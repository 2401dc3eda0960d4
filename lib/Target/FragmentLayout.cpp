//===- FragmentLayout.cpp - How a tile is spread over a block's threads ---===//
#include "TileOpt/Target/FragmentLayout.h"
#include "TileOpt/Target/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tileopt;

int64_t FragmentLayout::defaultVectorWidth(ArrayRef<int64_t> shape,
                                           int64_t numThreads) {
  int64_t numElements = 1;
  for (int64_t dim : shape)
    numElements *= dim;
  if (numElements < numThreads)
    return 1;
  int64_t lastDim = shape.empty() ? 1 : shape.back();
  return std::min({kMaxVectorWidth, lastDim, numElements / numThreads});
}

FragmentLayout FragmentLayout::blocked(ArrayRef<int64_t> shape,
                                       int64_t numThreads) {
  return blocked(shape, numThreads, defaultVectorWidth(shape, numThreads));
}

FragmentLayout FragmentLayout::blocked(ArrayRef<int64_t> shape,
                                       int64_t numThreads,
                                       int64_t vectorWidth) {
  FragmentLayout layout;
  layout.shape.assign(shape.begin(), shape.end());
  layout.numThreads = numThreads;
  for (int64_t dim : shape)
    layout.numElements *= dim;
  if (layout.numElements < numThreads) {
    layout.replicated = true;
    return layout;
  }
  layout.vectorWidth = vectorWidth;
  layout.chunksPerThread =
      layout.numElements / (numThreads * layout.vectorWidth);
  return layout;
}

std::pair<int64_t, int64_t> FragmentLayout::mmaWarpGrid(ArrayRef<int64_t> shape,
                                                        int64_t numThreads) {
  int64_t warps = numThreads / 32;
  int64_t warpsM = int64_t{1} << (llvm::Log2_64(warps) / 2);
  // A warp's part has at least the 16 rows of one m16n8 tile: a matrix of
  // fewer rows than the square grid needs (a decode step's 16 query rows)
  // puts more warps along N.
  while (warpsM > 1 && shape[0] % (target::kMmaSyncM * warpsM) != 0)
    warpsM /= 2;
  return {warpsM, warps / warpsM};
}

/// Both accumulators hold m16n8 tiles, two pairs of contiguous f32 a tile
/// in each thread; only where the tiles are differs (linearIndex). A tile
/// with leading unit dims is laid out as its matrix (the last two dims):
/// its row-major positions are the matrix's.
static FragmentLayout accumulator(ArrayRef<int64_t> shape, int64_t numThreads,
                                  FragmentLayout::Kind kind) {
  assert(shape.size() >= 2 &&
         llvm::all_of(shape.drop_back(2), [](int64_t d) { return d == 1; }) &&
         "an accumulator is a matrix, with leading unit dims at most");
  shape = shape.take_back(2);
  FragmentLayout layout;
  layout.kind = kind;
  layout.shape.assign(shape.begin(), shape.end());
  layout.numThreads = numThreads;
  layout.numElements = shape[0] * shape[1];
  layout.vectorWidth = 2;
  layout.chunksPerThread = layout.numElements / numThreads / 2;
  return layout;
}

FragmentLayout FragmentLayout::mmaAccumulator(ArrayRef<int64_t> shape,
                                              int64_t numThreads) {
  auto [warpsM, warpsN] = mmaWarpGrid(shape.take_back(2), numThreads);
  return mmaAccumulator(shape, warpsM, warpsN);
}

FragmentLayout FragmentLayout::mmaAccumulator(ArrayRef<int64_t> shape,
                                              int64_t warpsM, int64_t warpsN) {
  FragmentLayout layout = accumulator(shape, 32 * warpsM * warpsN, Kind::Mma);
  layout.warpsM = warpsM;
  layout.warpsN = warpsN;
  return layout;
}

FragmentLayout FragmentLayout::wgmmaAccumulator(ArrayRef<int64_t> shape,
                                                int64_t numThreads) {
  return accumulator(shape, numThreads, Kind::Wgmma);
}

Value FragmentLayout::linearIndex(OpBuilder &b, Location loc, Value threadId,
                                  int64_t i) const {
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); };
  auto mul = [&](Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, constant(y));
  };
  auto div = [&](Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, constant(y));
  };
  auto rem = [&](Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, constant(y));
  };
  if (replicated)
    return rem(threadId, numElements);
  if (kind == Kind::Blocked) {
    int64_t chunk = i / vectorWidth, offset = i % vectorWidth;
    // (chunk * numThreads + threadId) * vectorWidth + offset
    return add(mul(threadId, vectorWidth),
               constant(chunk * numThreads * vectorWidth + offset));
  }
  // Both accumulators are made of m16n8 tiles, each warp's in row-major
  // order: c0, c1 at (lane / 4, 2 * (lane % 4) + {0, 1}), c2, c3 eight rows
  // below. Only where the warps and their tiles are differs.
  Value warp = div(threadId, 32), lane = rem(threadId, 32);
  int64_t tile = i / 4, c = i % 4;
  Value inTileRow = add(div(lane, 4), constant((c / 2) * 8));
  Value inTileCol = add(mul(rem(lane, 4), 2), constant(c % 2));
  if (kind == Kind::Wgmma) {
    // Warpgroup g has rows [g * rowsPerGroup, (g + 1) * rowsPerGroup) as
    // m64 slices of N / 8 tiles; warp w of it has rows 16w..16w+15 of each.
    int64_t rowsPerGroup = shape[0] / (numThreads / 128);
    int64_t tilesPerSlice = shape[1] / 8;
    int64_t slice = tile / tilesPerSlice, tileCol = tile % tilesPerSlice;
    Value row = add(add(mul(div(warp, 4), rowsPerGroup), mul(rem(warp, 4), 16)),
                    add(inTileRow, constant(slice * 64)));
    Value col = add(inTileCol, constant(tileCol * 8));
    return add(mul(row, shape[1]), col);
  }
  int64_t rowsPerWarp = shape[0] / warpsM, colsPerWarp = shape[1] / warpsN;
  int64_t tileRow = tile / (colsPerWarp / 8), tileCol = tile % (colsPerWarp / 8);
  Value row = add(mul(div(warp, warpsN), rowsPerWarp),
                  add(inTileRow, constant(tileRow * 16)));
  Value col = add(mul(rem(warp, warpsN), colsPerWarp),
                  add(inTileCol, constant(tileCol * 8)));
  return add(mul(row, shape[1]), col);
}
