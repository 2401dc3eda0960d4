// ntrans (BENCHMARKS.md) at b=1 as one kernel, as
// tileopt-superoptimize{threads=2 grid-reductions=true} finds it
// (2026-12-04): 64 blocks each own 64 columns of W and walk the hidden dim in
// 16 steps of 256; both rms_norms reduce over all 4096 columns, so each is
// grid-wide (`across 0`): the blocks add up their rows' sums of squares
// through a grid barrier. Correct on the H200, but 17.7 us against 13.2 for
// the two-kernel form (examples/ugraph/ntrans.mlir) in the same call: each
// barrier costs about 2.2 us, more than the launch it saves, so the option
// is off by default (docs/superoptimizer.md).
func.func @ntrans(%arg0: tensor<8x4096xf16>, %arg1: tensor<8x4096xf16>, %arg2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %0 = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 16 (%arg3 = %arg0 : tensor<8x4096xf16>, %arg4 = %arg1 : tensor<8x4096xf16>, %arg5 = %arg2 : tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
    %1 = tb.input_iterator %arg3 imap [1, -1, -1] fmap -1 : tensor<8x4096xf16> -> !tb.tile<8x64xf16>
    %2 = tb.input_iterator %arg4 imap [-1, -1, -1] fmap 1 : tensor<8x4096xf16> -> !tb.tile<8x256xf16>
    %3 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x64xf16>
    %4 = tb.matmul %2, %3 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %5 = tb.forloop_accum sum %4 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %6 = tb.rms_norm %5 across 0 {epsilon = 1.00135803E-5 : f32} : !tb.tile<8x64xf16>
    %7 = tb.binary add %1, %6 : !tb.tile<8x64xf16>, !tb.tile<8x64xf16> -> !tb.tile<8x64xf16>
    %8 = tb.rms_norm %7 across 0 {epsilon = 1.00135803E-5 : f32} : !tb.tile<8x64xf16>
    %9 = tb.output_saver %8 omap [1, -1, -1] : !tb.tile<8x64xf16> -> tensor<8x4096xf16>
    tb.yield %9 : tensor<8x4096xf16>
  }
  return %0 : tensor<8x4096xf16>
}
