//===- THOps.cpp - Thread graph dialect -----------------------------------===//
#include "TileOpt/Dialect/TH/IR/THOps.h"

#include "TileOpt/Dialect/Common/AsmUtils.h"
#include "TileOpt/Dialect/Common/ShapeChecks.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::th;

#include "TileOpt/Dialect/TH/IR/THDialect.cpp.inc"

void THDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TileOpt/Dialect/TH/IR/THOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

/// The scalar a thread sees of a value of type `type`.
static Type elementTypeOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> regionArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> operandTypes;
  SMLoc loc = parser.getCurrentLocation();
  Region *body = result.addRegion();
  if (parseBoundOperands(parser, regionArgs, operands, operandTypes,
                         elementTypeOf) ||
      parser.resolveOperands(operands, operandTypes, loc, result.operands) ||
      parser.parseArrowTypeList(result.types) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseRegion(*body, regionArgs))
    return failure();
  return success();
}

void GraphOp::print(OpAsmPrinter &p) {
  p << ' ';
  printBoundOperands(p, getBody().getArguments(), getInputs());
  p.printArrowTypeList(getResultTypes());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult GraphOp::verify() {
  if (getInputs().empty() || getResults().empty())
    return emitOpError("needs at least one input and one result");
  SmallVector<ShapedType> inputs;
  for (Value input : getInputs())
    inputs.push_back(cast<ShapedType>(input.getType()));
  for (Type result : getResultTypes())
    if (failed(verifyBroadcastResult(*this, inputs, cast<ShapedType>(result))))
      return failure();
  return success();
}

LogicalResult GraphOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("region has ")
           << body.getNumArguments() << " arguments for " << getInputs().size()
           << " inputs";
  for (auto [i, arg, input] :
       llvm::enumerate(body.getArguments(), getInputs())) {
    Type expected = elementTypeOf(input.getType());
    if (arg.getType() != expected)
      return emitOpError("region argument #")
             << i << " has type " << arg.getType() << ", expected the element "
             << "type " << expected << " of input #" << i;
  }
  for (Operation &nested : body.without_terminator()) {
    Dialect *dialect = nested.getDialect();
    if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(dialect))
      return nested.emitOpError(
          "is not allowed in a thread graph: it holds scalar arith and math "
          "ops only");
    for (Type type : llvm::concat<const Type>(nested.getOperandTypes(),
                                              nested.getResultTypes()))
      if (!type.isIntOrIndexOrFloat())
        return nested.emitOpError("works on ")
               << type << ": a thread graph computes on scalars only";
  }
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("region must end in th.yield");
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError("yields ")
           << yield.getValues().size() << " values for " << getNumResults()
           << " results";
  for (auto [i, value, result] :
       llvm::enumerate(yield.getValues(), getResults())) {
    Type expected = elementTypeOf(result.getType());
    if (value.getType() != expected)
      return yield.emitOpError("value #")
             << i << " has type " << value.getType() << ", expected "
             << expected << ", the element type of result #" << i;
  }
  return success();
}

#define GET_OP_CLASSES
#include "TileOpt/Dialect/TH/IR/THOps.cpp.inc"
