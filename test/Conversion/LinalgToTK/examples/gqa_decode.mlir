// The gqa_decode example (examples/linalg/gqa_decode.mlir) imports completely: every op
// becomes tk, with no warning (-verify-diagnostics fails on any).
// RUN: tileopt-opt %S/../../../../examples/linalg/gqa_decode.mlir --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @gqa_decode
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x256x64xf16>, %[[K:.*]]: tensor<2x64x4096xf16>, %[[V:.*]]: tensor<2x4096x64xf16>)
// CHECK-NEXT:    %[[S:.*]] = tk.matmul %[[Q]], %[[K]] : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:    %[[M:.*]] = tk.reduce max %[[S]] dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
// CHECK-NEXT:    %[[D:.*]] = tk.binary sub %[[S]], %[[M]] : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:    %[[E:.*]] = tk.unary exp %[[D]] : tensor<2x256x4096xf16>
// CHECK-NEXT:    %[[Z:.*]] = tk.reduce sum %[[E]] dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
// CHECK-NEXT:    %[[P:.*]] = tk.binary div %[[E]], %[[Z]] : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:    %[[O:.*]] = tk.matmul %[[P]], %[[V]] : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
// CHECK-NEXT:    return %[[O]] : tensor<2x256x64xf16>
// CHECK-NOT:     linalg
// CHECK-NOT:     arith.constant
