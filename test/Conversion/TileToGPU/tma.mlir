// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts="chip=sm_90a" --tileopt-lower-tile \
// RUN:   -verify-diagnostics | FileCheck %s
// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts="chip=sm_90" --tileopt-lower-tile 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SM90

// On sm_90a, the operands of a pipelined wgmma tile.mma whose loads allow
// TMA come by cp.async.bulk.tensor. The kernel takes a tensor map per
// operand after its other parameters (a device pointer to a CUtensorMap;
// tileopt.tensor_maps says of which view and with which box: A's 128 rows
// by 64 columns, and B's 64 rows by 64, twice per stage for its two
// 64-column panels), and one mbarrier (i64) per stage. The first thread
// initialises them, all meet at a barrier, then the first thread issues
// the copies of the first two stages: per stage an expect_tx of 32 KiB
// (both tiles) and three copies (A, B's two panels), coordinates innermost
// first. Iteration k waits for the phase of its stage, runs its wgmma ops
// with one group left in flight, meets the others at the one barrier of
// the step, and the first thread refills the stage of k - 1. No cp.async.
// CHECK-LABEL: func.func @main
// CHECK:         %[[A:.*]] = memref.cast %arg0 : memref<1024x1024xbf16> to memref<*xbf16>
// CHECK:         %[[MAPA:.*]] = nvgpu.tma.create.descriptor %[[A]] box[%{{.*}}, %{{.*}}] : memref<*xbf16> -> <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
// CHECK:         %[[PTRA:.*]] = builtin.unrealized_conversion_cast %[[MAPA]] : {{.*}} to !llvm.ptr
// CHECK:         nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK:         gpu.launch_func @tileopt_kernels::@staged {{.*}} args({{.*}}, %[[PTRA]] : !llvm.ptr, %{{.*}} : !llvm.ptr)
// CHECK-LABEL: gpu.func @staged
// CHECK-SAME:    %[[TMA:[^:]*]]: !llvm.ptr, %[[TMB:[^:]*]]: !llvm.ptr) workgroup(%{{.*}} : memref<3xi64, #gpu.address_space<workgroup>>)
// CHECK-SAME:    tileopt.tensor_maps = [{box = [128, 64], view = 0 : i64}, {box = [64, 64], view = 1 : i64}]
// CHECK:         scf.if
// CHECK-COUNT-3:   nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK-NEXT:      nvvm.fence.mbarrier.init
// CHECK:         nvvm.fence.proxy
// CHECK-NEXT:    gpu.barrier
// CHECK:         scf.if
// CHECK:           nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// CHECK:           nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TMA]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK-COUNT-2:   nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TMB]],
// CHECK:           nvvm.mbarrier.arrive.expect_tx
// CHECK-COUNT-3:   nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK:         scf.for {{.*}} -> (vector<128xf32>, index, i32)
// CHECK:           nvvm.mbarrier.try_wait.parity
// CHECK-NOT:       gpu.barrier
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK-COUNT-8:   nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// CHECK-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:           gpu.barrier
// CHECK:           scf.if
// CHECK:             nvvm.mbarrier.arrive.expect_tx
// CHECK-COUNT-3:     nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK:           arith.xori
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    gpu.barrier
// CHECK:         scf.if
// CHECK-COUNT-3:   nvvm.mbarrier.inval
// CHECK-NOT:     nvvm.cp.async.shared.global
// On sm_90 the kernel keeps mma.sync and cp.async, and says why.
// SM90: remark: allow_tma not followed, no TMA: TMA feeds the operands of wgmma only (chip sm_90a and a shape wgmma takes)
// SM90-LABEL: gpu.func @staged
// SM90-NOT:     !llvm.ptr)
// SM90-NOT:     cp.async.bulk.tensor
// SM90:         nvvm.cp.async.shared.global
// SM90:         nvvm.mma.sync
func.func @main(%a: memref<1024x1024xbf16>, %b: memref<1024x1024xbf16>,
                %c: memref<1024x1024xbf16>) {
  tile.launch @staged grid [8, 8, 1] (%a, %b, %c)
      : memref<1024x1024xbf16>, memref<1024x1024xbf16>, memref<1024x1024xbf16>
  return
}

tile.kernel @staged(%a: !tile.view<1024x1024xbf16>, %b: !tile.view<1024x1024xbf16>,
                    %c: !tile.view<1024x1024xbf16>) {
  %i = tile.block_id x
  %j = tile.block_id y
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %c16 step %c1 iter_args(%sum = %zero) -> (tensor<128x128xf32>) {
    %ta = tile.load %a[%i, %k] latency 3 allow_tma : !tile.view<1024x1024xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%k, %j] latency 3 allow_tma : !tile.view<1024x1024xbf16> -> tensor<64x128xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    scf.yield %next : tensor<128x128xf32>
  }
  %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
  tile.store %out, %c[%i, %j] : tensor<128x128xbf16>, !tile.view<1024x1024xbf16>
  tile.return
}

// -----

// TMA only where both operand loads allow it: with one, both keep cp.async,
// and a remark at that load says why.
// CHECK-LABEL: gpu.func @one_allowed
// CHECK-NOT:     cp.async.bulk.tensor
// CHECK:         nvvm.cp.async.shared.global
// CHECK:         nvvm.wgmma.mma_async
tile.kernel @one_allowed(%a: !tile.view<1024x1024xbf16>, %b: !tile.view<1024x1024xbf16>,
                         %c: !tile.view<1024x1024xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %c16 step %c1 iter_args(%sum = %zero) -> (tensor<128x128xf32>) {
    // expected-remark @below {{allow_tma not followed, no TMA: the tensor<64x128xbf16> load has no allow_tma}}
    %ta = tile.load %a[%c0, %k] latency 3 allow_tma : !tile.view<1024x1024xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%k, %c0] latency 3 : !tile.view<1024x1024xbf16> -> tensor<64x128xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    scf.yield %next : tensor<128x128xf32>
  }
  %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
  tile.store %out, %c[%c0, %c0] : tensor<128x128xbf16>, !tile.view<1024x1024xbf16>
  tile.return
}

// -----

// TMA copies only pipelined tile.mma operands; other loads that allow it
// stay plain loads, with a remark.
// CHECK-LABEL: gpu.func @not_an_operand
// CHECK-NOT:     cp.async.bulk.tensor
tile.kernel @not_an_operand(%x: !tile.view<64x64xbf16>, %y: !tile.view<64x64xbf16>) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{allow_tma not followed, no TMA: TMA copies only the operands of tile.mma ops pipelined in an scf.for (a latency hint of 2 or more)}}
  %t = tile.load %x[%c0, %c0] allow_tma : !tile.view<64x64xbf16> -> tensor<64x64xbf16>
  tile.store %t, %y[%c0, %c0] : tensor<64x64xbf16>, !tile.view<64x64xbf16>
  tile.return
}
