// RUN: tileopt-opt %s -split-input-file | tileopt-opt -split-input-file | FileCheck %s
// RUN: tileopt-opt %s -split-input-file -mlir-print-op-generic | tileopt-opt -split-input-file | FileCheck %s

// Round trip of the block-graph dialect (tb) inside tk.fused block graphs.

// The tile type on its own, including integer elements and rank 1.
// CHECK-LABEL: func.func @tile_types
// CHECK-SAME: %{{.*}}: !tb.tile<1xf32>
// CHECK-SAME: %{{.*}}: !tb.tile<2x3x4xbf16>
// CHECK-SAME: %{{.*}}: !tb.tile<8xi8>
// CHECK-SAME: %{{.*}}: !tb.tile<64x128xf16>
// CHECK-SAME: -> !tb.tile<8xi8>
func.func @tile_types(%a: !tb.tile<1xf32>, %b: !tb.tile<2x3x4xbf16>,
                      %c: !tb.tile<8xi8>, %d: !tb.tile<64x128xf16>)
    -> !tb.tile<8xi8> {
  return %c : !tb.tile<8xi8>
}

// -----

// imap entries mapped and replicated (-1), fmap on a dim and -1.
// CHECK-LABEL: func.func @input_iterator
// CHECK: tk.fused grid [4, 2, 1] block [128, 1, 1] forloop 8
// CHECK: %[[A:.*]] = tb.input_iterator %{{.*}} imap [0, 2, -1] fmap 1 : tensor<64x128x32xf16> -> !tb.tile<16x16x16xf16>
// CHECK: %[[B:.*]] = tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap -1 : tensor<64x128xf32> -> !tb.tile<64x128xf32>
// CHECK: %[[C:.*]] = tb.input_iterator %{{.*}} imap [-1, 0, -1] fmap -1 : tensor<64x128xf32> -> !tb.tile<32x128xf32>
// CHECK: %[[D:.*]] = tb.input_iterator %{{.*}} imap [-1, -1, 1] fmap 0 : tensor<64x128xf32> -> !tb.tile<8x128xf32>
// CHECK: tb.forloop_accum sum %[[A]] : (!tb.tile<16x16x16xf16>) -> !tb.tile<16x16x16xf16>
// CHECK: tb.forloop_accum max %[[B]] : (!tb.tile<64x128xf32>) -> !tb.tile<64x128xf32>
// CHECK: tb.forloop_accum mean %[[C]] : (!tb.tile<32x128xf32>) -> !tb.tile<32x128xf32>
// CHECK: tb.forloop_accum sum %[[D]] : (!tb.tile<8x128xf32>) -> !tb.tile<8x128xf32>
// CHECK: tb.output_saver %{{.*}} omap [0, 2, -1] : !tb.tile<16x16x16xf16> -> tensor<64x16x32xf16>
// CHECK: tb.output_saver %{{.*}} omap [0, 1, -1] : !tb.tile<64x128xf32> -> tensor<256x256xf32>
// CHECK: tb.output_saver %{{.*}} omap [1, 0, -1] : !tb.tile<32x128xf32> -> tensor<64x512xf32>
// CHECK: tb.output_saver %{{.*}} omap [0, 1, -1] : !tb.tile<8x128xf32> -> tensor<32x256xf32>
// CHECK: tb.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x16x32xf16>, tensor<256x256xf32>, tensor<64x512xf32>, tensor<32x256xf32>
func.func @input_iterator(%A: tensor<64x128x32xf16>, %B: tensor<64x128xf32>,
                          %C: tensor<64x128xf32>)
    -> (tensor<64x16x32xf16>, tensor<256x256xf32>, tensor<64x512xf32>,
        tensor<32x256xf32>) {
  %r:4 = tk.fused grid [4, 2, 1] block [128, 1, 1] forloop 8
      (%a = %A : tensor<64x128x32xf16>, %b = %B : tensor<64x128xf32>,
       %c = %C : tensor<64x128xf32>)
      -> (tensor<64x16x32xf16>, tensor<256x256xf32>, tensor<64x512xf32>,
          tensor<32x256xf32>) {
    // Grid x splits dim 0 in 4, grid y dim 2 in 2, the loop dim 1 in 8.
    %at = tb.input_iterator %a imap [0, 2, -1] fmap 1
            : tensor<64x128x32xf16> -> !tb.tile<16x16x16xf16>
    // Every block and every iteration reads the whole tensor.
    %bt = tb.input_iterator %b imap [-1, -1, -1] fmap -1
            : tensor<64x128xf32> -> !tb.tile<64x128xf32>
    %ct = tb.input_iterator %c imap [-1, 0, -1] fmap -1
            : tensor<64x128xf32> -> !tb.tile<32x128xf32>
    // Grid z (size 1) maps dim 1 and leaves it whole; the loop splits dim 0.
    %dt = tb.input_iterator %b imap [-1, -1, 1] fmap 0
            : tensor<64x128xf32> -> !tb.tile<8x128xf32>
    %aa = tb.forloop_accum sum %at
            : (!tb.tile<16x16x16xf16>) -> !tb.tile<16x16x16xf16>
    %ba = tb.forloop_accum max %bt
            : (!tb.tile<64x128xf32>) -> !tb.tile<64x128xf32>
    %ca = tb.forloop_accum mean %ct
            : (!tb.tile<32x128xf32>) -> !tb.tile<32x128xf32>
    %da = tb.forloop_accum sum %dt
            : (!tb.tile<8x128xf32>) -> !tb.tile<8x128xf32>
    %ao = tb.output_saver %aa omap [0, 2, -1]
            : !tb.tile<16x16x16xf16> -> tensor<64x16x32xf16>
    %bo = tb.output_saver %ba omap [0, 1, -1]
            : !tb.tile<64x128xf32> -> tensor<256x256xf32>
    %co = tb.output_saver %ca omap [1, 0, -1]
            : !tb.tile<32x128xf32> -> tensor<64x512xf32>
    %do = tb.output_saver %da omap [0, 1, -1]
            : !tb.tile<8x128xf32> -> tensor<32x256xf32>
    tb.yield %ao, %bo, %co, %do
        : tensor<64x16x32xf16>, tensor<256x256xf32>, tensor<64x512xf32>,
          tensor<32x256xf32>
  }
  return %r#0, %r#1, %r#2, %r#3
      : tensor<64x16x32xf16>, tensor<256x256xf32>, tensor<64x512xf32>,
        tensor<32x256xf32>
}

// -----

// Every accumulator kind; sum_rescale with its scale operand.
// CHECK-LABEL: func.func @forloop_accum_kinds
// CHECK: tk.fused grid [1, 1, 1] block [256, 1, 1] forloop 4
// CHECK: %[[X:.*]] = tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap 1 : tensor<16x256xf32> -> !tb.tile<16x64xf32>
// CHECK: %[[M:.*]] = tb.reduce max %[[X]] dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
// CHECK: %[[NONE:.*]] = tb.forloop_accum none %[[X]] : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
// CHECK: %[[SUM:.*]] = tb.forloop_accum sum %[[X]] : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
// CHECK: %[[MEAN:.*]] = tb.forloop_accum mean %[[X]] : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
// CHECK: %[[RMS:.*]] = tb.forloop_accum rms %[[X]] : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
// CHECK: %[[MAX:.*]] = tb.forloop_accum max %[[X]] : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
// CHECK: %[[RES:.*]] = tb.forloop_accum sum_rescale %[[X]], %[[M]] : (!tb.tile<16x64xf32>, !tb.tile<16x1xf32>) -> !tb.tile<16x64xf32>
// CHECK: tb.output_saver %[[NONE]] omap [-1, -1, -1] fmap 1 : !tb.tile<16x64xf32> -> tensor<16x256xf32>
// CHECK: tb.output_saver %[[SUM]] omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
// CHECK: tb.output_saver %[[MEAN]] omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
// CHECK: tb.output_saver %[[RMS]] omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
// CHECK: tb.output_saver %[[MAX]] omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
// CHECK: tb.output_saver %[[RES]] omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
// CHECK: tb.yield
func.func @forloop_accum_kinds(%X: tensor<16x256xf32>)
    -> (tensor<16x256xf32>, tensor<16x64xf32>, tensor<16x64xf32>,
        tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) {
  %r:6 = tk.fused grid [1, 1, 1] block [256, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>)
      -> (tensor<16x256xf32>, tensor<16x64xf32>, tensor<16x64xf32>,
          tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %m = tb.reduce max %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    %none = tb.forloop_accum none %xt
              : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %sum = tb.forloop_accum sum %xt
             : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %mean = tb.forloop_accum mean %xt
              : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %rms = tb.forloop_accum rms %xt
             : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %max = tb.forloop_accum max %xt
             : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %res = tb.forloop_accum sum_rescale %xt, %m
             : (!tb.tile<16x64xf32>, !tb.tile<16x1xf32>) -> !tb.tile<16x64xf32>
    %o0 = tb.output_saver %none omap [-1, -1, -1] fmap 1
            : !tb.tile<16x64xf32> -> tensor<16x256xf32>
    %o1 = tb.output_saver %sum omap [-1, -1, -1]
            : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    %o2 = tb.output_saver %mean omap [-1, -1, -1]
            : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    %o3 = tb.output_saver %rms omap [-1, -1, -1]
            : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    %o4 = tb.output_saver %max omap [-1, -1, -1]
            : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    %o5 = tb.output_saver %res omap [-1, -1, -1]
            : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o0, %o1, %o2, %o3, %o4, %o5
        : tensor<16x256xf32>, tensor<16x64xf32>, tensor<16x64xf32>,
          tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5
      : tensor<16x256xf32>, tensor<16x64xf32>, tensor<16x64xf32>,
        tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// A tile the loop does not walk (fmap -1) is the same in every iteration:
// ops after the accumulators may use it (LoRA's B times the accumulated
// X A).
// CHECK-LABEL: func.func @invariant_after_loop
// CHECK: %[[B:.*]] = tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap -1
// CHECK: %[[XA:.*]] = tb.forloop_accum sum
// CHECK: tb.matmul %[[XA]], %[[B]]
func.func @invariant_after_loop(%X: tensor<16x256xf32>, %A: tensor<256x16xf32>,
                                %B: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>, %a = %A : tensor<256x16xf32>,
       %b = %B : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %at = tb.input_iterator %a imap [-1, -1, -1] fmap 0
            : tensor<256x16xf32> -> !tb.tile<64x16xf32>
    %bt = tb.input_iterator %b imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %p = tb.matmul %xt, %at
           : !tb.tile<16x64xf32>, !tb.tile<64x16xf32> -> !tb.tile<16x16xf32>
    %xa = tb.forloop_accum sum %p
            : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %y = tb.matmul %xa, %bt
           : !tb.tile<16x16xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
    %o = tb.output_saver %y omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// Savers with an fmap after a `none` accumulator (forloop > 1), along the
// same dim the input walked and along another one.
// CHECK-LABEL: func.func @output_saver_fmap
// CHECK: tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4
// CHECK: %[[X:.*]] = tb.input_iterator %{{.*}} imap [0, -1, -1] fmap 1 : tensor<8x64xf16> -> !tb.tile<4x16xf16>
// CHECK: %[[K:.*]] = tb.forloop_accum none %[[X]] : (!tb.tile<4x16xf16>) -> !tb.tile<4x16xf16>
// CHECK: %[[E:.*]] = tb.unary exp %[[K]] : !tb.tile<4x16xf16>
// CHECK: tb.output_saver %[[K]] omap [0, -1, -1] fmap 1 : !tb.tile<4x16xf16> -> tensor<8x64xf16>
// CHECK: tb.output_saver %[[E]] omap [1, -1, -1] fmap 0 : !tb.tile<4x16xf16> -> tensor<16x32xf16>
func.func @output_saver_fmap(%X: tensor<8x64xf16>)
    -> (tensor<8x64xf16>, tensor<16x32xf16>) {
  %r:2 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<8x64xf16>) -> (tensor<8x64xf16>, tensor<16x32xf16>) {
    %xt = tb.input_iterator %x imap [0, -1, -1] fmap 1
            : tensor<8x64xf16> -> !tb.tile<4x16xf16>
    %k = tb.forloop_accum none %xt : (!tb.tile<4x16xf16>) -> !tb.tile<4x16xf16>
    // Compute on kept tiles stays per iteration.
    %e = tb.unary exp %k : !tb.tile<4x16xf16>
    %o0 = tb.output_saver %k omap [0, -1, -1] fmap 1
            : !tb.tile<4x16xf16> -> tensor<8x64xf16>
    %o1 = tb.output_saver %e omap [1, -1, -1] fmap 0
            : !tb.tile<4x16xf16> -> tensor<16x32xf16>
    tb.yield %o0, %o1 : tensor<8x64xf16>, tensor<16x32xf16>
  }
  return %r#0, %r#1 : tensor<8x64xf16>, tensor<16x32xf16>
}

// -----

// Savers without fmap: a reduced tile, and a `none` tile of a one-iteration
// loop (nothing to lay out).
// CHECK-LABEL: func.func @output_saver_no_fmap
// CHECK: tk.fused grid [2, 3, 1] block [64, 2, 1] forloop 1
// CHECK: %[[X:.*]] = tb.input_iterator %{{.*}} imap [1, 0, -1] fmap -1 : tensor<12x32xf32> -> !tb.tile<4x16xf32>
// CHECK: %[[K:.*]] = tb.forloop_accum none %[[X]] : (!tb.tile<4x16xf32>) -> !tb.tile<4x16xf32>
// CHECK: %[[S:.*]] = tb.forloop_accum sum %[[X]] : (!tb.tile<4x16xf32>) -> !tb.tile<4x16xf32>
// CHECK: tb.output_saver %[[K]] omap [1, 0, -1] : !tb.tile<4x16xf32> -> tensor<12x32xf32>
// CHECK: tb.output_saver %[[S]] omap [0, 1, -1] : !tb.tile<4x16xf32> -> tensor<8x48xf32>
func.func @output_saver_no_fmap(%X: tensor<12x32xf32>)
    -> (tensor<12x32xf32>, tensor<8x48xf32>) {
  %r:2 = tk.fused grid [2, 3, 1] block [64, 2, 1] forloop 1
      (%x = %X : tensor<12x32xf32>) -> (tensor<12x32xf32>, tensor<8x48xf32>) {
    %xt = tb.input_iterator %x imap [1, 0, -1] fmap -1
            : tensor<12x32xf32> -> !tb.tile<4x16xf32>
    %k = tb.forloop_accum none %xt : (!tb.tile<4x16xf32>) -> !tb.tile<4x16xf32>
    %s = tb.forloop_accum sum %xt : (!tb.tile<4x16xf32>) -> !tb.tile<4x16xf32>
    %o0 = tb.output_saver %k omap [1, 0, -1]
            : !tb.tile<4x16xf32> -> tensor<12x32xf32>
    %o1 = tb.output_saver %s omap [0, 1, -1]
            : !tb.tile<4x16xf32> -> tensor<8x48xf32>
    tb.yield %o0, %o1 : tensor<12x32xf32>, tensor<8x48xf32>
  }
  return %r#0, %r#1 : tensor<12x32xf32>, tensor<8x48xf32>
}

// -----

// CHECK-LABEL: func.func @matmul
// CHECK: %[[A:.*]] = tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap 1 : tensor<64x128xf16> -> !tb.tile<64x64xf16>
// CHECK: %[[B:.*]] = tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap 0 : tensor<128x32xf16> -> !tb.tile<64x32xf16>
// CHECK: %[[C:.*]] = tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap 2 : tensor<4x16x64xf32> -> !tb.tile<4x16x32xf32>
// CHECK: %[[D:.*]] = tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap 1 : tensor<4x64x8xf32> -> !tb.tile<4x32x8xf32>
// CHECK: tb.matmul %[[A]], %[[B]] : !tb.tile<64x64xf16>, !tb.tile<64x32xf16> -> !tb.tile<64x32xf16>
// CHECK: tb.matmul %[[C]], %[[D]] : !tb.tile<4x16x32xf32>, !tb.tile<4x32x8xf32> -> !tb.tile<4x16x8xf32>
func.func @matmul(%A: tensor<64x128xf16>, %B: tensor<128x32xf16>,
                  %C: tensor<4x16x64xf32>, %D: tensor<4x64x8xf32>)
    -> (tensor<64x32xf16>, tensor<4x16x8xf32>) {
  %r:2 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 2
      (%a = %A : tensor<64x128xf16>, %b = %B : tensor<128x32xf16>,
       %c = %C : tensor<4x16x64xf32>, %d = %D : tensor<4x64x8xf32>)
      -> (tensor<64x32xf16>, tensor<4x16x8xf32>) {
    %at = tb.input_iterator %a imap [-1, -1, -1] fmap 1
            : tensor<64x128xf16> -> !tb.tile<64x64xf16>
    %bt = tb.input_iterator %b imap [-1, -1, -1] fmap 0
            : tensor<128x32xf16> -> !tb.tile<64x32xf16>
    %ct = tb.input_iterator %c imap [-1, -1, -1] fmap 2
            : tensor<4x16x64xf32> -> !tb.tile<4x16x32xf32>
    %dt = tb.input_iterator %d imap [-1, -1, -1] fmap 1
            : tensor<4x64x8xf32> -> !tb.tile<4x32x8xf32>
    %ab = tb.matmul %at, %bt
            : !tb.tile<64x64xf16>, !tb.tile<64x32xf16> -> !tb.tile<64x32xf16>
    %cd = tb.matmul %ct, %dt
            : !tb.tile<4x16x32xf32>, !tb.tile<4x32x8xf32> -> !tb.tile<4x16x8xf32>
    %s0 = tb.forloop_accum sum %ab : (!tb.tile<64x32xf16>) -> !tb.tile<64x32xf16>
    %s1 = tb.forloop_accum sum %cd
            : (!tb.tile<4x16x8xf32>) -> !tb.tile<4x16x8xf32>
    %o0 = tb.output_saver %s0 omap [-1, -1, -1]
            : !tb.tile<64x32xf16> -> tensor<64x32xf16>
    %o1 = tb.output_saver %s1 omap [-1, -1, -1]
            : !tb.tile<4x16x8xf32> -> tensor<4x16x8xf32>
    tb.yield %o0, %o1 : tensor<64x32xf16>, tensor<4x16x8xf32>
  }
  return %r#0, %r#1 : tensor<64x32xf16>, tensor<4x16x8xf32>
}

// -----

// Every unary kind, before and after the accumulator.
// CHECK-LABEL: func.func @unary_kinds
// CHECK: %[[X:.*]] = tb.input_iterator
// CHECK: %[[U0:.*]] = tb.unary exp %[[X]] : !tb.tile<16x64xbf16>
// CHECK: %[[U1:.*]] = tb.unary silu %[[U0]] : !tb.tile<16x64xbf16>
// CHECK: %[[U2:.*]] = tb.unary gelu %[[U1]] : !tb.tile<16x64xbf16>
// CHECK: %[[U3:.*]] = tb.unary relu %[[U2]] : !tb.tile<16x64xbf16>
// CHECK: %[[U4:.*]] = tb.unary sqrt %[[U3]] : !tb.tile<16x64xbf16>
// CHECK: %[[U5:.*]] = tb.unary rsqrt %[[U4]] : !tb.tile<16x64xbf16>
// CHECK: %[[U6:.*]] = tb.unary square %[[U5]] : !tb.tile<16x64xbf16>
// CHECK: %[[U7:.*]] = tb.unary neg %[[U6]] : !tb.tile<16x64xbf16>
// CHECK: %[[U8:.*]] = tb.unary mul_scalar(1.250000e-01) %[[U7]] : !tb.tile<16x64xbf16>
// CHECK: %[[A:.*]] = tb.forloop_accum sum %[[U8]]
// CHECK: %[[U9:.*]] = tb.unary mul_scalar(-3.000000e+00) %[[A]] : !tb.tile<16x64xbf16>
// CHECK: tb.output_saver %[[U9]] omap [-1, -1, -1]
func.func @unary_kinds(%X: tensor<16x256xbf16>) -> tensor<16x64xbf16> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xbf16>) -> tensor<16x64xbf16> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xbf16> -> !tb.tile<16x64xbf16>
    %u0 = tb.unary exp %xt : !tb.tile<16x64xbf16>
    %u1 = tb.unary silu %u0 : !tb.tile<16x64xbf16>
    %u2 = tb.unary gelu %u1 : !tb.tile<16x64xbf16>
    %u3 = tb.unary relu %u2 : !tb.tile<16x64xbf16>
    %u4 = tb.unary sqrt %u3 : !tb.tile<16x64xbf16>
    %u5 = tb.unary rsqrt %u4 : !tb.tile<16x64xbf16>
    %u6 = tb.unary square %u5 : !tb.tile<16x64xbf16>
    %u7 = tb.unary neg %u6 : !tb.tile<16x64xbf16>
    %u8 = tb.unary mul_scalar(0.125) %u7 : !tb.tile<16x64xbf16>
    %a = tb.forloop_accum sum %u8 : (!tb.tile<16x64xbf16>) -> !tb.tile<16x64xbf16>
    %u9 = tb.unary mul_scalar(-3.0) %a : !tb.tile<16x64xbf16>
    %o = tb.output_saver %u9 omap [-1, -1, -1]
           : !tb.tile<16x64xbf16> -> tensor<16x64xbf16>
    tb.yield %o : tensor<16x64xbf16>
  }
  return %r : tensor<16x64xbf16>
}

// -----

// Every binary kind, with numpy broadcasting (size-1 dims and lower rank).
// CHECK-LABEL: func.func @binary_kinds
// CHECK: %[[X:.*]] = tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap 1 : tensor<16x128xf32> -> !tb.tile<16x64xf32>
// CHECK: %[[R:.*]] = tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap -1 : tensor<64xf32> -> !tb.tile<64xf32>
// CHECK: %[[C:.*]] = tb.reduce sum %[[X]] dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
// CHECK: %[[W:.*]] = tb.reduce max %[[X]] dim 0 : !tb.tile<16x64xf32> -> !tb.tile<1x64xf32>
// CHECK: %[[B0:.*]] = tb.binary add %[[X]], %[[X]] : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
// CHECK: %[[B1:.*]] = tb.binary sub %[[B0]], %[[C]] : !tb.tile<16x64xf32>, !tb.tile<16x1xf32> -> !tb.tile<16x64xf32>
// CHECK: %[[B2:.*]] = tb.binary mul %[[W]], %[[B1]] : !tb.tile<1x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
// CHECK: %[[B3:.*]] = tb.binary div %[[B2]], %[[R]] : !tb.tile<16x64xf32>, !tb.tile<64xf32> -> !tb.tile<16x64xf32>
// CHECK: %[[B4:.*]] = tb.binary pow %[[C]], %[[W]] : !tb.tile<16x1xf32>, !tb.tile<1x64xf32> -> !tb.tile<16x64xf32>
// CHECK: %[[B5:.*]] = tb.binary add %[[B3]], %[[B4]] : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
// CHECK: tb.forloop_accum sum %[[B5]]
func.func @binary_kinds(%X: tensor<16x128xf32>, %R: tensor<64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 2
      (%x = %X : tensor<16x128xf32>, %rr = %R : tensor<64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x128xf32> -> !tb.tile<16x64xf32>
    %rt = tb.input_iterator %rr imap [-1, -1, -1] fmap -1
            : tensor<64xf32> -> !tb.tile<64xf32>
    %col = tb.reduce sum %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    %row = tb.reduce max %xt dim 0 : !tb.tile<16x64xf32> -> !tb.tile<1x64xf32>
    %b0 = tb.binary add %xt, %xt
            : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
    %b1 = tb.binary sub %b0, %col
            : !tb.tile<16x64xf32>, !tb.tile<16x1xf32> -> !tb.tile<16x64xf32>
    %b2 = tb.binary mul %row, %b1
            : !tb.tile<1x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
    %b3 = tb.binary div %b2, %rt
            : !tb.tile<16x64xf32>, !tb.tile<64xf32> -> !tb.tile<16x64xf32>
    %b4 = tb.binary pow %col, %row
            : !tb.tile<16x1xf32>, !tb.tile<1x64xf32> -> !tb.tile<16x64xf32>
    %b5 = tb.binary add %b3, %b4
            : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %b5 : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// Every reduce kind, with and without `to`.
// CHECK-LABEL: func.func @reduce
// CHECK: %[[X:.*]] = tb.input_iterator
// CHECK: tb.reduce sum %[[X]] dim 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
// CHECK: tb.reduce max %[[X]] dim 0 : !tb.tile<16x64xf16> -> !tb.tile<1x64xf16>
// CHECK: tb.reduce mean %[[X]] dim 1 to 4 : !tb.tile<16x64xf16> -> !tb.tile<16x4xf16>
// CHECK: tb.reduce sum %[[X]] dim 0 to 16 : !tb.tile<16x64xf16> -> !tb.tile<16x64xf16>
// CHECK: tb.reduce max %[[X]] dim 1 to 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
func.func @reduce(%X: tensor<16x64xf16>)
    -> (tensor<16x1xf16>, tensor<1x64xf16>, tensor<16x4xf16>,
        tensor<16x64xf16>, tensor<16x1xf16>) {
  %r:5 = tk.fused grid [1, 1, 1] block [32, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf16>)
      -> (tensor<16x1xf16>, tensor<1x64xf16>, tensor<16x4xf16>,
          tensor<16x64xf16>, tensor<16x1xf16>) {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf16> -> !tb.tile<16x64xf16>
    %r0 = tb.reduce sum %xt dim 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
    %r1 = tb.reduce max %xt dim 0 : !tb.tile<16x64xf16> -> !tb.tile<1x64xf16>
    %r2 = tb.reduce mean %xt dim 1 to 4
            : !tb.tile<16x64xf16> -> !tb.tile<16x4xf16>
    %r3 = tb.reduce sum %xt dim 0 to 16
            : !tb.tile<16x64xf16> -> !tb.tile<16x64xf16>
    %r4 = tb.reduce max %xt dim 1 to 1
            : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
    %a0 = tb.forloop_accum sum %r0 : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %a1 = tb.forloop_accum sum %r1 : (!tb.tile<1x64xf16>) -> !tb.tile<1x64xf16>
    %a2 = tb.forloop_accum sum %r2 : (!tb.tile<16x4xf16>) -> !tb.tile<16x4xf16>
    %a3 = tb.forloop_accum sum %r3 : (!tb.tile<16x64xf16>) -> !tb.tile<16x64xf16>
    %a4 = tb.forloop_accum sum %r4 : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %o0 = tb.output_saver %a0 omap [-1, -1, -1]
            : !tb.tile<16x1xf16> -> tensor<16x1xf16>
    %o1 = tb.output_saver %a1 omap [-1, -1, -1]
            : !tb.tile<1x64xf16> -> tensor<1x64xf16>
    %o2 = tb.output_saver %a2 omap [-1, -1, -1]
            : !tb.tile<16x4xf16> -> tensor<16x4xf16>
    %o3 = tb.output_saver %a3 omap [-1, -1, -1]
            : !tb.tile<16x64xf16> -> tensor<16x64xf16>
    %o4 = tb.output_saver %a4 omap [-1, -1, -1]
            : !tb.tile<16x1xf16> -> tensor<16x1xf16>
    tb.yield %o0, %o1, %o2, %o3, %o4
        : tensor<16x1xf16>, tensor<1x64xf16>, tensor<16x4xf16>,
          tensor<16x64xf16>, tensor<16x1xf16>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4
      : tensor<16x1xf16>, tensor<1x64xf16>, tensor<16x4xf16>,
        tensor<16x64xf16>, tensor<16x1xf16>
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK: %[[A:.*]] = tb.input_iterator %{{.*}} : tensor<16x64xf16> -> !tb.tile<16x32xf16>
// CHECK: %[[B:.*]] = tb.input_iterator %{{.*}} : tensor<16x128xf16> -> !tb.tile<16x64xf16>
// CHECK: %[[C:.*]] = tb.concat %[[A]], %[[B]] dim 1 : !tb.tile<16x32xf16>, !tb.tile<16x64xf16> -> !tb.tile<16x96xf16>
// CHECK: %[[D:.*]] = tb.concat %[[C]], %[[C]], %[[C]] dim 0 : !tb.tile<16x96xf16>, !tb.tile<16x96xf16>, !tb.tile<16x96xf16> -> !tb.tile<48x96xf16>
// CHECK: %[[E:.*]] = tb.concat %[[D]] dim 1 : !tb.tile<48x96xf16> -> !tb.tile<48x96xf16>
// CHECK: tb.forloop_accum max %[[E]]
func.func @concat(%A: tensor<16x64xf16>, %B: tensor<16x128xf16>)
    -> tensor<48x96xf16> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 2
      (%a = %A : tensor<16x64xf16>, %b = %B : tensor<16x128xf16>)
      -> tensor<48x96xf16> {
    %at = tb.input_iterator %a imap [-1, -1, -1] fmap 1
            : tensor<16x64xf16> -> !tb.tile<16x32xf16>
    %bt = tb.input_iterator %b imap [-1, -1, -1] fmap 1
            : tensor<16x128xf16> -> !tb.tile<16x64xf16>
    %c = tb.concat %at, %bt dim 1
           : !tb.tile<16x32xf16>, !tb.tile<16x64xf16> -> !tb.tile<16x96xf16>
    %d = tb.concat %c, %c, %c dim 0
           : !tb.tile<16x96xf16>, !tb.tile<16x96xf16>, !tb.tile<16x96xf16>
             -> !tb.tile<48x96xf16>
    %e = tb.concat %d dim 1 : !tb.tile<48x96xf16> -> !tb.tile<48x96xf16>
    %m = tb.forloop_accum max %e : (!tb.tile<48x96xf16>) -> !tb.tile<48x96xf16>
    %o = tb.output_saver %m omap [-1, -1, -1]
           : !tb.tile<48x96xf16> -> tensor<48x96xf16>
    tb.yield %o : tensor<48x96xf16>
  }
  return %r : tensor<48x96xf16>
}

// -----

// rms_norm with the default epsilon (elided) and an explicit one.
// CHECK-LABEL: func.func @rms_norm
// CHECK: %[[X:.*]] = tb.input_iterator %{{.*}} imap [0, -1, -1] fmap -1 : tensor<64x4096xf16> -> !tb.tile<16x4096xf16>
// CHECK: %[[N0:.*]] = tb.rms_norm %[[X]] : !tb.tile<16x4096xf16>
// CHECK: %[[N1:.*]] = tb.rms_norm %[[N0]] {epsilon = 9.99999974E-6 : f32} : !tb.tile<16x4096xf16>
// CHECK: tb.forloop_accum sum %[[N1]]
// CHECK: tb.output_saver %{{.*}} omap [0, -1, -1] : !tb.tile<16x4096xf16> -> tensor<64x4096xf16>
func.func @rms_norm(%X: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  %r = tk.fused grid [4, 1, 1] block [256, 1, 1] forloop 1
      (%x = %X : tensor<64x4096xf16>) -> tensor<64x4096xf16> {
    %xt = tb.input_iterator %x imap [0, -1, -1] fmap -1
            : tensor<64x4096xf16> -> !tb.tile<16x4096xf16>
    %n0 = tb.rms_norm %xt : !tb.tile<16x4096xf16>
    %n1 = tb.rms_norm %n0 {epsilon = 1.0e-05 : f32} : !tb.tile<16x4096xf16>
    %a = tb.forloop_accum sum %n1
           : (!tb.tile<16x4096xf16>) -> !tb.tile<16x4096xf16>
    %o = tb.output_saver %a omap [0, -1, -1]
           : !tb.tile<16x4096xf16> -> tensor<64x4096xf16>
    tb.yield %o : tensor<64x4096xf16>
  }
  return %r : tensor<64x4096xf16>
}

// -----

// FlashDecoding: 32 heads (grid x) x 4 KV splits (grid y); each block walks
// its 4096 keys in 16 steps of 256 with online softmax, and writes the
// partial output of its split with the running max for a later combine.
// Q: heads x 1 x group rows x d; K^T: heads x splits x d x keys;
// V: heads x splits x keys x d.
// CHECK-LABEL: func.func @flash_decoding
// CHECK: tk.fused grid [32, 4, 1] block [128, 1, 1] forloop 16
// CHECK: %[[Q:.*]] = tb.input_iterator %{{.*}} imap [0, -1, -1] fmap -1 : tensor<32x1x8x128xf16> -> !tb.tile<1x1x8x128xf16>
// CHECK: %[[K:.*]] = tb.input_iterator %{{.*}} imap [0, 1, -1] fmap 3 : tensor<32x4x128x4096xf16> -> !tb.tile<1x1x128x256xf16>
// CHECK: %[[V:.*]] = tb.input_iterator %{{.*}} imap [0, 1, -1] fmap 2 : tensor<32x4x4096x128xf16> -> !tb.tile<1x1x256x128xf16>
// CHECK: %[[S:.*]] = tb.matmul %[[Q]], %[[K]] : !tb.tile<1x1x8x128xf16>, !tb.tile<1x1x128x256xf16> -> !tb.tile<1x1x8x256xf16>
// CHECK: %[[SS:.*]] = tb.unary mul_scalar(0.0883883461) %[[S]] : !tb.tile<1x1x8x256xf16>
// CHECK: %[[M:.*]] = tb.reduce max %[[SS]] dim 3 : !tb.tile<1x1x8x256xf16> -> !tb.tile<1x1x8x1xf16>
// CHECK: %[[D:.*]] = tb.binary sub %[[SS]], %[[M]] : !tb.tile<1x1x8x256xf16>, !tb.tile<1x1x8x1xf16> -> !tb.tile<1x1x8x256xf16>
// CHECK: %[[P:.*]] = tb.unary exp %[[D]] : !tb.tile<1x1x8x256xf16>
// CHECK: %[[L:.*]] = tb.reduce sum %[[P]] dim 3 : !tb.tile<1x1x8x256xf16> -> !tb.tile<1x1x8x1xf16>
// CHECK: %[[O:.*]] = tb.matmul %[[P]], %[[V]] : !tb.tile<1x1x8x256xf16>, !tb.tile<1x1x256x128xf16> -> !tb.tile<1x1x8x128xf16>
// CHECK: %[[MX:.*]] = tb.forloop_accum max %[[M]] : (!tb.tile<1x1x8x1xf16>) -> !tb.tile<1x1x8x1xf16>
// CHECK: %[[OA:.*]] = tb.forloop_accum sum_rescale %[[O]], %[[M]] : (!tb.tile<1x1x8x128xf16>, !tb.tile<1x1x8x1xf16>) -> !tb.tile<1x1x8x128xf16>
// CHECK: %[[LA:.*]] = tb.forloop_accum sum_rescale %[[L]], %[[M]] : (!tb.tile<1x1x8x1xf16>, !tb.tile<1x1x8x1xf16>) -> !tb.tile<1x1x8x1xf16>
// CHECK: %[[Y:.*]] = tb.binary div %[[OA]], %[[LA]] : !tb.tile<1x1x8x128xf16>, !tb.tile<1x1x8x1xf16> -> !tb.tile<1x1x8x128xf16>
// CHECK: %[[YO:.*]] = tb.output_saver %[[Y]] omap [0, 1, -1] : !tb.tile<1x1x8x128xf16> -> tensor<32x4x8x128xf16>
// CHECK: %[[MO:.*]] = tb.output_saver %[[MX]] omap [0, 1, -1] : !tb.tile<1x1x8x1xf16> -> tensor<32x4x8x1xf16>
// CHECK: %[[LO:.*]] = tb.output_saver %[[LA]] omap [0, 1, -1] : !tb.tile<1x1x8x1xf16> -> tensor<32x4x8x1xf16>
// CHECK: tb.yield %[[YO]], %[[MO]], %[[LO]] : tensor<32x4x8x128xf16>, tensor<32x4x8x1xf16>, tensor<32x4x8x1xf16>
func.func @flash_decoding(%Q: tensor<32x1x8x128xf16>,
                          %KT: tensor<32x4x128x4096xf16>,
                          %V: tensor<32x4x4096x128xf16>)
    -> (tensor<32x4x8x128xf16>, tensor<32x4x8x1xf16>, tensor<32x4x8x1xf16>) {
  %r:3 = tk.fused grid [32, 4, 1] block [128, 1, 1] forloop 16
      (%q = %Q : tensor<32x1x8x128xf16>, %kt = %KT : tensor<32x4x128x4096xf16>,
       %v = %V : tensor<32x4x4096x128xf16>)
      -> (tensor<32x4x8x128xf16>, tensor<32x4x8x1xf16>, tensor<32x4x8x1xf16>) {
    %qt = tb.input_iterator %q imap [0, -1, -1] fmap -1
            : tensor<32x1x8x128xf16> -> !tb.tile<1x1x8x128xf16>
    %ktt = tb.input_iterator %kt imap [0, 1, -1] fmap 3
            : tensor<32x4x128x4096xf16> -> !tb.tile<1x1x128x256xf16>
    %vt = tb.input_iterator %v imap [0, 1, -1] fmap 2
            : tensor<32x4x4096x128xf16> -> !tb.tile<1x1x256x128xf16>
    %s = tb.matmul %qt, %ktt
           : !tb.tile<1x1x8x128xf16>, !tb.tile<1x1x128x256xf16>
             -> !tb.tile<1x1x8x256xf16>
    %ss = tb.unary mul_scalar(0.0883883461) %s : !tb.tile<1x1x8x256xf16>
    %m = tb.reduce max %ss dim 3
           : !tb.tile<1x1x8x256xf16> -> !tb.tile<1x1x8x1xf16>
    %d = tb.binary sub %ss, %m
           : !tb.tile<1x1x8x256xf16>, !tb.tile<1x1x8x1xf16>
             -> !tb.tile<1x1x8x256xf16>
    %p = tb.unary exp %d : !tb.tile<1x1x8x256xf16>
    %l = tb.reduce sum %p dim 3
           : !tb.tile<1x1x8x256xf16> -> !tb.tile<1x1x8x1xf16>
    %o = tb.matmul %p, %vt
           : !tb.tile<1x1x8x256xf16>, !tb.tile<1x1x256x128xf16>
             -> !tb.tile<1x1x8x128xf16>
    %mx = tb.forloop_accum max %m
            : (!tb.tile<1x1x8x1xf16>) -> !tb.tile<1x1x8x1xf16>
    %oa = tb.forloop_accum sum_rescale %o, %m
            : (!tb.tile<1x1x8x128xf16>, !tb.tile<1x1x8x1xf16>)
              -> !tb.tile<1x1x8x128xf16>
    %la = tb.forloop_accum sum_rescale %l, %m
            : (!tb.tile<1x1x8x1xf16>, !tb.tile<1x1x8x1xf16>)
              -> !tb.tile<1x1x8x1xf16>
    %y = tb.binary div %oa, %la
           : !tb.tile<1x1x8x128xf16>, !tb.tile<1x1x8x1xf16>
             -> !tb.tile<1x1x8x128xf16>
    %yo = tb.output_saver %y omap [0, 1, -1]
            : !tb.tile<1x1x8x128xf16> -> tensor<32x4x8x128xf16>
    %mo = tb.output_saver %mx omap [0, 1, -1]
            : !tb.tile<1x1x8x1xf16> -> tensor<32x4x8x1xf16>
    %lo = tb.output_saver %la omap [0, 1, -1]
            : !tb.tile<1x1x8x1xf16> -> tensor<32x4x8x1xf16>
    tb.yield %yo, %mo, %lo
        : tensor<32x4x8x128xf16>, tensor<32x4x8x1xf16>, tensor<32x4x8x1xf16>
  }
  return %r#0, %r#1, %r#2
      : tensor<32x4x8x128xf16>, tensor<32x4x8x1xf16>, tensor<32x4x8x1xf16>
}

// -----

// rms_norm(X) @ W as one fused kernel (examples/ugraph/rmsnorm_linear.mlir).
// CHECK-LABEL: func.func @rmsnorm_linear
// CHECK: %[[Y:.*]] = tk.fused grid [48, 1, 1] block [128, 1, 1] forloop 64 (%[[XA:.*]] = %{{.*}} : tensor<16x4096xf16>, %[[WA:.*]] = %{{.*}} : tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
// CHECK: %[[XT:.*]] = tb.input_iterator %[[XA]] imap [-1, -1, -1] fmap 1 : tensor<16x4096xf16> -> !tb.tile<16x64xf16>
// CHECK: %[[WT:.*]] = tb.input_iterator %[[WA]] imap [1, -1, -1] fmap 0 : tensor<4096x6144xf16> -> !tb.tile<64x128xf16>
// CHECK: %[[XW:.*]] = tb.matmul %[[XT]], %[[WT]] : !tb.tile<16x64xf16>, !tb.tile<64x128xf16> -> !tb.tile<16x128xf16>
// CHECK: %[[SQ:.*]] = tb.unary square %[[XT]] : !tb.tile<16x64xf16>
// CHECK: %[[SS:.*]] = tb.reduce sum %[[SQ]] dim 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
// CHECK: %[[ACC:.*]] = tb.forloop_accum sum %[[XW]] : (!tb.tile<16x128xf16>) -> !tb.tile<16x128xf16>
// CHECK: %[[SUM:.*]] = tb.forloop_accum sum %[[SS]] : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
// CHECK: %[[MEAN:.*]] = tb.unary mul_scalar(2.44140625E-4) %[[SUM]] : !tb.tile<16x1xf16>
// CHECK: %[[RMS:.*]] = tb.unary sqrt %[[MEAN]] : !tb.tile<16x1xf16>
// CHECK: %[[DIV:.*]] = tb.binary div %[[ACC]], %[[RMS]] : !tb.tile<16x128xf16>, !tb.tile<16x1xf16> -> !tb.tile<16x128xf16>
// CHECK: %[[OUT:.*]] = tb.output_saver %[[DIV]] omap [1, -1, -1] : !tb.tile<16x128xf16> -> tensor<16x6144xf16>
// CHECK: tb.yield %[[OUT]] : tensor<16x6144xf16>
// CHECK: return %[[Y]] : tensor<16x6144xf16>
func.func @rmsnorm_linear(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>)
    -> tensor<16x6144xf16> {
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
