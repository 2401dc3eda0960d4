// examples/ugraph/rmsnorm_linear_7x1536.mlir at a small size (X 7x96, W
// 96x64: 2 blocks of 32 columns, 3 steps of 32), for the device run's
// interpreter check and compute-sanitizer.
func.func @rmsnorm_linear_7x1536(%arg0: tensor<7x96xf16>, %arg1: tensor<96x64xf16>) -> tensor<7x64xf16> {
  %0 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 3 (%arg2 = %arg0 : tensor<7x96xf16>, %arg3 = %arg1 : tensor<96x64xf16>) -> tensor<7x64xf16> {
    %1 = tb.input_iterator %arg2 imap [-1, -1, -1] fmap 1 : tensor<7x96xf16> -> !tb.tile<7x32xf16>
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 0 : tensor<96x64xf16> -> !tb.tile<32x32xf16>
    %3 = tb.unary square %1 : !tb.tile<7x32xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<7x32xf16>, !tb.tile<32x32xf16> -> !tb.tile<7x32xf16>
    %5 = tb.reduce mean %3 dim 1 : !tb.tile<7x32xf16> -> !tb.tile<7x1xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<7x32xf16>) -> !tb.tile<7x32xf16>
    %7 = tb.forloop_accum mean %5 : (!tb.tile<7x1xf16>) -> !tb.tile<7x1xf16>
    %8 = tb.unary add_scalar(1.00135803E-5) %7 : !tb.tile<7x1xf16>
    %9 = tb.unary sqrt %8 : !tb.tile<7x1xf16>
    %10 = tb.binary div %6, %9 : !tb.tile<7x32xf16>, !tb.tile<7x1xf16> -> !tb.tile<7x32xf16>
    %11 = tb.output_saver %10 omap [1, -1, -1] : !tb.tile<7x32xf16> -> tensor<7x64xf16>
    tb.yield %11 : tensor<7x64xf16>
  }
  return %0 : tensor<7x64xf16>
}
