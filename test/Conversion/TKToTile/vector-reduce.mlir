// A reduction of a vector: the code generator takes no rank-0 tiles, so
// each chunk is reduced as one row into a tile of one element, and the
// kernel compiles (a softmax or a mean of a vector used to be refused).
// REQUIRES: ptxas
// RUN: tileopt-opt %s -split-input-file --tileopt-lower-ugraph | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: tileopt-compile %s --graph-budget=1 --no-cache -o %t/sum 2>/dev/null
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sum/kernels.ptx

// CHECK-LABEL: tile.kernel @sum_of_a_vector_k0
// CHECK: tile.load {{.*}} -> tensor<[[N:[0-9]+]]xf32>
// CHECK: tile.reshape {{.*}} : tensor<[[N]]xf32> -> tensor<1x[[N]]xf32>
// CHECK: tile.reduce sum {{.*}} dim 1 : tensor<1x[[N]]xf32> -> tensor<1xf32>
// CHECK-NOT: tensor<f32>
// CHECK: tile.store
// PTX: .entry sum_of_a_vector_k0
func.func @sum_of_a_vector(%x: tensor<37xf32>) -> tensor<1xf32> {
  %0 = tk.reduce sum %x dim 0 : tensor<37xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
