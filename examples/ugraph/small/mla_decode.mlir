// mla_decode's µGraph (examples/ugraph/mla_decode.mlir) in small, for the
// interpreter check and the sanitizers: 16 heads of 32 dims over a latent
// cache of 1024 x 128. A search of the example's linalg at those shapes
// (graph-budget=16000000) found these kernels. The projections are
// graph-defined kernels of a block per head and column tile, as in the
// full-size choice. The kernels: two transposes, the heads' query projections,
// split-KV over 32 chunks of 32 keys plus the combine, and the output
// projections. Its reference inputs are scaled to
// (0, 0.25]: from (0, 1] the scores reach about 500, and the f16 rounding of
// Q Wk^T between kernels, which the float64 reference does not share, moves
// exp() by tens of percent.
// interp-reference: --scale 0.25
func.func @mla_decode(%arg0: tensor<16x1x32xf16>, %arg1: tensor<1024x128xf16>, %arg2: tensor<16x128x32xf16>, %arg3: tensor<16x128x32xf16>) -> tensor<16x1x32xf16> {
  %0 = tk.transpose %arg2 [0, 2, 1] : tensor<16x128x32xf16> -> tensor<16x32x128xf16>
  %1 = tk.transpose %arg1 [1, 0] : tensor<1024x128xf16> -> tensor<128x1024xf16>
  %2 = tk.fused grid [16, 2, 1] block [128, 1, 1] forloop 1 (%arg4 = %arg0 : tensor<16x1x32xf16>, %arg5 = %0 : tensor<16x32x128xf16>) -> tensor<16x1x128xf16> {
    %8 = tb.input_iterator %arg4 imap [0, -1, -1] fmap -1 : tensor<16x1x32xf16> -> !tb.tile<1x1x32xf16>
    %9 = tb.input_iterator %arg5 imap [0, 2, -1] fmap -1 : tensor<16x32x128xf16> -> !tb.tile<1x32x64xf16>
    %10 = tb.matmul %8, %9 : !tb.tile<1x1x32xf16>, !tb.tile<1x32x64xf16> -> !tb.tile<1x1x64xf16>
    %11 = tb.forloop_accum none %10 : (!tb.tile<1x1x64xf16>) -> !tb.tile<1x1x64xf16>
    %12 = tb.output_saver %11 omap [0, 2, -1] : !tb.tile<1x1x64xf16> -> tensor<16x1x128xf16>
    tb.yield %12 : tensor<16x1x128xf16>
  }
  %3 = tk.reshape %2 : tensor<16x1x128xf16> -> tensor<16x128xf16>
  %4:3 = tk.fused grid [32, 1, 1] block [128, 1, 1] forloop 1 (%arg4 = %arg1 : tensor<1024x128xf16>, %arg5 = %3 : tensor<16x128xf16>, %arg6 = %1 : tensor<128x1024xf16>) -> (tensor<16x32xf16>, tensor<512x128xf16>, tensor<16x32xf16>) {
    %8 = tb.input_iterator %arg4 imap [0, -1, -1] fmap -1 : tensor<1024x128xf16> -> !tb.tile<32x128xf16>
    %9 = tb.input_iterator %arg5 imap [-1, -1, -1] fmap -1 : tensor<16x128xf16> -> !tb.tile<16x128xf16>
    %10 = tb.input_iterator %arg6 imap [1, -1, -1] fmap -1 : tensor<128x1024xf16> -> !tb.tile<128x32xf16>
    %11 = tb.matmul %9, %10 : !tb.tile<16x128xf16>, !tb.tile<128x32xf16> -> !tb.tile<16x32xf16>
    %12 = tb.reduce max %11 dim 1 : !tb.tile<16x32xf16> -> !tb.tile<16x1xf16>
    %13 = tb.binary sub %11, %12 : !tb.tile<16x32xf16>, !tb.tile<16x1xf16> -> !tb.tile<16x32xf16>
    %14 = tb.forloop_accum none %12 : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %15 = tb.unary exp %13 : !tb.tile<16x32xf16>
    %16 = tb.matmul %15, %8 : !tb.tile<16x32xf16>, !tb.tile<32x128xf16> -> !tb.tile<16x128xf16>
    %17 = tb.reduce sum %15 dim 1 : !tb.tile<16x32xf16> -> !tb.tile<16x1xf16>
    %18 = tb.forloop_accum none %16 : (!tb.tile<16x128xf16>) -> !tb.tile<16x128xf16>
    %19 = tb.forloop_accum none %17 : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %20 = tb.output_saver %14 omap [1, -1, -1] : !tb.tile<16x1xf16> -> tensor<16x32xf16>
    %21 = tb.output_saver %18 omap [0, -1, -1] : !tb.tile<16x128xf16> -> tensor<512x128xf16>
    %22 = tb.output_saver %19 omap [1, -1, -1] : !tb.tile<16x1xf16> -> tensor<16x32xf16>
    tb.yield %20, %21, %22 : tensor<16x32xf16>, tensor<512x128xf16>, tensor<16x32xf16>
  }
  %5 = tk.fused grid [8, 1, 1] block [128, 1, 1] forloop 32 (%arg4 = %4#0 : tensor<16x32xf16>, %arg5 = %4#1 : tensor<512x128xf16>, %arg6 = %4#2 : tensor<16x32xf16>) -> tensor<16x128xf16> {
    %8 = tb.input_iterator %arg4 imap [-1, -1, -1] fmap 1 : tensor<16x32xf16> -> !tb.tile<16x1xf16>
    %9 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 0 : tensor<512x128xf16> -> !tb.tile<16x16xf16>
    %10 = tb.input_iterator %arg6 imap [-1, -1, -1] fmap 1 : tensor<16x32xf16> -> !tb.tile<16x1xf16>
    %11 = tb.forloop_accum sum_rescale %9, %8 : (!tb.tile<16x16xf16>, !tb.tile<16x1xf16>) -> !tb.tile<16x16xf16>
    %12 = tb.forloop_accum sum_rescale %10, %8 : (!tb.tile<16x1xf16>, !tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %13 = tb.binary div %11, %12 : !tb.tile<16x16xf16>, !tb.tile<16x1xf16> -> !tb.tile<16x16xf16>
    %14 = tb.output_saver %13 omap [1, -1, -1] : !tb.tile<16x16xf16> -> tensor<16x128xf16>
    tb.yield %14 : tensor<16x128xf16>
  }
  %6 = tk.reshape %5 : tensor<16x128xf16> -> tensor<16x1x128xf16>
  %7 = tk.fused grid [16, 2, 1] block [128, 1, 1] forloop 1 (%arg4 = %arg3 : tensor<16x128x32xf16>, %arg5 = %6 : tensor<16x1x128xf16>) -> tensor<16x1x32xf16> {
    %8 = tb.input_iterator %arg4 imap [0, 2, -1] fmap -1 : tensor<16x128x32xf16> -> !tb.tile<1x128x16xf16>
    %9 = tb.input_iterator %arg5 imap [0, -1, -1] fmap -1 : tensor<16x1x128xf16> -> !tb.tile<1x1x128xf16>
    %10 = tb.matmul %9, %8 : !tb.tile<1x1x128xf16>, !tb.tile<1x128x16xf16> -> !tb.tile<1x1x16xf16>
    %11 = tb.forloop_accum none %10 : (!tb.tile<1x1x16xf16>) -> !tb.tile<1x1x16xf16>
    %12 = tb.output_saver %11 omap [0, 2, -1] : !tb.tile<1x1x16xf16> -> tensor<16x1x32xf16>
    tb.yield %12 : tensor<16x1x32xf16>
  }
  return %7 : tensor<16x1x32xf16>
}
