//===- BlockedLayout.cpp - How a tile is spread over a block's threads ----===//
#include "TileOpt/Conversion/TileToGPU/BlockedLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tileopt;

BlockedLayout BlockedLayout::get(ArrayRef<int64_t> shape, int64_t numThreads) {
  BlockedLayout layout;
  layout.shape.assign(shape.begin(), shape.end());
  layout.numThreads = numThreads;
  for (int64_t dim : shape)
    layout.numElements *= dim;
  if (layout.numElements < numThreads) {
    layout.replicated = true;
    return layout;
  }
  int64_t lastDim = shape.empty() ? 1 : shape.back();
  layout.vectorWidth = std::min({kMaxVectorWidth, lastDim,
                                 layout.numElements / numThreads});
  layout.chunksPerThread =
      layout.numElements / (numThreads * layout.vectorWidth);
  return layout;
}

Value BlockedLayout::linearIndex(OpBuilder &b, Location loc, Value threadId,
                                 int64_t i) const {
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  if (replicated)
    return arith::RemUIOp::create(b, loc, threadId, constant(numElements));
  int64_t chunk = i / vectorWidth, offset = i % vectorWidth;
  // (chunk * numThreads + threadId) * vectorWidth + offset
  Value scaled = arith::MulIOp::create(b, loc, threadId, constant(vectorWidth));
  return arith::AddIOp::create(
      b, loc, scaled,
      constant(chunk * numThreads * vectorWidth + offset));
}
