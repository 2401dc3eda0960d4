// examples/ugraph/rmsnorm_linear_b1.mlir at a small size (X 2x1024, W
// 1024x128), for the device run's interpreter check and compute-sanitizer.
func.func @rmsnorm_linear_b1(%X: tensor<2x1024xf16>, %W: tensor<1024x128xf16>) -> tensor<2x128xf16> {
  %0 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<2x1024xf16>, %w = %W : tensor<1024x128xf16>) -> tensor<2x128xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<2x1024xf16> -> !tb.tile<2x256xf16>
    %2 = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<1024x128xf16> -> !tb.tile<256x64xf16>
    %3 = tb.unary square %1 : !tb.tile<2x256xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<2x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<2x64xf16>
    %5 = tb.reduce mean %3 dim 1 : !tb.tile<2x256xf16> -> !tb.tile<2x1xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<2x64xf16>) -> !tb.tile<2x64xf16>
    %7 = tb.forloop_accum mean %5 : (!tb.tile<2x1xf16>) -> !tb.tile<2x1xf16>
    %8 = tb.unary add_scalar(1.00135803E-5) %7 : !tb.tile<2x1xf16>
    %9 = tb.unary sqrt %8 : !tb.tile<2x1xf16>
    %10 = tb.binary div %6, %9 : !tb.tile<2x64xf16>, !tb.tile<2x1xf16> -> !tb.tile<2x64xf16>
    %11 = tb.output_saver %10 omap [1, -1, -1] : !tb.tile<2x64xf16> -> tensor<2x128xf16>
    tb.yield %11 : tensor<2x128xf16>
  }
  return %0 : tensor<2x128xf16>
}
