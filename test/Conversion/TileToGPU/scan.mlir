// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts --tileopt-lower-tile | FileCheck %s

// A row cumsum of 1024 f32 over 128 threads (8 per chunk, 128 chunks per
// row): in-chunk scans, the chunk totals in shared memory (128 words),
// log2(128) = 7 Hillis-Steele steps, each read then barrier-separated write.
// CHECK-LABEL: gpu.func @cumsum
// CHECK-SAME:    workgroup(%[[SCRATCH:.*]] : memref<128xf32, #gpu.address_space<workgroup>>)
// CHECK:         gpu.barrier
// CHECK:         memref.store %{{.*}}, %[[SCRATCH]]
// CHECK:         gpu.barrier
// CHECK-COUNT-7: arith.cmpi uge, %{{.*}}, %{{.*}} : index
// CHECK:         gpu.return
tile.kernel @cumsum(%x: !tile.view<?x1024xf32>, %y: !tile.view<?x1024xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x1024xf32> -> tensor<1x1024xf32>
  %s = tile.scan sum %t dim 1 : tensor<1x1024xf32>
  tile.store %s, %y[%i, %c0] : tensor<1x1024xf32>, !tile.view<?x1024xf32>
  tile.return
}

// -----

// Reversed, the neighbour is the next chunk of the row (position + d <
// chunks per row).
// CHECK-LABEL: gpu.func @suffix_max
// CHECK:         arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK:         arith.maximumf
tile.kernel @suffix_max(%x: !tile.view<?x256xf32>, %y: !tile.view<?x256xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x256xf32> -> tensor<4x256xf32>
  %s = tile.scan max %t dim 1 reverse : tensor<4x256xf32>
  tile.store %s, %y[%i, %c0] : tensor<4x256xf32>, !tile.view<?x256xf32>
  tile.return
}
