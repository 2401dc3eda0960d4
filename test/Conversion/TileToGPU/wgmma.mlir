// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts="chip=sm_90a" --tileopt-lower-tile \
// RUN:   -verify-diagnostics | FileCheck %s
// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts="chip=sm_90" --tileopt-lower-tile \
// RUN:   | FileCheck %s --check-prefix=SM90

// On sm_90a, a pipelined tile.mma whose K and N are multiples of 64 runs on
// wgmma. The stages (3 x (128 x 64 + 64 x 128) bf16, 96 KiB of dynamic
// shared memory) start 1024-byte aligned for the 128-byte swizzle. Each
// thread fences its landed cp.async copies for the async proxy before the
// barrier; then the one warpgroup issues, per k16 step, an m64n128k16 for
// each of its two m64 slices, both operands by descriptor (A K-major: row
// layout, B N-major: row layout too), commits them and waits only for the
// group of the step before, which a second barrier makes every thread's:
// only then are the copies into that step's stage issued. The last group
// is awaited after the loop. No ldmatrix, no mma.sync.
// CHECK:       memref.global "public" @tileopt_dynamic_shared : memref<0xbf16, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
// CHECK-LABEL: gpu.func @staged
// CHECK:         scf.for {{.*}} -> (vector<128xf32>, index)
// CHECK-NEXT:      nvvm.cp.async.wait.group 1
// CHECK-NEXT:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:      gpu.barrier
// CHECK-NOT:       nvvm.cp.async.shared.global
// CHECK-NOT:       nvgpu.ldmatrix
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK-COUNT-8:   nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT:       nvvm.mma.sync
// CHECK:           gpu.barrier
// CHECK:           nvvm.cp.async.shared.global
// CHECK:           nvvm.cp.async.commit.group
// CHECK:           scf.yield %{{.*}}, %{{.*}} : vector<128xf32>, index
// CHECK-NEXT:    }
// CHECK-NEXT:    nvvm.cp.async.wait.group 0
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// The epilogue follows the wgmma accumulator layout: pairs of contiguous
// bf16 stores.
// CHECK:         arith.truncf %{{.*}} : vector<128xf32> to vector<128xbf16>
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
// On sm_90 the same kernel keeps mma.sync.
// SM90-LABEL: gpu.func @staged
// SM90-NOT:     wgmma
// SM90:         nvvm.mma.sync
tile.kernel @staged(%a: !tile.view<1024x1024xbf16>, %b: !tile.view<1024x1024xbf16>,
                    %c: !tile.view<1024x1024xbf16>) {
  %i = tile.block_id x
  %j = tile.block_id y
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %c16 step %c1 iter_args(%sum = %zero) -> (tensor<128x128xf32>) {
    %ta = tile.load %a[%i, %k] latency 3 : !tile.view<1024x1024xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%k, %j] latency 3 : !tile.view<1024x1024xbf16> -> tensor<64x128xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    scf.yield %next : tensor<128x128xf32>
  }
  %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
  tile.store %out, %c[%i, %j] : tensor<128x128xbf16>, !tile.view<1024x1024xbf16>
  tile.return
}

// -----

// Operands from registers are stored into 128-byte-swizzled panels (B's 256
// columns as four 64-column panels: 64 x 64 + 64 x 256 bf16, 1024-byte
// aligned), fenced and met at a barrier. The warpgroup's 64 rows are one
// slice: one m64n256k16 per k16 step.
// CHECK-LABEL: gpu.func @registers
// CHECK-SAME:    workgroup(%[[STAGE:.*]] : memref<20480xbf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
// CHECK:         vector.store %{{.*}}, %[[STAGE]]
// CHECK:         nvvm.fence.proxy
// CHECK-NEXT:    gpu.barrier
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
// CHECK-NEXT:    nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
tile.kernel @registers(%a: !tile.view<64x64xbf16>, %b: !tile.view<64x256xbf16>,
                       %c: !tile.view<64x256xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<64x256xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16>
  %tb = tile.load %b[%c0, %c0] : !tile.view<64x256xbf16> -> tensor<64x256xbf16>
  %d = tile.mma %ta, %tb, %zero : tensor<64x64xbf16>, tensor<64x256xbf16>, tensor<64x256xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x256xf32>, !tile.view<64x256xf32>
  tile.return
}

// -----

// A shape wgmma cannot take keeps mma.sync, with a remark naming the limit.
// CHECK-LABEL: gpu.func @narrow
// CHECK-NOT:     wgmma
// CHECK:         nvvm.mma.sync
tile.kernel @narrow(%a: !tile.view<64x32xbf16>, %b: !tile.view<32x64xbf16>,
                    %c: !tile.view<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.view<64x32xbf16> -> tensor<64x32xbf16>
  %tb = tile.load %b[%c0, %c0] : !tile.view<32x64xbf16> -> tensor<32x64xbf16>
  // expected-remark @below {{runs on mma.sync, not wgmma: wgmma needs K (32) and N (64) multiples of 64 (128-byte swizzled rows of bf16/f16)}}
  %d = tile.mma %ta, %tb, %zero : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}
