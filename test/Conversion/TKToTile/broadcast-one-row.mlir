// A size-1 dim that an elementwise op broadcasts against a larger one is
// computed unpadded: padded (here the 1-row product b * b1 @ w, whose M
// mma.sync wants 16 rows of), its padding would be read as rows of their
// own, and every row but the first of the 32-row sum got the padding's
// 0 / 0 (seed 17's random program 2509, found by test/random/run.py).
// RUN: tileopt-opt %s --tileopt-lower-ugraph | FileCheck %s
// The tile program computes what the µGraph does:
// RUN: tileopt-interp %s --seed=5 | sed 1d > %t.ugraph
// RUN: tileopt-opt %s --tileopt-lower-ugraph | tileopt-interp --seed=5 \
// RUN:   | awk '/^# output #1 /{done = 1} NR > 1 && !done' > %t.tile
// RUN: diff %t.ugraph %t.tile
// RUN: FileCheck %s --check-prefix=VALUES --input-file=%t.tile
// VALUES-NOT: nan

// CHECK-LABEL: tile.kernel @one_row_k0
// CHECK:         %[[B1:.*]] = arith.extf {{.*}} : tensor<1x1xbf16> to tensor<1x1xf32>
// CHECK:         %[[ROWS:.*]] = tile.mma {{.*}} : tensor<32x16xbf16>, tensor<16x1xbf16>, tensor<32x1xf32>
// CHECK:         %[[ONE:.*]] = tile.mma {{.*}} : tensor<1x16xbf16>, tensor<16x1xbf16>, tensor<1x1xf32>
// CHECK:         %[[DIV:.*]] = arith.divf %[[ONE]], %[[B1]] : tensor<1x1xf32>
// CHECK:         %[[BCAST:.*]] = tile.broadcast %[[DIV]] : tensor<1x1xf32> -> tensor<32x1xf32>
// CHECK:         arith.addf %[[ROWS]], %[[BCAST]] : tensor<32x1xf32>
func.func @one_row(%x: tensor<8x32x2xbf16>, %b: tensor<1x1x2xbf16>, %w: tensor<8x2x1xbf16>, %b1: tensor<8x1x2xbf16>) -> tensor<8x32x2xbf16> {
  %0 = tk.fused grid [8, 2, 1] block [128, 1, 1] forloop 1 (%xa = %x : tensor<8x32x2xbf16>, %ba = %b : tensor<1x1x2xbf16>, %wa = %w : tensor<8x2x1xbf16>, %b1a = %b1 : tensor<8x1x2xbf16>) -> tensor<8x32x2xbf16> {
    %xt = tb.input_iterator %xa imap [0, -1, -1] fmap -1 : tensor<8x32x2xbf16> -> !tb.tile<1x32x2xbf16>
    %bt = tb.input_iterator %ba imap [-1, -1, -1] fmap -1 : tensor<1x1x2xbf16> -> !tb.tile<1x1x2xbf16>
    %wt = tb.input_iterator %wa imap [0, -1, -1] fmap -1 : tensor<8x2x1xbf16> -> !tb.tile<1x2x1xbf16>
    %b1t = tb.input_iterator %b1a imap [0, 2, -1] fmap -1 : tensor<8x1x2xbf16> -> !tb.tile<1x1x1xbf16>
    %xw = tb.matmul %xt, %wt : !tb.tile<1x32x2xbf16>, !tb.tile<1x2x1xbf16> -> !tb.tile<1x32x1xbf16>
    %bb1 = tb.binary mul %bt, %b1t : !tb.tile<1x1x2xbf16>, !tb.tile<1x1x1xbf16> -> !tb.tile<1x1x2xbf16>
    %bb1w = tb.matmul %bb1, %wt : !tb.tile<1x1x2xbf16>, !tb.tile<1x2x1xbf16> -> !tb.tile<1x1x1xbf16>
    %bw = tb.binary div %bb1w, %b1t : !tb.tile<1x1x1xbf16>, !tb.tile<1x1x1xbf16> -> !tb.tile<1x1x1xbf16>
    %sum = tb.binary add %xw, %bw : !tb.tile<1x32x1xbf16>, !tb.tile<1x1x1xbf16> -> !tb.tile<1x32x1xbf16>
    %out = tb.binary mul %b1t, %sum : !tb.tile<1x1x1xbf16>, !tb.tile<1x32x1xbf16> -> !tb.tile<1x32x1xbf16>
    %acc = tb.forloop_accum none %out : (!tb.tile<1x32x1xbf16>) -> !tb.tile<1x32x1xbf16>
    %saved = tb.output_saver %acc omap [0, 2, -1] : !tb.tile<1x32x1xbf16> -> tensor<8x32x2xbf16>
    tb.yield %saved : tensor<8x32x2xbf16>
  }
  return %0 : tensor<8x32x2xbf16>
}
