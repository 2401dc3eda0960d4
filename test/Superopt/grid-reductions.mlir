// Grid-wide rms_norms (tb.rms_norm `across`, option grid-reductions): the
// norm-transformer layer rms_norm(X + rms_norm(Y @ W)) as one kernel. Each
// block owns a column tile of Y @ W, which its loop accumulates over the
// hidden dim; both norms reduce over all columns, so the blocks add up
// their rows' sums of squares through a grid-wide barrier. Without the
// option, a kernel's blocks hold whole rows: at this size one block takes
// all 256 columns and all of W; at the workload's 4096 columns none can
// (docs/superoptimizer.md).
// A graph budget of 3M ends these searches in under a second; the workload
// (4096 columns) is searched whole in bench/search/grid-reductions.mlir.
// RUN: tileopt-opt %s \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 time-budget=900 graph-budget=3000000 grid-reductions=true compile-candidates=false}))' \
// RUN:   | FileCheck %s --check-prefix=GRID
// RUN: tileopt-opt %s \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 time-budget=900 graph-budget=3000000 compile-candidates=false}))' \
// RUN:   | FileCheck %s --check-prefix=DEFAULT

// GRID-LABEL: func.func @ntrans
// GRID-COUNT-1: tk.fused
// GRID-NOT: tk.
// GRID: tb.input_iterator %{{.*}} imap [{{[-0-9, ]*}}] fmap -1 : tensor<8x256xf16> -> !tb.tile<8x[[COLS:[0-9]+]]xf16>
// GRID: %[[ACC:.*]] = tb.forloop_accum sum
// GRID: %[[N1:.*]] = tb.rms_norm %[[ACC]] across [[DIM:[0-2]]] {epsilon = 9.99999974E-6 : f32} : !tb.tile<8x[[COLS]]xf16>
// GRID: %[[SUM:.*]] = tb.binary add %{{.*}}, %[[N1]]
// GRID: tb.rms_norm %[[SUM]] across [[DIM]]
// GRID: return

// DEFAULT-LABEL: func.func @ntrans
// DEFAULT-NEXT: tk.fused grid [1, 1, 1]
// DEFAULT-NOT: across
// DEFAULT: return
func.func @ntrans(%X: tensor<8x256xf16>, %Y: tensor<8x1024xf16>,
                  %W: tensor<1024x256xf16>) -> tensor<8x256xf16> {
  %0 = tk.matmul %Y, %W : tensor<8x1024xf16>, tensor<1024x256xf16> -> tensor<8x256xf16>
  %1 = tk.rms_norm %0 {epsilon = 1.0e-5 : f32} : tensor<8x256xf16>
  %2 = tk.binary add %X, %1 : tensor<8x256xf16>, tensor<8x256xf16> -> tensor<8x256xf16>
  %3 = tk.rms_norm %2 {epsilon = 1.0e-5 : f32} : tensor<8x256xf16>
  return %3 : tensor<8x256xf16>
}
