//===- PipelineTileLoads.cpp - Loads issued ahead by their latency --------===//
#include "TileOpt/Transforms/Passes.h"

#include "TileOpt/Transforms/MmaStaging.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_PIPELINETILELOADS
#include "TileOpt/Transforms/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// How many iterations ahead `load` in `loop` should be issued, or 0 when it
/// is not pipelined: its latency minus one, if its view comes from outside
/// the loop and its indices from side-effect-free ops on the induction
/// variable.
int64_t prefetchDistance(scf::ForOp loop, tile::LoadOp load,
                         SetVector<Operation *> &indexSlice) {
  IntegerAttr latency = load.getLatencyAttr();
  if (!latency || latency.getInt() < 2 ||
      !loop.isDefinedOutsideOfLoop(load.getView()))
    return 0;
  BackwardSliceOptions options;
  options.filter = [&](Operation *op) {
    return loop->isProperAncestor(op);
  };
  for (Value index : load.getIndices())
    if (Operation *producer = index.getDefiningOp())
      if (loop->isProperAncestor(producer) &&
          failed(getBackwardSlice(producer, &indexSlice, options)))
        return 0;
  for (Value index : load.getIndices())
    if (Operation *producer = index.getDefiningOp())
      if (loop->isProperAncestor(producer))
        indexSlice.insert(producer);
  if (!llvm::all_of(indexSlice, [](Operation *op) {
        return isPure(op) && op->getNumRegions() == 0;
      }))
    return 0;
  return latency.getInt() - 1;
}

/// A copy of `load` (and of the index computation it needs) for the
/// iteration whose induction variable is `iv`, at the builder's position.
Value loadForIteration(OpBuilder &b, tile::LoadOp load, Value inductionVar,
                       const SetVector<Operation *> &indexSlice, Value iv) {
  IRMapping mapping;
  mapping.map(inductionVar, iv);
  for (Operation *op : topologicalSort(indexSlice))
    b.clone(*op, mapping);
  auto copy = cast<tile::LoadOp>(b.clone(*load, mapping));
  // This copy is the pipelined one: it is not pipelined again.
  copy.removeLatencyAttr();
  return copy.getResult();
}

/// `lb + step * distance`, for the loop's index type.
Value iterationAhead(OpBuilder &b, Location loc, Value base, Value step,
                     int64_t distance) {
  Value count = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(step.getType(), distance));
  return arith::AddIOp::create(b, loc, base,
                               arith::MulIOp::create(b, loc, step, count));
}

/// 32-bit registers per thread that one tile of `load` takes on `threads`
/// threads (rounded up).
int64_t registersPerThread(tile::LoadOp load, int64_t threads) {
  auto type = cast<ShapedType>(load.getResult().getType());
  int64_t bits = type.getNumElements() *
                 static_cast<int64_t>(type.getElementTypeBitWidth());
  return llvm::divideCeil(bits, 32 * threads);
}

void pipelineLoop(scf::ForOp loop, int64_t numWarps, int64_t registerBudget) {
  // The code generator pipelines this loop's multiplicands through shared
  // memory (or, with <none>, follows none of its hints), and wants the loop
  // as it is: one tile.mma per accumulator a step. Its other loads are not
  // prefetched.
  if (mmaPipelineOf(loop)) {
    SmallVector<tile::LoadOp> staged = mmaMultiplicandLoads(loop);
    for (auto load : loop.getBody()->getOps<tile::LoadOp>())
      if (load.getLatency() && *load.getLatency() >= 2 &&
          !llvm::is_contained(staged, load))
        load.emitRemark("latency hint not followed: the loop's tile.mma "
                        "multiplicands are pipelined through shared memory "
                        "(tileopt-lower-tile), which keeps the loop as it is");
    return;
  }
  struct Pipelined {
    tile::LoadOp load;
    int64_t distance;
    SetVector<Operation *> indexSlice;
  };
  SmallVector<Pipelined> pipelined;
  for (auto load : loop.getBody()->getOps<tile::LoadOp>()) {
    SetVector<Operation *> slice;
    if (int64_t distance = prefetchDistance(loop, load, slice))
      pipelined.push_back({load, distance, std::move(slice)});
  }
  if (pipelined.empty())
    return;

  // The tiles in flight, carried as loop values, stay in registers.
  auto registersInFlight = [&] {
    int64_t registers = 0;
    for (Pipelined &p : pipelined)
      registers += p.distance * registersPerThread(p.load, 32 * numWarps);
    return registers;
  };
  if (int64_t asked = registersInFlight(); asked > registerBudget) {
    for (Pipelined &p : pipelined)
      p.distance = 1;
    int64_t doubleBuffered = registersInFlight();
    InFlightDiagnostic remark = loop.emitRemark()
                                << "tiles in flight would take " << asked
                                << " registers per thread, over the budget of "
                                << registerBudget << ": ";
    if (doubleBuffered > registerBudget) {
      remark << "the loads are not pipelined (" << doubleBuffered
             << " even one iteration ahead)";
      return;
    }
    remark << "the loads are issued one iteration ahead (" << doubleBuffered
           << " registers)";
  }

  Location loc = loop.getLoc();
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  Value inductionVar = loop.getInductionVar();
  SmallVector<Value> inFlight;
  for (Pipelined &p : pipelined)
    for (int64_t i = 0; i < p.distance; ++i)
      inFlight.push_back(loadForIteration(
          rewriter, p.load, inductionVar, p.indexSlice,
          iterationAhead(rewriter, loc, loop.getLowerBound(), loop.getStep(),
                         i)));

  auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, inFlight, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location, ArrayRef<BlockArgument> queue) {
        SmallVector<Value> yields;
        Value iv = queue.front().getOwner()->getArgument(0);
        for (Pipelined &p : pipelined) {
          ArrayRef<BlockArgument> mine = queue.take_front(p.distance);
          queue = queue.drop_front(p.distance);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(p.load);
          Value ahead = iterationAhead(b, p.load.getLoc(), iv,
                                       loop.getStep(), p.distance);
          // The body still reads the old induction variable here; it becomes
          // the new loop's after the callback.
          Value next =
              loadForIteration(b, p.load, inductionVar, p.indexSlice, ahead);
          p.load.getResult().replaceAllUsesWith(mine.front());
          for (BlockArgument tile : mine.drop_front())
            yields.push_back(tile);
          yields.push_back(next);
        }
        return yields;
      }));
  int64_t longestDistance = 0;
  for (Pipelined &p : pipelined) {
    longestDistance = std::max(longestDistance, p.distance);
    rewriter.eraseOp(p.load);
    // The index computation of the current iteration may have no other use.
    SetVector<Operation *> slice = topologicalSort(p.indexSlice);
    for (Operation *op : llvm::reverse(slice))
      if (isOpTriviallyDead(op))
        rewriter.eraseOp(op);
  }

  // The queue of tiles in flight shifts by one tile per iteration. Left as
  // it is, the register allocator moves each tile one slot down at the back
  // edge, and a move of a tile still in flight waits for its load: every
  // distance then acts as one (on the H200, latency 6 was no faster than 3,
  // and ncu put a quarter of the stalls on the long scoreboard at the loop's
  // top). Unrolled by the longest distance + 1, every slot is refilled by a
  // later copy than the one that consumed it, so each tile keeps one register
  // from its load to its use and no move is needed (the remainder loop keeps
  // its moves). A loop of fewer iterations than that is left as it is: its
  // unrolled body would never run.
  int64_t factor = longestDistance + 1;
  std::optional<APInt> tripCount = newLoop.getStaticTripCount();
  if (tripCount && tripCount->slt(factor))
    return;
  if (failed(loopUnrollByFactor(newLoop, factor)))
    newLoop.emitRemark("could not be unrolled by ")
        << factor
        << ": each tile in flight is moved at the back edge, which waits for "
           "its load";
}

struct PipelineTileLoadsPass
    : public tileopt::impl::PipelineTileLoadsBase<PipelineTileLoadsPass> {
  using PipelineTileLoadsBase::PipelineTileLoadsBase;
  void runOnOperation() override {
    if (numWarps <= 0 || registerBudget < 0) {
      getOperation()->emitError("tileopt-pipeline-tile-loads needs num-warps "
                                "> 0 and register-budget >= 0, got ")
          << int64_t(numWarps) << " and " << int64_t(registerBudget);
      return signalPassFailure();
    }
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->getParentOfType<tile::KernelOp>())
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      pipelineLoop(loop, numWarps, registerBudget);
  }
};

} // namespace
