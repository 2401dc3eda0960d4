// examples/ugraph/qknorm_attention.mlir at a small size (Q 2x64x16, K
// 2x16x128, V 2x128x16: 32 query rows, normalized in the block, and 4
// chunks of 32 keys per block), for the device run's interpreter check and
// compute-sanitizer.
func.func @qknorm_attention(%arg0: tensor<2x64x16xf16>, %arg1: tensor<2x16x128xf16>, %arg2: tensor<2x128x16xf16>) -> tensor<2x64x16xf16> {
  %0 = tk.rms_norm %arg1 {epsilon = 1.00135803E-5 : f32} : tensor<2x16x128xf16>
  %1:3 = tk.fused grid [2, 4, 1] block [128, 1, 1] forloop 1 (%arg3 = %arg2 : tensor<2x128x16xf16>, %arg4 = %arg0 : tensor<2x64x16xf16>, %arg5 = %0 : tensor<2x16x128xf16>) -> (tensor<2x64x4xf16>, tensor<8x64x16xf16>, tensor<2x64x4xf16>) {
    %3 = tb.input_iterator %arg4 imap [1, -1, -1] fmap -1 : tensor<2x64x16xf16> -> !tb.tile<2x32x16xf16>
    %4 = tb.rms_norm %3 {epsilon = 1.00135803E-5 : f32} : !tb.tile<2x32x16xf16>
    %5 = tb.input_iterator %arg5 imap [-1, 2, -1] fmap -1 : tensor<2x16x128xf16> -> !tb.tile<2x16x32xf16>
    %6 = tb.input_iterator %arg3 imap [-1, 1, -1] fmap -1 : tensor<2x128x16xf16> -> !tb.tile<2x32x16xf16>
    %7 = tb.matmul %4, %5 : !tb.tile<2x32x16xf16>, !tb.tile<2x16x32xf16> -> !tb.tile<2x32x32xf16>
    %8 = tb.reduce max %7 dim 2 : !tb.tile<2x32x32xf16> -> !tb.tile<2x32x1xf16>
    %9 = tb.binary sub %7, %8 : !tb.tile<2x32x32xf16>, !tb.tile<2x32x1xf16> -> !tb.tile<2x32x32xf16>
    %10 = tb.forloop_accum none %8 : (!tb.tile<2x32x1xf16>) -> !tb.tile<2x32x1xf16>
    %11 = tb.unary exp %9 : !tb.tile<2x32x32xf16>
    %12 = tb.matmul %11, %6 : !tb.tile<2x32x32xf16>, !tb.tile<2x32x16xf16> -> !tb.tile<2x32x16xf16>
    %13 = tb.reduce sum %11 dim 2 : !tb.tile<2x32x32xf16> -> !tb.tile<2x32x1xf16>
    %14 = tb.forloop_accum none %12 : (!tb.tile<2x32x16xf16>) -> !tb.tile<2x32x16xf16>
    %15 = tb.forloop_accum none %13 : (!tb.tile<2x32x1xf16>) -> !tb.tile<2x32x1xf16>
    %16 = tb.output_saver %10 omap [1, 2, -1] : !tb.tile<2x32x1xf16> -> tensor<2x64x4xf16>
    %17 = tb.output_saver %14 omap [1, 0, -1] : !tb.tile<2x32x16xf16> -> tensor<8x64x16xf16>
    %18 = tb.output_saver %15 omap [1, 2, -1] : !tb.tile<2x32x1xf16> -> tensor<2x64x4xf16>
    tb.yield %16, %17, %18 : tensor<2x64x4xf16>, tensor<8x64x16xf16>, tensor<2x64x4xf16>
  }
  %2 = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 4 (%arg3 = %1#0 : tensor<2x64x4xf16>, %arg4 = %1#1 : tensor<8x64x16xf16>, %arg5 = %1#2 : tensor<2x64x4xf16>) -> tensor<2x64x16xf16> {
    %3 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 2 : tensor<2x64x4xf16> -> !tb.tile<2x1x1xf16>
    %4 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 0 : tensor<8x64x16xf16> -> !tb.tile<2x1x16xf16>
    %5 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 2 : tensor<2x64x4xf16> -> !tb.tile<2x1x1xf16>
    %6 = tb.forloop_accum sum_rescale %4, %3 : (!tb.tile<2x1x16xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x16xf16>
    %7 = tb.forloop_accum sum_rescale %5, %3 : (!tb.tile<2x1x1xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x1xf16>
    %8 = tb.binary div %6, %7 : !tb.tile<2x1x16xf16>, !tb.tile<2x1x1xf16> -> !tb.tile<2x1x16xf16>
    %9 = tb.output_saver %8 omap [1, -1, -1] : !tb.tile<2x1x16xf16> -> tensor<2x64x16xf16>
    tb.yield %9 : tensor<2x64x16xf16>
  }
  return %2 : tensor<2x64x16xf16>
}
