// gqa_decode (BENCHMARKS.md) at b=8, Q (16, 256, 64), as the superoptimizer
// finds it: examples/linalg/gqa_decode_b8.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2} (2026-12-04).
// One kernel (FlashAttention): a block per head and 32 query rows (8 x 16
// blocks), its loop walks the keys in 64 steps of 64 with sum_rescale.
// The one form priced cheaper (256 keys a step, 30.3 us) spills 1668
// bytes a thread in its loop; the search compiles its candidates and
// leaves such forms out (compile-candidates). Its split-KV forms need more
// scratch than static shared memory holds, or tiles mma.sync cannot take
// on 4 warps.
// 106.0 us on the H200 against torch.compile's 64.3, and 160.1 for the
// 256-key form; 56.7 us against 68.2 (1.20x) since the code generator
// reduces the scores and stages the probabilities in the mma accumulator
// layout (docs/performance.md, 2026-12-04).
func.func @gqa_decode(%arg0: tensor<16x256x64xf16>, %arg1: tensor<16x64x4096xf16>, %arg2: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
  %0 = tk.fused grid [8, 16, 1] block [128, 1, 1] forloop 64 (%arg3 = %arg0 : tensor<16x256x64xf16>, %arg4 = %arg1 : tensor<16x64x4096xf16>, %arg5 = %arg2 : tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
    %1 = tb.input_iterator %arg3 imap [1, 0, -1] fmap -1 : tensor<16x256x64xf16> -> !tb.tile<1x32x64xf16>
    %2 = tb.input_iterator %arg4 imap [-1, 0, -1] fmap 2 : tensor<16x64x4096xf16> -> !tb.tile<1x64x64xf16>
    %3 = tb.input_iterator %arg5 imap [-1, 0, -1] fmap 1 : tensor<16x4096x64xf16> -> !tb.tile<1x64x64xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<1x32x64xf16>, !tb.tile<1x64x64xf16> -> !tb.tile<1x32x64xf16>
    %5 = tb.reduce max %4 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %6 = tb.binary sub %4, %5 : !tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x64xf16>
    %7 = tb.unary exp %6 : !tb.tile<1x32x64xf16>
    %8 = tb.matmul %7, %3 : !tb.tile<1x32x64xf16>, !tb.tile<1x64x64xf16> -> !tb.tile<1x32x64xf16>
    %9 = tb.reduce sum %7 dim 2 : !tb.tile<1x32x64xf16> -> !tb.tile<1x32x1xf16>
    %10 = tb.forloop_accum sum_rescale %8, %5 : (!tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x64xf16>
    %11 = tb.forloop_accum sum_rescale %9, %5 : (!tb.tile<1x32x1xf16>, !tb.tile<1x32x1xf16>) -> !tb.tile<1x32x1xf16>
    %12 = tb.binary div %10, %11 : !tb.tile<1x32x64xf16>, !tb.tile<1x32x1xf16> -> !tb.tile<1x32x64xf16>
    %13 = tb.output_saver %12 omap [1, 0, -1] : !tb.tile<1x32x64xf16> -> tensor<16x256x64xf16>
    tb.yield %13 : tensor<16x256x64xf16>
  }
  return %0 : tensor<16x256x64xf16>
}
