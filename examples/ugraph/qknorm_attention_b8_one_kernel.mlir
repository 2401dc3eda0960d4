// qknorm_attention (BENCHMARKS.md) at b=8 in one kernel, for timing against
// the superoptimizer's choice (examples/ugraph/qknorm_attention_b8.mlir):
// its third candidate (tileopt-superoptimize{threads=2 print-top=8},
// 2026-12-05), priced 41.33 us against the choice's 38.36. gqa_decode_b8's
// kernel (16 x 8 blocks, 64 steps of 64 keys) with both rms_norms inside:
// each block normalizes its 32 rows of Q once, and in every step the 64
// key columns of its K tile (all 64 head-dim rows of each key): square,
// mean over dim 1, + eps, rsqrt, scale. The 8 blocks of a head each
// normalize every key, which the cost model prices as five passes through
// shared memory a step, above the launch and the round trip of K that the
// choice's rms_norm kernel costs.
func.func @qknorm_attention(%arg0: tensor<16x256x64xf16>, %arg1: tensor<16x64x4096xf16>, %arg2: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
  %0 = tk.fused grid [16, 8, 1] block [128, 1, 1] forloop 64 (%arg3 = %arg2 : tensor<16x4096x64xf16>, %arg4 = %arg0 : tensor<16x256x64xf16>, %arg5 = %arg1 : tensor<16x64x4096xf16>) -> tensor<16x256x64xf16> {
    %1 = tb.input_iterator %arg3 imap [0, -1, -1] fmap 1 : tensor<16x4096x64xf16> -> !tb.tile<1x64x64xf16>
    %2 = tb.input_iterator %arg4 imap [0, 1, -1] fmap -1 : tensor<16x256x64xf16> -> !tb.tile<1x32x64xf16>
    %3 = tb.rms_norm %2 {epsilon = 1.00135803E-5 : f32} : !tb.tile<1x32x64xf16>
    %4 = tb.input_iterator %arg5 imap [0, -1, -1] fmap 2 : tensor<16x64x4096xf16> -> !tb.tile<1x64x64xf16>
    %5 = tb.unary square %4 : !tb.tile<1x64x64xf16>
    %6 = tb.reduce mean %5 dim 1 : !tb.tile<1x64x64xf16> -> !tb.tile<1x1x64xf16>
    %7 = tb.unary add_scalar(1.00135803E-5) %6 : !tb.tile<1x1x64xf16>
    %8 = tb.unary rsqrt %7 : !tb.tile<1x1x64xf16>
    %9 = tb.binary mul %4, %8 : !tb.tile<1x64x64xf16>, !tb.tile<1x1x64xf16> -> !tb.tile<1x64x64xf16>
    %10 = tb.matmul %3, %9 : !tb.tile<1x32x64xf16>, !tb.tile<1x64x64xf16> -> !tb.tile<1x32x64xf16>
    %11 = tb.reduce max %10 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %12 = tb.binary sub %10, %11 : !tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x64xf16>
    %13 = tb.unary exp %12 : !tb.tile<1x32x64xf16>
    %14 = tb.matmul %13, %1 : !tb.tile<1x32x64xf16>, !tb.tile<1x64x64xf16> -> !tb.tile<1x32x64xf16>
    %15 = tb.reduce sum %13 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %16 = tb.forloop_accum sum_rescale %14, %11 : (!tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x64xf16>
    %17 = tb.forloop_accum sum_rescale %15, %11 : (!tb.tile<1x32x1xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x1xf16>
    %18 = tb.binary div %16, %17 : !tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x64xf16>
    %19 = tb.output_saver %18 omap [0, 1, -1] : !tb.tile<1x32x64xf16> -> tensor<16x256x64xf16>
    tb.yield %19 : tensor<16x256x64xf16>
  }
  return %0 : tensor<16x256x64xf16>
}
