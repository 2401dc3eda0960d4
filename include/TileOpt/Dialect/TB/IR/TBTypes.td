//===- TBTypes.td - Block graph types ----------------------*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TB_TBTYPES_TD
#define TILEOPT_DIALECT_TB_TBTYPES_TD

include "TileOpt/Dialect/TB/IR/TBDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/BuiltinTypes.td"

def TB_TileType : TypeDef<TB_Dialect, "Tile",
    [ShapedTypeInterface, ValueSemantics]> {
  let mnemonic = "tile";
  let summary = "a tile of a tensor held in one thread block's shared memory";
  let description = [{
    The value a block-graph op produces: a statically shaped tile that lives
    in the shared memory of one thread block, e.g. `!tb.tile<64x128xf16>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "ArrayRef<int64_t>":$shape,
                                        "Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType);
    }]>
  ];
  let extraClassDeclaration = [{
    using ShapedType::Trait<TileType>::clone;
    using ShapedType::Trait<TileType>::getElementTypeBitWidth;
    using ShapedType::Trait<TileType>::getRank;
    using ShapedType::Trait<TileType>::getNumElements;
    using ShapedType::Trait<TileType>::isDynamicDim;
    using ShapedType::Trait<TileType>::hasStaticShape;
    using ShapedType::Trait<TileType>::getNumDynamicDims;
    using ShapedType::Trait<TileType>::getDimSize;
    using ShapedType::Trait<TileType>::getDynamicDimIndex;

    bool hasRank() const { return true; }
    TileType cloneWith(std::optional<ArrayRef<int64_t>> shape,
                       Type elementType) const;
  }];
}

#endif // TILEOPT_DIALECT_TB_TBTYPES_TD
