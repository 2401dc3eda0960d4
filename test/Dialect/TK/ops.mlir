// RUN: tileopt-opt %s -split-input-file | tileopt-opt -split-input-file | FileCheck %s
// RUN: tileopt-opt %s -split-input-file -mlir-print-op-generic | tileopt-opt -split-input-file | FileCheck %s

// Round trip of every tk op, in custom and in generic form.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<16x64xf16>, %[[B:.*]]: tensor<64x128xf16>)
// CHECK: %[[R:.*]] = tk.matmul %[[A]], %[[B]] : tensor<16x64xf16>, tensor<64x128xf16> -> tensor<16x128xf16>
// CHECK: return %[[R]] : tensor<16x128xf16>
func.func @matmul(%a: tensor<16x64xf16>, %b: tensor<64x128xf16>) -> tensor<16x128xf16> {
  %0 = tk.matmul %a, %b : tensor<16x64xf16>, tensor<64x128xf16> -> tensor<16x128xf16>
  return %0 : tensor<16x128xf16>
}

// -----

// CHECK-LABEL: func.func @matmul_batched
// CHECK: tk.matmul %{{.*}}, %{{.*}} : tensor<2x3x16x64xf32>, tensor<2x3x64x32xf32> -> tensor<2x3x16x32xf32>
func.func @matmul_batched(%a: tensor<2x3x16x64xf32>, %b: tensor<2x3x64x32xf32>) -> tensor<2x3x16x32xf32> {
  %0 = tk.matmul %a, %b : tensor<2x3x16x64xf32>, tensor<2x3x64x32xf32> -> tensor<2x3x16x32xf32>
  return %0 : tensor<2x3x16x32xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_broadcast
// CHECK: tk.matmul %{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<4x1x32x8xf32> -> tensor<4x1x64x8xf32>
// CHECK: tk.matmul %{{.*}}, %{{.*}} : tensor<4x3x16x64xf32>, tensor<3x64x32xf32> -> tensor<4x3x16x32xf32>
func.func @matmul_broadcast(%a: tensor<64x32xf32>, %b: tensor<4x1x32x8xf32>, %c: tensor<4x3x16x64xf32>, %d: tensor<3x64x32xf32>) {
  %0 = tk.matmul %a, %b : tensor<64x32xf32>, tensor<4x1x32x8xf32> -> tensor<4x1x64x8xf32>
  %1 = tk.matmul %c, %d : tensor<4x3x16x64xf32>, tensor<3x64x32xf32> -> tensor<4x3x16x32xf32>
  return
}

// -----

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK: %[[E:.*]] = tk.unary exp %[[X]] : tensor<8x16xf32>
// CHECK: %[[S:.*]] = tk.unary silu %[[E]] : tensor<8x16xf32>
// CHECK: %[[G:.*]] = tk.unary gelu %[[S]] : tensor<8x16xf32>
// CHECK: %[[R:.*]] = tk.unary relu %[[G]] : tensor<8x16xf32>
// CHECK: %[[Q:.*]] = tk.unary sqrt %[[R]] : tensor<8x16xf32>
// CHECK: %[[RQ:.*]] = tk.unary rsqrt %[[Q]] : tensor<8x16xf32>
// CHECK: %[[SQ:.*]] = tk.unary square %[[RQ]] : tensor<8x16xf32>
// CHECK: %[[N:.*]] = tk.unary neg %[[SQ]] : tensor<8x16xf32>
// CHECK: %[[M:.*]] = tk.unary mul_scalar(1.250000e-01) %[[N]] : tensor<8x16xf32>
// CHECK: %[[M2:.*]] = tk.unary mul_scalar(-2.000000e+00) %[[M]] : tensor<8x16xf32>
// CHECK: %[[A:.*]] = tk.unary add_scalar(9.99999974E-6) %[[M2]] : tensor<8x16xf32>
// CHECK: return %[[A]]
func.func @unary(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tk.unary exp %x : tensor<8x16xf32>
  %1 = tk.unary silu %0 : tensor<8x16xf32>
  %2 = tk.unary gelu %1 : tensor<8x16xf32>
  %3 = tk.unary relu %2 : tensor<8x16xf32>
  %4 = tk.unary sqrt %3 : tensor<8x16xf32>
  %5 = tk.unary rsqrt %4 : tensor<8x16xf32>
  %6 = tk.unary square %5 : tensor<8x16xf32>
  %7 = tk.unary neg %6 : tensor<8x16xf32>
  %8 = tk.unary mul_scalar(0.125) %7 : tensor<8x16xf32>
  %9 = tk.unary mul_scalar(-2.0) %8 : tensor<8x16xf32>
  %10 = tk.unary add_scalar(1.0e-5) %9 : tensor<8x16xf32>
  return %10 : tensor<8x16xf32>
}

// -----

// Element types other than f32.
// CHECK-LABEL: func.func @unary_other_floats
// CHECK: tk.unary exp %{{.*}} : tensor<4xbf16>
// CHECK: tk.unary mul_scalar(5.000000e-01) %{{.*}} : tensor<2x2xf64>
func.func @unary_other_floats(%x: tensor<4xbf16>, %y: tensor<2x2xf64>) {
  %0 = tk.unary exp %x : tensor<4xbf16>
  %1 = tk.unary mul_scalar(0.5) %y : tensor<2x2xf64>
  return
}

// -----

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<8x16xf32>)
// CHECK: %[[ADD:.*]] = tk.binary add %[[A]], %[[B]] : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: %[[SUB:.*]] = tk.binary sub %[[ADD]], %[[B]] : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: %[[MUL:.*]] = tk.binary mul %[[SUB]], %[[B]] : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: %[[DIV:.*]] = tk.binary div %[[MUL]], %[[B]] : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: %[[POW:.*]] = tk.binary pow %[[DIV]], %[[B]] : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: return %[[POW]]
func.func @binary(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tk.binary add %a, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %1 = tk.binary sub %0, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %2 = tk.binary mul %1, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %3 = tk.binary div %2, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %4 = tk.binary pow %3, %b : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}

// -----

// Numpy broadcasting: size-1 dims stretch, missing leading dims are added.
// CHECK-LABEL: func.func @binary_broadcast
// CHECK: tk.binary div %{{.*}}, %{{.*}} : tensor<16x128xf16>, tensor<16x1xf16> -> tensor<16x128xf16>
// CHECK: tk.binary mul %{{.*}}, %{{.*}} : tensor<1x128xf16>, tensor<16x1xf16> -> tensor<16x128xf16>
// CHECK: tk.binary add %{{.*}}, %{{.*}} : tensor<128xf16>, tensor<4x16x128xf16> -> tensor<4x16x128xf16>
func.func @binary_broadcast(%a: tensor<16x128xf16>, %r: tensor<16x1xf16>, %c: tensor<1x128xf16>,
                            %v: tensor<128xf16>, %t: tensor<4x16x128xf16>) {
  %0 = tk.binary div %a, %r : tensor<16x128xf16>, tensor<16x1xf16> -> tensor<16x128xf16>
  %1 = tk.binary mul %c, %r : tensor<1x128xf16>, tensor<16x1xf16> -> tensor<16x128xf16>
  %2 = tk.binary add %v, %t : tensor<128xf16>, tensor<4x16x128xf16> -> tensor<4x16x128xf16>
  return
}

// -----

// CHECK-LABEL: func.func @reduce
// CHECK: tk.reduce sum %{{.*}} dim 0 : tensor<8x16x32xf32> -> tensor<1x16x32xf32>
// CHECK: tk.reduce max %{{.*}} dim 1 : tensor<8x16x32xf32> -> tensor<8x1x32xf32>
// CHECK: tk.reduce mean %{{.*}} dim 2 : tensor<8x16x32xf32> -> tensor<8x16x1xf32>
func.func @reduce(%x: tensor<8x16x32xf32>) {
  %0 = tk.reduce sum %x dim 0 : tensor<8x16x32xf32> -> tensor<1x16x32xf32>
  %1 = tk.reduce max %x dim 1 : tensor<8x16x32xf32> -> tensor<8x1x32xf32>
  %2 = tk.reduce mean %x dim 2 : tensor<8x16x32xf32> -> tensor<8x16x1xf32>
  return
}

// -----

// The default epsilon (0.0) is not printed.
// CHECK-LABEL: func.func @rms_norm
// CHECK: tk.rms_norm %{{[^ ]*}} : tensor<16x4096xf16>
// CHECK-NOT: epsilon
// CHECK: tk.rms_norm %{{.*}} {epsilon = 9.99999974E-6 : f32} : tensor<16x4096xf16>
// CHECK: tk.rms_norm %{{.*}} {epsilon = 5.000000e-01 : f32} : tensor<16x4096xf16>
func.func @rms_norm(%x: tensor<16x4096xf16>) {
  %0 = tk.rms_norm %x : tensor<16x4096xf16>
  %1 = tk.rms_norm %x {epsilon = 1.0e-5 : f32} : tensor<16x4096xf16>
  %2 = tk.rms_norm %x {epsilon = 0.5 : f32} : tensor<16x4096xf16>
  return
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK: tk.concat %{{.*}}, %{{.*}}, %{{.*}} dim 1 : tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x6xf32> -> tensor<4x16xf32>
// CHECK: tk.concat %{{.*}} dim 0 : tensor<4x8xf32> -> tensor<4x8xf32>
func.func @concat(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>, %c: tensor<4x6xf32>) {
  %0 = tk.concat %a, %b, %c dim 1 : tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x6xf32> -> tensor<4x16xf32>
  %1 = tk.concat %a dim 0 : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

// CHECK-LABEL: func.func @split
// CHECK: %{{.*}}:3 = tk.split %{{.*}} dim 0 : tensor<12x8xf32> -> tensor<4x8xf32>, tensor<6x8xf32>, tensor<2x8xf32>
// CHECK: %{{.*}} = tk.split %{{.*}} dim 1 : tensor<12x8xf32> -> tensor<12x8xf32>
func.func @split(%x: tensor<12x8xf32>) {
  %0:3 = tk.split %x dim 0 : tensor<12x8xf32> -> tensor<4x8xf32>, tensor<6x8xf32>, tensor<2x8xf32>
  %1 = tk.split %x dim 1 : tensor<12x8xf32> -> tensor<12x8xf32>
  return
}

// -----

// CHECK-LABEL: func.func @reshape
// CHECK: tk.reshape %{{.*}} : tensor<16x4096xf16> -> tensor<16x32x128xf16>
// CHECK: tk.reshape %{{.*}} : tensor<16x32x128xf16> -> tensor<65536xf16>
func.func @reshape(%x: tensor<16x4096xf16>) {
  %0 = tk.reshape %x : tensor<16x4096xf16> -> tensor<16x32x128xf16>
  %1 = tk.reshape %0 : tensor<16x32x128xf16> -> tensor<65536xf16>
  return
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK: tk.transpose %{{.*}} [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK: tk.transpose %{{.*}} [2, 0, 1] : tensor<2x3x5xf32> -> tensor<5x2x3xf32>
func.func @transpose(%x: tensor<4x8xf32>, %y: tensor<2x3x5xf32>) {
  %0 = tk.transpose %x [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %1 = tk.transpose %y [2, 0, 1] : tensor<2x3x5xf32> -> tensor<5x2x3xf32>
  return
}

// -----

// A fused kernel: rms_norm(X) @ W as one launch.
// CHECK-LABEL: func.func @fused
// CHECK-SAME: (%[[X:.*]]: tensor<16x4096xf16>, %[[W:.*]]: tensor<4096x6144xf16>)
// CHECK: %[[Y:.*]] = tk.fused grid [48, 1, 1] block [128, 1, 1] forloop 64 (%[[XA:.*]] = %[[X]] : tensor<16x4096xf16>, %[[WA:.*]] = %[[W]] : tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
// CHECK-NEXT: %[[XT:.*]] = tb.input_iterator %[[XA]] imap [-1, -1, -1] fmap 1 : tensor<16x4096xf16> -> !tb.tile<16x64xf16>
// CHECK-NEXT: %[[WT:.*]] = tb.input_iterator %[[WA]] imap [1, -1, -1] fmap 0 : tensor<4096x6144xf16> -> !tb.tile<64x128xf16>
// CHECK-NEXT: %[[XW:.*]] = tb.matmul %[[XT]], %[[WT]] : !tb.tile<16x64xf16>, !tb.tile<64x128xf16> -> !tb.tile<16x128xf16>
// CHECK-NEXT: %[[SQ:.*]] = tb.unary square %[[XT]] : !tb.tile<16x64xf16>
// CHECK-NEXT: %[[SS:.*]] = tb.reduce sum %[[SQ]] dim 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
// CHECK-NEXT: %[[ACC:.*]] = tb.forloop_accum sum %[[XW]] : (!tb.tile<16x128xf16>) -> !tb.tile<16x128xf16>
// CHECK-NEXT: %[[SUM:.*]] = tb.forloop_accum sum %[[SS]] : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
// CHECK-NEXT: %[[MEAN:.*]] = tb.unary mul_scalar(2.44140625E-4) %[[SUM]] : !tb.tile<16x1xf16>
// CHECK-NEXT: %[[RMS:.*]] = tb.unary sqrt %[[MEAN]] : !tb.tile<16x1xf16>
// CHECK-NEXT: %[[DIV:.*]] = tb.binary div %[[ACC]], %[[RMS]] : !tb.tile<16x128xf16>, !tb.tile<16x1xf16> -> !tb.tile<16x128xf16>
// CHECK-NEXT: %[[OUT:.*]] = tb.output_saver %[[DIV]] omap [1, -1, -1] : !tb.tile<16x128xf16> -> tensor<16x6144xf16>
// CHECK-NEXT: tb.yield %[[OUT]] : tensor<16x6144xf16>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[Y]] : tensor<16x6144xf16>
func.func @fused(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %Y = tk.fused grid [48, 1, 1] block [128, 1, 1] forloop 64
         (%x = %X : tensor<16x4096xf16>, %w = %W : tensor<4096x6144xf16>)
         -> tensor<16x6144xf16> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x4096xf16> -> !tb.tile<16x64xf16>
    %wt = tb.input_iterator %w imap [1, -1, -1] fmap 0
            : tensor<4096x6144xf16> -> !tb.tile<64x128xf16>
    %xw = tb.matmul %xt, %wt
            : !tb.tile<16x64xf16>, !tb.tile<64x128xf16> -> !tb.tile<16x128xf16>
    %sq = tb.unary square %xt : !tb.tile<16x64xf16>
    %ss = tb.reduce sum %sq dim 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
    %acc = tb.forloop_accum sum %xw
             : (!tb.tile<16x128xf16>) -> !tb.tile<16x128xf16>
    %sum = tb.forloop_accum sum %ss
             : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %mean = tb.unary mul_scalar(2.44140625E-4) %sum : !tb.tile<16x1xf16>
    %rms = tb.unary sqrt %mean : !tb.tile<16x1xf16>
    %y = tb.binary div %acc, %rms
           : !tb.tile<16x128xf16>, !tb.tile<16x1xf16> -> !tb.tile<16x128xf16>
    %out = tb.output_saver %y omap [1, -1, -1]
             : !tb.tile<16x128xf16> -> tensor<16x6144xf16>
    tb.yield %out : tensor<16x6144xf16>
  }
  return %Y : tensor<16x6144xf16>
}

// -----

// A 2-D grid, a 3-D block, two results, a `none` accumulator laid out by
// fmap, and extra attributes printed with `attributes`.
// CHECK-LABEL: func.func @fused_multi_result
// CHECK: %[[R:.*]]:2 = tk.fused grid [2, 4, 1] block [32, 4, 2] forloop 4 (%[[A:.*]] = %{{.*}} : tensor<8x16x32xf32>) -> (tensor<8x16x32xf32>, tensor<1x16x32xf32>) attributes {tag = "k0"} {
// CHECK-NEXT: %[[T:.*]] = tb.input_iterator %[[A]] imap [2, 1, -1] fmap 0 : tensor<8x16x32xf32> -> !tb.tile<2x4x16xf32>
// CHECK-NEXT: %[[E:.*]] = tb.unary exp %[[T]] : !tb.tile<2x4x16xf32>
// CHECK-NEXT: %[[K:.*]] = tb.forloop_accum none %[[E]] : (!tb.tile<2x4x16xf32>) -> !tb.tile<2x4x16xf32>
// CHECK-NEXT: %[[M:.*]] = tb.forloop_accum max %[[T]] : (!tb.tile<2x4x16xf32>) -> !tb.tile<2x4x16xf32>
// CHECK-NEXT: %[[RED:.*]] = tb.reduce max %[[M]] dim 0 : !tb.tile<2x4x16xf32> -> !tb.tile<1x4x16xf32>
// CHECK-NEXT: %[[O0:.*]] = tb.output_saver %[[K]] omap [2, 1, -1] fmap 0 : !tb.tile<2x4x16xf32> -> tensor<8x16x32xf32>
// CHECK-NEXT: %[[O1:.*]] = tb.output_saver %[[RED]] omap [2, 1, -1] : !tb.tile<1x4x16xf32> -> tensor<1x16x32xf32>
// CHECK-NEXT: tb.yield %[[O0]], %[[O1]] : tensor<8x16x32xf32>, tensor<1x16x32xf32>
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @fused_multi_result(%X: tensor<8x16x32xf32>) -> (tensor<8x16x32xf32>, tensor<1x16x32xf32>) {
  %r:2 = tk.fused grid [2, 4, 1] block [32, 4, 2] forloop 4 (%x = %X : tensor<8x16x32xf32>)
           -> (tensor<8x16x32xf32>, tensor<1x16x32xf32>) attributes {tag = "k0"} {
    %t = tb.input_iterator %x imap [2, 1, -1] fmap 0 : tensor<8x16x32xf32> -> !tb.tile<2x4x16xf32>
    %e = tb.unary exp %t : !tb.tile<2x4x16xf32>
    %k = tb.forloop_accum none %e : (!tb.tile<2x4x16xf32>) -> !tb.tile<2x4x16xf32>
    %m = tb.forloop_accum max %t : (!tb.tile<2x4x16xf32>) -> !tb.tile<2x4x16xf32>
    %red = tb.reduce max %m dim 0 : !tb.tile<2x4x16xf32> -> !tb.tile<1x4x16xf32>
    %o0 = tb.output_saver %k omap [2, 1, -1] fmap 0 : !tb.tile<2x4x16xf32> -> tensor<8x16x32xf32>
    %o1 = tb.output_saver %red omap [2, 1, -1] : !tb.tile<1x4x16xf32> -> tensor<1x16x32xf32>
    tb.yield %o0, %o1 : tensor<8x16x32xf32>, tensor<1x16x32xf32>
  }
  return %r#0, %r#1 : tensor<8x16x32xf32>, tensor<1x16x32xf32>
}

// -----

// CHECK-LABEL: func.func @map
// CHECK: %[[R:.*]] = tk.map (%[[A:.*]] = %{{.*}} : tensor<8x64xf16>, %[[B:.*]] = %{{.*}} : tensor<64xf32>) -> tensor<8x64xf16> {
// CHECK:   %[[W:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK:   %[[C:.*]] = arith.cmpf ogt, %[[W]], %[[B]] : f32
// CHECK:   %[[S:.*]] = arith.select %[[C]], %[[W]], %[[B]] : f32
// CHECK:   %[[T:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK:   tk.yield %[[T]] : f16
// CHECK: }
// CHECK: return %[[R]]
func.func @map(%x: tensor<8x64xf16>, %y: tensor<64xf32>) -> tensor<8x64xf16> {
  %0 = tk.map (%a = %x : tensor<8x64xf16>, %b = %y : tensor<64xf32>) -> tensor<8x64xf16> {
    %w = arith.extf %a : f16 to f32
    %c = arith.cmpf ogt, %w, %b : f32
    %s = arith.select %c, %w, %b : f32
    %t = arith.truncf %s : f32 to f16
    tk.yield %t : f16
  }
  return %0 : tensor<8x64xf16>
}

// -----

// A structured op: a convolution's loop nest, its zero init built in the
// region.
// CHECK-LABEL: func.func @structured
// CHECK: %[[R:.*]] = tk.structured (%[[A:.*]] = %{{.*}} : tensor<1x6x6x2xf32>, %[[W:.*]] = %{{.*}} : tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf32> {
// CHECK:   %[[I:.*]] = linalg.fill
// CHECK:   %[[G:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[W]] : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%[[I]] : tensor<1x4x4x4xf32>)
// CHECK:   tk.yield %[[G]] : tensor<1x4x4x4xf32>
// CHECK: }
// CHECK: return %[[R]]
func.func @structured(%x: tensor<1x6x6x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = tk.structured (%a = %x : tensor<1x6x6x2xf32>, %b = %w : tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x4x4x4xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %c = linalg.generic {
        indexing_maps = [affine_map<(n, h, w, f, kh, kw, c) -> (n, h + kh, w + kw, c)>,
                         affine_map<(n, h, w, f, kh, kw, c) -> (kh, kw, c, f)>,
                         affine_map<(n, h, w, f, kh, kw, c) -> (n, h, w, f)>],
        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
        ins(%a, %b : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%init : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %f: f32, %acc: f32):
      %m = arith.mulf %in, %f : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<1x4x4x4xf32>
    tk.yield %c : tensor<1x4x4x4xf32>
  }
  return %0 : tensor<1x4x4x4xf32>
}
