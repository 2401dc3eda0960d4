// qknorm_attention (BENCHMARKS.md) as the superoptimizer finds it:
// examples/linalg/qknorm_attention.mlir through tileopt-import-linalg and
// tileopt-superoptimize (2026-12-04), the cost model's first candidate.
// Three kernels: the rms_norm of K stays a kernel of its own (it is over
// the keys, which the next kernel splits); then gqa_decode's split-KV
// (examples/ugraph/gqa_decode_splitkv.mlir) over Q and K normalized, each
// block normalizing its own 64 rows of Q (whole rows of the head dim); then
// a combine of a block per query row. The search finds the split-KV kernel
// in the segment after the two rms_norms (docs/superoptimizer.md, step 11)
// and offers it with the rms_norm of Q absorbed (tileopt-absorb-producers),
// which the model prices at 12.3 us against 14.2 with it as a kernel.
func.func @qknorm_attention(%arg0: tensor<2x256x64xf16>, %arg1: tensor<2x64x4096xf16>, %arg2: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %0 = tk.rms_norm %arg1 {epsilon = 1.00135803E-5 : f32} : tensor<2x64x4096xf16>
  %1:3 = tk.fused grid [4, 32, 1] block [128, 1, 1] forloop 1 (%arg3 = %arg2 : tensor<2x4096x64xf16>, %arg4 = %arg0 : tensor<2x256x64xf16>, %arg5 = %0 : tensor<2x64x4096xf16>) -> (tensor<2x256x32xf16>, tensor<64x256x64xf16>, tensor<2x256x32xf16>) {
    %3 = tb.input_iterator %arg3 imap [-1, 1, -1] fmap -1 : tensor<2x4096x64xf16> -> !tb.tile<2x128x64xf16>
    %4 = tb.input_iterator %arg4 imap [1, -1, -1] fmap -1 : tensor<2x256x64xf16> -> !tb.tile<2x64x64xf16>
    %5 = tb.rms_norm %4 {epsilon = 1.00135803E-5 : f32} : !tb.tile<2x64x64xf16>
    %6 = tb.input_iterator %arg5 imap [-1, 2, -1] fmap -1 : tensor<2x64x4096xf16> -> !tb.tile<2x64x128xf16>
    %7 = tb.matmul %5, %6 : !tb.tile<2x64x64xf16>, !tb.tile<2x64x128xf16> -> !tb.tile<2x64x128xf16>
    %8 = tb.reduce max %7 dim 2 : !tb.tile<2x64x128xf16> -> !tb.tile<2x64x1xf16>
    %9 = tb.binary sub %7, %8 : !tb.tile<2x64x128xf16>, !tb.tile<2x64x1xf16> -> !tb.tile<2x64x128xf16>
    %10 = tb.forloop_accum none %8 : (!tb.tile<2x64x1xf16>) -> !tb.tile<2x64x1xf16>
    %11 = tb.unary exp %9 : !tb.tile<2x64x128xf16>
    %12 = tb.matmul %11, %3 : !tb.tile<2x64x128xf16>, !tb.tile<2x128x64xf16> -> !tb.tile<2x64x64xf16>
    %13 = tb.reduce sum %11 dim 2 : !tb.tile<2x64x128xf16> -> !tb.tile<2x64x1xf16>
    %14 = tb.forloop_accum none %12 : (!tb.tile<2x64x64xf16>) -> !tb.tile<2x64x64xf16>
    %15 = tb.forloop_accum none %13 : (!tb.tile<2x64x1xf16>) -> !tb.tile<2x64x1xf16>
    %16 = tb.output_saver %10 omap [1, 2, -1] : !tb.tile<2x64x1xf16> -> tensor<2x256x32xf16>
    %17 = tb.output_saver %14 omap [1, 0, -1] : !tb.tile<2x64x64xf16> -> tensor<64x256x64xf16>
    %18 = tb.output_saver %15 omap [1, 2, -1] : !tb.tile<2x64x1xf16> -> tensor<2x256x32xf16>
    tb.yield %16, %17, %18 : tensor<2x256x32xf16>, tensor<64x256x64xf16>, tensor<2x256x32xf16>
  }
  %2 = tk.fused grid [256, 1, 1] block [128, 1, 1] forloop 32 (%arg3 = %1#0 : tensor<2x256x32xf16>, %arg4 = %1#1 : tensor<64x256x64xf16>, %arg5 = %1#2 : tensor<2x256x32xf16>) -> tensor<2x256x64xf16> {
    %3 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 2 : tensor<2x256x32xf16> -> !tb.tile<2x1x1xf16>
    %4 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 0 : tensor<64x256x64xf16> -> !tb.tile<2x1x64xf16>
    %5 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 2 : tensor<2x256x32xf16> -> !tb.tile<2x1x1xf16>
    %6 = tb.forloop_accum sum_rescale %4, %3 : (!tb.tile<2x1x64xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x64xf16>
    %7 = tb.forloop_accum sum_rescale %5, %3 : (!tb.tile<2x1x1xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x1xf16>
    %8 = tb.binary div %6, %7 : !tb.tile<2x1x64xf16>, !tb.tile<2x1x1xf16> -> !tb.tile<2x1x64xf16>
    %9 = tb.output_saver %8 omap [1, -1, -1] : !tb.tile<2x1x64xf16> -> tensor<2x256x64xf16>
    tb.yield %9 : tensor<2x256x64xf16>
  }
  return %2 : tensor<2x256x64xf16>
}
