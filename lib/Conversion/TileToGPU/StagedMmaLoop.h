//===- StagedMmaLoop.h - tile.mma loops over a shared-memory ring -*- C++
//-*-===//
//
// Private to lib/Conversion/TileToGPU. An scf.for whose tile.mma ops
// multiply tiles loaded with a latency hint is lowered as a pipeline over a
// ring of shared-memory stages: which loops qualify and how their tiles are
// laid out (the plan), and the pipelined loop, filled by cp.async
// (StagedMmaLoop.cpp, LoadStoreOpToGPU.cpp) or by TMA (Tma.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_CONVERSION_TILETOGPU_STAGEDMMALOOP_H
#define TILEOPT_LIB_CONVERSION_TILETOGPU_STAGEDMMALOOP_H

#include "Mma.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <optional>
#include <string>

namespace mlir::tileopt::tiletogpu {

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

/// An scf.for whose tile.mma ops multiply tiles loaded in its body, which
/// its tile.mma_pipeline pipelines: those tiles are copied with cp.async (or
/// TMA) into a ring of `stages` shared-memory buffers, `stages - 1`
/// iterations ahead; ldmatrix (or wgmma) reads the multiplicands from there.
struct StagedMmaLoop {
  scf::ForOp loop;
  Value inductionVar;
  SmallVector<tile::MmaOp> mmas;
  /// The staged tiles' loads (mmaMultiplicandLoads), how each is laid out
  /// and at which element of a stage it starts.
  SmallVector<tile::LoadOp> loads;
  SmallVector<StagedOperand> tiles;
  SmallVector<int64_t> offsets;
  int64_t stageSize = 0;
  /// The ops of the body that compute the loads' indices from the
  /// induction variable (mmaStagingObstacle), in body order: the copies for
  /// a later iteration repeat them.
  SmallVector<Operation *> indexArithmetic;
  int64_t stages = 0;
  /// Whether the tiles come by TMA rather than cp.async.
  bool tma = false;

  /// The elements of one stage: the tiles one after the other, each
  /// starting aligned, and the next stage too.
  int64_t stageElements() const { return stageSize; }
  /// The elements the tiles of one stage fill (a stage may have gaps).
  int64_t tileElements() const {
    int64_t elements = 0;
    for (tile::LoadOp load : loads)
      elements += load.getType().getNumElements();
    return elements;
  }
  /// Which of `loads` gives `tile`.
  unsigned indexOf(Value tile) const {
    return llvm::find(loads, tile.getDefiningOp<tile::LoadOp>()) -
           loads.begin();
  }
  bool wgmma() const { return isWgmma(mmas.front()); }
  /// The element where tile `i` starts in the stage at element `stageBase`.
  Value tileBase(OpBuilder &b, Location loc, Value stageBase,
                 unsigned i) const {
    return addIndex(b, loc, stageBase, indexConstant(b, loc, offsets[i]));
  }
};

/// The shared-memory pipeline of `loop`, if its tile.mma_pipeline (which
/// tileopt-assign-layouts decided and the support checks validated) asks
/// for one.
std::optional<StagedMmaLoop> stagedMmaLoop(scf::ForOp loop);

/// The pipeline of the scf.for around `op`, if it has one.
std::optional<StagedMmaLoop> stagedMmaLoopAround(Operation *op);

//===----------------------------------------------------------------------===//
// The pipelined loop
//===----------------------------------------------------------------------===//

/// What a form of the pipeline adds to the loop's body: `prefix` runs
/// before the body's own ops, `suffix` after them and gives the values
/// the ring carries (`ring`) for the next iteration.
using BodyHook = function_ref<SmallVector<Value>(Value iv, ValueRange ring)>;

/// The pipelined form of `plan.loop` (`adaptor` its converted operands): a
/// loop that carries the loop's own values and then `ringInits` (the
/// ring's state: the stage of the iteration first). Its body runs
/// `prefix`, then the loop's own body, in which each tile.mma multiplies
/// its operands from the stage, then `suffix`.
scf::ForOp buildStagedLoop(ConversionPatternRewriter &rewriter,
                           const TypeConverter &converter,
                           scf::ForOp::Adaptor adaptor,
                           const StagedMmaLoop &plan, int64_t numThreads,
                           Value staging, ValueRange ringInits, BodyHook prefix,
                           BodyHook suffix);

/// Issues, unless iteration `iv` is past the loop, the copies of the
/// staged tiles of that iteration into the stage at element `stageBase`:
/// cp.async, or with TMA, TMA copies that complete on the mbarrier at
/// `barrier`. Inside the pipelined loop, `stagedIv` is its induction
/// variable.
void copyStage(OpBuilder &b, Location loc, const StagedMmaLoop &plan,
               int64_t numThreads, Value shared, Value tid, Value upperBound,
               Value iv, Value stageBase, Value barrier = Value(),
               Value stagedIv = Value());

/// The stage after `stage` in a ring of `stages`.
Value nextInRing(OpBuilder &b, Location loc, Value stage, int64_t stages);

/// The stage before `stage` in a ring of `stages`.
Value previousInRing(OpBuilder &b, Location loc, Value stage, int64_t stages);

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

/// cp.async of the current thread's 16-byte chunks (those of its fragment
/// in the blocked layout) of the tile `load` reads, at the indices
/// `mapping` gives, into shared memory at element `base` after `shared`
/// (LoadStoreOpToGPU.cpp).
void copyTileAsync(OpBuilder &b, Location loc, tile::LoadOp load,
                   const StagedOperand &staged, int64_t numThreads,
                   Value shared, Value tid, Value base,
                   const IRMapping &mapping);

/// Issues the TMA copies of the staged tiles, at the indices `mapping`
/// gives, into the stage at element `stageBase` after `shared`, after
/// announcing their bytes to the mbarrier at `barrier`, on which they
/// complete (Tma.cpp).
void copyStageByTma(OpBuilder &b, Location loc, const StagedMmaLoop &plan,
                    Value shared, Value stageBase, Value barrier,
                    const IRMapping &mapping);

/// The TMA form of the pipelined loop, as StagedMmaLoopLowering describes
/// it (Tma.cpp).
void lowerTmaPipeline(ConversionPatternRewriter &rewriter,
                      const TypeConverter &converter,
                      scf::ForOp::Adaptor adaptor, const StagedMmaLoop &plan,
                      int64_t numThreads, Value staging, Value shared);

} // namespace mlir::tileopt::tiletogpu

#endif // TILEOPT_LIB_CONVERSION_TILETOGPU_STAGEDMMALOOP_H
