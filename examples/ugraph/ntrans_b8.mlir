// ntrans (BENCHMARKS.md) at b=8, X, Y (64, 4096), as the superoptimizer
// finds it: examples/linalg/ntrans_b8.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2} (2026-12-04).
// Two kernels: the product, 128 blocks of 32 columns of W in 16 steps of
// 256; then both rms_norms and the residual add, a block per row (64
// blocks of 1x4096 tiles: 16 rows of 4096 would not fit in shared memory
// next to each other). 18.4 us on the H200 against torch.compile's 11.1:
// slower, see docs/performance.md.
func.func @ntrans(%arg0: tensor<64x4096xf16>, %arg1: tensor<64x4096xf16>, %arg2: tensor<4096x4096xf16>) -> tensor<64x4096xf16> {
  %0 = tk.fused grid [128, 1, 1] block [128, 1, 1] forloop 16 (%arg3 = %arg1 : tensor<64x4096xf16>, %arg4 = %arg2 : tensor<4096x4096xf16>) -> tensor<64x4096xf16> {
    %2 = tb.input_iterator %arg3 imap [-1, -1, -1] fmap 1 : tensor<64x4096xf16> -> !tb.tile<64x256xf16>
    %3 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x32xf16>
    %4 = tb.matmul %2, %3 : !tb.tile<64x256xf16>, !tb.tile<256x32xf16> -> !tb.tile<64x32xf16>
    %5 = tb.forloop_accum sum %4 : (!tb.tile<64x32xf16>) -> !tb.tile<64x32xf16>
    %6 = tb.output_saver %5 omap [1, -1, -1] : !tb.tile<64x32xf16> -> tensor<64x4096xf16>
    tb.yield %6 : tensor<64x4096xf16>
  }
  %1 = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 1 (%arg3 = %arg0 : tensor<64x4096xf16>, %arg4 = %0 : tensor<64x4096xf16>) -> tensor<64x4096xf16> {
    %2 = tb.input_iterator %arg3 imap [0, -1, -1] fmap -1 : tensor<64x4096xf16> -> !tb.tile<1x4096xf16>
    %3 = tb.input_iterator %arg4 imap [0, -1, -1] fmap -1 : tensor<64x4096xf16> -> !tb.tile<1x4096xf16>
    %4 = tb.rms_norm %3 {epsilon = 1.00135803E-5 : f32} : !tb.tile<1x4096xf16>
    %5 = tb.binary add %2, %4 : !tb.tile<1x4096xf16>, !tb.tile<1x4096xf16> -> !tb.tile<1x4096xf16>
    %6 = tb.rms_norm %5 {epsilon = 1.00135803E-5 : f32} : !tb.tile<1x4096xf16>
    %7 = tb.forloop_accum none %6 : (!tb.tile<1x4096xf16>) -> !tb.tile<1x4096xf16>
    %8 = tb.output_saver %7 omap [0, -1, -1] : !tb.tile<1x4096xf16> -> tensor<64x4096xf16>
    tb.yield %8 : tensor<64x4096xf16>
  }
  return %1 : tensor<64x4096xf16>
}
