// The lora example (examples/linalg/lora.mlir) imports completely: every op
// becomes tk, with no warning (-verify-diagnostics fails on any).
// RUN: tileopt-opt %S/../../../../examples/linalg/lora.mlir --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @lora
// CHECK-SAME:    (%[[X:.*]]: tensor<16x256xf16>, %[[W:.*]]: tensor<256x4096xf16>, %[[A:.*]]: tensor<256x16xf16>, %[[B:.*]]: tensor<16x4096xf16>)
// CHECK-NEXT:    %[[XW:.*]] = tk.matmul %[[X]], %[[W]] : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:    %[[XA:.*]] = tk.matmul %[[X]], %[[A]] : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
// CHECK-NEXT:    %[[XAB:.*]] = tk.matmul %[[XA]], %[[B]] : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:    %[[Y:.*]] = tk.binary add %[[XW]], %[[XAB]] : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
// CHECK-NEXT:    return %[[Y]] : tensor<16x4096xf16>
// CHECK-NOT:     linalg
// CHECK-NOT:     arith.constant
