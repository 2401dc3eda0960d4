//===- MmaStaging.h - Which mma loops the code generator stages -*- C++ -*-===//
//
// tileopt-lower-tile pipelines the multiplicands of some tile.mma loops
// through shared memory (a cp.async or TMA ring); tileopt-pipeline-tile-loads
// pipelines the hinted loads of other loops in registers.
// tileopt-assign-layouts decides which, once, and records it on the loop
// (tile.mma_pipeline, mmaPipelineOf), with these questions; both passes read
// the decision, so that every hinted load is pipelined by exactly one of
// them. How a ring's stage is laid out is here too: the decision needs its
// size, the code generator its offsets.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_TRANSFORMS_MMASTAGING_H
#define TILEOPT_TRANSFORMS_MMASTAGING_H

#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "TileOpt/Target/FragmentLayout.h"
#include "TileOpt/Target/Target.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir::tileopt {

/// Whether `op` takes or gives a tile (a ranked tensor).
bool hasTensorType(Operation *op);

/// The tile.loads in `loop`'s body that give a multiplicand of a tile.mma
/// in that body, each once, in body order.
SmallVector<tile::LoadOp> mmaMultiplicandLoads(scf::ForOp loop);

/// Why `loop` lacks the structure of a shared-memory pipeline, or "" if it
/// has it. Every tile.mma in its body multiplies tiles loaded in that body
/// for tile.mma ops alone (one load may feed several) into an accumulator
/// the loop carries from one tile.mma to the next and uses nowhere else;
/// the body holds no op with regions and nothing with side effects but
/// loads, so a load issued iterations early reads what it would have; and
/// the indices of the multiplicand loads are scalar arithmetic on the
/// induction variable, which the pipeline computes for later iterations.
/// (The code generator checks the loads' views, padding and alignment
/// besides.)
///
/// A multiplicand that other ops read too stays in registers: on the H200,
/// rmsnorm_linear_b1's loop, whose X tile is also squared and summed, took
/// 18.9 us with X in the ring and read back from it for the sum (commit
/// a1c0a54) against 16.4 us through registers, and executed twice the
/// instructions (2026-12-04, docs/performance.md).
std::string mmaStagingObstacle(scf::ForOp loop);

/// The most shared memory a block can have: the code generator plans
/// shared memory for sm_90 (227 KiB), whichever chip it compiles for.
constexpr int64_t kMaxSharedBytesPerBlock =
    target::kSm90.sharedMemoryPerBlock();

/// Why the code generator would refuse to stage the multiplicand loads of
/// `loop`, a loop with the structure (mmaStagingObstacle), for reasons that
/// do not depend on the thread count, or "": their views must come from
/// outside the loop, they pad with zeros (cp.async fills only zeros), share
/// one element type, and two stages of their tiles fit in shared memory.
/// (Whether every thread copies whole 16-byte chunks is checked by the code
/// generator alone.)
std::string mmaRingObstacle(scf::ForOp loop);

/// The deepest ring: each stage costs a copy of every multiplicand tile,
/// and three copies in flight cover device memory latency.
constexpr int64_t kMaxMmaStages = 4;

/// Why `mma` cannot run on wgmma with `numThreads` threads, or "" if it can:
/// each warpgroup multiplies its share of the rows in m64 slices by the
/// whole of B in one instruction, and both operands are staged in
/// 128-byte-swizzled panels (StagingLayout::panels), whose rows are whole
/// 128-byte lines.
std::string wgmmaLimit(tile::MmaOp mma, int64_t numThreads);

/// Why the code generator cannot take the operand and accumulator types of
/// `mma`, or "": rank-2 f16 or bf16 operands (tensor cores) or f32 operands
/// (CUDA cores), into an f32 accumulator. tileopt-assign-layouts checks it
/// before laying out the kernel, tileopt-lower-tile again on what it gets.
std::string mmaTypeLimit(tile::MmaOp mma);

/// How `loop`'s tile.mma multiplicands are pipelined, as
/// tileopt-assign-layouts decides it, on tensor cores that are `wgmma` or
/// mma.sync (whose rings are `swizzle`d or padded), after it has given the
/// tiles their layouts. Null when no multiplicand load asks for it (a
/// latency hint of 2 or more) or the loop cannot have a ring
/// (mmaStagingObstacle, mmaRingObstacle): the loop is then
/// tileopt-pipeline-tile-loads'. Otherwise the ring: min(latency, 4,
/// what fits) stages, filled by TMA where tmaLimit allows it, else by
/// cp.async; or `none`, with the reason in `why`, when a thread would not
/// copy whole 16-byte chunks of every tile, or two stages do not fit.
tile::MmaPipelineAttr decideMmaPipeline(scf::ForOp loop, bool wgmma,
                                        bool swizzle, std::string &why);

/// Why `loop` cannot be pipelined as `pipeline` (a ring) says, or "": what
/// decideMmaPipeline checks, for a decision the code generator is handed.
std::string mmaPipelineObstacle(scf::ForOp loop,
                                tile::MmaPipelineAttr pipeline);

/// The decision tileopt-assign-layouts recorded on `loop`
/// (`tile.mma_pipeline`), or null: a loop that has one is the code
/// generator's, pipelined through shared memory or (`none`) not at all; one
/// without is tileopt-pipeline-tile-loads'.
tile::MmaPipelineAttr mmaPipelineOf(scf::ForOp loop);

/// The decision recorded on the scf.for around `op`, if it pipelines that
/// loop through shared memory.
tile::MmaPipelineAttr stagedPipelineAround(Operation *op);

/// Elements of f16/bf16 in a 16-byte chunk: what a padded row adds, and
/// what cp.async and ldmatrix move at once.
constexpr int64_t kStagingChunk = 8;

/// Elements of f16/bf16 in a 128-byte line: the width of a wgmma panel.
constexpr int64_t kStagingPanel = 64;

/// The elements from one row of a tile of `cols` columns staged as `layout`
/// to the next: padded rows are a chunk longer.
int64_t stagingRowStride(int64_t cols, tile::StagingLayout layout);

/// One stage of the ring of `loads`' tiles (of one element type) staged as
/// `layout`: the tiles one after the other, each starting aligned as what
/// reads it needs (ldmatrix 16-byte rows; wgmma's panels a 1024-byte block),
/// and the next stage too. Returns the elements of a stage and, with
/// `offsets`, where each tile starts.
int64_t layOutRingStage(ArrayRef<tile::LoadOp> loads,
                        tile::StagingLayout layout,
                        SmallVectorImpl<int64_t> *offsets = nullptr);

/// Whether every chunk of a tile in `layout` is aligned to its width and
/// wholly inside or outside `view`: when every row of the view is a whole
/// number of chunks.
bool chunksAlignedIn(tile::TensorViewType view, const FragmentLayout &layout);

/// Why the multiplicand tiles `loads` of a staged loop cannot be copied by
/// TMA (cp.async.bulk.tensor), or "" if they can. The rule: every
/// multiplicand load allows it (`allow_tma`) and the tile.mma ops run on
/// wgmma (`wgmma`, sm_90a). There a TMA box of 64 bf16/f16 columns with the
/// 128-byte swizzle lands as one panel of the staging layout wgmma's
/// descriptors read; so a tile of C columns is C / 64 boxes of its rows.
/// mma.sync reads its stages with ldmatrix, in another layout, and keeps
/// cp.async.
std::string tmaLimit(ArrayRef<tile::LoadOp> loads, bool wgmma);

} // namespace mlir::tileopt

#endif // TILEOPT_TRANSFORMS_MMASTAGING_H
