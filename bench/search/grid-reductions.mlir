// Grid-wide rms_norms (tb.rms_norm `across`, option grid-reductions) on
// the norm-transformer layer rms_norm(X + rms_norm(Y @ W)) at the
// workload's size; the mechanism is tested at a small size in
// test/Superopt/grid-reductions.mlir.
// The workload itself (BENCHMARKS.md's ntrans at b=1), compiled: 64 blocks of
// 64 columns, at most one per SM of the H200 as blocks that wait for each
// other must be.
// RUN: tileopt-opt %S/../../examples/linalg/ntrans.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=2 time-budget=900 grid-reductions=true}))' \
// RUN:   | FileCheck %s --check-prefix=WORKLOAD

// WORKLOAD-LABEL: func.func @ntrans
// WORKLOAD-NEXT: tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 16
// WORKLOAD: tb.forloop_accum sum
// WORKLOAD-NEXT: tb.rms_norm %{{.*}} across 0
// WORKLOAD-NEXT: tb.binary add
// WORKLOAD-NEXT: tb.rms_norm %{{.*}} across 0
// WORKLOAD-NEXT: tb.output_saver %{{.*}} omap [1, -1, -1] : !tb.tile<8x64xf16> -> tensor<8x4096xf16>
// WORKLOAD-NEXT: tb.yield
// WORKLOAD-NEXT: }
// WORKLOAD-NEXT: return

