// Reductions and rms_norms of rank 4 are tiled on a view of rank <= 3: the
// dims before the reduced one merge, and so do those after it. The view of
// the input is free; the result's reshape back is a copy where it is
// returned (each result is a buffer of its own).
// RUN: tileopt-opt %s --tileopt-lower-ugraph | FileCheck %s
// The same values as the kernel graph:
// RUN: tileopt-interp %s --seed=3 | sed 1d | sed 's/^# result/# output/' > %t.tk
// RUN: tileopt-opt %s --tileopt-lower-ugraph | tileopt-interp --seed=3 \
// RUN:   | awk '/^# output #3 /{done = 1} NR > 1 && !done' > %t.tile
// RUN: diff %t.tk %t.tile

// CHECK-LABEL: func.func @rank4
// CHECK:         tile.launch @rank4_k0 grid [35, 2, 1](%arg0, %[[S:.*]]) : memref<2x3x5x7xf32>, memref<2x1x35xf32>
// CHECK:         tile.launch @rank4_k1 {{.*}}(%[[S]], %arg1) : memref<2x1x35xf32>, memref<2x1x5x7xf32>
// CHECK:         tile.launch @rank4_k2 {{.*}}(%arg0, %[[N:.*]]) : memref<2x3x5x7xf32>, memref<30x7xf32>
// CHECK:         tile.launch @rank4_k3 {{.*}}(%[[N]], %arg2) : memref<30x7xf32>, memref<2x3x5x7xf32>
// CHECK:         tile.launch @rank4_k4 {{.*}}(%arg0, %[[M:.*]]) : memref<2x3x5x7xf32>, memref<30x1xf32>
func.func @rank4(%x: tensor<2x3x5x7xf32>) -> (tensor<2x1x5x7xf32>, tensor<2x3x5x7xf32>, tensor<2x3x5x1xf32>) {
  %s = tk.reduce sum %x dim 1 : tensor<2x3x5x7xf32> -> tensor<2x1x5x7xf32>
  %n = tk.rms_norm %x {epsilon = 1.0e-5 : f32} : tensor<2x3x5x7xf32>
  %m = tk.reduce max %x dim 3 : tensor<2x3x5x7xf32> -> tensor<2x3x5x1xf32>
  return %s, %n, %m : tensor<2x1x5x7xf32>, tensor<2x3x5x7xf32>, tensor<2x3x5x1xf32>
}
