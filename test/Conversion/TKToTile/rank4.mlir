// Reductions and rms_norms of rank 4 are tiled on a view of rank <= 3: the
// dims before the reduced one merge, and so do those after it. The view of
// the input is free, and so is the reshape back: the function returns it,
// and the kernel writes the result's buffer through its own view.
// RUN: tileopt-opt %s --tileopt-lower-ugraph | FileCheck %s
// The same values as the kernel graph:
// RUN: tileopt-interp %s --function=rank4 --seed=3 | sed 1d | sed 's/^# result/# output/' > %t.tk
// RUN: tileopt-opt %s --tileopt-lower-ugraph | tileopt-interp --function=rank4 --seed=3 \
// RUN:   | sed 1d > %t.tile
// RUN: diff %t.tk %t.tile

// CHECK-LABEL: func.func @rank4
// CHECK-SAME:    (%arg0: memref<2x3x5x7xf32> {{.*}}, %arg1: memref<2x1x5x7xf32> {{.*}}, %arg2: memref<2x3x5x7xf32> {{.*}}, %arg3: memref<2x3x5x1xf32> {{.*}})
// CHECK-NEXT:    tile.launch @rank4_k0 grid [35, 2, 1](%arg0, %arg1) : memref<2x3x5x7xf32>, memref<2x1x5x7xf32>
// CHECK-NEXT:    tile.launch @rank4_k1 grid [15, 1, 1](%arg0, %arg2) : memref<2x3x5x7xf32>, memref<2x3x5x7xf32>
// CHECK-NEXT:    tile.launch @rank4_k2 grid [15, 1, 1](%arg0, %arg3) : memref<2x3x5x7xf32>, memref<2x3x5x1xf32>
// CHECK-NEXT:    return
func.func @rank4(%x: tensor<2x3x5x7xf32>) -> (tensor<2x1x5x7xf32>, tensor<2x3x5x7xf32>, tensor<2x3x5x1xf32>) {
  %s = tk.reduce sum %x dim 1 : tensor<2x3x5x7xf32> -> tensor<2x1x5x7xf32>
  %n = tk.rms_norm %x {epsilon = 1.0e-5 : f32} : tensor<2x3x5x7xf32>
  %m = tk.reduce max %x dim 3 : tensor<2x3x5x7xf32> -> tensor<2x3x5x1xf32>
  return %s, %n, %m : tensor<2x1x5x7xf32>, tensor<2x3x5x7xf32>, tensor<2x3x5x1xf32>
}

// A dot product as the importer writes it: the 1x1 product reshaped into a
// rank-0 result, which the product's kernel writes.
// CHECK-LABEL: func.func @dot
// CHECK-SAME:    (%[[A:.*]]: memref<64xf32> {{.*}}, %[[B:.*]]: memref<64xf32> {{.*}}, %[[OUT:.*]]: memref<f32> {{.*}})
// CHECK-NEXT:    tile.launch @dot_k0 {{.*}}(%[[A]], %[[B]], %[[OUT]])
// CHECK-NEXT:    return
func.func @dot(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<f32> {
  %0 = tk.reshape %a : tensor<64xf32> -> tensor<1x64xf32>
  %1 = tk.reshape %b : tensor<64xf32> -> tensor<64x1xf32>
  %2 = tk.matmul %0, %1 : tensor<1x64xf32>, tensor<64x1xf32> -> tensor<1x1xf32>
  %3 = tk.reshape %2 : tensor<1x1xf32> -> tensor<f32>
  return %3 : tensor<f32>
}

// An elementwise op whose dims do not merge into three (y broadcasts along
// dims 1 and 3 only) is a generic kernel (a tk.structured of its payload,
// y read at 0 along its size-1 dims); the tanh and exp after it merge into
// one dim.
// CHECK-LABEL: tile.kernel @broadcast5_k0
// CHECK:         tile.gather
// CHECK:         tile.gather
// CHECK:         arith.addf {{.*}} : tensor<256xf32>
// CHECK:         tile.scatter
// CHECK-LABEL: func.func @broadcast5
// CHECK:         tile.launch @broadcast5_k0 grid [3, 1, 1]
// CHECK:         tile.launch @broadcast5_k1 grid [45, 1, 1]({{.*}}) : memref<2x3x4x5x6xf32>, memref<720xf32>
// RUN: tileopt-interp %s --function=broadcast5 --seed=2 | sed 1d | sed 's/^# result/# output/' > %t.tk5
// RUN: tileopt-opt %s --tileopt-lower-ugraph | tileopt-interp --function=broadcast5 --seed=2 | sed 1d > %t.tile5
// RUN: diff %t.tk5 %t.tile5
func.func @broadcast5(%x: tensor<2x3x4x5x6xf32>, %y: tensor<2x1x4x1x6xf32>) -> tensor<2x3x4x5x6xf32> {
  %0 = tk.binary add %x, %y : tensor<2x3x4x5x6xf32>, tensor<2x1x4x1x6xf32> -> tensor<2x3x4x5x6xf32>
  %1 = tk.map (%a = %0 : tensor<2x3x4x5x6xf32>) -> tensor<2x3x4x5x6xf32> {
    %t = math.tanh %a : f32
    tk.yield %t : f32
  }
  %2 = tk.unary exp %1 : tensor<2x3x4x5x6xf32>
  return %2 : tensor<2x3x4x5x6xf32>
}
