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
                    "getNumWarps">,
    InterfaceMethod<[{
      Which elements of a tile of `shape` (one this layout takes) each
      thread holds, as the code generator and the cost model compute with
      it (Target/FragmentLayout.h).
    }], "::mlir::tileopt::FragmentLayout", "getFragmentLayout",
        (ins "::llvm::ArrayRef<int64_t>":$shape)>
  ];
}

#endif // TILEOPT_DIALECT_TILE_TILEATTRINTERFACES_TD
