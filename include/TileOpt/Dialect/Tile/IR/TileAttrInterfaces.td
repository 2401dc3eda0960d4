//===- TileAttrInterfaces.td - What every layout answers ---*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TILE_TILEATTRINTERFACES_TD
#define TILEOPT_DIALECT_TILE_TILEATTRINTERFACES_TD

include "mlir/IR/OpBase.td"

def Tile_LayoutAttrInterface : AttrInterface<"LayoutAttrInterface"> {
  let cppNamespace = "::mlir::tileopt::tile";
  let description = [{
    A layout: which elements of a tile each thread of a block holds, as the
    encoding of the tile's tensor type. Every layout names the warps of the
    block it spreads the tile over; the tiles of one kernel agree on them.
  }];
  let methods = [
    InterfaceMethod<"The warps (of 32 threads) of the block.", "int64_t",
                    "getNumWarps">
  ];
}

#endif // TILEOPT_DIALECT_TILE_TILEATTRINTERFACES_TD
