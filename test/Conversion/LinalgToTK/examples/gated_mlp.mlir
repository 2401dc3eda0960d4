// The gated_mlp example (examples/linalg/gated_mlp.mlir) imports completely: every op
// becomes tk, with no warning (-verify-diagnostics fails on any).
// RUN: tileopt-opt %S/../../../../examples/linalg/gated_mlp.mlir --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @gated_mlp
// CHECK-SAME:    (%[[X:.*]]: tensor<8x4096xf16>, %[[W1:.*]]: tensor<4096x4096xf16>, %[[W2:.*]]: tensor<4096x4096xf16>)
// CHECK-NEXT:    %[[A:.*]] = tk.matmul %[[X]], %[[W1]] : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:    %[[B:.*]] = tk.matmul %[[X]], %[[W2]] : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:    %[[S:.*]] = tk.unary silu %[[A]] : tensor<8x4096xf16>
// CHECK-NEXT:    %[[Y:.*]] = tk.binary mul %[[S]], %[[B]] : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
// CHECK-NEXT:    return %[[Y]] : tensor<8x4096xf16>
// CHECK-NOT:     linalg
// CHECK-NOT:     arith.constant
