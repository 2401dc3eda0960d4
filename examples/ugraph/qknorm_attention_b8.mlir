// qknorm_attention (BENCHMARKS.md) at b=8, Q (16, 256, 64), as the superoptimizer
// finds it: examples/linalg/qknorm_attention_b8.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2} (2026-12-04).
// The rms_norm of K as a predefined kernel, then gqa_decode_b8's one
// kernel (16 x 8 blocks, 64 steps of 64 keys), each block normalizing its
// own 32 rows of Q (tileopt-absorb-producers, step 11 of
// docs/superoptimizer.md): the form of 256 keys a step, priced cheaper,
// spills registers in its loop, and the search leaves it out
// (compile-candidates), as for gqa_decode_b8. With the rms_norm of Q as a
// kernel of its own: 114.7 us on the H200 against torch.compile's 80.3,
// and 168.5 for the 256-key form; this form 111.9, and 63.0 against 76.5
// (1.22x) since the code generator reduces mma results in place
// (docs/performance.md, 2026-12-04).
func.func @qknorm_attention(%arg0: tensor<16x256x64xf16>, %arg1: tensor<16x64x4096xf16>, %arg2: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
  %0 = tk.rms_norm %arg1 {epsilon = 1.00135803E-5 : f32} : tensor<16x64x4096xf16>
  %1 = tk.fused grid [16, 8, 1] block [128, 1, 1] forloop 64 (%arg3 = %arg2 : tensor<16x4096x64xf16>, %arg4 = %arg0 : tensor<16x256x64xf16>, %arg5 = %0 : tensor<16x64x4096xf16>) -> tensor<16x256x64xf16> {
    %2 = tb.input_iterator %arg3 imap [0, -1, -1] fmap 1 : tensor<16x4096x64xf16> -> !tb.tile<1x64x64xf16>
    %3 = tb.input_iterator %arg4 imap [0, 1, -1] fmap -1 : tensor<16x256x64xf16> -> !tb.tile<1x32x64xf16>
    %4 = tb.rms_norm %3 {epsilon = 1.00135803E-5 : f32} : !tb.tile<1x32x64xf16>
    %5 = tb.input_iterator %arg5 imap [0, -1, -1] fmap 2 : tensor<16x64x4096xf16> -> !tb.tile<1x64x64xf16>
    %6 = tb.matmul %4, %5 : !tb.tile<1x32x64xf16>, !tb.tile<1x64x64xf16> -> !tb.tile<1x32x64xf16>
    %7 = tb.reduce max %6 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %8 = tb.binary sub %6, %7 : !tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x64xf16>
    %9 = tb.unary exp %8 : !tb.tile<1x32x64xf16>
    %10 = tb.matmul %9, %2 : !tb.tile<1x32x64xf16>, !tb.tile<1x64x64xf16> -> !tb.tile<1x32x64xf16>
    %11 = tb.reduce sum %9 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %12 = tb.forloop_accum sum_rescale %10, %7 : (!tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x64xf16>
    %13 = tb.forloop_accum sum_rescale %11, %7 : (!tb.tile<1x32x1xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x1xf16>
    %14 = tb.binary div %12, %13 : !tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x64xf16>
    %15 = tb.output_saver %14 omap [0, 1, -1] : !tb.tile<1x32x64xf16> -> tensor<16x256x64xf16>
    tb.yield %15 : tensor<16x256x64xf16>
  }
  return %1 : tensor<16x256x64xf16>
}
