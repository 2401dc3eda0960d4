//===- TBOps.h - Block graph operations -------------------------*- C++ -*-===//
#ifndef TILEOPT_DIALECT_TB_IR_TBOPS_H
#define TILEOPT_DIALECT_TB_IR_TBOPS_H

#include "TileOpt/Dialect/Common/TileOptEnums.h"
#include "TileOpt/Dialect/TB/IR/TBDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TileOpt/Dialect/TB/IR/TBEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "TileOpt/Dialect/TB/IR/TBTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TileOpt/Dialect/TB/IR/TBAttrs.h.inc"

#include "TileOpt/Dialect/TB/IR/TBInterfaces.h.inc"

namespace mlir::tileopt::tb {

/// Checks that `op` sits directly in the block graph of an op implementing
/// BlockGraphOpInterface.
LogicalResult verifyInBlockGraph(Operation *op);

/// The trait behind TB_InBlockGraph.
template <typename ConcreteType>
class InBlockGraph : public OpTrait::TraitBase<ConcreteType, InBlockGraph> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyInBlockGraph(op);
  }
};

/// Checks the structure of the block graph of `op` as a whole: every path
/// from a kernel input to a kernel output crosses exactly one input iterator,
/// then one for-loop accumulator, then one output saver; the yielded values
/// are saver results matching the op's results; savers after a `none`
/// accumulator lay the iterations out along their fmap dim. The ops' own
/// verifiers have already run.
LogicalResult verifyBlockGraph(BlockGraphOpInterface op);

/// The grid-wide barriers of the block graph of `op`: its rms_norms
/// `across` a grid dim, where every block waits for all the others.
unsigned countGridBarriers(BlockGraphOpInterface op);

} // namespace mlir::tileopt::tb

#define GET_OP_CLASSES
#include "TileOpt/Dialect/TB/IR/TBOps.h.inc"

#endif // TILEOPT_DIALECT_TB_IR_TBOPS_H
