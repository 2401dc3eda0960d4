// gated_mlp (BENCHMARKS.md) at b=1 as the superoptimizer finds it:
// examples/linalg/gated_mlp.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2} (2026-12-04). One kernel: each block
// owns 64 columns of W1 and W2 and walks the hidden dim in 16 steps of 256;
// silu and the product follow the loop. X, W1 and W2 feed the products
// alone, so the code generator copies all three through one cp.async ring
// (3 stages of 72 KiB) and the cost model prices the kernel by its bytes:
// 64 blocks of 64 columns, a little under 128 of 32 (17.8 against 18.4 us
// on the H200, docs/performance.md; 22.2 when the loop went through
// registers). X's 8 rows are padded to 16, one m16 tile, for 1x4 warps.
func.func @gated_mlp(%arg0: tensor<8x4096xf16>, %arg1: tensor<4096x4096xf16>, %arg2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %0 = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 16 (%arg3 = %arg0 : tensor<8x4096xf16>, %arg4 = %arg1 : tensor<4096x4096xf16>, %arg5 = %arg2 : tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
    %1 = tb.input_iterator %arg3 imap [-1, -1, -1] fmap 1 : tensor<8x4096xf16> -> !tb.tile<8x256xf16>
    %2 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x64xf16>
    %3 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x64xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %5 = tb.matmul %1, %3 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %7 = tb.forloop_accum sum %5 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %8 = tb.unary silu %6 : !tb.tile<8x64xf16>
    %9 = tb.binary mul %7, %8 : !tb.tile<8x64xf16>, !tb.tile<8x64xf16> -> !tb.tile<8x64xf16>
    %10 = tb.output_saver %9 omap [1, -1, -1] : !tb.tile<8x64xf16> -> tensor<8x4096xf16>
    tb.yield %10 : tensor<8x4096xf16>
  }
  return %0 : tensor<8x4096xf16>
}
