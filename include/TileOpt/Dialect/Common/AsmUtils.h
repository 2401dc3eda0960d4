//===- AsmUtils.h - Custom assembly shared by region ops --------*- C++ -*-===//
//
// tk.fused and th.graph both bind each operand to an entry-block argument of
// their region. They print the binding as `(%arg = %operand : type, ...)`,
// the form scf.for uses for iter_args, so that the region reads like a
// function body over named inputs.
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

} // namespace mlir::tileopt

#endif // TILEOPT_DIALECT_COMMON_ASMUTILS_H
