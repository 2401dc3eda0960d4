//===- TKOps.cpp - Kernel graph dialect -----------------------------------===//
#include "TileOpt/Dialect/TK/IR/TKOps.h"

#include "TileOpt/Dialect/Common/AsmUtils.h"
#include "TileOpt/Dialect/Common/ScalarRegion.h"
#include "TileOpt/Dialect/Common/ShapeChecks.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tk;

#include "TileOpt/Dialect/TK/IR/TKDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "TileOpt/Dialect/TK/IR/TKAttrs.cpp.inc"

void TKDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TileOpt/Dialect/TK/IR/TKOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TileOpt/Dialect/TK/IR/TKAttrs.cpp.inc"
      >();
}

static SmallVector<ShapedType> shapedTypes(TypeRange types) {
  return llvm::map_to_vector(types,
                             [](Type t) { return cast<ShapedType>(t); });
}

//===----------------------------------------------------------------------===//
// Predefined kernels
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  SmallVector<ShapedType> types = shapedTypes(
      {getLhs().getType(), getRhs().getType(), getResult().getType()});
  if (failed(verifySameElementType(*this, types)) ||
      failed(verifyFloatElements(*this, types)))
    return failure();
  return verifyBroadcastMatmulShapes(*this, types[0], types[1], types[2]);
}

LogicalResult UnaryOp::verify() {
  std::optional<APFloat> scalar;
  if (FloatAttr attr = getScalarAttr())
    scalar = attr.getValue();
  if (failed(verifyUnaryScalar(*this, getKind(), scalar)))
    return failure();
  return verifyFloatElements(*this, shapedTypes(getResult().getType()));
}

LogicalResult BinaryOp::verify() {
  SmallVector<ShapedType> types = shapedTypes(
      {getLhs().getType(), getRhs().getType(), getResult().getType()});
  if (failed(verifySameElementType(*this, types)) ||
      failed(verifyFloatElements(*this, types)))
    return failure();
  return verifyBroadcastResult(*this, {types[0], types[1]}, types[2]);
}

ParseResult MapOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseScalarRegionOp(parser, result);
}

void MapOp::print(OpAsmPrinter &p) { printScalarRegionOp(p, *this); }

LogicalResult MapOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  SmallVector<ShapedType> types = shapedTypes(getInputs().getTypes());
  auto result = cast<ShapedType>(getResult().getType());
  if (failed(verifyFloatElements(*this, types)) ||
      failed(verifyFloatElements(*this, {result})))
    return failure();
  return verifyBroadcastsTo(*this, types, result);
}

LogicalResult MapOp::verifyRegions() {
  return verifyScalarRegion(*this, "tk.map", getInputs(),
                            YieldOp::getOperationName());
}

//===----------------------------------------------------------------------===//
// Structured ops TileOpt does not model
//===----------------------------------------------------------------------===//

ParseResult StructuredOp::parse(OpAsmParser &parser, OperationState &result) {
  // The region's arguments are the operands themselves (tensors).
  return parseBoundRegionOp(parser, result, [](Type type) { return type; });
}

void StructuredOp::print(OpAsmPrinter &p) {
  p << ' ';
  printBoundRegionOp(p, *this);
}

linalg::GenericOp StructuredOp::getGeneric() {
  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  return yield.getValue().getDefiningOp<linalg::GenericOp>();
}

LogicalResult StructuredOp::verify() {
  SmallVector<ShapedType> types = shapedTypes(getInputs().getTypes());
  types.push_back(cast<ShapedType>(getResult().getType()));
  return verifyFloatElements(*this, types);
}

LogicalResult StructuredOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("region has ")
           << body.getNumArguments() << " arguments for " << getInputs().size()
           << " inputs";
  for (auto [i, arg, input] : llvm::enumerate(body.getArguments(), getInputs()))
    if (arg.getType() != input.getType())
      return emitOpError("region argument #")
             << i << " has type " << arg.getType() << ", expected "
             << input.getType() << ", the type of input #" << i;
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || yield.getValue().getType() != getResult().getType())
    return emitOpError("region must end in a tk.yield of a ")
           << getResult().getType();
  linalg::GenericOp generic = getGeneric();
  if (!generic)
    return emitOpError("must yield the result of a linalg.generic");
  if (generic.getNumDpsInits() != 1 || !generic.hasPureTensorSemantics())
    return generic.emitOpError(
        "in a tk.structured must have one init and work on tensors");
  for (Operation &op : body.without_terminator()) {
    if (&op == generic.getOperation())
      continue;
    if (!isa<tensor::EmptyOp, linalg::FillOp, arith::ConstantOp>(op))
      return op.emitOpError("is not allowed in a tk.structured: it holds one "
                            "linalg.generic and the tensor.empty, "
                            "linalg.fill and arith.constant ops of its init");
  }
  for (Operation &op : generic.getRegion().front())
    if (!isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) &&
        !isa<linalg::IndexOp, linalg::YieldOp, tensor::ExtractOp>(op))
      return op.emitOpError("is not allowed in the payload of a "
                            "tk.structured: it takes arith and math ops, "
                            "linalg.index and tensor.extract");
  return success();
}

LogicalResult ReduceOp::verify() {
  SmallVector<ShapedType> types =
      shapedTypes({getInput().getType(), getResult().getType()});
  if (failed(verifySameElementType(*this, types)) ||
      failed(verifyFloatElements(*this, types)))
    return failure();
  return verifyReduceShapes(*this, types[0], types[1], getDim(),
                            /*reducedSize=*/1);
}

LogicalResult RmsNormOp::verify() {
  auto type = cast<ShapedType>(getResult().getType());
  if (failed(verifyRmsNorm(*this, type, getEpsilon())))
    return failure();
  return verifyFloatElements(*this, {type});
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  SmallVector<ShapedType> types = shapedTypes(getInputs().getTypes());
  ShapedType result = cast<ShapedType>(getResult().getType());
  types.push_back(result);
  if (failed(verifySameElementType(*this, types)))
    return failure();
  return verifyConcatShapes(*this, ArrayRef(types).drop_back(), result,
                            getDim(), "operand", "result");
}

LogicalResult SplitOp::verify() {
  if (getResults().empty())
    return emitOpError("needs at least one result");
  // A split is a concat read backwards: the input is the concatenation of
  // the results.
  SmallVector<ShapedType> types = shapedTypes(getResults().getTypes());
  ShapedType input = cast<ShapedType>(getInput().getType());
  types.push_back(input);
  if (failed(verifySameElementType(*this, types)))
    return failure();
  return verifyConcatShapes(*this, ArrayRef(types).drop_back(), input,
                            getDim(), "result", "input");
}

LogicalResult ReshapeOp::verify() {
  auto input = cast<ShapedType>(getInput().getType());
  auto result = cast<ShapedType>(getResult().getType());
  if (failed(verifySameElementType(*this, {input, result})))
    return failure();
  if (input.getNumElements() != result.getNumElements())
    return emitOpError("cannot reshape ")
           << input.getNumElements() << " elements into "
           << result.getNumElements();
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

LogicalResult TransposeOp::verify() {
  auto input = cast<ShapedType>(getInput().getType());
  auto result = cast<ShapedType>(getResult().getType());
  if (failed(verifySameElementType(*this, {input, result})))
    return failure();
  return verifyPermutation(*this, input, result, getPermutation());
}

//===----------------------------------------------------------------------===//
// FusedOp
//===----------------------------------------------------------------------===//

/// Parses `[a, b, c]` into a DenseI64ArrayAttr named `name`.
static ParseResult parseIntList(OpAsmParser &parser, OperationState &result,
                                StringRef name) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  result.addAttribute(name, parser.getBuilder().getDenseI64ArrayAttr(values));
  return success();
}

ParseResult FusedOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr gridName = getGridDimsAttrName(result.name);
  StringAttr blockName = getBlockDimsAttrName(result.name);
  StringAttr forloopName = getForloopRangeAttrName(result.name);
  int64_t forloop;
  if (parser.parseKeyword("grid") ||
      parseIntList(parser, result, gridName.getValue()) ||
      parser.parseKeyword("block") ||
      parseIntList(parser, result, blockName.getValue()) ||
      parser.parseKeyword("forloop") || parser.parseInteger(forloop))
    return failure();
  result.addAttribute(forloopName,
                      parser.getBuilder().getI64IntegerAttr(forloop));
  return parseBoundRegionOp(parser, result, [](Type t) { return t; });
}

void FusedOp::print(OpAsmPrinter &p) {
  p << " grid [" << getGridDims() << "] block [" << getBlockDims()
    << "] forloop " << getForloopRangeAttr().getInt() << ' ';
  printBoundRegionOp(p, *this,
                     {getGridDimsAttrName(), getBlockDimsAttrName(),
                      getForloopRangeAttrName()});
}

LogicalResult FusedOp::verify() {
  // Launch limits of every CUDA GPU TileOpt targets (compute capability >= 7).
  static constexpr int64_t kMaxGrid[] = {(int64_t{1} << 31) - 1, 65535, 65535};
  static constexpr int64_t kMaxBlock[] = {1024, 1024, 64};
  static constexpr int64_t kMaxThreadsPerBlock = 1024;
  static constexpr StringLiteral kDimNames[] = {"x", "y", "z"};
  ArrayRef<int64_t> grid = getGridDims(), block = getBlockDims();
  if (grid.size() != 3 || block.size() != 3)
    return emitOpError("grid and block need three dims (x, y, z), got ")
           << grid.size() << " and " << block.size();
  for (int i = 0; i < 3; ++i) {
    if (grid[i] < 1 || grid[i] > kMaxGrid[i])
      return emitOpError("grid dim ")
             << kDimNames[i] << " is " << grid[i] << ", must be in [1, "
             << kMaxGrid[i] << "]";
    if (block[i] < 1 || block[i] > kMaxBlock[i])
      return emitOpError("block dim ")
             << kDimNames[i] << " is " << block[i] << ", must be in [1, "
             << kMaxBlock[i] << "]";
  }
  int64_t threads = block[0] * block[1] * block[2];
  if (threads > kMaxThreadsPerBlock)
    return emitOpError("a block of ")
           << threads << " threads exceeds the limit of "
           << kMaxThreadsPerBlock;
  int64_t forloop = getForloopRangeAttr().getInt();
  if (forloop < 1)
    return emitOpError("forloop range must be at least 1, got ") << forloop;
  if (getResults().empty())
    return emitOpError("must produce at least one output");
  return success();
}

LogicalResult FusedOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("block graph has ")
           << body.getNumArguments() << " arguments for " << getInputs().size()
           << " inputs";
  for (auto [i, arg, input] :
       llvm::enumerate(body.getArguments(), getInputs()))
    if (arg.getType() != input.getType())
      return emitOpError("block graph argument #")
             << i << " has type " << arg.getType() << " but input #" << i
             << " is " << input.getType();
  return tb::verifyBlockGraph(*this);
}

/// Whether the function returns `value`.
static bool isReturned(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    return user->hasTrait<OpTrait::IsTerminator>();
  });
}

bool ReshapeOp::isView() {
  return !isReturned(getResult()) || writesResultBuffer();
}

bool ReshapeOp::writesResultBuffer() {
  Operation *producer = getInput().getDefiningOp();
  return producer && !producer->hasTrait<LayoutChange>() &&
         getInput().hasOneUse() && isReturned(getResult());
}

bool TransposeOp::readByKernelsOnly() {
  return llvm::none_of(getResult().getUsers(), [](Operation *user) {
    return user->hasTrait<OpTrait::IsTerminator>() ||
           user->hasTrait<LayoutChange>() || isa<StructuredOp>(user);
  });
}

bool tk::isFreeLayoutChange(Operation *op) {
  if (auto transpose = dyn_cast<TransposeOp>(op))
    return transpose.readByKernelsOnly();
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return reshape.isView();
  return false;
}

MapOp tk::createIdentityMap(OpBuilder &b, Location loc, Value tensor,
                            ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto map = MapOp::create(b, loc, type.clone(shape), ValueRange{tensor});
  OpBuilder::InsertionGuard guard(b);
  Block *body = b.createBlock(&map.getBody());
  YieldOp::create(b, loc, body->addArgument(type.getElementType(), loc));
  return map;
}

#define GET_OP_CLASSES
#include "TileOpt/Dialect/TK/IR/TKOps.cpp.inc"
