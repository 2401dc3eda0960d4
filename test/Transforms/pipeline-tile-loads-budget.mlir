// The tiles a loop keeps in flight stay in registers: at most
// `register-budget` 32-bit registers per thread (128 by default, on
// `num-warps` 4), else one iteration ahead, else not pipelined.
// RUN: tileopt-opt %s -split-input-file -verify-diagnostics --tileopt-pipeline-tile-loads \
// RUN:   | FileCheck %s
// RUN: tileopt-opt %s -split-input-file --tileopt-pipeline-tile-loads='register-budget=160' \
// RUN:   2>/dev/null | FileCheck %s --check-prefix=WIDER
// RUN: not tileopt-opt %s -split-input-file --tileopt-pipeline-tile-loads='register-budget=-1' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: tileopt-pipeline-tile-loads needs num-warps > 0 and register-budget >= 0, got 4 and -1

// A gated MLP's X (8x256) and W1, W2 tiles (256x32) on 128 threads: 8 + 32
// + 32 registers a step, 144 two steps ahead. (X is negated before the
// mmas: a loop of loads and mmas alone goes to the code generator's
// shared-memory ring instead.) One step ahead fits; two fit
// a budget of 160. One step ahead, the loop is unrolled by 2 (16 steps, no
// remainder); two steps ahead, by 3.
// CHECK-LABEL: tile.kernel @one_ahead
// CHECK-COUNT-3: tile.load
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[TWO]] iter_args({{.*}} -> (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x256xf16>, tensor<256x32xf16>, tensor<256x32xf16>)
// CHECK-COUNT-6:   tile.load
// CHECK:           scf.yield
// CHECK-NOT:     scf.for
// CHECK:         tile.return
// WIDER-LABEL: tile.kernel @one_ahead
// WIDER:         %[[THREE:.*]] = arith.constant 3 : index
// WIDER:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[THREE]] iter_args({{.*}} -> (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x256xf16>, tensor<8x256xf16>, tensor<256x32xf16>, tensor<256x32xf16>, tensor<256x32xf16>, tensor<256x32xf16>)
tile.kernel @one_ahead(%x: !tile.view<8x4096xf16>, %w1: !tile.view<4096x4096xf16>,
                      %w2: !tile.view<4096x4096xf16>, %o: !tile.view<8x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.constant 16 : index
  %j = tile.block_id x
  %zero = arith.constant dense<0.0> : tensor<8x32xf32>
  // expected-remark @+1 {{tiles in flight would take 144 registers per thread, over the budget of 128: the loads are issued one iteration ahead (72 registers)}}
  %acc:2 = scf.for %k = %c0 to %steps step %c1 iter_args(%a1 = %zero, %a2 = %zero) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
    %tx = tile.load %x[%c0, %k] latency 3 : !tile.view<8x4096xf16> -> tensor<8x256xf16>
    %t1 = tile.load %w1[%k, %j] latency 3 : !tile.view<4096x4096xf16> -> tensor<256x32xf16>
    %t2 = tile.load %w2[%k, %j] latency 3 : !tile.view<4096x4096xf16> -> tensor<256x32xf16>
    %nx = arith.negf %tx : tensor<8x256xf16>
    %n1 = tile.mma %nx, %t1, %a1 : tensor<8x256xf16>, tensor<256x32xf16>, tensor<8x32xf32>
    %n2 = tile.mma %nx, %t2, %a2 : tensor<8x256xf16>, tensor<256x32xf16>, tensor<8x32xf32>
    scf.yield %n1, %n2 : tensor<8x32xf32>, tensor<8x32xf32>
  }
  %sum = arith.addf %acc#0, %acc#1 : tensor<8x32xf32>
  tile.store %sum, %o[%c0, %j] : tensor<8x32xf32>, !tile.view<8x4096xf32>
  tile.return
}

// -----

// 8x1024 and 1024x16 tiles: 160 registers a step, 320 two steps ahead: not
// pipelined on the default budget, one step ahead on a budget of 160.
// CHECK-LABEL: tile.kernel @not_pipelined
// CHECK-NOT:     tile.load
// CHECK:         scf.for {{.*}} -> (tensor<8x16xf32>, tensor<8x16xf32>) {
// CHECK-COUNT-3:   tile.load {{.*}} latency 3
// WIDER-LABEL: tile.kernel @not_pipelined
// WIDER:         scf.for {{.*}} -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x1024xf16>, tensor<1024x16xf16>, tensor<1024x16xf16>)
tile.kernel @not_pipelined(%x: !tile.view<8x4096xf16>, %w1: !tile.view<4096x4096xf16>,
                      %w2: !tile.view<4096x4096xf16>, %o: !tile.view<8x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.constant 4 : index
  %j = tile.block_id x
  %zero = arith.constant dense<0.0> : tensor<8x16xf32>
  // expected-remark @+1 {{tiles in flight would take 320 registers per thread, over the budget of 128: the loads are not pipelined (160 even one iteration ahead)}}
  %acc:2 = scf.for %k = %c0 to %steps step %c1 iter_args(%a1 = %zero, %a2 = %zero) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %tx = tile.load %x[%c0, %k] latency 3 : !tile.view<8x4096xf16> -> tensor<8x1024xf16>
    %t1 = tile.load %w1[%k, %j] latency 3 : !tile.view<4096x4096xf16> -> tensor<1024x16xf16>
    %t2 = tile.load %w2[%k, %j] latency 3 : !tile.view<4096x4096xf16> -> tensor<1024x16xf16>
    %nx = arith.negf %tx : tensor<8x1024xf16>
    %n1 = tile.mma %nx, %t1, %a1 : tensor<8x1024xf16>, tensor<1024x16xf16>, tensor<8x16xf32>
    %n2 = tile.mma %nx, %t2, %a2 : tensor<8x1024xf16>, tensor<1024x16xf16>, tensor<8x16xf32>
    scf.yield %n1, %n2 : tensor<8x16xf32>, tensor<8x16xf32>
  }
  %sum = arith.addf %acc#0, %acc#1 : tensor<8x16xf32>
  tile.store %sum, %o[%c0, %j] : tensor<8x16xf32>, !tile.view<8x4096xf32>
  tile.return
}
