//===- MmaStaging.cpp - Which tile.mma loops the code generator stages ----===//
#include "TileOpt/Transforms/MmaStaging.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

bool tileopt::hasTensorType(Operation *op) {
  auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

std::string tileopt::mmaStagingObstacle(tile::MmaOp mma) {
  auto lhsLoad = mma.getLhs().getDefiningOp<tile::LoadOp>();
  auto rhsLoad = mma.getRhs().getDefiningOp<tile::LoadOp>();
  auto loop = dyn_cast<scf::ForOp>(mma->getParentOp());
  if (!loop || !lhsLoad || !rhsLoad || lhsLoad->getParentOp() != loop ||
      rhsLoad->getParentOp() != loop)
    return "both operands of the tile.mma must be loaded in the scf.for "
           "around it";
  if (lhsLoad == rhsLoad || !lhsLoad->hasOneUse() || !rhsLoad->hasOneUse())
    return "the loaded tiles must feed the tile.mma alone";
  if (loop.getNumRegionIterArgs() != 1 ||
      mma.getAcc() != loop.getRegionIterArgs().front() ||
      loop.getBody()->getTerminator()->getOperand(0) != mma.getResult())
    return "the loop must carry the accumulator alone, from one tile.mma to "
           "the next";
  for (Operation &op : loop.getBody()->without_terminator())
    if (&op != mma && &op != lhsLoad && &op != rhsLoad &&
        (!isPure(&op) || op.getNumRegions() > 0 || hasTensorType(&op)))
      return "the loop body may hold only the loads, the tile.mma and "
             "scalar index arithmetic";
  return "";
}
