// tileopt-compile starts at the earliest stage whose ops its input holds
// (TOSA, linalg, tk, a µGraph, tile) and runs only the stages after it: a
// kernel graph of predefined tk kernels is searched, a µGraph with
// graph-defined kernels (someone's choice) is not. An --emit before the
// input's stage, and input already past the tile stage, are errors.
// RUN: rm -rf %t && split-file %s %t

// A tk kernel graph: searched (--progress prints the search's statistics).
// RUN: tileopt-compile %t/tk.mlir --emit=ugraph --no-cache --progress 2>&1 | FileCheck %s --check-prefix=TK
// TK: [superopt] @scale_exp:
// TK-LABEL: func.func @scale_exp(
// TK: tk.fused

// A µGraph: lowered as it is, not searched.
// RUN: tileopt-compile %t/ugraph.mlir --emit=tile --no-cache --progress 2>&1 | FileCheck %s --check-prefix=UGRAPH
// UGRAPH-NOT: [superopt]
// UGRAPH-LABEL: tile.kernel @copy_k0(
// UGRAPH-LABEL: func.func @copy(
// UGRAPH: tile.launch @copy_k0 grid [4, 1, 1]

// Tile kernels: straight to the code generator.
// RUN: tileopt-compile %t/tile.mlir --emit=gpu --progress 2>&1 | FileCheck %s --check-prefix=TILE
// TILE-NOT: [superopt]
// TILE-LABEL: func.func @main(
// TILE: gpu.launch_func @tileopt_kernels::@copy
// TILE-LABEL: gpu.module @tileopt_kernels
// TILE: gpu.func @copy(

// Asking for a stage before the input's.
// RUN: not tileopt-compile %t/ugraph.mlir --emit=tk 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: ugraph.mlir:1:1: error: the input is at stage 'ugraph', past --emit=tk
// RUN: not tileopt-compile %t/tile.mlir --emit=linalg 2>&1 | FileCheck %s --check-prefix=PAST-TILE
// PAST-TILE: tile.mlir:1:1: error: the input is at stage 'tile', past --emit=linalg

// Input already lowered past the tile stage.
// RUN: not tileopt-compile %t/gpu.mlir --emit=gpu 2>&1 | FileCheck %s --check-prefix=GPU
// GPU: gpu.mlir:1:1: error: the input is already a gpu.module: tileopt-compile starts from tile kernels at the latest

//--- tk.mlir
func.func @scale_exp(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = tk.unary mul_scalar(5.000000e-01) %x : tensor<4x32xf32>
  %1 = tk.unary exp %0 : tensor<4x32xf32>
  return %1 : tensor<4x32xf32>
}

//--- ugraph.mlir
func.func @copy(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 1 (%a = %x : tensor<4x32xf32>) -> tensor<4x32xf32> {
    %t = tb.input_iterator %a imap [0, -1, -1] fmap -1 : tensor<4x32xf32> -> !tb.tile<1x32xf32>
    %e = tb.unary exp %t : !tb.tile<1x32xf32>
    %acc = tb.forloop_accum none %e : (!tb.tile<1x32xf32>) -> !tb.tile<1x32xf32>
    %o = tb.output_saver %acc omap [0, -1, -1] : !tb.tile<1x32xf32> -> tensor<4x32xf32>
    tb.yield %o : tensor<4x32xf32>
  }
  return %0 : tensor<4x32xf32>
}

//--- tile.mlir
tile.kernel @copy(%x: !tile.view<4x32xf32>, %y: !tile.view<4x32xf32>) {
  %row = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%row, %c0] : !tile.view<4x32xf32> -> tensor<1x32xf32>
  tile.store %t, %y[%row, %c0] : tensor<1x32xf32>, !tile.view<4x32xf32>
  tile.return
}
func.func @main(%x: memref<4x32xf32> {tileopt.name = "x"},
                %y: memref<4x32xf32> {tileopt.name = "y", tileopt.output}) {
  tile.launch @copy grid [4, 1, 1] (%x, %y) : memref<4x32xf32>, memref<4x32xf32>
  return
}

//--- gpu.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @noop() kernel {
      gpu.return
    }
  }
}
