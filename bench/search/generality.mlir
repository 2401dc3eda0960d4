// The search is not tuned to the benchmark shapes: row counts that are not
// powers of two, other hidden sizes and other sequence lengths give the same
// fusions (smaller cases: test/Superopt/generality.mlir).
// The graph budgets end these searches, not the clock (time-budget=900).
// Checked twice: the forms the search finds (FUSED, without compiling its
// candidates), and what it returns with its candidates compiled (COMPILED,
// the default): each function gets a form the code generator takes. Rows
// of 1536 and tiles of fewer elements than a block's threads compile since
// 2026-12-04 (a row is normalized padded with zeros to 2048; a small tile
// is reduced by the threads that hold its elements).
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 time-budget=900 compile-candidates=false}))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,FUSED
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 time-budget=900}))' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,COMPILED

// 7 rows, hidden size 1536, output 2560, as an rms_norm written the way a
// front end might leave it after import (epsilon 1e-6). Fused, a block
// holds whole rows of X and all 1536 rows of its W tile: 2048 x 32 padded,
// 512 elements a thread, over the code generator's 256. Compiled, the
// rms_norm is a kernel of its own (rows padded to 2048) and the product
// walks the hidden dim in 6 steps of 256.
// CHECK-LABEL: func.func @rmsnorm_linear_7x1536
// FUSED-NOT: tk.rms_norm
// FUSED: tk.fused
// FUSED: tb.matmul
// COMPILED: %[[XN:.*]] = tk.rms_norm %arg0 {{.*}} : tensor<7x1536xf16>
// COMPILED: tk.fused grid [{{[0-9]+}}, 1, 1] block [128, 1, 1] forloop 6 ({{.*}} = %[[XN]] : tensor<7x1536xf16>)
// COMPILED: tb.matmul {{.*}} : !tb.tile<7x256xf16>
// COMPILED: tb.forloop_accum sum
// CHECK-NOT: tk.
// CHECK: return
func.func @rmsnorm_linear_7x1536(%x: tensor<7x1536xf16>, %w: tensor<1536x2560xf16>) -> tensor<7x2560xf16> {
  %0 = tk.rms_norm %x {epsilon = 1.0e-6 : f32} : tensor<7x1536xf16>
  %1 = tk.matmul %0, %w : tensor<7x1536xf16>, tensor<1536x2560xf16> -> tensor<7x2560xf16>
  return %1 : tensor<7x2560xf16>
}

// -----

// Decode attention at other sizes (128 query rows, 8192 keys): split-KV and
// a combine again, with as many chunks as the grid needs (64 here).
// CHECK-LABEL: func.func @decode_attention_128x8192
// CHECK-NOT: tk.matmul
// CHECK: %[[PART:.*]]:3 = tk.fused grid [{{[0-9]+}}, [[CHUNKS:[0-9]+]], 1] block [128, 1, 1] forloop 1
// CHECK-DAG: tb.output_saver %{{.*}} omap [1, 2, -1] : {{.*}} -> tensor<2x128x[[CHUNKS]]xf16>
// CHECK-DAG: tb.output_saver %{{.*}} omap [1, 2, -1] : {{.*}} -> tensor<2x128x[[CHUNKS]]xf16>
// CHECK-DAG: tb.output_saver %{{.*}} omap [1, 0, -1] : {{.*}} -> tensor<{{[0-9]+}}x128x64xf16>
// CHECK: tk.fused grid [{{[0-9]+}}, {{[0-9]+}}, 1] block [128, 1, 1] forloop [[CHUNKS]] (%{{.*}} = %[[PART]]#0
// CHECK-COUNT-2: tb.forloop_accum sum_rescale
// CHECK: tb.binary div
// CHECK-NOT: tk.
// CHECK: return
func.func @decode_attention_128x8192(%q: tensor<2x128x64xf16>, %k: tensor<2x64x8192xf16>,
                                     %v: tensor<2x8192x64xf16>) -> tensor<2x128x64xf16> {
  %0 = tk.matmul %q, %k : tensor<2x128x64xf16>, tensor<2x64x8192xf16> -> tensor<2x128x8192xf16>
  %1 = tk.reduce max %0 dim 2 : tensor<2x128x8192xf16> -> tensor<2x128x1xf16>
  %2 = tk.binary sub %0, %1 : tensor<2x128x8192xf16>, tensor<2x128x1xf16> -> tensor<2x128x8192xf16>
  %3 = tk.unary exp %2 : tensor<2x128x8192xf16>
  %4 = tk.reduce sum %3 dim 2 : tensor<2x128x8192xf16> -> tensor<2x128x1xf16>
  %5 = tk.binary div %3, %4 : tensor<2x128x8192xf16>, tensor<2x128x1xf16> -> tensor<2x128x8192xf16>
  %6 = tk.matmul %5, %v : tensor<2x128x8192xf16>, tensor<2x8192x64xf16> -> tensor<2x128x64xf16>
  return %6 : tensor<2x128x64xf16>
}
