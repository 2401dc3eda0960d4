// RUN: tileopt-opt %s -split-input-file -verify-diagnostics \
// RUN:   --tileopt-assign-layouts="chip=sm_90a" | FileCheck %s

// tileopt-assign-layouts on sm_90a: the tile.mma ops of a kernel run on
// wgmma when every one of them can, and their pipelined loops copy by TMA
// where every multiplicand load allows it.

// A wgmma accumulator is reduced, and staged as a multiplicand, from the
// blocked layout: a tile.convert_layout moves it there for those uses
// alone. The ring of a wgmma loop is staged in panels, 1024-byte aligned;
// its loads allow TMA, so TMA fills it.

// CHECK-DAG: #[[B8:blocked[0-9]*]] = #tile.blocked<chunk = 8, warps = 4>
// CHECK-DAG: #[[WGMMA:wgmma[0-9]*]] = #tile.wgmma<warpgroups = 1>
// CHECK-LABEL: tile.kernel @wgmma_attention
// CHECK:      scf.for {{.*}} -> (tensor<64x64xf32, #[[WGMMA]]>) {
// CHECK:        tile.mma {{.*}} : tensor<64x64xbf16, #[[B8]]>, tensor<64x64xbf16, #[[B8]]>, tensor<64x64xf32, #[[WGMMA]]>
// CHECK:      } {tile.mma_pipeline = #tile.mma_pipeline<tma, stages = 3, staging = panels>}
// CHECK-NEXT: %[[S:.*]] = tile.convert_layout %[[ACC:.*]] : tensor<64x64xf32, #[[WGMMA]]> -> tensor<64x64xf32, #[[B8]]>
// CHECK-NEXT: tile.reduce max %[[S]] dim 1 : tensor<64x64xf32, #[[B8]]>
// CHECK:      %[[E:.*]] = math.exp %{{.*}} : tensor<64x64xf32, #[[WGMMA]]>
// CHECK-NEXT: %[[P:.*]] = arith.truncf %[[E]] : tensor<64x64xf32, #[[WGMMA]]> to tensor<64x64xbf16, #[[WGMMA]]>
// CHECK-NEXT: %[[PB:.*]] = tile.convert_layout %[[P]] : tensor<64x64xbf16, #[[WGMMA]]> -> tensor<64x64xbf16, #[[B8]]>
// CHECK:      tile.mma %[[PB]], %{{.*}} : tensor<64x64xbf16, #[[B8]]>, tensor<64x64xbf16, #[[B8]]>, tensor<64x64xf32, #[[WGMMA]]>
tile.kernel @wgmma_attention(%q: !tile.view<?x64xbf16>,
                             %v: !tile.view<?x64xbf16>, %o: !tile.view<?x64xf32>,
                             %m: !tile.view<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) {
    %tq = tile.load %q[%c0, %j] latency 3 allow_tma : !tile.view<?x64xbf16> -> tensor<64x64xbf16>
    %tk = tile.load %v[%j, %c0] latency 3 allow_tma : !tile.view<?x64xbf16> -> tensor<64x64xbf16>
    %next = tile.mma %tq, %tk, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %max = tile.reduce max %s dim 1 : tensor<64x64xf32> -> tensor<64xf32>
  tile.store %max, %m[%c0] : tensor<64xf32>, !tile.view<?xf32>
  %e = math.exp %s : tensor<64x64xf32>
  %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xbf16>
  %tv = tile.load %v[%c0, %c0] : !tile.view<?x64xbf16> -> tensor<64x64xbf16>
  %out = tile.mma %p, %tv, %zero : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  tile.store %out, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x64xf32>
  tile.return
}

// -----

// One tile.mma that wgmma cannot take (K = 32) keeps the whole kernel on
// mma.sync, with a remark; its accumulators are mma.sync's, and a ring is
// filled by cp.async (whose allow_tma gets a remark) in swizzled rows.

// CHECK-DAG: #[[MMA:mma[0-9]*]] = #tile.mma_sync<warps = [2, 2]>
// CHECK-LABEL: tile.kernel @one_mma_sync
// CHECK:      tile.mma {{.*}} tensor<64x64xf32, #[[MMA]]>
// CHECK:      } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 3, staging = swizzled>}
tile.kernel @one_mma_sync(%x: !tile.view<?x64xbf16>, %o: !tile.view<?x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %a = tile.load %x[%c0, %c0] : !tile.view<?x64xbf16> -> tensor<64x32xbf16>
  %b = tile.load %x[%c0, %c0] : !tile.view<?x64xbf16> -> tensor<32x64xbf16>
  // expected-remark @+1 {{runs on mma.sync, not wgmma: wgmma needs K (32) and N (64) multiples of 64 (128-byte swizzled rows of bf16/f16)}}
  %y = tile.mma %a, %b, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %y, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x64xf32>
  %acc = scf.for %j = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32>) {
    // expected-remark @+1 {{allow_tma not followed, no TMA: TMA feeds the operands of wgmma only (chip sm_90a and a shape wgmma takes)}}
    %ta = tile.load %x[%j, %c0] latency 3 allow_tma : !tile.view<?x64xbf16> -> tensor<64x64xbf16>
    // expected-remark @+1 {{allow_tma not followed, no TMA: TMA feeds the operands of wgmma only (chip sm_90a and a shape wgmma takes)}}
    %tb = tile.load %x[%j, %c0] latency 3 allow_tma : !tile.view<?x64xbf16> -> tensor<64x64xbf16>
    %next = tile.mma %ta, %tb, %s : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tile.store %acc, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x64xf32>
  tile.return
}

// -----

// A ring on wgmma whose loads do not all allow TMA is filled by cp.async;
// the load that allows it gets a remark naming the other. So does a load
// outside any ring.

// CHECK-LABEL: tile.kernel @tma_not_allowed
// CHECK:      } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 2, staging = panels>}
tile.kernel @tma_not_allowed(%x: !tile.view<?x128xbf16>, %o: !tile.view<?x128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %acc = scf.for %j = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x128xf32>) {
    // expected-remark @+1 {{allow_tma not followed, no TMA: the tensor<128x128xbf16> load has no allow_tma}}
    %ta = tile.load %x[%j, %c0] latency 2 allow_tma : !tile.view<?x128xbf16> -> tensor<64x128xbf16>
    %tb = tile.load %x[%j, %c0] latency 2 : !tile.view<?x128xbf16> -> tensor<128x128xbf16>
    %next = tile.mma %ta, %tb, %s : tensor<64x128xbf16>, tensor<128x128xbf16>, tensor<64x128xf32>
    scf.yield %next : tensor<64x128xf32>
  }
  tile.store %acc, %o[%c0, %c0] : tensor<64x128xf32>, !tile.view<?x128xf32>
  // expected-remark @+1 {{allow_tma not followed, no TMA: TMA copies only the operands of tile.mma ops pipelined in an scf.for (a latency hint of 2 or more)}}
  %t = tile.load %o[%c0, %c0] allow_tma : !tile.view<?x128xf32> -> tensor<64x128xf32>
  tile.store %t, %o[%c1, %c0] : tensor<64x128xf32>, !tile.view<?x128xf32>
  tile.return
}
