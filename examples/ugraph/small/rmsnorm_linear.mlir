// examples/ugraph/rmsnorm_linear.mlir (Mirage's form) at a small size (X
// 16x256, W 256x128), for the device run's interpreter check and
// compute-sanitizer.
func.func @rmsnorm_linear(%X: tensor<16x256xf16>, %W: tensor<256x128xf16>) -> tensor<16x128xf16> {
  %Y = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x256xf16>, %w = %W : tensor<256x128xf16>) -> tensor<16x128xf16> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x256xf16> -> !tb.tile<16x64xf16>
    %wt = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<256x128xf16> -> !tb.tile<64x64xf16>
    %xw = tb.matmul %xt, %wt : !tb.tile<16x64xf16>, !tb.tile<64x64xf16> -> !tb.tile<16x64xf16>
    %sq = tb.unary square %xt : !tb.tile<16x64xf16>
    %ss = tb.reduce sum %sq dim 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
    %acc = tb.forloop_accum sum %xw : (!tb.tile<16x64xf16>) -> !tb.tile<16x64xf16>
    %sum = tb.forloop_accum sum %ss : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %mean = tb.unary mul_scalar(3.906250e-03) %sum : !tb.tile<16x1xf16>
    %rms = tb.unary sqrt %mean : !tb.tile<16x1xf16>
    %y = tb.binary div %acc, %rms : !tb.tile<16x64xf16>, !tb.tile<16x1xf16> -> !tb.tile<16x64xf16>
    %out = tb.output_saver %y omap [1, -1, -1] : !tb.tile<16x64xf16> -> tensor<16x128xf16>
    tb.yield %out : tensor<16x128xf16>
  }
  return %Y : tensor<16x128xf16>
}
