// The rmsnorm_linear example (examples/linalg/rmsnorm_linear.mlir) imports completely: every op
// becomes tk, with no warning (-verify-diagnostics fails on any).
// RUN: tileopt-opt %S/../../../../examples/linalg/rmsnorm_linear.mlir --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @rmsnorm_linear
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4096xf16>, %[[W:.*]]: tensor<4096x6144xf16>)
// CHECK-NEXT:    %[[N:.*]] = tk.rms_norm %[[X]] {epsilon = 1.00135803E-5 : f32} : tensor<2x4096xf16>
// CHECK-NEXT:    %[[Y:.*]] = tk.matmul %[[N]], %[[W]] : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
// CHECK-NEXT:    return %[[Y]] : tensor<2x6144xf16>
// CHECK-NOT:     linalg
// CHECK-NOT:     arith.constant
