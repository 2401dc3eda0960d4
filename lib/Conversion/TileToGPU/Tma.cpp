//===- Tma.cpp - tile.mma loops over a TMA ring (sm_90a) ------------------===//
//
// When every multiplicand load of a pipelined loop of wgmma tile.mma ops
// allows it, the first thread alone copies the tiles with
// cp.async.bulk.tensor, which complete on an mbarrier per stage (which
// loops do is tileopt-assign-layouts' decision, with tmaLimit): the copies,
// and the TMA form of the pipelined loop.
// The kernel takes a tensor map per operand (outlineTileKernels).
//
//===----------------------------------------------------------------------===//
#include "StagedMmaLoop.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

/// The suspend-time hint of mbarrier.try_wait, in nanoseconds (as upstream's
/// nvgpu tests use).
static constexpr int64_t kTryWaitTicks = 10000000;

namespace {

/// The TMA copies of the tile `load` reads, at the indices `mapping`
/// gives, into shared memory at element `base` after `shared`: one box of
/// all its rows per 64-column panel (StagingLayout::panels), completing
/// on the mbarrier at `barrier`. Coordinates are innermost first.
void copyTileByTma(OpBuilder &b, Location loc, tile::LoadOp load, Value shared,
                   Value base, Value barrier, const IRMapping &mapping) {
  RankedTensorType type = load.getType();
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  Value row =
      mulIndex(b, loc, mapping.lookupOrDefault(load.getIndices()[0]), rows);
  Value col =
      mulIndex(b, loc, mapping.lookupOrDefault(load.getIndices()[1]), cols);
  auto i32 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
  };
  auto func = load->getParentOfType<gpu::GPUFuncOp>();
  Value tensorMap = func.getArgument(
      load->getAttrOfType<IntegerAttr>(kTensorMapParam).getInt());
  for (int64_t panel = 0; panel < cols / StagedOperand::kPanel; ++panel) {
    int64_t panelCol = panel * StagedOperand::kPanel;
    // The copy's destination is in the shared::cluster window, where the
    // block's own shared memory is too.
    Value target = LLVM::AddrSpaceCastOp::create(
        b, loc,
        LLVM::LLVMPointerType::get(
            b.getContext(),
            static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster)),
        sharedAddress(
            b, loc, shared, type.getElementType(),
            addIndex(b, loc, base, indexConstant(b, loc, panelCol * rows))));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, target, tensorMap,
        ValueRange{i32(addIndex(b, loc, col, indexConstant(b, loc, panelCol))),
                   i32(row)},
        barrier, /*im2colOffsets=*/ValueRange(), /*multicastMask=*/Value(),
        /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
        /*isCTAOnly=*/false, /*group=*/nullptr, /*predicate=*/Value());
  }
}

} // namespace

void tiletogpu::copyStageByTma(OpBuilder &b, Location loc,
                               const StagedMmaLoop &plan, Value shared,
                               Value stageBase, Value barrier,
                               const IRMapping &mapping) {
  tile::LoadOp first = plan.loads.front();
  Type elementType = first.getType().getElementType();
  int64_t stageBytes =
      plan.tileElements() * elementType.getIntOrFloatBitWidth() / 8;
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, /*res=*/Type(), barrier,
      arith::ConstantIntOp::create(b, loc, stageBytes, 32),
      NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
  for (auto [i, load] : llvm::enumerate(plan.loads))
    copyTileByTma(b, loc, tile::LoadOp(load), shared,
                  plan.tileBase(b, loc, stageBase, i), barrier, mapping);
}

void tiletogpu::lowerTmaPipeline(ConversionPatternRewriter &rewriter,
                                 const TypeConverter &converter,
                                 scf::ForOp::Adaptor adaptor,
                                 const StagedMmaLoop &plan, int64_t numThreads,
                                 Value staging, Value shared) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  int64_t stages = plan.stages, stageElements = plan.stageElements();
  Value barriers = sharedPointer(rewriter, loc,
                                 workgroupBuffer(loop, rewriter.getI64Type()));
  auto barrierOf = [&](Value stage) {
    return sharedAddress(rewriter, loc, barriers, rewriter.getI64Type(), stage);
  };
  auto constant = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
  Value upperBound = adaptor.getUpperBound(), step = adaptor.getStep();
  Value tid = threadIdOf(rewriter, loc);
  auto copyAhead = [&](Value iv, int64_t distance, Value stage,
                       Value stagedIv) {
    copyStage(
        rewriter, loc, plan, numThreads, shared, tid, upperBound,
        addIndex(rewriter, loc, iv, mulIndex(rewriter, loc, step, distance)),
        mulIndex(rewriter, loc, stage, stageElements), barrierOf(stage),
        stagedIv);
  };

  // One arrival completes a phase: the issuing thread's expect_tx, with
  // the bytes of the copies. Every thread sees the initialised mbarriers
  // after the barrier, by which earlier users of the stages (through the
  // generic or the async proxy) are done with them too.
  inFirstThread(rewriter, loc, [&] {
    Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 32);
    for (int64_t s = 0; s < stages; ++s)
      NVVM::MBarrierInitOp::create(rewriter, loc, barrierOf(constant(s)), one,
                                   /*predicate=*/Value());
    NVVM::FenceMbarrierInitOp::create(rewriter, loc);
  });
  fenceForWgmma(rewriter, loc, plan.mmas.front());
  gpu::BarrierOp::create(rewriter, loc);
  inFirstThread(rewriter, loc, [&] {
    for (int64_t s = 0; s + 1 < stages; ++s)
      copyAhead(adaptor.getLowerBound(), s, constant(s), Value());
  });

  // The ring's state: the stage, and the parity of its mbarrier's phase.
  auto prefix = [&](Value, ValueRange ring) -> SmallVector<Value> {
    NVVM::MBarrierTryWaitParityOp::create(
        rewriter, loc, barrierOf(ring[0]), ring[1],
        arith::ConstantIntOp::create(rewriter, loc, kTryWaitTicks, 32));
    return {};
  };
  auto suffix = [&](Value iv, ValueRange ring) -> SmallVector<Value> {
    Value stage = ring[0], phase = ring[1];
    // Every warpgroup's wgmma ops of k - 1 are done, and every thread's
    // reads of the stage of k - 1.
    gpu::BarrierOp::create(rewriter, loc);
    inFirstThread(rewriter, loc, [&] {
      copyAhead(iv, stages - 1, previousInRing(rewriter, loc, stage, stages),
                iv);
    });
    Value wraps = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        stage, constant(stages - 1));
    Value nextPhase = arith::SelectOp::create(
        rewriter, loc, wraps,
        arith::XOrIOp::create(
            rewriter, loc, phase,
            arith::ConstantIntOp::create(rewriter, loc, 1, 32)),
        phase);
    return {nextInRing(rewriter, loc, stage, stages), nextPhase};
  };
  scf::ForOp staged = buildStagedLoop(
      rewriter, converter, adaptor, plan, numThreads, staging,
      ValueRange{constant(0),
                 arith::ConstantIntOp::create(rewriter, loc, 0, 32)},
      prefix, suffix);
  // The accumulators are read next. Every copy issued was awaited in the
  // loop; once every thread is past its last wait, the mbarriers are
  // invalidated, so that their memory may serve again.
  NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
  gpu::BarrierOp::create(rewriter, loc);
  inFirstThread(rewriter, loc, [&] {
    for (int64_t s = 0; s < stages; ++s)
      NVVM::MBarrierInvalOp::create(rewriter, loc, barrierOf(constant(s)));
  });
  rewriter.replaceOp(loop,
                     staged.getResults().take_front(loop.getNumResults()));
}
