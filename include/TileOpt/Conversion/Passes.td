//===- Passes.td - Conversions into and out of TileOpt ----*- tablegen -*-===//
//
// One file for every conversion between TileOpt's dialects and upstream ones
// (as in CIRCT's include/circt/Conversion/Passes.td); each pass lives in
// lib/Conversion/<From>To<To>/.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_CONVERSION_PASSES_TD
#define TILEOPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ImportLinalg : Pass<"tileopt-import-linalg", "::mlir::func::FuncOp"> {
  let summary = "Import linalg on tensors as a tk kernel graph";
  let description = [{
    The superoptimizer searches over kernel graphs (`tk`), whose ops are the
    operators Mirage's µGraphs are built from: matmul, elementwise unary and
    binary operators with numpy broadcasting, reductions that keep the
    reduced dim, rms_norm, reshape and transpose. Front ends (TOSA,
    torch-mlir, StableHLO, hand-written MLIR) emit linalg on tensors
    instead, where one structured op can hide a transpose, a broadcast or a
    whole chain of arithmetic in its indexing maps and payload. This pass
    reads each linalg op in its iteration space and writes the same
    computation as tk ops.

    - Contractions (`linalg.matmul`, `linalg.batch_matmul`, either with
      `indexing_maps`, `linalg.contract`, contraction `linalg.generic`s)
      become `tk.matmul`, with `tk.transpose`/`tk.reshape` to bring the
      operands into `[batch..., m, k] @ [batch..., k, n]` form. The init
      must be zero.
    - All-parallel ops (`linalg.generic`, `linalg.elementwise`, the named
      elementwise ops, `linalg.transpose`, `linalg.copy`) become a graph of
      `tk.unary`/`tk.binary` built from the payload. Operands are aligned
      with the iteration space; a broadcast dim becomes a size-1 dim so that
      tk's broadcasting applies. `x*x` is `square`, `max(x, 0)` is `relu`,
      a product with a constant is `mul_scalar`; written-out silu and gelu
      are recognised. Copy, broadcast and transpose producers are read
      through.
    - Reductions (`linalg.reduce`, reduction `linalg.generic`s) with an
      `addf` or `maximumf`/`maxnumf` combiner become `tk.reduce` per reduced
      loop, then a `tk.reshape` that drops the kept dims. The init must be
      the neutral element: 0 for a sum, -inf (or the lowest finite value)
      for a max.
    - `linalg.softmax` becomes max, sub, exp, sum, div; `tensor.expand_shape`
      and `tensor.collapse_shape` become `tk.reshape`.

    After the import, idioms are recognised on the kernel graph: a sum
    scaled by 1/n is a `mean`, `x * rsqrt(mean(x^2) + eps)` over the last
    dim is `tk.rms_norm`, and chains of reshapes or transposes collapse.

    Shapes must be static. What no tk op models still computes something
    the program needs, so a program is not refused for lack of a pattern:
    a linalg op the patterns refuse (a convolution, a pooling window, a
    payload that reads `linalg.index` or another tensor) and `tensor.pad`
    become a `tk.structured`, a kernel of its own that holds the op as one
    `linalg.generic` and is lowered to a generic kernel; a remark at the op
    says why the patterns refused it. What cannot become one either
    (integer tensors, several results, dynamic shapes) gets a warning and
    stays as it was, and the pass imports the rest. A function whose body
    is only tk ops (and its return) after this pass is a kernel graph the
    superoptimizer can take.

    tk has no constants: scalar constants become the scalars of tk
    operators (`mul_scalar`, `add_scalar`) or scalar code in a `tk.map`.
    A tensor constant the kernel graph reads (a weight, or a mask from
    `tosa.const`) becomes an argument of the function, appended after the
    others, whose `tileopt.constant` attribute holds its values, so the
    function's signature grows: the artifact holds such a buffer's values
    and callers still pass the original arguments only. Integer constants
    (the row and column ids of a causal mask) are read as f32, which holds
    integers up to 2^24 exactly, and compared as floats inside a `tk.map`.
  }];
  let dependentDialects = ["::mlir::tileopt::tk::TKDialect",
                           "::mlir::tileopt::TileOptDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LowerUGraph : Pass<"tileopt-lower-ugraph", "::mlir::ModuleOp"> {
  let summary = "Lower µGraphs (tk kernel graphs with tb block graphs) to "
                "tile kernels and their launches";
  let description = [{
    The superoptimizer chooses a µGraph: a kernel graph (`tk`) of predefined
    kernels and graph-defined kernels (`tk.fused`), whose block graphs
    (`tb`, with `th` thread graphs) say what every thread block computes.
    The tile code generator compiles tile programs. This pass is the step
    between them, so that the chosen µGraph, and every candidate the search
    ranks, can be compiled, run and timed on a GPU, and checked against the
    kernel graph on the CPU (both have interpreters).

    Every function whose body holds tk ops becomes a host function of the
    same name that launches one `tile.kernel` per tk op, in order, on memref
    buffers: the function's arguments (inputs, `tileopt.name` "in<i>"), its
    results ("out<i>") and the tensors passed between kernels ("tmp<i>"),
    the last two marked `tileopt.output`. An argument or result that has a
    `tileopt.name` attribute keeps that name (tileopt-compile gives the
    arguments the source's SSA names).

    - `tk.fused`: the kernel's grid is the block graph's. Input iterators
      load the block's tile (and the iteration's, along `fmap`) at the
      tile-space index their `imap` gives; what does not change between
      iterations is computed before an `scf.for` over the for-loop range;
      accumulators (sum, mean, rms, max, sum_rescale as online softmax) are
      tiles the loop carries, `none` keeps each iteration's tile; output
      savers store the block's tile per `omap` (and `fmap`). `tb.matmul` is
      `tile.mma` (accumulating straight into the loop-carried tile when a
      sum accumulator is its one use, its loads with a latency hint),
      `tb.reduce` and `tb.rms_norm` are `tile.reduce` with arith/math,
      elementwise ops and `th.graph` bodies are arith/math on tiles, with
      `tile.broadcast` for numpy broadcasting. 16-bit float tiles are
      computed in f32 and rounded where stored or multiplied. Dims that
      every block takes whole and along which nothing is reduced are split
      over an unused grid dim (a product's batch dim: the code generator
      multiplies rank-2 tiles) or padded (to a power of two, and to what
      mma.sync needs of M and N; loads pad with zeros, stores drop it).
    - Predefined kernels (`tk.matmul`, `unary`, `binary`, `map`, `reduce`,
      `rms_norm`) are first written as the block graph of their tiling
      (matmul: 128x128 output tiles, K steps of 64; 64x128 with a batch
      dim) and lowered as above.

    What has no tile form is an error at the op that names the reason:
    tile dims that are not powers of two and cannot be padded, non-float
    tiles, `tb.concat`,
    the data-movement kernels (`tk.reshape`, `transpose`, `concat`,
    `split`), functions that return an
    argument. The function is then left as it was.
  }];
  let dependentDialects = [
    "::mlir::tileopt::tile::TileDialect", "::mlir::tileopt::th::THDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect"
  ];
}

def LowerTileToGPU : Pass<"tileopt-lower-tile", "::mlir::ModuleOp"> {
  let summary = "Lower tile kernels to gpu.func with per-thread fragments";
  let description = [{
    Tile programs say what a whole thread block computes, on immutable tiles;
    a GPU runs threads. This pass makes that step: every `tile.kernel`
    becomes a `gpu.func` kernel in a `gpu.module`, every tile value becomes
    the fragment of it each thread holds, as its layout says (which
    `tileopt-assign-layouts` gives every tile before this pass, for as many
    warps as `num-warps`: FragmentLayout, the layout's fragments), and every
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
    * `tile.scan` (over the last dim, either direction): a scan inside each
      chunk, then a per-row Hillis-Steele scan of the chunk totals in shared
      memory;
    * `tile.mma`: on the tensor cores its accumulator's layout names.
      `#tile.mma_sync`: mma.sync m16n8k16 on operands staged in shared
      memory and loaded with ldmatrix, each row padded by 16 bytes or (rows
      shorter than 128 bytes) XOR-swizzled by 16-byte chunk; a left operand
      that the `tile.mma` before it staged (`tile.lhs_staged`) is not staged
      again. `#tile.wgmma` (sm_90a): wgmma.mma_async m64nNk16, both operands
      read by matrix descriptor from 128-byte-swizzled panels. An `scf.for`
      whose `tile.mma_pipeline` describes a ring becomes that pipeline: its
      `stages` shared-memory stages filled `stages - 1` iterations ahead,
      laid out as its `staging` says, one barrier per iteration, the tensor
      cores reading straight from the stage; copied by 16-byte
      `cp.async.cg` (zero-filled outside the view), or with `tma` by one
      thread with `cp.async.bulk.tensor` (one box of up to 256 rows per
      64-column panel, zero-filled past the view), each stage completing on
      an mbarrier (`arrive.expect_tx`, `try_wait.parity`); the kernel then
      takes a device pointer to a CUtensorMap per operand after its other
      parameters, described by `tileopt.tensor_maps` on the `gpu.func`
      (view argument and box), and the host side creates them with
      `nvgpu.tma.create.descriptor`. Staging over 48 KiB goes to dynamic
      shared memory. A latency hint on the multiplicand of a loop that has
      no `tile.mma_pipeline` and that `tileopt-pipeline-tile-loads` did not
      take gets a warning that says why no ring was built;
    * `tile.broadcast`, `tile.reshape`, `tile.permute`, `tile.convert_layout`:
      the fragments are re-dealt through shared memory (or nothing at all
      when the layouts agree);
    * `scf.for` over tiles: the loop carries fragments.

    Views become kernel parameters: a global pointer (`!llvm.ptr<1>`, 16-byte
    aligned) and one i64 per dynamic dim, in argument order; scalars stay
    scalars. All scratch shares one workgroup buffer sized for the largest
    use. What the code generator cannot take yet (mma other than f16/bf16
    into f32, reductions and scans over other than the last dim, 64-bit
    data in shared memory, fragments over 256 elements per thread, a tile
    without a layout, a recorded ring it cannot build) is an error naming
    the op, not wrong code.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int64_t", /*default=*/"4",
           "Warps per thread block (each of 32 threads): the number the "
           "layouts were assigned for">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"
  ];
}

#endif // TILEOPT_CONVERSION_PASSES_TD
