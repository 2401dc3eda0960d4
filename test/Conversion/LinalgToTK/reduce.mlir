// RUN: tileopt-opt %s -split-input-file --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// linalg.reduce drops the reduced dim; tk.reduce keeps it with size 1, so a
// reshape follows.
// CHECK-LABEL: func.func @reduce_sum
// CHECK-NEXT:    %[[S:.*]] = tk.reduce sum %arg0 dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %[[S]] : tensor<8x1xf32> -> tensor<8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @reduce_sum(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<8xf32>
}

// -----

// A max over the leading dim, with -inf as the init; the result keeps no
// unit dim at the front.
// CHECK-LABEL: func.func @reduce_max
// CHECK-NEXT:    %[[M:.*]] = tk.reduce max %arg0 dim 0 : tensor<8x64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %[[M]] : tensor<1x64xf16> -> tensor<64xf16>
// CHECK-NEXT:    return %[[R]]
func.func @reduce_max(%x: tensor<8x64xf16>) -> tensor<64xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %empty = tensor.empty() : tensor<64xf16>
  %init = linalg.fill ins(%ninf : f16) outs(%empty : tensor<64xf16>) -> tensor<64xf16>
  %m = linalg.reduce ins(%x : tensor<8x64xf16>) outs(%init : tensor<64xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %t = arith.maximumf %in, %acc : f16
      linalg.yield %t : f16
    }
  return %m : tensor<64xf16>
}

// -----

// A reduction generic whose payload squares before summing, keeping the dim
// the torch-mlir way ((d0, d1) -> (d0, 0)): no reshape is needed after the
// reduce; the max init is the lowest finite f32, as TOSA writes it.
// CHECK-LABEL: func.func @generic_keepdim
// CHECK-NEXT:    %[[Q:.*]] = tk.unary square %arg0 : tensor<8x64xf32>
// CHECK-NEXT:    %[[S:.*]] = tk.reduce sum %[[Q]] dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    %[[M:.*]] = tk.reduce max %arg0 dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    return %[[S]], %[[M]]
func.func @generic_keepdim(%x: tensor<8x64xf32>) -> (tensor<8x1xf32>, tensor<8x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %empty = tensor.empty() : tensor<8x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x1xf32>) -> tensor<8x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                       iterator_types = ["parallel", "reduction"]}
         ins(%x : tensor<8x64xf32>) outs(%init : tensor<8x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %t = arith.addf %acc, %q : f32
    linalg.yield %t : f32
  } -> tensor<8x1xf32>
  %minit = linalg.fill ins(%lowest : f32) outs(%empty : tensor<8x1xf32>) -> tensor<8x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                       iterator_types = ["parallel", "reduction"]}
         ins(%x : tensor<8x64xf32>) outs(%minit : tensor<8x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.maxnumf %a, %acc : f32
    linalg.yield %t : f32
  } -> tensor<8x1xf32>
  return %s, %m : tensor<8x1xf32>, tensor<8x1xf32>
}

// -----

// Two reduced loops: one tk.reduce per loop.
// CHECK-LABEL: func.func @two_loops
// CHECK-NEXT:    %[[A:.*]] = tk.reduce sum %arg0 dim 0 : tensor<4x8x16xf32> -> tensor<1x8x16xf32>
// CHECK-NEXT:    %[[B:.*]] = tk.reduce sum %[[A]] dim 2 : tensor<1x8x16xf32> -> tensor<1x8x1xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %[[B]] : tensor<1x8x1xf32> -> tensor<8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @two_loops(%x: tensor<4x8x16xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%x : tensor<4x8x16xf32>) outs(%init : tensor<8xf32>) dimensions = [0, 2]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<8xf32>
}

// -----

// A mean: the sum, then a division by the reduced size in its own op.
// CHECK-LABEL: func.func @mean
// CHECK-NEXT:    %[[M:.*]] = tk.reduce mean %arg0 dim 1 : tensor<8x4096xf16> -> tensor<8x1xf16>
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %[[M]] : tensor<8x1xf16> -> tensor<8xf16>
// CHECK-NEXT:    return %[[R]]
func.func @mean(%x: tensor<8x4096xf16>) -> tensor<8xf16> {
  %zero = arith.constant 0.0 : f16
  %n = arith.constant 4096.0 : f16
  %empty = tensor.empty() : tensor<8xf16>
  %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<8xf16>) -> tensor<8xf16>
  %s = linalg.reduce ins(%x : tensor<8x4096xf16>) outs(%init : tensor<8xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %t = arith.addf %in, %acc : f16
      linalg.yield %t : f16
    }
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
         ins(%s : tensor<8xf16>) outs(%empty : tensor<8xf16>) {
  ^bb0(%a: f16, %out: f16):
    %d = arith.divf %a, %n : f16
    linalg.yield %d : f16
  } -> tensor<8xf16>
  return %m : tensor<8xf16>
}

// -----

// A scale that is not 1/n stays a mul_scalar after the sum.
// CHECK-LABEL: func.func @not_mean
// CHECK-NEXT:    %[[S:.*]] = tk.reduce sum %arg0 dim 1
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %[[S]]
// CHECK-NEXT:    %[[M:.*]] = tk.unary mul_scalar(5.000000e-01) %[[R]] : tensor<8xf32>
// CHECK-NEXT:    return %[[M]]
func.func @not_mean(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
         ins(%s : tensor<8xf32>) outs(%empty : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %h = arith.constant 0.5 : f32
    %d = arith.mulf %a, %h : f32
    linalg.yield %d : f32
  } -> tensor<8xf32>
  return %m : tensor<8xf32>
}

// -----

// 1/n must be 1/n in the program's precision: 1/4095 written in f32 is a
// mean; 1/4096 for a sum over 4095 elements is not (in fp16 the two are
// the same number, and both would be a mean).
// CHECK-LABEL: func.func @mean_exact
// CHECK-NEXT:    %[[M:.*]] = tk.reduce mean %arg0 dim 1 : tensor<8x4095xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    %[[S:.*]] = tk.reduce sum %arg0 dim 1 : tensor<8x4095xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    %[[T:.*]] = tk.unary mul_scalar(2.44140625E-4) %[[S]] : tensor<8x1xf32>
// CHECK-NEXT:    return %[[M]], %[[T]]
func.func @mean_exact(%x: tensor<8x4095xf32>) -> (tensor<8x1xf32>, tensor<8x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x1xf32>) -> tensor<8x1xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                          iterator_types = ["parallel", "reduction"]}
            ins(%x : tensor<8x4095xf32>) outs(%init : tensor<8x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  } -> tensor<8x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%mean : tensor<8x1xf32>) outs(%e : tensor<8x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %inv = arith.constant 2.442002442002442E-4 : f32
    %t = arith.mulf %a, %inv : f32
    linalg.yield %t : f32
  } -> tensor<8x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                         iterator_types = ["parallel", "reduction"]}
           ins(%x : tensor<8x4095xf32>) outs(%init : tensor<8x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  } -> tensor<8x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%sum : tensor<8x1xf32>) outs(%e : tensor<8x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %inv = arith.constant 2.44140625E-4 : f32
    %t = arith.mulf %a, %inv : f32
    linalg.yield %t : f32
  } -> tensor<8x1xf32>
  return %m, %s : tensor<8x1xf32>, tensor<8x1xf32>
}
