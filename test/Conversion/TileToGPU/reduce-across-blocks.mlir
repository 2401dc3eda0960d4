// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts --tileopt-lower-tile | FileCheck %s

// Row sums of 16 rows combined over the 8 blocks of the launch grid along
// x: the kernel gets a zeroed partials array of 8 x 16 f32 words and a grid
// barrier {arrivals, generation} in device memory. Each thread writes its
// elements' words to the block's row, the first thread fences, arrives
// (atomic add) and waits for the next generation, fences again; then each
// element is added up over the 8 rows of its group with relaxed loads at
// device scope: 128 threads / 16 elements = 8 slices of the 8 blocks, one
// thread each, then the first 16 threads add up their element's slices.
// CHECK-DAG:     llvm.mlir.global internal @sums_partials0() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<128 x f32>
// CHECK-DAG:     llvm.mlir.global internal @sums_grid_barrier() {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<2 x i32>
// CHECK-LABEL:   gpu.func @sums
// CHECK:         gpu.barrier
// CHECK:         llvm.mlir.addressof @sums_partials0 : !llvm.ptr<1>
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// CHECK:         gpu.barrier
// CHECK:         llvm.fence syncscope("device") acq_rel
// CHECK:         llvm.load %{{.*}} atomic syncscope("device") acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK:         llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic
// CHECK:         arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK:         scf.while
// CHECK:         nvvm.nanosleep
// CHECK:         llvm.fence syncscope("device") acq_rel
// CHECK:         gpu.barrier
// CHECK:         %[[SLICE:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK:         scf.for %{{.*}} = %[[SLICE]] to %c8{{.*}} step %c8{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32)
// CHECK:         %[[WORD:.*]] = llvm.load %{{.*}} atomic syncscope("device") monotonic {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK:         arith.addf %[[ACC]], %[[WORD]] : f32
// CHECK:         gpu.barrier
// CHECK:         scf.for %{{.*}} = %c0{{.*}} to %c8{{.*}} step %c1{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}) -> (f32)
// CHECK:         %[[SLICESUM:.*]] = memref.load
// CHECK:         arith.addf %[[SUM]], %[[SLICESUM]] : f32
// CHECK:         gpu.barrier
// CHECK:         gpu.return
tile.kernel @sums(%v: !tile.view<128x16xf32>, %out: !tile.view<16xf32>) {
  %c0 = arith.constant 0 : index
  %x = tile.block_id x
  %t = tile.load %v[%x, %c0] : !tile.view<128x16xf32> -> tensor<16x16xf32>
  %r = tile.reduce sum %t dim 1 : tensor<16x16xf32> -> tensor<16xf32>
  %s = tile.reduce_across_blocks sum %r along x : tensor<16xf32>
  tile.store %s, %out[%c0] : tensor<16xf32>, !tile.view<16xf32>
  tile.return
}
func.func @run(%v: memref<128x16xf32>, %out: memref<16xf32>) {
  tile.launch @sums grid [8, 1, 1](%v, %out) : memref<128x16xf32>, memref<16xf32>
  return
}

