// A returned argument and a value returned twice (as front ends may emit:
// torch.export returns an input it leaves as it is) become copies, a tk.map
// that yields its operand: each result is a buffer of its own that a kernel
// writes. Before 2026-12-07 both were refused.
// RUN: tileopt-opt %s -split-input-file --tileopt-lower-ugraph | FileCheck %s
// The first function, run by tileopt-interp as the µGraph and as its tile
// program on the same seeded inputs, prints the same values: the copy is x.
// (The interpreter names the µGraph's results `result`, the tile program's
// output buffers `output`: the headers are left out.)
// RUN: sed '/^\/\/ -----/,$d' %s | tileopt-interp --seed=3 | sed '/^#/d' > %t.ugraph
// RUN: sed '/^\/\/ -----/,$d' %s | tileopt-opt --tileopt-lower-ugraph \
// RUN:   | tileopt-interp --seed=3 | sed '/^#/d' > %t.tile
// RUN: diff %t.ugraph %t.tile
// RUN: FileCheck %s --check-prefix=VALUES --input-file=%t.tile
// VALUES: tensor 8x64
// VALUES: tensor 8x64
// VALUES-NOT: tensor

// CHECK-LABEL: func.func @returns_argument
// CHECK-SAME: (%[[X:.*]]: memref<8x64xf32> {tileopt.name = "x"}, %[[E:.*]]: memref<8x64xf32> {tileopt.name = "out0", tileopt.output}, %[[C:.*]]: memref<8x64xf32> {tileopt.name = "out1", tileopt.output})
// CHECK-DAG: tile.launch @{{.*}}(%[[X]], %[[E]])
// CHECK-DAG: tile.launch @{{.*}}(%[[X]], %[[C]])
func.func @returns_argument(%x: tensor<8x64xf32> {tileopt.name = "x"}) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %0 = tk.unary exp %x : tensor<8x64xf32>
  return %0, %x : tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

// CHECK-LABEL: func.func @returns_twice
// CHECK-SAME: (%[[X:.*]]: memref<8x64xf32> {{.*}}, %[[A:.*]]: memref<8x64xf32> {tileopt.name = "out0", tileopt.output}, %[[B:.*]]: memref<8x64xf32> {tileopt.name = "out1", tileopt.output})
// CHECK: tile.launch @{{.*}}(%[[X]], %[[A]])
// CHECK: tile.launch @{{.*}}(%[[A]], %[[B]])
func.func @returns_twice(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %0 = tk.unary exp %x : tensor<8x64xf32>
  return %0, %0 : tensor<8x64xf32>, tensor<8x64xf32>
}
