// RUN: tileopt-opt %s -split-input-file --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// Slices and concatenations with static offsets and unit strides, the way
// tosa.slice and tosa.concat lower (rotary embeddings, fused gate/up
// weights), are tk.split and tk.concat.

// CHECK-LABEL: func.func @extract_slice
// CHECK-NEXT:    %[[P:.*]]:3 = tk.split %arg0 dim 1 : tensor<6x80xf32> -> tensor<6x8xf32>, tensor<6x40xf32>, tensor<6x32xf32>
// CHECK-NEXT:    return %[[P]]#1
func.func @extract_slice(%x: tensor<6x80xf32>) -> tensor<6x40xf32> {
  %s = tensor.extract_slice %x[0, 8] [6, 40] [1, 1] : tensor<6x80xf32> to tensor<6x40xf32>
  return %s : tensor<6x40xf32>
}

// -----

// Along two dims, and dropping one: a split each, then a reshape.
// CHECK-LABEL: func.func @rank_reducing
// CHECK-NEXT:    %[[A:.*]]:2 = tk.split %arg0 dim 0 : tensor<4x8x16xf32> -> tensor<1x8x16xf32>, tensor<3x8x16xf32>
// CHECK-NEXT:    %[[B:.*]]:2 = tk.split %[[A]]#0 dim 2 : tensor<1x8x16xf32> -> tensor<1x8x4xf32>, tensor<1x8x12xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %[[B]]#0 : tensor<1x8x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    return %[[R]]
func.func @rank_reducing(%x: tensor<4x8x16xf32>) -> tensor<8x4xf32> {
  %s = tensor.extract_slice %x[0, 0, 0] [1, 8, 4] [1, 1, 1] : tensor<4x8x16xf32> to tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}

// -----

// tosa.concat: inserts into an empty tensor that fill it along one dim.
// CHECK-LABEL: func.func @insert_chain
// CHECK-NEXT:    %[[C:.*]] = tk.concat %arg1, %arg0 dim 2 : tensor<7x2x8xf32>, tensor<7x2x8xf32> -> tensor<7x2x16xf32>
// CHECK-NEXT:    return %[[C]]
func.func @insert_chain(%a: tensor<7x2x8xf32>, %b: tensor<7x2x8xf32>) -> tensor<7x2x16xf32> {
  %e = tensor.empty() : tensor<7x2x16xf32>
  %0 = tensor.insert_slice %a into %e[0, 0, 8] [7, 2, 8] [1, 1, 1] : tensor<7x2x8xf32> into tensor<7x2x16xf32>
  %1 = tensor.insert_slice %b into %0[0, 0, 0] [7, 2, 8] [1, 1, 1] : tensor<7x2x8xf32> into tensor<7x2x16xf32>
  return %1 : tensor<7x2x16xf32>
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK-NEXT:    %[[C:.*]] = tk.concat %arg0, %arg1 dim 0 : tensor<2x64xf16>, tensor<6x64xf16> -> tensor<8x64xf16>
func.func @concat(%a: tensor<2x64xf16>, %b: tensor<6x64xf16>) -> tensor<8x64xf16> {
  %c = tensor.concat dim(0) %a, %b : (tensor<2x64xf16>, tensor<6x64xf16>) -> tensor<8x64xf16>
  return %c : tensor<8x64xf16>
}

// -----

// Inserts that leave a gap are not a concatenation.
func.func @gap(%a: tensor<8x4xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  // expected-warning @+1 {{cannot import 'tensor.insert_slice': the inserts leave a gap or overlap; only a concatenation that fills the tensor has a tk form}}
  %0 = tensor.insert_slice %a into %e[0, 4] [8, 4] [1, 1] : tensor<8x4xf32> into tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
