// RUN: tileopt-opt %s --tileopt-assign-layouts="chip=sm_90a num-warps=16" --tileopt-lower-tile="num-warps=16" \
// RUN:   -verify-diagnostics | FileCheck %s

// A tile TMA cannot copy in one box per panel (over 256 rows) keeps the
// cp.async pipeline, with a remark at its load that names the limit.
// CHECK-LABEL: gpu.func @tall
// CHECK-NOT:     cp.async.bulk.tensor
// CHECK-NOT:     mbarrier
// CHECK:         nvvm.cp.async.shared.global
// CHECK:         nvvm.wgmma.mma_async
tile.kernel @tall(%a: !tile.view<1024x1024xbf16>, %b: !tile.view<1024x1024xbf16>,
                  %c: !tile.view<1024x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant dense<0.0> : tensor<512x64xf32>
  %acc = scf.for %k = %c0 to %c16 step %c1 iter_args(%sum = %zero) -> (tensor<512x64xf32>) {
    // expected-remark @below {{allow_tma not followed, no TMA: a TMA box has at most 256 rows; the tensor<512x64xbf16> load has 512}}
    %ta = tile.load %a[%c0, %k] latency 2 allow_tma : !tile.view<1024x1024xbf16> -> tensor<512x64xbf16>
    // expected-remark @below {{allow_tma not followed, no TMA: a TMA box has at most 256 rows; the tensor<512x64xbf16> load has 512}}
    %tb = tile.load %b[%k, %c0] latency 2 allow_tma : !tile.view<1024x1024xbf16> -> tensor<64x64xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<512x64xbf16>, tensor<64x64xbf16>, tensor<512x64xf32>
    scf.yield %next : tensor<512x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<512x64xf32>, !tile.view<1024x1024xf32>
  tile.return
}
