// mla_decode (BENCHMARKS.md) at b=8, Q (16, 8, 128), as the superoptimizer
// finds it: examples/linalg/mla_decode_b8.mlir through tileopt-import-linalg
// and tileopt-superoptimize{threads=2} (2026-12-04). Reassociated as at
// b=1, so that K and V are never formed ((Q Wk^T) C^T and (P C) Wv, 17.4
// -> 1.11 GFLOP), the heads' 8 query rows merged into 128 rows of one
// attention over C. The projections are graph-defined kernels of a block
// per head; the attention between the reshapes stays the 7 predefined
// kernels: its segment's search (50M partial graphs, its graph budget)
// completes no graph that it keeps. Searched alone, the same attention
// finds one 2-kernel form, priced 20.8 against about 34 us, at the very end
// of its budget.
func.func @mla_decode(%arg0: tensor<16x8x128xf16>, %arg1: tensor<4096x512xf16>, %arg2: tensor<16x512x128xf16>, %arg3: tensor<16x512x128xf16>) -> tensor<16x8x128xf16> {
  %0 = tk.transpose %arg2 [0, 2, 1] : tensor<16x512x128xf16> -> tensor<16x128x512xf16>
  %1 = tk.transpose %arg1 [1, 0] : tensor<4096x512xf16> -> tensor<512x4096xf16>
  %2 = tk.fused grid [16, 8, 1] block [128, 1, 1] forloop 1 (%arg4 = %arg0 : tensor<16x8x128xf16>, %arg5 = %0 : tensor<16x128x512xf16>) -> tensor<16x8x512xf16> {
    %13 = tb.input_iterator %arg4 imap [0, -1, -1] fmap -1 : tensor<16x8x128xf16> -> !tb.tile<1x8x128xf16>
    %14 = tb.input_iterator %arg5 imap [0, 2, -1] fmap -1 : tensor<16x128x512xf16> -> !tb.tile<1x128x64xf16>
    %15 = tb.matmul %13, %14 : !tb.tile<1x8x128xf16>, !tb.tile<1x128x64xf16> -> !tb.tile<1x8x64xf16>
    %16 = tb.forloop_accum none %15 : (!tb.tile<1x8x64xf16>) -> !tb.tile<1x8x64xf16>
    %17 = tb.output_saver %16 omap [0, 2, -1] : !tb.tile<1x8x64xf16> -> tensor<16x8x512xf16>
    tb.yield %17 : tensor<16x8x512xf16>
  }
  %3 = tk.reshape %2 : tensor<16x8x512xf16> -> tensor<128x512xf16>
  %4 = tk.matmul %3, %1 : tensor<128x512xf16>, tensor<512x4096xf16> -> tensor<128x4096xf16>
  %5 = tk.reduce max %4 dim 1 : tensor<128x4096xf16> -> tensor<128x1xf16>
  %6 = tk.binary sub %4, %5 : tensor<128x4096xf16>, tensor<128x1xf16> -> tensor<128x4096xf16>
  %7 = tk.unary exp %6 : tensor<128x4096xf16>
  %8 = tk.reduce sum %7 dim 1 : tensor<128x4096xf16> -> tensor<128x1xf16>
  %9 = tk.binary div %7, %8 : tensor<128x4096xf16>, tensor<128x1xf16> -> tensor<128x4096xf16>
  %10 = tk.matmul %9, %arg1 : tensor<128x4096xf16>, tensor<4096x512xf16> -> tensor<128x512xf16>
  %11 = tk.reshape %10 : tensor<128x512xf16> -> tensor<16x8x512xf16>
  %12 = tk.fused grid [16, 8, 1] block [128, 1, 1] forloop 1 (%arg4 = %arg3 : tensor<16x512x128xf16>, %arg5 = %11 : tensor<16x8x512xf16>) -> tensor<16x8x128xf16> {
    %13 = tb.input_iterator %arg4 imap [0, 2, -1] fmap -1 : tensor<16x512x128xf16> -> !tb.tile<1x512x16xf16>
    %14 = tb.input_iterator %arg5 imap [0, -1, -1] fmap -1 : tensor<16x8x512xf16> -> !tb.tile<1x8x512xf16>
    %15 = tb.matmul %14, %13 : !tb.tile<1x8x512xf16>, !tb.tile<1x512x16xf16> -> !tb.tile<1x8x16xf16>
    %16 = tb.forloop_accum none %15 : (!tb.tile<1x8x16xf16>) -> !tb.tile<1x8x16xf16>
    %17 = tb.output_saver %16 omap [0, 2, -1] : !tb.tile<1x8x16xf16> -> tensor<16x8x128xf16>
    tb.yield %17 : tensor<16x8x128xf16>
  }
  return %12 : tensor<16x8x128xf16>
}
