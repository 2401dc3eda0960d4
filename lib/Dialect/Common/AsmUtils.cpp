//===- AsmUtils.cpp - Custom assembly shared by region ops ----------------===//
#include "TileOpt/Dialect/Common/AsmUtils.h"

using namespace mlir;

ParseResult tileopt::parseBoundOperands(
    OpAsmParser &parser, SmallVectorImpl<OpAsmParser::Argument> &regionArgs,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
    SmallVectorImpl<Type> &operandTypes, function_ref<Type(Type)> argTypeOf) {
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
        OpAsmParser::Argument arg;
        OpAsmParser::UnresolvedOperand operand;
        Type type;
        if (parser.parseArgument(arg) || parser.parseEqual() ||
            parser.parseOperand(operand) || parser.parseColonType(type))
          return failure();
        arg.type = argTypeOf(type);
        regionArgs.push_back(arg);
        operands.push_back(operand);
        operandTypes.push_back(type);
        return success();
      });
}

void tileopt::printBoundOperands(OpAsmPrinter &p, ValueRange regionArgs,
                                 ValueRange operands) {
  p << '(';
  llvm::interleaveComma(llvm::zip(regionArgs, operands), p, [&](auto pair) {
    auto [arg, operand] = pair;
    p << arg << " = " << operand << " : " << operand.getType();
  });
  p << ')';
}

ParseResult tileopt::parseBoundRegionOp(OpAsmParser &parser,
                                        OperationState &result,
                                        function_ref<Type(Type)> argTypeOf) {
  SmallVector<OpAsmParser::Argument> regionArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> operandTypes;
  SMLoc loc = parser.getCurrentLocation();
  Region *body = result.addRegion();
  if (parseBoundOperands(parser, regionArgs, operands, operandTypes,
                         argTypeOf) ||
      parser.resolveOperands(operands, operandTypes, loc, result.operands) ||
      parser.parseArrowTypeList(result.types) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseRegion(*body, regionArgs))
    return failure();
  return success();
}

void tileopt::printBoundRegionOp(OpAsmPrinter &p, Operation *op,
                                 ArrayRef<StringRef> elidedAttrs) {
  Region &body = op->getRegion(0);
  printBoundOperands(p, body.getArguments(), op->getOperands());
  p.printArrowTypeList(op->getResultTypes());
  p.printOptionalAttrDictWithKeyword(op->getAttrs(), elidedAttrs);
  p << ' ';
  p.printRegion(body, /*printEntryBlockArgs=*/false);
}
