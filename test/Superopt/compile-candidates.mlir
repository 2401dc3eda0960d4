// The search compiles each candidate it would return (compile-candidates,
// on by default) and leaves out those the tile code generator refuses: a
// fused form whose tiles are not powers of two is found and priced, but not
// returned, and the program keeps its form when nothing else compiles.
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 time-budget=900 keep=1 progress=true}))' \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=PROGRESS
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 time-budget=900 keep=1}))' \
// RUN:   | FileCheck %s
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 time-budget=900 keep=1 compile-candidates=false}))' \
// RUN:   | FileCheck %s --check-prefix=UNCHECKED

// 12 rows, hidden size 3072: every fused form splits the 3072 columns into
// tiles of 48, 192 or 768, or takes 12 rows where mma.sync needs 16 on
// these warps.
// PROGRESS: a candidate priced {{.*}} us is left out: 'tb.input_iterator' op has tile '!tb.tile<12x{{[0-9]+}}xf16>' whose dim 1 ({{[0-9]+}}) is not a power of two
// PROGRESS: @gated_mlp_12x3072: {{.*}}, not compiled 24,
// CHECK-LABEL: func.func @gated_mlp_12x3072
// CHECK-NOT: tk.fused
// CHECK-COUNT-2: tk.matmul
// CHECK: return
// UNCHECKED-LABEL: func.func @gated_mlp_12x3072
// UNCHECKED: tk.fused
// UNCHECKED-NOT: tk.matmul
// UNCHECKED: return
func.func @gated_mlp_12x3072(%x: tensor<12x3072xf16>, %w1: tensor<3072x3072xf16>, %w3: tensor<3072x3072xf16>) -> tensor<12x3072xf16> {
  %a = tk.matmul %x, %w1 : tensor<12x3072xf16>, tensor<3072x3072xf16> -> tensor<12x3072xf16>
  %b = tk.matmul %x, %w3 : tensor<12x3072xf16>, tensor<3072x3072xf16> -> tensor<12x3072xf16>
  %s = tk.unary silu %a : tensor<12x3072xf16>
  %y = tk.binary mul %s, %b : tensor<12x3072xf16>, tensor<12x3072xf16> -> tensor<12x3072xf16>
  return %y : tensor<12x3072xf16>
}

// -----

// A block graph partitions at most the 3 dims of a CUDA grid.
// RUN: not tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{max-grid-dims=4}))' \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=GRID-DIMS
// GRID-DIMS: error: max-grid-dims must be 1, 2 or 3, got 4
func.func @exp(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %0 = tk.unary exp %x : tensor<16x64xf16>
  return %0 : tensor<16x64xf16>
}
