// Upstream's tosa-to-linalg sums bf16 in f32 between two casts; imported,
// that is tk's bf16 sum (its kernels accumulate in f32), so the program
// keeps one element type and a scaled sum is a mean.
// RUN: %stock_mlir_opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,tosa-to-arith))" \
// RUN:   | tileopt-opt -split-input-file --tileopt-import-linalg | FileCheck %s
// RUN: %stock_mlir_opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,tosa-to-arith))" \
// RUN:   | FileCheck %s --check-prefix=LINALG

// LINALG-LABEL: func.func @bf16_mean
// LINALG: arith.extf
// LINALG: arith.truncf
// CHECK-LABEL: func.func @bf16_mean
// CHECK-NOT: tk.map
// CHECK: %[[MEAN:.*]] = tk.reduce mean %arg0 dim 1 : tensor<4x129xbf16> -> tensor<4x1xbf16>
// CHECK-NOT: tk.map
// CHECK: tk.binary sub %arg0, %[[MEAN]]
func.func @bf16_mean(%x: tensor<4x129xbf16>) -> tensor<4x129xbf16> {
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x129xbf16>) -> tensor<4x1xbf16>
  %n = "tosa.const"() <{values = dense<129.0> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
  %inv = tosa.reciprocal %n : (tensor<1x1xbf16>) -> tensor<1x1xbf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mean = tosa.mul %sum, %inv, %shift : (tensor<4x1xbf16>, tensor<1x1xbf16>, tensor<1xi8>) -> tensor<4x1xbf16>
  %centered = tosa.sub %x, %mean : (tensor<4x129xbf16>, tensor<4x1xbf16>) -> tensor<4x129xbf16>
  return %centered : tensor<4x129xbf16>
}

// -----

// A sum of an f32 cast that the program returns in f32 is an f32 sum: no
// bf16 sum stands for it.
// CHECK-LABEL: func.func @f32_sum_of_bf16
// CHECK: tk.map
// CHECK: arith.extf
// CHECK: tk.reduce sum %{{.*}} dim 1 : tensor<4x129xf32> -> tensor<4x1xf32>
func.func @f32_sum_of_bf16(%x: tensor<4x129xbf16>) -> tensor<4x1xf32> {
  %wide = tosa.cast %x : (tensor<4x129xbf16>) -> tensor<4x129xf32>
  %sum = tosa.reduce_sum %wide {axis = 1 : i32} : (tensor<4x129xf32>) -> tensor<4x1xf32>
  return %sum : tensor<4x1xf32>
}

// -----

// The f32 sum rounded to f16 is not the f16 sum of the bf16 values.
// CHECK-LABEL: func.func @bf16_summed_into_f16
// CHECK: tk.reduce sum %{{.*}} : tensor<4x129xf32> -> tensor<4x1xf32>
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @bf16_summed_into_f16(%x: tensor<4x129xbf16>) -> tensor<4x1xf16> {
  %wide = tosa.cast %x : (tensor<4x129xbf16>) -> tensor<4x129xf32>
  %sum = tosa.reduce_sum %wide {axis = 1 : i32} : (tensor<4x129xf32>) -> tensor<4x1xf32>
  %narrow = tosa.cast %sum : (tensor<4x1xf32>) -> tensor<4x1xf16>
  return %narrow : tensor<4x1xf16>
}
