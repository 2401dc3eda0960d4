// Segments (docs/superoptimizer.md, step 11) on a workload: qknorm_attention
// searched whole; the mechanism is tested on small programs in
// test/Superopt/segments.mlir.
// RUN: tileopt-opt %S/../../examples/linalg/qknorm_attention.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=2 time-budget=900}))' \
// RUN:   | FileCheck %s --check-prefix=QKNORM

// softmax(rms_norm(Q) @ rms_norm(K)) @ V at decode size, each query and
// each key normalized over the head dim (K, stored as K^T, over its dim 1:
// the importer's transposes around a tk.rms_norm). The search of the whole
// program would spend its budget on fused kernels over the raw inputs and
// complete no graph; after the two rms_norm kernels and the transposes,
// what is left is gqa_decode's attention, which the search splits over the
// keys (as FlashDecoding) plus a combine that rescales the partial results.
// Both rms_norms then move into the split-KV kernel
// (tileopt-absorb-producers): its blocks read whole rows of Q, and K tiles
// that hold all 64 head-dim rows of their keys, which each block
// normalizes column by column; the kernel reads Q and K themselves.
// QKNORM-LABEL: func.func @qknorm_attention
// QKNORM-NOT: tk.rms_norm
// QKNORM-NOT: tk.transpose
// QKNORM: %[[PART:.*]]:3 = tk.fused grid [{{[0-9]+}}, [[CHUNKS:[0-9]+]], 1] block [128, 1, 1] forloop 1 ({{.*}} = %arg2 : tensor<2x4096x64xf16>, %[[QA:.*]] = %arg0 : tensor<2x256x64xf16>, %[[KA:.*]] = %arg1 : tensor<2x64x4096xf16>)
// QKNORM: %[[QT:.*]] = tb.input_iterator %[[QA]] {{.*}} -> !tb.tile<{{[0-9]+}}x{{[0-9]+}}x64xf16>
// QKNORM-NEXT: %[[QN:.*]] = tb.rms_norm %[[QT]]
// QKNORM: %[[KT:.*]] = tb.input_iterator %[[KA]] {{.*}} -> !tb.tile<{{[0-9]+}}x64x{{[0-9]+}}xf16>
// QKNORM-NEXT: %[[SQ:.*]] = tb.unary square %[[KT]]
// QKNORM-NEXT: %[[MS:.*]] = tb.reduce mean %[[SQ]] dim 1
// QKNORM-NEXT: %[[PE:.*]] = tb.unary add_scalar(1.00135803E-5) %[[MS]]
// QKNORM-NEXT: %[[R:.*]] = tb.unary rsqrt %[[PE]]
// QKNORM-NEXT: %[[KN:.*]] = tb.binary mul %[[KT]], %[[R]]
// QKNORM: tb.matmul %[[QN]], %[[KN]]
// QKNORM: tb.reduce max
// QKNORM: tb.unary exp
// QKNORM-DAG: tb.output_saver %{{.*}} omap [1, 2, -1] : {{.*}} -> tensor<2x256x[[CHUNKS]]xf16>
// QKNORM-DAG: tb.output_saver %{{.*}} omap [1, 2, -1] : {{.*}} -> tensor<2x256x[[CHUNKS]]xf16>
// QKNORM-DAG: tb.output_saver %{{.*}} omap [1, 0, -1] : {{.*}} -> tensor<{{[0-9]+}}x256x64xf16>
// QKNORM: tk.fused grid [256, 1, 1] block [128, 1, 1] forloop [[CHUNKS]] (%{{.*}} = %[[PART]]#0
// QKNORM-COUNT-2: tb.forloop_accum sum_rescale
// QKNORM: tb.binary div
// QKNORM: tb.output_saver %{{.*}} omap [1, -1, -1]
// QKNORM-NOT: tk.
// QKNORM: return
