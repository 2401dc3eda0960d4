// The mla_decode example (examples/linalg/mla_decode.mlir) imports completely: every op
// becomes tk, with no warning (-verify-diagnostics fails on any).
// RUN: tileopt-opt %S/../../../../examples/linalg/mla_decode.mlir --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// K = C @ Wk_h for every head: one tk.matmul in which C broadcasts over
// the heads; V likewise. The scores read K transposed.
// CHECK-LABEL: func.func @mla_decode
// CHECK-SAME:    (%[[Q:.*]]: tensor<16x1x128xf16>, %[[C:.*]]: tensor<4096x512xf16>, %[[WK:.*]]: tensor<16x512x128xf16>, %[[WV:.*]]: tensor<16x512x128xf16>)
// CHECK-NEXT:    %[[K:.*]] = tk.matmul %[[C]], %[[WK]] : tensor<4096x512xf16>, tensor<16x512x128xf16> -> tensor<16x4096x128xf16>
// CHECK-NEXT:    %[[V:.*]] = tk.matmul %[[C]], %[[WV]] : tensor<4096x512xf16>, tensor<16x512x128xf16> -> tensor<16x4096x128xf16>
// CHECK-NEXT:    %[[KT:.*]] = tk.transpose %[[K]] [0, 2, 1] : tensor<16x4096x128xf16> -> tensor<16x128x4096xf16>
// CHECK-NEXT:    %[[S:.*]] = tk.matmul %[[Q]], %[[KT]] : tensor<16x1x128xf16>, tensor<16x128x4096xf16> -> tensor<16x1x4096xf16>
// CHECK-NEXT:    %[[M:.*]] = tk.reduce max %[[S]] dim 2 : tensor<16x1x4096xf16> -> tensor<16x1x1xf16>
// CHECK-NEXT:    %[[D:.*]] = tk.binary sub %[[S]], %[[M]] : tensor<16x1x4096xf16>, tensor<16x1x1xf16> -> tensor<16x1x4096xf16>
// CHECK-NEXT:    %[[E:.*]] = tk.unary exp %[[D]] : tensor<16x1x4096xf16>
// CHECK-NEXT:    %[[Z:.*]] = tk.reduce sum %[[E]] dim 2 : tensor<16x1x4096xf16> -> tensor<16x1x1xf16>
// CHECK-NEXT:    %[[P:.*]] = tk.binary div %[[E]], %[[Z]] : tensor<16x1x4096xf16>, tensor<16x1x1xf16> -> tensor<16x1x4096xf16>
// CHECK-NEXT:    %[[O:.*]] = tk.matmul %[[P]], %[[V]] : tensor<16x1x4096xf16>, tensor<16x4096x128xf16> -> tensor<16x1x128xf16>
// CHECK-NEXT:    return %[[O]] : tensor<16x1x128xf16>
// CHECK-NOT:     linalg
// CHECK-NOT:     arith.constant
