// rmsnorm_linear (BENCHMARKS.md) at b=8, X (16, 4096), as the superoptimizer
// finds it: examples/linalg/rmsnorm_linear_b8.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2} (2026-12-04).
// Two kernels: the rms_norm of X, a block per row, then the product, 192
// blocks of 32 columns of W in 16 steps of 256. With X normalized first, X
// and W feed the product alone and go through the cp.async ring. 18.2 us
// on the H200 against torch.compile's 19.0.
func.func @rmsnorm_linear(%arg0: tensor<16x4096xf16>, %arg1: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %0 = tk.fused grid [16, 1, 1] block [128, 1, 1] forloop 1 (%arg2 = %arg0 : tensor<16x4096xf16>) -> tensor<16x4096xf16> {
    %2 = tb.input_iterator %arg2 imap [0, -1, -1] fmap -1 : tensor<16x4096xf16> -> !tb.tile<1x4096xf16>
    %3 = tb.rms_norm %2 {epsilon = 1.00135803E-5 : f32} : !tb.tile<1x4096xf16>
    %4 = tb.forloop_accum none %3 : (!tb.tile<1x4096xf16>) -> !tb.tile<1x4096xf16>
    %5 = tb.output_saver %4 omap [0, -1, -1] : !tb.tile<1x4096xf16> -> tensor<16x4096xf16>
    tb.yield %5 : tensor<16x4096xf16>
  }
  %1 = tk.fused grid [192, 1, 1] block [128, 1, 1] forloop 16 (%arg2 = %arg1 : tensor<4096x6144xf16>, %arg3 = %0 : tensor<16x4096xf16>) -> tensor<16x6144xf16> {
    %2 = tb.input_iterator %arg2 imap [1, -1, -1] fmap 0 : tensor<4096x6144xf16> -> !tb.tile<256x32xf16>
    %3 = tb.input_iterator %arg3 imap [-1, -1, -1] fmap 1 : tensor<16x4096xf16> -> !tb.tile<16x256xf16>
    %4 = tb.matmul %3, %2 : !tb.tile<16x256xf16>, !tb.tile<256x32xf16> -> !tb.tile<16x32xf16>
    %5 = tb.forloop_accum sum %4 : (!tb.tile<16x32xf16>) -> !tb.tile<16x32xf16>
    %6 = tb.output_saver %5 omap [1, -1, -1] : !tb.tile<16x32xf16> -> tensor<16x6144xf16>
    tb.yield %6 : tensor<16x6144xf16>
  }
  return %1 : tensor<16x6144xf16>
}
