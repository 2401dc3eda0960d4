// rms_norm(X) @ W for X: 16x4096, W: 4096x6144 (BENCHMARKS.md, b = 8) as the
// single fused kernel Mirage finds: each of 48 blocks owns 128 columns of the
// output and walks the hidden dim in 64 steps of 64. Because rms_norm scales
// whole rows, it commutes with the matmul: the block accumulates X_i @ W_i and
// the row sums of X_i^2 side by side, and divides once after the loop.
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
