//===- MmaStaging.cpp - Which tile.mma loops the code generator stages ----===//
#include "TileOpt/Transforms/MmaStaging.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tileopt;

bool tileopt::hasTensorType(Operation *op) {
  auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

SmallVector<tile::LoadOp> tileopt::mmaMultiplicandLoads(scf::ForOp loop) {
  llvm::SetVector<Operation *> loads;
  for (auto mma : loop.getBody()->getOps<tile::MmaOp>())
    for (Value operand : {mma.getLhs(), mma.getRhs()})
      if (auto load = operand.getDefiningOp<tile::LoadOp>())
        loads.insert(load);
  SmallVector<tile::LoadOp> inBodyOrder;
  for (auto load : loop.getBody()->getOps<tile::LoadOp>())
    if (loads.contains(load))
      inBodyOrder.push_back(load);
  return inBodyOrder;
}

/// Why the indices of `load` cannot be computed for a later iteration of
/// `loop`, or "": they must come from pure scalar ops on the induction
/// variable and values from outside the loop.
static std::string indexObstacle(scf::ForOp loop, tile::LoadOp load) {
  SmallVector<Value> worklist(load.getIndices());
  llvm::SmallPtrSet<Value, 8> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second || value == loop.getInductionVar() ||
        loop.isDefinedOutsideOfLoop(value))
      continue;
    Operation *producer = value.getDefiningOp();
    if (!producer || producer->getParentOp() != loop || !isPure(producer) ||
        producer->getNumRegions() > 0 || hasTensorType(producer))
      return "the indices of the loads must come from scalar arithmetic on "
             "the induction variable";
    llvm::append_range(worklist, producer->getOperands());
  }
  return "";
}

std::string tileopt::mmaStagingObstacle(scf::ForOp loop) {
  Block *body = loop.getBody();
  auto mmas = body->getOps<tile::MmaOp>();
  if (mmas.empty())
    return "the loop holds no tile.mma";
  for (tile::MmaOp mma : mmas) {
    auto lhsLoad = mma.getLhs().getDefiningOp<tile::LoadOp>();
    auto rhsLoad = mma.getRhs().getDefiningOp<tile::LoadOp>();
    if (!lhsLoad || !rhsLoad || lhsLoad->getParentOp() != loop ||
        rhsLoad->getParentOp() != loop)
      return "both operands of every tile.mma must be loaded in the scf.for "
             "around it";
    auto acc = dyn_cast<BlockArgument>(mma.getAcc());
    if (!acc || acc.getOwner() != body || acc == loop.getInductionVar() ||
        !acc.hasOneUse() || !mma->hasOneUse() ||
        body->getTerminator()->getOperand(acc.getArgNumber() - 1) !=
            mma.getResult())
      return "the loop must carry each accumulator from one tile.mma to the "
             "next, and use it nowhere else";
  }
  for (Operation &op : body->without_terminator()) {
    if (isa<tile::MmaOp>(op))
      continue;
    if (op.getNumRegions() > 0)
      return "the loop body may not hold ops with regions";
    if (!isPure(&op) && !isa<tile::LoadOp>(op))
      return "the loop body may hold only loads and pure ops";
  }
  for (tile::LoadOp load : mmaMultiplicandLoads(loop)) {
    if (!llvm::all_of(load->getUsers(),
                      [](Operation *user) { return isa<tile::MmaOp>(user); }))
      return "the loaded multiplicands must feed tile.mma ops alone";
    if (std::string why = indexObstacle(loop, load); !why.empty())
      return why;
  }
  return "";
}

std::string tileopt::mmaRingObstacle(scf::ForOp loop) {
  SmallVector<tile::LoadOp> loads = mmaMultiplicandLoads(loop);
  if (loads.empty())
    return "the loop holds no tile.mma";
  Type elementType = loads.front().getType().getElementType();
  int64_t stageBytes = 0;
  for (tile::LoadOp load : loads) {
    if (load.getType().getElementType() != elementType)
      return "the staged tiles must have one element type";
    if (!loop.isDefinedOutsideOfLoop(load.getView()))
      return "the views must come from outside the loop";
    std::optional<tile::PaddingMode> padding = load.getPadding();
    if (padding && *padding != tile::PaddingMode::zero &&
        *padding != tile::PaddingMode::undetermined)
      return "cp.async pads with zeros only";
    stageBytes += load.getType().getNumElements() *
                  load.getType().getElementTypeBitWidth() / 8;
  }
  if (2 * stageBytes > kMaxSharedBytesPerBlock)
    return "two stages of " + std::to_string(stageBytes) +
           " bytes do not fit in shared memory";
  return "";
}

bool tileopt::isStagedMmaLoop(scf::ForOp loop) {
  if (!mmaStagingObstacle(loop).empty() || !mmaRingObstacle(loop).empty())
    return false;
  return llvm::any_of(mmaMultiplicandLoads(loop), [](tile::LoadOp load) {
    return load.getLatency() && *load.getLatency() >= 2;
  });
}
