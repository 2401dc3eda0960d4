// The search is not tuned to the benchmark shapes: a row count that is not
// a power of two and another hidden size give the same fusion, and a
// negation is kept. The larger shapes, whose searches take 10-20 s each, are
// in the search benchmark (bench/search/generality.mlir).
// Checked twice: the forms the search finds (without compiling its
// candidates), and what it returns with its candidates compiled (the
// default).
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 time-budget=900 compile-candidates=false}))' \
// RUN:   | FileCheck %s
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 time-budget=900}))' \
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

// A negation (torch-mlir writes -x as one) is a scaling by -1: the search
// scales by it, and -max(x) is not dropped for equalling max(x) up to a
// constant factor, as it is the program's value.
// CHECK-LABEL: func.func @negated_row_max
// CHECK-NOT: tk.reduce
// CHECK: tk.fused
// CHECK: tb.reduce max
// CHECK: tb.unary mul_scalar(-1.000000e+00)
// CHECK-NOT: tk.
// CHECK: return
func.func @negated_row_max(%x: tensor<16x64xf16>) -> tensor<16x1xf16> {
  %y = tk.reduce max %x dim 1 : tensor<16x64xf16> -> tensor<16x1xf16>
  %z = tk.unary neg %y : tensor<16x1xf16>
  return %z : tensor<16x1xf16>
}
