// RUN: tileopt-opt %s -split-input-file --tileopt-pipeline-tile-loads | FileCheck %s

// latency 3: two tiles in flight. The first two are loaded before the loop
// (iterations lb and lb + step); iteration k uses the oldest and loads the
// one for k + 2 * step. The loop is then unrolled by 3, so that each slot of
// the queue is refilled by the copy after the one that used it: copy 0 uses
// Q0 and loads k + 2 (used by copy 2), copy 1 uses Q1 and loads k + 3 (the
// next Q0), copy 2 loads k + 4 (the next Q1). 8 iterations leave 2 for a
// remainder loop.
// CHECK-LABEL: tile.kernel @gemm_like
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[T0:.*]] = tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.view<256x256xbf16> -> tensor<64x32xbf16>
// CHECK:         %[[T1:.*]] = tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.view<256x256xbf16> -> tensor<64x32xbf16>
// CHECK:         %[[C6:.*]] = arith.constant 6 : index
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[MAIN:.*]]:3 = scf.for %[[K:.*]] = %{{.*}} to %[[C6]] step %[[C3]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[Q0:.*]] = %[[T0]], %[[Q1:.*]] = %[[T1]])
// CHECK:           %[[TWO:.*]] = arith.constant 2 : index
// CHECK:           %[[D:.*]] = arith.muli %[[C1]], %[[TWO]] : index
// CHECK:           %[[AHEAD:.*]] = arith.addi %[[K]], %[[D]] : index
// CHECK:           %[[N0:.*]] = tile.load %{{.*}}[%{{.*}}, %[[AHEAD]]] : !tile.view<256x256xbf16> -> tensor<64x32xbf16>
// CHECK-NOT:       latency
// CHECK:           math.exp %[[Q0]]
// CHECK:           %[[N1:.*]] = tile.load
// CHECK:           math.exp %[[Q1]]
// CHECK:           %[[N2:.*]] = tile.load
// CHECK:           math.exp %[[N0]]
// CHECK:           scf.yield %{{.*}}, %[[N1]], %[[N2]]
// CHECK:         scf.for %{{.*}} = %[[C6]] to %{{.*}} step %[[C1]] iter_args(%{{.*}} = %[[MAIN]]#0, %{{.*}} = %[[MAIN]]#1, %{{.*}} = %[[MAIN]]#2)
tile.kernel @gemm_like(%a: !tile.view<256x256xbf16>, %c: !tile.view<256x256xbf16>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant dense<0.0> : tensor<64x32xbf16>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (tensor<64x32xbf16>) {
    %t = tile.load %a[%i, %k] latency 3 : !tile.view<256x256xbf16> -> tensor<64x32xbf16>
    %e = math.exp %t : tensor<64x32xbf16>
    %s = arith.addf %acc, %e : tensor<64x32xbf16>
    scf.yield %s : tensor<64x32xbf16>
  }
  tile.store %r, %c[%i, %c0] : tensor<64x32xbf16>, !tile.view<256x256xbf16>
  tile.return
}

// -----

// Two iterations, fewer than the 3 an unrolled body would take: the loop is
// pipelined but not unrolled.
// CHECK-LABEL: tile.kernel @short_loop
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C1]] iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK-COUNT-1:   tile.load
// CHECK:           scf.yield
// CHECK-NOT:     scf.for
tile.kernel @short_loop(%a: !tile.view<256x256xbf16>, %c: !tile.view<256x256xbf16>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : tensor<64x32xbf16>
  %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (tensor<64x32xbf16>) {
    %t = tile.load %a[%i, %k] latency 3 : !tile.view<256x256xbf16> -> tensor<64x32xbf16>
    %s = arith.addf %acc, %t : tensor<64x32xbf16>
    scf.yield %s : tensor<64x32xbf16>
  }
  tile.store %r, %c[%i, %c0] : tensor<64x32xbf16>, !tile.view<256x256xbf16>
  tile.return
}

// -----

// Index arithmetic on the induction variable is recomputed for the
// iteration ahead; loads without a latency above 1 stay as they are.
// CHECK-LABEL: tile.kernel @computed_index
// CHECK:         scf.for %[[K:[^ ]*]] =
// CHECK:           %[[AHEAD:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK:           %[[TWICE:.*]] = arith.muli %[[AHEAD]], %{{.*}} : index
// CHECK:           tile.load %{{.*}}[%{{.*}}, %[[TWICE]]] : !tile.view<256x256xf32> -> tensor<8x32xf32>
// CHECK:           tile.load %{{.*}}[%{{.*}}, %[[K]]] latency 1 : !tile.view<256x256xf32> -> tensor<8x32xf32>
tile.kernel @computed_index(%a: !tile.view<256x256xf32>, %c: !tile.view<256x256xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : tensor<8x32xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (tensor<8x32xf32>) {
    %twice = arith.muli %k, %c2 : index
    %t = tile.load %a[%i, %twice] latency 2 : !tile.view<256x256xf32> -> tensor<8x32xf32>
    %u = tile.load %a[%i, %k] latency 1 : !tile.view<256x256xf32> -> tensor<8x32xf32>
    %s = arith.addf %t, %u : tensor<8x32xf32>
    %s2 = arith.addf %acc, %s : tensor<8x32xf32>
    scf.yield %s2 : tensor<8x32xf32>
  }
  tile.store %r, %c[%i, %c0] : tensor<8x32xf32>, !tile.view<256x256xf32>
  tile.return
}

// -----

// Loads that only feed tile.mma multiplicands stay in place, hint and all,
// in a loop with a tile.mma_pipeline: tileopt-lower-tile pipelines them
// through shared memory with cp.async.
// CHECK-LABEL: tile.kernel @mma_operands
// CHECK:         scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<64x64xf32>)
// CHECK-NEXT:      tile.load %{{.*}}[%{{.*}}, %[[K]]] latency 3
// CHECK-NEXT:      tile.load %{{.*}}[%[[K]], %{{.*}}] latency 3
// CHECK-NEXT:      tile.mma
tile.kernel @mma_operands(%a: !tile.view<256x256xbf16>, %c: !tile.view<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%sum = %zero) -> (tensor<64x64xf32>) {
    %ta = tile.load %a[%c0, %k] latency 3 : !tile.view<256x256xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %a[%k, %c0] latency 3 : !tile.view<256x256xbf16> -> tensor<32x64xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 3, staging = swizzled>}
  tile.store %acc, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<256x256xf32>
  tile.return
}

// -----

// Two mmas in one loop sharing a multiplicand (a gated MLP's X W1 and X W2):
// the code generator stages all three tiles through its cp.async ring (the
// loop's tile.mma_pipeline), so the loop stays as it is.
// CHECK-LABEL: tile.kernel @two_mmas_shared_operand
// CHECK:         scf.for %[[K:[^ ]*]] = {{.*}} -> (tensor<32x64xf32>, tensor<32x64xf32>)
// CHECK-COUNT-3:   tile.load %{{.*}} latency 3
// CHECK:           tile.mma
// CHECK:           tile.mma
// CHECK:           scf.yield
tile.kernel @two_mmas_shared_operand(%x: !tile.view<32x4096xf16>, %w1: !tile.view<4096x4096xf16>,
                                     %w2: !tile.view<4096x4096xf16>, %o: !tile.view<32x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %j = tile.block_id x
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %acc:2 = scf.for %k = %c0 to %c64 step %c1 iter_args(%a1 = %zero, %a2 = %zero) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
    %tx = tile.load %x[%c0, %k] latency 3 : !tile.view<32x4096xf16> -> tensor<32x64xf16>
    %t1 = tile.load %w1[%k, %j] latency 3 : !tile.view<4096x4096xf16> -> tensor<64x64xf16>
    %t2 = tile.load %w2[%k, %j] latency 3 : !tile.view<4096x4096xf16> -> tensor<64x64xf16>
    %n1 = tile.mma %tx, %t1, %a1 : tensor<32x64xf16>, tensor<64x64xf16>, tensor<32x64xf32>
    %n2 = tile.mma %tx, %t2, %a2 : tensor<32x64xf16>, tensor<64x64xf16>, tensor<32x64xf32>
    scf.yield %n1, %n2 : tensor<32x64xf32>, tensor<32x64xf32>
  } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 3, staging = swizzled>}
  %sum = arith.addf %acc#0, %acc#1 : tensor<32x64xf32>
  tile.store %sum, %o[%c0, %j] : tensor<32x64xf32>, !tile.view<32x4096xf32>
  tile.return
}

// -----

// A multiplicand that other ops read too (here X, squared and summed
// beside X W, as rmsnorm_linear does) keeps its loop out of the ring: both
// loads are pipelined here, in registers.
// CHECK-LABEL: tile.kernel @multiplicand_read_elsewhere
// CHECK-COUNT-4: tile.load
// CHECK:         scf.for %[[K:[^ ]*]] = {{.*}} iter_args(
// CHECK-SAME:      -> (tensor<32x64xf32>, tensor<32xf32>, tensor<32x64xf16>, tensor<32x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>)
// CHECK-COUNT-2: tile.load %{{.*}} :
// CHECK:           tile.reduce
// CHECK:           tile.mma
// CHECK:           scf.yield
tile.kernel @multiplicand_read_elsewhere(%x: !tile.view<32x4096xf16>, %w: !tile.view<4096x4096xf16>,
                                         %o: !tile.view<32x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %j = tile.block_id x
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %zeros = arith.constant dense<0.0> : tensor<32xf32>
  %acc:2 = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %zero, %ss = %zeros) -> (tensor<32x64xf32>, tensor<32xf32>) {
    %tx = tile.load %x[%c0, %k] latency 3 : !tile.view<32x4096xf16> -> tensor<32x64xf16>
    %tw = tile.load %w[%k, %j] latency 3 : !tile.view<4096x4096xf16> -> tensor<64x64xf16>
    %wide = arith.extf %tx : tensor<32x64xf16> to tensor<32x64xf32>
    %sq = arith.mulf %wide, %wide : tensor<32x64xf32>
    %rows = tile.reduce sum %sq dim 1 : tensor<32x64xf32> -> tensor<32xf32>
    %n = tile.mma %tx, %tw, %a : tensor<32x64xf16>, tensor<64x64xf16>, tensor<32x64xf32>
    %ss2 = arith.addf %ss, %rows : tensor<32xf32>
    scf.yield %n, %ss2 : tensor<32x64xf32>, tensor<32xf32>
  }
  %r = tile.reshape %acc#1 : tensor<32xf32> -> tensor<32x1xf32>
  %rb = tile.broadcast %r : tensor<32x1xf32> -> tensor<32x64xf32>
  %out = arith.divf %acc#0, %rb : tensor<32x64xf32>
  tile.store %out, %o[%c0, %j] : tensor<32x64xf32>, !tile.view<32x4096xf32>
  tile.return
}

// -----

// A multiplicand computed from its load (here X negated) is no cp.async
// ring's: all three loads are pipelined here, in registers.
// CHECK-LABEL: tile.kernel @mma_operand_computed
// CHECK-COUNT-6: tile.load
// CHECK:         scf.for %[[K:[^ ]*]] = {{.*}} iter_args(
// CHECK-SAME:      -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf16>, tensor<32x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>)
// CHECK-COUNT-3: tile.load %{{.*}} :
// CHECK:           arith.negf
// CHECK:           tile.mma
// CHECK:           tile.mma
// CHECK:           scf.yield
tile.kernel @mma_operand_computed(%x: !tile.view<32x4096xf16>, %w1: !tile.view<4096x4096xf16>,
                                  %w2: !tile.view<4096x4096xf16>, %o: !tile.view<32x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %j = tile.block_id x
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %acc:2 = scf.for %k = %c0 to %c64 step %c1 iter_args(%a1 = %zero, %a2 = %zero) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
    %tx = tile.load %x[%c0, %k] latency 3 : !tile.view<32x4096xf16> -> tensor<32x64xf16>
    %t1 = tile.load %w1[%k, %j] latency 3 : !tile.view<4096x4096xf16> -> tensor<64x64xf16>
    %t2 = tile.load %w2[%k, %j] latency 3 : !tile.view<4096x4096xf16> -> tensor<64x64xf16>
    %nx = arith.negf %tx : tensor<32x64xf16>
    %n1 = tile.mma %nx, %t1, %a1 : tensor<32x64xf16>, tensor<64x64xf16>, tensor<32x64xf32>
    %n2 = tile.mma %nx, %t2, %a2 : tensor<32x64xf16>, tensor<64x64xf16>, tensor<32x64xf32>
    scf.yield %n1, %n2 : tensor<32x64xf32>, tensor<32x64xf32>
  }
  %sum = arith.addf %acc#0, %acc#1 : tensor<32x64xf32>
  tile.store %sum, %o[%c0, %j] : tensor<32x64xf32>, !tile.view<32x4096xf32>
  tile.return
}
