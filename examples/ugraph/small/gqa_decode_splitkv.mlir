// examples/ugraph/gqa_decode_splitkv.mlir at a small size (Q 2x64x16, K
// 2x16x128, V 2x128x16: 32 query rows and 4 chunks of 32 keys per block),
// for the device run's interpreter check and compute-sanitizer.
func.func @gqa_decode(%Q: tensor<2x64x16xf16>, %K: tensor<2x16x128xf16>, %V: tensor<2x128x16xf16>) -> tensor<2x64x16xf16> {
  %0:3 = tk.fused grid [2, 4, 1] block [128, 1, 1] forloop 1 (%q = %Q : tensor<2x64x16xf16>, %k = %K : tensor<2x16x128xf16>, %v = %V : tensor<2x128x16xf16>) -> (tensor<2x64x4xf16>, tensor<8x64x16xf16>, tensor<2x64x4xf16>) {
    %2 = tb.input_iterator %q imap [1, -1, -1] fmap -1 : tensor<2x64x16xf16> -> !tb.tile<2x32x16xf16>
    %3 = tb.input_iterator %k imap [-1, 2, -1] fmap -1 : tensor<2x16x128xf16> -> !tb.tile<2x16x32xf16>
    %4 = tb.input_iterator %v imap [-1, 1, -1] fmap -1 : tensor<2x128x16xf16> -> !tb.tile<2x32x16xf16>
    %5 = tb.matmul %2, %3 : !tb.tile<2x32x16xf16>, !tb.tile<2x16x32xf16> -> !tb.tile<2x32x32xf16>
    %6 = tb.reduce max %5 dim 2 : !tb.tile<2x32x32xf16> -> !tb.tile<2x32x1xf16>
    %7 = tb.binary sub %5, %6 : !tb.tile<2x32x32xf16>, !tb.tile<2x32x1xf16> -> !tb.tile<2x32x32xf16>
    %8 = tb.forloop_accum none %6 : (!tb.tile<2x32x1xf16>) -> !tb.tile<2x32x1xf16>
    %9 = tb.unary exp %7 : !tb.tile<2x32x32xf16>
    %10 = tb.matmul %9, %4 : !tb.tile<2x32x32xf16>, !tb.tile<2x32x16xf16> -> !tb.tile<2x32x16xf16>
    %11 = tb.reduce sum %9 dim 2 : !tb.tile<2x32x32xf16> -> !tb.tile<2x32x1xf16>
    %12 = tb.forloop_accum none %10 : (!tb.tile<2x32x16xf16>) -> !tb.tile<2x32x16xf16>
    %13 = tb.forloop_accum none %11 : (!tb.tile<2x32x1xf16>) -> !tb.tile<2x32x1xf16>
    %14 = tb.output_saver %8 omap [1, 2, -1] : !tb.tile<2x32x1xf16> -> tensor<2x64x4xf16>
    %15 = tb.output_saver %12 omap [1, 0, -1] : !tb.tile<2x32x16xf16> -> tensor<8x64x16xf16>
    %16 = tb.output_saver %13 omap [1, 2, -1] : !tb.tile<2x32x1xf16> -> tensor<2x64x4xf16>
    tb.yield %14, %15, %16 : tensor<2x64x4xf16>, tensor<8x64x16xf16>, tensor<2x64x4xf16>
  }
  %1 = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 4 (%m = %0#0 : tensor<2x64x4xf16>, %o = %0#1 : tensor<8x64x16xf16>, %l = %0#2 : tensor<2x64x4xf16>) -> tensor<2x64x16xf16> {
    %2 = tb.input_iterator %m imap [1, -1, -1] fmap 2 : tensor<2x64x4xf16> -> !tb.tile<2x1x1xf16>
    %3 = tb.input_iterator %o imap [1, -1, -1] fmap 0 : tensor<8x64x16xf16> -> !tb.tile<2x1x16xf16>
    %4 = tb.input_iterator %l imap [1, -1, -1] fmap 2 : tensor<2x64x4xf16> -> !tb.tile<2x1x1xf16>
    %5 = tb.forloop_accum sum_rescale %3, %2 : (!tb.tile<2x1x16xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x16xf16>
    %6 = tb.forloop_accum sum_rescale %4, %2 : (!tb.tile<2x1x1xf16>, !tb.tile<2x1x1xf16>) -> !tb.tile<2x1x1xf16>
    %7 = tb.binary div %5, %6 : !tb.tile<2x1x16xf16>, !tb.tile<2x1x1xf16> -> !tb.tile<2x1x16xf16>
    %8 = tb.output_saver %7 omap [1, -1, -1] : !tb.tile<2x1x16xf16> -> tensor<2x64x16xf16>
    tb.yield %8 : tensor<2x64x16xf16>
  }
  return %1 : tensor<2x64x16xf16>
}
