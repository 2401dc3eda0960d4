// The search is not tuned to the benchmark shapes: row counts that are not
// powers of two and other hidden sizes give the same fusions.
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2}))' \
// RUN:   | FileCheck %s

// 12 rows, hidden size 3072.
// CHECK-LABEL: func.func @gated_mlp_12x3072
// CHECK-NOT: tk.matmul
// CHECK: tk.fused
// CHECK-COUNT-2: tb.matmul
// CHECK: tb.unary silu
// CHECK-NOT: tk.
// CHECK: return
func.func @gated_mlp_12x3072(%x: tensor<12x3072xf16>, %w1: tensor<3072x3072xf16>,
                             %w2: tensor<3072x3072xf16>) -> tensor<12x3072xf16> {
  %0 = tk.matmul %x, %w1 : tensor<12x3072xf16>, tensor<3072x3072xf16> -> tensor<12x3072xf16>
  %1 = tk.matmul %x, %w2 : tensor<12x3072xf16>, tensor<3072x3072xf16> -> tensor<12x3072xf16>
  %2 = tk.unary silu %0 : tensor<12x3072xf16>
  %3 = tk.binary mul %2, %1 : tensor<12x3072xf16>, tensor<12x3072xf16> -> tensor<12x3072xf16>
  return %3 : tensor<12x3072xf16>
}

// -----

// 7 rows, hidden size 1536, output 2560, as an rms_norm written the way a
// front end might leave it after import (epsilon 1e-6).
// CHECK-LABEL: func.func @rmsnorm_linear_7x1536
// CHECK-NOT: tk.rms_norm
// CHECK: tk.fused
// CHECK: tb.matmul
// CHECK-NOT: tk.
// CHECK: return
func.func @rmsnorm_linear_7x1536(%x: tensor<7x1536xf16>, %w: tensor<1536x2560xf16>) -> tensor<7x2560xf16> {
  %0 = tk.rms_norm %x {epsilon = 1.0e-6 : f32} : tensor<7x1536xf16>
  %1 = tk.matmul %0, %w : tensor<7x1536xf16>, tensor<1536x2560xf16> -> tensor<7x2560xf16>
  return %1 : tensor<7x2560xf16>
}
