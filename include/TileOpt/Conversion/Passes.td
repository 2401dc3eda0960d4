//===- Passes.td - TileOpt conversions ---------------------*- tablegen -*-===//
#ifndef TILEOPT_CONVERSION_PASSES_TD
#define TILEOPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerTileToGPU : Pass<"tileopt-lower-tile", "::mlir::ModuleOp"> {
  let summary = "Lower tile kernels to gpu.func with per-thread fragments";
  let description = [{
    Tile programs say what a whole thread block computes, on immutable tiles;
    a GPU runs threads. This pass makes that step: every `tile.kernel`
    becomes a `gpu.func` kernel in a `gpu.module`, every tile value becomes
    the fragment of it each thread holds (BlockedLayout: row-major chunks of
    up to 8 contiguous elements dealt round-robin to the threads), and every
    tile op becomes the per-thread code that computes its fragment:

    * `tile.load` / `tile.store`: coalesced loads and stores of whole chunks
      (16-byte `ld.global.v4` for bf16) when the view's row length keeps
      chunks aligned and inside or outside the view as a whole, element by
      element otherwise; out-of-bounds elements read as the padding value and
      are never written;
    * `arith` / `math` on tiles: the same ops on the fragments;
    * `tile.reduce` (over the last dim): a reduction inside each thread, a
      butterfly of warp shuffles across the threads that share a row, and
      shared memory across warps;
    * `tile.broadcast`, `tile.reshape`, `tile.permute`: the fragments are
      re-dealt through shared memory (or nothing at all when the layouts
      agree);
    * `scf.for` over tiles: the loop carries fragments.

    Views become kernel parameters: a global pointer (`!llvm.ptr<1>`, 16-byte
    aligned) and one i64 per dynamic dim, in argument order; scalars stay
    scalars. All scratch shares one workgroup buffer sized for the largest
    use. What the code generator cannot take yet (`tile.mma`, `tile.scan`,
    reductions over other than the last dim, 64-bit data in shared memory,
    fragments over 256 elements per thread) is an error naming the op, not
    wrong code.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int64_t", /*default=*/"4",
           "Warps per thread block (each of 32 threads)">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"
  ];
}

#endif // TILEOPT_CONVERSION_PASSES_TD
