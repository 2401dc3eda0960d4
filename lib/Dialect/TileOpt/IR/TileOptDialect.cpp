//===- TileOptDialect.cpp - The artifact and launch ABI -------------------===//
#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tileopt;

#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.cpp.inc"

void TileOptDialect::initialize() {}

/// Whether `value` (possibly null) is an array of integers.
static bool isIntegerArray(Attribute value) {
  auto array = dyn_cast_or_null<ArrayAttr>(value);
  return array && llvm::all_of(array, llvm::IsaPred<IntegerAttr>);
}

/// Checks one entry of `tileopt.tensor_maps`.
static LogicalResult verifyTensorMap(Operation *op, StringRef name,
                                     Attribute map) {
  auto entry = dyn_cast<DictionaryAttr>(map);
  if (!entry || !isa_and_nonnull<IntegerAttr>(entry.get("view")) ||
      !isIntegerArray(entry.get("box")) || entry.size() != 2)
    return op->emitError() << "'" << name
                           << "' entries are {view = <i64>, box = [<i64>, "
                              "...]}, got "
                           << map;
  return success();
}

LogicalResult TileOptDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  auto expect = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitError() << "'" << name << "' must be " << what << ", got "
                           << value;
  };
  if (name == NameAttrHelper::getNameStr() ||
      name == OutputAttrHelper::getNameStr() ||
      name == ScratchAttrHelper::getNameStr() ||
      name == ConstantAttrHelper::getNameStr())
    return op->emitError() << "'" << name
                           << "' marks an argument of a host function, not "
                              "an op";
  if (!isa<FunctionOpInterface>(op))
    return op->emitError() << "'" << name << "' belongs on a function, not on '"
                           << op->getName() << "'";
  if (name == ReferenceAttrHelper::getNameStr())
    return expect(isa<StringAttr>(value), "a string naming a reference");
  if (name == ReferenceArgsAttrHelper::getNameStr()) {
    auto args = dyn_cast<DictionaryAttr>(value);
    if (failed(expect(args && llvm::all_of(args.getValue(),
                                           [](NamedAttribute arg) {
                                             return isa<FloatAttr>(
                                                 arg.getValue());
                                           }),
                      "a dictionary of float arguments")))
      return failure();
    if (!op->hasAttr(ReferenceAttrHelper::getNameStr()))
      return op->emitError()
             << "'" << name << "' needs a '"
             << ReferenceAttrHelper::getNameStr() << "' to take them";
    return success();
  }
  if (name == DynamicSharedMemoryAttrHelper::getNameStr()) {
    auto bytes = dyn_cast<IntegerAttr>(value);
    return expect(bytes && bytes.getType().isInteger(64) && bytes.getInt() > 0,
                  "a positive i64 count of bytes");
  }
  if (name == TensorMapsAttrHelper::getNameStr()) {
    auto maps = dyn_cast<ArrayAttr>(value);
    if (failed(expect(maps != nullptr, "an array of tensor maps")))
      return failure();
    for (Attribute map : maps)
      if (failed(verifyTensorMap(op, name, map)))
        return failure();
    return success();
  }
  if (name == GridSyncAttrHelper::getNameStr())
    return expect(isa<UnitAttr>(value), "a unit attribute");
  return op->emitError() << "'" << name
                         << "' is not an attribute of the tileopt dialect";
}

LogicalResult TileOptDialect::verifyRegionArgAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned argIndex,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (name != NameAttrHelper::getNameStr() &&
      name != OutputAttrHelper::getNameStr() &&
      name != ScratchAttrHelper::getNameStr() &&
      name != ConstantAttrHelper::getNameStr())
    return op->emitError() << "'" << name
                           << "' is not an attribute of a function argument";
  // A tensor argument of a function not lowered yet names the buffer it
  // becomes, or holds its contents; only a buffer is an output or scratch.
  Type type = func ? func.getArgumentTypes()[argIndex] : Type();
  bool onTensors = name != OutputAttrHelper::getNameStr() &&
                   name != ScratchAttrHelper::getNameStr();
  bool buffer = isa_and_nonnull<MemRefType>(type) ||
                (onTensors && isa_and_nonnull<RankedTensorType>(type));
  if (!buffer)
    return op->emitError() << "'" << name << "' marks a buffer: argument #"
                           << argIndex << " must be a memref"
                           << (onTensors ? " or a tensor" : "")
                           << " of a function";
  if (name == OutputAttrHelper::getNameStr() ||
      name == ScratchAttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' must be a unit attribute, got "
             << attr.getValue();
    // One role a buffer: the unit roles are checked at the second one.
    bool isOutput = name == OutputAttrHelper::getNameStr();
    if (func.getArgAttr(argIndex, ConstantAttrHelper::getNameStr()))
      return op->emitError()
             << "argument #" << argIndex << " is both "
             << (isOutput ? "an output" : "scratch") << " and a constant";
    if (isOutput && func.getArgAttr(argIndex, ScratchAttrHelper::getNameStr()))
      return op->emitError()
             << "argument #" << argIndex << " is both an output and scratch";
    return success();
  }
  if (name == ConstantAttrHelper::getNameStr()) {
    auto values = dyn_cast<DenseElementsAttr>(attr.getValue());
    auto shaped = cast<ShapedType>(type);
    if (!values || values.getType().getShape() != shaped.getShape() ||
        values.getElementType() != shaped.getElementType())
      return op->emitError()
             << "'" << name << "' must be dense elements of argument #"
             << argIndex << "'s shape and element type (" << type
             << "), got " << attr.getValue();
    return success();
  }
  auto bufferName = dyn_cast<StringAttr>(attr.getValue());
  if (!bufferName || bufferName.empty())
    return op->emitError() << "'" << name
                           << "' must be a non-empty string, got "
                           << attr.getValue();
  for (unsigned other = 0; other < argIndex; ++other)
    if (func.getArgAttr(other, name) == bufferName)
      return op->emitError() << "arguments #" << other << " and #" << argIndex
                             << " are both buffer " << bufferName
                             << ": buffer names must be unique";
  return success();
}
