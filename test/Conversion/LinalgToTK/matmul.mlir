// RUN: tileopt-opt %s -split-input-file --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// The plain matmul of a front end: a zero fill, then linalg.matmul.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<16x256xf16>, %[[B:.*]]: tensor<256x64xf16>)
// CHECK-NEXT:    %[[C:.*]] = tk.matmul %[[A]], %[[B]] : tensor<16x256xf16>, tensor<256x64xf16> -> tensor<16x64xf16>
// CHECK-NEXT:    return %[[C]]
func.func @matmul(%a: tensor<16x256xf16>, %b: tensor<256x64xf16>) -> tensor<16x64xf16> {
  %zero = arith.constant 0.0 : f16
  %empty = tensor.empty() : tensor<16x64xf16>
  %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<16x64xf16>) -> tensor<16x64xf16>
  %c = linalg.matmul ins(%a, %b : tensor<16x256xf16>, tensor<256x64xf16>)
                     outs(%init : tensor<16x64xf16>) -> tensor<16x64xf16>
  return %c : tensor<16x64xf16>
}

// -----

// CHECK-LABEL: func.func @batch_matmul
// CHECK-NEXT:    %[[C:.*]] = tk.matmul %arg0, %arg1 : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:    return %[[C]]
func.func @batch_matmul(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>) -> tensor<2x256x4096xf16> {
  %zero = arith.constant dense<0.0> : tensor<2x256x4096xf16>
  %c = linalg.batch_matmul ins(%q, %k : tensor<2x256x64xf16>, tensor<2x64x4096xf16>)
                           outs(%zero : tensor<2x256x4096xf16>) -> tensor<2x256x4096xf16>
  return %c : tensor<2x256x4096xf16>
}

// -----

// A @ B^T, written with indexing maps (what matmul_transpose_b became).
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK-NEXT:    %[[BT:.*]] = tk.transpose %arg1 [1, 0] : tensor<64x256xf32> -> tensor<256x64xf32>
// CHECK-NEXT:    %[[C:.*]] = tk.matmul %arg0, %[[BT]] : tensor<16x256xf32>, tensor<256x64xf32> -> tensor<16x64xf32>
// CHECK-NEXT:    return %[[C]]
func.func @matmul_transpose_b(%a: tensor<16x256xf32>, %b: tensor<64x256xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x64xf32>) -> tensor<16x64xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<16x256xf32>, tensor<64x256xf32>)
         outs(%init : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %c : tensor<16x64xf32>
}

// -----

// A^T @ B as a contraction generic, with the result written transposed.
// CHECK-LABEL: func.func @generic_transposed
// CHECK-NEXT:    %[[AT:.*]] = tk.transpose %arg0 [1, 0] : tensor<256x16xf32> -> tensor<16x256xf32>
// CHECK-NEXT:    %[[C:.*]] = tk.matmul %[[AT]], %arg1 : tensor<16x256xf32>, tensor<256x64xf32> -> tensor<16x64xf32>
// CHECK-NEXT:    %[[CT:.*]] = tk.transpose %[[C]] [1, 0] : tensor<16x64xf32> -> tensor<64x16xf32>
// CHECK-NEXT:    return %[[CT]]
func.func @generic_transposed(%a: tensor<256x16xf32>, %b: tensor<256x64xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x16xf32>) -> tensor<64x16xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                        affine_map<(m, n, k) -> (k, n)>,
                                        affine_map<(m, n, k) -> (n, m)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
         ins(%a, %b : tensor<256x16xf32>, tensor<256x64xf32>)
         outs(%init : tensor<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %c : tensor<64x16xf32>
}

// -----

// Per head h: C @ Wk_h, with C shared by all heads. The head loop indexes
// only the rhs (an n loop) and the result places it before the rows, so it
// is a batch dim the lhs broadcasts over: one tk.matmul, no copy of C.
// CHECK-LABEL: func.func @shared_lhs
// CHECK-NEXT:    %[[K:.*]] = tk.matmul %arg0, %arg1 : tensor<4096x512xf16>, tensor<16x512x128xf16> -> tensor<16x4096x128xf16>
// CHECK-NEXT:    return %[[K]]
func.func @shared_lhs(%c: tensor<4096x512xf16>, %wk: tensor<16x512x128xf16>) -> tensor<16x4096x128xf16> {
  %zero = arith.constant 0.0 : f16
  %empty = tensor.empty() : tensor<16x4096x128xf16>
  %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<16x4096x128xf16>) -> tensor<16x4096x128xf16>
  %k = linalg.generic {indexing_maps = [affine_map<(h, s, d, r) -> (s, r)>,
                                        affine_map<(h, s, d, r) -> (h, r, d)>,
                                        affine_map<(h, s, d, r) -> (h, s, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
         ins(%c, %wk : tensor<4096x512xf16>, tensor<16x512x128xf16>)
         outs(%init : tensor<16x4096x128xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  } -> tensor<16x4096x128xf16>
  return %k : tensor<16x4096x128xf16>
}

// -----

// linalg.contract with a transposed rhs and a batch dim.
// CHECK-LABEL: func.func @contract
// CHECK-NEXT:    %[[KT:.*]] = tk.transpose %arg1 [0, 2, 1] : tensor<16x4096x128xf16> -> tensor<16x128x4096xf16>
// CHECK-NEXT:    %[[S:.*]] = tk.matmul %arg0, %[[KT]] : tensor<16x1x128xf16>, tensor<16x128x4096xf16> -> tensor<16x1x4096xf16>
// CHECK-NEXT:    return %[[S]]
func.func @contract(%q: tensor<16x1x128xf16>, %k: tensor<16x4096x128xf16>) -> tensor<16x1x4096xf16> {
  %zero = arith.constant 0.0 : f16
  %empty = tensor.empty() : tensor<16x1x4096xf16>
  %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<16x1x4096xf16>) -> tensor<16x1x4096xf16>
  %s = linalg.contract indexing_maps = [affine_map<(h, b, s, d) -> (h, b, d)>,
                                        affine_map<(h, b, s, d) -> (h, s, d)>,
                                        affine_map<(h, b, s, d) -> (h, b, s)>]
         ins(%q, %k : tensor<16x1x128xf16>, tensor<16x4096x128xf16>)
         outs(%init : tensor<16x1x4096xf16>) -> tensor<16x1x4096xf16>
  return %s : tensor<16x1x4096xf16>
}

// -----

// A matrix-vector product: the missing n loop becomes a column of size 1.
// CHECK-LABEL: func.func @matvec
// CHECK-NEXT:    %[[V:.*]] = tk.reshape %arg1 : tensor<256xf32> -> tensor<256x1xf32>
// CHECK-NEXT:    %[[P:.*]] = tk.matmul %arg0, %[[V]] : tensor<16x256xf32>, tensor<256x1xf32> -> tensor<16x1xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %[[P]] : tensor<16x1xf32> -> tensor<16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @matvec(%a: tensor<16x256xf32>, %v: tensor<256xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.matvec ins(%a, %v : tensor<16x256xf32>, tensor<256xf32>)
                     outs(%init : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// A batch matmul whose lhs is shared by the batch: the lhs broadcasts.
// CHECK-LABEL: func.func @batch_shared_lhs
// CHECK-NEXT:    %[[R:.*]] = tk.matmul %arg0, %arg1 : tensor<4x8xf32>, tensor<2x8x16xf32> -> tensor<2x4x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @batch_shared_lhs(%a: tensor<4x8xf32>, %b: tensor<2x8x16xf32>) -> tensor<2x4x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x16xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>,
                                            affine_map<(b, m, n, k) -> (b, k, n)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : tensor<4x8xf32>, tensor<2x8x16xf32>) outs(%i : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %r : tensor<2x4x16xf32>
}

// -----

// A dot product: a 1x64 by 64x1 matmul, then a 0-d tensor.
// CHECK-LABEL: func.func @dot
// CHECK-NEXT:    %[[A:.*]] = tk.reshape %arg0 : tensor<64xf32> -> tensor<1x64xf32>
// CHECK-NEXT:    %[[B:.*]] = tk.reshape %arg1 : tensor<64xf32> -> tensor<64x1xf32>
// CHECK-NEXT:    %[[P:.*]] = tk.matmul %[[A]], %[[B]] : tensor<1x64xf32>, tensor<64x1xf32> -> tensor<1x1xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %[[P]] : tensor<1x1xf32> -> tensor<f32>
// CHECK-NEXT:    return %[[R]]
func.func @dot(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.dot ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%i : tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A true batch loop b and a head loop h that only the rhs has: the lhs
// gets a dim of 1 for h, between its batch dim and its rows.
// CHECK-LABEL: func.func @batch_and_shared_lhs
// CHECK-NEXT:    %[[A:.*]] = tk.reshape %arg0 : tensor<2x64x32xf32> -> tensor<2x1x64x32xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.matmul %[[A]], %arg1 : tensor<2x1x64x32xf32>, tensor<2x4x32x8xf32> -> tensor<2x4x64x8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @batch_and_shared_lhs(%c: tensor<2x64x32xf32>, %w: tensor<2x4x32x8xf32>) -> tensor<2x4x64x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x64x8xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x64x8xf32>) -> tensor<2x4x64x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, h, s, d, r) -> (b, s, r)>,
                                        affine_map<(b, h, s, d, r) -> (b, h, r, d)>,
                                        affine_map<(b, h, s, d, r) -> (b, h, s, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
         ins(%c, %w : tensor<2x64x32xf32>, tensor<2x4x32x8xf32>)
         outs(%i : tensor<2x4x64x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x4x64x8xf32>
  return %r : tensor<2x4x64x8xf32>
}

// -----

// The head loop after the rows stays a column loop: (s, h, d) is
// C @ Wk^T (512 x 16*128) reshaped, with no transpose of the product.
// CHECK-LABEL: func.func @shared_lhs_heads_inside
// CHECK-NEXT:    %[[WT:.*]] = tk.transpose %arg1 [1, 0, 2] : tensor<4x32x8xf32> -> tensor<32x4x8xf32>
// CHECK-NEXT:    %[[W2:.*]] = tk.reshape %[[WT]] : tensor<32x4x8xf32> -> tensor<32x32xf32>
// CHECK-NEXT:    %[[P:.*]] = tk.matmul %arg0, %[[W2]] : tensor<64x32xf32>, tensor<32x32xf32> -> tensor<64x32xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %[[P]] : tensor<64x32xf32> -> tensor<64x4x8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @shared_lhs_heads_inside(%c: tensor<64x32xf32>, %w: tensor<4x32x8xf32>) -> tensor<64x4x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x4x8xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<64x4x8xf32>) -> tensor<64x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(s, h, d, r) -> (s, r)>,
                                        affine_map<(s, h, d, r) -> (h, r, d)>,
                                        affine_map<(s, h, d, r) -> (s, h, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
         ins(%c, %w : tensor<64x32xf32>, tensor<4x32x8xf32>)
         outs(%i : tensor<64x4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x4x8xf32>
  return %r : tensor<64x4x8xf32>
}

// -----

// fp16 operands accumulated in fp32: linalg casts them to the result's
// type first, and so does the import, with a tk.map of an extf each.
// CHECK-LABEL: func.func @mixed_precision
// CHECK-NEXT:    %[[A:.*]] = tk.map (%[[X:.*]] = %arg0 : tensor<16x256xf16>) -> tensor<16x256xf32> {
// CHECK-NEXT:      %[[E:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:      tk.yield %[[E]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[B:.*]] = tk.map (%[[Y:.*]] = %arg1 : tensor<256x64xf16>) -> tensor<256x64xf32> {
// CHECK:         %[[C:.*]] = tk.matmul %[[A]], %[[B]] : tensor<16x256xf32>, tensor<256x64xf32> -> tensor<16x64xf32>
// CHECK-NEXT:    return %[[C]]
func.func @mixed_precision(%a: tensor<16x256xf16>, %b: tensor<256x64xf16>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x64xf32>) -> tensor<16x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x256xf16>, tensor<256x64xf16>)
                     outs(%init : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %c : tensor<16x64xf32>
}
