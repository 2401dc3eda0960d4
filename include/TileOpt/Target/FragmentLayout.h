//===- FragmentLayout.h - A tile spread over a block's threads -*- C++ -*-===//
//
// Every tile value in a lowered kernel has a layout that says which elements
// each thread holds, as its fragment: a vector<fragmentSize x T>. Two kinds:
//
// * Blocked, derived from the shape and the thread count alone (not the
//   element type, so conversions between element types need no data
//   movement, and not the producer, so no propagation is needed): the tile is
//   read in row-major order in chunks of `vectorWidth` contiguous elements;
//   chunk c belongs to thread c % numThreads, as its chunk c / numThreads.
//   Chunks are contiguous in memory, so loads and stores are coalesced and
//   vectorized. Tiles with fewer elements than threads are replicated:
//   thread t holds element t % numElements.
//
// * MMA accumulator, for the accumulator and result of tile.mma (and what is
//   computed elementwise from them): the warps tile the matrix warpsM x
//   warpsN (2x2 for 4 warps; 1x4 for a matrix of 16 rows); each warp holds its
//   part as m16n8 tensor-core accumulator tiles, four f32 per thread per tile
//   in the order mma.sync defines (two contiguous pairs, eight rows apart).
//
// * Warpgroup MMA accumulator, the same for wgmma (sm_90a): the warpgroups
//   (4 consecutive warps each) split the rows evenly; each warpgroup holds
//   its rows as m64nN slices, N the whole width, in the order wgmma defines:
//   warp w of the warpgroup has rows 16w..16w+15 of a slice, as N / 8 tiles
//   laid out like an mma.sync m16n8 accumulator.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_TARGET_FRAGMENTLAYOUT_H
#define TILEOPT_TARGET_FRAGMENTLAYOUT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tileopt {

struct FragmentLayout {
  /// The largest chunk: 8 elements are 16 bytes of a 16-bit type.
  static constexpr int64_t kMaxVectorWidth = 8;

  /// In chunks of the widest width up to kMaxVectorWidth that the last dim
  /// and the elements per thread allow (defaultVectorWidth).
  static FragmentLayout blocked(ArrayRef<int64_t> shape, int64_t numThreads);
  /// In chunks of `vectorWidth` elements, which divides the last dim; a
  /// shape of fewer elements than threads is replicated (width 1).
  static FragmentLayout blocked(ArrayRef<int64_t> shape, int64_t numThreads,
                                int64_t vectorWidth);
  /// The chunk width `blocked` takes for `shape` on `numThreads` threads.
  static int64_t defaultVectorWidth(ArrayRef<int64_t> shape,
                                    int64_t numThreads);

  /// Requires a 2-D shape (or one with leading unit dims, laid out as its
  /// last two) whose rows divide into 16 * warpsM and columns into
  /// 8 * warpsN; on the warp grid mmaWarpGrid picks, or on the one given.
  static FragmentLayout mmaAccumulator(ArrayRef<int64_t> shape,
                                       int64_t numThreads);
  static FragmentLayout mmaAccumulator(ArrayRef<int64_t> shape, int64_t warpsM,
                                       int64_t warpsN);

  /// Requires a 2-D shape whose rows divide into 64 * (numThreads / 128).
  static FragmentLayout wgmmaAccumulator(ArrayRef<int64_t> shape,
                                         int64_t numThreads);

  /// How mmaAccumulator arranges `numThreads / 32` warps over a matrix of
  /// `shape` (M x N): (warpsM, warpsN), as square as M allows.
  static std::pair<int64_t, int64_t> mmaWarpGrid(ArrayRef<int64_t> shape,
                                                 int64_t numThreads);

  int64_t fragmentSize() const { return chunksPerThread * vectorWidth; }

  /// Row-major position in the tile of element `i` of the fragment of thread
  /// `threadId` (an index value). Elements i .. i + vectorWidth - 1 of a
  /// chunk (i a multiple of vectorWidth) are contiguous.
  Value linearIndex(OpBuilder &b, Location loc, Value threadId,
                    int64_t i) const;

  VectorType fragmentType(Type elementType) const {
    return VectorType::get({fragmentSize()}, elementType);
  }

  /// Whether both put every row-major position in the same place. A
  /// blocked layout depends on the shape only through the element count and
  /// the chunk width, so a reshape between equal layouts moves nothing.
  bool operator==(const FragmentLayout &other) const {
    return kind == other.kind &&
           (kind == Kind::Blocked || shape == other.shape) &&
           numThreads == other.numThreads && vectorWidth == other.vectorWidth &&
           chunksPerThread == other.chunksPerThread &&
           replicated == other.replicated && warpsM == other.warpsM &&
           warpsN == other.warpsN;
  }

  SmallVector<int64_t> shape;
  int64_t numElements = 1;
  int64_t numThreads = 1;
  int64_t vectorWidth = 1;
  int64_t chunksPerThread = 1;
  bool replicated = false;
  /// The warp grid of an mma.sync accumulator (rows x columns of warps).
  int64_t warpsM = 1, warpsN = 1;
  enum class Kind { Blocked, Mma, Wgmma };
  Kind kind = Kind::Blocked;
};

} // namespace mlir::tileopt

#endif // TILEOPT_TARGET_FRAGMENTLAYOUT_H
