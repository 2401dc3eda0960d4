// The bundled fused RMSNorm+Linear µGraph against its definition,
// rms_norm then matmul: equivalent. The fused kernel divides by the rms of
// the whole row after the loop; dividing per iteration instead is wrong.
// RUN: cat %S/../../examples/ugraph/rmsnorm_linear.mlir %s > %t.mlir
// RUN: tileopt-interp %t.mlir --function=rmsnorm_linear --equivalent-to=reference | FileCheck %s --check-prefix=EQ
// RUN: tileopt-interp %t.mlir --function=rmsnorm_linear_early_div --equivalent-to=reference | FileCheck %s --check-prefix=NE

// EQ: @rmsnorm_linear and @reference are equivalent: false-accept bound {{.*}} after {{[0-9]+}} field trial(s)
// NE: @rmsnorm_linear_early_div and @reference are not equivalent: field trial 0: result #0 differs at

func.func @reference(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>)
    -> tensor<16x6144xf16> {
  %n = tk.rms_norm %X : tensor<16x4096xf16>
  %y = tk.matmul %n, %W : tensor<16x4096xf16>, tensor<4096x6144xf16>
         -> tensor<16x6144xf16>
  return %y : tensor<16x6144xf16>
}

// Normalizes each 64-wide slice by its own rms.
func.func @rmsnorm_linear_early_div(%X: tensor<16x4096xf16>,
                                    %W: tensor<4096x6144xf16>)
    -> tensor<16x6144xf16> {
  %Y = tk.fused grid [48, 1, 1] block [128, 1, 1] forloop 64
         (%x = %X : tensor<16x4096xf16>, %w = %W : tensor<4096x6144xf16>)
         -> tensor<16x6144xf16> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x4096xf16> -> !tb.tile<16x64xf16>
    %wt = tb.input_iterator %w imap [1, -1, -1] fmap 0
            : tensor<4096x6144xf16> -> !tb.tile<64x128xf16>
    %n = tb.rms_norm %xt : !tb.tile<16x64xf16>
    %xw = tb.matmul %n, %wt
            : !tb.tile<16x64xf16>, !tb.tile<64x128xf16> -> !tb.tile<16x128xf16>
    %acc = tb.forloop_accum sum %xw
             : (!tb.tile<16x128xf16>) -> !tb.tile<16x128xf16>
    %out = tb.output_saver %acc omap [1, -1, -1]
             : !tb.tile<16x128xf16> -> tensor<16x6144xf16>
    tb.yield %out : tensor<16x6144xf16>
  }
  return %Y : tensor<16x6144xf16>
}
