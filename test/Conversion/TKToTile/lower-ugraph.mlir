// The structure of the tile programs tileopt-lower-ugraph emits. Their
// results are checked against the µGraphs' by the interpreters
// (unittests/Conversion/TKToTileTest.cpp).
// RUN: tileopt-opt %s -split-input-file --tileopt-lower-ugraph | FileCheck %s

// gated_mlp's fused kernel: both products accumulate in tile.mma, in the
// tiles the loop carries; the operands are loaded per iteration with a
// latency hint; silu and the product run once, after the loop, in f32. X's
// 8 rows, which every block reads whole, are computed as 32 (what mma.sync
// needs of M on 4 warps): the load pads them with zeros, the store drops
// them.
// CHECK-LABEL: tile.kernel @gated_mlp_k0(
// CHECK-SAME: %[[X:.*]]: !tile.view<8x256xf16>, %[[W1:.*]]: !tile.view<256x64xf16>, %[[W2:.*]]: !tile.view<256x64xf16>, %[[Y:.*]]: !tile.view<8x64xf16>)
// CHECK-DAG: %[[BX:.*]] = tile.block_id x
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<32x16xf32>
// CHECK: %[[ACC:.*]]:2 = scf.for %[[K:.*]] = %[[C0]] to %[[C4]] step %{{.*}} iter_args(%[[A1:.*]] = %{{.*}}, %[[A2:.*]] = %{{.*}}) -> (tensor<32x16xf32>, tensor<32x16xf32>)
// CHECK-NEXT: %[[XT:.*]] = tile.load %[[X]][%[[C0]], %[[K]]] latency 3 padding zero : !tile.view<8x256xf16> -> tensor<32x64xf16>
// CHECK-NEXT: %[[W1T:.*]] = tile.load %[[W1]][%[[K]], %[[BX]]] latency 3 : !tile.view<256x64xf16> -> tensor<64x16xf16>
// CHECK-NEXT: %[[W2T:.*]] = tile.load %[[W2]][%[[K]], %[[BX]]] latency 3
// CHECK-NEXT: %[[P1:.*]] = tile.mma %[[XT]], %[[W1T]], %[[A1]] : tensor<32x64xf16>, tensor<64x16xf16>, tensor<32x16xf32>
// CHECK-NEXT: %[[P2:.*]] = tile.mma %[[XT]], %[[W2T]], %[[A2]]
// CHECK-NEXT: scf.yield %[[P1]], %[[P2]]
// CHECK: %[[NEG:.*]] = arith.negf %[[ACC]]#0 : tensor<32x16xf32>
// CHECK: math.exp %[[NEG]]
// CHECK: %[[SILU:.*]] = arith.divf %[[ACC]]#0
// CHECK: %[[PROD:.*]] = arith.mulf %[[ACC]]#1, %[[SILU]] : tensor<32x16xf32>
// CHECK: %[[OUT:.*]] = arith.truncf %[[PROD]] : tensor<32x16xf32> to tensor<32x16xf16>
// CHECK: tile.store %[[OUT]], %[[Y]][%[[C0]], %[[BX]]] : tensor<32x16xf16>, !tile.view<8x64xf16>
// CHECK-NEXT: tile.return
// CHECK-LABEL: func.func @gated_mlp(
// CHECK-SAME: %[[HX:.*]]: memref<8x256xf16> {tileopt.name = "in0"}, %[[HW1:.*]]: memref<256x64xf16> {tileopt.name = "in1"}, %[[HW2:.*]]: memref<256x64xf16> {tileopt.name = "in2"}, %[[HY:.*]]: memref<8x64xf16> {tileopt.name = "out0", tileopt.output})
// CHECK-NEXT: tile.launch @gated_mlp_k0 grid [4, 1, 1](%[[HX]], %[[HW1]], %[[HW2]], %[[HY]])
// CHECK-NEXT: return
func.func @gated_mlp(%X: tensor<8x256xf16>, %W1: tensor<256x64xf16>, %W2: tensor<256x64xf16>) -> tensor<8x64xf16> {
  %0 = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<8x256xf16>, %w1 = %W1 : tensor<256x64xf16>, %w2 = %W2 : tensor<256x64xf16>) -> tensor<8x64xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<8x256xf16> -> !tb.tile<8x64xf16>
    %2 = tb.input_iterator %w1 imap [1, -1, -1] fmap 0 : tensor<256x64xf16> -> !tb.tile<64x16xf16>
    %3 = tb.input_iterator %w2 imap [1, -1, -1] fmap 0 : tensor<256x64xf16> -> !tb.tile<64x16xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<8x64xf16>, !tb.tile<64x16xf16> -> !tb.tile<8x16xf16>
    %5 = tb.matmul %1, %3 : !tb.tile<8x64xf16>, !tb.tile<64x16xf16> -> !tb.tile<8x16xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<8x16xf16>) -> !tb.tile<8x16xf16>
    %7 = tb.forloop_accum sum %5 : (!tb.tile<8x16xf16>) -> !tb.tile<8x16xf16>
    %8 = tb.unary silu %6 : !tb.tile<8x16xf16>
    %9 = tb.binary mul %7, %8 : !tb.tile<8x16xf16>, !tb.tile<8x16xf16> -> !tb.tile<8x16xf16>
    %10 = tb.output_saver %9 omap [1, -1, -1] : !tb.tile<8x16xf16> -> tensor<8x64xf16>
    tb.yield %10 : tensor<8x64xf16>
  }
  return %0 : tensor<8x64xf16>
}

// -----

// Online softmax: the two sum_rescale accumulators share the running
// maximum the loop carries (initially -inf) and its factors; Q does not
// change between iterations and is loaded once, before the loop. The batch
// dim (one per block along z) is dropped from the tiles after the loads and
// restored for the store. The 16 query rows are the grid's, so P V runs on
// 1x4 warps and its 16 columns (V's, the output's) are padded to 32.
// CHECK-LABEL: tile.kernel @flash_attention_k0(
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant dense<0xFF800000> : tensor<16x1xf32>
// CHECK-DAG: %[[BZ:.*]] = tile.block_id z
// CHECK: %[[QT:.*]] = tile.load %{{.*}}[%[[BZ]], %{{.*}}, %{{.*}}] : !tile.view<2x32x16xf16> -> tensor<1x16x16xf16>
// CHECK-NEXT: %[[Q:.*]] = tile.reshape %[[QT]] : tensor<1x16x16xf16> -> tensor<16x16xf16>
// CHECK: %[[R:.*]]:3 = scf.for {{.*}} iter_args(%[[O:.*]] = %{{.*}}, %[[M:.*]] = %[[NEGINF]], %[[L:.*]] = %{{.*}}) -> (tensor<16x32xf32>, tensor<16x1xf32>, tensor<16x1xf32>)
// CHECK: %[[S:.*]] = tile.mma %[[Q]], %{{.*}}, %{{.*}} : tensor<16x16xf16>, tensor<16x32xf16>, tensor<16x32xf32>
// CHECK: %[[ROWMAX:.*]] = tile.reduce max %[[S]] dim 1 : tensor<16x32xf32> -> tensor<16xf32>
// CHECK: %[[TM:.*]] = tile.reshape %[[ROWMAX]] : tensor<16xf32> -> tensor<16x1xf32>
// CHECK: %[[P:.*]] = math.exp
// CHECK: %[[P16:.*]] = arith.truncf %[[P]] : tensor<16x32xf32> to tensor<16x32xf16>
// CHECK: %[[PV:.*]] = tile.mma %[[P16]]
// CHECK: %[[NEXT:.*]] = arith.maximumf %[[M]], %[[TM]] : tensor<16x1xf32>
// CHECK: %[[OLD:.*]] = arith.subf %[[M]], %[[NEXT]]
// CHECK: %[[ALPHA:.*]] = math.exp %[[OLD]]
// CHECK: %[[NEW:.*]] = arith.subf %[[TM]], %[[NEXT]]
// CHECK: %[[BETA:.*]] = math.exp %[[NEW]]
// CHECK: %[[AB:.*]] = tile.broadcast %[[ALPHA]] : tensor<16x1xf32> -> tensor<16x32xf32>
// CHECK: %[[OA:.*]] = arith.mulf %[[O]], %[[AB]]
// CHECK: %[[BB:.*]] = tile.broadcast %[[BETA]]
// CHECK: %[[PVB:.*]] = arith.mulf %[[PV]], %[[BB]]
// CHECK: %[[O2:.*]] = arith.addf %[[OA]], %[[PVB]]
// CHECK: %[[LA:.*]] = arith.mulf %[[L]], %[[ALPHA]] : tensor<16x1xf32>
// CHECK: %[[LB:.*]] = arith.mulf %{{.*}}, %[[BETA]] : tensor<16x1xf32>
// CHECK: %[[L2:.*]] = arith.addf %[[LA]], %[[LB]]
// CHECK: scf.yield %[[O2]], %[[NEXT]], %[[L2]]
// CHECK: %[[LBC:.*]] = tile.broadcast %[[R]]#2 : tensor<16x1xf32> -> tensor<16x32xf32>
// CHECK: %[[OUT:.*]] = arith.divf %[[R]]#0, %[[LBC]]
// CHECK: %[[OUT16:.*]] = arith.truncf %[[OUT]]
// CHECK: %[[OUT3:.*]] = tile.reshape %[[OUT16]] : tensor<16x32xf16> -> tensor<1x16x32xf16>
// CHECK: tile.store %[[OUT3]], %{{.*}}[%[[BZ]], %{{.*}}, %{{.*}}] : tensor<1x16x32xf16>, !tile.view<2x32x16xf16>
// CHECK-LABEL: func.func @flash_attention(
// CHECK: tile.launch @flash_attention_k0 grid [2, 1, 2]
func.func @flash_attention(%Q: tensor<2x32x16xf16>, %K: tensor<2x16x128xf16>, %V: tensor<2x128x16xf16>) -> tensor<2x32x16xf16> {
  %0 = tk.fused grid [2, 1, 2] block [128, 1, 1] forloop 4 (%q = %Q : tensor<2x32x16xf16>, %k = %K : tensor<2x16x128xf16>, %v = %V : tensor<2x128x16xf16>) -> tensor<2x32x16xf16> {
    %1 = tb.input_iterator %q imap [1, -1, 0] fmap -1 : tensor<2x32x16xf16> -> !tb.tile<1x16x16xf16>
    %2 = tb.input_iterator %k imap [-1, -1, 0] fmap 2 : tensor<2x16x128xf16> -> !tb.tile<1x16x32xf16>
    %3 = tb.input_iterator %v imap [-1, -1, 0] fmap 1 : tensor<2x128x16xf16> -> !tb.tile<1x32x16xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<1x16x16xf16>, !tb.tile<1x16x32xf16> -> !tb.tile<1x16x32xf16>
    %5 = tb.reduce max %4 dim 2 : !tb.tile<1x16x32xf16> -> !tb.tile<1x16x1xf16>
    %6 = tb.binary sub %4, %5 : !tb.tile<1x16x32xf16>, !tb.tile<1x16x1xf16> -> !tb.tile<1x16x32xf16>
    %7 = tb.unary exp %6 : !tb.tile<1x16x32xf16>
    %8 = tb.matmul %7, %3 : !tb.tile<1x16x32xf16>, !tb.tile<1x32x16xf16> -> !tb.tile<1x16x16xf16>
    %9 = tb.reduce sum %7 dim 2 : !tb.tile<1x16x32xf16> -> !tb.tile<1x16x1xf16>
    %10 = tb.forloop_accum sum_rescale %8, %5 : (!tb.tile<1x16x16xf16>, !tb.tile<1x16x1xf16>) -> !tb.tile<1x16x16xf16>
    %11 = tb.forloop_accum sum_rescale %9, %5 : (!tb.tile<1x16x1xf16>, !tb.tile<1x16x1xf16>) -> !tb.tile<1x16x1xf16>
    %12 = tb.binary div %10, %11 : !tb.tile<1x16x16xf16>, !tb.tile<1x16x1xf16> -> !tb.tile<1x16x16xf16>
    %13 = tb.output_saver %12 omap [1, -1, 0] : !tb.tile<1x16x16xf16> -> tensor<2x32x16xf16>
    tb.yield %13 : tensor<2x32x16xf16>
  }
  return %0 : tensor<2x32x16xf16>
}

// -----

// rmsnorm_linear at b=1: a reduce mean divides by the group's size, a mean
// accumulator by the loop's range after the loop; add_scalar keeps the
// constant the f16 block graph has; the rms broadcasts over the product's
// columns. The 2 rows are computed as 32, in every tile that has them.
// CHECK-LABEL: tile.kernel @rmsnorm_linear_k0(
// CHECK-DAG: %[[FOUR:.*]] = arith.constant dense<4.000000e+00> : tensor<32x1xf32>
// CHECK-DAG: %[[N:.*]] = arith.constant dense<6.400000e+01> : tensor<32xf32>
// CHECK: %[[R:.*]]:2 = scf.for
// CHECK: %[[XT:.*]] = tile.load
// CHECK: %[[XF:.*]] = arith.extf %[[XT]] : tensor<32x64xf16> to tensor<32x64xf32>
// CHECK: %[[SQ:.*]] = arith.mulf %[[XF]], %[[XF]]
// CHECK: %[[SUM:.*]] = tile.reduce sum %[[SQ]] dim 1 : tensor<32x64xf32> -> tensor<32xf32>
// CHECK: %[[MEAN:.*]] = arith.divf %[[SUM]], %[[N]]
// CHECK: tile.reshape %[[MEAN]] : tensor<32xf32> -> tensor<32x1xf32>
// CHECK: tile.mma %[[XT]]
// CHECK: arith.constant dense<1.00135803E-5> : tensor<32x1xf32>
// CHECK: scf.yield
// CHECK: %[[MS:.*]] = arith.divf %[[R]]#1, %[[FOUR]] : tensor<32x1xf32>
// CHECK: %[[RMS:.*]] = math.sqrt %[[MS]]
// CHECK: %[[B:.*]] = tile.broadcast %[[RMS]] : tensor<32x1xf32> -> tensor<32x16xf32>
// CHECK: arith.divf %[[R]]#0, %[[B]]
func.func @rmsnorm_linear(%X: tensor<2x256xf16>, %W: tensor<256x64xf16>) -> tensor<2x64xf16> {
  %0 = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<2x256xf16>, %w = %W : tensor<256x64xf16>) -> tensor<2x64xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<2x256xf16> -> !tb.tile<2x64xf16>
    %2 = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<256x64xf16> -> !tb.tile<64x16xf16>
    %3 = tb.unary square %1 : !tb.tile<2x64xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<2x64xf16>, !tb.tile<64x16xf16> -> !tb.tile<2x16xf16>
    %5 = tb.reduce mean %3 dim 1 : !tb.tile<2x64xf16> -> !tb.tile<2x1xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<2x16xf16>) -> !tb.tile<2x16xf16>
    %7 = tb.unary add_scalar(1.00135803E-5) %5 : !tb.tile<2x1xf16>
    %8 = tb.forloop_accum mean %7 : (!tb.tile<2x1xf16>) -> !tb.tile<2x1xf16>
    %9 = tb.unary sqrt %8 : !tb.tile<2x1xf16>
    %10 = tb.binary div %6, %9 : !tb.tile<2x16xf16>, !tb.tile<2x1xf16> -> !tb.tile<2x16xf16>
    %11 = tb.output_saver %10 omap [1, -1, -1] : !tb.tile<2x16xf16> -> tensor<2x64xf16>
    tb.yield %11 : tensor<2x64xf16>
  }
  return %0 : tensor<2x64xf16>
}

// -----

// A `none` accumulator keeps every iteration's tile: its saver stores in
// the loop, at the iteration's index along fmap. A thread graph is its
// scalar ops on tiles, constants as splats. The loop's load asks to be
// prefetched (latency 3: two iterations ahead).
// CHECK-LABEL: tile.kernel @each_iteration_k0(
// CHECK-SAME: %[[X:.*]]: !tile.view<16x128xf16>, %[[Y:.*]]: !tile.view<16x128xf16>)
// CHECK-DAG: %[[BX:.*]] = tile.block_id x
// CHECK: scf.for %[[K:.*]] = {{.*}} {
// CHECK: %[[T:.*]] = tile.load %[[X]][%[[BX]], %[[K]]] latency 3 : !tile.view<16x128xf16> -> tensor<8x32xf16>
// CHECK: %[[F:.*]] = arith.extf %[[T]]
// CHECK: %[[HALF:.*]] = arith.constant dense<5.000000e-01> : tensor<8x32xf32>
// CHECK: %[[E:.*]] = math.exp %[[F]] : tensor<8x32xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[E]], %[[HALF]] : tensor<8x32xf32>
// CHECK: %[[O:.*]] = arith.truncf %[[M]]
// CHECK: tile.store %[[O]], %[[Y]][%[[BX]], %[[K]]] : tensor<8x32xf16>, !tile.view<16x128xf16>
// CHECK-NEXT: }
// CHECK-NEXT: tile.return
func.func @each_iteration(%X: tensor<16x128xf16>) -> tensor<16x128xf16> {
  %0 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x128xf16>) -> tensor<16x128xf16> {
    %1 = tb.input_iterator %x imap [0, -1, -1] fmap 1 : tensor<16x128xf16> -> !tb.tile<8x32xf16>
    %2 = th.graph (%a = %1 : !tb.tile<8x32xf16>) -> !tb.tile<8x32xf16> {
      %half = arith.constant 5.000000e-01 : f16
      %e = math.exp %a : f16
      %m = arith.mulf %e, %half : f16
      th.yield %m : f16
    }
    %3 = tb.forloop_accum none %2 : (!tb.tile<8x32xf16>) -> !tb.tile<8x32xf16>
    %4 = tb.output_saver %3 omap [0, -1, -1] fmap 1 : !tb.tile<8x32xf16> -> tensor<16x128xf16>
    tb.yield %4 : tensor<16x128xf16>
  }
  return %0 : tensor<16x128xf16>
}

// -----

// A predefined matmul is its 128x128x64 tiling: x walks N, y walks M, the
// loop K.
// CHECK-LABEL: tile.kernel @matmul_k0(
// CHECK-SAME: %[[A:.*]]: !tile.view<2048x1024xbf16>, %[[B:.*]]: !tile.view<1024x1024xbf16>, %[[C:.*]]: !tile.view<2048x1024xbf16>)
// CHECK-DAG: %[[BX:.*]] = tile.block_id x
// CHECK-DAG: %[[BY:.*]] = tile.block_id y
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[C16]] step
// CHECK-NEXT: %[[AT:.*]] = tile.load %[[A]][%[[BY]], %[[K]]] latency 3 : !tile.view<2048x1024xbf16> -> tensor<128x64xbf16>
// CHECK-NEXT: %[[BT:.*]] = tile.load %[[B]][%[[K]], %[[BX]]] latency 3 : !tile.view<1024x1024xbf16> -> tensor<64x128xbf16>
// CHECK-NEXT: tile.mma %[[AT]], %[[BT]], %{{.*}} : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
// CHECK: tile.store %{{.*}}, %[[C]][%[[BY]], %[[BX]]] : tensor<128x128xbf16>
// CHECK-LABEL: func.func @matmul(
// CHECK: tile.launch @matmul_k0 grid [8, 16, 1]
func.func @matmul(%a: tensor<2048x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<2048x1024xbf16> {
  %0 = tk.matmul %a, %b : tensor<2048x1024xbf16>, tensor<1024x1024xbf16> -> tensor<2048x1024xbf16>
  return %0 : tensor<2048x1024xbf16>
}

// -----

// A decode-size matmul (8 rows) would have 32 blocks of 128 columns: its
// tiles narrow to 32 columns, 128 blocks. The 8 rows are padded to 16, one
// m16 tile, as 32 columns let the 4 warps sit side by side.
// CHECK-LABEL: tile.kernel @decode_matmul_k0(
// CHECK: tile.load %{{.*}} padding zero : !tile.view<8x4096xf16> -> tensor<16x64xf16>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64xf16>, tensor<64x32xf16>, tensor<16x32xf32>
// CHECK-LABEL: func.func @decode_matmul(
// CHECK: tile.launch @decode_matmul_k0 grid [128, 1, 1]
func.func @decode_matmul(%a: tensor<8x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %0 = tk.matmul %a, %b : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  return %0 : tensor<8x4096xf16>
}

// -----

// Blocks of 16 columns cannot put 4 warps side by side (8 columns each):
// the 8 rows are padded to 32, for 2x2 warps.
// CHECK-LABEL: tile.kernel @narrow_decode_matmul_k0(
// CHECK: tile.load %{{.*}} padding zero : !tile.view<8x4096xf16> -> tensor<32x256xf16>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x256xf16>, tensor<256x16xf16>, tensor<32x16xf32>
func.func @narrow_decode_matmul(%x: tensor<8x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %0 = tk.fused grid [256, 1, 1] block [128, 1, 1] forloop 16 (%a = %x : tensor<8x4096xf16>, %b = %w : tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
    %1 = tb.input_iterator %a imap [-1, -1, -1] fmap 1 : tensor<8x4096xf16> -> !tb.tile<8x256xf16>
    %2 = tb.input_iterator %b imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x16xf16>
    %3 = tb.matmul %1, %2 : !tb.tile<8x256xf16>, !tb.tile<256x16xf16> -> !tb.tile<8x16xf16>
    %4 = tb.forloop_accum sum %3 : (!tb.tile<8x16xf16>) -> !tb.tile<8x16xf16>
    %5 = tb.output_saver %4 omap [1, -1, -1] : !tb.tile<8x16xf16> -> tensor<8x4096xf16>
    tb.yield %5 : tensor<8x4096xf16>
  }
  return %0 : tensor<8x4096xf16>
}

// -----

// One X read by a product of 32 columns and one of 16: the rows take the
// larger multiple, 32, which both products' warps can take.
// CHECK-LABEL: tile.kernel @shared_rows_k0(
// CHECK: tile.load %{{.*}} padding zero : !tile.view<8x256xf16> -> tensor<32x256xf16>
// CHECK-DAG: tile.mma %{{.*}} : tensor<32x256xf16>, tensor<256x32xf16>, tensor<32x32xf32>
// CHECK-DAG: tile.mma %{{.*}} : tensor<32x256xf16>, tensor<256x16xf16>, tensor<32x16xf32>
func.func @shared_rows(%x: tensor<8x256xf16>, %w: tensor<256x4096xf16>, %a: tensor<256x16xf16>) -> (tensor<8x4096xf16>, tensor<8x2048xf16>) {
  %0:2 = tk.fused grid [128, 1, 1] block [128, 1, 1] forloop 1 (%xi = %x : tensor<8x256xf16>, %wi = %w : tensor<256x4096xf16>, %ai = %a : tensor<256x16xf16>) -> (tensor<8x4096xf16>, tensor<8x2048xf16>) {
    %1 = tb.input_iterator %xi imap [-1, -1, -1] fmap -1 : tensor<8x256xf16> -> !tb.tile<8x256xf16>
    %2 = tb.input_iterator %wi imap [1, -1, -1] fmap -1 : tensor<256x4096xf16> -> !tb.tile<256x32xf16>
    %3 = tb.input_iterator %ai imap [-1, -1, -1] fmap -1 : tensor<256x16xf16> -> !tb.tile<256x16xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<8x256xf16>, !tb.tile<256x32xf16> -> !tb.tile<8x32xf16>
    %5 = tb.matmul %1, %3 : !tb.tile<8x256xf16>, !tb.tile<256x16xf16> -> !tb.tile<8x16xf16>
    %6 = tb.forloop_accum none %4 : (!tb.tile<8x32xf16>) -> !tb.tile<8x32xf16>
    %7 = tb.forloop_accum none %5 : (!tb.tile<8x16xf16>) -> !tb.tile<8x16xf16>
    %8 = tb.output_saver %6 omap [1, -1, -1] : !tb.tile<8x32xf16> -> tensor<8x4096xf16>
    %9 = tb.output_saver %7 omap [1, -1, -1] : !tb.tile<8x16xf16> -> tensor<8x2048xf16>
    tb.yield %8, %9 : tensor<8x4096xf16>, tensor<8x2048xf16>
  }
  return %0#0, %0#1 : tensor<8x4096xf16>, tensor<8x2048xf16>
}

// -----

// Kernels run in order; the tensor between them is a scratch buffer of its
// own ("tmp0"). A column reduction is permuted so that the reduced dim is
// the last.
// CHECK-LABEL: tile.kernel @chain_k0(
// CHECK: math.exp
// CHECK-LABEL: tile.kernel @chain_k1(
// CHECK: %[[P:.*]] = tile.permute %{{.*}} [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
// CHECK: tile.reduce sum %[[P]] dim 1 : tensor<32x64xf32> -> tensor<32xf32>
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:.*]]: memref<256x32xf32> {tileopt.name = "in0"}, %[[OUT:.*]]: memref<1x32xf32> {tileopt.name = "out0", tileopt.output}, %[[TMP:.*]]: memref<256x32xf32> {tileopt.name = "tmp0", tileopt.scratch})
// CHECK-NEXT: tile.launch @chain_k0 grid [1, 2, 1](%[[X]], %[[TMP]])
// CHECK-NEXT: tile.launch @chain_k1 grid [1, 1, 1](%[[TMP]], %[[OUT]])
func.func @chain(%x: tensor<256x32xf32>) -> tensor<1x32xf32> {
  %0 = tk.unary exp %x : tensor<256x32xf32>
  %1 = tk.reduce sum %0 dim 0 : tensor<256x32xf32> -> tensor<1x32xf32>
  return %1 : tensor<1x32xf32>
}

// -----

// A batch dim that the block graph keeps whole in its tiles (attention's 2
// heads) is split over the grid dim it leaves unused, z: one head per
// block, rank-2 tiles.
// CHECK-LABEL: tile.kernel @heads_k0(
// CHECK-DAG: %[[BZ:.*]] = tile.block_id z
// CHECK-DAG: %[[BX:.*]] = tile.block_id x
// CHECK: %[[Q:.*]] = tile.load %{{.*}}[%[[BZ]], %[[BX]], %{{.*}}] : !tile.view<2x64x32xf16> -> tensor<1x16x32xf16>
// CHECK: tile.reshape %[[Q]] : tensor<1x16x32xf16> -> tensor<16x32xf16>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xf16>, tensor<32x512xf16>, tensor<16x512xf32>
// CHECK: tile.store %{{.*}}, %{{.*}}[%[[BZ]], %[[BX]], %{{.*}}] : tensor<1x16x16xf16>, !tile.view<2x64x32xf16>
// CHECK-LABEL: func.func @heads(
// CHECK: tile.launch @heads_k0 grid [4, 2, 2]
func.func @heads(%Q: tensor<2x64x32xf16>, %K: tensor<2x32x512xf16>, %V: tensor<2x512x32xf16>) -> tensor<2x64x32xf16> {
  %0 = tk.fused grid [4, 2, 1] block [128, 1, 1] forloop 1 (%q = %Q : tensor<2x64x32xf16>, %k = %K : tensor<2x32x512xf16>, %v = %V : tensor<2x512x32xf16>) -> tensor<2x64x32xf16> {
    %1 = tb.input_iterator %q imap [1, -1, -1] fmap -1 : tensor<2x64x32xf16> -> !tb.tile<2x16x32xf16>
    %2 = tb.input_iterator %k imap [-1, -1, -1] fmap -1 : tensor<2x32x512xf16> -> !tb.tile<2x32x512xf16>
    %3 = tb.input_iterator %v imap [-1, 2, -1] fmap -1 : tensor<2x512x32xf16> -> !tb.tile<2x512x16xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<2x16x32xf16>, !tb.tile<2x32x512xf16> -> !tb.tile<2x16x512xf16>
    %5 = tb.reduce max %4 dim 2 : !tb.tile<2x16x512xf16> -> !tb.tile<2x16x1xf16>
    %6 = tb.binary sub %4, %5 : !tb.tile<2x16x512xf16>, !tb.tile<2x16x1xf16> -> !tb.tile<2x16x512xf16>
    %7 = tb.unary exp %6 : !tb.tile<2x16x512xf16>
    %8 = tb.matmul %7, %3 : !tb.tile<2x16x512xf16>, !tb.tile<2x512x16xf16> -> !tb.tile<2x16x16xf16>
    %9 = tb.reduce sum %7 dim 2 : !tb.tile<2x16x512xf16> -> !tb.tile<2x16x1xf16>
    %10 = tb.binary div %8, %9 : !tb.tile<2x16x16xf16>, !tb.tile<2x16x1xf16> -> !tb.tile<2x16x16xf16>
    %11 = tb.forloop_accum none %10 : (!tb.tile<2x16x16xf16>) -> !tb.tile<2x16x16xf16>
    %12 = tb.output_saver %11 omap [1, 2, -1] : !tb.tile<2x16x16xf16> -> tensor<2x64x32xf16>
    tb.yield %12 : tensor<2x64x32xf16>
  }
  return %0 : tensor<2x64x32xf16>
}

// -----

// Split-KV partial sums laid out in chunks along the heads (the grid's y
// takes 2-head parts of dim 0, as the superoptimizer places chunks): the
// heads are still split over z, and a block's head within the chunk is
// y * 2 + z.
// CHECK-LABEL: tile.kernel @chunked_heads_k0(
// CHECK-DAG: %[[BY:.*]] = tile.block_id y
// CHECK-DAG: %[[BZ:.*]] = tile.block_id z
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x32xf16>, tensor<32x128xf16>, tensor<16x128xf32>
// CHECK: %[[FIRST:.*]] = arith.muli %[[BY]], %{{.*}} : index
// CHECK: %[[HEAD:.*]] = arith.addi %[[FIRST]], %[[BZ]] : index
// CHECK: tile.store %{{.*}}, %{{.*}}[%[[HEAD]], %{{.*}}, %{{.*}}] : tensor<1x16x32xf16>, !tile.view<8x64x32xf16>
// CHECK-LABEL: func.func @chunked_heads(
// CHECK: tile.launch @chunked_heads_k0 grid [4, 4, 2]
func.func @chunked_heads(%Q: tensor<2x64x32xf16>, %K: tensor<2x32x512xf16>, %V: tensor<2x512x32xf16>) -> tensor<8x64x32xf16> {
  %0 = tk.fused grid [4, 4, 1] block [128, 1, 1] forloop 1 (%q = %Q : tensor<2x64x32xf16>, %k = %K : tensor<2x32x512xf16>, %v = %V : tensor<2x512x32xf16>) -> tensor<8x64x32xf16> {
    %1 = tb.input_iterator %q imap [1, -1, -1] fmap -1 : tensor<2x64x32xf16> -> !tb.tile<2x16x32xf16>
    %2 = tb.input_iterator %k imap [-1, 2, -1] fmap -1 : tensor<2x32x512xf16> -> !tb.tile<2x32x128xf16>
    %3 = tb.input_iterator %v imap [-1, 1, -1] fmap -1 : tensor<2x512x32xf16> -> !tb.tile<2x128x32xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<2x16x32xf16>, !tb.tile<2x32x128xf16> -> !tb.tile<2x16x128xf16>
    %5 = tb.unary exp %4 : !tb.tile<2x16x128xf16>
    %6 = tb.matmul %5, %3 : !tb.tile<2x16x128xf16>, !tb.tile<2x128x32xf16> -> !tb.tile<2x16x32xf16>
    %7 = tb.forloop_accum none %6 : (!tb.tile<2x16x32xf16>) -> !tb.tile<2x16x32xf16>
    %8 = tb.output_saver %7 omap [1, 0, -1] : !tb.tile<2x16x32xf16> -> tensor<8x64x32xf16>
    tb.yield %8 : tensor<8x64x32xf16>
  }
  return %0 : tensor<8x64x32xf16>
}

// -----

// Layout changes are copy kernels. A transpose: 64 x 64 tiles of the
// result's last two dims (grid x and y), its leading dim one per block
// (grid z); each block loads the input's tile and permutes it. A reshape:
// chunks of up to 1024 elements in one row of both shapes, block i copying
// chunk i.
// CHECK-LABEL: tile.kernel @layout_k0(
// CHECK-DAG: %[[Z:.*]] = tile.block_id z
// CHECK-DAG: %[[Y:.*]] = tile.block_id y
// CHECK-DAG: %[[X:.*]] = tile.block_id x
// CHECK: %[[IN:.*]] = tile.load %arg0[%[[Z]], %[[X]], %[[Y]]] : !tile.view<4x512x128xf16> -> tensor<1x64x64xf16>
// CHECK: %[[M:.*]] = tile.reshape %[[IN]] : tensor<1x64x64xf16> -> tensor<64x64xf16>
// CHECK: %[[T:.*]] = tile.permute %[[M]] [1, 0] : tensor<64x64xf16> -> tensor<64x64xf16>
// CHECK: %[[OUT:.*]] = tile.reshape %[[T]] : tensor<64x64xf16> -> tensor<1x64x64xf16>
// CHECK: tile.store %[[OUT]], %arg1[%[[Z]], %[[Y]], %[[X]]] : tensor<1x64x64xf16>, !tile.view<4x128x512xf16>
// CHECK-LABEL: tile.kernel @layout_k1(
// CHECK: %[[B:.*]] = tile.block_id x
// CHECK: %[[CHUNK:.*]] = tile.load %arg0[%[[B]], %{{.*}}, %{{.*}}] : !tile.view<16x1x512xf16> -> tensor<1x1x512xf16>
// CHECK: %[[ROW:.*]] = tile.reshape %[[CHUNK]] : tensor<1x1x512xf16> -> tensor<1x512xf16>
// CHECK: tile.store %[[ROW]], %arg1[%[[B]], %{{.*}}] : tensor<1x512xf16>, !tile.view<16x512xf16>
// CHECK-LABEL: func.func @layout(
// CHECK: tile.launch @layout_k0 grid [8, 2, 4](%arg0, %arg2)
// CHECK: tile.launch @layout_k1 grid [16, 1, 1](%arg1, %arg3)
func.func @layout(%w: tensor<4x512x128xf16>, %a: tensor<16x1x512xf16>) -> (tensor<4x128x512xf16>, tensor<16x512xf16>) {
  %t = tk.transpose %w [0, 2, 1] : tensor<4x512x128xf16> -> tensor<4x128x512xf16>
  %r = tk.reshape %a : tensor<16x1x512xf16> -> tensor<16x512xf16>
  return %t, %r : tensor<4x128x512xf16>, tensor<16x512xf16>
}

// -----

// 16 rows that blocks take parts of cannot be padded to 32: the product
// runs on 1x4 warps, so its 16 free columns are padded to 32.
// CHECK-LABEL: tile.kernel @sixteen_rows_k0(
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64xf16>, tensor<64x32xf16>, tensor<16x32xf32>
// CHECK: tile.store %{{.*}} : tensor<16x32xf16>, !tile.view<64x16xf16>
func.func @sixteen_rows(%X: tensor<64x64xf16>, %W: tensor<64x16xf16>) -> tensor<64x16xf16> {
  %0 = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 1 (%x = %X : tensor<64x64xf16>, %w = %W : tensor<64x16xf16>) -> tensor<64x16xf16> {
    %1 = tb.input_iterator %x imap [0, -1, -1] fmap -1 : tensor<64x64xf16> -> !tb.tile<16x64xf16>
    %2 = tb.input_iterator %w imap [-1, -1, -1] fmap -1 : tensor<64x16xf16> -> !tb.tile<64x16xf16>
    %3 = tb.matmul %1, %2 : !tb.tile<16x64xf16>, !tb.tile<64x16xf16> -> !tb.tile<16x16xf16>
    %4 = tb.forloop_accum none %3 : (!tb.tile<16x16xf16>) -> !tb.tile<16x16xf16>
    %5 = tb.output_saver %4 omap [0, -1, -1] : !tb.tile<16x16xf16> -> tensor<64x16xf16>
    tb.yield %5 : tensor<64x16xf16>
  }
  return %0 : tensor<64x16xf16>
}

// -----

// A transpose that only graph-defined kernels read is read through: the
// product x @ W^T loads W's tiles as stored, [N, K], and permutes them in
// the block (tile.mma's rhs_transposed after canonicalization); the
// transpose has neither a kernel nor a buffer.
// CHECK-LABEL: tile.kernel @read_through_k0(
// CHECK-SAME: %{{.*}}: !tile.view<64x64xf16>, %[[W:.*]]: !tile.view<32x64xf16>, %{{.*}}: !tile.view<64x32xf16>)
// CHECK: %[[TILE:.*]] = tile.load %[[W]][%{{.*}}, %{{.*}}] : !tile.view<32x64xf16> -> tensor<32x64xf16>
// CHECK: %[[T:.*]] = tile.permute %[[TILE]] [1, 0] : tensor<32x64xf16> -> tensor<64x32xf16>
// CHECK: tile.mma %{{.*}}, %[[T]], %{{.*}} : tensor<64x64xf16>, tensor<64x32xf16>, tensor<64x32xf32>
// CHECK-NOT: tile.kernel
// CHECK-LABEL: func.func @read_through(
// CHECK-SAME: %[[X:.*]]: memref<64x64xf16> {{.*}}, %[[WB:.*]]: memref<32x64xf16> {{.*}}, %[[Y:.*]]: memref<64x32xf16> {{.*}})
// CHECK-NEXT: tile.launch @read_through_k0 grid [1, 1, 1](%[[X]], %[[WB]], %[[Y]])
// CHECK-NEXT: return
func.func @read_through(%X: tensor<64x64xf16>, %W: tensor<32x64xf16>) -> tensor<64x32xf16> {
  %wt = tk.transpose %W [1, 0] : tensor<32x64xf16> -> tensor<64x32xf16>
  %0 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%x = %X : tensor<64x64xf16>, %w = %wt : tensor<64x32xf16>) -> tensor<64x32xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap -1 : tensor<64x64xf16> -> !tb.tile<64x64xf16>
    %2 = tb.input_iterator %w imap [-1, -1, -1] fmap -1 : tensor<64x32xf16> -> !tb.tile<64x32xf16>
    %3 = tb.matmul %1, %2 : !tb.tile<64x64xf16>, !tb.tile<64x32xf16> -> !tb.tile<64x32xf16>
    %4 = tb.forloop_accum none %3 : (!tb.tile<64x32xf16>) -> !tb.tile<64x32xf16>
    %5 = tb.output_saver %4 omap [-1, -1, -1] : !tb.tile<64x32xf16> -> tensor<64x32xf16>
    tb.yield %5 : tensor<64x32xf16>
  }
  return %0 : tensor<64x32xf16>
}

// -----

// Read through by the product, and returned: the transpose keeps its copy
// kernel, and the product still reads W.
// CHECK-LABEL: tile.kernel @read_through_returned_k0(
// CHECK-SAME: %{{.*}}: !tile.view<32x64xf16>, %{{.*}}: !tile.view<64x32xf16>)
// CHECK-LABEL: tile.kernel @read_through_returned_k1(
// CHECK-SAME: %{{.*}}: !tile.view<64x64xf16>, %{{.*}}: !tile.view<32x64xf16>, %{{.*}}: !tile.view<64x32xf16>)
// CHECK-LABEL: func.func @read_through_returned(
// CHECK-SAME: %[[X:.*]]: memref<64x64xf16> {{.*}}, %[[W:.*]]: memref<32x64xf16> {{.*}}, %[[Y:.*]]: memref<64x32xf16> {{.*}}, %[[WT:.*]]: memref<64x32xf16> {{.*}})
// CHECK-NEXT: tile.launch @read_through_returned_k0 grid [{{.*}}](%[[W]], %[[WT]])
// CHECK-NEXT: tile.launch @read_through_returned_k1 grid [1, 1, 1](%[[X]], %[[W]], %[[Y]])
func.func @read_through_returned(%X: tensor<64x64xf16>, %W: tensor<32x64xf16>) -> (tensor<64x32xf16>, tensor<64x32xf16>) {
  %wt = tk.transpose %W [1, 0] : tensor<32x64xf16> -> tensor<64x32xf16>
  %0 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%x = %X : tensor<64x64xf16>, %w = %wt : tensor<64x32xf16>) -> tensor<64x32xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap -1 : tensor<64x64xf16> -> !tb.tile<64x64xf16>
    %2 = tb.input_iterator %w imap [-1, -1, -1] fmap -1 : tensor<64x32xf16> -> !tb.tile<64x32xf16>
    %3 = tb.matmul %1, %2 : !tb.tile<64x64xf16>, !tb.tile<64x32xf16> -> !tb.tile<64x32xf16>
    %4 = tb.forloop_accum none %3 : (!tb.tile<64x32xf16>) -> !tb.tile<64x32xf16>
    %5 = tb.output_saver %4 omap [-1, -1, -1] : !tb.tile<64x32xf16> -> tensor<64x32xf16>
    tb.yield %5 : tensor<64x32xf16>
  }
  return %0, %wt : tensor<64x32xf16>, tensor<64x32xf16>
}

// -----

// A reshape the function does not return is a view: it has no kernel and
// no buffer, and its reader binds its input's buffer (the 16x1x64 rows as
// 16 rows of 64).
// CHECK-LABEL: tile.kernel @reshape_view_k0(
// CHECK-SAME: %{{.*}}: !tile.view<16x64xf16>, %{{.*}}: !tile.view<64x32xf16>, %{{.*}}: !tile.view<16x32xf16>)
// CHECK-NOT: tile.kernel
// CHECK-LABEL: func.func @reshape_view(
// CHECK-SAME: %[[A:.*]]: memref<16x1x64xf16> {{.*}}, %[[W:.*]]: memref<64x32xf16> {{.*}}, %[[Y:.*]]: memref<16x32xf16> {{.*}})
// CHECK-NEXT: tile.launch @reshape_view_k0 grid [1, 1, 1](%[[A]], %[[W]], %[[Y]]) : memref<16x1x64xf16>, memref<64x32xf16>, memref<16x32xf16>
// CHECK-NEXT: return
func.func @reshape_view(%A: tensor<16x1x64xf16>, %W: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %rows = tk.reshape %A : tensor<16x1x64xf16> -> tensor<16x64xf16>
  %0 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%x = %rows : tensor<16x64xf16>, %w = %W : tensor<64x32xf16>) -> tensor<16x32xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap -1 : tensor<16x64xf16> -> !tb.tile<16x64xf16>
    %2 = tb.input_iterator %w imap [-1, -1, -1] fmap -1 : tensor<64x32xf16> -> !tb.tile<64x32xf16>
    %3 = tb.matmul %1, %2 : !tb.tile<16x64xf16>, !tb.tile<64x32xf16> -> !tb.tile<16x32xf16>
    %4 = tb.forloop_accum none %3 : (!tb.tile<16x32xf16>) -> !tb.tile<16x32xf16>
    %5 = tb.output_saver %4 omap [-1, -1, -1] : !tb.tile<16x32xf16> -> tensor<16x32xf16>
    tb.yield %5 : tensor<16x32xf16>
  }
  return %0 : tensor<16x32xf16>
}

// -----

// A grid-wide rms_norm: each block squares and sums its part of every row,
// the blocks along x add up those sums (tile.reduce_across_blocks), and the
// mean divides by the whole row, 4 blocks x 16 columns.
// CHECK-LABEL: tile.kernel @grid_norm_k0(
// CHECK-DAG: %[[COUNT:.*]] = arith.constant dense<6.400000e+01> : tensor<32xf32>
// CHECK: %[[Z:.*]] = scf.for
// CHECK: %[[SQ:.*]] = arith.mulf %[[Z]], %[[Z]] : tensor<32x16xf32>
// CHECK-NEXT: %[[PART:.*]] = tile.reduce sum %[[SQ]] dim 1 : tensor<32x16xf32> -> tensor<32xf32>
// CHECK-NEXT: %[[ROW:.*]] = tile.reduce_across_blocks sum %[[PART]] along x : tensor<32xf32>
// CHECK-NEXT: arith.divf %[[ROW]], %[[COUNT]] : tensor<32xf32>
// CHECK: tile.store
func.func @grid_norm(%Y: tensor<8x32xf16>, %W: tensor<32x64xf16>) -> tensor<8x64xf16> {
  %r = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 2
      (%y = %Y : tensor<8x32xf16>, %w = %W : tensor<32x64xf16>) -> tensor<8x64xf16> {
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap 1 : tensor<8x32xf16> -> !tb.tile<8x16xf16>
    %wt = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<32x64xf16> -> !tb.tile<16x16xf16>
    %p = tb.matmul %yt, %wt : !tb.tile<8x16xf16>, !tb.tile<16x16xf16> -> !tb.tile<8x16xf16>
    %z = tb.forloop_accum sum %p : (!tb.tile<8x16xf16>) -> !tb.tile<8x16xf16>
    %n = tb.rms_norm %z across 0 {epsilon = 1.0e-5 : f32} : !tb.tile<8x16xf16>
    %o = tb.output_saver %n omap [1, -1, -1] : !tb.tile<8x16xf16> -> tensor<8x64xf16>
    tb.yield %o : tensor<8x64xf16>
  }
  return %r : tensor<8x64xf16>
}

// -----

// A tk.map is an elementwise kernel whose tile program is its scalar code
// on tiles: 16-bit values computed in f32, an extf to f32 is the value
// itself, a truncf to f16 rounds (truncf, extf) before the result is
// stored, comparisons give i1 tiles.
// CHECK-LABEL: tile.kernel @map_k0
// CHECK: %[[X:.*]] = tile.load %{{.*}} : !tile.view<8x64xf16> -> tensor<8x64xf16>
// CHECK: %[[W:.*]] = arith.extf %[[X]] : tensor<8x64xf16> to tensor<8x64xf32>
// CHECK: %[[B:.*]] = tile.broadcast
// CHECK: %[[C:.*]] = arith.cmpf ogt, %[[W]], %[[B]] : tensor<8x64xf32>
// CHECK: %[[T:.*]] = math.tanh %[[W]] : tensor<8x64xf32>
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[T]], %{{.*}} : tensor<8x64xi1>, tensor<8x64xf32>
// CHECK: %[[R:.*]] = arith.truncf %[[S]] : tensor<8x64xf32> to tensor<8x64xf16>
// CHECK: %[[E:.*]] = arith.extf %[[R]] : tensor<8x64xf16> to tensor<8x64xf32>
// CHECK: %[[O:.*]] = arith.truncf %[[E]] : tensor<8x64xf32> to tensor<8x64xf16>
// CHECK: tile.store %[[O]]
func.func @map(%s: tensor<8x64xf16>, %bias: tensor<64xf32>) -> tensor<8x64xf16> {
  %0 = tk.map (%a = %s : tensor<8x64xf16>, %b = %bias : tensor<64xf32>) -> tensor<8x64xf16> {
    %w = arith.extf %a : f16 to f32
    %c = arith.cmpf ogt, %w, %b : f32
    %low = arith.constant -1.0e+04 : f32
    %t = math.tanh %w : f32
    %m = arith.select %c, %t, %low : f32
    %n = arith.truncf %m : f32 to f16
    tk.yield %n : f16
  }
  return %0 : tensor<8x64xf16>
}

// -----

// An elementwise kernel of rank > 3 is tiled on views of rank 3 or less:
// unit dims go, and neighbouring dims merge where every operand has both
// or broadcasts along both (keys repeated for 3 grouped heads: 2x2 -> 4,
// 8x16 -> 128). The result is reshaped back: the kernel writes the
// function's result buffer through its own view, no copy.
// CHECK-LABEL: tile.kernel @repeat_kv_k0
// CHECK-SAME: (%{{.*}}: !tile.view<4x1x128xf16>, %{{.*}}: !tile.view<4x3x128xf16>)
// CHECK-LABEL: func.func @repeat_kv
// CHECK-SAME: (%[[K:.*]]: memref<2x2x1x8x16xf16> {{.*}}, %[[OUT:.*]]: memref<2x2x3x8x16xf16> {{.*}})
// CHECK-NEXT: tile.launch @repeat_kv_k0 grid [1, 3, 4](%[[K]], %[[OUT]])
// CHECK-NEXT: return
func.func @repeat_kv(%k: tensor<2x2x1x8x16xf16>) -> tensor<2x2x3x8x16xf16> {
  %0 = tk.map (%a = %k : tensor<2x2x1x8x16xf16>) -> tensor<2x2x3x8x16xf16> {
    tk.yield %a : f16
  }
  return %0 : tensor<2x2x3x8x16xf16>
}

// -----

// A split and a concat: one copy kernel per part, between the part's view
// and the whole's at the part's offset. Along the last dim the views are
// [rows, dim] and tiles divide the offset (8); along another dim,
// [outer, dim, inner] in rows of the inner dims.
// CHECK-LABEL: tile.kernel @rotate_k0(
// CHECK-SAME: %[[W:.*]]: !tile.view<14x16xf32>, %[[P:.*]]: !tile.view<14x8xf32>
// CHECK: %[[L:.*]] = tile.load %[[W]][%{{.*}}, %{{.*}}] : !tile.view<14x16xf32> -> tensor<1x8xf32>
// CHECK: tile.store %[[L]], %[[P]]
// CHECK-LABEL: tile.kernel @rotate_k0_1(
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[AT:.*]] = arith.addi %{{.*}}, %[[ONE]] : index
// CHECK: tile.load %{{.*}}[%{{.*}}, %[[AT]]] : !tile.view<14x16xf32> -> tensor<1x8xf32>
// CHECK-LABEL: tile.kernel @rotate_k2(
// CHECK-SAME: !tile.view<14x8xf32>, %{{.*}}: !tile.view<14x16xf32>
// CHECK-LABEL: tile.kernel @rotate_k3(
// CHECK-SAME: !tile.view<2x3x8xf32>, %{{.*}}: !tile.view<2x7x8xf32>
// CHECK: tile.load %{{.*}} : !tile.view<2x3x8xf32> -> tensor<1x1x8xf32>
// CHECK-LABEL: func.func @rotate
// CHECK: tile.launch @rotate_k0 grid [1, 14, 1]
// CHECK: tile.launch @rotate_k0_1 grid [1, 14, 1]
// CHECK: tile.launch @rotate_k3 grid [1, 3, 2]
// CHECK: tile.launch @rotate_k3_1 grid [1, 4, 2]
func.func @rotate(%x: tensor<7x2x16xf32>, %y: tensor<2x3x8xf32>, %z: tensor<2x4x8xf32>) -> (tensor<7x2x16xf32>, tensor<2x7x8xf32>) {
  %a, %b = tk.split %x dim 2 : tensor<7x2x16xf32> -> tensor<7x2x8xf32>, tensor<7x2x8xf32>
  %n = tk.unary neg %b : tensor<7x2x8xf32>
  %c = tk.concat %n, %a dim 2 : tensor<7x2x8xf32>, tensor<7x2x8xf32> -> tensor<7x2x16xf32>
  %d = tk.concat %y, %z dim 1 : tensor<2x3x8xf32>, tensor<2x4x8xf32> -> tensor<2x7x8xf32>
  return %c, %d : tensor<7x2x16xf32>, tensor<2x7x8xf32>
}
