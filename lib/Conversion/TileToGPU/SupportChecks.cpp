//===- SupportChecks.cpp - What the tile code generator takes -------------===//
//
// Every limit of the code generator, checked before anything is rewritten,
// so that a kernel it cannot take gets one diagnostic at the op, naming the
// limit.
//
//===----------------------------------------------------------------------===//
#include "StagedMmaLoop.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

namespace {

/// A fragment over this many elements per thread would spill registers.
constexpr int64_t kMaxFragmentSize = 256;

/// tile.reduce and tile.scan combine along the last dim (`verb` names the
/// op in the message); a scan, of a tile that every thread holds a part of.
LogicalResult checkLastDimCombine(Operation *op, RankedTensorType input,
                                  int64_t dim, StringRef verb,
                                  int64_t numThreads) {
  if (dim != input.getRank() - 1)
    return op->emitOpError()
           << verb << "s dim " << dim << "; the code generator " << verb
           << "s the last dim only (permute first)";
  if (isa<tile::ScanOp>(op) && layoutOf(input, numThreads).replicated)
    return op->emitOpError("input has ")
           << input.getNumElements() << " elements, fewer than the "
           << numThreads << " threads of a block";
  return success();
}

} // namespace

LogicalResult tileopt::checkTileKernel(tile::KernelOp kernel,
                                       int64_t numThreads, bool swizzle) {
  WalkResult walk = kernel.walk([&](Operation *op) -> WalkResult {
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                              op->getResultTypes())) {
      if (auto tensor = dyn_cast<RankedTensorType>(type)) {
        FragmentLayout layout = layoutOf(tensor, numThreads);
        if (layout.fragmentSize() > kMaxFragmentSize)
          return op->emitOpError("tile ")
                 << tensor << " gives each of " << numThreads << " threads "
                 << layout.fragmentSize() << " elements, over the limit of "
                 << kMaxFragmentSize << ": use a smaller tile or more warps";
      }
      if (auto view = dyn_cast<tile::TensorViewType>(type))
        if (view.getElementType().isInteger(1))
          return op->emitOpError("views of i1 are not supported: store "
                                 "booleans as i8");
    }
    if (auto mma = dyn_cast<tile::MmaOp>(op)) {
      RankedTensorType lhs = mma.getLhs().getType();
      Type operand = lhs.getElementType();
      if (lhs.getRank() != 2 || !(operand.isF16() || operand.isBF16()) ||
          !mma.getAcc().getType().getElementType().isF32())
        return op->emitOpError("on tensor cores takes rank-2 f16 or bf16 "
                               "operands and an f32 accumulator for now");
      ArrayRef<int64_t> acc = mma.getAcc().getType().getShape();
      auto [warpsM, warpsN] = FragmentLayout::mmaWarpGrid(acc, numThreads);
      if (acc[0] % (16 * warpsM) != 0 || acc[1] % (8 * warpsN) != 0 ||
          lhs.getDimSize(1) % 16 != 0)
        return op->emitOpError("needs M a multiple of ")
               << 16 * warpsM << ", N of " << 8 * warpsN
               << " and K of 16 for mma.sync m16n8k16 on " << warpsM << "x"
               << warpsN << " warps";
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      stagedMmaLoop(loop, numThreads, swizzle, /*warn=*/true);
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
