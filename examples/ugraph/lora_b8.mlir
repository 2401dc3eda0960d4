// lora (BENCHMARKS.md) at b=8, X (128, 256), as the superoptimizer
// finds it: examples/linalg/lora_b8.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2} (2026-12-04).
// One kernel over X, W, A and B: 128 blocks, each owning 64 rows of X
// and 64 columns of W and B, no loop. 4.4 us on the H200 against
// torch.compile's 7.6.
func.func @lora(%arg0: tensor<128x256xf16>, %arg1: tensor<256x4096xf16>, %arg2: tensor<256x16xf16>, %arg3: tensor<16x4096xf16>) -> tensor<128x4096xf16> {
  %0 = tk.fused grid [2, 64, 1] block [128, 1, 1] forloop 1 (%arg4 = %arg0 : tensor<128x256xf16>, %arg5 = %arg1 : tensor<256x4096xf16>, %arg6 = %arg2 : tensor<256x16xf16>, %arg7 = %arg3 : tensor<16x4096xf16>) -> tensor<128x4096xf16> {
    %1 = tb.input_iterator %arg4 imap [0, -1, -1] fmap -1 : tensor<128x256xf16> -> !tb.tile<64x256xf16>
    %2 = tb.input_iterator %arg5 imap [-1, 1, -1] fmap -1 : tensor<256x4096xf16> -> !tb.tile<256x64xf16>
    %3 = tb.input_iterator %arg6 imap [-1, -1, -1] fmap -1 : tensor<256x16xf16> -> !tb.tile<256x16xf16>
    %4 = tb.input_iterator %arg7 imap [-1, 1, -1] fmap -1 : tensor<16x4096xf16> -> !tb.tile<16x64xf16>
    %5 = tb.matmul %1, %2 : !tb.tile<64x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<64x64xf16>
    %6 = tb.matmul %1, %3 : !tb.tile<64x256xf16>, !tb.tile<256x16xf16> -> !tb.tile<64x16xf16>
    %7 = tb.matmul %6, %4 : !tb.tile<64x16xf16>, !tb.tile<16x64xf16> -> !tb.tile<64x64xf16>
    %8 = tb.binary add %5, %7 : !tb.tile<64x64xf16>, !tb.tile<64x64xf16> -> !tb.tile<64x64xf16>
    %9 = tb.forloop_accum none %8 : (!tb.tile<64x64xf16>) -> !tb.tile<64x64xf16>
    %10 = tb.output_saver %9 omap [0, 1, -1] : !tb.tile<64x64xf16> -> tensor<128x4096xf16>
    tb.yield %10 : tensor<128x4096xf16>
  }
  return %0 : tensor<128x4096xf16>
}
