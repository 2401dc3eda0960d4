//===- AccumulatorLayouts.cpp - Which tiles live in an mma layout ---------===//
//
// Before the conversion, the accumulators of tile.mma ops, and what is tied
// to them, get the layout of the tensor cores that compute them (mma.sync's
// or wgmma's) as an encoding of their type; every other tile keeps the
// blocked layout.
//
//===----------------------------------------------------------------------===//
#include "Mma.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

namespace {

/// Ops that re-deal a tile through shared memory from any layout into any
/// other (RelayoutLowering): an accumulator may enter or leave its layout
/// through them.
bool isRelayout(Operation *op) {
  return isa<tile::BroadcastOp, tile::ReshapeOp, tile::PermuteOp>(op);
}

bool isElementwiseOnTiles(Operation *op) {
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         !isa<arith::ConstantOp>(op);
}

/// Whether `op` is a tile.reshape that only adds or drops leading unit dims
/// (how the lowering of block graphs restores a tile's rank for its store):
/// an mma.sync accumulator keeps its layout through it, which is the
/// layout of its matrix.
bool reshapesLeadingUnitDims(Operation *op) {
  auto reshape = dyn_cast<tile::ReshapeOp>(op);
  if (!reshape)
    return false;
  auto matrix = [](ArrayRef<int64_t> shape) {
    while (shape.size() > 2 && shape.front() == 1)
      shape = shape.drop_front();
    return shape;
  };
  ArrayRef<int64_t> in = reshape.getInput().getType().getShape();
  ArrayRef<int64_t> out = reshape.getType().getShape();
  return in.size() >= 2 && out.size() >= 2 && matrix(in).size() == 2 &&
         matrix(in) == matrix(out);
}

/// Whether `use` of an mma accumulator needs the tile in the blocked layout:
/// with wgmma, a tile.reduce combines along the rows of that layout and
/// tile.mma stages its multiplicands from it. An mma.sync accumulator is
/// reduced where it lies (ReduceLowering) and staged as a multiplicand
/// from where it lies (forEachStagedChunk: each thread writes its pairs at
/// their places).
bool needsBlockedLayout(OpOperand &use, bool wgmma) {
  if (isa<tile::ReduceOp>(use.getOwner()))
    return wgmma;
  auto mma = dyn_cast<tile::MmaOp>(use.getOwner());
  return wgmma && mma && &use != &mma.getAccMutable();
}

} // namespace

bool tileopt::useWgmma(tile::KernelOp kernel, StringRef chip,
                       int64_t numThreads) {
  const target::Chip *info = target::lookupChip(chip);
  if (!info || !info->wgmma)
    return false;
  bool all = true;
  kernel.walk([&](tile::MmaOp mma) {
    std::string limit = wgmmaLimit(mma, numThreads);
    if (limit.empty())
      return;
    mma.emitRemark("runs on mma.sync, not wgmma: ") << limit;
    all = false;
  });
  return all;
}

/// Marks a tile.mma whose left operand the tile.mma just before it in the
/// same block already staged: the same value, with only ops between them
/// that leave shared memory alone (tile loads into registers, elementwise
/// ops on fragments, index arithmetic and constants). Two products of one
/// activation (a gated MLP's X W1 and X W2) then store X once a step, not
/// twice: on the H200 such a loop waited on the shared-memory instruction
/// queue 43% of the time. MmaLowering leaves a marked mma's left operand
/// where its predecessor put it.
void tileopt::markRestagedLhs(tile::KernelOp kernel) {
  kernel.walk([](Block *block) {
    tile::MmaOp previous;
    for (Operation &op : *block) {
      if (auto mma = dyn_cast<tile::MmaOp>(op)) {
        if (previous && previous.getLhs() == mma.getLhs() &&
            registerStagingLayout(previous, previous.getLhs().getType()) ==
                registerStagingLayout(mma, mma.getLhs().getType()))
          mma->setAttr(kLhsStagedAttr, UnitAttr::get(mma.getContext()));
        previous = mma;
        continue;
      }
      bool keepsSharedMemory = isa<tile::LoadOp, arith::ConstantOp>(op) ||
                               isElementwiseOnTiles(&op) || !hasTensorType(&op);
      if (!keepsSharedMemory || op.getNumRegions() > 0)
        previous = nullptr;
    }
  });
}

LogicalResult tileopt::assignMmaLayouts(tile::KernelOp kernel, bool wgmma) {
  llvm::SetVector<Value> accumulators, redealt, loaded;
  SmallVector<Value> worklist;
  kernel.walk([&](tile::MmaOp mma) {
    worklist.push_back(mma.getAcc());
    worklist.push_back(mma.getResult());
  });
  auto tiedThroughLoop = [&](scf::ForOp loop, unsigned i) {
    worklist.push_back(loop.getInitArgs()[i]);
    worklist.push_back(loop.getRegionIterArgs()[i]);
    worklist.push_back(loop.getResult(i));
    worklist.push_back(loop.getBody()->getTerminator()->getOperand(i));
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!accumulators.insert(value))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return kernel.emitOpError("an mma accumulator is a kernel argument");
      tiedThroughLoop(loop, arg.getArgNumber() - 1);
    } else {
      Operation *producer = value.getDefiningOp();
      if (auto loop = dyn_cast<scf::ForOp>(producer)) {
        tiedThroughLoop(loop, cast<OpResult>(value).getResultNumber());
      } else if (isElementwiseOnTiles(producer)) {
        llvm::append_range(worklist, producer->getOperands());
      } else if (auto constant = dyn_cast<arith::ConstantOp>(producer)) {
        if (!isa<SplatElementsAttr>(constant.getValue()))
          return producer->emitOpError("initializes an mma accumulator; only "
                                       "splat constants can");
      } else if (isa<tile::LoadOp>(producer)) {
        loaded.insert(value);
      } else if (!wgmma && reshapesLeadingUnitDims(producer)) {
        worklist.push_back(producer->getOperand(0));
      } else if (!isa<tile::MmaOp>(producer) && !isRelayout(producer)) {
        return producer->emitOpError(
            "produces an mma accumulator; only tile.mma, tile.load, splat "
            "constants, scf.for and elementwise ops can for now (and "
            "tile.broadcast, reshape and permute, through shared memory)");
      }
    }
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (needsBlockedLayout(use, wgmma)) {
        redealt.insert(value);
      } else if (isa<tile::ReduceOp>(user)) {
        // Reduced in the accumulator layout; the result is blocked.
      } else if (isa<tile::MmaOp>(user)) {
        // The accumulator of a tile.mma, in the worklist from the start, or
        // a multiplicand staged from the accumulator layout.
      } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
        tiedThroughLoop(loop, use.getOperandNumber() - 3);
      } else if (isa<scf::YieldOp>(user) &&
                 isa<scf::ForOp>(user->getParentOp())) {
        tiedThroughLoop(cast<scf::ForOp>(user->getParentOp()),
                        use.getOperandNumber());
      } else if (isElementwiseOnTiles(user)) {
        llvm::append_range(worklist, user->getResults());
        llvm::append_range(worklist, user->getOperands());
      } else if (!wgmma && reshapesLeadingUnitDims(user)) {
        worklist.push_back(user->getResult(0));
      } else if (!isa<tile::StoreOp>(user) && !isRelayout(user)) {
        return user->emitOpError(
            "uses an mma accumulator; only tile.store, elementwise ops and "
            "scf.for take them for now (and tile.broadcast, reshape, "
            "permute, tile.reduce and tile.mma multiplicands, through shared "
            "memory)");
      }
    }
  }
  for (Value value : accumulators) {
    auto type = cast<RankedTensorType>(value.getType());
    value.setType(RankedTensorType::get(
        type.getShape(), type.getElementType(),
        StringAttr::get(kernel.getContext(),
                        wgmma ? kWgmmaAccumulator : kMmaAccumulator)));
  }
  OpBuilder b(kernel.getContext());
  for (Value value : redealt) {
    auto type = cast<RankedTensorType>(value.getType());
    b.setInsertionPointAfterValue(value);
    Value blocked =
        tile::ReshapeOp::create(b, value.getLoc(), type.dropEncoding(), value);
    value.replaceUsesWithIf(blocked, [&](OpOperand &use) {
      return needsBlockedLayout(use, wgmma);
    });
  }
  for (Value value : loaded) {
    auto type = cast<RankedTensorType>(value.getType());
    value.setType(type.dropEncoding());
    b.setInsertionPointAfterValue(value);
    auto redeal = tile::ReshapeOp::create(b, value.getLoc(), type, value);
    value.replaceAllUsesExcept(redeal, redeal);
  }
  return success();
}
