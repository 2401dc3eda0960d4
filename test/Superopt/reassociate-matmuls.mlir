// RUN: tileopt-opt %s -split-input-file --tileopt-reassociate-matmuls | FileCheck %s

// mla_decode's scores in small: x @ (C @ Wk)^T, the keys of every head
// formed (2*32*8*16*2 flops) to meet one query row each. As
// (x @ Wk^T) @ C^T the keys are never formed; C broadcasts over the heads.
// CHECK-LABEL: func.func @scores_of_projected_keys
// CHECK-SAME:    (%[[X:.*]]: tensor<2x1x8xf32>, %[[C:.*]]: tensor<32x16xf32>, %[[WK:.*]]: tensor<2x16x8xf32>)
// CHECK-DAG:     %[[WKT:.*]] = tk.transpose %[[WK]] [0, 2, 1] : tensor<2x16x8xf32> -> tensor<2x8x16xf32>
// CHECK-DAG:     %[[CT:.*]] = tk.transpose %[[C]] [1, 0] : tensor<32x16xf32> -> tensor<16x32xf32>
// CHECK:         %[[Q:.*]] = tk.matmul %[[X]], %[[WKT]] : tensor<2x1x8xf32>, tensor<2x8x16xf32> -> tensor<2x1x16xf32>
// CHECK-NEXT:    %[[S:.*]] = tk.matmul %[[Q]], %[[CT]] : tensor<2x1x16xf32>, tensor<16x32xf32> -> tensor<2x1x32xf32>
// CHECK-NEXT:    return %[[S]]
func.func @scores_of_projected_keys(%x: tensor<2x1x8xf32>, %c: tensor<32x16xf32>, %wk: tensor<2x16x8xf32>) -> tensor<2x1x32xf32> {
  %k = tk.matmul %c, %wk : tensor<32x16xf32>, tensor<2x16x8xf32> -> tensor<2x32x8xf32>
  %kt = tk.transpose %k [0, 2, 1] : tensor<2x32x8xf32> -> tensor<2x8x32xf32>
  %s = tk.matmul %x, %kt : tensor<2x1x8xf32>, tensor<2x8x32xf32> -> tensor<2x1x32xf32>
  return %s : tensor<2x1x32xf32>
}

// -----

// x @ (A @ B) with a thin x: (x @ A) @ B.
// CHECK-LABEL: func.func @left
// CHECK-NEXT:    %[[XA:.*]] = tk.matmul %arg0, %arg1 : tensor<1x64xf32>, tensor<64x32xf32> -> tensor<1x32xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.matmul %[[XA]], %arg2 : tensor<1x32xf32>, tensor<32x48xf32> -> tensor<1x48xf32>
// CHECK-NEXT:    return %[[R]]
func.func @left(%x: tensor<1x64xf32>, %a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> tensor<1x48xf32> {
  %ab = tk.matmul %a, %b : tensor<64x32xf32>, tensor<32x48xf32> -> tensor<64x48xf32>
  %r = tk.matmul %x, %ab : tensor<1x64xf32>, tensor<64x48xf32> -> tensor<1x48xf32>
  return %r : tensor<1x48xf32>
}

// -----

// (X @ A) @ b with a thin b: X @ (A @ b).
// CHECK-LABEL: func.func @right
// CHECK-NEXT:    %[[AB:.*]] = tk.matmul %arg1, %arg2 : tensor<32x48xf32>, tensor<48x1xf32> -> tensor<32x1xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.matmul %arg0, %[[AB]] : tensor<64x32xf32>, tensor<32x1xf32> -> tensor<64x1xf32>
// CHECK-NEXT:    return %[[R]]
func.func @right(%x: tensor<64x32xf32>, %a: tensor<32x48xf32>, %b: tensor<48x1xf32>) -> tensor<64x1xf32> {
  %xa = tk.matmul %x, %a : tensor<64x32xf32>, tensor<32x48xf32> -> tensor<64x48xf32>
  %r = tk.matmul %xa, %b : tensor<64x48xf32>, tensor<48x1xf32> -> tensor<64x1xf32>
  return %r : tensor<64x1xf32>
}

// -----

// Already the cheaper order: nothing changes.
// CHECK-LABEL: func.func @cheapest_already
// CHECK-NEXT:    %[[XA:.*]] = tk.matmul %arg0, %arg1
// CHECK-NEXT:    %[[R:.*]] = tk.matmul %[[XA]], %arg2
// CHECK-NEXT:    return %[[R]]
func.func @cheapest_already(%x: tensor<1x64xf32>, %a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> tensor<1x48xf32> {
  %xa = tk.matmul %x, %a : tensor<1x64xf32>, tensor<64x32xf32> -> tensor<1x32xf32>
  %r = tk.matmul %xa, %b : tensor<1x32xf32>, tensor<32x48xf32> -> tensor<1x48xf32>
  return %r : tensor<1x48xf32>
}

// -----

// A product with another use is computed anyway: reordering the chain
// would add flops, not save them.
// CHECK-LABEL: func.func @shared_product
// CHECK-NEXT:    %[[AB:.*]] = tk.matmul %arg1, %arg2
// CHECK-NEXT:    %[[R:.*]] = tk.matmul %arg0, %[[AB]]
// CHECK-NEXT:    return %[[R]], %[[AB]]
func.func @shared_product(%x: tensor<1x64xf32>, %a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> (tensor<1x48xf32>, tensor<64x48xf32>) {
  %ab = tk.matmul %a, %b : tensor<64x32xf32>, tensor<32x48xf32> -> tensor<64x48xf32>
  %r = tk.matmul %x, %ab : tensor<1x64xf32>, tensor<64x48xf32> -> tensor<1x48xf32>
  return %r, %ab : tensor<1x48xf32>, tensor<64x48xf32>
}

// -----

// x @ (A^T @ B)^T = (x @ B^T) @ A: the transpose of A's transpose cancels.
// CHECK-LABEL: func.func @transposes_cancel
// CHECK-NEXT:    %[[BT:.*]] = tk.transpose %arg2 [1, 0] : tensor<64x48xf32> -> tensor<48x64xf32>
// CHECK-NEXT:    %[[XB:.*]] = tk.matmul %arg0, %[[BT]] : tensor<1x48xf32>, tensor<48x64xf32> -> tensor<1x64xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.matmul %[[XB]], %arg1 : tensor<1x64xf32>, tensor<64x32xf32> -> tensor<1x32xf32>
// CHECK-NEXT:    return %[[R]]
func.func @transposes_cancel(%x: tensor<1x48xf32>, %a: tensor<64x32xf32>, %b: tensor<64x48xf32>) -> tensor<1x32xf32> {
  %at = tk.transpose %a [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  %atb = tk.matmul %at, %b : tensor<32x64xf32>, tensor<64x48xf32> -> tensor<32x48xf32>
  %t = tk.transpose %atb [1, 0] : tensor<32x48xf32> -> tensor<48x32xf32>
  %r = tk.matmul %x, %t : tensor<1x48xf32>, tensor<48x32xf32> -> tensor<1x32xf32>
  return %r : tensor<1x32xf32>
}

// -----

// The rewrite folds the function; a map's constants stay in its region,
// which sees nothing but its arguments (they were hoisted out of it, and
// the verifier's interpreter crashed on the map of mla_decode's softmax).
// CHECK-LABEL: func.func @map_keeps_its_constant
// CHECK:         tk.map
// CHECK-NEXT:      arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      arith.divf
// CHECK-NEXT:      tk.yield
func.func @map_keeps_its_constant(%x: tensor<1x64xf32>, %a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> tensor<1x48xf32> {
  %ab = tk.matmul %a, %b : tensor<64x32xf32>, tensor<32x48xf32> -> tensor<64x48xf32>
  %r = tk.matmul %x, %ab : tensor<1x64xf32>, tensor<64x48xf32> -> tensor<1x48xf32>
  %i = tk.map (%v = %r : tensor<1x48xf32>) -> tensor<1x48xf32> {
    %one = arith.constant 1.0 : f32
    %q = arith.divf %one, %v : f32
    tk.yield %q : f32
  }
  return %i : tensor<1x48xf32>
}
