//===- ScalarRegion.h - Regions of per-element scalar code ------*- C++ -*-===//
//
// th.graph (on tiles, inside a block graph) and tk.map (on tensors, a kernel
// of its own) both apply a region of scalar arith and math ops to every
// element of their broadcast operands. One verifier and one custom assembly
// serve both, so the two levels accept the same scalar code.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_DIALECT_COMMON_SCALARREGION_H
#define TILEOPT_DIALECT_COMMON_SCALARREGION_H

#include "mlir/IR/OpImplementation.h"

namespace mlir::tileopt {

/// The scalar one element of a value of `type` holds.
Type scalarTypeOf(Type type);

/// Checks the region of `op` (`kind` names it in messages): one argument
/// per input, of the input's element type; straight-line scalar arith and
/// math ops; a `terminatorName` op whose operands have the element types
/// of `op`'s results, in order.
LogicalResult verifyScalarRegion(Operation *op, StringRef kind,
                                 ValueRange inputs, StringRef terminatorName);

/// `(%a = %x : type, ...) -> types attr-dict region`, the form th.graph and
/// tk.map share.
ParseResult parseScalarRegionOp(OpAsmParser &parser, OperationState &result);
void printScalarRegionOp(OpAsmPrinter &p, Operation *op);

} // namespace mlir::tileopt

#endif // TILEOPT_DIALECT_COMMON_SCALARREGION_H
