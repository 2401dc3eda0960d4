//===- Mma.h - tile.mma on tensor cores, from shared memory -----*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU. Every tile.mma multiplies operands
// staged in shared memory: from registers (MmaOpToGPU.cpp) or by a cp.async
// or TMA ring (StagedMmaLoop.cpp, Tma.cpp). How an operand is laid out
// there, and the multiplication itself on mma.sync (MmaSync.cpp) or wgmma
// (Wgmma.cpp), as Triton splits its dot lowering into MMAv2 and WGMMA.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_CONVERSION_TILETOGPU_MMA_H
#define TILEOPT_LIB_CONVERSION_TILETOGPU_MMA_H

#include "Utility.h"

#include <string>

namespace mlir::tileopt::tiletogpu {

//===----------------------------------------------------------------------===//
// Staged operands
//===----------------------------------------------------------------------===//

/// How an f16/bf16 mma operand tile is laid out when staged in shared
/// memory. ldmatrix reads 8 rows of 16 bytes at once, and rows a multiple of
/// 128 bytes apart would all hit the same banks. For mma.sync, either each
/// row is padded by 16 bytes, or (swizzled) the rows stay packed and the
/// tile's 16-byte chunk q (row-major, 8 to a 128-byte line) moves to
/// q ^ key, key in 0-7 taken from the row (from the line for rows shorter
/// than a line): 8 consecutive rows at one column then use 8 different bank
/// groups, and 8 consecutive chunks (a line) stay in one line. This takes
/// rows of a power of two of chunks, as mma operands have (tile dims are
/// powers of two, K at least 16 and N at least 8).
///
/// wgmma reads its operands through matrix descriptors, which know one
/// such layout: the 128-byte swizzle, where the swizzle key is taken from
/// the address, bits 7-9 (the 128-byte line) into bits 4-6 (the chunk). A
/// tile is staged as column panels of 64 elements (one line per row), one
/// panel after the other, each swizzled like the mma.sync layout of a
/// 64-column tile; the stages start 1024-byte aligned, so that the key of
/// a line is its row modulo 8, as the hardware computes it.
///
/// The three are tile::StagingLayout: a ring's is recorded in its
/// tile.mma_pipeline (tileopt-assign-layouts); an operand from registers is
/// staged as registerStagingLayout says.
using tile::StagingLayout;

struct StagedOperand {
  /// Elements of a 16-byte chunk (and of the row padding).
  static constexpr int64_t kChunk = kStagingChunk;
  /// Elements of a 128-byte line: the width of a panels panel.
  static constexpr int64_t kPanel = kStagingPanel;

  StagedOperand(RankedTensorType type, StagingLayout layout)
      : rows(type.getDimSize(0)), cols(type.getDimSize(1)), layout(layout) {}

  int64_t rowStride() const { return stagingRowStride(cols, layout); }
  int64_t numElements() const { return rows * rowStride(); }

  /// The offset of element (`row`, `col`) from the start of the tile.
  Value offset(OpBuilder &b, Location loc, Value row, Value col) const;

  /// The offset of (`row`, `col`) in a packed, swizzled tile of `width`
  /// columns.
  static Value swizzledOffset(OpBuilder &b, Location loc, Value row, Value col,
                              int64_t width);

  int64_t rows, cols;
  StagingLayout layout;
};

/// How `mma` stages its `operand` tile when it comes from registers: wgmma
/// needs panels. For mma.sync rows of a line or more are padded by 16
/// bytes, as the swizzle's index arithmetic made the 128 x 128 x 64 GEMM
/// spill on that path (620 us against 473 us padded on the H200). Shorter
/// rows are swizzled: padded to 80 bytes, the 16-byte stores of the 8
/// threads that share a store wavefront hit the same banks
/// (rmsnorm_linear_b1's 256x32 tiles: 5.2-way conflicts, 38% of its store
/// wavefronts, ncu), and the swizzle keeps them apart.
StagingLayout registerStagingLayout(tile::MmaOp mma, RankedTensorType operand);

/// The f16/bf16 elements of shared memory `mma` stages its operands in when
/// they come from registers.
int64_t stagingElements(tile::MmaOp mma);

//===----------------------------------------------------------------------===//
// Multiplying
//===----------------------------------------------------------------------===//

/// The scalars of an mma accumulator fragment.
SmallVector<Value> fragmentElements(OpBuilder &b, Location loc, Value fragment);

/// Multiplies staged operands into `acc` on the tensor cores `mma` was
/// given (the layout of its accumulator). mma.sync is done on return; wgmma may
/// leave `pendingWgmmaGroups` groups in flight (multiplyStagedWgmma).
void multiplyStaged(OpBuilder &b, Location loc, tile::MmaOp mma, Value staging,
                    const StagedOperand &lhs, Value lhsBase,
                    const StagedOperand &rhs, Value rhsBase, int64_t numThreads,
                    MutableArrayRef<Value> acc, int64_t pendingWgmmaGroups = 0);

/// Multiplies the operands staged in `staging` at element offsets `lhsBase`
/// and `rhsBase` (laid out as `lhs` and `rhs` say) into `acc`, the scalars
/// of an mma.sync accumulator fragment on `warpsM` x `warpsN` warps: each
/// warp loads its parts with ldmatrix (B transposed on the way, unless
/// `rhsTransposed` says it is staged as [N, K] already) and runs mma.sync
/// m16n8k16 on the accumulator tiles it holds.
void multiplyStagedMmaSync(OpBuilder &b, Location loc, Value staging,
                           const StagedOperand &lhs, Value lhsBase,
                           const StagedOperand &rhs, Value rhsBase,
                           bool rhsTransposed, int64_t warpsM, int64_t warpsN,
                           MutableArrayRef<Value> acc);

/// Multiplies, as multiplyStaged does, operands staged in panels into the
/// scalars `acc` of a wgmma accumulator fragment: for every k16 step, each
/// warpgroup issues one wgmma.mma_async m64nNk16 per m64 slice of its rows,
/// both operands read from shared memory through descriptors (A K-major,
/// B N-major, as tile.mma's row-major operands are), commits them as one
/// group and waits until at most `pendingGroups` groups are in flight. With
/// 0 the staged operands are free once the threads meet at a barrier; with
/// 1 this group keeps reading them (and writing `acc`) while the caller
/// goes on, until the next multiply or a wait of its own.
void multiplyStagedWgmma(OpBuilder &b, Location loc, Value staging,
                         const StagedOperand &lhs, Value lhsBase,
                         const StagedOperand &rhs, Value rhsBase,
                         int64_t numThreads, MutableArrayRef<Value> acc,
                         int64_t pendingGroups);

/// Makes the operands this thread wrote into shared memory (with stores or
/// cp.async, the generic proxy) visible to wgmma (the async proxy), once
/// the barrier that follows has made them the whole block's.
void fenceForWgmma(OpBuilder &b, Location loc, tile::MmaOp mma);

} // namespace mlir::tileopt::tiletogpu

#endif // TILEOPT_LIB_CONVERSION_TILETOGPU_MMA_H
