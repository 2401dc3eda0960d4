// examples/ugraph/qknorm_attention.mlir at a small size (Q 2x64x16, K
// 2x16x128, V 2x128x16: 32 query rows, normalized in the block, 32 key
// columns of all 16 head-dim rows, normalized in the block, and 4 chunks of
// 32 keys), for the device run's interpreter check and compute-sanitizer.
func.func @qknorm_attention(%arg0: tensor<2x64x16xf16>, %arg1: tensor<2x16x128xf16>, %arg2: tensor<2x128x16xf16>) -> tensor<2x64x16xf16> {
  %0:3 = tk.fused grid [2, 4, 1] block [128, 1, 1] forloop 1 (%arg3 = %arg2 : tensor<2x128x16xf16>, %arg4 = %arg0 : tensor<2x64x16xf16>, %arg5 = %arg1 : tensor<2x16x128xf16>) -> (tensor<2x64x4xf16>, tensor<8x64x16xf16>, tensor<2x64x4xf16>) {
    %2 = tb.input_iterator %arg4 imap [1, -1, -1] fmap -1 : tensor<2x64x16xf16> -> !tb.tile<2x32x16xf16>
    %3 = tb.rms_norm %2 {epsilon = 1.00135803E-5 : f32} : !tb.tile<2x32x16xf16>
    %4 = tb.input_iterator %arg5 imap [-1, 2, -1] fmap -1 : tensor<2x16x128xf16> -> !tb.tile<2x16x32xf16>
    %5 = tb.unary square %4 : !tb.tile<2x16x32xf16>
    %6 = tb.reduce mean %5 dim 1 : !tb.tile<2x16x32xf16> -> !tb.tile<2x1x32xf16>
    %7 = tb.unary add_scalar(1.00135803E-5) %6 : !tb.tile<2x1x32xf16>
    %8 = tb.unary rsqrt %7 : !tb.tile<2x1x32xf16>
    %9 = tb.binary mul %4, %8 : !tb.tile<2x16x32xf16>, !tb.tile<2x1x32xf16> -> !tb.tile<2x16x32xf16>
    %10 = tb.input_iterator %arg3 imap [-1, 1, -1] fmap -1 : tensor<2x128x16xf16> -> !tb.tile<2x32x16xf16>
    %11 = tb.matmul %3, %9 : !tb.tile<2x32x16xf16>, !tb.tile<2x16x32xf16> -> !tb.tile<2x32x32xf16>
    %12 = tb.reduce max %11 dim 2 : !tb.tile<2x32x32xf16> -> !tb.tile<2x32x1xf16>
    %13 = tb.binary sub %11, %12 : !tb.tile<2x32x32xf16>, !tb.tile<2x32x1xf16> -> !tb.tile<2x32x32xf16>
    %14 = tb.forloop_accum none %12 : (!tb.tile<2x32x1xf16>) -> !tb.tile<2x32x1xf16>
    %15 = tb.unary exp %13 : !tb.tile<2x32x32xf16>
    %16 = tb.matmul %15, %10 : !tb.tile<2x32x32xf16>, !tb.tile<2x32x16xf16> -> !tb.tile<2x32x16xf16>
    %17 = tb.reduce sum %15 dim 2 : !tb.tile<2x32x32xf16> -> !tb.tile<2x32x1xf16>
    %18 = tb.forloop_accum none %16 : (!tb.tile<2x32x16xf16>) -> !tb.tile<2x32x16xf16>
    %19 = tb.forloop_accum none %17 : (!tb.tile<2x32x1xf16>) -> !tb.tile<2x32x1xf16>
    %20 = tb.output_saver %14 omap [1, 2, -1] : !tb.tile<2x32x1xf16> -> tensor<2x64x4xf16>
    %21 = tb.output_saver %18 omap [1, 0, -1] : !tb.tile<2x32x16xf16> -> tensor<8x64x16xf16>
    %22 = tb.output_saver %19 omap [1, 2, -1] : !tb.tile<2x32x1xf16> -> tensor<2x64x4xf16>
    tb.yield %20, %21, %22 : tensor<2x64x4xf16>, tensor<8x64x16xf16>, tensor<2x64x4xf16>
  }
  %1 = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 4 (%arg3 = %0#0 : tensor<2x64x4xf16>, %arg4 = %0#1 : tensor<8x64x16xf16>, %arg5 = %0#2 : tensor<2x64x4xf16>) -> tensor<2x64x16xf16> {
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 2 : tensor<2x64x4xf16> -> !tb.tile<2x1x1xf16>
    %3 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 0 : tensor<8x64x16xf16> -> !tb.tile<2x1x16xf16>
    %4 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 2 : tensor<2x64x4xf16> -> !tb.tile<2x1x1xf16>
    %5 = tb.forloop_accum sum_rescale %3, %2 : (!tb.tile<2x1x16xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x16xf16>
    %6 = tb.forloop_accum sum_rescale %4, %2 : (!tb.tile<2x1x1xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x1xf16>
    %7 = tb.binary div %5, %6 : !tb.tile<2x1x16xf16>, !tb.tile<2x1x1xf16> -> !tb.tile<2x1x16xf16>
    %8 = tb.output_saver %7 omap [1, -1, -1] : !tb.tile<2x1x16xf16> -> tensor<2x64x16xf16>
    tb.yield %8 : tensor<2x64x16xf16>
  }
  return %1 : tensor<2x64x16xf16>
}
