// examples/ugraph/gated_mlp.mlir at a small size (X 8x1024, W 1024x128): the
// device run checks it against the tile interpreter and runs it under
// compute-sanitizer (scripts/prepare-device-run.sh). Its reference inputs
// are scaled to (0, 0.5]: from (0, 1] the two 1024-term products multiply to
// about 6.6e4, past the f16 range (65504).
// interp-reference: --scale 0.5
func.func @gated_mlp(%X: tensor<8x1024xf16>, %W1: tensor<1024x128xf16>, %W2: tensor<1024x128xf16>) -> tensor<8x128xf16> {
  %0 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<8x1024xf16>, %w1 = %W1 : tensor<1024x128xf16>, %w2 = %W2 : tensor<1024x128xf16>) -> tensor<8x128xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<8x1024xf16> -> !tb.tile<8x256xf16>
    %2 = tb.input_iterator %w1 imap [1, -1, -1] fmap 0 : tensor<1024x128xf16> -> !tb.tile<256x64xf16>
    %3 = tb.input_iterator %w2 imap [1, -1, -1] fmap 0 : tensor<1024x128xf16> -> !tb.tile<256x64xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %5 = tb.matmul %1, %3 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %7 = tb.forloop_accum sum %5 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %8 = tb.unary silu %6 : !tb.tile<8x64xf16>
    %9 = tb.binary mul %7, %8 : !tb.tile<8x64xf16>, !tb.tile<8x64xf16> -> !tb.tile<8x64xf16>
    %10 = tb.output_saver %9 omap [1, -1, -1] : !tb.tile<8x64xf16> -> tensor<8x128xf16>
    tb.yield %10 : tensor<8x128xf16>
  }
  return %0 : tensor<8x128xf16>
}
