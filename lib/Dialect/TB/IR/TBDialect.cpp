//===- TBDialect.cpp - Block graph dialect and types ----------------------===//
#include "TileOpt/Dialect/TB/IR/TBDialect.h"
#include "TileOpt/Dialect/TB/IR/TBOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileopt::tb;

#include "TileOpt/Dialect/TB/IR/TBDialect.cpp.inc"
#include "TileOpt/Dialect/TB/IR/TBEnums.cpp.inc"
#include "TileOpt/Dialect/TB/IR/TBInterfaces.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "TileOpt/Dialect/TB/IR/TBTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "TileOpt/Dialect/TB/IR/TBAttrs.cpp.inc"

void TBDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TileOpt/Dialect/TB/IR/TBOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "TileOpt/Dialect/TB/IR/TBTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TileOpt/Dialect/TB/IR/TBAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return parser.getChecked<TileType>(loc, parser.getContext(), shape,
                                     elementType);
}

void TileType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t dim : getShape())
    printer << dim << 'x';
  printer << getElementType() << '>';
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "a tile has at least one dimension";
  for (int64_t dim : shape)
    if (dim < 1)
      return emitError() << "tile dims must be positive, got " << dim;
  if (!elementType.isIntOrFloat())
    return emitError() << "tile elements must be integers or floats, got "
                       << elementType;
  return success();
}

TileType TileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                             Type elementType) const {
  return TileType::get(shape.value_or(getShape()), elementType);
}
