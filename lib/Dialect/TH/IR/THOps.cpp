//===- THOps.cpp - Thread graph dialect -----------------------------------===//
#include "TileOpt/Dialect/TH/IR/THOps.h"

#include "TileOpt/Dialect/Common/ScalarRegion.h"
#include "TileOpt/Dialect/Common/ShapeChecks.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
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

void GraphOp::build(OpBuilder &builder, OperationState &state,
                    TypeRange results, ValueRange inputs, Region &scalarCode) {
  state.addOperands(inputs);
  state.addTypes(results);
  Region *body = state.addRegion();
  IRMapping mapping;
  scalarCode.cloneInto(body, mapping);
  Operation *terminator = body->front().getTerminator();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(terminator);
  YieldOp::create(builder, terminator->getLoc(), terminator->getOperands());
  terminator->erase();
}

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseScalarRegionOp(parser, result);
}

void GraphOp::print(OpAsmPrinter &p) { printScalarRegionOp(p, *this); }

LogicalResult GraphOp::verify() {
  if (getInputs().empty() || getResults().empty())
    return emitOpError("needs at least one input and one result");
  SmallVector<ShapedType> inputs;
  for (Value input : getInputs())
    inputs.push_back(cast<ShapedType>(input.getType()));
  for (Type result : getResultTypes())
    if (failed(verifyBroadcastsTo(*this, inputs, cast<ShapedType>(result))))
      return failure();
  return success();
}

LogicalResult GraphOp::verifyRegions() {
  return verifyScalarRegion(*this, "thread graph", getInputs(),
                            YieldOp::getOperationName());
}

#define GET_OP_CLASSES
#include "TileOpt/Dialect/TH/IR/THOps.cpp.inc"
