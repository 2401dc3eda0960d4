// RUN: tileopt-opt %s -split-input-file --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @expand_collapse
// CHECK-NEXT:    %[[E:.*]] = tk.reshape %arg0 : tensor<8x64xf16> -> tensor<8x4x16xf16>
// CHECK-NEXT:    %[[T:.*]] = tk.transpose %[[E]] [0, 2, 1] : tensor<8x4x16xf16> -> tensor<8x16x4xf16>
// CHECK-NEXT:    %[[C:.*]] = tk.reshape %[[T]] : tensor<8x16x4xf16> -> tensor<128x4xf16>
// CHECK-NEXT:    return %[[C]]
func.func @expand_collapse(%x: tensor<8x64xf16>) -> tensor<128x4xf16> {
  %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [8, 4, 16] : tensor<8x64xf16> into tensor<8x4x16xf16>
  %empty = tensor.empty() : tensor<8x16x4xf16>
  %t = linalg.transpose ins(%e : tensor<8x4x16xf16>) outs(%empty : tensor<8x16x4xf16>) permutation = [0, 2, 1]
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<8x16x4xf16> into tensor<128x4xf16>
  return %c : tensor<128x4xf16>
}

// -----

// Reshapes in a row fold into one; a round trip folds away.
// CHECK-LABEL: func.func @chains
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %arg0 : tensor<2x3x4xf32> -> tensor<24xf32>
// CHECK-NEXT:    return %[[R]], %arg0
func.func @chains(%x: tensor<2x3x4xf32>) -> (tensor<24xf32>, tensor<2x3x4xf32>) {
  %a = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %b = tensor.collapse_shape %a [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %c = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  return %b, %c : tensor<24xf32>, tensor<2x3x4xf32>
}

// -----

// Transposes in a row compose; a transpose only of size-1 dims is a reshape.
// CHECK-LABEL: func.func @transposes
// CHECK-NEXT:    %[[T:.*]] = tk.transpose %arg0 [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT:    %[[U:.*]] = tk.reshape %arg1 : tensor<1x8xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    return %[[T]], %[[U]]
func.func @transposes(%x: tensor<2x3x4xf32>, %y: tensor<1x8xf32>) -> (tensor<4x2x3xf32>, tensor<8x1xf32>) {
  %e1 = tensor.empty() : tensor<3x4x2xf32>
  %t1 = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e1 : tensor<3x4x2xf32>) permutation = [1, 2, 0]
  %e2 = tensor.empty() : tensor<4x2x3xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<3x4x2xf32>) outs(%e2 : tensor<4x2x3xf32>) permutation = [1, 2, 0]
  %e3 = tensor.empty() : tensor<8x1xf32>
  %t3 = linalg.transpose ins(%y : tensor<1x8xf32>) outs(%e3 : tensor<8x1xf32>) permutation = [1, 0]
  return %t2, %t3 : tensor<4x2x3xf32>, tensor<8x1xf32>
}
