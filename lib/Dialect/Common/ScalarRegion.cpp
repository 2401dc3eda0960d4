//===- ScalarRegion.cpp - Regions of per-element scalar code --------------===//
#include "TileOpt/Dialect/Common/ScalarRegion.h"

#include "TileOpt/Dialect/Common/AsmUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tileopt;

Type tileopt::scalarTypeOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

LogicalResult tileopt::verifyScalarRegion(Operation *op, StringRef kind,
                                          ValueRange inputs,
                                          StringRef terminatorName) {
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != inputs.size())
    return op->emitOpError("region has ")
           << body.getNumArguments() << " arguments for " << inputs.size()
           << " inputs";
  for (auto [i, arg, input] : llvm::enumerate(body.getArguments(), inputs)) {
    Type expected = scalarTypeOf(input.getType());
    if (arg.getType() != expected)
      return op->emitOpError("region argument #")
             << i << " has type " << arg.getType() << ", expected the element "
             << "type " << expected << " of input #" << i;
  }
  for (Operation &nested : body.without_terminator()) {
    Dialect *dialect = nested.getDialect();
    if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(dialect))
      return nested.emitOpError("is not allowed in a ")
             << kind << ": it holds scalar arith and math ops only";
    for (Type type : llvm::concat<const Type>(nested.getOperandTypes(),
                                              nested.getResultTypes()))
      if (!type.isIntOrIndexOrFloat())
        return nested.emitOpError("works on ")
               << type << ": a " << kind << " computes on scalars only";
  }
  Operation *terminator = body.getTerminator();
  if (terminator->getName().getStringRef() != terminatorName)
    return op->emitOpError("region must end in ") << terminatorName;
  if (terminator->getNumOperands() != op->getNumResults())
    return terminator->emitOpError("yields ")
           << terminator->getNumOperands() << " values for "
           << op->getNumResults() << " results";
  for (auto [i, value, result] :
       llvm::enumerate(terminator->getOperands(), op->getResults())) {
    Type expected = scalarTypeOf(result.getType());
    if (value.getType() != expected)
      return terminator->emitOpError("value #")
             << i << " has type " << value.getType() << ", expected "
             << expected << ", the element type of result #" << i;
  }
  return success();
}

ParseResult tileopt::parseScalarRegionOp(OpAsmParser &parser,
                                         OperationState &result) {
  return parseBoundRegionOp(parser, result, scalarTypeOf);
}

void tileopt::printScalarRegionOp(OpAsmPrinter &p, Operation *op) {
  p << ' ';
  printBoundRegionOp(p, op);
}
