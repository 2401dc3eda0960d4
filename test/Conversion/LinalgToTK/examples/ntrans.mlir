// The ntrans example (examples/linalg/ntrans.mlir) imports completely: every op
// becomes tk, with no warning (-verify-diagnostics fails on any).
// RUN: tileopt-opt %S/../../../../examples/linalg/ntrans.mlir --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @ntrans
// CHECK-SAME:    (%[[X:.*]]: tensor<8x4096xf16>, %[[Y:.*]]: tensor<8x4096xf16>, %[[W:.*]]: tensor<4096x4096xf16>)
// CHECK-NEXT:    %[[YW:.*]] = tk.matmul %[[Y]], %[[W]] : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:    %[[N1:.*]] = tk.rms_norm %[[YW]] {epsilon = 1.00135803E-5 : f32} : tensor<8x4096xf16>
// CHECK-NEXT:    %[[H:.*]] = tk.binary add %[[X]], %[[N1]] : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:    %[[N2:.*]] = tk.rms_norm %[[H]] {epsilon = 1.00135803E-5 : f32} : tensor<8x4096xf16>
// CHECK-NEXT:    return %[[N2]] : tensor<8x4096xf16>
// CHECK-NOT:     linalg
// CHECK-NOT:     arith.constant
