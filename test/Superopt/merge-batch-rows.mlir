// RUN: tileopt-opt %s -split-input-file --tileopt-merge-batch-rows | FileCheck %s

// mla_decode in small, reassociated: the scores of 4 heads against one
// shared C^T, their softmax, and the probabilities against the shared C.
// Both products become one matmul over the heads' rows, the softmax moves
// onto the rows, and the reshapes between them cancel: one reshape to rows
// before, one back after.
// CHECK-LABEL: func.func @attention_over_shared_cache
// CHECK-SAME:    (%[[A:.*]]: tensor<4x1x32xf16>, %[[CT:.*]]: tensor<32x64xf16>, %[[C:.*]]: tensor<64x32xf16>)
// CHECK:         %[[ROWS:.*]] = tk.reshape %[[A]] : tensor<4x1x32xf16> -> tensor<4x32xf16>
// CHECK-NEXT:    %[[S:.*]] = tk.matmul %[[ROWS]], %[[CT]] : tensor<4x32xf16>, tensor<32x64xf16> -> tensor<4x64xf16>
// CHECK-NEXT:    %[[M:.*]] = tk.reduce max %[[S]] dim 1 : tensor<4x64xf16> -> tensor<4x1xf16>
// CHECK-NEXT:    %[[D:.*]] = tk.binary sub %[[S]], %[[M]] : tensor<4x64xf16>, tensor<4x1xf16> -> tensor<4x64xf16>
// CHECK-NEXT:    %[[E:.*]] = tk.unary exp %[[D]] : tensor<4x64xf16>
// CHECK-NEXT:    %[[L:.*]] = tk.reduce sum %[[E]] dim 1 : tensor<4x64xf16> -> tensor<4x1xf16>
// CHECK-NEXT:    %[[P:.*]] = tk.binary div %[[E]], %[[L]] : tensor<4x64xf16>, tensor<4x1xf16> -> tensor<4x64xf16>
// CHECK-NEXT:    %[[PC:.*]] = tk.matmul %[[P]], %[[C]] : tensor<4x64xf16>, tensor<64x32xf16> -> tensor<4x32xf16>
// CHECK-NEXT:    %[[OUT:.*]] = tk.reshape %[[PC]] : tensor<4x32xf16> -> tensor<4x1x32xf16>
// CHECK-NEXT:    return %[[OUT]]
func.func @attention_over_shared_cache(%a: tensor<4x1x32xf16>, %ct: tensor<32x64xf16>, %c: tensor<64x32xf16>) -> tensor<4x1x32xf16> {
  %s = tk.matmul %a, %ct : tensor<4x1x32xf16>, tensor<32x64xf16> -> tensor<4x1x64xf16>
  %m = tk.reduce max %s dim 2 : tensor<4x1x64xf16> -> tensor<4x1x1xf16>
  %d = tk.binary sub %s, %m : tensor<4x1x64xf16>, tensor<4x1x1xf16> -> tensor<4x1x64xf16>
  %e = tk.unary exp %d : tensor<4x1x64xf16>
  %l = tk.reduce sum %e dim 2 : tensor<4x1x64xf16> -> tensor<4x1x1xf16>
  %p = tk.binary div %e, %l : tensor<4x1x64xf16>, tensor<4x1x1xf16> -> tensor<4x1x64xf16>
  %pc = tk.matmul %p, %c : tensor<4x1x64xf16>, tensor<64x32xf16> -> tensor<4x1x32xf16>
  return %pc : tensor<4x1x32xf16>
}

// -----

// A row-wise op with a use that needs the batch dims stays on the batch;
// the op after it that only feeds the rows moves. A bias shared by all
// rows broadcasts over the rows.
// CHECK-LABEL: func.func @batch_use
// CHECK:         %[[S:.*]] = tk.matmul %{{.*}}, %arg1 : tensor<8x32xf16>, tensor<32x16xf16> -> tensor<8x16xf16>
// CHECK-NEXT:    %[[SB:.*]] = tk.reshape %[[S]] : tensor<8x16xf16> -> tensor<2x4x16xf16>
// CHECK-NEXT:    %[[E:.*]] = tk.unary exp %[[SB]] : tensor<2x4x16xf16>
// CHECK-NEXT:    %[[ER:.*]] = tk.reshape %[[E]] : tensor<2x4x16xf16> -> tensor<8x16xf16>
// CHECK-NEXT:    %[[BR:.*]] = tk.reshape %arg2 : tensor<1x1x16xf16> -> tensor<1x16xf16>
// CHECK-NEXT:    %[[Y:.*]] = tk.binary add %[[ER]], %[[BR]] : tensor<8x16xf16>, tensor<1x16xf16> -> tensor<8x16xf16>
// CHECK-NEXT:    tk.matmul %[[Y]], %arg3 : tensor<8x16xf16>, tensor<16x8xf16> -> tensor<8x8xf16>
// CHECK:         return %{{.*}}, %[[E]]
func.func @batch_use(%a: tensor<2x4x32xf16>, %w: tensor<32x16xf16>, %bias: tensor<1x1x16xf16>, %v: tensor<16x8xf16>) -> (tensor<2x4x8xf16>, tensor<2x4x16xf16>) {
  %s = tk.matmul %a, %w : tensor<2x4x32xf16>, tensor<32x16xf16> -> tensor<2x4x16xf16>
  %e = tk.unary exp %s : tensor<2x4x16xf16>
  %y = tk.binary add %e, %bias : tensor<2x4x16xf16>, tensor<1x1x16xf16> -> tensor<2x4x16xf16>
  %o = tk.matmul %y, %v : tensor<2x4x16xf16>, tensor<16x8xf16> -> tensor<2x4x8xf16>
  return %o, %e : tensor<2x4x8xf16>, tensor<2x4x16xf16>
}

// -----

// What stays: a batched rhs (each batch its own matrix), a reduction across
// the rows, and an operand broadcast over some of the leading dims but not
// all (on rows it would pair with the wrong rows).
// The two equal products become one.
// CHECK-LABEL: func.func @stays
// CHECK:         tk.matmul %arg0, %arg1 : tensor<2x4x32xf16>, tensor<2x32x16xf16> -> tensor<2x4x16xf16>
// CHECK:         %[[ROWS:.*]] = tk.matmul %{{.*}}, %arg2 : tensor<8x32xf16>, tensor<32x16xf16> -> tensor<8x16xf16>
// CHECK-NEXT:    %[[T:.*]] = tk.reshape %[[ROWS]] : tensor<8x16xf16> -> tensor<2x4x16xf16>
// CHECK-NEXT:    tk.reduce sum %[[T]] dim 1 : tensor<2x4x16xf16> -> tensor<2x1x16xf16>
// CHECK-NEXT:    tk.binary mul %[[T]], %arg3 : tensor<2x4x16xf16>, tensor<1x4x16xf16> -> tensor<2x4x16xf16>
// CHECK-NEXT:    return
func.func @stays(%a: tensor<2x4x32xf16>, %wb: tensor<2x32x16xf16>, %w: tensor<32x16xf16>, %g: tensor<1x4x16xf16>) -> (tensor<2x4x16xf16>, tensor<2x1x16xf16>, tensor<2x4x16xf16>) {
  %s = tk.matmul %a, %wb : tensor<2x4x32xf16>, tensor<2x32x16xf16> -> tensor<2x4x16xf16>
  %t = tk.matmul %a, %w : tensor<2x4x32xf16>, tensor<32x16xf16> -> tensor<2x4x16xf16>
  %r = tk.reduce sum %t dim 1 : tensor<2x4x16xf16> -> tensor<2x1x16xf16>
  %u = tk.matmul %a, %w : tensor<2x4x32xf16>, tensor<32x16xf16> -> tensor<2x4x16xf16>
  %m = tk.binary mul %u, %g : tensor<2x4x16xf16>, tensor<1x4x16xf16> -> tensor<2x4x16xf16>
  return %s, %r, %m : tensor<2x4x16xf16>, tensor<2x1x16xf16>, tensor<2x4x16xf16>
}
