// rmsnorm_linear with 7 rows, a hidden size of 1536 and 2560 outputs, a shape
// the search was not tuned for, as tileopt-superoptimize{threads=2} finds it
// with its candidates compiled (2026-12-04): Mirage's one kernel, 80 blocks
// of 32 columns of W whose loop walks the hidden dim in 6 steps of 256,
// accumulating X W and the mean of X's squares side by side, then dividing
// by the root after the loop; the 7 rows are padded to 16 for the mma.
// The epsilon is the benchmark workloads' (bench/tile/bench.py's reference).
func.func @rmsnorm_linear_7x1536(%arg0: tensor<7x1536xf16>, %arg1: tensor<1536x2560xf16>) -> tensor<7x2560xf16> {
  %0 = tk.fused grid [80, 1, 1] block [128, 1, 1] forloop 6 (%arg2 = %arg0 : tensor<7x1536xf16>, %arg3 = %arg1 : tensor<1536x2560xf16>) -> tensor<7x2560xf16> {
    %1 = tb.input_iterator %arg2 imap [-1, -1, -1] fmap 1 : tensor<7x1536xf16> -> !tb.tile<7x256xf16>
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 0 : tensor<1536x2560xf16> -> !tb.tile<256x32xf16>
    %3 = tb.unary square %1 : !tb.tile<7x256xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<7x256xf16>, !tb.tile<256x32xf16> -> !tb.tile<7x32xf16>
    %5 = tb.reduce mean %3 dim 1 : !tb.tile<7x256xf16> -> !tb.tile<7x1xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<7x32xf16>) -> !tb.tile<7x32xf16>
    %7 = tb.forloop_accum mean %5 : (!tb.tile<7x1xf16>) -> !tb.tile<7x1xf16>
    %8 = tb.unary add_scalar(1.00135803E-5) %7 : !tb.tile<7x1xf16>
    %9 = tb.unary sqrt %8 : !tb.tile<7x1xf16>
    %10 = tb.binary div %6, %9 : !tb.tile<7x32xf16>, !tb.tile<7x1xf16> -> !tb.tile<7x32xf16>
    %11 = tb.output_saver %10 omap [1, -1, -1] : !tb.tile<7x32xf16> -> tensor<7x2560xf16>
    tb.yield %11 : tensor<7x2560xf16>
  }
  return %0 : tensor<7x2560xf16>
}
