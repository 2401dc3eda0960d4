// RUN: tileopt-opt %s -split-input-file --canonicalize | FileCheck %s

// A reshape to the input's own type is the input; a reshape of a reshape
// reshapes the first input.
// CHECK-LABEL: func.func @reshape_folds
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %arg0 : tensor<4x1x8xf16> -> tensor<32xf16>
// CHECK-NEXT:    return %arg0, %[[R]]
func.func @reshape_folds(%x: tensor<4x1x8xf16>) -> (tensor<4x1x8xf16>, tensor<32xf16>) {
  %rows = tk.reshape %x : tensor<4x1x8xf16> -> tensor<4x8xf16>
  %back = tk.reshape %rows : tensor<4x8xf16> -> tensor<4x1x8xf16>
  %flat = tk.reshape %rows : tensor<4x8xf16> -> tensor<32xf16>
  return %back, %flat : tensor<4x1x8xf16>, tensor<32xf16>
}
