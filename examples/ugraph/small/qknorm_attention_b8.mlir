// examples/ugraph/qknorm_attention_b8.mlir at a small size (4 heads, Q
// 4x64x16, K 4x16x256, V 4x256x16: the rms_norm kernel of K between its
// transposes, then a block per head and 32 query rows, normalized in the
// block, walking the keys in 4 steps of 64), for the device run's
// interpreter check and compute-sanitizer.
func.func @qknorm_attention(%arg0: tensor<4x64x16xf16>, %arg1: tensor<4x16x256xf16>, %arg2: tensor<4x256x16xf16>) -> tensor<4x64x16xf16> {
  %0 = tk.transpose %arg1 [0, 2, 1] : tensor<4x16x256xf16> -> tensor<4x256x16xf16>
  %1 = tk.rms_norm %0 {epsilon = 1.00135803E-5 : f32} : tensor<4x256x16xf16>
  %2 = tk.transpose %1 [0, 2, 1] : tensor<4x256x16xf16> -> tensor<4x16x256xf16>
  %3 = tk.fused grid [4, 2, 1] block [128, 1, 1] forloop 4 (%arg3 = %arg2 : tensor<4x256x16xf16>, %arg4 = %arg0 : tensor<4x64x16xf16>, %arg5 = %2 : tensor<4x16x256xf16>) -> tensor<4x64x16xf16> {
    %4 = tb.input_iterator %arg3 imap [0, -1, -1] fmap 1 : tensor<4x256x16xf16> -> !tb.tile<1x64x16xf16>
    %5 = tb.input_iterator %arg4 imap [0, 1, -1] fmap -1 : tensor<4x64x16xf16> -> !tb.tile<1x32x16xf16>
    %6 = tb.rms_norm %5 {epsilon = 1.00135803E-5 : f32} : !tb.tile<1x32x16xf16>
    %7 = tb.input_iterator %arg5 imap [0, -1, -1] fmap 2 : tensor<4x16x256xf16> -> !tb.tile<1x16x64xf16>
    %8 = tb.matmul %6, %7 : !tb.tile<1x32x16xf16>, !tb.tile<1x16x64xf16> -> !tb.tile<1x32x64xf16>
    %9 = tb.reduce max %8 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %10 = tb.binary sub %8, %9 : !tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x64xf16>
    %11 = tb.unary exp %10 : !tb.tile<1x32x64xf16>
    %12 = tb.matmul %11, %4 : !tb.tile<1x32x64xf16>, !tb.tile<1x64x16xf16> -> !tb.tile<1x32x16xf16>
    %13 = tb.reduce sum %11 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %14 = tb.forloop_accum sum_rescale %12, %9 : (!tb.tile<1x32x16xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x16xf16>
    %15 = tb.forloop_accum sum_rescale %13, %9 : (!tb.tile<1x32x1xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x1xf16>
    %16 = tb.binary div %14, %15 : !tb.tile<1x32x16xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x16xf16>
    %17 = tb.output_saver %16 omap [0, 1, -1] : !tb.tile<1x32x16xf16> -> tensor<4x64x16xf16>
    tb.yield %17 : tensor<4x64x16xf16>
  }
  return %3 : tensor<4x64x16xf16>
}
