//===- TKOps.h - Kernel graph dialect ---------------------------*- C++ -*-===//
#ifndef TILEOPT_DIALECT_TK_IR_TKOPS_H
#define TILEOPT_DIALECT_TK_IR_TKOPS_H

#include "TileOpt/Dialect/Common/TileOptEnums.h"
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TileOpt/Dialect/TK/IR/TKDialect.h.inc"

namespace mlir::tileopt::tk {
/// Ops that only move elements (TKOps.td, TK_LayoutChange).
template <typename ConcreteType>
class LayoutChange : public OpTrait::TraitBase<ConcreteType, LayoutChange> {};
/// Ops that apply one scalar function to every element of their broadcast
/// operands (TKOps.td, TK_Elementwise).
template <typename ConcreteType>
class Elementwise : public OpTrait::TraitBase<ConcreteType, Elementwise> {};
} // namespace mlir::tileopt::tk

#define GET_ATTRDEF_CLASSES
#include "TileOpt/Dialect/TK/IR/TKAttrs.h.inc"

#define GET_OP_CLASSES
#include "TileOpt/Dialect/TK/IR/TKOps.h.inc"

namespace mlir::tileopt::tk {
/// Whether `op` is a layout change that is no kernel once lowered: a
/// transpose only computing kernels read (TransposeOp::readByKernelsOnly)
/// or a reshape that is a view of its input's buffer (ReshapeOp::isView).
/// The lowering and the cost model both follow it.
bool isFreeLayoutChange(Operation *op);

/// A tk.map that yields its one operand: `tensor` broadcast to `shape`
/// (NumPy's rules), or a copy of it in a tensor of its own when `shape` is
/// its shape.
MapOp createIdentityMap(OpBuilder &b, Location loc, Value tensor,
                        ArrayRef<int64_t> shape);
} // namespace mlir::tileopt::tk

#endif // TILEOPT_DIALECT_TK_IR_TKOPS_H
