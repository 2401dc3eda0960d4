//===- TileOps.cpp - cuTile-style tile programs ---------------------------===//
#include "TileOpt/Dialect/Tile/IR/TileOps.h"

#include "TileOpt/Dialect/Common/ShapeChecks.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tile;

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult KernelOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError("returns nothing: a tile kernel writes its outputs "
                       "with tile.store");
  if (getBody().empty())
    return emitOpError("needs a body");
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<TensorViewType>(type) && !type.isIntOrIndexOrFloat())
      return emitOpError("argument #")
             << i << " has type " << type
             << "; kernel arguments are tensor views and scalars";
  if (std::optional<uint32_t> occupancy = getOccupancy())
    if (*occupancy < 1 || *occupancy > 32)
      return emitOpError("occupancy ")
             << *occupancy << " is outside 1-32 blocks per SM";
  if (std::optional<uint32_t> numCtas = getNumCtas())
    if (*numCtas < 1 || *numCtas > 16 || !llvm::isPowerOf2_32(*numCtas))
      return emitOpError("num_ctas ")
             << *numCtas << " is not one of 1, 2, 4, 8, 16";
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Checks a load or store of `tile` at `indices` of `view`.
static LogicalResult verifyAccess(Operation *op, TensorViewType view,
                                  RankedTensorType tile, size_t numIndices,
                                  std::optional<uint32_t> latency) {
  if (numIndices != static_cast<size_t>(view.getRank()))
    return op->emitOpError("needs ")
           << view.getRank() << " tile-space indices for a rank-"
           << view.getRank() << " view, got " << numIndices;
  if (tile.getRank() != view.getRank())
    return op->emitOpError("tile rank ")
           << tile.getRank() << " differs from the view rank "
           << view.getRank();
  if (tile.getElementType() != view.getElementType())
    return op->emitOpError("tile element type ")
           << tile.getElementType() << " differs from the view's "
           << view.getElementType();
  if (latency && (*latency < 1 || *latency > 10))
    return op->emitOpError("latency ") << *latency << " is outside 1-10";
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyAccess(*this, getView().getType(), getResult().getType(),
                      getIndices().size(), getLatency());
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getView().getType(), getValue().getType(),
                      getIndices().size(), getLatency());
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

/// Whether tensor cores multiply `operand` elements into `acc` elements.
static bool isSupportedMma(Type operand, Type acc) {
  if (operand.isF16())
    return acc.isF16() || acc.isF32();
  if (operand.isBF16() || operand.isF32())
    return acc.isF32();
  if (isa<Float8E4M3FNType, Float8E5M2Type>(operand))
    return acc.isF16() || acc.isF32();
  if (operand.isInteger(8))
    return acc.isInteger(32);
  return false;
}

LogicalResult MmaOp::verify() {
  RankedTensorType lhs = getLhs().getType(), rhs = getRhs().getType(),
                   acc = getAcc().getType();
  if (lhs.getRank() > 3)
    return emitOpError("takes rank-2 tiles, or rank 3 with a batch dim; got "
                       "rank ")
           << lhs.getRank();
  if (failed(verifyMatmulShapes(*this, lhs, rhs, acc)))
    return failure();
  if (lhs.getElementType() != rhs.getElementType())
    return emitOpError("operand element types differ: ")
           << lhs.getElementType() << " and " << rhs.getElementType();
  if (!isSupportedMma(lhs.getElementType(), acc.getElementType()))
    return emitOpError("tensor cores do not multiply ")
           << lhs.getElementType() << " into a " << acc.getElementType()
           << " accumulator";
  return success();
}

LogicalResult ReduceOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  int64_t dim = getDim();
  if (failed(verifyDimIndex(*this, dim, input.getRank(), "reduction dim")) ||
      failed(verifySameElementType(*this, {input, result})))
    return failure();
  SmallVector<int64_t> expected(input.getShape());
  expected.erase(expected.begin() + dim);
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result must drop dim ")
           << dim << " of the input, got " << result;
  return success();
}

LogicalResult ScanOp::verify() {
  return verifyDimIndex(*this, getDim(), getInput().getType().getRank(),
                        "scan dim");
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  if (failed(verifySameElementType(*this, {input, result})))
    return failure();
  if (input.getRank() != result.getRank())
    return emitOpError("keeps the rank: input has rank ")
           << input.getRank() << ", result " << result.getRank()
           << " (use tile.reshape to add unit dims)";
  for (auto [d, in, out] :
       llvm::enumerate(input.getShape(), result.getShape()))
    if (in != out && in != 1)
      return emitOpError("cannot broadcast dim ")
             << d << " of size " << in << " to " << out;
  return success();
}

LogicalResult SplatOp::verify() {
  if (getInput().getType() != getResult().getType().getElementType())
    return emitOpError("scalar type ")
           << getInput().getType() << " differs from the tile element type "
           << getResult().getType().getElementType();
  return success();
}

LogicalResult IotaOp::verify() {
  RankedTensorType type = getResult().getType();
  if (type.getRank() != 1 || !type.getElementType().isSignlessInteger())
    return emitOpError("produces a 1-D tile of signless integers, got ")
           << type;
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  if (width < 64 && type.getDimSize(0) - 1 > (int64_t{1} << (width - 1)) - 1)
    return emitOpError("cannot count to ")
           << type.getDimSize(0) - 1 << " in " << type.getElementType();
  return success();
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  if (failed(verifySameElementType(*this, {input, result})))
    return failure();
  if (input.getNumElements() != result.getNumElements())
    return emitOpError("cannot reshape ")
           << input.getNumElements() << " elements into "
           << result.getNumElements();
  return success();
}

LogicalResult PermuteOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  if (failed(verifySameElementType(*this, {input, result})))
    return failure();
  return verifyPermutation(*this, input, result, getPermutation());
}

#define GET_OP_CLASSES
#include "TileOpt/Dialect/Tile/IR/TileOps.cpp.inc"
