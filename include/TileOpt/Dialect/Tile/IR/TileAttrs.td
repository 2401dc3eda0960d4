//===- TileAttrs.td - Layouts and code generator decisions -*- tablegen -*-===//
//
// How a tile is spread over the threads of a block (its layout, the encoding
// of its tensor type), and the attributes tileopt-assign-layouts records for
// the code generator on the ops of a tile program.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_DIALECT_TILE_TILEATTRS_TD
#define TILEOPT_DIALECT_TILE_TILEATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"
include "TileOpt/Dialect/Tile/IR/TileAttrInterfaces.td"

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

class Tile_LayoutAttr<string name, string attrMnemonic>
    : AttrDef<Tile_Dialect, name, [
        DeclareAttrInterfaceMethods<VerifiableTensorEncoding>,
        DeclareAttrInterfaceMethods<Tile_LayoutAttrInterface>]> {
  let mnemonic = attrMnemonic;
  let genVerifyDecl = 1;
}

def Tile_BlockedAttr : Tile_LayoutAttr<"Blocked", "blocked"> {
  let summary = "row-major chunks dealt round-robin to the threads";
  let description = [{
    The layout of every tile that no tensor core computes. The tile is read
    in row-major order in chunks of `chunk` contiguous elements; with T =
    32 x `warps` threads, chunk c belongs to thread c mod T, as its chunk
    c / T. Chunks are contiguous in memory, so loads and stores are
    coalesced and vectorized (8 elements of 16 bits are one 16-byte
    access). The layout depends on neither the element type nor the
    producer: casts and elementwise ops move no data, and tiles of equal
    element counts and chunks share it, so a reshape between them is free.
    A tile of fewer elements than threads is replicated (`chunk` 1): thread
    t holds element t mod N.

    `tileopt-assign-layouts` takes the widest chunk of at most 8 elements
    that the last dim and the elements per thread allow.

    ```mlir
    tensor<128x64xbf16, #tile.blocked<chunk = 8, warps = 4>>
    ```

    The chunk must divide the last dim, and the tile must hold a whole
    number of chunks per thread (or fewer elements than threads).
  }];
  let parameters = (ins "int64_t":$chunk, "int64_t":$warps);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Tile_MmaSyncAttr : Tile_LayoutAttr<"MmaSync", "mma_sync"> {
  let summary = "the accumulator of mma.sync m16n8k16";
  let description = [{
    The layout of the accumulator and result of a `tile.mma` that runs on
    `mma.sync`, and of what is tied to them: the values a loop carries with
    them, elementwise ops on them, what `tile.reduce` combines where it
    lies. The warps tile the matrix `warps[0]` x `warps[1]` (rows by
    columns); each warp holds its part as m16n8 accumulator tiles in
    row-major order, four elements per thread and tile in the order
    mma.sync defines: c0, c1 at (lane / 4, 2 (lane mod 4) + {0, 1}), c2, c3
    eight rows below. A tensor whose leading dims are 1 is laid out as its
    matrix (the last two dims).

    `tileopt-assign-layouts` makes the warp grid as square as the rows
    allow (2 x 2 for 4 warps; 1 x 4 for a matrix of 16 rows).

    ```mlir
    tensor<64x64xf32, #tile.mma_sync<warps = [2, 2]>>
    ```

    The rows must divide into 16 x `warps[0]`, the columns into 8 x
    `warps[1]`.

    There is no layout for the operands of `tile.mma`: mma.sync reads them
    with `ldmatrix` from shared memory, where the code generator stages
    them from whatever layout they have (a blocked tile chunk by chunk, an
    mma.sync accumulator pair by pair), so no tile is ever held in an
    operand layout.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$warps);
  let assemblyFormat = "`<` `warps` `=` `[` $warps `]` `>`";
  let extraClassDeclaration = [{
    int64_t getWarpsM() const { return getWarps()[0]; }
    int64_t getWarpsN() const { return getWarps()[1]; }
  }];
}

def Tile_WgmmaAttr : Tile_LayoutAttr<"Wgmma", "wgmma"> {
  let summary = "the accumulator of wgmma.mma_async (sm_90a)";
  let description = [{
    As `#tile.mma_sync`, for a `tile.mma` that runs on `wgmma.mma_async`:
    the `warpgroups` (4 consecutive warps each) split the rows evenly, and
    each holds its rows as m64nN slices, N the whole width; warp w of a
    warpgroup has rows 16w..16w+15 of every slice, as N / 8 m16n8 tiles
    laid out as mma.sync has them.

    ```mlir
    tensor<128x256xf32, #tile.wgmma<warpgroups = 2>>
    ```

    The rows must divide into 64 x `warpgroups`, the columns into 8.
  }];
  let parameters = (ins "int64_t":$warpgroups);
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// Decisions of tileopt-assign-layouts
//===----------------------------------------------------------------------===//

def Tile_MmaPipelineAttr : AttrDef<Tile_Dialect, "MmaPipeline"> {
  let mnemonic = "mma_pipeline";
  let summary = "how the code generator pipelines a loop of tile.mma ops";
  let description = [{
    `tileopt-assign-layouts` sets it, as `tile.mma_pipeline`, on an
    `scf.for` whose `tile.mma` ops multiply tiles loaded in its body with a
    latency hint, for mmas alone, into accumulators it carries: the code
    generator copies those tiles, each once, into a ring of `stages`
    shared-memory buffers, `stages - 1` iterations ahead, and the tensor
    cores read them from there.

    - `copy`: `cp_async` (every thread copies its 16-byte chunks) or `tma`
      (one thread issues `cp.async.bulk.tensor`, sm_90a with wgmma, every
      multiplicand load allowing it);
    - `staging`: how a tile lies in its stage: `swizzled` or `padded` rows
      for mma.sync (`ldmatrix`), `panels` of 64 columns with the 128-byte
      swizzle for wgmma (its descriptors).

    `#tile.mma_pipeline<none>` marks a loop of that structure whose ring
    cannot be built (its copies would not move whole 16-byte chunks, or two
    stages do not fit in shared memory): its hints are not followed.

    `tileopt-pipeline-tile-loads` leaves every loop that has the attribute
    as it is; `tileopt-lower-tile` builds the ring it describes. Each reads
    the decision instead of making it again.

    ```mlir
    scf.for %k = %c0 to %c8 step %c1 iter_args(...) -> (...) {
      ...
    } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 3, staging = swizzled>}
    ```
  }];
  let parameters = (ins EnumParameter<Tile_MmaCopy>:$copy, "int64_t":$stages,
                        EnumParameter<Tile_StagingLayout>:$staging);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether the loop is pipelined through shared memory.
    bool isStaged() const { return getCopy() != MmaCopy::none; }
  }];
}

#endif // TILEOPT_DIALECT_TILE_TILEATTRS_TD
