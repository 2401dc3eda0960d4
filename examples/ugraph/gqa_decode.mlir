// gqa_decode (BENCHMARKS.md) as the superoptimizer finds it: examples/linalg/gqa_decode.mlir
// through tileopt-import-linalg and tileopt-superoptimize{threads=1} (commit acc0505).
func.func @gqa_decode(%arg0: tensor<2x256x64xf16>, %arg1: tensor<2x64x4096xf16>, %arg2: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %0 = tk.fused grid [16, 4, 1] block [128, 1, 1] forloop 64 (%arg3 = %arg0 : tensor<2x256x64xf16>, %arg4 = %arg1 : tensor<2x64x4096xf16>, %arg5 = %arg2 : tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
    %1 = tb.input_iterator %arg3 imap [1, -1, -1] fmap -1 : tensor<2x256x64xf16> -> !tb.tile<2x16x64xf16>
    %2 = tb.input_iterator %arg4 imap [-1, -1, -1] fmap 2 : tensor<2x64x4096xf16> -> !tb.tile<2x64x64xf16>
    %3 = tb.input_iterator %arg5 imap [-1, 2, -1] fmap 1 : tensor<2x4096x64xf16> -> !tb.tile<2x64x16xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<2x16x64xf16>, !tb.tile<2x64x64xf16> -> !tb.tile<2x16x64xf16>
    %5 = tb.reduce max %4 dim 2 : !tb.tile<2x16x64xf16> -> !tb.tile<2x16x1xf16>
    %6 = tb.binary sub %4, %5 : !tb.tile<2x16x64xf16>, !tb.tile<2x16x1xf16> -> !tb.tile<2x16x64xf16>
    %7 = tb.unary exp %6 : !tb.tile<2x16x64xf16>
    %8 = tb.matmul %7, %3 : !tb.tile<2x16x64xf16>, !tb.tile<2x64x16xf16> -> !tb.tile<2x16x16xf16>
    %9 = tb.reduce sum %7 dim 2 : !tb.tile<2x16x64xf16> -> !tb.tile<2x16x1xf16>
    %10 = tb.forloop_accum sum_rescale %8, %5 : (!tb.tile<2x16x16xf16>, !tb.tile<2x16x1xf16>) -> !tb.tile<2x16x16xf16>
    %11 = tb.forloop_accum sum_rescale %9, %5 : (!tb.tile<2x16x1xf16>, !tb.tile<2x16x1xf16>) -> !tb.tile<2x16x1xf16>
    %12 = tb.binary div %10, %11 : !tb.tile<2x16x16xf16>, !tb.tile<2x16x1xf16> -> !tb.tile<2x16x16xf16>
    %13 = tb.output_saver %12 omap [1, 2, -1] : !tb.tile<2x16x16xf16> -> tensor<2x256x64xf16>
    tb.yield %13 : tensor<2x256x64xf16>
  }
  return %0 : tensor<2x256x64xf16>
}

