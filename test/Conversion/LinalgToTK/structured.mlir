// RUN: tileopt-opt %s -split-input-file --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// What no tk op models becomes a tk.structured: the op as one
// linalg.generic (named ops generalized, tensor.pad written out), with what
// builds its init rebuilt in the region. A remark says why the patterns
// refused it; the function is a kernel graph.

// A convolution reads its input through h + kh. Its fill init moves into
// the region; the bias add around it imports as tk ops.
// CHECK-LABEL: func.func @conv_bias
// CHECK-SAME:    (%[[X:.*]]: tensor<1x6x6x2xf32>, %[[W:.*]]: tensor<3x3x2x4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK:         %[[C:.*]] = tk.structured (%[[A:.*]] = %[[X]] : tensor<1x6x6x2xf32>, %[[F:.*]] = %[[W]] : tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf32> {
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[E:.*]] = tensor.empty() : tensor<1x4x4x4xf32>
// CHECK-NEXT:      %[[I:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<1x4x4x4xf32>)
// CHECK-NEXT:      %[[G:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]{{.*}} ins(%[[A]], %[[F]] : {{.*}}) outs(%[[I]] : tensor<1x4x4x4xf32>)
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK:           tk.yield %[[G]]
// CHECK:         %[[BR:.*]] = tk.reshape %[[B]] : tensor<4xf32> -> tensor<1x1x1x4xf32>
// CHECK:         %[[S:.*]] = tk.binary add %[[C]], %[[BR]]
// CHECK:         return %[[S]]
func.func @conv_bias(%x: tensor<1x6x6x2xf32>, %w: tensor<3x3x2x4xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  // expected-remark @+1 {{'linalg.conv_2d_nhwc_hwcf' is a kernel of its own (tk.structured), not fused: indexing map}}
  %c = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x4x4x4xf32>, tensor<4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %t = arith.addf %in, %bias : f32
    linalg.yield %t : f32
  } -> tensor<1x4x4x4xf32>
  return %s : tensor<1x4x4x4xf32>
}

// -----

// tensor.pad: each element reads the source at its index less the low pad,
// clamped into the source, and the padding value outside it.
// CHECK-LABEL: func.func @pad
// CHECK:         tk.structured (%[[S:.*]] = %arg0 : tensor<4x6xf32>) -> tensor<5x9xf32> {
// CHECK-NEXT:      %[[P:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT:      tensor.empty() : tensor<5x9xf32>
// CHECK-NEXT:      linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:             %[[I:.*]] = linalg.index 0 : index
// CHECK:             arith.subi %[[I]], %c1
// CHECK:             %[[J:.*]] = linalg.index 1 : index
// CHECK:             arith.subi %[[J]], %c2
// CHECK:             %[[V:.*]] = tensor.extract %[[S]][
// CHECK:             %[[R:.*]] = arith.select %{{.*}}, %[[V]], %[[P]] : f32
// CHECK:             linalg.yield %[[R]] : f32
func.func @pad(%x: tensor<4x6xf32>) -> tensor<5x9xf32> {
  %pad = arith.constant -1.0 : f32
  // expected-remark @+1 {{'tensor.pad' is a kernel of its own (tk.structured), not fused: tk has no equivalent op}}
  %p = tensor.pad %x low[1, 2] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pad : f32
  } : tensor<4x6xf32> to tensor<5x9xf32>
  return %p : tensor<5x9xf32>
}

// -----

// Max pooling: the window is a reduction loop of its own; the -inf init
// and the window's shape tensor are rebuilt in the region.
// CHECK-LABEL: func.func @max_pool
// CHECK:         tk.structured (%{{.*}} = %arg0 : tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32> {
// CHECK:           tensor.empty() : tensor<2x2xf32>
// CHECK:           arith.constant 0xFF800000 : f32
// CHECK:           linalg.fill
// CHECK:           linalg.generic
// CHECK:             arith.maximumf
func.func @max_pool(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  // expected-remark @+1 {{'linalg.pooling_nhwc_max' is a kernel of its own (tk.structured)}}
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x4x4x2xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}

// -----

// A payload that reads another tensor at a computed index (a reversal),
// and a dense constant it reads: the constant becomes an argument, as for
// any op of the kernel graph.
// CHECK-LABEL: func.func @reverse_scaled
// CHECK-SAME:    (%[[X:.*]]: tensor<8xf32>, %[[K:.*]]: tensor<8xf32> {tileopt.constant = dense<[1.000000e+00, 2.000000e+00
// CHECK:         tk.structured (%[[A:.*]] = %[[K]] : tensor<8xf32>, %[[B:.*]] = %[[X]] : tensor<8xf32>) -> tensor<8xf32> {
// CHECK:           tensor.extract %[[B]]
func.func @reverse_scaled(%x: tensor<8xf32>) -> tensor<8xf32> {
  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  // expected-remark @+1 {{'linalg.generic' is a kernel of its own (tk.structured), not fused}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%k : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%s: f32, %out: f32):
    %i = linalg.index 0 : index
    %c7 = arith.constant 7 : index
    %j = arith.subi %c7, %i : index
    %v = tensor.extract %x[%j] : tensor<8xf32>
    %m = arith.mulf %v, %s : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
