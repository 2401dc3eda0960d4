// RUN: tileopt-opt %s -split-input-file | tileopt-opt -split-input-file | FileCheck %s
// RUN: tileopt-opt %s -split-input-file -mlir-print-op-generic | tileopt-opt -split-input-file | FileCheck %s

// Round trip of th.graph inside the block graph of a tk.fused kernel.

// One input, one result, on per-iteration tiles.
// CHECK-LABEL: func.func @single_input
// CHECK: tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%[[X:.*]] = %{{.*}} : tensor<16x64xf32>) -> tensor<16x64xf32> {
// CHECK-NEXT: %[[T:.*]] = tb.input_iterator %[[X]] imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
// CHECK-NEXT: %[[G:.*]] = th.graph (%[[S:.*]] = %[[T]] : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
// CHECK-NEXT: %[[E:.*]] = math.exp %[[S]] : f32
// CHECK-NEXT: th.yield %[[E]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[A:.*]] = tb.forloop_accum none %[[G]] : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
// CHECK-NEXT: %[[O:.*]] = tb.output_saver %[[A]] omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
// CHECK-NEXT: tb.yield %[[O]] : tensor<16x64xf32>
func.func @single_input(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      %e = math.exp %s : f32
      th.yield %e : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// x * silu(y) on two same-shaped inputs, with arith and math ops and a
// constant.
// CHECK-LABEL: func.func @multiple_inputs
// CHECK: %[[G:.*]] = th.graph (%[[A:.*]] = %[[XT:.*]] : !tb.tile<16x64xf16>, %[[B:.*]] = %[[YT:.*]] : !tb.tile<16x64xf16>) -> !tb.tile<16x64xf16> {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f16
// CHECK-NEXT: %[[NEG:.*]] = arith.negf %[[B]] : f16
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[NEG]] : f16
// CHECK-NEXT: %[[DEN:.*]] = arith.addf %[[ONE]], %[[EXP]] : f16
// CHECK-NEXT: %[[SIG:.*]] = arith.divf %[[B]], %[[DEN]] : f16
// CHECK-NEXT: %[[MUL:.*]] = arith.mulf %[[A]], %[[SIG]] : f16
// CHECK-NEXT: th.yield %[[MUL]] : f16
// CHECK-NEXT: }
// CHECK-NEXT: tb.forloop_accum sum %[[G]] : (!tb.tile<16x64xf16>) -> !tb.tile<16x64xf16>
func.func @multiple_inputs(%X: tensor<16x256xf16>, %Y: tensor<16x256xf16>) -> tensor<16x64xf16> {
  %R = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
         (%x = %X : tensor<16x256xf16>, %y = %Y : tensor<16x256xf16>) -> tensor<16x64xf16> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x256xf16> -> !tb.tile<16x64xf16>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap 1 : tensor<16x256xf16> -> !tb.tile<16x64xf16>
    %g = th.graph (%a = %xt : !tb.tile<16x64xf16>, %b = %yt : !tb.tile<16x64xf16>) -> !tb.tile<16x64xf16> {
      %one = arith.constant 1.0 : f16
      %neg = arith.negf %b : f16
      %exp = math.exp %neg : f16
      %den = arith.addf %one, %exp : f16
      %sig = arith.divf %b, %den : f16
      %mul = arith.mulf %a, %sig : f16
      th.yield %mul : f16
    }
    %acc = tb.forloop_accum sum %g : (!tb.tile<16x64xf16>) -> !tb.tile<16x64xf16>
    %o = tb.output_saver %acc omap [-1, -1, -1] : !tb.tile<16x64xf16> -> tensor<16x64xf16>
    tb.yield %o : tensor<16x64xf16>
  }
  return %R : tensor<16x64xf16>
}

// -----

// exp(s - m) with a row vector m broadcast over the columns, and three
// inputs broadcasting to a shape none of them has.
// CHECK-LABEL: func.func @broadcasting_inputs
// CHECK: th.graph (%[[S:.*]] = %{{.*}} : !tb.tile<16x64xf32>, %[[M:.*]] = %{{.*}} : !tb.tile<16x1xf32>) -> !tb.tile<16x64xf32> {
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[S]], %[[M]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT: th.yield %[[E]] : f32
// CHECK: th.graph (%[[C:.*]] = %{{.*}} : !tb.tile<16x1xf32>, %[[R:.*]] = %{{.*}} : !tb.tile<1x64xf32>, %[[V:.*]] = %{{.*}} : !tb.tile<64xf32>) -> !tb.tile<16x64xf32> {
// CHECK-NEXT: %[[F:.*]] = math.fma %[[C]], %[[R]], %[[V]] : f32
// CHECK-NEXT: th.yield %[[F]] : f32
func.func @broadcasting_inputs(%S: tensor<16x64xf32>, %M: tensor<16x1xf32>, %Rw: tensor<1x64xf32>, %V: tensor<64xf32>)
    -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %r:2 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
           (%s = %S : tensor<16x64xf32>, %m = %M : tensor<16x1xf32>, %rw = %Rw : tensor<1x64xf32>, %v = %V : tensor<64xf32>)
           -> (tensor<16x64xf32>, tensor<16x64xf32>) {
    %st = tb.input_iterator %s imap [-1, -1, -1] fmap -1 : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %mt = tb.input_iterator %m imap [-1, -1, -1] fmap -1 : tensor<16x1xf32> -> !tb.tile<16x1xf32>
    %rt = tb.input_iterator %rw imap [-1, -1, -1] fmap -1 : tensor<1x64xf32> -> !tb.tile<1x64xf32>
    %vt = tb.input_iterator %v imap [-1, -1, -1] fmap -1 : tensor<64xf32> -> !tb.tile<64xf32>
    %p = th.graph (%a = %st : !tb.tile<16x64xf32>, %b = %mt : !tb.tile<16x1xf32>) -> !tb.tile<16x64xf32> {
      %d = arith.subf %a, %b : f32
      %e = math.exp %d : f32
      th.yield %e : f32
    }
    %q = th.graph (%c = %mt : !tb.tile<16x1xf32>, %r = %rt : !tb.tile<1x64xf32>, %w = %vt : !tb.tile<64xf32>) -> !tb.tile<16x64xf32> {
      %f = math.fma %c, %r, %w : f32
      th.yield %f : f32
    }
    %pa = tb.forloop_accum sum %p : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %qa = tb.forloop_accum sum %q : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %po = tb.output_saver %pa omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    %qo = tb.output_saver %qa omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %po, %qo : tensor<16x64xf32>, tensor<16x64xf32>
  }
  return %r#0, %r#1 : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// Two results of different shapes and element types: exp(x) in f32 (the
// input widened with arith.extf) and relu(x) in the input's f16, broadcast
// against a 1x64 bias.
// CHECK-LABEL: func.func @multiple_results_and_casts
// CHECK: %[[G:.*]]:2 = th.graph (%[[A:.*]] = %{{.*}} : !tb.tile<16x64xf16>, %[[B:.*]] = %{{.*}} : !tb.tile<1x64xf16>) -> (!tb.tile<16x64xf32>, !tb.tile<16x64xf16>) {
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[W]] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f16
// CHECK-NEXT: %[[R:.*]] = arith.maximumf %[[S]], %[[Z]] : f16
// CHECK-NEXT: th.yield %[[E]], %[[R]] : f32, f16
// CHECK-NEXT: }
// CHECK-NEXT: tb.forloop_accum sum %[[G]]#0 : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
// CHECK-NEXT: tb.forloop_accum max %[[G]]#1 : (!tb.tile<16x64xf16>) -> !tb.tile<16x64xf16>
func.func @multiple_results_and_casts(%X: tensor<16x256xf16>, %Bias: tensor<1x64xf16>)
    -> (tensor<16x64xf32>, tensor<16x64xf16>) {
  %r:2 = tk.fused grid [1, 1, 1] block [256, 1, 1] forloop 4
           (%x = %X : tensor<16x256xf16>, %bias = %Bias : tensor<1x64xf16>)
           -> (tensor<16x64xf32>, tensor<16x64xf16>) {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x256xf16> -> !tb.tile<16x64xf16>
    %bt = tb.input_iterator %bias imap [-1, -1, -1] fmap -1 : tensor<1x64xf16> -> !tb.tile<1x64xf16>
    %g:2 = th.graph (%a = %xt : !tb.tile<16x64xf16>, %b = %bt : !tb.tile<1x64xf16>)
             -> (!tb.tile<16x64xf32>, !tb.tile<16x64xf16>) {
      %w = arith.extf %a : f16 to f32
      %e = math.exp %w : f32
      %z = arith.constant 0.0 : f16
      %s = arith.addf %a, %b : f16
      %r = arith.maximumf %s, %z : f16
      th.yield %e, %r : f32, f16
    }
    %ea = tb.forloop_accum sum %g#0 : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %ra = tb.forloop_accum max %g#1 : (!tb.tile<16x64xf16>) -> !tb.tile<16x64xf16>
    %eo = tb.output_saver %ea omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    %ro = tb.output_saver %ra omap [-1, -1, -1] : !tb.tile<16x64xf16> -> tensor<16x64xf16>
    tb.yield %eo, %ro : tensor<16x64xf32>, tensor<16x64xf16>
  }
  return %r#0, %r#1 : tensor<16x64xf32>, tensor<16x64xf16>
}

// -----

// An epilogue on accumulated tiles: rsqrt(mean + eps) in f32, narrowed back
// to f16 with arith.truncf, with a compare (i1) and select, and extra
// attributes printed after `attributes`.
// CHECK-LABEL: func.func @epilogue_after_accumulator
// CHECK: %[[ACC:.*]] = tb.forloop_accum mean
// CHECK-NEXT: %[[G:.*]] = th.graph (%[[M:.*]] = %[[ACC]] : !tb.tile<16x1xf16>) -> !tb.tile<16x1xf16> attributes {note = "rms"} {
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[M]] : f16 to f32
// CHECK-NEXT: %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[W]], %[[EPS]] : f32
// CHECK-NEXT: %[[RS:.*]] = math.rsqrt %[[ADD]] : f32
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[RS]] : f32
// CHECK-NEXT: %[[POS:.*]] = arith.cmpf ogt, %[[RS]], %[[T]] : f32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[POS]], %[[RS]], %[[T]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.truncf %[[SEL]] : f32 to f16
// CHECK-NEXT: th.yield %[[N]] : f16
// CHECK-NEXT: }
// CHECK-NEXT: tb.output_saver %[[G]] omap [0, -1, -1] : !tb.tile<16x1xf16> -> tensor<64x1xf16>
func.func @epilogue_after_accumulator(%X: tensor<64x256xf16>) -> tensor<64x1xf16> {
  %R = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<64x256xf16>) -> tensor<64x1xf16> {
    %xt = tb.input_iterator %x imap [0, -1, -1] fmap 1 : tensor<64x256xf16> -> !tb.tile<16x64xf16>
    %sq = tb.unary square %xt : !tb.tile<16x64xf16>
    %rs = tb.reduce mean %sq dim 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
    %acc = tb.forloop_accum mean %rs : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %g = th.graph (%m = %acc : !tb.tile<16x1xf16>) -> !tb.tile<16x1xf16> attributes {note = "rms"} {
      %w = arith.extf %m : f16 to f32
      %eps = arith.constant 1.0e-5 : f32
      %add = arith.addf %w, %eps : f32
      %rsq = math.rsqrt %add : f32
      %t = math.tanh %rsq : f32
      %pos = arith.cmpf ogt, %rsq, %t : f32
      %sel = arith.select %pos, %rsq, %t : f32
      %n = arith.truncf %sel : f32 to f16
      th.yield %n : f16
    }
    %o = tb.output_saver %g omap [0, -1, -1] : !tb.tile<16x1xf16> -> tensor<64x1xf16>
    tb.yield %o : tensor<64x1xf16>
  }
  return %R : tensor<64x1xf16>
}

// -----

// Two thread graphs chained in bf16, the second feeding a tb op.
// CHECK-LABEL: func.func @chained_graphs
// CHECK: %[[G1:.*]] = th.graph (%[[A:.*]] = %{{.*}} : !tb.tile<8x8xbf16>) -> !tb.tile<8x8xbf16> {
// CHECK-NEXT: %[[SQ:.*]] = math.sqrt %[[A]] : bf16
// CHECK-NEXT: th.yield %[[SQ]] : bf16
// CHECK: %[[G2:.*]] = th.graph (%[[B:.*]] = %[[G1]] : !tb.tile<8x8xbf16>, %[[C:.*]] = %{{.*}} : !tb.tile<8x8xbf16>) -> !tb.tile<8x8xbf16> {
// CHECK-NEXT: %[[MX:.*]] = arith.maximumf %[[B]], %[[C]] : bf16
// CHECK-NEXT: th.yield %[[MX]] : bf16
// CHECK: tb.matmul %[[G2]], %{{.*}} : !tb.tile<8x8xbf16>, !tb.tile<8x8xbf16> -> !tb.tile<8x8xbf16>
func.func @chained_graphs(%X: tensor<8x8xbf16>) -> tensor<8x8xbf16> {
  %R = tk.fused grid [1, 1, 1] block [32, 1, 1] forloop 1 (%x = %X : tensor<8x8xbf16>) -> tensor<8x8xbf16> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1 : tensor<8x8xbf16> -> !tb.tile<8x8xbf16>
    %g1 = th.graph (%a = %xt : !tb.tile<8x8xbf16>) -> !tb.tile<8x8xbf16> {
      %sq = math.sqrt %a : bf16
      th.yield %sq : bf16
    }
    %g2 = th.graph (%b = %g1 : !tb.tile<8x8xbf16>, %c = %xt : !tb.tile<8x8xbf16>) -> !tb.tile<8x8xbf16> {
      %mx = arith.maximumf %b, %c : bf16
      th.yield %mx : bf16
    }
    %mm = tb.matmul %g2, %xt : !tb.tile<8x8xbf16>, !tb.tile<8x8xbf16> -> !tb.tile<8x8xbf16>
    %acc = tb.forloop_accum sum %mm : (!tb.tile<8x8xbf16>) -> !tb.tile<8x8xbf16>
    %o = tb.output_saver %acc omap [-1, -1, -1] : !tb.tile<8x8xbf16> -> tensor<8x8xbf16>
    tb.yield %o : tensor<8x8xbf16>
  }
  return %R : tensor<8x8xbf16>
}
