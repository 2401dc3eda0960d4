// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts --tileopt-lower-tile | FileCheck %s

// The kernel ABI: a global pointer per view plus an i64 per dynamic dim;
// 128 threads; chunks of 8 bf16 loaded as one 16-byte vector under a bounds
// check, zero where the padding applies; the store mirrors it.
// CHECK-LABEL: gpu.module @tileopt_kernels
// CHECK:       gpu.func @copy(%[[X:.*]]: !llvm.ptr<1>, %[[ROWS:.*]]: i64, %[[Y:.*]]: !llvm.ptr<1>, %{{.*}}: i64) kernel
// CHECK-SAME:    known_block_size = array<i32: 128, 1, 1>
// CHECK-NOT:     workgroup
// CHECK:         gpu.block_id x
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK:         scf.if %{{.*}} -> (vector<8xbf16>) {
// CHECK:           llvm.getelementptr %[[X]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK:           llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK:         } else {
// CHECK:           vector.broadcast %{{.*}} : bf16 to vector<8xbf16>
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<1>
// CHECK:         gpu.return
tile.kernel @copy(%x: !tile.view<?x2048xbf16>, %y: !tile.view<?x2048xbf16>) {
  %row = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%row, %c0] padding zero : !tile.view<?x2048xbf16> -> tensor<2x2048xbf16>
  tile.store %t, %y[%row, %c0] : tensor<2x2048xbf16>, !tile.view<?x2048xbf16>
  tile.return
}

// -----

// Rows that are not a whole number of chunks (or of unknown length) are
// loaded element by element, each under its own bounds check.
// CHECK-LABEL: gpu.func @unaligned
// CHECK:         scf.if %{{.*}} -> (vector<1xf32>) {
// CHECK:           llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> vector<1xf32>
// CHECK-NOT:     vector<4xf32>
tile.kernel @unaligned(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<1x128xf32>
  tile.store %t, %y[%i, %c0] : tensor<1x128xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

// A row reduction over 1024 f32 with 128 threads of 8 elements: an in-thread
// vector reduction, a 32-lane butterfly, one word per warp in shared memory
// (4 warps share the row), then every thread combines the 4 words.
// CHECK-LABEL: gpu.func @row_max
// CHECK-SAME:    workgroup(%[[SCRATCH:.*]] : memref<4xf32, #gpu.address_space<workgroup>>)
// CHECK:         gpu.barrier
// CHECK:         vector.reduction <maximumf>, %{{.*}} : vector<8xf32> into f32
// CHECK:         gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-4: gpu.shuffle xor
// CHECK:         memref.store %{{.*}}, %[[SCRATCH]][%{{.*}}]
// CHECK:         gpu.barrier
// CHECK-COUNT-4: memref.load %[[SCRATCH]]
tile.kernel @row_max(%x: !tile.view<?x1024xf32>, %y: !tile.view<?xf32>) {
  %i = tile.block_id x
  %t = tile.load %x[%i, %i] : !tile.view<?x1024xf32> -> tensor<1x1024xf32>
  %m = tile.reduce max %t dim 1 : tensor<1x1024xf32> -> tensor<1xf32>
  tile.store %m, %y[%i] : tensor<1xf32>, !tile.view<?xf32>
  tile.return
}

// -----

// Two rows of 32, fewer elements than the 128 threads: thread t holds
// element t mod 64, so each row is one warp's 32 lanes (a 5-step
// butterfly); the copies in threads 64-127 shuffle too, but only lane 0 of
// each of the first two warps writes its row's word.
// CHECK-LABEL: gpu.func @row_sums_replicated
// CHECK-SAME:    workgroup(%[[SCRATCH:.*]] : memref<2xf32, #gpu.address_space<workgroup>>)
// CHECK:         gpu.barrier
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID:.*]], %{{.*}} : index
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// CHECK:         %[[UNIQUE:.*]] = arith.cmpi ult, %[[TID]], %[[C64:.*]] : index
// CHECK:         %[[WRITER:.*]] = arith.andi %[[FIRST]], %[[UNIQUE]] : i1
// CHECK:         scf.if %[[WRITER]] {
// CHECK-NEXT:      memref.store %{{.*}}, %[[SCRATCH]][%{{.*}}]
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[SCRATCH]]
tile.kernel @row_sums_replicated(%x: !tile.view<?x32xf32>, %y: !tile.view<?xf32>) {
  %i = tile.block_id x
  %t = tile.load %x[%i, %i] : !tile.view<?x32xf32> -> tensor<2x32xf32>
  %s = tile.reduce sum %t dim 1 : tensor<2x32xf32> -> tensor<2xf32>
  tile.store %s, %y[%i] : tensor<2xf32>, !tile.view<?xf32>
  tile.return
}

// -----

// Elementwise ops on tiles are the same ops on the fragments; a one-element
// tile is broadcast without memory; a splat constant stays a splat.
// CHECK-LABEL: gpu.func @scale_by_sum
// CHECK:         %[[E:.*]] = math.exp %{{.*}} : vector<16xf32>
// CHECK:         vector.extract %{{.*}}[0] : f32 from vector<1xf32>
// CHECK:         %[[B:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
// CHECK:         arith.mulf %[[E]], %[[B]] : vector<16xf32>
// CHECK:         arith.constant dense<2.000000e+00> : vector<16xf32>
tile.kernel @scale_by_sum(%x: !tile.view<?x2048xf32>, %y: !tile.view<?x2048xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x2048xf32> -> tensor<1x2048xf32>
  %e = math.exp %t : tensor<1x2048xf32>
  %s = tile.reduce sum %e dim 1 : tensor<1x2048xf32> -> tensor<1xf32>
  %s1 = tile.reshape %s : tensor<1xf32> -> tensor<1x1xf32>
  %sb = tile.broadcast %s1 : tensor<1x1xf32> -> tensor<1x2048xf32>
  %r = arith.mulf %e, %sb : tensor<1x2048xf32>
  %two = arith.constant dense<2.0> : tensor<1x2048xf32>
  %r2 = arith.mulf %r, %two : tensor<1x2048xf32>
  tile.store %r2, %y[%i, %c0] : tensor<1x2048xf32>, !tile.view<?x2048xf32>
  tile.return
}

// -----

// A broadcast of a many-element tile goes through shared memory: write by
// source position, barrier, read by the broadcast position.
// CHECK-LABEL: gpu.func @column_broadcast
// CHECK-SAME:    workgroup(%[[SCRATCH:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK:         gpu.barrier
// CHECK:         memref.store %{{.*}}, %[[SCRATCH]]
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[SCRATCH]]
tile.kernel @column_broadcast(%x: !tile.view<?x1xf32>, %y: !tile.view<?x64xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x1xf32> -> tensor<256x1xf32>
  %b = tile.broadcast %t : tensor<256x1xf32> -> tensor<256x64xf32>
  tile.store %b, %y[%i, %c0] : tensor<256x64xf32>, !tile.view<?x64xf32>
  tile.return
}

// -----

// A tile of at most 32 elements is replicated so that every warp holds it
// whole (lane l has element l mod 16): its broadcast takes each element
// from the lane that holds it by a shuffle, with no shared memory and no
// barrier (a split-KV combine's 16 row maxima, rescaling 16 x 16 sums).
// Each of a thread's two elements (row tid / 8) comes from lane tid / 8.
// CHECK-LABEL: gpu.func @row_factors
// CHECK-NOT:     workgroup
// CHECK-NOT:     gpu.barrier
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK-COUNT-2: gpu.shuffle idx %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NOT:     gpu.shuffle
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.return
tile.kernel @row_factors(%x: !tile.view<?x1xf32>, %y: !tile.view<?x16xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x1xf32> -> tensor<16x1xf32>
  %b = tile.broadcast %t : tensor<16x1xf32> -> tensor<16x16xf32>
  tile.store %b, %y[%i, %c0] : tensor<16x16xf32>, !tile.view<?x16xf32>
  tile.return
}

// -----

// The host side: each buffer is passed as its aligned pointer, each dynamic
// view dim as a constant of the buffer's size.
// CHECK-LABEL: func.func @main
// CHECK:         %[[P:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<64x1024xf32> -> index
// CHECK:         %[[P64:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK:         %[[PTR:.*]] = llvm.inttoptr %[[P64]] : i64 to !llvm.ptr<1>
// CHECK:         %[[ROWS:.*]] = arith.constant 64 : i64
// CHECK:         gpu.launch_func  @tileopt_kernels::@scale blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[PTR]] : !llvm.ptr<1>, %[[ROWS]] : i64, %{{.*}} : !llvm.ptr<1>, %{{.*}} : i64, %{{.*}} : f32)
tile.kernel @scale(%x: !tile.view<?x1024xf32>, %y: !tile.view<?x1024xf32>, %a: f32) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x1024xf32> -> tensor<4x1024xf32>
  %s = tile.splat %a : f32 -> tensor<4x1024xf32>
  %r = arith.mulf %t, %s : tensor<4x1024xf32>
  tile.store %r, %y[%i, %c0] : tensor<4x1024xf32>, !tile.view<?x1024xf32>
  tile.return
}
func.func @main(%x: memref<64x1024xf32>, %y: memref<64x1024xf32> {tileopt.output}) {
  %a = arith.constant 2.0 : f32
  tile.launch @scale grid [16, 1, 1] (%x, %y, %a) : memref<64x1024xf32>, memref<64x1024xf32>, f32
  return
}

// -----

// A reshape between tiles whose blocked layouts agree (same element count,
// same chunk width) moves nothing: no shared memory, no barrier.
// CHECK-LABEL: gpu.func @free_reshape
// CHECK-NOT:     workgroup
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.return
tile.kernel @free_reshape(%x: !tile.view<?x64xf32>, %y: !tile.view<?x16xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x64xf32> -> tensor<16x64xf32>
  %r = tile.reshape %t : tensor<16x64xf32> -> tensor<64x16xf32>
  tile.store %r, %y[%i, %c0] : tensor<64x16xf32>, !tile.view<?x16xf32>
  tile.return
}

// -----

// tile.gather and tile.scatter: each element of the thread's fragment at its
// own offset, checked against the view's element count (unsigned, so that a
// negative offset is outside too); outside, a gather reads element 0's
// address and yields 0, a scatter writes nothing.
// CHECK-LABEL: gpu.func @gather_scatter
// CHECK:         %[[OFF:.*]] = vector.extract %{{.*}}[0] : i32 from vector<2xi32>
// CHECK:         %[[WIDE:.*]] = arith.extsi %[[OFF]] : i32 to i64
// CHECK:         %[[IN:.*]] = arith.cmpi ult, %[[WIDE]], %{{.*}} : i64
// CHECK:         %[[SAFE:.*]] = arith.select %[[IN]], %[[WIDE]], %{{.*}} : i64
// CHECK:         %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[SAFE]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:         %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr<1> -> f32
// CHECK:         arith.select %[[IN]], %[[V]], %{{.*}} : f32
// CHECK:         scf.if %{{.*}} {
// CHECK:           llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
tile.kernel @gather_scatter(%x: !tile.view<4x8xf32>, %y: !tile.view<32xf32>) {
  %o = tile.iota : tensor<256xi32>
  %v = tile.gather %x[%o] : !tile.view<4x8xf32>, tensor<256xi32> -> tensor<256xf32>
  tile.scatter %v, %y[%o] : tensor<256xf32>, !tile.view<32xf32>, tensor<256xi32>
  tile.return
}

// -----

// A rank-1 view whose length is not a whole number of chunks (3937 f16,
// chunks of 8) is loaded element by element: its last chunk holds one
// element of the view, which a chunk-wide bounds check would drop (it did,
// on the GPU: a random program's sum lost its last term).
// CHECK-LABEL: gpu.func @partial_last_chunk
// CHECK-NOT:     vector<8xf16>, !llvm.ptr
// CHECK-NOT:     -> vector<8xf16>
// CHECK:         llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> vector<1xf16>
// CHECK-NOT:     -> vector<8xf16>
// CHECK:         gpu.return
tile.kernel @partial_last_chunk(%x: !tile.view<3937xf16>, %y: !tile.view<1xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] padding zero : !tile.view<3937xf16> -> tensor<4096xf16>
  %w = arith.extf %t : tensor<4096xf16> to tensor<4096xf32>
  %r = tile.reshape %w : tensor<4096xf32> -> tensor<1x4096xf32>
  %s = tile.reduce sum %r dim 1 : tensor<1x4096xf32> -> tensor<1xf32>
  tile.store %s, %y[%c0] : tensor<1xf32>, !tile.view<1xf32>
  tile.return
}
