//===- TileDialect.cpp - Tile dialect, types and traits -------------------===//
#include "TileOpt/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileopt::tile;

#include "TileOpt/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "TileOpt/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "TileOpt/Dialect/Tile/IR/TileTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "TileOpt/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TileOpt/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "TileOpt/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TileOpt/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TensorViewType
//===----------------------------------------------------------------------===//

Type TensorViewType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return parser.getChecked<TensorViewType>(loc, parser.getContext(), shape,
                                           elementType);
}

void TensorViewType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t dim : getShape()) {
    if (ShapedType::isDynamic(dim))
      printer << '?';
    else
      printer << dim;
    printer << 'x';
  }
  printer << getElementType() << '>';
}

LogicalResult
TensorViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "a tensor view has at least one dimension";
  for (int64_t dim : shape)
    if (!ShapedType::isDynamic(dim) && dim < 1)
      return emitError() << "tensor view dims must be positive or ?, got "
                         << dim;
  if (!elementType.isIntOrFloat())
    return emitError() << "tensor view elements must be integers or floats, "
                          "got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

LogicalResult mlir::tileopt::tile::verifyPowerOfTwoTiles(Operation *op) {
  auto check = [&](Type type, StringRef role,
                   unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return success();
    if (tensor.getEncoding())
      return op->emitOpError("tile ")
             << role << " #" << index << " carries an encoding; tiles are "
             << "plain tensors (layouts are the code generator's business)";
    for (auto [d, size] : llvm::enumerate(tensor.getShape()))
      if (!llvm::isPowerOf2_64(size))
        return op->emitOpError("tile dim ")
               << size << " (dim " << d << " of " << role << " #" << index
               << ") is not a power of two";
    return success();
  };
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}

LogicalResult mlir::tileopt::tile::verifyInKernel(Operation *op) {
  if (!op->getParentOfType<KernelOp>())
    return op->emitOpError("must be inside a tile.kernel");
  return success();
}
