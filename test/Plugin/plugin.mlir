// The stock mlir-opt of the LLVM installation loads TileOpt's dialects and
// passes from the plugin, parses a tk.fused op holding a block graph (with a
// thread graph inside), prints it, and parses its own output again.
// RUN: %stock_mlir_opt --load-dialect-plugin=%tileopt_plugin %s \
// RUN:   | %stock_mlir_opt --load-dialect-plugin=%tileopt_plugin \
// RUN:   | FileCheck %s
// RUN: %stock_mlir_opt --load-dialect-plugin=%tileopt_plugin %s \
// RUN:   -mlir-print-op-generic \
// RUN:   | %stock_mlir_opt --load-dialect-plugin=%tileopt_plugin \
// RUN:   | FileCheck %s
// Passes come from the pass plugin; mlir-opt only knows plugin passes by
// the time it parses --pass-pipeline.
// RUN: %stock_mlir_opt --load-dialect-plugin=%tileopt_plugin \
// RUN:   --load-pass-plugin=%tileopt_plugin %s \
// RUN:   --pass-pipeline='builtin.module(tileopt-fuse-thread-graphs)' \
// RUN:   | FileCheck %s --check-prefix=FUSED

// CHECK-LABEL: func.func @attention_block
// CHECK: tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 16
// CHECK-SAME: (%[[Q:.*]] = %{{.*}} : tensor<64x64xf16>, %[[K:.*]] = %{{.*}} : tensor<64x4096xf16>)
// CHECK: tb.input_iterator %[[Q]] imap [0, -1, -1] fmap -1
// CHECK: tb.input_iterator %[[K]] imap [-1, -1, -1] fmap 1
// CHECK: tb.matmul
// CHECK: th.graph
// CHECK: math.exp
// CHECK: th.yield
// CHECK: tb.forloop_accum sum
// CHECK: tb.output_saver {{.*}} omap [0, -1, -1]
// CHECK: tb.yield

// FUSED-LABEL: func.func @attention_block
// FUSED: th.graph
// FUSED-SAME: -> !tb.tile<1x256xf32>
// FUSED: math.exp
// FUSED: arith.mulf
// FUSED: th.yield
// FUSED-NOT: tb.unary
func.func @attention_block(%Q: tensor<64x64xf16>, %K: tensor<64x4096xf16>)
    -> tensor<64x256xf32> {
  %S = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 16
         (%q = %Q : tensor<64x64xf16>, %k = %K : tensor<64x4096xf16>)
         -> tensor<64x256xf32> {
    %qt = tb.input_iterator %q imap [0, -1, -1] fmap -1
            : tensor<64x64xf16> -> !tb.tile<1x64xf16>
    %kt = tb.input_iterator %k imap [-1, -1, -1] fmap 1
            : tensor<64x4096xf16> -> !tb.tile<64x256xf16>
    %s = tb.matmul %qt, %kt
           : !tb.tile<1x64xf16>, !tb.tile<64x256xf16> -> !tb.tile<1x256xf16>
    %e = th.graph (%x = %s : !tb.tile<1x256xf16>) -> !tb.tile<1x256xf32> {
      %w = arith.extf %x : f16 to f32
      %y = math.exp %w : f32
      th.yield %y : f32
    }
    %scaled = tb.unary mul_scalar(1.250000e-01) %e : !tb.tile<1x256xf32>
    %sq = tb.unary exp %scaled : !tb.tile<1x256xf32>
    %acc = tb.forloop_accum sum %sq
             : (!tb.tile<1x256xf32>) -> !tb.tile<1x256xf32>
    %out = tb.output_saver %acc omap [0, -1, -1]
             : !tb.tile<1x256xf32> -> tensor<64x256xf32>
    tb.yield %out : tensor<64x256xf32>
  }
  return %S : tensor<64x256xf32>
}
