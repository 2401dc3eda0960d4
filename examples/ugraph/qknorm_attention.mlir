// qknorm_attention (BENCHMARKS.md) as the superoptimizer finds it:
// examples/linalg/qknorm_attention.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2} (2026-12-05), the cost model's first
// candidate. QK-norm: each query and each key normalized over the head dim
// (64), Q over its last dim, K (stored as K^T) over dim 1.
// Two kernels: gqa_decode's split-KV (examples/ugraph/gqa_decode_splitkv.mlir)
// with both rms_norms inside, then a combine of a block per query row. Each
// split-KV block normalizes its 64 rows of Q (whole rows of the head dim)
// and the 128 key columns of its K tile, which hold all 64 head-dim rows
// of their keys (square, mean over dim 1, + eps, rsqrt, scale). The search
// finds the split-KV kernel in the segment after the kept rms_norms and
// offers it with them absorbed (tileopt-absorb-producers,
// docs/superoptimizer.md step 11): 10.44 us priced, against 12.27 with the
// rms_norm of K a kernel of its own (its transposes read through).
func.func @qknorm_attention(%arg0: tensor<2x256x64xf16>, %arg1: tensor<2x64x4096xf16>, %arg2: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %0:3 = tk.fused grid [4, 32, 1] block [128, 1, 1] forloop 1 (%arg3 = %arg2 : tensor<2x4096x64xf16>, %arg4 = %arg0 : tensor<2x256x64xf16>, %arg5 = %arg1 : tensor<2x64x4096xf16>) -> (tensor<2x256x32xf16>, tensor<64x256x64xf16>, tensor<2x256x32xf16>) {
    %2 = tb.input_iterator %arg3 imap [-1, 1, -1] fmap -1 : tensor<2x4096x64xf16> -> !tb.tile<2x128x64xf16>
    %3 = tb.input_iterator %arg4 imap [1, -1, -1] fmap -1 : tensor<2x256x64xf16> -> !tb.tile<2x64x64xf16>
    %4 = tb.rms_norm %3 {epsilon = 1.00135803E-5 : f32} : !tb.tile<2x64x64xf16>
    %5 = tb.input_iterator %arg5 imap [-1, 2, -1] fmap -1 : tensor<2x64x4096xf16> -> !tb.tile<2x64x128xf16>
    %6 = tb.unary square %5 : !tb.tile<2x64x128xf16>
    %7 = tb.reduce mean %6 dim 1 : !tb.tile<2x64x128xf16> -> !tb.tile<2x1x128xf16>
    %8 = tb.unary add_scalar(1.00135803E-5) %7 : !tb.tile<2x1x128xf16>
    %9 = tb.unary rsqrt %8 : !tb.tile<2x1x128xf16>
    %10 = tb.binary mul %5, %9 : !tb.tile<2x64x128xf16>, !tb.tile<2x1x128xf16> -> !tb.tile<2x64x128xf16>
    %11 = tb.matmul %4, %10 : !tb.tile<2x64x64xf16>, !tb.tile<2x64x128xf16> -> !tb.tile<2x64x128xf16>
    %12 = tb.reduce max %11 dim 2 : !tb.tile<2x64x128xf16> -> !tb.tile<2x64x1xf16>
    %13 = tb.binary sub %11, %12 : !tb.tile<2x64x128xf16>, !tb.tile<2x64x1xf16> -> !tb.tile<2x64x128xf16>
    %14 = tb.forloop_accum none %12 : (!tb.tile<2x64x1xf16>) -> !tb.tile<2x64x1xf16>
    %15 = tb.unary exp %13 : !tb.tile<2x64x128xf16>
    %16 = tb.matmul %15, %2 : !tb.tile<2x64x128xf16>, !tb.tile<2x128x64xf16> -> !tb.tile<2x64x64xf16>
    %17 = tb.reduce sum %15 dim 2 : !tb.tile<2x64x128xf16> -> !tb.tile<2x64x1xf16>
    %18 = tb.forloop_accum none %16 : (!tb.tile<2x64x64xf16>) -> !tb.tile<2x64x64xf16>
    %19 = tb.forloop_accum none %17 : (!tb.tile<2x64x1xf16>) -> !tb.tile<2x64x1xf16>
    %20 = tb.output_saver %14 omap [1, 2, -1] : !tb.tile<2x64x1xf16> -> tensor<2x256x32xf16>
    %21 = tb.output_saver %18 omap [1, 0, -1] : !tb.tile<2x64x64xf16> -> tensor<64x256x64xf16>
    %22 = tb.output_saver %19 omap [1, 2, -1] : !tb.tile<2x64x1xf16> -> tensor<2x256x32xf16>
    tb.yield %20, %21, %22 : tensor<2x256x32xf16>, tensor<64x256x64xf16>, tensor<2x256x32xf16>
  }
  %1 = tk.fused grid [256, 1, 1] block [128, 1, 1] forloop 32 (%arg3 = %0#0 : tensor<2x256x32xf16>, %arg4 = %0#1 : tensor<64x256x64xf16>, %arg5 = %0#2 : tensor<2x256x32xf16>) -> tensor<2x256x64xf16> {
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 2 : tensor<2x256x32xf16> -> !tb.tile<2x1x1xf16>
    %3 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 0 : tensor<64x256x64xf16> -> !tb.tile<2x1x64xf16>
    %4 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 2 : tensor<2x256x32xf16> -> !tb.tile<2x1x1xf16>
    %5 = tb.forloop_accum sum_rescale %3, %2 : (!tb.tile<2x1x64xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x64xf16>
    %6 = tb.forloop_accum sum_rescale %4, %2 : (!tb.tile<2x1x1xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x1xf16>
    %7 = tb.binary div %5, %6 : !tb.tile<2x1x64xf16>, !tb.tile<2x1x1xf16> -> !tb.tile<2x1x64xf16>
    %8 = tb.output_saver %7 omap [1, -1, -1] : !tb.tile<2x1x64xf16> -> tensor<2x256x64xf16>
    tb.yield %8 : tensor<2x256x64xf16>
  }
  return %1 : tensor<2x256x64xf16>
}
