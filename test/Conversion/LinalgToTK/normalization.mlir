// RUN: tileopt-opt %s -split-input-file --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @softmax_op
// CHECK-NEXT:    %[[M:.*]] = tk.reduce max %arg0 dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
// CHECK-NEXT:    %[[S:.*]] = tk.binary sub %arg0, %[[M]] : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:    %[[E:.*]] = tk.unary exp %[[S]] : tensor<2x256x4096xf16>
// CHECK-NEXT:    %[[Z:.*]] = tk.reduce sum %[[E]] dim 2 : tensor<2x256x4096xf16> -> tensor<2x256x1xf16>
// CHECK-NEXT:    %[[D:.*]] = tk.binary div %[[E]], %[[Z]] : tensor<2x256x4096xf16>, tensor<2x256x1xf16> -> tensor<2x256x4096xf16>
// CHECK-NEXT:    return %[[D]]
func.func @softmax_op(%x: tensor<2x256x4096xf16>) -> tensor<2x256x4096xf16> {
  %empty = tensor.empty() : tensor<2x256x4096xf16>
  %y = linalg.softmax dimension(2) ins(%x : tensor<2x256x4096xf16>) outs(%empty : tensor<2x256x4096xf16>) -> tensor<2x256x4096xf16>
  return %y : tensor<2x256x4096xf16>
}

// -----

// The decomposed softmax a front end writes (max, exp(x - max), sum,
// divide), with the reduced dim dropped between ops: it imports to the same
// graph as linalg.softmax once the reshapes between the ops fold.
// CHECK-LABEL: func.func @softmax_decomposed
// CHECK-NEXT:    %[[M:.*]] = tk.reduce max %arg0 dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    %[[S:.*]] = tk.binary sub %arg0, %[[M]] : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
// CHECK-NEXT:    %[[E:.*]] = tk.unary exp %[[S]] : tensor<8x64xf32>
// CHECK-NEXT:    %[[Z:.*]] = tk.reduce sum %[[E]] dim 1 : tensor<8x64xf32> -> tensor<8x1xf32>
// CHECK-NEXT:    %[[D:.*]] = tk.binary div %[[E]], %[[Z]] : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
// CHECK-NEXT:    return %[[D]]
func.func @softmax_decomposed(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %e864 = tensor.empty() : tensor<8x64xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%minit : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
           ins(%x, %max : tensor<8x64xf32>, tensor<8xf32>) outs(%e864 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %s = arith.subf %a, %m : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  } -> tensor<8x64xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%exp : tensor<8x64xf32>) outs(%sinit : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%exp, %sum : tensor<8x64xf32>, tensor<8xf32>) outs(%e864 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// rms_norm as torch-mlir writes it: x^2, a keepdim sum, a division by n,
// + eps, rsqrt, then the product, each its own op.
// CHECK-LABEL: func.func @rms_norm_ops
// CHECK-NEXT:    %[[R:.*]] = tk.rms_norm %arg0 {epsilon = 9.99999997E-7 : f32} : tensor<2x4096xf32>
// CHECK-NEXT:    return %[[R]]
func.func @rms_norm_ops(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 4096.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<2x4096xf32>
  %e1 = tensor.empty() : tensor<2x1xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
          ins(%x : tensor<2x4096xf32>) outs(%e : tensor<2x4096xf32>) {
  ^bb0(%a: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %p = math.powf %a, %two : f32
    linalg.yield %p : f32
  } -> tensor<2x4096xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x1xf32>) -> tensor<2x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                         iterator_types = ["parallel", "reduction"]}
           ins(%sq : tensor<2x4096xf32>) outs(%init : tensor<2x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  } -> tensor<2x1xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
            ins(%sum : tensor<2x1xf32>) outs(%e1 : tensor<2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %d = arith.divf %a, %n : f32
    linalg.yield %d : f32
  } -> tensor<2x1xf32>
  %plus = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
            ins(%mean : tensor<2x1xf32>) outs(%e1 : tensor<2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %t = arith.addf %a, %eps : f32
    linalg.yield %t : f32
  } -> tensor<2x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%plus : tensor<2x1xf32>) outs(%e1 : tensor<2x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %t = math.rsqrt %a : f32
    linalg.yield %t : f32
  } -> tensor<2x1xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x, %r : tensor<2x4096xf32>, tensor<2x1xf32>) outs(%e : tensor<2x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %t = arith.mulf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<2x4096xf32>
  return %y : tensor<2x4096xf32>
}

// -----

// rms_norm fused the way a hand-written front end might: the square inside
// the reduction, the rest in the op that divides, over a 3-d tensor.
// CHECK-LABEL: func.func @rms_norm_fused
// CHECK-NEXT:    %[[R:.*]] = tk.rms_norm %arg0 {epsilon = 9.99999974E-6 : f32} : tensor<2x256x64xf32>
// CHECK-NEXT:    return %[[R]]
func.func @rms_norm_fused(%x: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x256x64xf32>
  %e1 = tensor.empty() : tensor<2x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x256xf32>) -> tensor<2x256xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%x : tensor<2x256x64xf32>) outs(%init : tensor<2x256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %t = arith.addf %acc, %q : f32
    linalg.yield %t : f32
  } -> tensor<2x256xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%x, %ss : tensor<2x256x64xf32>, tensor<2x256xf32>) outs(%e : tensor<2x256x64xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %inv_n = arith.constant 0.015625 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.mulf %s, %inv_n : f32
    %p = arith.addf %m, %eps : f32
    %r = math.rsqrt %p : f32
    %t = arith.mulf %a, %r : f32
    linalg.yield %t : f32
  } -> tensor<2x256x64xf32>
  return %y : tensor<2x256x64xf32>
}

// -----

// x / sqrt(mean(x^2)) with no epsilon, and with a weight after it.
// CHECK-LABEL: func.func @rms_norm_div_weight
// CHECK-NEXT:    %[[R:.*]] = tk.rms_norm %arg0 : tensor<4x64xf32>
// CHECK-NEXT:    %[[W:.*]] = tk.reshape %arg1 : tensor<64xf32> -> tensor<1x64xf32>
// CHECK-NEXT:    %[[Y:.*]] = tk.binary mul %[[R]], %[[W]] : tensor<4x64xf32>, tensor<1x64xf32> -> tensor<4x64xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @rms_norm_div_weight(%x: tensor<4x64xf32>, %w: tensor<64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                        iterator_types = ["parallel", "reduction"]}
          ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %t = arith.addf %acc, %q : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
                                        affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x, %ss, %w : tensor<4x64xf32>, tensor<4xf32>, tensor<64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %s: f32, %g: f32, %out: f32):
    %n = arith.constant 64.0 : f32
    %m = arith.divf %s, %n : f32
    %r = math.sqrt %m : f32
    %t = arith.divf %a, %r : f32
    %u = arith.mulf %t, %g : f32
    linalg.yield %u : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// A mean over a dim other than the last: tk.rms_norm normalizes the last
// dim, so the dim moves last and back. Here the
// columns of a matrix, with no epsilon.
// CHECK-LABEL: func.func @rms_norm_first_dim
// CHECK-NEXT:    %[[T:.*]] = tk.transpose %arg0 [1, 0] : tensor<4x64xf32> -> tensor<64x4xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.rms_norm %[[T]] : tensor<64x4xf32>
// CHECK-NEXT:    %[[Y:.*]] = tk.transpose %[[R]] [1, 0] : tensor<64x4xf32> -> tensor<4x64xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @rms_norm_first_dim(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                        iterator_types = ["reduction", "parallel"]}
          ins(%x : tensor<4x64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %t = arith.addf %acc, %q : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x, %ss : tensor<4x64xf32>, tensor<64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %inv = arith.constant 0.25 : f32
    %m = arith.mulf %s, %inv : f32
    %r = math.rsqrt %m : f32
    %t = arith.mulf %a, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// QK-norm's keys, stored as K^T (heads, head dim, keys) and normalized over
// the head dim of each key: x / sqrt(mean(x^2) + eps) over dim 1, the sum
// divided by n; imports completely (no warning for the epsilon).
// CHECK-LABEL: func.func @rms_norm_middle_dim
// CHECK-NEXT:    %[[T:.*]] = tk.transpose %arg0 [0, 2, 1] : tensor<2x64x128xf16> -> tensor<2x128x64xf16>
// CHECK-NEXT:    %[[R:.*]] = tk.rms_norm %[[T]] {epsilon = 1.00135803E-5 : f32} : tensor<2x128x64xf16>
// CHECK-NEXT:    %[[Y:.*]] = tk.transpose %[[R]] [0, 2, 1] : tensor<2x128x64xf16> -> tensor<2x64x128xf16>
// CHECK-NEXT:    return %[[Y]]
func.func @rms_norm_middle_dim(%k: tensor<2x64x128xf16>) -> tensor<2x64x128xf16> {
  %zero = arith.constant 0.0 : f16
  %eps = arith.constant 1.0e-5 : f16
  %e = tensor.empty() : tensor<2x64x128xf16>
  %e1 = tensor.empty() : tensor<2x128xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e1 : tensor<2x128xf16>) -> tensor<2x128xf16>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>],
                        iterator_types = ["parallel", "reduction", "parallel"]}
          ins(%k : tensor<2x64x128xf16>) outs(%init : tensor<2x128xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %q = arith.mulf %a, %a : f16
    %t = arith.addf %acc, %q : f16
    linalg.yield %t : f16
  } -> tensor<2x128xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%k, %ss : tensor<2x64x128xf16>, tensor<2x128xf16>) outs(%e : tensor<2x64x128xf16>) {
  ^bb0(%a: f16, %s: f16, %out: f16):
    %n = arith.constant 64.0 : f16
    %m = arith.divf %s, %n : f16
    %p = arith.addf %m, %eps : f16
    %r = math.sqrt %p : f16
    %t = arith.divf %a, %r : f16
    linalg.yield %t : f16
  } -> tensor<2x64x128xf16>
  return %y : tensor<2x64x128xf16>
}

// -----

// The first dim of three moves last, the others keep their order, and
// moves back.
// CHECK-LABEL: func.func @rms_norm_first_of_three
// CHECK-NEXT:    %[[T:.*]] = tk.transpose %arg0 [1, 2, 0] : tensor<8x2x4xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.rms_norm %[[T]] {epsilon = 9.99999997E-7 : f32} : tensor<2x4x8xf32>
// CHECK-NEXT:    %[[Y:.*]] = tk.transpose %[[R]] [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @rms_norm_first_of_three(%x: tensor<8x2x4xf32>) -> tensor<8x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x2x4xf32>
  %e1 = tensor.empty() : tensor<2x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>],
                        iterator_types = ["reduction", "parallel", "parallel"]}
          ins(%x : tensor<8x2x4xf32>) outs(%init : tensor<2x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %t = arith.addf %acc, %q : f32
    linalg.yield %t : f32
  } -> tensor<2x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%x, %ss : tensor<8x2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<8x2x4xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %inv = arith.constant 0.125 : f32
    %eps = arith.constant 1.0e-6 : f32
    %m = arith.mulf %s, %inv : f32
    %p = arith.addf %m, %eps : f32
    %r = math.rsqrt %p : f32
    %t = arith.mulf %r, %a : f32
    linalg.yield %t : f32
  } -> tensor<8x2x4xf32>
  return %y : tensor<8x2x4xf32>
}

// -----

// Near misses stay as they are: the mean of y^2 scaling x, and a mean over
// two dims (the rows of a matrix and its columns together).
// CHECK-LABEL: func.func @not_rms_norm_other_tensor
// CHECK:         tk.reduce mean %{{.*}} dim 0
// CHECK:         tk.unary rsqrt
// CHECK-NOT:     tk.rms_norm
// CHECK-NOT:     tk.transpose
func.func @not_rms_norm_other_tensor(%x: tensor<4x64xf32>, %yy: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                        iterator_types = ["reduction", "parallel"]}
          ins(%yy : tensor<4x64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %t = arith.addf %acc, %q : f32
    linalg.yield %t : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x, %ss : tensor<4x64xf32>, tensor<64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %inv = arith.constant 0.25 : f32
    %m = arith.mulf %s, %inv : f32
    %r = math.rsqrt %m : f32
    %t = arith.mulf %a, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// CHECK-LABEL: func.func @not_rms_norm_two_dims
// CHECK:         tk.reduce sum %{{.*}} dim 0
// CHECK:         tk.reduce sum %{{.*}} dim 1
// CHECK:         tk.unary rsqrt
// CHECK-NOT:     tk.rms_norm
// CHECK-NOT:     tk.transpose
func.func @not_rms_norm_two_dims(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64xf32>
  %e0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                        iterator_types = ["reduction", "reduction"]}
          ins(%x : tensor<4x64xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %t = arith.addf %acc, %q : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x, %ss : tensor<4x64xf32>, tensor<f32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %inv = arith.constant 3.906250e-03 : f32
    %m = arith.mulf %s, %inv : f32
    %r = math.rsqrt %m : f32
    %t = arith.mulf %a, %r : f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}
