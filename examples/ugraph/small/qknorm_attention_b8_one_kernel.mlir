// examples/ugraph/qknorm_attention_b8_one_kernel.mlir at a small size (4
// heads, Q 4x64x16, K 4x16x256, V 4x256x16: a block per head and 32 query
// rows, normalized in the block, walking the keys in 4 steps of 64 and
// normalizing each step's key columns), for the device run's interpreter
// check and compute-sanitizer.
func.func @qknorm_attention(%arg0: tensor<4x64x16xf16>, %arg1: tensor<4x16x256xf16>, %arg2: tensor<4x256x16xf16>) -> tensor<4x64x16xf16> {
  %0 = tk.fused grid [4, 2, 1] block [128, 1, 1] forloop 4 (%arg3 = %arg2 : tensor<4x256x16xf16>, %arg4 = %arg0 : tensor<4x64x16xf16>, %arg5 = %arg1 : tensor<4x16x256xf16>) -> tensor<4x64x16xf16> {
    %1 = tb.input_iterator %arg3 imap [0, -1, -1] fmap 1 : tensor<4x256x16xf16> -> !tb.tile<1x64x16xf16>
    %2 = tb.input_iterator %arg4 imap [0, 1, -1] fmap -1 : tensor<4x64x16xf16> -> !tb.tile<1x32x16xf16>
    %3 = tb.rms_norm %2 {epsilon = 1.00135803E-5 : f32} : !tb.tile<1x32x16xf16>
    %4 = tb.input_iterator %arg5 imap [0, -1, -1] fmap 2 : tensor<4x16x256xf16> -> !tb.tile<1x16x64xf16>
    %5 = tb.unary square %4 : !tb.tile<1x16x64xf16>
    %6 = tb.reduce mean %5 dim 1 : !tb.tile<1x16x64xf16> -> !tb.tile<1x1x64xf16>
    %7 = tb.unary add_scalar(1.00135803E-5) %6 : !tb.tile<1x1x64xf16>
    %8 = tb.unary rsqrt %7 : !tb.tile<1x1x64xf16>
    %9 = tb.binary mul %4, %8 : !tb.tile<1x16x64xf16>, !tb.tile<1x1x64xf16> -> !tb.tile<1x16x64xf16>
    %10 = tb.matmul %3, %9 : !tb.tile<1x32x16xf16>, !tb.tile<1x16x64xf16> -> !tb.tile<1x32x64xf16>
    %11 = tb.reduce max %10 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %12 = tb.binary sub %10, %11 : !tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x64xf16>
    %13 = tb.unary exp %12 : !tb.tile<1x32x64xf16>
    %14 = tb.matmul %13, %1 : !tb.tile<1x32x64xf16>, !tb.tile<1x64x16xf16> -> !tb.tile<1x32x16xf16>
    %15 = tb.reduce sum %13 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %16 = tb.forloop_accum sum_rescale %14, %11 : (!tb.tile<1x32x16xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x16xf16>
    %17 = tb.forloop_accum sum_rescale %15, %11 : (!tb.tile<1x32x1xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x1xf16>
    %18 = tb.binary div %16, %17 : !tb.tile<1x32x16xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x16xf16>
    %19 = tb.output_saver %18 omap [0, 1, -1] : !tb.tile<1x32x16xf16> -> tensor<4x64x16xf16>
    tb.yield %19 : tensor<4x64x16xf16>
  }
  return %0 : tensor<4x64x16xf16>
}
