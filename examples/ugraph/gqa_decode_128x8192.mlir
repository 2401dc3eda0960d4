// Decode attention over 8192 keys with 128 query rows (2 heads), a shape
// the search was not tuned for (bench/search/generality.mlir,
// @decode_attention_128x8192), as tileopt-superoptimize{threads=2} finds
// it (2026-12-04): split-KV over 64 chunks of 128 keys, then a combine.
func.func @gqa_decode(%arg0: tensor<2x128x64xf16>, %arg1: tensor<2x64x8192xf16>, %arg2: tensor<2x8192x64xf16>) -> tensor<2x128x64xf16> {
  %0:3 = tk.fused grid [2, 64, 1] block [128, 1, 1] forloop 1 (%arg3 = %arg0 : tensor<2x128x64xf16>, %arg4 = %arg1 : tensor<2x64x8192xf16>, %arg5 = %arg2 : tensor<2x8192x64xf16>) -> (tensor<2x128x64xf16>, tensor<128x128x64xf16>, tensor<2x128x64xf16>) {
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap -1 : tensor<2x128x64xf16> -> !tb.tile<2x64x64xf16>
    %3 = tb.input_iterator %arg4 imap [-1, 2, -1] fmap -1 : tensor<2x64x8192xf16> -> !tb.tile<2x64x128xf16>
    %4 = tb.input_iterator %arg5 imap [-1, 1, -1] fmap -1 : tensor<2x8192x64xf16> -> !tb.tile<2x128x64xf16>
    %5 = tb.matmul %2, %3 : !tb.tile<2x64x64xf16>, !tb.tile<2x64x128xf16> -> !tb.tile<2x64x128xf16>
    %6 = tb.reduce max %5 dim 2 : !tb.tile<2x64x128xf16> -> !tb.tile<2x64x1xf16>
    %7 = tb.binary sub %5, %6 : !tb.tile<2x64x128xf16>, !tb.tile<2x64x1xf16> -> !tb.tile<2x64x128xf16>
    %8 = tb.forloop_accum none %6 : (!tb.tile<2x64x1xf16>) -> !tb.tile<2x64x1xf16>
    %9 = tb.unary exp %7 : !tb.tile<2x64x128xf16>
    %10 = tb.matmul %9, %4 : !tb.tile<2x64x128xf16>, !tb.tile<2x128x64xf16> -> !tb.tile<2x64x64xf16>
    %11 = tb.reduce sum %9 dim 2 : !tb.tile<2x64x128xf16> -> !tb.tile<2x64x1xf16>
    %12 = tb.forloop_accum none %10 : (!tb.tile<2x64x64xf16>) -> !tb.tile<2x64x64xf16>
    %13 = tb.forloop_accum none %11 : (!tb.tile<2x64x1xf16>) -> !tb.tile<2x64x1xf16>
    %14 = tb.output_saver %8 omap [1, 2, -1] : !tb.tile<2x64x1xf16> -> tensor<2x128x64xf16>
    %15 = tb.output_saver %12 omap [1, 0, -1] : !tb.tile<2x64x64xf16> -> tensor<128x128x64xf16>
    %16 = tb.output_saver %13 omap [1, 2, -1] : !tb.tile<2x64x1xf16> -> tensor<2x128x64xf16>
    tb.yield %14, %15, %16 : tensor<2x128x64xf16>, tensor<128x128x64xf16>, tensor<2x128x64xf16>
  }
  %1 = tk.fused grid [128, 1, 1] block [128, 1, 1] forloop 64 (%arg3 = %0#0 : tensor<2x128x64xf16>, %arg4 = %0#1 : tensor<128x128x64xf16>, %arg5 = %0#2 : tensor<2x128x64xf16>) -> tensor<2x128x64xf16> {
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 2 : tensor<2x128x64xf16> -> !tb.tile<2x1x1xf16>
    %3 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 0 : tensor<128x128x64xf16> -> !tb.tile<2x1x64xf16>
    %4 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 2 : tensor<2x128x64xf16> -> !tb.tile<2x1x1xf16>
    %5 = tb.forloop_accum sum_rescale %3, %2 : (!tb.tile<2x1x64xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x64xf16>
    %6 = tb.forloop_accum sum_rescale %4, %2 : (!tb.tile<2x1x1xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x1xf16>
    %7 = tb.binary div %5, %6 : !tb.tile<2x1x64xf16>, !tb.tile<2x1x1xf16> -> !tb.tile<2x1x64xf16>
    %8 = tb.output_saver %7 omap [1, -1, -1] : !tb.tile<2x1x64xf16> -> tensor<2x128x64xf16>
    tb.yield %8 : tensor<2x128x64xf16>
  }
  return %1 : tensor<2x128x64xf16>
}
