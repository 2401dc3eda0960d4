// gated_mlp with 12 rows and a hidden size of 3072, a shape the search was
// not tuned for (test/Superopt/generality.mlir), as tileopt-superoptimize
// {threads=2} finds it with its candidates compiled (2026-12-04): one
// kernel, 96 blocks of 32 columns of W1 and W3, whose loop walks the hidden
// dim in 6 steps of 512 (powers of two: 16 steps would give chunks of 192).
func.func @gated_mlp_12x3072(%arg0: tensor<12x3072xf16>, %arg1: tensor<3072x3072xf16>, %arg2: tensor<3072x3072xf16>) -> tensor<12x3072xf16> {
  %0 = tk.fused grid [96, 1, 1] block [128, 1, 1] forloop 6 (%arg3 = %arg0 : tensor<12x3072xf16>, %arg4 = %arg1 : tensor<3072x3072xf16>, %arg5 = %arg2 : tensor<3072x3072xf16>) -> tensor<12x3072xf16> {
    %1 = tb.input_iterator %arg3 imap [-1, -1, -1] fmap 1 : tensor<12x3072xf16> -> !tb.tile<12x512xf16>
    %2 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 0 : tensor<3072x3072xf16> -> !tb.tile<512x32xf16>
    %3 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 0 : tensor<3072x3072xf16> -> !tb.tile<512x32xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<12x512xf16>, !tb.tile<512x32xf16> -> !tb.tile<12x32xf16>
    %5 = tb.matmul %1, %3 : !tb.tile<12x512xf16>, !tb.tile<512x32xf16> -> !tb.tile<12x32xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<12x32xf16>) -> !tb.tile<12x32xf16>
    %7 = tb.forloop_accum sum %5 : (!tb.tile<12x32xf16>) -> !tb.tile<12x32xf16>
    %8 = tb.unary silu %6 : !tb.tile<12x32xf16>
    %9 = tb.binary mul %7, %8 : !tb.tile<12x32xf16>, !tb.tile<12x32xf16> -> !tb.tile<12x32xf16>
    %10 = tb.output_saver %9 omap [1, -1, -1] : !tb.tile<12x32xf16> -> tensor<12x3072xf16>
    tb.yield %10 : tensor<12x3072xf16>
  }
  return %0 : tensor<12x3072xf16>
}
