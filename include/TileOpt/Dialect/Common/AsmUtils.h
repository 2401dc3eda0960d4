//===- AsmUtils.h - Custom assembly shared by region ops --------*- C++ -*-===//
//
// tk.fused, tk.structured, tk.map and th.graph all bind each operand to an
// entry-block argument of their region. They print the binding as `(%arg =
// %operand : type, ...)`, the form scf.for uses for iter_args, so that the
// region reads like a function body over named inputs.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_DIALECT_COMMON_ASMUTILS_H
#define TILEOPT_DIALECT_COMMON_ASMUTILS_H

#include "mlir/IR/OpImplementation.h"

namespace mlir::tileopt {

/// Parses `(%arg = %operand : type, ...)`. The type is the operand's; the
/// block argument gets `argTypeOf(type)`.
ParseResult
parseBoundOperands(OpAsmParser &parser,
                   SmallVectorImpl<OpAsmParser::Argument> &regionArgs,
                   SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                   SmallVectorImpl<Type> &operandTypes,
                   function_ref<Type(Type)> argTypeOf);

/// Prints what parseBoundOperands parses.
void printBoundOperands(OpAsmPrinter &p, ValueRange regionArgs,
                        ValueRange operands);

/// Parses `(%arg = %operand : type, ...) -> types attr-dict region` into
/// `result`: the bound operands (parseBoundOperands), the result types, the
/// attributes and the one region, whose arguments they name.
ParseResult parseBoundRegionOp(OpAsmParser &parser, OperationState &result,
                               function_ref<Type(Type)> argTypeOf);

/// Prints what parseBoundRegionOp parses of `op`, but `elidedAttrs` (which
/// the op prints itself).
void printBoundRegionOp(OpAsmPrinter &p, Operation *op,
                        ArrayRef<StringRef> elidedAttrs = {});

} // namespace mlir::tileopt

#endif // TILEOPT_DIALECT_COMMON_ASMUTILS_H
