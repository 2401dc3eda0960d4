// The tile interpreter on the tile examples at small sizes, with the exact
// results, and what it reports instead of running.
//
// Softmax with rows of 8: a row of zeros is uniform, a row 0..7 is
// e^i / sum_j e^j.
// RUN: sed 's/8192/8/g' %S/../../examples/tile/softmax.mlir > %t.softmax.mlir
// RUN: tileopt-interp %t.softmax.mlir --inputs=%S/Inputs/softmax-8x8.txt --precision=5 | FileCheck %s --check-prefix=SOFTMAX
// RUN: tileopt-interp %t.softmax.mlir --inputs=%S/Inputs/softmax-8x8.txt --precision=5 --domain=f32 | FileCheck %s --check-prefix=SOFTMAX
//
// A 23 x 23 GEMM in 8 x 8 tiles, K in 6 steps of 4: the last block row and
// column and the last K step hang over the edge. Ones times ones is 23
// everywhere: the loads past the edge read 0 and the stores there are
// dropped.
// RUN: sed -e 's/4096x4096/23x23/g; s/128x128/8x8/g; s/128x32/8x4/g; s/32x128/4x8/g' \
// RUN:     -e 's/constant 128 : index/constant 6 : index/; s/grid \[32, 32, 1\]/grid [3, 3, 1]/' \
// RUN:     %S/../../examples/tile/gemm.mlir > %t.gemm.mlir
// RUN: tileopt-interp %t.gemm.mlir --inputs=%S/Inputs/ones-23x23-twice.txt | FileCheck %s --check-prefix=GEMM
//
// A kernel alone, over a grid from the command line: the view sizes come
// from the tensors given. Blocks (1, 0) and (0, 1) are past the 2 x 2 edge.
// RUN: tileopt-interp %s --kernel=scale_rows --grid=2,2 --inputs=%S/Inputs/two-views-2x4.txt | FileCheck %s --check-prefix=KERNEL
//
// RUN: not tileopt-interp %t.softmax.mlir --domain=field 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not tileopt-interp %s --kernel=unsupported --grid=1 --inputs=%S/Inputs/two-by-four.txt 2>&1 | FileCheck %s --check-prefix=UNKNOWN-OP
// RUN: not tileopt-interp %s --kernel=scalar_arg --grid=1 2>&1 | FileCheck %s --check-prefix=SCALAR

// SOFTMAX:      # output #0 of @main
// SOFTMAX-NEXT: tensor 8x8
// SOFTMAX-NEXT: 0.125 0.125 0.125 0.125 0.125 0.125 0.125 0.125
// SOFTMAX-NEXT: 0.00057661 0.0015674 0.0042606 0.011582 0.031482 0.085577 0.23262 0.63233

// GEMM:      # output #0 of @main (f64)
// GEMM-NEXT: tensor 23x23
// GEMM-COUNT-23: {{^(23 ){22}23$}}
// GEMM-NOT:  {{.}}

// Each row of 2 x 4 doubled and its sum added; the last row is past the
// view's edge in the first block row.
// KERNEL:      # view #0 of @scale_rows (f64)
// KERNEL-NEXT: tensor 2x4
// KERNEL-NEXT: 1 2 3 4
// KERNEL-NEXT: 5 6 7 8
// KERNEL-NEXT: # view #1 of @scale_rows (f64)
// KERNEL-NEXT: tensor 2x4
// KERNEL-NEXT: 12 14 16 18
// KERNEL-NEXT: 36 38 40 42

tile.kernel @scale_rows(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %i = tile.block_id x
  %j = tile.block_id y
  %t = tile.load %x[%i, %j] padding zero : !tile.view<?x?xf32> -> tensor<2x4xf32>
  %s = tile.reduce sum %t dim 1 : tensor<2x4xf32> -> tensor<2xf32>
  %s1 = tile.reshape %s : tensor<2xf32> -> tensor<2x1xf32>
  %sb = tile.broadcast %s1 : tensor<2x1xf32> -> tensor<2x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %two = arith.constant dense<0.0> : tensor<2x4xf32>
  // Doubles by a loop of two additions.
  %d = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %two) -> (tensor<2x4xf32>) {
    %n = arith.addf %acc, %t : tensor<2x4xf32>
    scf.yield %n : tensor<2x4xf32>
  }
  %r = arith.addf %d, %sb : tensor<2x4xf32>
  tile.store %r, %y[%i, %j] : tensor<2x4xf32>, !tile.view<?x?xf32>
  tile.return
}

// UNKNOWN-OP: tile.mlir:[[#@LINE+4]]:8: error: 'math.atan' op is not supported by the tile interpreter
tile.kernel @unsupported(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<2x4xf32>
  %h = math.atan %t : tensor<2x4xf32>
  tile.return
}

// SCALAR: tile.mlir:[[#@LINE+1]]:1: error: 'tile.kernel' op has an argument of type 'f32': tileopt-interp binds tensor views only
tile.kernel @scalar_arg(%x: !tile.view<4xf32>, %a: f32) {
  tile.return
}

// FIELD: error: tile programs run in --domain=f64 or f32
