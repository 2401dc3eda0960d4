// RUN: %stock_mlir_opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,tosa-to-arith))" \
// RUN:   | tileopt-opt --tileopt-import-linalg -verify-diagnostics | FileCheck %s
// RUN: %stock_mlir_opt %s --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,tosa-to-arith))" \
// RUN:   | FileCheck %s --check-prefix=LINALG
// The same in one stock mlir-opt, the importer coming from the plugin:
// RUN: %stock_mlir_opt %s --load-dialect-plugin=%tileopt_plugin --load-pass-plugin=%tileopt_plugin \
// RUN:   --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,tosa-to-arith,tileopt-import-linalg))" \
// RUN:   | FileCheck %s

// A TOSA program taken through the stock TOSA-to-linalg pipeline, then
// imported: a batch matmul, a bias added by broadcast, exp, a reduce_sum
// that keeps its dim, a scale by 1/16 (with the sum, a mean), reshapes.

// What the pipeline hands the importer:
// LINALG-LABEL: func.func @tosa
// LINALG:         linalg.batch_matmul
// LINALG:         linalg.generic
// LINALG:           arith.addf
// LINALG:         linalg.generic
// LINALG:           math.exp
// LINALG:         linalg.reduce
// LINALG:         tensor.expand_shape
// LINALG:         linalg.generic
// LINALG:           arith.mulf
// LINALG:         tensor.collapse_shape

// CHECK-LABEL: func.func @tosa
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x8xf16>, %[[W:.*]]: tensor<1x8x16xf16>, %[[B:.*]]: tensor<1x1x16xf16>)
// CHECK-NEXT:    %[[MM:.*]] = tk.matmul %[[X]], %[[W]] : tensor<1x4x8xf16>, tensor<1x8x16xf16> -> tensor<1x4x16xf16>
// CHECK-NEXT:    %[[ADD:.*]] = tk.binary add %[[MM]], %[[B]] : tensor<1x4x16xf16>, tensor<1x1x16xf16> -> tensor<1x4x16xf16>
// CHECK-NEXT:    %[[EXP:.*]] = tk.unary exp %[[ADD]] : tensor<1x4x16xf16>
// CHECK-NEXT:    %[[MEAN:.*]] = tk.reduce mean %[[EXP]] dim 2 : tensor<1x4x16xf16> -> tensor<1x4x1xf16>
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %[[MEAN]] : tensor<1x4x1xf16> -> tensor<4xf16>
// CHECK-NEXT:    return %[[R]] : tensor<4xf16>
// CHECK-NOT:     linalg
// CHECK-NOT:     tensor.
func.func @tosa(%x: tensor<1x4x8xf16>, %w: tensor<1x8x16xf16>, %b: tensor<1x1x16xf16>) -> tensor<4xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %mm = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x8xf16>, tensor<1x8x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x16xf16>
  %add = tosa.add %mm, %b : (tensor<1x4x16xf16>, tensor<1x1x16xf16>) -> tensor<1x4x16xf16>
  %e = tosa.exp %add : (tensor<1x4x16xf16>) -> tensor<1x4x16xf16>
  %s = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x4x16xf16>) -> tensor<1x4x1xf16>
  %scale = "tosa.const"() <{values = dense<0.0625> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.mul %s, %scale, %shift : (tensor<1x4x1xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x4x1xf16>
  %shape = tosa.const_shape {values = dense<[4]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %m, %shape : (tensor<1x4x1xf16>, !tosa.shape<1>) -> tensor<4xf16>
  return %r : tensor<4xf16>
}
