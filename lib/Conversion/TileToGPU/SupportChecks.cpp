//===- SupportChecks.cpp - What the tile code generator takes -------------===//
//
// Every limit of the code generator, checked before anything is rewritten,
// so that a kernel it cannot take gets one diagnostic at the op, naming the
// limit.
//
//===----------------------------------------------------------------------===//
#include "StagedMmaLoop.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "TileOpt/Target/Target.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

namespace {

/// tile.reduce and tile.scan combine along the last dim (`verb` names the
/// op in the message); a scan, of a tile that every thread holds a part of.
LogicalResult checkLastDimCombine(Operation *op, RankedTensorType input,
                                  int64_t dim, StringRef verb,
                                  int64_t numThreads) {
  if (dim != input.getRank() - 1)
    return op->emitOpError()
           << verb << "s dim " << dim << "; the code generator " << verb
           << "s the last dim only (permute first)";
  if (isa<tile::ScanOp>(op) && layoutOf(input).replicated)
    return op->emitOpError("input has ")
           << input.getNumElements() << " elements, fewer than the "
           << numThreads << " threads of a block";
  return success();
}

/// Checks that every tile of `kernel` has a layout (tileopt-assign-layouts),
/// for the `numThreads` threads of the block.
LogicalResult checkLayouts(tile::KernelOp kernel, int64_t numThreads) {
  WalkResult walk = kernel.getBody().walk([&](Operation *op) -> WalkResult {
    for (Type type : op->getResultTypes()) {
      auto tileType = dyn_cast<RankedTensorType>(type);
      if (!tileType)
        continue;
      // Fragments and thread-to-element maps are built per dim.
      if (tileType.getRank() == 0)
        return op->emitOpError("gives a rank-0 tile; the code generator "
                               "takes tiles of rank 1 or more");
      tile::LayoutAttrInterface layout = tile::getLayout(type);
      if (!layout)
        return op->emitOpError("gives a tile without a layout: "
                               "tileopt-assign-layouts gives every tile "
                               "one, before tileopt-lower-tile");
      if (32 * layout.getNumWarps() != numThreads)
        return op->emitOpError("gives a tile laid out over ")
               << layout.getNumWarps() << " warps; tileopt-lower-tile runs "
               << "blocks of " << numThreads / 32 << " (num-warps)";
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Checks what the code generator needs of `mma` beyond its layout: the
/// operand types, K, and on wgmma the shapes wgmma takes.
LogicalResult checkMma(tile::MmaOp mma, int64_t numThreads) {
  if (std::string limit = mmaTypeLimit(mma); !limit.empty())
    return mma.emitOpError(limit);
  RankedTensorType lhs = mma.getLhs().getType();
  if (!mma.runsOnTensorCores())
    return success();
  if (isWgmma(mma)) {
    if (std::string limit = wgmmaLimit(mma, numThreads); !limit.empty())
      return mma.emitOpError("accumulates in the wgmma layout, but ") << limit;
    return success();
  }
  // The layout's verifier checked M and N.
  FragmentLayout acc = layoutOf(mma.getAcc().getType());
  if (lhs.getDimSize(1) % target::kMmaSyncK != 0)
    return mma.emitOpError("needs M a multiple of ")
           << target::kMmaSyncM * acc.warpsM << ", N of "
           << target::kMmaSyncN * acc.warpsN << " and K of "
           << target::kMmaSyncK << " for mma.sync m16n8k16 on " << acc.warpsM
           << "x" << acc.warpsN << " warps";
  return success();
}

/// Checks that the ring `loop`'s tile.mma_pipeline records can be built;
/// warns at the hint of a loop without one whose multiplicand loads still
/// ask for a ring (tileopt-pipeline-tile-loads took none of them).
LogicalResult checkMmaPipeline(scf::ForOp loop) {
  if (tile::MmaPipelineAttr pipeline = mmaPipelineOf(loop)) {
    if (!pipeline.isStaged())
      return success();
    if (std::string why = mmaPipelineObstacle(loop, pipeline); !why.empty())
      return loop.emitOpError("cannot be pipelined as its ")
             << pipeline << " says: " << why;
    return success();
  }
  tile::LoadOp hinted;
  int64_t latency = 1;
  for (tile::LoadOp load : mmaMultiplicandLoads(loop))
    if (load.getLatency() && *load.getLatency() > latency) {
      hinted = load;
      latency = *load.getLatency();
    }
  if (!hinted)
    return success();
  std::string why = mmaStagingObstacle(loop);
  if (why.empty())
    why = mmaRingObstacle(loop);
  if (why.empty())
    why = "the loop has no tile.mma_pipeline (tileopt-assign-layouts)";
  hinted.emitWarning("latency hint not followed: ") << why;
  return success();
}

} // namespace

LogicalResult tileopt::checkTileKernel(tile::KernelOp kernel,
                                       int64_t numThreads) {
  if (failed(checkLayouts(kernel, numThreads)))
    return failure();
  WalkResult walk = kernel.walk([&](Operation *op) -> WalkResult {
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                              op->getResultTypes())) {
      if (auto tensor = dyn_cast<RankedTensorType>(type)) {
        FragmentLayout layout = layoutOf(tensor);
        if (layout.fragmentSize() > target::kMaxFragmentElements)
          return op->emitOpError("tile ")
                 << tensor.dropEncoding() << " gives each of " << numThreads
                 << " threads " << layout.fragmentSize()
                 << " elements, over the limit of "
                 << target::kMaxFragmentElements
                 << ": use a smaller tile or more warps";
      }
      if (auto view = dyn_cast<tile::TensorViewType>(type))
        if (view.getElementType().isInteger(1))
          return op->emitOpError("views of i1 are not supported: store "
                                 "booleans as i8");
    }
    if (auto mma = dyn_cast<tile::MmaOp>(op))
      if (failed(checkMma(mma, numThreads)))
        return WalkResult::interrupt();
    if (auto loop = dyn_cast<scf::ForOp>(op))
      if (failed(checkMmaPipeline(loop)))
        return WalkResult::interrupt();
    if (auto scan = dyn_cast<tile::ScanOp>(op))
      if (failed(checkLastDimCombine(op, scan.getInput().getType(),
                                     scan.getDimAttr().getInt(), "scan",
                                     numThreads)))
        return WalkResult::interrupt();
    if (auto reduce = dyn_cast<tile::ReduceOp>(op))
      if (failed(checkLastDimCombine(op, reduce.getInput().getType(),
                                     reduce.getDimAttr().getInt(), "reduce",
                                     numThreads)))
        return WalkResult::interrupt();
    if (scratchWords(op, numThreads) > 0)
      for (Type type : op->getOperandTypes())
        if (!fitsScratchWord(getElementTypeOrSelf(type)))
          return op->emitOpError("moves ")
                 << getElementTypeOrSelf(type)
                 << " elements through shared memory; only types of up to "
                    "32 bits are supported";
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (isa<RankedTensorType>(constant.getType()) &&
          !isa<SplatElementsAttr>(constant.getValue()))
        return op->emitOpError("tile constants must be splats");
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
