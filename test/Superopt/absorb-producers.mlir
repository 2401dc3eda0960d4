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

// The rms_norm of K is over the keys, which the blocks split: their tiles
// are not whole rows, and it stays a kernel of its own.
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
