// The bundled example µGraph parses, verifies, and its post-loop epilogue
// fuses into one thread graph.
// RUN: tileopt-opt %S/../../examples/ugraph/rmsnorm_linear.mlir \
// RUN:   --tileopt-fuse-thread-graphs | FileCheck %s

// CHECK-LABEL: func.func @rmsnorm_linear
// CHECK:       tk.fused grid [48, 1, 1] block [128, 1, 1] forloop 64
// CHECK-COUNT-2: tb.input_iterator
// CHECK:       tb.matmul
// CHECK:       tb.unary square
// CHECK:       tb.reduce sum
// CHECK-COUNT-2: tb.forloop_accum sum
// CHECK:       th.graph
// CHECK:         arith.mulf
// CHECK:         math.sqrt
// CHECK:         arith.divf
// CHECK:         th.yield
// CHECK:       tb.output_saver {{.*}} omap [1, -1, -1]
// CHECK-SAME:    -> tensor<16x6144xf16>
