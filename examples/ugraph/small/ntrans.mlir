// examples/ugraph/ntrans.mlir at a small size (X 8x256, Y 8x1024, W 1024x256), for
// the device run's interpreter check and compute-sanitizer.
func.func @ntrans(%X: tensor<8x256xf16>, %Y: tensor<8x1024xf16>, %W: tensor<1024x256xf16>) -> tensor<8x256xf16> {
  %0 = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 4 (%y = %Y : tensor<8x1024xf16>, %w = %W : tensor<1024x256xf16>) -> tensor<8x256xf16> {
    %2 = tb.input_iterator %y imap [-1, -1, -1] fmap 1 : tensor<8x1024xf16> -> !tb.tile<8x256xf16>
    %3 = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<1024x256xf16> -> !tb.tile<256x64xf16>
    %4 = tb.matmul %2, %3 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %5 = tb.forloop_accum sum %4 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %6 = tb.output_saver %5 omap [1, -1, -1] : !tb.tile<8x64xf16> -> tensor<8x256xf16>
    tb.yield %6 : tensor<8x256xf16>
  }
  %1 = tk.fused grid [8, 1, 1] block [128, 1, 1] forloop 1 (%x = %X : tensor<8x256xf16>, %d = %0 : tensor<8x256xf16>) -> tensor<8x256xf16> {
    %2 = tb.input_iterator %x imap [0, -1, -1] fmap -1 : tensor<8x256xf16> -> !tb.tile<1x256xf16>
    %3 = tb.input_iterator %d imap [0, -1, -1] fmap -1 : tensor<8x256xf16> -> !tb.tile<1x256xf16>
    %4 = tb.rms_norm %3 {epsilon = 1.00135803E-5 : f32} : !tb.tile<1x256xf16>
    %5 = tb.binary add %2, %4 : !tb.tile<1x256xf16>, !tb.tile<1x256xf16> -> !tb.tile<1x256xf16>
    %6 = tb.rms_norm %5 {epsilon = 1.00135803E-5 : f32} : !tb.tile<1x256xf16>
    %7 = tb.forloop_accum none %6 : (!tb.tile<1x256xf16>) -> !tb.tile<1x256xf16>
    %8 = tb.output_saver %7 omap [0, -1, -1] : !tb.tile<1x256xf16> -> tensor<8x256xf16>
    tb.yield %8 : tensor<8x256xf16>
  }
  return %1 : tensor<8x256xf16>
}
