// RUN: tileopt-opt %s -split-input-file --tileopt-absorb-producers | FileCheck %s

// qknorm_attention's rms_norm of Q, read by split-KV blocks in whole rows
// of the head dim: each block normalizes its own tile, and the kernel reads
// Q itself.
// CHECK-LABEL: func.func @rms_norm_whole_rows
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x256x64xf16>, %[[K:.*]]: tensor<2x64x4096xf16>)
// CHECK-NOT:     tk.rms_norm
// CHECK:         tk.fused {{.*}}(%[[QA:.*]] = %[[Q]] : tensor<2x256x64xf16>, %[[KA:.*]] = %[[K]] : tensor<2x64x4096xf16>)
// CHECK-NEXT:      %[[QT:.*]] = tb.input_iterator %[[QA]] imap [1, -1, -1] fmap -1 : tensor<2x256x64xf16> -> !tb.tile<2x64x64xf16>
// CHECK-NEXT:      %[[QN:.*]] = tb.rms_norm %[[QT]] {epsilon = 9.99999974E-6 : f32} : !tb.tile<2x64x64xf16>
// CHECK-NEXT:      %[[KT:.*]] = tb.input_iterator %[[KA]]
// CHECK-NEXT:      tb.matmul %[[QN]], %[[KT]]
func.func @rms_norm_whole_rows(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>) -> tensor<2x256x4096xf16> {
  %qn = tk.rms_norm %q {epsilon = 1.0e-5 : f32} : tensor<2x256x64xf16>
  %s = tk.fused grid [4, 32, 1] block [128, 1, 1] forloop 1 (%a = %qn : tensor<2x256x64xf16>, %b = %k : tensor<2x64x4096xf16>) -> tensor<2x256x4096xf16> {
    %qt = tb.input_iterator %a imap [1, -1, -1] fmap -1 : tensor<2x256x64xf16> -> !tb.tile<2x64x64xf16>
    %kt = tb.input_iterator %b imap [-1, 2, -1] fmap -1 : tensor<2x64x4096xf16> -> !tb.tile<2x64x128xf16>
    %st = tb.matmul %qt, %kt : !tb.tile<2x64x64xf16>, !tb.tile<2x64x128xf16> -> !tb.tile<2x64x128xf16>
    %acc = tb.forloop_accum none %st : (!tb.tile<2x64x128xf16>) -> !tb.tile<2x64x128xf16>
    %out = tb.output_saver %acc omap [1, 2, -1] : !tb.tile<2x64x128xf16> -> tensor<2x256x4096xf16>
    tb.yield %out : tensor<2x256x4096xf16>
  }
  return %s : tensor<2x256x4096xf16>
}

// -----

// An rms_norm over the keys (the last dim of K^T), which the blocks split:
// their tiles are not whole rows, and it stays a kernel of its own.
// CHECK-LABEL: func.func @rms_norm_split_rows
// CHECK:         %[[KN:.*]] = tk.rms_norm %arg1
// CHECK:         tk.fused {{.*}} = %[[KN]] : tensor<2x64x4096xf16>)
// CHECK-NOT:     tb.rms_norm
func.func @rms_norm_split_rows(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>) -> tensor<2x256x4096xf16> {
  %kn = tk.rms_norm %k {epsilon = 1.0e-5 : f32} : tensor<2x64x4096xf16>
  %s = tk.fused grid [4, 32, 1] block [128, 1, 1] forloop 1 (%a = %q : tensor<2x256x64xf16>, %b = %kn : tensor<2x64x4096xf16>) -> tensor<2x256x4096xf16> {
    %qt = tb.input_iterator %a imap [1, -1, -1] fmap -1 : tensor<2x256x64xf16> -> !tb.tile<2x64x64xf16>
    %kt = tb.input_iterator %b imap [-1, 2, -1] fmap -1 : tensor<2x64x4096xf16> -> !tb.tile<2x64x128xf16>
    %st = tb.matmul %qt, %kt : !tb.tile<2x64x64xf16>, !tb.tile<2x64x128xf16> -> !tb.tile<2x64x128xf16>
    %acc = tb.forloop_accum none %st : (!tb.tile<2x64x128xf16>) -> !tb.tile<2x64x128xf16>
    %out = tb.output_saver %acc omap [1, 2, -1] : !tb.tile<2x64x128xf16> -> tensor<2x256x4096xf16>
    tb.yield %out : tensor<2x256x4096xf16>
  }
  return %s : tensor<2x256x4096xf16>
}

// -----

// A loop that walks the normalized dim: each step's tile is a chunk of the
// rows, so the rms_norm stays.
// CHECK-LABEL: func.func @rms_norm_walked_rows
// CHECK:         tk.rms_norm
// CHECK-NOT:     tb.rms_norm
func.func @rms_norm_walked_rows(%x: tensor<16x256xf16>, %w: tensor<256x32xf16>) -> tensor<16x32xf16> {
  %xn = tk.rms_norm %x {epsilon = 1.0e-5 : f32} : tensor<16x256xf16>
  %y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%a = %xn : tensor<16x256xf16>, %b = %w : tensor<256x32xf16>) -> tensor<16x32xf16> {
    %xt = tb.input_iterator %a imap [-1, -1, -1] fmap 1 : tensor<16x256xf16> -> !tb.tile<16x64xf16>
    %wt = tb.input_iterator %b imap [-1, -1, -1] fmap 0 : tensor<256x32xf16> -> !tb.tile<64x32xf16>
    %m = tb.matmul %xt, %wt : !tb.tile<16x64xf16>, !tb.tile<64x32xf16> -> !tb.tile<16x32xf16>
    %acc = tb.forloop_accum sum %m : (!tb.tile<16x32xf16>) -> !tb.tile<16x32xf16>
    %out = tb.output_saver %acc omap [-1, -1, -1] : !tb.tile<16x32xf16> -> tensor<16x32xf16>
    tb.yield %out : tensor<16x32xf16>
  }
  return %y : tensor<16x32xf16>
}

// -----

// An elementwise producer moves into every kernel that reads it, on any
// tile (here the walked tiles of a loop); a chain moves whole, in order. A
// producer the function also returns stays.
// CHECK-LABEL: func.func @unary_chain_two_kernels
// CHECK-SAME:    (%[[X:.*]]: tensor<16x256xf16>, %[[W:.*]]: tensor<256x32xf16>)
// CHECK:         %[[R:.*]] = tk.unary exp %[[W]]
// CHECK-NOT:     tk.unary
// CHECK:         tk.fused {{.*}}(%{{.*}} = %[[X]] : tensor<16x256xf16>, %{{.*}} = %[[R]] : tensor<256x32xf16>)
// CHECK-NEXT:      %[[XT:.*]] = tb.input_iterator %{{.*}} fmap 1 : tensor<16x256xf16> -> !tb.tile<16x64xf16>
// CHECK-NEXT:      %[[S:.*]] = tb.unary mul_scalar(5.000000e-01) %[[XT]]
// CHECK-NEXT:      %[[E:.*]] = tb.unary exp %[[S]]
// CHECK-NEXT:      tb.input_iterator
// CHECK-NEXT:      tb.matmul %[[E]],
// CHECK:         tk.fused {{.*}}(%{{.*}} = %[[X]] : tensor<16x256xf16>, %{{.*}} = %[[R]] : tensor<256x32xf16>)
// CHECK:           tb.unary mul_scalar(5.000000e-01)
// CHECK-NEXT:      tb.unary exp
// CHECK:         return %{{.*}}, %{{.*}}, %[[R]]
func.func @unary_chain_two_kernels(%x: tensor<16x256xf16>, %w: tensor<256x32xf16>) -> (tensor<16x32xf16>, tensor<16x32xf16>, tensor<256x32xf16>) {
  %xs = tk.unary mul_scalar %x {scalar = 0.5 : f32} : tensor<16x256xf16>
  %xe = tk.unary exp %xs : tensor<16x256xf16>
  %we = tk.unary exp %w : tensor<256x32xf16>
  %y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%a = %xe : tensor<16x256xf16>, %b = %we : tensor<256x32xf16>) -> tensor<16x32xf16> {
    %xt = tb.input_iterator %a imap [-1, -1, -1] fmap 1 : tensor<16x256xf16> -> !tb.tile<16x64xf16>
    %wt = tb.input_iterator %b imap [-1, -1, -1] fmap 0 : tensor<256x32xf16> -> !tb.tile<64x32xf16>
    %m = tb.matmul %xt, %wt : !tb.tile<16x64xf16>, !tb.tile<64x32xf16> -> !tb.tile<16x32xf16>
    %acc = tb.forloop_accum sum %m : (!tb.tile<16x32xf16>) -> !tb.tile<16x32xf16>
    %out = tb.output_saver %acc omap [-1, -1, -1] : !tb.tile<16x32xf16> -> tensor<16x32xf16>
    tb.yield %out : tensor<16x32xf16>
  }
  %z = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%a = %xe : tensor<16x256xf16>, %b = %we : tensor<256x32xf16>) -> tensor<16x32xf16> {
    %xt = tb.input_iterator %a imap [-1, -1, -1] fmap 1 : tensor<16x256xf16> -> !tb.tile<16x64xf16>
    %wt = tb.input_iterator %b imap [-1, -1, -1] fmap 0 : tensor<256x32xf16> -> !tb.tile<64x32xf16>
    %m = tb.matmul %xt, %wt : !tb.tile<16x64xf16>, !tb.tile<64x32xf16> -> !tb.tile<16x32xf16>
    %acc = tb.forloop_accum sum %m : (!tb.tile<16x32xf16>) -> !tb.tile<16x32xf16>
    %out = tb.output_saver %acc omap [-1, -1, -1] : !tb.tile<16x32xf16> -> tensor<16x32xf16>
    tb.yield %out : tensor<16x32xf16>
  }
  return %y, %z, %we : tensor<16x32xf16>, tensor<16x32xf16>, tensor<256x32xf16>
}

// -----

// A producer that a predefined kernel also reads stays.
// CHECK-LABEL: func.func @read_by_a_predefined_kernel
// CHECK:         %[[E:.*]] = tk.unary exp %arg0
// CHECK:         tk.fused {{.*}} = %[[E]]
// CHECK-NOT:     tb.unary
// CHECK:         tk.matmul %[[E]]
func.func @read_by_a_predefined_kernel(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>) -> (tensor<16x32xf16>, tensor<16x32xf16>) {
  %xe = tk.unary exp %x : tensor<16x64xf16>
  %y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%a = %xe : tensor<16x64xf16>, %b = %w : tensor<64x32xf16>) -> tensor<16x32xf16> {
    %xt = tb.input_iterator %a imap [-1, -1, -1] fmap -1 : tensor<16x64xf16> -> !tb.tile<16x64xf16>
    %wt = tb.input_iterator %b imap [-1, -1, -1] fmap -1 : tensor<64x32xf16> -> !tb.tile<64x32xf16>
    %m = tb.matmul %xt, %wt : !tb.tile<16x64xf16>, !tb.tile<64x32xf16> -> !tb.tile<16x32xf16>
    %acc = tb.forloop_accum none %m : (!tb.tile<16x32xf16>) -> !tb.tile<16x32xf16>
    %out = tb.output_saver %acc omap [-1, -1, -1] : !tb.tile<16x32xf16> -> tensor<16x32xf16>
    tb.yield %out : tensor<16x32xf16>
  }
  %z = tk.matmul %xe, %w : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  return %y, %z : tensor<16x32xf16>, tensor<16x32xf16>
}

// -----

// QK-norm's K, stored as K^T and normalized over its dim 1 (the head dim of
// each key), as the importer writes it: transposes around an rms_norm. The
// split-KV blocks read all 64 head-dim rows of their 128 keys, so each
// normalizes its tile's columns, and the kernel reads K itself.
// CHECK-LABEL: func.func @rms_norm_over_dim
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x256x64xf16>, %[[K:.*]]: tensor<2x64x4096xf16>)
// CHECK-NOT:     tk.transpose
// CHECK-NOT:     tk.rms_norm
// CHECK:         tk.fused {{.*}}(%[[QA:.*]] = %[[Q]] : tensor<2x256x64xf16>, %[[KA:.*]] = %[[K]] : tensor<2x64x4096xf16>)
// CHECK-NEXT:      %[[QT:.*]] = tb.input_iterator %[[QA]]
// CHECK-NEXT:      %[[KT:.*]] = tb.input_iterator %[[KA]] imap [-1, 2, -1] fmap -1 : tensor<2x64x4096xf16> -> !tb.tile<2x64x128xf16>
// CHECK-NEXT:      %[[SQ:.*]] = tb.unary square %[[KT]] : !tb.tile<2x64x128xf16>
// CHECK-NEXT:      %[[MS:.*]] = tb.reduce mean %[[SQ]] dim 1 : !tb.tile<2x64x128xf16> -> !tb.tile<2x1x128xf16>
// CHECK-NEXT:      %[[PE:.*]] = tb.unary add_scalar(9.99999974E-6) %[[MS]] : !tb.tile<2x1x128xf16>
// CHECK-NEXT:      %[[R:.*]] = tb.unary rsqrt %[[PE]] : !tb.tile<2x1x128xf16>
// CHECK-NEXT:      %[[KN:.*]] = tb.binary mul %[[KT]], %[[R]] : !tb.tile<2x64x128xf16>, !tb.tile<2x1x128xf16> -> !tb.tile<2x64x128xf16>
// CHECK-NEXT:      tb.matmul %[[QT]], %[[KN]]
// CHECK:         return
func.func @rms_norm_over_dim(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>) -> tensor<2x256x4096xf16> {
  %kt = tk.transpose %k [0, 2, 1] : tensor<2x64x4096xf16> -> tensor<2x4096x64xf16>
  %ktn = tk.rms_norm %kt {epsilon = 1.0e-5 : f32} : tensor<2x4096x64xf16>
  %kn = tk.transpose %ktn [0, 2, 1] : tensor<2x4096x64xf16> -> tensor<2x64x4096xf16>
  %s = tk.fused grid [4, 32, 1] block [128, 1, 1] forloop 1 (%a = %q : tensor<2x256x64xf16>, %b = %kn : tensor<2x64x4096xf16>) -> tensor<2x256x4096xf16> {
    %qt = tb.input_iterator %a imap [1, -1, -1] fmap -1 : tensor<2x256x64xf16> -> !tb.tile<2x64x64xf16>
    %kt2 = tb.input_iterator %b imap [-1, 2, -1] fmap -1 : tensor<2x64x4096xf16> -> !tb.tile<2x64x128xf16>
    %st = tb.matmul %qt, %kt2 : !tb.tile<2x64x64xf16>, !tb.tile<2x64x128xf16> -> !tb.tile<2x64x128xf16>
    %acc = tb.forloop_accum none %st : (!tb.tile<2x64x128xf16>) -> !tb.tile<2x64x128xf16>
    %out = tb.output_saver %acc omap [1, 2, -1] : !tb.tile<2x64x128xf16> -> tensor<2x256x4096xf16>
    tb.yield %out : tensor<2x256x4096xf16>
  }
  return %s : tensor<2x256x4096xf16>
}

// -----

// The same in a loop that walks the keys (each step's tile holds the head
// dim whole), with no epsilon; the transpose before the rms_norm stays
// while something else reads it.
// CHECK-LABEL: func.func @rms_norm_over_dim_walked_keys
// CHECK:         %[[KT:.*]] = tk.transpose %arg1 [0, 2, 1]
// CHECK-NOT:     tk.rms_norm
// CHECK:         tk.fused {{.*}} = %arg1 : tensor<2x64x4096xf16>)
// CHECK:           %[[T:.*]] = tb.input_iterator {{.*}} fmap 2 : tensor<2x64x4096xf16> -> !tb.tile<2x64x64xf16>
// CHECK-NEXT:      %[[SQ:.*]] = tb.unary square %[[T]]
// CHECK-NEXT:      %[[MS:.*]] = tb.reduce mean %[[SQ]] dim 1
// CHECK-NEXT:      %[[R:.*]] = tb.unary rsqrt %[[MS]]
// CHECK-NEXT:      tb.binary mul %[[T]], %[[R]]
// CHECK:         return %{{.*}}, %[[KT]]
func.func @rms_norm_over_dim_walked_keys(%q: tensor<2x16x64xf16>, %k: tensor<2x64x4096xf16>) -> (tensor<2x16x4096xf16>, tensor<2x4096x64xf16>) {
  %kt = tk.transpose %k [0, 2, 1] : tensor<2x64x4096xf16> -> tensor<2x4096x64xf16>
  %ktn = tk.rms_norm %kt : tensor<2x4096x64xf16>
  %kn = tk.transpose %ktn [0, 2, 1] : tensor<2x4096x64xf16> -> tensor<2x64x4096xf16>
  %s = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 64 (%a = %q : tensor<2x16x64xf16>, %b = %kn : tensor<2x64x4096xf16>) -> tensor<2x16x4096xf16> {
    %qt = tb.input_iterator %a imap [-1, -1, -1] fmap -1 : tensor<2x16x64xf16> -> !tb.tile<2x16x64xf16>
    %kt2 = tb.input_iterator %b imap [-1, -1, -1] fmap 2 : tensor<2x64x4096xf16> -> !tb.tile<2x64x64xf16>
    %st = tb.matmul %qt, %kt2 : !tb.tile<2x16x64xf16>, !tb.tile<2x64x64xf16> -> !tb.tile<2x16x64xf16>
    %acc = tb.forloop_accum none %st : (!tb.tile<2x16x64xf16>) -> !tb.tile<2x16x64xf16>
    %out = tb.output_saver %acc omap [-1, -1, -1] fmap 2 : !tb.tile<2x16x64xf16> -> tensor<2x16x4096xf16>
    tb.yield %out : tensor<2x16x4096xf16>
  }
  return %s, %kt : tensor<2x16x4096xf16>, tensor<2x4096x64xf16>
}

// -----

// Blocks that split the normalized dim (32 of the 64 head-dim rows each,
// in a split-K product) hold no whole column: the norm stays.
// CHECK-LABEL: func.func @rms_norm_over_split_dim
// CHECK:         tk.transpose
// CHECK:         tk.rms_norm
// CHECK:         tk.transpose
// CHECK-NOT:     tb.unary square
func.func @rms_norm_over_split_dim(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>) -> tensor<4x256x4096xf16> {
  %kt = tk.transpose %k [0, 2, 1] : tensor<2x64x4096xf16> -> tensor<2x4096x64xf16>
  %ktn = tk.rms_norm %kt {epsilon = 1.0e-5 : f32} : tensor<2x4096x64xf16>
  %kn = tk.transpose %ktn [0, 2, 1] : tensor<2x4096x64xf16> -> tensor<2x64x4096xf16>
  %s = tk.fused grid [32, 2, 1] block [128, 1, 1] forloop 1 (%a = %q : tensor<2x256x64xf16>, %b = %kn : tensor<2x64x4096xf16>) -> tensor<4x256x4096xf16> {
    %qt = tb.input_iterator %a imap [-1, 2, -1] fmap -1 : tensor<2x256x64xf16> -> !tb.tile<2x256x32xf16>
    %kt2 = tb.input_iterator %b imap [2, 1, -1] fmap -1 : tensor<2x64x4096xf16> -> !tb.tile<2x32x128xf16>
    %st = tb.matmul %qt, %kt2 : !tb.tile<2x256x32xf16>, !tb.tile<2x32x128xf16> -> !tb.tile<2x256x128xf16>
    %acc = tb.forloop_accum none %st : (!tb.tile<2x256x128xf16>) -> !tb.tile<2x256x128xf16>
    %out = tb.output_saver %acc omap [2, 0, -1] : !tb.tile<2x256x128xf16> -> tensor<4x256x4096xf16>
    tb.yield %out : tensor<4x256x4096xf16>
  }
  return %s : tensor<4x256x4096xf16>
}

// -----

// Transposes that do not undo each other: not a norm over a dim of K.
// CHECK-LABEL: func.func @rms_norm_transposes_not_inverse
// CHECK:         tk.rms_norm
// CHECK:         tk.transpose
// CHECK-NOT:     tb.unary square
func.func @rms_norm_transposes_not_inverse(%x: tensor<4x8x16xf16>, %w: tensor<16x32xf16>) -> tensor<4x16x32xf16> {
  %xt = tk.transpose %x [2, 0, 1] : tensor<4x8x16xf16> -> tensor<16x4x8xf16>
  %n = tk.rms_norm %xt : tensor<16x4x8xf16>
  %y = tk.transpose %n [1, 0, 2] : tensor<16x4x8xf16> -> tensor<4x16x8xf16>
  %s = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%a = %y : tensor<4x16x8xf16>, %b = %w : tensor<16x32xf16>) -> tensor<4x16x32xf16> {
    %yt = tb.input_iterator %a imap [-1, -1, -1] fmap -1 : tensor<4x16x8xf16> -> !tb.tile<4x16x8xf16>
    %u = tb.unary exp %yt : !tb.tile<4x16x8xf16>
    %r = tb.reduce sum %u dim 2 : !tb.tile<4x16x8xf16> -> !tb.tile<4x16x1xf16>
    %acc = tb.forloop_accum none %r : (!tb.tile<4x16x1xf16>) -> !tb.tile<4x16x1xf16>
    %wt = tb.input_iterator %b imap [-1, -1, -1] fmap -1 : tensor<16x32xf16> -> !tb.tile<16x32xf16>
    %m = tb.binary mul %acc, %wt : !tb.tile<4x16x1xf16>, !tb.tile<16x32xf16> -> !tb.tile<4x16x32xf16>
    %out = tb.output_saver %m omap [-1, -1, -1] : !tb.tile<4x16x32xf16> -> tensor<4x16x32xf16>
    tb.yield %out : tensor<4x16x32xf16>
  }
  return %s : tensor<4x16x32xf16>
}
