//===- BlockedLayout.h - How a tile is spread over a block's threads -*- C++ -*-===//
//
// Every tile value in a lowered kernel has one layout, derived from its shape
// and the number of threads alone (not its element type, so conversions
// between element types need no data movement, and not its producer, so no
// layout propagation is needed):
//
//   the tile is read in row-major order in chunks of `vectorWidth`
//   contiguous elements; chunk c belongs to thread c % numThreads, which holds
//   it as its chunk number c / numThreads.
//
// A thread's fragment is a vector<chunksPerThread * vectorWidth x T>. Chunks
// are contiguous in memory, so loads and stores are coalesced and vectorized
// (8 elements: 16 bytes of bf16). Tiles with fewer elements than threads are
// replicated: thread t holds element t % numElements.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_CONVERSION_TILETOGPU_BLOCKEDLAYOUT_H
#define TILEOPT_CONVERSION_TILETOGPU_BLOCKEDLAYOUT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tileopt {

struct BlockedLayout {
  /// The largest chunk: 8 elements are 16 bytes of a 16-bit type.
  static constexpr int64_t kMaxVectorWidth = 8;

  static BlockedLayout get(ArrayRef<int64_t> shape, int64_t numThreads);

  int64_t fragmentSize() const { return chunksPerThread * vectorWidth; }

  /// Row-major position in the tile of element `i` of the fragment of thread
  /// `threadId` (an index value).
  Value linearIndex(OpBuilder &b, Location loc, Value threadId,
                    int64_t i) const;

  /// The fragment as a vector<fragmentSize x elementType>.
  VectorType fragmentType(Type elementType) const {
    return VectorType::get({fragmentSize()}, elementType);
  }

  bool operator==(const BlockedLayout &other) const {
    return numElements == other.numElements &&
           numThreads == other.numThreads &&
           vectorWidth == other.vectorWidth &&
           chunksPerThread == other.chunksPerThread &&
           replicated == other.replicated;
  }

  SmallVector<int64_t> shape;
  int64_t numElements = 1;
  int64_t numThreads = 1;
  int64_t vectorWidth = 1;
  int64_t chunksPerThread = 1;
  bool replicated = false;
};

} // namespace mlir::tileopt

#endif // TILEOPT_CONVERSION_TILETOGPU_BLOCKEDLAYOUT_H
