// The qknorm_attention example (examples/linalg/qknorm_attention.mlir) imports completely: every op
// becomes tk, with no warning (-verify-diagnostics fails on any). K, stored as
// K^T, is normalized over its dim 1 (the head dim of each key): the dim
// moves last for tk.rms_norm and back.
// RUN: tileopt-opt %S/../../../../examples/linalg/qknorm_attention.mlir --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @qknorm_attention
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x256x64xf16>, %[[K:.*]]: tensor<2x64x4096xf16>, %[[V:.*]]: tensor<2x4096x64xf16>)
// CHECK-NEXT:    %[[QN:.*]] = tk.rms_norm %[[Q]] {epsilon = 1.00135803E-5 : f32} : tensor<2x256x64xf16>
// CHECK-NEXT:    %[[KT:.*]] = tk.transpose %[[K]] [0, 2, 1] : tensor<2x64x4096xf16> -> tensor<2x4096x64xf16>
// CHECK-NEXT:    %[[KTN:.*]] = tk.rms_norm %[[KT]] {epsilon = 1.00135803E-5 : f32} : tensor<2x4096x64xf16>
// CHECK-NEXT:    %[[KN:.*]] = tk.transpose %[[KTN]] [0, 2, 1] : tensor<2x4096x64xf16> -> tensor<2x64x4096xf16>
// CHECK-NEXT:    %[[S:.*]] = tk.matmul %[[QN]], %[[KN]] : tensor<2x256x64xf16>, tensor<2x64x4096xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:    %[[M:.*]] = tk.reduce max %[[S]] dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
// CHECK-NEXT:    %[[D:.*]] = tk.binary sub %[[S]], %[[M]] : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:    %[[E:.*]] = tk.unary exp %[[D]] : tensor<2x256x4096xf16>
// CHECK-NEXT:    %[[Z:.*]] = tk.reduce sum %[[E]] dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
// CHECK-NEXT:    %[[P:.*]] = tk.binary div %[[E]], %[[Z]] : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:    %[[O:.*]] = tk.matmul %[[P]], %[[V]] : tensor<2x256x4096xf16>, tensor<2x4096x64xf16> -> tensor<2x256x64xf16>
// CHECK-NEXT:    return %[[O]] : tensor<2x256x64xf16>
// CHECK-NOT:     linalg
// CHECK-NOT:     arith.constant
