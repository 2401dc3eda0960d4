//===- Utility.h - What the tile-to-GPU patterns share ----------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU: the IR building blocks of the
// patterns, the layout of a tile during the conversion, the shared-memory
// scratch buffer and how each op uses it, and the combining of reductions
// and scans.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_CONVERSION_TILETOGPU_UTILITY_H
#define TILEOPT_LIB_CONVERSION_TILETOGPU_UTILITY_H

#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "TileOpt/Target/FragmentLayout.h"
#include "TileOpt/Target/Target.h"
#include "TileOpt/Transforms/MmaStaging.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tileopt::tiletogpu {

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

Value indexConstant(OpBuilder &b, Location loc, int64_t v);
Value i64Constant(OpBuilder &b, Location loc, int64_t v);
Value addIndex(OpBuilder &b, Location loc, Value x, Value y);
Value mulIndex(OpBuilder &b, Location loc, Value x, int64_t y);
Value threadIdOf(OpBuilder &b, Location loc);

/// Splits row-major position `linear` into coordinates of `shape`.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<int64_t> shape);

/// Row-major position of `coords` in `shape`.
Value linearize(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                ArrayRef<int64_t> shape);

/// Element `i` of a 1-D vector.
Value extractElement(OpBuilder &b, Location loc, Value vec, int64_t i);

/// Elements [start, start + size) of a 1-D vector.
Value extractSlice(OpBuilder &b, Location loc, Value vec, int64_t start,
                   int64_t size);

/// The concatenation of 1-D vectors of one type (a power-of-two count).
Value concat(OpBuilder &b, Location loc, SmallVector<Value> parts);

/// A 1-D vector of `elements` (scalars of one type).
Value fromElements(OpBuilder &b, Location loc, ArrayRef<Value> elements);

/// Runs what `body` builds in the first thread of the block alone.
void inFirstThread(OpBuilder &b, Location loc, function_ref<void()> body);

//===----------------------------------------------------------------------===//
// Markers within the pass
//===----------------------------------------------------------------------===//
//
// What outlining leaves on tile ops for the patterns. They are set and
// consumed within tileopt-lower-tile and never appear in IR that users see,
// so no dialect declares them (the artifact's attributes, which do leave the
// pass, are the tileopt dialect's; the layouts and the decisions of
// tileopt-assign-layouts, which come into it, are the tile dialect's).

/// Marks a tile.load copied by TMA with the index of the kernel parameter
/// that holds its tensor map (outlineTileKernels, read by copyStageByTma).
constexpr StringLiteral kTensorMapParam = "tileopt.tensor_map_param";

/// Attributes of a tile.reduce_across_blocks that outlining sets for its
/// lowering: the device-memory array its blocks exchange their tiles in,
/// the kernel's grid barrier, and the grid the kernel is launched on.
constexpr StringLiteral kPartialsAttr = "tileopt.partials";
constexpr StringLiteral kGridBarrierAttr = "tileopt.grid_barrier";
constexpr StringLiteral kLaunchGridAttr = "tileopt.launch_grid";

//===----------------------------------------------------------------------===//
// Layouts during the conversion
//===----------------------------------------------------------------------===//

/// How a tile is spread over the threads: its layout (the encoding of its
/// type, which tileopt-assign-layouts gives every tile) as a FragmentLayout.
FragmentLayout layoutOf(Type type);

/// Whether `mma` accumulates in the wgmma layout (#tile.wgmma), and so runs
/// on wgmma; else on mma.sync (#tile.mma_sync).
bool isWgmma(tile::MmaOp mma);

/// The patterns of one tile op, which know the block's thread count.
template <typename OpT> struct TilePattern : public OpConversionPattern<OpT> {
  TilePattern(const TypeConverter &converter, MLIRContext *ctx,
              int64_t numThreads, PatternBenefit benefit = 1)
      : OpConversionPattern<OpT>(converter, ctx, benefit),
        numThreads(numThreads) {}

  FragmentLayout layout(Type type) const { return layoutOf(type); }

  int64_t numThreads;
};

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

/// Static shared memory a kernel may use without opting in; beyond it, up
/// to kMaxSharedBytesPerBlock (MmaStaging.h), the kernel opts in to dynamic
/// shared memory.
constexpr int64_t kMaxStaticSharedBytes =
    target::kSm90.staticSharedMemoryPerBlock;

/// Whether shared memory (f32 words) can hold elements of `type`.
bool fitsScratchWord(Type type);

/// A scalar of `type` as the f32 word it is kept in shared memory, and back;
/// lossless for every type fitsScratchWord accepts.
Value toScratchWord(OpBuilder &b, Location loc, Value v);
Value fromScratchWord(OpBuilder &b, Location loc, Value word, Type type);

/// What blocks exchange an element of `type` as, and combine it in
/// (tile.reduce_across_blocks): f32 for floats, i32 itself.
Type exchangeWordType(Type type);

/// How a tile.broadcast, reshape, permute or convert_layout moves its
/// elements.
enum class Relayout {
  /// A one-element source: every thread holds it.
  Splat,
  /// A reshape between equal layouts moves nothing.
  InPlace,
  /// Every warp holds the whole source (a replicated tile of at most 32
  /// elements, lane l holding element l mod n): each element comes from
  /// the lane that holds it.
  Shuffles,
  /// Written to shared memory by source position, read by result position.
  Scratch,
};

Relayout relayoutOf(Operation *op);

/// The warps that hold parts of one row of a tile.reduce's input `in`,
/// each writing a scratch word for it (ReduceLowering): those side by side
/// along N of an mma accumulator, or those the row's chunks are dealt to
/// (of a replicated tile, only its first numElements threads count).
int64_t reduceWarpsPerRow(const FragmentLayout &in, int64_t numThreads);

/// The f32 words of scratch `op` needs, 0 if none.
int64_t scratchWords(Operation *op, int64_t numThreads);

/// The enclosing kernel's workgroup buffer of `elementType` elements: the
/// f32 scratch, or the f16/bf16 mma staging buffer (dynamic shared memory
/// when it is too large for static shared memory).
Value workgroupBuffer(Operation *op, Type elementType);

/// The f32 scratch buffer of the kernel around `op`.
Value scratchOf(Operation *op);

/// Writes each element of `fragment` (laid out as `layout`) as an f32 word
/// at `offset` plus its row-major position in `scratch`; of a replicated
/// tile, only the first numElements threads write.
void storeToScratch(OpBuilder &b, Location loc, Value fragment,
                    const FragmentLayout &layout, Value scratch,
                    int64_t offset = 0);

/// The fragment of a tile laid out as `layout` whose element at each
/// row-major position p is the word at `sourceOf(p)` in `scratch`.
Value loadFromScratch(OpBuilder &b, Location loc, const FragmentLayout &layout,
                      Type elementType, Value scratch,
                      function_ref<Value(Value)> sourceOf);

/// The address of element `offset` of the shared memory at `base` (a
/// pointer into address space 3 to elements of `elementType`).
Value sharedAddress(OpBuilder &b, Location loc, Value base, Type elementType,
                    Value offset);

/// A pointer into shared memory (address space 3) to the start of the
/// workgroup buffer `buffer`, for the NVVM ops that take one.
Value sharedPointer(OpBuilder &b, Location loc, Value buffer);

//===----------------------------------------------------------------------===//
// Combining (reductions and scans)
//===----------------------------------------------------------------------===//

/// `v` (a scalar or a vector) as `type`, of the same shape and kind with a
/// wider or narrower element: into and out of the accumulator type of
/// reductions and scans. Integers are signed.
Value convertAccumulator(OpBuilder &b, Location loc, Value v, Type type);

/// Combines two scalars (or vectors) of the accumulation type.
Value combine(OpBuilder &b, Location loc, tile::CombineKind kind, Value lhs,
              Value rhs);

/// The neutral element of `kind` for scalars of `type`.
Value identityOf(OpBuilder &b, Location loc, tile::CombineKind kind, Type type);

} // namespace mlir::tileopt::tiletogpu

#endif // TILEOPT_LIB_CONVERSION_TILETOGPU_UTILITY_H
