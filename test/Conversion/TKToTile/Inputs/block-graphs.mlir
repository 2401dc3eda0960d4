// Block graphs that unittests/Conversion/TKToTileTest.cpp lowers and runs
// against their tile programs: the forms the superoptimizer finds, at small
// sizes (with those of examples/ugraph/small), and every accumulator kind,
// reduction form and broadcast.

// examples/ugraph/small/gated_mlp.mlir after tileopt-fuse-thread-graphs: the
// epilogue is a th.graph.
func.func @gated_mlp_thread_graph(%X: tensor<8x256xf16>, %W1: tensor<256x64xf16>, %W2: tensor<256x64xf16>) -> tensor<8x64xf16> {
  %0 = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<8x256xf16>, %w1 = %W1 : tensor<256x64xf16>, %w2 = %W2 : tensor<256x64xf16>) -> tensor<8x64xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<8x256xf16> -> !tb.tile<8x64xf16>
    %2 = tb.input_iterator %w1 imap [1, -1, -1] fmap 0 : tensor<256x64xf16> -> !tb.tile<64x16xf16>
    %3 = tb.input_iterator %w2 imap [1, -1, -1] fmap 0 : tensor<256x64xf16> -> !tb.tile<64x16xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<8x64xf16>, !tb.tile<64x16xf16> -> !tb.tile<8x16xf16>
    %5 = tb.matmul %1, %3 : !tb.tile<8x64xf16>, !tb.tile<64x16xf16> -> !tb.tile<8x16xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<8x16xf16>) -> !tb.tile<8x16xf16>
    %7 = tb.forloop_accum sum %5 : (!tb.tile<8x16xf16>) -> !tb.tile<8x16xf16>
    %8 = th.graph (%a = %6 : !tb.tile<8x16xf16>, %b = %7 : !tb.tile<8x16xf16>) -> !tb.tile<8x16xf16> {
      %n = arith.negf %a : f16
      %e = math.exp %n : f16
      %one = arith.constant 1.000000e+00 : f16
      %d = arith.addf %one, %e : f16
      %s = arith.divf %a, %d : f16
      %p = arith.mulf %b, %s : f16
      th.yield %p : f16
    }
    %9 = tb.output_saver %8 omap [1, -1, -1] : !tb.tile<8x16xf16> -> tensor<8x64xf16>
    tb.yield %9 : tensor<8x64xf16>
  }
  return %0 : tensor<8x64xf16>
}

// gqa_decode's fused kernel (examples/ugraph/gqa_decode.mlir): online
// softmax, two sum_rescale accumulators sharing the tile maximum; z splits
// the batch, so the tiles have a leading unit dim.
func.func @flash_attention(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x128xf16>, %V: tensor<2x128x16xf16>) -> tensor<2x32x16xf16> {
  %0 = tk.fused grid [2, 1, 2] block [128, 1, 1] forloop 4 (%q = %Q : tensor<2x32x16xf16>, %k = %K : tensor<2x16x128xf16>, %v = %V : tensor<2x128x16xf16>) -> tensor<2x32x16xf16> {
    %1 = tb.input_iterator %q imap [1, -1, 0] fmap -1 : tensor<2x32x16xf16> -> !tb.tile<1x16x16xf16>
    %2 = tb.input_iterator %k imap [-1, -1, 0] fmap 2 : tensor<2x16x128xf16> -> !tb.tile<1x16x32xf16>
    %3 = tb.input_iterator %v imap [-1, -1, 0] fmap 1 : tensor<2x128x16xf16> -> !tb.tile<1x32x16xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<1x16x16xf16>, !tb.tile<1x16x32xf16> -> !tb.tile<1x16x32xf16>
    %5 = tb.reduce max %4 dim 2 : !tb.tile<1x16x32xf16> -> !tb.tile<1x16x1xf16>
    %6 = tb.binary sub %4, %5 : !tb.tile<1x16x32xf16>, !tb.tile<1x16x1xf16> -> !tb.tile<1x16x32xf16>
    %7 = tb.unary exp %6 : !tb.tile<1x16x32xf16>
    %8 = tb.matmul %7, %3 : !tb.tile<1x16x32xf16>, !tb.tile<1x32x16xf16> -> !tb.tile<1x16x16xf16>
    %9 = tb.reduce sum %7 dim 2 : !tb.tile<1x16x32xf16> -> !tb.tile<1x16x1xf16>
    %10 = tb.forloop_accum sum_rescale %8, %5 : (!tb.tile<1x16x16xf16>, !tb.tile<1x16x1xf16>) -> !tb.tile<1x16x16xf16>
    %11 = tb.forloop_accum sum_rescale %9, %5 : (!tb.tile<1x16x1xf16>, !tb.tile<1x16x1xf16>) -> !tb.tile<1x16x1xf16>
    %12 = tb.binary div %10, %11 : !tb.tile<1x16x16xf16>, !tb.tile<1x16x1xf16> -> !tb.tile<1x16x16xf16>
    %13 = tb.output_saver %12 omap [1, -1, 0] : !tb.tile<1x16x16xf16> -> tensor<2x32x16xf16>
    tb.yield %13 : tensor<2x32x16xf16>
  }
  return %0 : tensor<2x32x16xf16>
}

// Attention without a loop (test/Superopt/attention.mlir's result): a batch
// of 2 in every tile, a `none` accumulator.
func.func @attention(%Q: tensor<2x64x32xf16>, %K: tensor<2x32x512xf16>, %V: tensor<2x512x32xf16>) -> tensor<2x64x32xf16> {
  %0 = tk.fused grid [4, 2, 1] block [128, 1, 1] forloop 1 (%q = %Q : tensor<2x64x32xf16>, %k = %K : tensor<2x32x512xf16>, %v = %V : tensor<2x512x32xf16>) -> tensor<2x64x32xf16> {
    %1 = tb.input_iterator %q imap [1, -1, -1] fmap -1 : tensor<2x64x32xf16> -> !tb.tile<2x16x32xf16>
    %2 = tb.input_iterator %k imap [-1, -1, -1] fmap -1 : tensor<2x32x512xf16> -> !tb.tile<2x32x512xf16>
    %3 = tb.input_iterator %v imap [-1, 2, -1] fmap -1 : tensor<2x512x32xf16> -> !tb.tile<2x512x16xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<2x16x32xf16>, !tb.tile<2x32x512xf16> -> !tb.tile<2x16x512xf16>
    %5 = tb.reduce max %4 dim 2 : !tb.tile<2x16x512xf16> -> !tb.tile<2x16x1xf16>
    %6 = tb.binary sub %4, %5 : !tb.tile<2x16x512xf16>, !tb.tile<2x16x1xf16> -> !tb.tile<2x16x512xf16>
    %7 = tb.unary exp %6 : !tb.tile<2x16x512xf16>
    %8 = tb.matmul %7, %3 : !tb.tile<2x16x512xf16>, !tb.tile<2x512x16xf16> -> !tb.tile<2x16x16xf16>
    %9 = tb.reduce sum %7 dim 2 : !tb.tile<2x16x512xf16> -> !tb.tile<2x16x1xf16>
    %10 = tb.binary div %8, %9 : !tb.tile<2x16x16xf16>, !tb.tile<2x16x1xf16> -> !tb.tile<2x16x16xf16>
    %11 = tb.forloop_accum none %10 : (!tb.tile<2x16x16xf16>) -> !tb.tile<2x16x16xf16>
    %12 = tb.output_saver %11 omap [1, 2, -1] : !tb.tile<2x16x16xf16> -> tensor<2x64x32xf16>
    tb.yield %12 : tensor<2x64x32xf16>
  }
  return %0 : tensor<2x64x32xf16>
}

// Every other accumulator and reduction form, on f32 tiles: blocks own 8
// rows of X, the loop walks its columns in 4 steps of 32.
func.func @accumulators(%X: tensor<16x128xf32>, %B: tensor<128xf32>)
    -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x128xf32>, tensor<16x4xf32>, tensor<2x32xf32>, tensor<16x32xf32>, tensor<16x128xf32>) {
  %r:7 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x128xf32>, %b = %B : tensor<128xf32>)
      -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x128xf32>, tensor<16x4xf32>, tensor<2x32xf32>, tensor<16x32xf32>, tensor<16x128xf32>) {
    %xt = tb.input_iterator %x imap [0, -1, -1] fmap 1 : tensor<16x128xf32> -> !tb.tile<8x32xf32>
    %bt = tb.input_iterator %b imap [-1, -1, -1] fmap 0 : tensor<128xf32> -> !tb.tile<32xf32>
    %max = tb.forloop_accum max %xt : (!tb.tile<8x32xf32>) -> !tb.tile<8x32xf32>
    %rms = tb.forloop_accum rms %xt : (!tb.tile<8x32xf32>) -> !tb.tile<8x32xf32>
    %e = tb.unary exp %xt : !tb.tile<8x32xf32>
    %each = tb.forloop_accum none %e : (!tb.tile<8x32xf32>) -> !tb.tile<8x32xf32>
    %groups = tb.reduce sum %xt dim 1 to 4 : !tb.tile<8x32xf32> -> !tb.tile<8x4xf32>
    %gmean = tb.forloop_accum mean %groups : (!tb.tile<8x4xf32>) -> !tb.tile<8x4xf32>
    %colmax = tb.reduce max %xt dim 0 : !tb.tile<8x32xf32> -> !tb.tile<1x32xf32>
    %colsum = tb.forloop_accum sum %colmax : (!tb.tile<1x32xf32>) -> !tb.tile<1x32xf32>
    %biased = tb.binary add %xt, %bt : !tb.tile<8x32xf32>, !tb.tile<32xf32> -> !tb.tile<8x32xf32>
    %bsum = tb.forloop_accum sum %biased : (!tb.tile<8x32xf32>) -> !tb.tile<8x32xf32>
    %normed = tb.rms_norm %xt {epsilon = 1.0e-05 : f32} : !tb.tile<8x32xf32>
    %kept = tb.forloop_accum none %normed : (!tb.tile<8x32xf32>) -> !tb.tile<8x32xf32>
    %o0 = tb.output_saver %max omap [0, -1, -1] : !tb.tile<8x32xf32> -> tensor<16x32xf32>
    %o1 = tb.output_saver %rms omap [0, -1, -1] : !tb.tile<8x32xf32> -> tensor<16x32xf32>
    %o2 = tb.output_saver %each omap [0, -1, -1] fmap 1 : !tb.tile<8x32xf32> -> tensor<16x128xf32>
    %o3 = tb.output_saver %gmean omap [0, -1, -1] : !tb.tile<8x4xf32> -> tensor<16x4xf32>
    %o4 = tb.output_saver %colsum omap [0, -1, -1] : !tb.tile<1x32xf32> -> tensor<2x32xf32>
    %o5 = tb.output_saver %bsum omap [0, -1, -1] : !tb.tile<8x32xf32> -> tensor<16x32xf32>
    %o6 = tb.output_saver %kept omap [0, -1, -1] fmap 1 : !tb.tile<8x32xf32> -> tensor<16x128xf32>
    tb.yield %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x128xf32>, tensor<16x4xf32>, tensor<2x32xf32>, tensor<16x32xf32>, tensor<16x128xf32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6 : tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x128xf32>, tensor<16x4xf32>, tensor<2x32xf32>, tensor<16x32xf32>, tensor<16x128xf32>
}

// Dims that every block takes whole are padded: X's 6 rows become 32 (a
// power of two, and M for mma.sync), zeros past the end, dropped on store.
func.func @padded_rows(%X: tensor<6x64xf16>, %W: tensor<64x32xf16>) -> tensor<6x32xf16> {
  %0 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 2 (%x = %X : tensor<6x64xf16>, %w = %W : tensor<64x32xf16>) -> tensor<6x32xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<6x64xf16> -> !tb.tile<6x32xf16>
    %2 = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<64x32xf16> -> !tb.tile<32x16xf16>
    %3 = tb.matmul %1, %2 : !tb.tile<6x32xf16>, !tb.tile<32x16xf16> -> !tb.tile<6x16xf16>
    %4 = tb.forloop_accum sum %3 : (!tb.tile<6x16xf16>) -> !tb.tile<6x16xf16>
    %5 = tb.unary exp %4 : !tb.tile<6x16xf16>
    %6 = tb.output_saver %5 omap [1, -1, -1] : !tb.tile<6x16xf16> -> tensor<6x32xf16>
    tb.yield %6 : tensor<6x32xf16>
  }
  return %0 : tensor<6x32xf16>
}

// Reducing a leading unit dim (which the tiles drop) changes nothing; a
// reduction to 4 groups along a dim other than the last.
func.func @unit_reduce(%X: tensor<2x16x32xf32>) -> tensor<2x4x32xf32> {
  %0 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 1 (%x = %X : tensor<2x16x32xf32>) -> tensor<2x4x32xf32> {
    %1 = tb.input_iterator %x imap [0, -1, -1] fmap -1 : tensor<2x16x32xf32> -> !tb.tile<1x16x32xf32>
    %2 = tb.reduce sum %1 dim 0 : !tb.tile<1x16x32xf32> -> !tb.tile<1x16x32xf32>
    %3 = tb.reduce max %2 dim 1 to 4 : !tb.tile<1x16x32xf32> -> !tb.tile<1x4x32xf32>
    %5 = tb.forloop_accum none %3 : (!tb.tile<1x4x32xf32>) -> !tb.tile<1x4x32xf32>
    %6 = tb.output_saver %5 omap [0, -1, -1] : !tb.tile<1x4x32xf32> -> tensor<2x4x32xf32>
    tb.yield %6 : tensor<2x4x32xf32>
  }
  return %0 : tensor<2x4x32xf32>
}

// Rows of 24, held whole, computed as 32 with zeros in the padding: the
// rms_norm and the mean divide by 24, the sum of silu and the product's K
// (both operands loaded or normalized, zero there) add nothing from it.
func.func @padded_reductions(%X: tensor<7x24xf16>, %W: tensor<24x48xf16>) -> (tensor<7x48xf16>, tensor<7x1xf16>, tensor<7x1xf16>) {
  %0:3 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%x = %X : tensor<7x24xf16>, %w = %W : tensor<24x48xf16>) -> (tensor<7x48xf16>, tensor<7x1xf16>, tensor<7x1xf16>) {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap -1 : tensor<7x24xf16> -> !tb.tile<7x24xf16>
    %2 = tb.input_iterator %w imap [-1, -1, -1] fmap -1 : tensor<24x48xf16> -> !tb.tile<24x48xf16>
    %3 = tb.rms_norm %1 {epsilon = 1.0e-05 : f32} : !tb.tile<7x24xf16>
    %4 = tb.matmul %3, %2 : !tb.tile<7x24xf16>, !tb.tile<24x48xf16> -> !tb.tile<7x48xf16>
    %5 = tb.reduce mean %1 dim 1 : !tb.tile<7x24xf16> -> !tb.tile<7x1xf16>
    %6 = tb.unary silu %3 : !tb.tile<7x24xf16>
    %7 = tb.binary mul %6, %5 : !tb.tile<7x24xf16>, !tb.tile<7x1xf16> -> !tb.tile<7x24xf16>
    %8 = tb.reduce sum %7 dim 1 : !tb.tile<7x24xf16> -> !tb.tile<7x1xf16>
    %9 = tb.forloop_accum none %4 : (!tb.tile<7x48xf16>) -> !tb.tile<7x48xf16>
    %10 = tb.forloop_accum none %5 : (!tb.tile<7x1xf16>) -> !tb.tile<7x1xf16>
    %11 = tb.forloop_accum none %8 : (!tb.tile<7x1xf16>) -> !tb.tile<7x1xf16>
    %12 = tb.output_saver %9 omap [-1, -1, -1] : !tb.tile<7x48xf16> -> tensor<7x48xf16>
    %13 = tb.output_saver %10 omap [-1, -1, -1] : !tb.tile<7x1xf16> -> tensor<7x1xf16>
    %14 = tb.output_saver %11 omap [-1, -1, -1] : !tb.tile<7x1xf16> -> tensor<7x1xf16>
    tb.yield %12, %13, %14 : tensor<7x48xf16>, tensor<7x1xf16>, tensor<7x1xf16>
  }
  return %0#0, %0#1, %0#2 : tensor<7x48xf16>, tensor<7x1xf16>, tensor<7x1xf16>
}

// The rms_norm of 7 rows, padded to 8, summed down the rows: a padded row of
// zeros normalizes to 0 / sqrt(epsilon), zero (errors.mlir: refused
// without an epsilon).
func.func @column_sum_of_rms_norm(%X: tensor<7x64xf32>) -> tensor<1x64xf32> {
  %0 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%x = %X : tensor<7x64xf32>) -> tensor<1x64xf32> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap -1 : tensor<7x64xf32> -> !tb.tile<7x64xf32>
    %2 = tb.rms_norm %1 {epsilon = 1.0e-05 : f32} : !tb.tile<7x64xf32>
    %3 = tb.reduce sum %2 dim 0 : !tb.tile<7x64xf32> -> !tb.tile<1x64xf32>
    %4 = tb.forloop_accum none %3 : (!tb.tile<1x64xf32>) -> !tb.tile<1x64xf32>
    %5 = tb.output_saver %4 omap [-1, -1, -1] : !tb.tile<1x64xf32> -> tensor<1x64xf32>
    tb.yield %5 : tensor<1x64xf32>
  }
  return %0 : tensor<1x64xf32>
}
