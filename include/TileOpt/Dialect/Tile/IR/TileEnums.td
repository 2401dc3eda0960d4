//===- TileEnums.td - Tile dialect enums -------------------*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TILE_TILEENUMS_TD
#define TILEOPT_DIALECT_TILE_TILEENUMS_TD

include "mlir/IR/EnumAttr.td"

def Tile_PaddingMode : I32Enum<"PaddingMode",
    "value a load returns for elements outside the tensor view", [
      I32EnumCase<"undetermined", 0>,
      I32EnumCase<"zero", 1>,
      I32EnumCase<"neg_zero", 2>,
      I32EnumCase<"nan", 3>,
      I32EnumCase<"pos_inf", 4>,
      I32EnumCase<"neg_inf", 5>
    ]> {
  let cppNamespace = "::mlir::tileopt::tile";
}

def Tile_CombineKind : I32Enum<"CombineKind",
    "associative operator of tile.reduce and tile.scan", [
      I32EnumCase<"sum", 0>,
      I32EnumCase<"prod", 1>,
      I32EnumCase<"max", 2>,
      I32EnumCase<"min", 3>
    ]> {
  let cppNamespace = "::mlir::tileopt::tile";
}

def Tile_GridDim : I32Enum<"GridDim", "a dimension of the grid", [
      I32EnumCase<"x", 0>,
      I32EnumCase<"y", 1>,
      I32EnumCase<"z", 2>
    ]> {
  let cppNamespace = "::mlir::tileopt::tile";
}

def Tile_MmaCopy : I32Enum<"MmaCopy",
    "how a pipelined tile.mma loop copies its multiplicands into shared "
    "memory", [
      I32EnumCase<"none", 0>,
      I32EnumCase<"cp_async", 1>,
      I32EnumCase<"tma", 2>
    ]> {
  let cppNamespace = "::mlir::tileopt::tile";
}

def Tile_StagingLayout : I32Enum<"StagingLayout",
    "how a tile.mma multiplicand is laid out in shared memory", [
      I32EnumCase<"padded", 0>,
      I32EnumCase<"swizzled", 1>,
      I32EnumCase<"panels", 2>
    ]> {
  let cppNamespace = "::mlir::tileopt::tile";
}

#endif // TILEOPT_DIALECT_TILE_TILEENUMS_TD
