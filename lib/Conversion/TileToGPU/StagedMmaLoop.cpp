//===- StagedMmaLoop.cpp - tile.mma loops over a cp.async ring ------------===//
//
// Which scf.for loops of tile.mma ops the code generator pipelines through
// shared memory (the plan: StagedMmaLoop), the pipelined loop both forms
// share, and the cp.async form; the TMA form is in Tma.cpp.
//
//===----------------------------------------------------------------------===//
#include "StagedMmaLoop.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "TileOpt/Transforms/MmaStaging.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

std::optional<StagedMmaLoop> tiletogpu::stagedMmaLoop(scf::ForOp loop) {
  tile::MmaPipelineAttr pipeline = mmaPipelineOf(loop);
  if (!pipeline || !pipeline.isStaged())
    return std::nullopt;
  StagedMmaLoop plan;
  plan.loop = loop;
  plan.inductionVar = loop.getInductionVar();
  plan.mmas = llvm::to_vector(loop.getBody()->getOps<tile::MmaOp>());
  plan.loads = mmaMultiplicandLoads(loop);
  plan.stageSize =
      layOutRingStage(plan.loads, pipeline.getStaging(), &plan.offsets);
  for (tile::LoadOp load : plan.loads)
    plan.tiles.emplace_back(load.getType(), pipeline.getStaging());
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Value> worklist;
  for (tile::LoadOp load : plan.loads)
    llvm::append_range(worklist, load.getIndices());
  while (!worklist.empty()) {
    Operation *producer = worklist.pop_back_val().getDefiningOp();
    if (producer && producer->getParentOp() == loop &&
        needed.insert(producer).second)
      llvm::append_range(worklist, producer->getOperands());
  }
  for (Operation &op : loop.getBody()->without_terminator())
    if (needed.contains(&op))
      plan.indexArithmetic.push_back(&op);
  plan.stages = pipeline.getStages();
  plan.tma = pipeline.getCopy() == tile::MmaCopy::tma;
  return plan;
}

std::optional<StagedMmaLoop> tiletogpu::stagedMmaLoopAround(Operation *op) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!loop)
    return std::nullopt;
  return stagedMmaLoop(loop);
}

//===----------------------------------------------------------------------===//
// The pipelined loop
//===----------------------------------------------------------------------===//

Value tiletogpu::nextInRing(OpBuilder &b, Location loc, Value stage,
                            int64_t stages) {
  Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, stage,
                                       indexConstant(b, loc, stages - 1));
  return arith::SelectOp::create(
      b, loc, isLast, indexConstant(b, loc, 0),
      addIndex(b, loc, stage, indexConstant(b, loc, 1)));
}

Value tiletogpu::previousInRing(OpBuilder &b, Location loc, Value stage,
                                int64_t stages) {
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, stage,
                                        indexConstant(b, loc, 0));
  return arith::SelectOp::create(
      b, loc, isFirst, indexConstant(b, loc, stages - 1),
      arith::SubIOp::create(b, loc, stage, indexConstant(b, loc, 1)));
}

scf::ForOp tiletogpu::buildStagedLoop(
    ConversionPatternRewriter &rewriter, const TypeConverter &converter,
    scf::ForOp::Adaptor adaptor, const StagedMmaLoop &plan, int64_t numThreads,
    Value staging, ValueRange ringInits, BodyHook prefix, BodyHook suffix) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  unsigned numCarried = loop.getNumRegionIterArgs();
  // Where each mma's accumulator is carried, before the body moves.
  SmallVector<unsigned> accumulatorPositions =
      llvm::map_to_vector(plan.mmas, [](tile::MmaOp mma) {
        return cast<BlockArgument>(mma.getAcc()).getArgNumber() - 1;
      });

  SmallVector<Value> inits(adaptor.getInitArgs());
  llvm::append_range(inits, ringInits);
  auto staged =
      scf::ForOp::create(rewriter, loc, adaptor.getLowerBound(),
                         adaptor.getUpperBound(), adaptor.getStep(), inits);
  Block *body = staged.getBody();
  Value iv = staged.getInductionVar();
  ValueRange carried = staged.getRegionIterArgs();
  ValueRange ring = carried.drop_front(numCarried);
  rewriter.setInsertionPointToStart(body);
  prefix(iv, ring);
  Value stageBase = mulIndex(rewriter, loc, ring[0], plan.stageElements());

  FailureOr<Block *> original =
      rewriter.convertRegionTypes(&loop.getRegion(), converter);
  assert(succeeded(original) && "the type converter takes every tile");
  rewriter.mergeBlocks(*original, body,
                       body->getArguments().take_front(1 + numCarried));
  // The suffix's copies read the staged loads, which are replaced next.
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  rewriter.setInsertionPoint(yield);
  SmallVector<Value> yields(yield.getOperands());
  llvm::append_range(yields, suffix(iv, ring));
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yields);
  for (auto [i, position] : llvm::enumerate(accumulatorPositions)) {
    tile::MmaOp mma = plan.mmas[i];
    rewriter.setInsertionPoint(mma);
    SmallVector<Value> acc = fragmentElements(rewriter, loc, carried[position]);
    unsigned lhs = plan.indexOf(mma.getLhs()), rhs = plan.indexOf(mma.getRhs());
    multiplyStaged(rewriter, mma.getLoc(), mma, staging, plan.tiles[lhs],
                   plan.tileBase(rewriter, loc, stageBase, lhs),
                   plan.tiles[rhs],
                   plan.tileBase(rewriter, loc, stageBase, rhs), numThreads,
                   acc, /*pendingWgmmaGroups=*/1);
    rewriter.replaceOp(mma, fromElements(rewriter, loc, acc));
  }
  // The multiplicands feed the mmas alone (mmaStagingObstacle).
  for (tile::LoadOp load : plan.loads)
    rewriter.eraseOp(load);
  rewriter.setInsertionPointAfter(staged);
  return staged;
}

void tiletogpu::copyStage(OpBuilder &b, Location loc, const StagedMmaLoop &plan,
                          int64_t numThreads, Value shared, Value tid,
                          Value upperBound, Value iv, Value stageBase,
                          Value barrier, Value stagedIv) {
  Value inLoop =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, upperBound);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, inLoop,
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  // The index arithmetic of the loads, for iteration `iv`. In the
  // pipelined loop's body it reads that loop's induction variable.
  IRMapping mapping;
  mapping.map(plan.inductionVar, iv);
  if (stagedIv)
    mapping.map(stagedIv, iv);
  for (Operation *op : plan.indexArithmetic)
    b.clone(*op, mapping);
  if (!plan.tma) {
    for (auto [i, load] : llvm::enumerate(plan.loads))
      copyTileAsync(b, loc, tile::LoadOp(load), plan.tiles[i], numThreads,
                    shared, tid, plan.tileBase(b, loc, stageBase, i), mapping);
    return;
  }
  copyStageByTma(b, loc, plan, shared, stageBase, barrier, mapping);
}

namespace {

/// An scf.for whose tile.mma ops multiply tiles it loads, as its
/// tile.mma_pipeline says (StagedMmaLoop): a cp.async pipeline over a ring of
/// shared-memory stages, each holding every multiplicand tile of one iteration.
/// Before the loop, the copies for the first `stages - 1` iterations are
/// issued, one commit group each. Iteration k waits for its own group
/// (cp.async.wait_group stages - 2), then meets the other threads at the one
/// barrier of the step: after it, every copy into the stage of k has landed and
/// every thread is done reading the stage of k - 1. Into that stage go the
/// copies for iteration k + stages - 1, then the operands of k are multiplied
/// straight from their stage. Chunks outside the view are zero-filled (a source
/// size of 0); copies for iterations past the loop are skipped, but their
/// (empty) groups still count.
///
/// For wgmma, each thread fences its landed copies for the async proxy
/// before the barrier, and the wgmma ops of k stay in flight while the next
/// step's copies are issued and awaited, so that the tensor cores never sit
/// idle between K steps. They still read the stage of k, and those of k - 1
/// the stage of k - 1: so the multiply of k waits for the group of k - 1
/// alone (wgmma.wait_group 1), and a second barrier after it frees the stage
/// of k - 1 for the copies of k + stages - 1. The last group is awaited
/// after the loop, before the accumulator is read.
///
/// With TMA (StagedMmaLoop::tma), the first thread alone issues the copies:
/// per stage, an mbarrier that expects the bytes of its tiles
/// (mbarrier.arrive.expect_tx) and one cp.async.bulk.tensor per 64-column
/// panel of each tile, which land 128-byte-swizzled and complete on that
/// mbarrier; boxes past the edge of a view are zero-filled. Iteration k
/// waits for the phase of its stage's mbarrier (the parity flips each time
/// the ring wraps) instead of a cp.async group and a barrier; the wgmma ops
/// overlap as above, and the one barrier of the step, after the multiply,
/// frees the stage of k - 1 for the copies of k + stages - 1. The async
/// proxy writes and reads the stages, so no proxy fence is needed in the
/// loop.
struct StagedMmaLoopLowering : public TilePattern<scf::ForOp> {
  StagedMmaLoopLowering(const TypeConverter &converter, MLIRContext *ctx,
                        int64_t numThreads)
      // Ahead of the structural conversion of scf.for.
      : TilePattern(converter, ctx, numThreads, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(scf::ForOp loop, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<StagedMmaLoop> plan = stagedMmaLoop(loop);
    if (!plan)
      return rewriter.notifyMatchFailure(
          loop, "no tile.mma_pipeline pipelines it through shared memory");
    for (tile::LoadOp load : plan->loads)
      if (!load.getView().getDefiningOp<UnrealizedConversionCastOp>())
        return rewriter.notifyMatchFailure(load,
                                           "view is not a kernel argument");

    Location loc = loop.getLoc();
    Value staging =
        workgroupBuffer(loop, plan->loads.front().getType().getElementType());
    // cp.async takes a shared-memory pointer, ldmatrix the buffer.
    Value shared = sharedPointer(rewriter, loc, staging);
    if (plan->tma) {
      lowerTmaPipeline(rewriter, *getTypeConverter(), adaptor, *plan,
                       numThreads, staging, shared);
      return success();
    }
    int64_t stages = plan->stages, stageElements = plan->stageElements();
    bool wgmma = plan->wgmma();
    Value tid = threadIdOf(rewriter, loc);
    Value upperBound = adaptor.getUpperBound(), step = adaptor.getStep();
    auto iterationAhead = [&](Value iv, int64_t distance) {
      return addIndex(rewriter, loc, iv,
                      mulIndex(rewriter, loc, step, distance));
    };
    auto commit = [&] { NVVM::CpAsyncCommitGroupOp::create(rewriter, loc); };

    // Earlier users of the staging buffer must be done with it.
    gpu::BarrierOp::create(rewriter, loc);
    for (int64_t s = 0; s + 1 < stages; ++s) {
      copyStage(rewriter, loc, *plan, numThreads, shared, tid, upperBound,
                iterationAhead(adaptor.getLowerBound(), s),
                indexConstant(rewriter, loc, s * stageElements));
      commit();
    }
    // Iteration iv refills the stage of iv - 1 with the tiles of
    // iv + stages - 1.
    auto refillPrevious = [&](Value iv, Value stage) {
      copyStage(rewriter, loc, *plan, numThreads, shared, tid, upperBound,
                iterationAhead(iv, stages - 1),
                mulIndex(rewriter, loc,
                         previousInRing(rewriter, loc, stage, stages),
                         stageElements),
                /*barrier=*/Value(), /*stagedIv=*/iv);
      commit();
    };
    auto prefix = [&](Value iv, ValueRange ring) -> SmallVector<Value> {
      NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, stages - 2);
      fenceForWgmma(rewriter, loc, plan->mmas.front());
      gpu::BarrierOp::create(rewriter, loc);
      if (!wgmma)
        refillPrevious(iv, ring[0]);
      return {};
    };
    auto suffix = [&](Value iv, ValueRange ring) -> SmallVector<Value> {
      if (wgmma) {
        // Every thread's wgmma ops of k - 1 are done.
        gpu::BarrierOp::create(rewriter, loc);
        refillPrevious(iv, ring[0]);
      }
      return {nextInRing(rewriter, loc, ring[0], stages)};
    };
    scf::ForOp staged = buildStagedLoop(
        rewriter, *getTypeConverter(), adaptor, *plan, numThreads, staging,
        ValueRange{indexConstant(rewriter, loc, 0)}, prefix, suffix);
    // No copy may be in flight when the kernel exits, and the accumulators
    // are read next.
    NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);
    if (wgmma)
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
    rewriter.replaceOp(loop,
                       staged.getResults().take_front(loop.getNumResults()));
    return success();
  }
};

} // namespace

void tileopt::populateStagedMmaLoopToGPUPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 int64_t numThreads) {
  patterns.add<StagedMmaLoopLowering>(converter, patterns.getContext(),
                                      numThreads);
}
