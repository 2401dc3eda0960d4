// RUN: tileopt-opt %s -split-input-file --tileopt-lower-tile -verify-diagnostics \
// RUN:   | FileCheck %s

// tileopt-lower-tile on tile IR given as it is, without
// tileopt-assign-layouts: it reads the layouts and the decisions of the IR,
// and refuses IR that lacks them or that it cannot build.

// Layouts written by hand are those the fragments follow: 512 f32 on 128
// threads in chunks of 2 (tileopt-assign-layouts would deal chunks of 4)
// are two 8-byte loads a thread.

// CHECK-LABEL: gpu.func @hand_laid_out
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK:         math.exp %{{.*}} : vector<4xf32>
#blocked = #tile.blocked<chunk = 2, warps = 4>
tile.kernel @hand_laid_out(%v: !tile.view<512xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0] : !tile.view<512xf32> -> tensor<512xf32, #blocked>
  %e = math.exp %t : tensor<512xf32, #blocked>
  tile.store %e, %v[%c0] : tensor<512xf32, #blocked>, !tile.view<512xf32>
  tile.return
}

// -----

tile.kernel @without_layouts(%v: !tile.view<512xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op gives a tile without a layout: tileopt-assign-layouts gives every tile one, before tileopt-lower-tile}}
  %t = tile.load %v[%c0] : !tile.view<512xf32> -> tensor<512xf32>
  tile.store %t, %v[%c0] : tensor<512xf32>, !tile.view<512xf32>
  tile.return
}

// -----

#blocked = #tile.blocked<chunk = 2, warps = 8>
tile.kernel @other_warps(%v: !tile.view<512xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op gives a tile laid out over 8 warps; tileopt-lower-tile runs blocks of 4 (num-warps)}}
  %t = tile.load %v[%c0] : !tile.view<512xf32> -> tensor<512xf32, #blocked>
  tile.store %t, %v[%c0] : tensor<512xf32, #blocked>, !tile.view<512xf32>
  tile.return
}

// -----

// A ring of TMA copies recorded for mma.sync, which reads its stages with
// ldmatrix, not as panels.
#blocked = #tile.blocked<chunk = 8, warps = 4>
#mma = #tile.mma_sync<warps = [2, 2]>
tile.kernel @ring_it_cannot_build(%a: !tile.view<?x1024xbf16>, %c: !tile.view<?x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{'scf.for' op cannot be pipelined as its #tile.mma_pipeline<tma, stages = 3, staging = panels> says: wgmma reads its stages as panels, and only wgmma does}}
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32, #mma>) {
    %ta = tile.load %a[%c0, %k] latency 3 allow_tma : !tile.view<?x1024xbf16> -> tensor<64x64xbf16, #blocked>
    %tb = tile.load %a[%k, %c0] latency 3 allow_tma : !tile.view<?x1024xbf16> -> tensor<64x64xbf16, #blocked>
    %next = tile.mma %ta, %tb, %s : tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>, tensor<64x64xf32, #mma>
    scf.yield %next : tensor<64x64xf32, #mma>
  } {tile.mma_pipeline = #tile.mma_pipeline<tma, stages = 3, staging = panels>}
  tile.store %acc, %c[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x64xf32>
  tile.return
}

// -----

// A hint on the multiplicand of a loop without a tile.mma_pipeline that no
// pass followed gets a warning saying why no ring was built.
#blocked = #tile.blocked<chunk = 8, warps = 4>
#mma = #tile.mma_sync<warps = [2, 2]>
tile.kernel @hint_nothing_followed(%a: !tile.view<?x1024xbf16>, %c: !tile.view<?x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32, #mma>) {
    // expected-warning @+1 {{latency hint not followed: the loop has no tile.mma_pipeline (tileopt-assign-layouts)}}
    %ta = tile.load %a[%c0, %k] latency 3 : !tile.view<?x1024xbf16> -> tensor<64x64xbf16, #blocked>
    %tb = tile.load %a[%k, %c0] : !tile.view<?x1024xbf16> -> tensor<64x64xbf16, #blocked>
    %next = tile.mma %ta, %tb, %s : tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>, tensor<64x64xf32, #mma>
    scf.yield %next : tensor<64x64xf32, #mma>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x64xf32>
  tile.return
}
