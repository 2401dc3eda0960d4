// qknorm_attention (BENCHMARKS.md) at b=8, Q (16, 256, 64), as the superoptimizer
// finds it: examples/linalg/qknorm_attention_b8.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2} (2026-12-05). QK-norm: each query and
// each key normalized over the head dim, K (stored as K^T) over dim 1.
// Two kernels: the rms_norm of K as a predefined kernel (the importer's
// transposes around it are read through: it loads K's tiles and permutes
// them, and the next kernel loads the normalized keys' rows and feeds them
// to its mma transposed), then gqa_decode_b8's one kernel (16 x 8 blocks,
// 64 steps of 64 keys), each block normalizing its own 32 rows of Q
// (tileopt-absorb-producers, step 11 of docs/superoptimizer.md). Priced
// 38.36 us. With the rms_norm of K inside too, each of the 8 blocks of a
// head would normalize all 4096 keys, in every step a 64x64 tile through
// five block ops: priced 41.33 (examples/ugraph/qknorm_attention_b8_one_kernel.mlir),
// with both norms as kernels 40.60. The forms of 256 keys a step, priced
// cheaper, spill registers in their loop, and the search leaves them out
// (compile-candidates), as for gqa_decode_b8.
func.func @qknorm_attention(%arg0: tensor<16x256x64xf16>, %arg1: tensor<16x64x4096xf16>, %arg2: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
  %0 = tk.transpose %arg1 [0, 2, 1] : tensor<16x64x4096xf16> -> tensor<16x4096x64xf16>
  %1 = tk.rms_norm %0 {epsilon = 1.00135803E-5 : f32} : tensor<16x4096x64xf16>
  %2 = tk.transpose %1 [0, 2, 1] : tensor<16x4096x64xf16> -> tensor<16x64x4096xf16>
  %3 = tk.fused grid [16, 8, 1] block [128, 1, 1] forloop 64 (%arg3 = %arg2 : tensor<16x4096x64xf16>, %arg4 = %arg0 : tensor<16x256x64xf16>, %arg5 = %2 : tensor<16x64x4096xf16>) -> tensor<16x256x64xf16> {
    %4 = tb.input_iterator %arg3 imap [0, -1, -1] fmap 1 : tensor<16x4096x64xf16> -> !tb.tile<1x64x64xf16>
    %5 = tb.input_iterator %arg4 imap [0, 1, -1] fmap -1 : tensor<16x256x64xf16> -> !tb.tile<1x32x64xf16>
    %6 = tb.rms_norm %5 {epsilon = 1.00135803E-5 : f32} : !tb.tile<1x32x64xf16>
    %7 = tb.input_iterator %arg5 imap [0, -1, -1] fmap 2 : tensor<16x64x4096xf16> -> !tb.tile<1x64x64xf16>
    %8 = tb.matmul %6, %7 : !tb.tile<1x32x64xf16>, !tb.tile<1x64x64xf16> -> !tb.tile<1x32x64xf16>
    %9 = tb.reduce max %8 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %10 = tb.binary sub %8, %9 : !tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x64xf16>
    %11 = tb.unary exp %10 : !tb.tile<1x32x64xf16>
    %12 = tb.matmul %11, %4 : !tb.tile<1x32x64xf16>, !tb.tile<1x64x64xf16> -> !tb.tile<1x32x64xf16>
    %13 = tb.reduce sum %11 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %14 = tb.forloop_accum sum_rescale %12, %9 : (!tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x64xf16>
    %15 = tb.forloop_accum sum_rescale %13, %9 : (!tb.tile<1x32x1xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x1xf16>
    %16 = tb.binary div %14, %15 : !tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x64xf16>
    %17 = tb.output_saver %16 omap [0, 1, -1] : !tb.tile<1x32x64xf16> -> tensor<16x256x64xf16>
    tb.yield %17 : tensor<16x256x64xf16>
  }
  return %3 : tensor<16x256x64xf16>
}
