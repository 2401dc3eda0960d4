// examples/ugraph/ntrans_one_kernel.mlir at a small size (X 8x256, Y 8x1024,
// W 1024x256, 4 blocks of 64 columns), for the device run's interpreter
// check and compute-sanitizer.
func.func @ntrans(%X: tensor<8x256xf16>, %Y: tensor<8x1024xf16>, %W: tensor<1024x256xf16>) -> tensor<8x256xf16> {
  %0 = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<8x256xf16>, %y = %Y : tensor<8x1024xf16>, %w = %W : tensor<1024x256xf16>) -> tensor<8x256xf16> {
    %1 = tb.input_iterator %x imap [1, -1, -1] fmap -1 : tensor<8x256xf16> -> !tb.tile<8x64xf16>
    %2 = tb.input_iterator %y imap [-1, -1, -1] fmap 1 : tensor<8x1024xf16> -> !tb.tile<8x256xf16>
    %3 = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<1024x256xf16> -> !tb.tile<256x64xf16>
    %4 = tb.matmul %2, %3 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %5 = tb.forloop_accum sum %4 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %6 = tb.rms_norm %5 across 0 {epsilon = 1.00135803E-5 : f32} : !tb.tile<8x64xf16>
    %7 = tb.binary add %1, %6 : !tb.tile<8x64xf16>, !tb.tile<8x64xf16> -> !tb.tile<8x64xf16>
    %8 = tb.rms_norm %7 across 0 {epsilon = 1.00135803E-5 : f32} : !tb.tile<8x64xf16>
    %9 = tb.output_saver %8 omap [1, -1, -1] : !tb.tile<8x64xf16> -> tensor<8x256xf16>
    tb.yield %9 : tensor<8x256xf16>
  }
  return %0 : tensor<8x256xf16>
}
