// rmsnorm_linear (BENCHMARKS.md) at b=1 as the superoptimizer finds it:
// examples/linalg/rmsnorm_linear.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2} (2026-12-04). Each block owns 64 columns
// of W, walks the hidden dim in 16 steps of 256 and accumulates the mean of
// x^2 beside X @ W, then adds eps once after the loop (adding it every step
// is priced the same; the search takes the form that does less work). X's
// 2 rows are padded to 16, one m16 tile, for 1x4 warps. 96 blocks of 64
// columns, not 192 of 32: the threads load W's tiles into registers, and
// 64-byte rows take as many lines as 128-byte ones (16.4 against 20.9 us on
// the H200, docs/performance.md).
func.func @rmsnorm_linear(%arg0: tensor<2x4096xf16>, %arg1: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %0 = tk.fused grid [96, 1, 1] block [128, 1, 1] forloop 16 (%arg2 = %arg0 : tensor<2x4096xf16>, %arg3 = %arg1 : tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
    %1 = tb.input_iterator %arg2 imap [-1, -1, -1] fmap 1 : tensor<2x4096xf16> -> !tb.tile<2x256xf16>
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 0 : tensor<4096x6144xf16> -> !tb.tile<256x64xf16>
    %3 = tb.unary square %1 : !tb.tile<2x256xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<2x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<2x64xf16>
    %5 = tb.reduce mean %3 dim 1 : !tb.tile<2x256xf16> -> !tb.tile<2x1xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<2x64xf16>) -> !tb.tile<2x64xf16>
    %7 = tb.forloop_accum mean %5 : (!tb.tile<2x1xf16>) -> !tb.tile<2x1xf16>
    %8 = tb.unary add_scalar(1.00135803E-5) %7 : !tb.tile<2x1xf16>
    %9 = tb.unary sqrt %8 : !tb.tile<2x1xf16>
    %10 = tb.binary div %6, %9 : !tb.tile<2x64xf16>, !tb.tile<2x1xf16> -> !tb.tile<2x64xf16>
    %11 = tb.output_saver %10 omap [1, -1, -1] : !tb.tile<2x64xf16> -> tensor<2x6144xf16>
    tb.yield %11 : tensor<2x6144xf16>
  }
  return %0 : tensor<2x6144xf16>
}
