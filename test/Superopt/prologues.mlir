// Prologues: ops whose values depend on one argument alone, and ops that
// lead to a reshape or transpose, stay kernels of their own, and the rest
// of the program is searched as a program of its own (docs/superoptimizer.md,
// "Prologues").
//
// The graph budgets end both searches (the time budget is left generous:
// the rest gets what the whole program's search leaves of it, and on a
// busy machine that could cut it short).
// RUN: tileopt-opt %S/../../examples/linalg/qknorm_attention.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=2 time-budget=900}))' \
// RUN:   | FileCheck %s --check-prefix=QKNORM
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 progress=1 graph-budget=1000000}))' \
// RUN:   2>&1 | FileCheck %s

// softmax(rms_norm(Q) @ rms_norm(K)) @ V at decode size: the search of the
// whole program spends its budget on fused kernels over the raw inputs and
// completes no graph. After the two rms_norm kernels, what is left is
// gqa_decode's attention, which the search splits over the keys (as
// FlashDecoding) plus a combine that rescales the partial results.
// QKNORM-LABEL: func.func @qknorm_attention
// QKNORM: %[[QN:.*]] = tk.rms_norm %arg0
// QKNORM: %[[KN:.*]] = tk.rms_norm %arg1
// QKNORM: %[[PART:.*]]:3 = tk.fused grid [{{[0-9]+}}, [[CHUNKS:[0-9]+]], 1] block [128, 1, 1] forloop 1 ({{.*}} = %arg2 : tensor<2x4096x64xf16>, {{.*}} = %[[QN]] : tensor<2x256x64xf16>, {{.*}} = %[[KN]] : tensor<2x64x4096xf16>)
// QKNORM: tb.matmul
// QKNORM: tb.reduce max
// QKNORM: tb.unary exp
// QKNORM-COUNT-3: tb.output_saver %{{.*}} omap [1, 2, -1]
// QKNORM: tk.fused grid [{{[0-9]+}}, 1, 1] block [128, 1, 1] forloop [[CHUNKS]] (%{{.*}} = %[[PART]]#0
// QKNORM-COUNT-2: tb.forloop_accum sum_rescale
// QKNORM: tb.binary div
// QKNORM: tb.output_saver %{{.*}} omap [1, -1, -1]
// QKNORM-NOT: tk.
// QKNORM: return

// CHECK: [superopt] @two_prologues: searching after its prologues (2 kernel(s) kept)
// CHECK: [superopt] @two_prologues: explored
func.func @two_prologues(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %xn = tk.rms_norm %x {epsilon = 1.0e-5 : f32} : tensor<16x64xf16>
  %we = tk.unary exp %w : tensor<64x32xf16>
  %y = tk.matmul %xn, %we : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}

// -----

// A prologue value the program returns: the rest would return one of its
// arguments, so the program is searched whole only.
// CHECK-NOT: @prologue_returned: searching after
// CHECK: [superopt] @prologue_returned: explored
func.func @prologue_returned(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>) -> (tensor<16x64xf16>, tensor<16x32xf16>) {
  %xn = tk.rms_norm %x {epsilon = 1.0e-5 : f32} : tensor<16x64xf16>
  %y = tk.matmul %xn, %w : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  return %xn, %y : tensor<16x64xf16>, tensor<16x32xf16>
}

// -----

// The rest returns one of its arguments (the prologue op is dead): the rest
// takes that argument too.
// CHECK: [superopt] @returns_argument: searching after its prologues (1 kernel(s) kept)
// CHECK-LABEL: func.func @returns_argument
// CHECK: return %arg0
func.func @returns_argument(%x: tensor<16x64xf16>, %y: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %d = tk.unary exp %y : tensor<16x64xf16>
  return %x : tensor<16x64xf16>
}

// -----

// A reshape that merges dims: the verifier cannot shrink the program, so it
// gets no search of its own. The rest after the reshape (the weight as an
// argument) can be checked, and its candidates' verification against the
// rest stands for the whole: the reshape is the program's own.
// CHECK-LABEL: func.func @merged_weight
// CHECK: %[[W:.*]] = tk.reshape %arg1 : tensor<4x16x32xf16> -> tensor<64x32xf16>
// CHECK: tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%{{.*}} = %arg0 : tensor<16x64xf16>, %{{.*}} = %[[W]] : tensor<64x32xf16>)
// CHECK: tb.matmul
// CHECK: tb.reduce max
// CHECK: tb.binary sub
// CHECK-NOT: tk.
// CHECK: return
func.func @merged_weight(%x: tensor<16x64xf16>, %w: tensor<4x16x32xf16>) -> tensor<16x32xf16> {
  %w2 = tk.reshape %w : tensor<4x16x32xf16> -> tensor<64x32xf16>
  %y = tk.matmul %x, %w2 : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  %m = tk.reduce max %y dim 1 : tensor<16x32xf16> -> tensor<16x1xf16>
  %z = tk.binary sub %y, %m : tensor<16x32xf16>, tensor<16x1xf16> -> tensor<16x32xf16>
  return %z : tensor<16x32xf16>
}
