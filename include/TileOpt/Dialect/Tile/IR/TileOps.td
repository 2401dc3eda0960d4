//===- TileOps.td - cuTile-style tile programs -------------*- tablegen -*-===//
#ifndef TILEOPT_DIALECT_TILE_TILEOPS_TD
#define TILEOPT_DIALECT_TILE_TILEOPS_TD

include "TileOpt/Dialect/Tile/IR/TileEnums.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tileopt::tile";
  let summary = "cuTile-style per-block programs over immutable tiles";
  let description = [{
    A tile program says what one thread block computes, in the style of
    NVIDIA's cuTile: there are no threads and no synchronization inside a
    block. A `tile.kernel` runs once per block of a grid; it reads tiles out
    of tensor views with `tile.load` (indexed in tile space: tile (i, j) of a
    128x64 load starts at element (128 i, 64 j)), computes on them, and
    writes tiles back with `tile.store`.

    Tiles are values of builtin ranked tensor type with static power-of-two
    dims, e.g. `tensor<128x64xbf16>`. Elementwise math on tiles is `arith`
    and `math` on those tensors; loops are `scf.for`. The tile ops add what
    arith and math lack: block coordinates, memory access with its hints,
    tensor-core products, reductions, scans and reshaping.

    The same programs are the target of the superoptimizer (block graphs
    lower to them) and the input of the GPU code generator.

    Ahead of the code generator, `tileopt-assign-layouts` gives every tile
    of a kernel a layout, the encoding of its tensor type: `#tile.blocked`,
    or the accumulator layout of the tensor cores that compute it
    (`#tile.mma_sync`, `#tile.wgmma`); `tile.convert_layout` moves a tile
    from one layout into another. It also records two decisions as
    discardable attributes of this dialect:

    * `tile.mma_pipeline` (`#tile.mma_pipeline`) on an `scf.for`: how the
      multiplicands of its `tile.mma` ops are pipelined through shared
      memory;
    * `tile.lhs_staged` (unit) on a `tile.mma`: its left operand is the
      one the `tile.mma` just before it in the block staged in shared
      memory, with nothing between them that uses shared memory, so it is
      not staged again.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let discardableAttrs = (ins
    "::mlir::tileopt::tile::MmaPipelineAttr":$mma_pipeline,
    "::mlir::UnitAttr":$lhs_staged
  );
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           // The attributes of host functions' buffers.
                           "::mlir::tileopt::TileOptDialect"];
}

class Tile_EnumAttr<EnumInfo info, string name>
    : EnumAttr<Tile_Dialect, info, name> {
}

def Tile_PaddingModeAttr : Tile_EnumAttr<Tile_PaddingMode, "padding">;
def Tile_CombineKindAttr : Tile_EnumAttr<Tile_CombineKind, "combine">;
def Tile_GridDimAttr : Tile_EnumAttr<Tile_GridDim, "grid_dim">;

include "TileOpt/Dialect/Tile/IR/TileAttrs.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Tile_TensorViewType : TypeDef<Tile_Dialect, "TensorView"> {
  let mnemonic = "view";
  let summary = "a row-major tensor in device memory, seen by a kernel";
  let description = [{
    A kernel argument through which tiles are loaded and stored, e.g.
    `!tile.view<4096x?xbf16>`; `?` is a size known only at launch. The
    view is row-major and contiguous.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
  }];
}

// A tile: a statically shaped ranked tensor. The power-of-two rule is
// checked by Tile_PowerOfTwoTiles, with a message naming the dim.
def Tile_Tile : StaticShapeTensorOf<[AnyType]>;

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

// Every tensor operand and result of the op is a tile: all dims are powers
// of two.
def Tile_PowerOfTwoTiles : NativeOpTrait<"PowerOfTwoTiles"> {
  let cppNamespace = "::mlir::tileopt::tile";
}

// The op is nested (at any depth) in a tile.kernel.
def Tile_InKernel : NativeOpTrait<"InKernel"> {
  let cppNamespace = "::mlir::tileopt::tile";
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, !listconcat(traits, [Tile_PowerOfTwoTiles])>;

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove, AutomaticAllocationScope]> {
  let summary = "a tile program: the body one thread block runs";
  let description = [{
    Arguments are tensor views and scalars (integers, floats, index). The
    body returns nothing: outputs are written with `tile.store`. Every
    tensor in the body, including those arith, math and scf ops produce, is
    a tile: power-of-two dims, and either no encoding or a layout (after
    `tileopt-assign-layouts`: every tile has one, all for the same warps).

    Hints: `occupancy` (1-32) is the number of blocks the program should fit
    on one SM at a time; `num_ctas` (1, 2, 4, 8 or 16) groups blocks into a
    cluster.

    ```mlir
    tile.kernel @scale(%x: !tile.view<?x1024xf32>, %y: !tile.view<?x1024xf32>) {
      %i = tile.block_id x
      %c0 = arith.constant 0 : index
      %t = tile.load %x[%i, %c0] latency 2 : !tile.view<?x1024xf32> -> tensor<8x1024xf32>
      %two = arith.constant dense<2.0> : tensor<8x1024xf32>
      %r = arith.mulf %t, %two : tensor<8x1024xf32>
      tile.store %r, %y[%i, %c0] : tensor<8x1024xf32>, !tile.view<?x1024xf32>
      tile.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<I32Attr>:$occupancy,
                       OptionalAttr<I32Attr>:$num_ctas);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Every tile has a layout, all for one number of warps, or none has.
    LogicalResult verifyLayouts();
    ArrayRef<Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ArrayRef<Type> getResultTypes() { return getFunctionType().getResults(); }
    Region *getCallableRegion() { return &getBody(); }
  }];
}

def Tile_ReturnOp : Tile_Op<"return", [Pure, Terminator, ReturnLike,
                                       HasParent<"KernelOp">]> {
  let summary = "ends a tile kernel";
  let assemblyFormat = "attr-dict";
}

def Tile_BlockIdOp : Tile_Op<"block_id", [Pure, Tile_InKernel]> {
  let summary = "the coordinate of this block in the grid along a dim";
  let arguments = (ins Tile_GridDimAttr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "``$dim attr-dict";
}

def Tile_NumBlocksOp : Tile_Op<"num_blocks", [Pure, Tile_InKernel]> {
  let summary = "the number of blocks in the grid along a dim";
  let arguments = (ins Tile_GridDimAttr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "``$dim attr-dict";
}

def Tile_LaunchOp : Op<Tile_Dialect, "launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "host side: launches a tile kernel over a grid of blocks";
  let description = [{
    The host program of a tile kernel, in a `func.func` whose arguments are
    the device buffers (static-shape memrefs; an argument with the unit
    attribute `tileopt.output` is an output, the others inputs): each
    `tile.launch` runs `kernel` once per block of `grid`, binding each kernel
    argument in order to an operand — a view to a buffer of its element type
    and rank whose sizes agree with the view's static dims, or a fully
    static view to any buffer of its element type and element count (the
    buffer reinterpreted row-major: a reshape that is a view), a scalar to a
    value of its type. `tileopt-compile` turns the launches into an
    artifact's launch sequence.

    ```mlir
    func.func @main(%x: memref<8192x8192xbf16>,
                    %y: memref<8192x8192xbf16> {tileopt.output}) {
      tile.launch @softmax grid [8192, 1, 1] (%x, %y)
          : memref<8192x8192xbf16>, memref<8192x8192xbf16>
      return
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, DenseI64ArrayAttr:$grid,
                       Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $kernel `grid` $grid `(` $args `)` attr-dict `:` type($args)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tile_LoadOp : Tile_Op<"load", [Tile_InKernel,
                                   MemoryEffects<[MemRead]>]> {
  let summary = "loads the tile at a tile-space index of a tensor view";
  let description = [{
    Loads the tile whose index in tile space is `indices`: with a result of
    shape (T0, T1) the tile starts at element (T0 * i, T1 * j). Elements
    outside the view read as the `padding` value (`undetermined`, the
    default, leaves them unspecified but never faults); `nan`, `pos_inf`,
    `neg_inf` and `neg_zero` need floating-point tiles. A tile may be larger
    than a static view: the padding covers the rest.

    Hints: `latency` (1-10) is how deep the software pipeline of this load
    in a loop should be: with latency L, the load for iteration k + L - 1 is
    issued in iteration k (`tileopt-pipeline-tile-loads`, in registers; for
    `tile.mma` multiplicands loaded for mmas alone, `tileopt-lower-tile`,
    with cp.async into up to 4 shared-memory stages); 1 means no prefetch.
    `allow_tma` allows the Hopper tensor memory accelerator: on sm_90a, when
    every multiplicand load of a loop pipelined on wgmma allows it, one
    thread copies them with `cp.async.bulk.tensor` instead of every thread
    with cp.async (elsewhere the hint is not followed, with a remark that
    says why).
  }];
  let arguments = (ins Tile_TensorViewType:$view, Variadic<Index>:$indices,
                       OptionalAttr<I32Attr>:$latency, UnitAttr:$allow_tma,
                       OptionalAttr<Tile_PaddingModeAttr>:$padding);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $view `[` $indices `]` (`latency` $latency^)? (`allow_tma` $allow_tma^)?
    (`padding```$padding^)? attr-dict `:` qualified(type($view)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [Tile_InKernel,
                                     MemoryEffects<[MemWrite]>]> {
  let summary = "stores a tile at a tile-space index of a tensor view";
  let description = [{
    Elements outside the view are not written. `latency` and `allow_tma`
    are hints as for `tile.load` (neither is used by the code generator for
    stores yet).
  }];
  let arguments = (ins Tile_Tile:$value, Tile_TensorViewType:$view,
                       Variadic<Index>:$indices,
                       OptionalAttr<I32Attr>:$latency, UnitAttr:$allow_tma);
  let assemblyFormat = [{
    $value `,` $view `[` $indices `]` (`latency` $latency^)?
    (`allow_tma` $allow_tma^)? attr-dict `:` type($value) `,` qualified(type($view))
  }];
  let hasVerifier = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [Tile_InKernel,
                                       MemoryEffects<[MemRead]>]> {
  let summary = "loads the elements of a tensor view at element offsets";
  let description = [{
    Element i of the result is the view's element at row-major offset
    `offsets[i]`; an offset outside the view (negative, or at least the
    view's element count) reads as 0 and touches no memory. The access
    that tiles cannot express: the generic kernels of structured ops that
    TileOpt does not model (`tk.structured`: convolutions, pooling,
    padding, payloads that read tensors) address their operands through
    the op's indexing maps, element by element.

    ```mlir
    %x = tile.gather %view[%offsets] : !tile.view<4x8xf32>, tensor<256xi32> -> tensor<256xf32>
    ```
  }];
  let arguments = (ins Tile_TensorViewType:$view, Tile_Tile:$offsets);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $view `[` $offsets `]` attr-dict `:` qualified(type($view)) `,` type($offsets) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ScatterOp : Tile_Op<"scatter", [Tile_InKernel,
                                         MemoryEffects<[MemWrite]>]> {
  let summary = "stores the elements of a tile at element offsets of a view";
  let description = [{
    Writes element i of `value` at row-major offset `offsets[i]` of the
    view; an offset outside the view writes nothing. Two elements written
    to one offset leave one of them, unspecified which.
  }];
  let arguments = (ins Tile_Tile:$value, Tile_TensorViewType:$view,
                       Tile_Tile:$offsets);
  let assemblyFormat = [{
    $value `,` $view `[` $offsets `]` attr-dict `:` type($value) `,` qualified(type($view)) `,` type($offsets)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def Tile_MmaOp : Tile_Op<"mma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc + lhs @ rhs, on tensor cores where the types allow";
  let description = [{
    Operand and accumulator element types follow what tensor cores offer:

    | lhs, rhs | acc |
    |---|---|
    | f16 | f16 or f32 |
    | bf16 | f32 |
    | f32 | f32 |
    | f8E4M3FN / f8E5M2, in any combination | f16 or f32 |
    | i8 (signless) | i32 (signless) |

    A product of f32 operands runs on the CUDA cores, as fp32 fused
    multiply-adds (not as tf32, whose 10-bit mantissa would make an f32
    program's result another one): its accumulator is laid out like any
    other tile (`#tile.blocked`). The others run on the tensor cores, in an
    accumulator of their layout (`#tile.mma_sync`, `#tile.wgmma`).

    A leading batch dim, the same in all three, is allowed.

    With `rhs_transposed` the rhs is given as [N, K], K-major: the product
    is `lhs @ transpose(rhs)`. A tile loaded in that layout (a row-major
    tensor whose transpose is the operand, as `x @ W^T` has) reaches the
    tensor cores without a relayout: the code generator stages it as it is
    and reads it with ldmatrix without `.trans`. The canonicalizer folds a
    `tile.permute [1, 0]` of the rhs into the flag.
  }];
  let arguments = (ins Tile_Tile:$lhs, Tile_Tile:$rhs, Tile_Tile:$acc,
                       UnitAttr:$rhs_transposed);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,`
    type($acc)
  }];
  let extraClassDeclaration = [{
    /// Whether the product runs on the tensor cores; else (f32 operands) on
    /// the CUDA cores.
    bool runsOnTensorCores();
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "reduces a tile along one dim, which is removed";
  let arguments = (ins Tile_CombineKindAttr:$kind, Tile_Tile:$input,
                       I64Attr:$dim);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    ``$kind $input `dim` $dim attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ReduceAcrossBlocksOp : Tile_Op<"reduce_across_blocks", [
    Tile_InKernel, SameOperandsAndResultType,
    HasParent<"KernelOp">, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "combines a tile elementwise over the blocks along a grid dim";
  let description = [{
    Every block contributes its tile; each gets back, element by element,
    the combination of the tiles of all blocks that share its coordinates
    but along `dim` (a grid-wide reduction). A block waits there until all
    of them have arrived, so every block of the grid must be resident at
    once: the kernel is marked `grid_sync` in the artifact, and the runtime
    refuses a launch the device cannot hold at once. The op sits directly in
    the kernel body, where every block meets it exactly once.

    ```mlir
    // The sums of squares of 8 rows whose columns the blocks along x share.
    %total = tile.reduce_across_blocks sum %partial along x : tensor<8xf32>
    ```
  }];
  let arguments = (ins Tile_CombineKindAttr:$kind, Tile_Tile:$input,
                       Tile_GridDimAttr:$dim);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    ``$kind $input `along` ``$dim attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, SameOperandsAndResultType]> {
  let summary = "inclusive prefix combination along one dim (cumsum, ...)";
  let description = [{
    `reverse` scans from the last element to the first.
  }];
  let arguments = (ins Tile_CombineKindAttr:$kind, Tile_Tile:$input,
                       I64Attr:$dim, UnitAttr:$reverse);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    ``$kind $input `dim` $dim (`reverse` $reverse^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "repeats a tile along its size-1 dims";
  let arguments = (ins Tile_Tile:$input);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "a tile with every element set to a scalar";
  let arguments = (ins AnyTypeOf<[AnyInteger, AnyFloat, Index]>:$input);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "the 1-D tile 0, 1, ..., n-1";
  let description = [{
    The elements are signless integers read as signed: n - 1 must fit, so a
    tensor<256xi8> is rejected.
  }];
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "reinterprets a tile, in row-major order, with another shape";
  let arguments = (ins Tile_Tile:$input);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure]> {
  let summary = "moves a tile from one layout into another";
  let description = [{
    The same tile, dealt over the threads in another layout (both input and
    result have one, and they differ); the code generator moves the
    elements through shared memory. `tileopt-assign-layouts` inserts it
    where a value leaves the layout it was computed in: a wgmma accumulator
    that a `tile.reduce` combines or a `tile.mma` multiplies, a loaded tile
    that joins an accumulator.

    ```mlir
    %b = tile.convert_layout %acc : tensor<64x64xf32, #tile.wgmma<warpgroups = 1>>
                                 -> tensor<64x64xf32, #tile.blocked<chunk = 8, warps = 4>>
    ```
  }];
  let arguments = (ins Tile_Tile:$input);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_PermuteOp : Tile_Op<"permute", [Pure]> {
  let summary = "permutes the dims of a tile: result dim i is input dim p[i]";
  let arguments = (ins Tile_Tile:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $input $permutation attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // TILEOPT_DIALECT_TILE_TILEOPS_TD
