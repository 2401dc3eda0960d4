// Loops that have a tile.mma_pipeline (tileopt-assign-layouts decides which:
// test/Transforms/assign-layouts.mlir) are the code generator's and left as
// they are; a hint on another load of such a loop is not followed, with a
// remark. A loop without one (here: its ring would not fit two stages in
// shared memory) is this pass's.
// RUN: tileopt-opt %s -split-input-file -verify-diagnostics --tileopt-pipeline-tile-loads \
// RUN:   | FileCheck %s

// CHECK-LABEL: tile.kernel @staged_with_bias
// CHECK:         scf.for {{.*}} -> (tensor<16x32xf32>, tensor<16x32xf32>) {
// CHECK-NEXT:      tile.load %{{.*}} latency 3
// CHECK-NEXT:      tile.load %{{.*}} latency 3
// CHECK-NEXT:      tile.load %{{.*}} latency 3
// CHECK-NEXT:      tile.mma
// CHECK-NEXT:      arith.addf
tile.kernel @staged_with_bias(%x: !tile.view<8x1024xf16>, %w: !tile.view<1024x1024xf16>,
                              %b: !tile.view<16x8192xf32>, %o: !tile.view<8x1024xf32>) {
  %j = tile.block_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant dense<0.0> : tensor<16x32xf32>
  %acc:2 = scf.for %k = %c0 to %c8 step %c1 iter_args(%a = %zero, %s = %zero) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
    %tx = tile.load %x[%c0, %k] latency 3 padding zero : !tile.view<8x1024xf16> -> tensor<16x128xf16>
    %tw = tile.load %w[%k, %j] latency 3 : !tile.view<1024x1024xf16> -> tensor<128x32xf16>
    // expected-remark @+1 {{latency hint not followed: the loop's tile.mma multiplicands are pipelined through shared memory (tileopt-lower-tile), which keeps the loop as it is}}
    %tb = tile.load %b[%c0, %k] latency 3 : !tile.view<16x8192xf32> -> tensor<16x32xf32>
    %n = tile.mma %tx, %tw, %a : tensor<16x128xf16>, tensor<128x32xf16>, tensor<16x32xf32>
    %s2 = arith.addf %s, %tb : tensor<16x32xf32>
    scf.yield %n, %s2 : tensor<16x32xf32>, tensor<16x32xf32>
  } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 3, staging = swizzled>}
  %sum = arith.addf %acc#0, %acc#1 : tensor<16x32xf32>
  tile.store %sum, %o[%c0, %j] : tensor<16x32xf32>, !tile.view<8x1024xf32>
  tile.return
}

// -----

// 16x2048 and 2048x32 f16 tiles: 192 KiB a stage, two over the 227 KiB a
// block has. Not the ring's: this pass takes the loop, and its register
// budget refuses it.
// CHECK-LABEL: tile.kernel @ring_too_large
tile.kernel @ring_too_large(%x: !tile.view<8x8192xf16>, %w: !tile.view<8192x1024xf16>,
                            %o: !tile.view<8x1024xf32>) {
  %j = tile.block_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : tensor<16x32xf32>
  // expected-remark @+1 {{tiles in flight would take 768 registers per thread, over the budget of 128: the loads are not pipelined (384 even one iteration ahead)}}
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (tensor<16x32xf32>) {
    %tx = tile.load %x[%c0, %k] latency 3 padding zero : !tile.view<8x8192xf16> -> tensor<16x2048xf16>
    %tw = tile.load %w[%k, %j] latency 3 : !tile.view<8192x1024xf16> -> tensor<2048x32xf16>
    %n = tile.mma %tx, %tw, %a : tensor<16x2048xf16>, tensor<2048x32xf16>, tensor<16x32xf32>
    scf.yield %n : tensor<16x32xf32>
  }
  tile.store %acc, %o[%c0, %j] : tensor<16x32xf32>, !tile.view<8x1024xf32>
  tile.return
}
