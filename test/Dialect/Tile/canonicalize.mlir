// RUN: tileopt-opt %s -split-input-file --canonicalize | FileCheck %s

// A tile.permute [1, 0] of an mma's rhs folds into rhs_transposed: the
// tensor cores read the tile in its own layout.
// CHECK-LABEL: func.func @transposed_rhs
// CHECK-SAME: (%[[A:.*]]: tensor<32x64xf16>, %[[W:.*]]: tensor<16x64xf16>, %[[C:.*]]: tensor<32x16xf32>)
// CHECK-NOT: tile.permute
// CHECK: %[[R:.*]] = tile.mma %[[A]], %[[W]], %[[C]] {rhs_transposed} : tensor<32x64xf16>, tensor<16x64xf16>, tensor<32x16xf32>
// CHECK: return %[[R]]
func.func @transposed_rhs(%a: tensor<32x64xf16>, %w: tensor<16x64xf16>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %t = tile.permute %w [1, 0] : tensor<16x64xf16> -> tensor<64x16xf16>
  %r = tile.mma %a, %t, %c : tensor<32x64xf16>, tensor<64x16xf16>, tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// -----

// The lhs keeps its permute: only the rhs has a transposed form.
// CHECK-LABEL: func.func @transposed_lhs
// CHECK: %[[T:.*]] = tile.permute
// CHECK: tile.mma %[[T]], %{{.*}}, %{{.*}} : tensor<32x64xf16>
// CHECK-NOT: rhs_transposed
func.func @transposed_lhs(%a: tensor<64x32xf16>, %w: tensor<64x16xf16>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %t = tile.permute %a [1, 0] : tensor<64x32xf16> -> tensor<32x64xf16>
  %r = tile.mma %t, %w, %c : tensor<32x64xf16>, tensor<64x16xf16>, tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}
