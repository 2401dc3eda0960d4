// mla_decode (BENCHMARKS.md) as the superoptimizer finds it:
// examples/linalg/mla_decode.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2} (2026-12-04, default budgets), the
// cost model's first candidate. The matmul chains are reassociated so that
// K and V are never formed, (Q Wk^T) C^T and
// (P C) Wv, and the 16 heads' query rows are the rows of one attention
// over the shared latent cache C (tileopt-merge-batch-rows). Between the
// layout changes, that attention is split over the keys (64 chunks of 64)
// plus a combine that rescales the partial results. The partial P C chunks
// lie along the rows (1024 x 512), so the combine's 32 blocks split the
// columns while their loop walks the chunks. The heads' query and output
// projections, Q Wk^T and @ Wv, are graph-defined kernels of a block per
// head and column tile (16 x 8 blocks): the heads are a batch of those
// products, which the grid splits into single heads since 2026-12-04
// (before, tk.matmuls; 20.0 against 20.5 us on the H200 in one call).
func.func @mla_decode(%arg0: tensor<16x1x128xf16>, %arg1: tensor<4096x512xf16>, %arg2: tensor<16x512x128xf16>, %arg3: tensor<16x512x128xf16>) -> tensor<16x1x128xf16> {
  %0 = tk.transpose %arg2 [0, 2, 1] : tensor<16x512x128xf16> -> tensor<16x128x512xf16>
  %1 = tk.transpose %arg1 [1, 0] : tensor<4096x512xf16> -> tensor<512x4096xf16>
  %2 = tk.fused grid [16, 8, 1] block [128, 1, 1] forloop 1 (%arg4 = %arg0 : tensor<16x1x128xf16>, %arg5 = %0 : tensor<16x128x512xf16>) -> tensor<16x1x512xf16> {
    %8 = tb.input_iterator %arg4 imap [0, -1, -1] fmap -1 : tensor<16x1x128xf16> -> !tb.tile<1x1x128xf16>
    %9 = tb.input_iterator %arg5 imap [0, 2, -1] fmap -1 : tensor<16x128x512xf16> -> !tb.tile<1x128x64xf16>
    %10 = tb.matmul %8, %9 : !tb.tile<1x1x128xf16>, !tb.tile<1x128x64xf16> -> !tb.tile<1x1x64xf16>
    %11 = tb.forloop_accum none %10 : (!tb.tile<1x1x64xf16>) -> !tb.tile<1x1x64xf16>
    %12 = tb.output_saver %11 omap [0, 2, -1] : !tb.tile<1x1x64xf16> -> tensor<16x1x512xf16>
    tb.yield %12 : tensor<16x1x512xf16>
  }
  %3 = tk.reshape %2 : tensor<16x1x512xf16> -> tensor<16x512xf16>
  %4:3 = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 1 (%arg4 = %arg1 : tensor<4096x512xf16>, %arg5 = %3 : tensor<16x512xf16>, %arg6 = %1 : tensor<512x4096xf16>) -> (tensor<16x64xf16>, tensor<1024x512xf16>, tensor<16x64xf16>) {
    %8 = tb.input_iterator %arg4 imap [0, -1, -1] fmap -1 : tensor<4096x512xf16> -> !tb.tile<64x512xf16>
    %9 = tb.input_iterator %arg5 imap [-1, -1, -1] fmap -1 : tensor<16x512xf16> -> !tb.tile<16x512xf16>
    %10 = tb.input_iterator %arg6 imap [1, -1, -1] fmap -1 : tensor<512x4096xf16> -> !tb.tile<512x64xf16>
    %11 = tb.matmul %9, %10 : !tb.tile<16x512xf16>, !tb.tile<512x64xf16> -> !tb.tile<16x64xf16>
    %12 = tb.reduce max %11 dim 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
    %13 = tb.binary sub %11, %12 : !tb.tile<16x64xf16>, !tb.tile<16x1xf16> -> !tb.tile<16x64xf16>
    %14 = tb.forloop_accum none %12 : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %15 = tb.unary exp %13 : !tb.tile<16x64xf16>
    %16 = tb.matmul %15, %8 : !tb.tile<16x64xf16>, !tb.tile<64x512xf16> -> !tb.tile<16x512xf16>
    %17 = tb.reduce sum %15 dim 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
    %18 = tb.forloop_accum none %16 : (!tb.tile<16x512xf16>) -> !tb.tile<16x512xf16>
    %19 = tb.forloop_accum none %17 : (!tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %20 = tb.output_saver %14 omap [1, -1, -1] : !tb.tile<16x1xf16> -> tensor<16x64xf16>
    %21 = tb.output_saver %18 omap [0, -1, -1] : !tb.tile<16x512xf16> -> tensor<1024x512xf16>
    %22 = tb.output_saver %19 omap [1, -1, -1] : !tb.tile<16x1xf16> -> tensor<16x64xf16>
    tb.yield %20, %21, %22 : tensor<16x64xf16>, tensor<1024x512xf16>, tensor<16x64xf16>
  }
  %5 = tk.fused grid [32, 1, 1] block [128, 1, 1] forloop 64 (%arg4 = %4#0 : tensor<16x64xf16>, %arg5 = %4#1 : tensor<1024x512xf16>, %arg6 = %4#2 : tensor<16x64xf16>) -> tensor<16x512xf16> {
    %8 = tb.input_iterator %arg4 imap [-1, -1, -1] fmap 1 : tensor<16x64xf16> -> !tb.tile<16x1xf16>
    %9 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 0 : tensor<1024x512xf16> -> !tb.tile<16x16xf16>
    %10 = tb.input_iterator %arg6 imap [-1, -1, -1] fmap 1 : tensor<16x64xf16> -> !tb.tile<16x1xf16>
    %11 = tb.forloop_accum sum_rescale %9, %8 : (!tb.tile<16x16xf16>, !tb.tile<16x1xf16>) -> !tb.tile<16x16xf16>
    %12 = tb.forloop_accum sum_rescale %10, %8 : (!tb.tile<16x1xf16>, !tb.tile<16x1xf16>) -> !tb.tile<16x1xf16>
    %13 = tb.binary div %11, %12 : !tb.tile<16x16xf16>, !tb.tile<16x1xf16> -> !tb.tile<16x16xf16>
    %14 = tb.output_saver %13 omap [1, -1, -1] : !tb.tile<16x16xf16> -> tensor<16x512xf16>
    tb.yield %14 : tensor<16x512xf16>
  }
  %6 = tk.reshape %5 : tensor<16x512xf16> -> tensor<16x1x512xf16>
  %7 = tk.fused grid [16, 8, 1] block [128, 1, 1] forloop 1 (%arg4 = %arg3 : tensor<16x512x128xf16>, %arg5 = %6 : tensor<16x1x512xf16>) -> tensor<16x1x128xf16> {
    %8 = tb.input_iterator %arg4 imap [0, 2, -1] fmap -1 : tensor<16x512x128xf16> -> !tb.tile<1x512x16xf16>
    %9 = tb.input_iterator %arg5 imap [0, -1, -1] fmap -1 : tensor<16x1x512xf16> -> !tb.tile<1x1x512xf16>
    %10 = tb.matmul %9, %8 : !tb.tile<1x1x512xf16>, !tb.tile<1x512x16xf16> -> !tb.tile<1x1x16xf16>
    %11 = tb.forloop_accum none %10 : (!tb.tile<1x1x16xf16>) -> !tb.tile<1x1x16xf16>
    %12 = tb.output_saver %11 omap [0, 2, -1] : !tb.tile<1x1x16xf16> -> tensor<16x1x128xf16>
    tb.yield %12 : tensor<16x1x128xf16>
  }
  return %7 : tensor<16x1x128xf16>
}
