// Segments: ops whose values depend on one argument alone, and layout
// changes (reshapes, transposes), stay kernels of their own; the other ops
// are searched in segments between the layout changes, each as a program of
// its own (docs/superoptimizer.md, step 11).
//
// The graph budgets end the searches (the time budget is left generous:
// the segments share what the whole program's search leaves of it, and on
// a busy machine that could cut them short).
// The workload qknorm_attention, searched whole, is in the search benchmark
// (bench/search/segments.mlir).
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 progress=1 time-budget=900 graph-budget=1000000}))' \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=PROGRESS
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 time-budget=900 graph-budget=1000000}))' \
// RUN:   | FileCheck %s

// PROGRESS: [superopt] @two_prologues: searching 1 segment(s) between 2 kernel(s) kept as they are
// PROGRESS: [superopt] @two_prologues: explored
func.func @two_prologues(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %xn = tk.rms_norm %x {epsilon = 1.0e-5 : f32} : tensor<16x64xf16>
  %we = tk.unary exp %w : tensor<64x32xf16>
  %y = tk.matmul %xn, %we : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  return %y : tensor<16x32xf16>
}

// -----

// A kept op's value the program returns: the segment reads it, and the
// candidate returns it as the program does.
// PROGRESS: [superopt] @kept_value_returned: searching 1 segment(s) between 1 kernel(s) kept as they are
// CHECK-LABEL: func.func @kept_value_returned
// CHECK: %[[WT:.*]] = tk.transpose %arg1 [1, 0]
// CHECK: %[[Y:.*]] = tk.fused {{.*}}%[[WT]] : tensor<64x32xf16>
// CHECK: tb.unary exp
// CHECK: return %[[WT]], %[[Y]]
func.func @kept_value_returned(%x: tensor<16x64xf16>, %w: tensor<32x64xf16>) -> (tensor<64x32xf16>, tensor<16x32xf16>) {
  %wt = tk.transpose %w [1, 0] : tensor<32x64xf16> -> tensor<64x32xf16>
  %y = tk.matmul %x, %wt : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  %e = tk.unary exp %y : tensor<16x32xf16>
  return %wt, %e : tensor<64x32xf16>, tensor<16x32xf16>
}

// -----

// Nothing to search but a dead kept op: the program is searched whole, and
// the candidate returns the argument.
// PROGRESS-NOT: @returns_argument: searching
// CHECK-LABEL: func.func @returns_argument
// CHECK: return %arg0
func.func @returns_argument(%x: tensor<16x64xf16>, %y: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %d = tk.unary exp %y : tensor<16x64xf16>
  return %x : tensor<16x64xf16>
}

// -----

// A reshape that regroups dims (8 x 256 as 64 x 32, neither a merge nor
// a split): the verifier cannot shrink the program, so it gets no search of
// its own. The segment after the reshape (the weight as an argument) can
// be checked, and its candidates' verification against the segment stands
// for the whole: the reshape is the program's own.
// CHECK-LABEL: func.func @regrouped_weight
// CHECK: %[[W:.*]] = tk.reshape %arg1 : tensor<8x256xf16> -> tensor<64x32xf16>
// CHECK: tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%{{.*}} = %arg0 : tensor<16x64xf16>, %{{.*}} = %[[W]] : tensor<64x32xf16>)
// CHECK: tb.matmul
// CHECK: tb.reduce max
// CHECK: tb.binary sub
// CHECK-NOT: tk.
// CHECK: return
func.func @regrouped_weight(%x: tensor<16x64xf16>, %w: tensor<8x256xf16>) -> tensor<16x32xf16> {
  %w2 = tk.reshape %w : tensor<8x256xf16> -> tensor<64x32xf16>
  %y = tk.matmul %x, %w2 : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  %m = tk.reduce max %y dim 1 : tensor<16x32xf16> -> tensor<16x1xf16>
  %z = tk.binary sub %y, %m : tensor<16x32xf16>, tensor<16x1xf16> -> tensor<16x32xf16>
  return %z : tensor<16x32xf16>
}

// -----

// A segment the search cannot take (two exps on one path, which the
// verifier's field domain does not model) has no candidates: the other
// segment's still make a candidate, the unsearchable ops kept after it.
// PROGRESS: [superopt] @unsearchable_segment: searching 2 segment(s) between 1 kernel(s) kept as they are
// CHECK-LABEL: func.func @unsearchable_segment
// CHECK: %[[Z:.*]] = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%{{.*}} = %arg0 : tensor<16x64xf16>, %{{.*}} = %arg1 : tensor<64x32xf16>)
// CHECK: tb.reduce max
// CHECK: %[[T:.*]] = tk.transpose %[[Z]] [1, 0]
// CHECK-NEXT: %[[E:.*]] = tk.unary exp %[[T]]
// CHECK-NEXT: tk.unary exp %[[E]]
// CHECK-NEXT: return
func.func @unsearchable_segment(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>) -> tensor<32x16xf16> {
  %y = tk.matmul %x, %w : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  %m = tk.reduce max %y dim 1 : tensor<16x32xf16> -> tensor<16x1xf16>
  %z = tk.binary sub %y, %m : tensor<16x32xf16>, tensor<16x1xf16> -> tensor<16x32xf16>
  %t = tk.transpose %z [1, 0] : tensor<16x32xf16> -> tensor<32x16xf16>
  %e = tk.unary exp %t : tensor<32x16xf16>
  %f = tk.unary exp %e : tensor<32x16xf16>
  return %f : tensor<32x16xf16>
}

// -----

// A layout change between two searchable parts: the part before the
// transpose and the part after it are searched one after the other, and
// the candidate runs the first segment's kernel, the transpose, then the
// second segment's kernel.
// PROGRESS: [superopt] @layout_between: searching 2 segment(s) between 1 kernel(s) kept as they are
// CHECK-LABEL: func.func @layout_between
// CHECK: %[[Z:.*]] = tk.fused {{.*}}(%{{.*}} = %arg0 : tensor<16x64xf16>, %{{.*}} = %arg1 : tensor<64x32xf16>) -> tensor<16x32xf16>
// CHECK: tb.reduce max
// CHECK: %[[T:.*]] = tk.transpose %[[Z]] [1, 0] : tensor<16x32xf16> -> tensor<32x16xf16>
// CHECK: tk.fused {{.*}}%[[T]] : tensor<32x16xf16>{{.*}} -> tensor<32x8xf16>
// CHECK: tb.unary exp
// CHECK-NOT: tk.
// CHECK: return
func.func @layout_between(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>, %v: tensor<16x8xf16>) -> tensor<32x8xf16> {
  %y = tk.matmul %x, %w : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  %m = tk.reduce max %y dim 1 : tensor<16x32xf16> -> tensor<16x1xf16>
  %z = tk.binary sub %y, %m : tensor<16x32xf16>, tensor<16x1xf16> -> tensor<16x32xf16>
  %t = tk.transpose %z [1, 0] : tensor<16x32xf16> -> tensor<32x16xf16>
  %o = tk.matmul %t, %v : tensor<32x16xf16>, tensor<16x8xf16> -> tensor<32x8xf16>
  %e = tk.unary exp %o : tensor<32x8xf16>
  return %e : tensor<32x8xf16>
}
