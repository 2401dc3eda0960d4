//===- TileOps.h - cuTile-style tile programs -------------------*- C++ -*-===//
#ifndef TILEOPT_DIALECT_TILE_IR_TILEOPS_H
#define TILEOPT_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TileOpt/Dialect/Tile/IR/TileEnums.h.inc"

#include "TileOpt/Target/FragmentLayout.h"

#include "TileOpt/Dialect/Tile/IR/TileAttrInterfaces.h.inc"

// Before the dialect: it declares helpers for its discardable attributes.
#define GET_ATTRDEF_CLASSES
#include "TileOpt/Dialect/Tile/IR/TileAttrs.h.inc"

#include "TileOpt/Dialect/Tile/IR/TileDialect.h.inc"
#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.h"

#define GET_TYPEDEF_CLASSES
#include "TileOpt/Dialect/Tile/IR/TileTypes.h.inc"

namespace mlir::tileopt::tile {

class MmaOp;

/// The layout of a tile (the encoding of `type` if it is one), or null.
LayoutAttrInterface getLayout(Type type);

/// Which elements of `tile`, which has a layout, each thread holds.
FragmentLayout getFragmentLayout(RankedTensorType tile);

/// Whether `mma` may leave its left operand where the tile.mma just before
/// it in its block staged it in shared memory (`tile.lhs_staged`): the two
/// multiply the same value, and no op between them touches shared memory
/// in the code generator (only loads into registers, elementwise ops on
/// tiles, constants and ops on scalars, none with regions).
bool canReuseStagedLhs(MmaOp mma);

/// Checks that every tensor operand and result of `op` has power-of-two dims.
LogicalResult verifyPowerOfTwoTiles(Operation *op);

/// Checks that `op` is nested in a tile.kernel.
LogicalResult verifyInKernel(Operation *op);

template <typename ConcreteType>
class PowerOfTwoTiles
    : public OpTrait::TraitBase<ConcreteType, PowerOfTwoTiles> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyPowerOfTwoTiles(op);
  }
};

template <typename ConcreteType>
class InKernel : public OpTrait::TraitBase<ConcreteType, InKernel> {
public:
  static LogicalResult verifyTrait(Operation *op) { return verifyInKernel(op); }
};

} // namespace mlir::tileopt::tile

#define GET_OP_CLASSES
#include "TileOpt/Dialect/Tile/IR/TileOps.h.inc"

#endif // TILEOPT_DIALECT_TILE_IR_TILEOPS_H
