// RUN: tileopt-opt %s -split-input-file --tileopt-import-linalg -verify-diagnostics | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#col = affine_map<(d0, d1) -> (d0)>

// A chain of payload ops becomes a chain of tk ops; exp(-x) * x.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %[[N:.*]] = tk.unary neg %arg0 : tensor<8x64xf16>
// CHECK-NEXT:    %[[E:.*]] = tk.unary exp %[[N]] : tensor<8x64xf16>
// CHECK-NEXT:    %[[M:.*]] = tk.binary mul %[[E]], %arg0 : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
// CHECK-NEXT:    return %[[M]]
func.func @chain(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %empty = tensor.empty() : tensor<8x64xf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8x64xf16>) outs(%empty : tensor<8x64xf16>) {
  ^bb0(%a: f16, %out: f16):
    %n = arith.negf %a : f16
    %e = math.exp %n : f16
    %m = arith.mulf %e, %a : f16
    linalg.yield %m : f16
  } -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#col = affine_map<(d0, d1) -> (d0)>

// Broadcasts through indexing maps: a bias over rows (a 64-vector becomes
// 1x64) and a scale per row (an 8-vector becomes 8x1).
// CHECK-LABEL: func.func @broadcast
// CHECK-NEXT:    %[[B:.*]] = tk.reshape %arg1 : tensor<64xf32> -> tensor<1x64xf32>
// CHECK-NEXT:    %[[A:.*]] = tk.binary add %arg0, %[[B]] : tensor<8x64xf32>, tensor<1x64xf32> -> tensor<8x64xf32>
// CHECK-NEXT:    %[[S:.*]] = tk.reshape %arg2 : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    %[[D:.*]] = tk.binary div %[[A]], %[[S]] : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
// CHECK-NEXT:    return %[[D]]
func.func @broadcast(%x: tensor<8x64xf32>, %bias: tensor<64xf32>, %scale: tensor<8xf32>) -> tensor<8x64xf32> {
  %empty = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x, %bias, %scale : tensor<8x64xf32>, tensor<64xf32>, tensor<8xf32>) outs(%empty : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32, %out: f32):
    %t = arith.addf %a, %b : f32
    %d = arith.divf %t, %s : f32
    linalg.yield %d : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// The broadcast the way TOSA writes it: a size-1 dim indexed by 0; and a
// broadcast written as its own linalg.broadcast, read through.
// CHECK-LABEL: func.func @unit_dim_and_broadcast_op
// CHECK-NEXT:    %[[A:.*]] = tk.binary sub %arg0, %arg1 : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
// CHECK-NEXT:    %[[B:.*]] = tk.reshape %arg2 : tensor<64xf32> -> tensor<1x64xf32>
// CHECK-NEXT:    %[[M:.*]] = tk.binary mul %[[A]], %[[B]] : tensor<8x64xf32>, tensor<1x64xf32> -> tensor<8x64xf32>
// CHECK-NEXT:    return %[[M]]
// CHECK-NOT:     linalg
func.func @unit_dim_and_broadcast_op(%x: tensor<8x64xf32>, %m: tensor<8x1xf32>, %g: tensor<64xf32>) -> tensor<8x64xf32> {
  %empty = tensor.empty() : tensor<8x64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x, %m : tensor<8x64xf32>, tensor<8x1xf32>) outs(%empty : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %t = arith.subf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<8x64xf32>
  %gb = linalg.broadcast ins(%g : tensor<64xf32>) outs(%empty : tensor<8x64xf32>) dimensions = [0]
  %y = linalg.mul ins(%s, %gb : tensor<8x64xf32>, tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// Scalar constants: a product with a constant is mul_scalar, a division by
// one too; x*x is square; max(x, 0) is relu; pow 0.5 is sqrt; 1/sqrt is
// rsqrt.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %[[S:.*]] = tk.unary mul_scalar(1.250000e-01) %arg0 : tensor<4x32xf32>
// CHECK-NEXT:    %[[Q:.*]] = tk.unary square %[[S]] : tensor<4x32xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.unary relu %[[Q]] : tensor<4x32xf32>
// CHECK-NEXT:    %[[D:.*]] = tk.unary mul_scalar(5.000000e-01) %[[R]] : tensor<4x32xf32>
// CHECK-NEXT:    %[[T:.*]] = tk.unary sqrt %[[D]] : tensor<4x32xf32>
// CHECK-NEXT:    %[[U:.*]] = tk.unary rsqrt %[[T]] : tensor<4x32xf32>
// CHECK-NEXT:    return %[[U]]
func.func @constants(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %empty = tensor.empty() : tensor<4x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x32xf32>) outs(%empty : tensor<4x32xf32>) {
  ^bb0(%a: f32, %out: f32):
    %c8 = arith.constant 0.125 : f32
    %c0 = arith.constant 0.0 : f32
    %c2 = arith.constant 2.0 : f32
    %ch = arith.constant 0.5 : f32
    %c1 = arith.constant 1.0 : f32
    %s = arith.mulf %c8, %a : f32
    %q = arith.mulf %s, %s : f32
    %r = arith.maximumf %q, %c0 : f32
    %d = arith.divf %r, %c2 : f32
    %t = math.powf %d, %ch : f32
    %st = math.sqrt %t : f32
    %u = arith.divf %c1, %st : f32
    linalg.yield %u : f32
  } -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// silu written out two ways, and the exact gelu.
// CHECK-LABEL: func.func @activations
// CHECK-NEXT:    %[[S:.*]] = tk.unary silu %arg0 : tensor<8x64xf16>
// CHECK-NEXT:    %[[T:.*]] = tk.unary silu %arg1 : tensor<8x64xf16>
// CHECK-NEXT:    %[[A:.*]] = tk.binary add %[[S]], %[[T]]
// CHECK-NEXT:    %[[G:.*]] = tk.unary gelu %arg1 : tensor<8x64xf16>
// CHECK-NEXT:    %[[M:.*]] = tk.binary mul %[[A]], %[[G]]
// CHECK-NEXT:    return %[[M]]
func.func @activations(%x: tensor<8x64xf16>, %y: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %empty = tensor.empty() : tensor<8x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x, %y : tensor<8x64xf16>, tensor<8x64xf16>) outs(%empty : tensor<8x64xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %one = arith.constant 1.0 : f16
    %half = arith.constant 0.5 : f16
    %isq2 = arith.constant 0.70703125 : f16
    // a / (1 + exp(-a))
    %na = arith.negf %a : f16
    %ea = math.exp %na : f16
    %da = arith.addf %one, %ea : f16
    %silu_a = arith.divf %a, %da : f16
    // b * sigmoid(b)
    %nb = arith.negf %b : f16
    %eb = math.exp %nb : f16
    %db = arith.addf %eb, %one : f16
    %sig = arith.divf %one, %db : f16
    %silu_b = arith.mulf %sig, %b : f16
    // (b * 0.5) * (1 + erf(b * 0.7071))
    %bs = arith.mulf %b, %isq2 : f16
    %erf = math.erf %bs : f16
    %ope = arith.addf %one, %erf : f16
    %hb = arith.mulf %b, %half : f16
    %gelu = arith.mulf %hb, %ope : f16
    %sum = arith.addf %silu_a, %silu_b : f16
    %res = arith.mulf %sum, %gelu : f16
    linalg.yield %res : f16
  } -> tensor<8x64xf16>
  return %r : tensor<8x64xf16>
}

// -----

// Named elementwise ops, linalg.elementwise and linalg.map.
// CHECK-LABEL: func.func @named
// CHECK-NEXT:    %[[E:.*]] = tk.unary exp %arg0 : tensor<8x64xf32>
// CHECK-NEXT:    %[[A:.*]] = tk.binary add %[[E]], %arg1
// CHECK-NEXT:    %[[S:.*]] = tk.unary sqrt %[[A]]
// CHECK-NEXT:    %[[P:.*]] = tk.binary pow %[[S]], %arg1
// CHECK-NEXT:    %[[N:.*]] = tk.unary neg %[[P]]
// CHECK-NEXT:    return %[[N]]
func.func @named(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %empty = tensor.empty() : tensor<8x64xf32>
  %e = linalg.exp ins(%x : tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) -> tensor<8x64xf32>
  %a = linalg.elementwise kind=#linalg.elementwise_kind<add>
         ins(%e, %y : tensor<8x64xf32>, tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) -> tensor<8x64xf32>
  %s = linalg.sqrt ins(%a : tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) -> tensor<8x64xf32>
  %p = linalg.powf ins(%s, %y : tensor<8x64xf32>, tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) -> tensor<8x64xf32>
  %n = linalg.map { arith.negf } ins(%p : tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>)
  return %n : tensor<8x64xf32>
}

// -----

// A splat constant operand (how TOSA passes constants) is a scalar.
// CHECK-LABEL: func.func @splat_operand
// CHECK-NEXT:    %[[S:.*]] = tk.unary mul_scalar(2.500000e-01) %arg0 : tensor<1x8x64xf32>
// CHECK-NEXT:    return %[[S]]
func.func @splat_operand(%x: tensor<1x8x64xf32>) -> tensor<1x8x64xf32> {
  %c = arith.constant dense<0.25> : tensor<1x1x1xf32>
  %empty = tensor.empty() : tensor<1x8x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, 0, 0)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%x, %c : tensor<1x8x64xf32>, tensor<1x1x1xf32>) outs(%empty : tensor<1x8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x8x64xf32>
  return %y : tensor<1x8x64xf32>
}

// -----

// linalg.transpose is a tk.transpose; linalg.copy is nothing.
// CHECK-LABEL: func.func @transpose_copy
// CHECK-NEXT:    %[[T:.*]] = tk.transpose %arg0 [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
// CHECK-NEXT:    return %[[T]]
func.func @transpose_copy(%x: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  %empty = tensor.empty() : tensor<3x4x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%empty : tensor<3x4x2xf32>) permutation = [1, 2, 0]
  %c = linalg.copy ins(%t : tensor<3x4x2xf32>) outs(%empty : tensor<3x4x2xf32>) -> tensor<3x4x2xf32>
  return %c : tensor<3x4x2xf32>
}

// -----

// A constant broadcast into a tensor by its own generic, and a scalar
// constant operand, are scalars of the payload.
// CHECK-LABEL: func.func @scalar_broadcast
// CHECK-NEXT:    %[[A:.*]] = tk.unary mul_scalar(3.000000e+00) %arg0 : tensor<4x8xf32>
// CHECK-NEXT:    %[[B:.*]] = tk.unary mul_scalar(5.000000e-01) %[[A]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[B]]
func.func @scalar_broadcast(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %c = arith.constant 3.0 : f32
  %h = arith.constant 0.5 : f32
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
    ins(%c : f32) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  %y = linalg.mul ins(%x, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
    ins(%y, %h : tensor<4x8xf32>, f32) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %t: f32, %o: f32):
    %m = arith.mulf %in, %t : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
