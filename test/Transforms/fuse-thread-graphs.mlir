// RUN: tileopt-opt %s -split-input-file --tileopt-fuse-thread-graphs | FileCheck %s

// A chain after the accumulators: mul_scalar -> sqrt -> div becomes one
// thread graph over the two accumulated tiles; the broadcast [16,1] input
// keeps its shape.
// CHECK-LABEL: func.func @chain_after_accum
// CHECK:      %[[ACC:.*]] = tb.forloop_accum sum %{{.*}} : (!tb.tile<16x128xf32>)
// CHECK:      %[[SUM:.*]] = tb.forloop_accum sum %{{.*}} : (!tb.tile<16x1xf32>)
// CHECK:      %[[G:.*]] = th.graph (%[[S:.*]] = %[[SUM]] : !tb.tile<16x1xf32>, %[[A:.*]] = %[[ACC]] : !tb.tile<16x128xf32>) -> !tb.tile<16x128xf32> {
// CHECK-NEXT:   %[[C:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[S]], %[[C]] : f32
// CHECK-NEXT:   %[[R:.*]] = math.sqrt %[[M]] : f32
// CHECK-NEXT:   %[[D:.*]] = arith.divf %[[A]], %[[R]] : f32
// CHECK-NEXT:   th.yield %[[D]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: tb.output_saver %[[G]]
// CHECK-NOT:  tb.unary
// CHECK-NOT:  tb.binary
func.func @chain_after_accum(%X: tensor<16x512xf32>) -> tensor<16x512xf32> {
  %Y = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 1
         (%x = %X : tensor<16x512xf32>) -> tensor<16x512xf32> {
    %xt = tb.input_iterator %x imap [1, -1, -1] fmap -1
            : tensor<16x512xf32> -> !tb.tile<16x128xf32>
    %sq = tb.unary square %xt : !tb.tile<16x128xf32>
    %ss = tb.reduce sum %sq dim 1 : !tb.tile<16x128xf32> -> !tb.tile<16x1xf32>
    %acc = tb.forloop_accum sum %xt : (!tb.tile<16x128xf32>) -> !tb.tile<16x128xf32>
    %sum = tb.forloop_accum sum %ss : (!tb.tile<16x1xf32>) -> !tb.tile<16x1xf32>
    %mean = tb.unary mul_scalar(2.500000e-01) %sum : !tb.tile<16x1xf32>
    %rms = tb.unary sqrt %mean : !tb.tile<16x1xf32>
    %y = tb.binary div %acc, %rms
           : !tb.tile<16x128xf32>, !tb.tile<16x1xf32> -> !tb.tile<16x128xf32>
    %out = tb.output_saver %y omap [1, -1, -1]
             : !tb.tile<16x128xf32> -> tensor<16x512xf32>
    tb.yield %out : tensor<16x512xf32>
  }
  return %Y : tensor<16x512xf32>
}

// -----

// silu(a) * b with `a` feeding a second user: `a`'s producer has two users,
// so it stays a tile op; silu and mul fuse. The lone square before the
// reduction has nothing to fuse with and stays.
// CHECK-LABEL: func.func @shared_producer
// CHECK:      %[[E:.*]] = tb.unary exp %{{.*}} : !tb.tile<8x64xf32>
// CHECK:      th.graph (%[[P:.*]] = %[[E]] : !tb.tile<8x64xf32>, %[[Q:.*]] = %{{.*}} : !tb.tile<8x64xf32>) -> !tb.tile<8x64xf32> {
// CHECK:        arith.negf %[[P]] : f32
// CHECK:        math.exp
// CHECK:        arith.addf
// CHECK:        %[[SILU:.*]] = arith.divf %[[P]], %{{.*}} : f32
// CHECK:        %[[MUL:.*]] = arith.mulf %[[SILU]], %[[Q]] : f32
// CHECK:        th.yield %[[MUL]] : f32
// CHECK:      tb.unary square %[[E]]
func.func @shared_producer(%A: tensor<8x256xf32>, %B: tensor<8x256xf32>)
    -> (tensor<8x256xf32>, tensor<8x4xf32>) {
  %Y:2 = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 1
           (%a = %A : tensor<8x256xf32>, %b = %B : tensor<8x256xf32>)
           -> (tensor<8x256xf32>, tensor<8x4xf32>) {
    %at = tb.input_iterator %a imap [1, -1, -1] fmap -1
            : tensor<8x256xf32> -> !tb.tile<8x64xf32>
    %bt = tb.input_iterator %b imap [1, -1, -1] fmap -1
            : tensor<8x256xf32> -> !tb.tile<8x64xf32>
    %e = tb.unary exp %at : !tb.tile<8x64xf32>
    %s = tb.unary silu %e : !tb.tile<8x64xf32>
    %m = tb.binary mul %s, %bt
           : !tb.tile<8x64xf32>, !tb.tile<8x64xf32> -> !tb.tile<8x64xf32>
    %sq = tb.unary square %e : !tb.tile<8x64xf32>
    %r = tb.reduce sum %sq dim 1 : !tb.tile<8x64xf32> -> !tb.tile<8x1xf32>
    %acc = tb.forloop_accum none %m : (!tb.tile<8x64xf32>) -> !tb.tile<8x64xf32>
    %racc = tb.forloop_accum none %r : (!tb.tile<8x1xf32>) -> !tb.tile<8x1xf32>
    %o1 = tb.output_saver %acc omap [1, -1, -1]
            : !tb.tile<8x64xf32> -> tensor<8x256xf32>
    %o2 = tb.output_saver %racc omap [1, -1, -1]
            : !tb.tile<8x1xf32> -> tensor<8x4xf32>
    tb.yield %o1, %o2 : tensor<8x256xf32>, tensor<8x4xf32>
  }
  return %Y#0, %Y#1 : tensor<8x256xf32>, tensor<8x4xf32>
}

// -----

// An input read twice by the chain is bound once.
// CHECK-LABEL: func.func @repeated_input
// CHECK:      th.graph (%[[X:.*]] = %{{.*}} : !tb.tile<4x32xf16>) -> !tb.tile<4x32xf16> {
// CHECK-NEXT:   %[[S:.*]] = arith.mulf %[[X]], %[[X]] : f16
// CHECK-NEXT:   %[[R:.*]] = math.rsqrt %[[S]] : f16
// CHECK-NEXT:   th.yield %[[R]] : f16
func.func @repeated_input(%X: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %Y = tk.fused grid [1, 1, 1] block [32, 1, 1] forloop 1
         (%x = %X : tensor<4x32xf16>) -> tensor<4x32xf16> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<4x32xf16> -> !tb.tile<4x32xf16>
    %acc = tb.forloop_accum sum %xt : (!tb.tile<4x32xf16>) -> !tb.tile<4x32xf16>
    %sq = tb.binary mul %acc, %acc
            : !tb.tile<4x32xf16>, !tb.tile<4x32xf16> -> !tb.tile<4x32xf16>
    %r = tb.unary rsqrt %sq : !tb.tile<4x32xf16>
    %out = tb.output_saver %r omap [-1, -1, -1]
             : !tb.tile<4x32xf16> -> tensor<4x32xf16>
    tb.yield %out : tensor<4x32xf16>
  }
  return %Y : tensor<4x32xf16>
}

// -----

// Kernel-graph elementwise ops are kernels of their own, not thread graphs:
// the pass leaves them alone.
// CHECK-LABEL: func.func @kernel_graph_untouched
// CHECK-NEXT: tk.unary exp
// CHECK-NEXT: tk.unary neg
// CHECK-NOT:  th.graph
func.func @kernel_graph_untouched(%X: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %e = tk.unary exp %X : tensor<4x32xf16>
  %n = tk.unary neg %e : tensor<4x32xf16>
  return %n : tensor<4x32xf16>
}
