// lora (BENCHMARKS.md) at b=1 as the superoptimizer finds it:
// examples/linalg/lora.mlir through tileopt-import-linalg and
// tileopt-superoptimize{threads=2 print-top=8} (2026-12-03): one kernel
// over X, W, A and B, each block owning 32 columns of W and B, priced
// 2.65 us (bound by shared memory). Mirage's looped form (@lora_looped
// below) is verified too, but its loop steps price it higher: the best
// looped candidate (4 steps, 3.80 us) ranks 33rd.
//
// @lora: no loop; each block multiplies all of X by its 256x32 tile of W,
// and X A by its 16x32 tile of B. X is padded to 32 rows for the 16
// columns of X A. X W + X (A B), which pads X to 16 rows only, ranks 5th
// (2.68 us): the mma stores the 256x32 A B tile it multiplies into shared
// memory.
func.func @lora(%arg0: tensor<16x256xf16>, %arg1: tensor<256x4096xf16>, %arg2: tensor<256x16xf16>, %arg3: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %0 = tk.fused grid [128, 1, 1] block [128, 1, 1] forloop 1 (%arg4 = %arg0 : tensor<16x256xf16>, %arg5 = %arg1 : tensor<256x4096xf16>, %arg6 = %arg2 : tensor<256x16xf16>, %arg7 = %arg3 : tensor<16x4096xf16>) -> tensor<16x4096xf16> {
    %1 = tb.input_iterator %arg4 imap [-1, -1, -1] fmap -1 : tensor<16x256xf16> -> !tb.tile<16x256xf16>
    %2 = tb.input_iterator %arg5 imap [1, -1, -1] fmap -1 : tensor<256x4096xf16> -> !tb.tile<256x32xf16>
    %3 = tb.input_iterator %arg6 imap [-1, -1, -1] fmap -1 : tensor<256x16xf16> -> !tb.tile<256x16xf16>
    %4 = tb.input_iterator %arg7 imap [1, -1, -1] fmap -1 : tensor<16x4096xf16> -> !tb.tile<16x32xf16>
    %5 = tb.matmul %1, %2 : !tb.tile<16x256xf16>, !tb.tile<256x32xf16> -> !tb.tile<16x32xf16>
    %6 = tb.matmul %1, %3 : !tb.tile<16x256xf16>, !tb.tile<256x16xf16> -> !tb.tile<16x16xf16>
    %7 = tb.matmul %6, %4 : !tb.tile<16x16xf16>, !tb.tile<16x32xf16> -> !tb.tile<16x32xf16>
    %8 = tb.binary add %5, %7 : !tb.tile<16x32xf16>, !tb.tile<16x32xf16> -> !tb.tile<16x32xf16>
    %9 = tb.forloop_accum none %8 : (!tb.tile<16x32xf16>) -> !tb.tile<16x32xf16>
    %10 = tb.output_saver %9 omap [1, -1, -1] : !tb.tile<16x32xf16> -> tensor<16x4096xf16>
    tb.yield %10 : tensor<16x4096xf16>
  }
  return %0 : tensor<16x4096xf16>
}

// @lora_looped: Mirage's form. The loop walks K in 16 steps, accumulating
// X W and X A; after it, the block multiplies the accumulated X A by its
// tile of B, which the loop does not walk (fmap -1: loaded once), and adds
// X W.
func.func @lora_looped(%arg0: tensor<16x256xf16>, %arg1: tensor<256x4096xf16>, %arg2: tensor<256x16xf16>, %arg3: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %0 = tk.fused grid [128, 1, 1] block [128, 1, 1] forloop 16 (%arg4 = %arg0 : tensor<16x256xf16>, %arg5 = %arg1 : tensor<256x4096xf16>, %arg6 = %arg2 : tensor<256x16xf16>, %arg7 = %arg3 : tensor<16x4096xf16>) -> tensor<16x4096xf16> {
    %1 = tb.input_iterator %arg4 imap [-1, -1, -1] fmap 1 : tensor<16x256xf16> -> !tb.tile<16x16xf16>
    %2 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 0 : tensor<256x4096xf16> -> !tb.tile<16x32xf16>
    %3 = tb.input_iterator %arg6 imap [-1, -1, -1] fmap 0 : tensor<256x16xf16> -> !tb.tile<16x16xf16>
    %4 = tb.input_iterator %arg7 imap [1, -1, -1] fmap -1 : tensor<16x4096xf16> -> !tb.tile<16x32xf16>
    %5 = tb.matmul %1, %2 : !tb.tile<16x16xf16>, !tb.tile<16x32xf16> -> !tb.tile<16x32xf16>
    %6 = tb.matmul %1, %3 : !tb.tile<16x16xf16>, !tb.tile<16x16xf16> -> !tb.tile<16x16xf16>
    %7 = tb.forloop_accum sum %5 : (!tb.tile<16x32xf16>) -> !tb.tile<16x32xf16>
    %8 = tb.forloop_accum sum %6 : (!tb.tile<16x16xf16>) -> !tb.tile<16x16xf16>
    %9 = tb.matmul %8, %4 : !tb.tile<16x16xf16>, !tb.tile<16x32xf16> -> !tb.tile<16x32xf16>
    %10 = tb.binary add %7, %9 : !tb.tile<16x32xf16>, !tb.tile<16x32xf16> -> !tb.tile<16x32xf16>
    %11 = tb.output_saver %10 omap [1, -1, -1] : !tb.tile<16x32xf16> -> tensor<16x4096xf16>
    tb.yield %11 : tensor<16x4096xf16>
  }
  return %0 : tensor<16x4096xf16>
}
