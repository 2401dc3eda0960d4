// What the superoptimizer cannot model keeps its form, with a remark.
// RUN: tileopt-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=1 time-budget=5}))' \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @unknown_op
// CHECK: tk.concat
func.func @unknown_op(%x: tensor<4x8xf16>, %y: tensor<4x8xf16>) -> tensor<8x8xf16> {
  // expected-remark @+1 {{the superoptimizer cannot model 'tk.concat'; the function is left as it is}}
  %0 = tk.concat %x, %y dim 0 : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}

// -----

// CHECK-LABEL: func.func @mixed_element_types
// CHECK-COUNT-2: tk.unary exp
// expected-remark @+1 {{the superoptimizer needs one element type, got 'f16' and 'f32'}}
func.func @mixed_element_types(%x: tensor<16x64xf16>, %y: tensor<16x64xf32>) -> (tensor<16x64xf16>, tensor<16x64xf32>) {
  %0 = tk.unary exp %x : tensor<16x64xf16>
  %1 = tk.unary exp %y : tensor<16x64xf32>
  return %0, %1 : tensor<16x64xf16>, tensor<16x64xf32>
}

// -----

// An argument nothing reads enters no candidate, so its type does not count
// (a torch partition takes a saved f32 statistic only to hand it on).
// CHECK-LABEL: func.func @unused_argument_of_another_type
// CHECK: tk.fused
// CHECK-NOT: tk.unary
func.func @unused_argument_of_another_type(%x: tensor<16x64xf16>, %unused: tensor<16x1xf32>) -> tensor<16x64xf16> {
  %0 = tk.unary exp %x : tensor<16x64xf16>
  %1 = tk.reduce sum %0 dim 1 : tensor<16x64xf16> -> tensor<16x1xf16>
  %2 = tk.binary div %0, %1 : tensor<16x64xf16>, tensor<16x1xf16> -> tensor<16x64xf16>
  return %2 : tensor<16x64xf16>
}

// -----

// A map may compute in another type inside; one whose result has another
// element type makes a program of two.
// CHECK-LABEL: func.func @map_to_another_type
// CHECK: tk.map
func.func @map_to_another_type(%x: tensor<16x64xf16>) -> tensor<16x64xf32> {
  // expected-remark @+1 {{the superoptimizer needs one element type, got 'f16' and 'f32'}}
  %0 = tk.map (%a = %x : tensor<16x64xf16>) -> tensor<16x64xf32> {
    %w = arith.extf %a : f16 to f32
    tk.yield %w : f32
  }
  return %0 : tensor<16x64xf32>
}

// -----

// Ops of other dialects (here, linalg that was not imported) are not modeled.
// CHECK-LABEL: func.func @not_imported
// CHECK: linalg.matmul
func.func @not_imported(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-remark @+1 {{the superoptimizer cannot model 'linalg.matmul'; the function is left as it is}}
  %0 = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @scalar_argument
// expected-remark @+1 {{the superoptimizer needs statically shaped tensor arguments}}
func.func @scalar_argument(%x: tensor<8x16xf32>, %s: f32) -> tensor<8x16xf32> {
  %0 = tk.unary exp %x : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// The verifier's field models at most one exp on a path, and silu holds
// one: no candidate of silu(exp(x)) could be verified, so none is searched.
// CHECK-LABEL: func.func @unverifiable
// CHECK: tk.unary exp
// CHECK: tk.unary silu
// expected-remark @+1 {{the verifier cannot check this program ('tk.unary' op exp of a value that already depends on an exp: the finite-field domain models at most one exp on a path); the function is left as it is}}
func.func @unverifiable(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %0 = tk.unary exp %x : tensor<16x64xf16>
  %1 = tk.unary silu %0 : tensor<16x64xf16>
  return %1 : tensor<16x64xf16>
}
