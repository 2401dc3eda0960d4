// softmax(Q @ K) @ V with a stable softmax becomes one attention kernel:
// blocks own row tiles (and column tiles of V). At this size a whole row of
// scores fits in shared memory, so the cheapest form has no loop; at the
// gqa_decode size the loop walks the keys and the running maximum rescales
// the partial sums (sum_rescale; docs/superoptimizer.md). Either way the
// shift by the maximum is kept: an exp of an unshifted value would overflow
// in f16. A graph budget (not a time budget) keeps the result deterministic.
// RUN: tileopt-opt %s \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=1 time-budget=900 graph-budget=15000000}))' \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @attention
// CHECK-NOT: tk.matmul
// CHECK: tk.fused grid
// CHECK: %[[S:.*]] = tb.matmul
// CHECK: %[[M:.*]] = tb.reduce max %[[S]]
// CHECK: %[[D:.*]] = tb.binary sub %[[S]], %[[M]]
// CHECK: %[[E:.*]] = tb.unary exp %[[D]]
// CHECK: tb.matmul %[[E]]
// CHECK: tb.binary div
// CHECK-NOT: tk.
// CHECK: return
func.func @attention(%q: tensor<2x64x32xf16>, %k: tensor<2x32x512xf16>, %v: tensor<2x512x32xf16>) -> tensor<2x64x32xf16> {
  %0 = tk.matmul %q, %k : tensor<2x64x32xf16>, tensor<2x32x512xf16> -> tensor<2x64x512xf16>
  %1 = tk.reduce max %0 dim 2 : tensor<2x64x512xf16> -> tensor<2x64x1xf16>
  %2 = tk.binary sub %0, %1 : tensor<2x64x512xf16>, tensor<2x64x1xf16> -> tensor<2x64x512xf16>
  %3 = tk.unary exp %2 : tensor<2x64x512xf16>
  %4 = tk.reduce sum %3 dim 2 : tensor<2x64x512xf16> -> tensor<2x64x1xf16>
  %5 = tk.binary div %3, %4 : tensor<2x64x512xf16>, tensor<2x64x1xf16> -> tensor<2x64x512xf16>
  %6 = tk.matmul %5, %v : tensor<2x64x512xf16>, tensor<2x512x32xf16> -> tensor<2x64x32xf16>
  return %6 : tensor<2x64x32xf16>
}
