// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts --tileopt-lower-tile | FileCheck %s

// Both multiplicands loaded in the loop with latency 3: three shared-memory
// stages of 64 x 32 + 32 x 64 bf16 (12288 elements), filled by 16-byte
// cp.async two iterations ahead. The prologue copies iterations 0 and 1, one
// commit group each; iteration k waits until one group is left in flight,
// meets the other threads at its only barrier, copies iteration k + 2 into
// the stage iteration k - 1 read (if there is one), and feeds ldmatrix from
// its own stage. Chunks outside the view read nothing (source size 0) from
// a valid address. Nothing goes through registers into shared memory.
// CHECK-LABEL: gpu.func @staged
// CHECK-SAME:    (%[[A:.*]]: !llvm.ptr<1>, %{{.*}}: i64, %[[B:.*]]: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64)
// CHECK-SAME:    workgroup(%[[STAGES:.*]] : memref<12288xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:         %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[STAGES]]
// CHECK:         %[[SHARED:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK:           %[[SRC:.*]] = arith.select %[[INSIDE:.*]], %{{.*}}, %[[A]] : !llvm.ptr<1>
// CHECK:           %[[BYTES:.*]] = arith.select %[[INSIDE]], %{{.*}}, %{{.*}} : i32
// CHECK:           %[[DST:.*]] = llvm.getelementptr %[[SHARED]][%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, bf16
// CHECK:           nvvm.cp.async.shared.global %[[DST]], %[[SRC]], 16, cache =  cg, %[[BYTES]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK:           nvvm.cp.async.shared.global
// CHECK:           arith.select %{{.*}}, %{{.*}}, %[[B]] : !llvm.ptr<1>
// CHECK:           nvvm.cp.async.shared.global
// CHECK:           nvvm.cp.async.shared.global
// CHECK-NEXT:    }
// CHECK-NEXT:    nvvm.cp.async.commit.group
// CHECK:         scf.if
// CHECK-COUNT-4:   nvvm.cp.async.shared.global
// CHECK:         nvvm.cp.async.commit.group
// CHECK-NOT:     gpu.barrier
// CHECK:         %{{.*}}:2 = scf.for %[[K:.*]] = %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[STAGE:.*]] = %{{.*}}) -> (vector<32xf32>, index)
// CHECK-NEXT:      nvvm.cp.async.wait.group 1
// CHECK-NEXT:      gpu.barrier
// CHECK:           %[[AHEAD:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK:           %[[IN_LOOP:.*]] = arith.cmpi slt, %[[AHEAD]], %{{.*}} : index
// CHECK:           scf.if %[[IN_LOOP]] {
// CHECK-COUNT-4:     nvvm.cp.async.shared.global
// CHECK:           }
// CHECK-NEXT:      nvvm.cp.async.commit.group
// CHECK-NOT:       gpu.barrier
// CHECK-NOT:       vector.store
// CHECK:           nvgpu.ldmatrix %[[STAGES]][%{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK:           nvgpu.ldmatrix %[[STAGES]][%{{.*}}] {numTiles = 4 : i32, transpose = true}
// CHECK:           nvvm.mma.sync
// CHECK-NOT:       gpu.barrier
// CHECK:           scf.yield %{{.*}}, %{{.*}} : vector<32xf32>, index
// CHECK:         nvvm.cp.async.wait.group 0
tile.kernel @staged(%a: !tile.view<?x256xbf16>, %b: !tile.view<256x256xbf16>,
                    %c: !tile.view<?x256xbf16>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %c8 step %c1 iter_args(%sum = %zero) -> (tensor<64x64xf32>) {
    %ta = tile.load %a[%i, %k] latency 3 : !tile.view<?x256xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%k, %c0] latency 3 : !tile.view<256x256xbf16> -> tensor<32x64xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %out = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xbf16>
  tile.store %out, %c[%i, %c0] : tensor<64x64xbf16>, !tile.view<?x256xbf16>
  tile.return
}

// -----

// Latency 8 is capped at 4 stages (three groups in flight); index
// arithmetic in the body is redone for the iteration copied.
// CHECK-LABEL: gpu.func @deep
// CHECK-SAME:    workgroup(%{{.*}} : memref<16384xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-COUNT-3: nvvm.cp.async.commit.group
// CHECK:         scf.for %[[K:[^ ]*]] =
// CHECK-NEXT:      nvvm.cp.async.wait.group 2
// CHECK:           %[[AHEAD:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK:           scf.if
// CHECK:             arith.muli %[[AHEAD]], %{{.*}} : index
tile.kernel @deep(%a: !tile.view<256x256xbf16>, %b: !tile.view<256x256xbf16>,
                  %c: !tile.view<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%sum = %zero) -> (tensor<64x64xf32>) {
    %kk = arith.muli %k, %c2 : index
    %ta = tile.load %a[%c0, %kk] latency 8 : !tile.view<256x256xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%kk, %c0] : !tile.view<256x256xbf16> -> tensor<32x64xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<256x256xf32>
  tile.return
}

// -----

// Two mmas on one activation tile X (a gated MLP's X W1 and X W2): every
// multiplicand goes through one ring of three stages of 16 x 128 + 2 x
// 128 x 32 f16 (10240 elements, 60 KiB in all: dynamic shared memory), X
// once, each stage's tiles one after the other. Per stage each thread
// copies 2 chunks of X and 4 of W1 and of W2. The loop carries both
// accumulators and the stage; nothing goes through registers into the
// ring, and X's second mma reads it from the same stage.
// CHECK-LABEL: gpu.func @shared_operand
// CHECK-SAME:    tileopt.dynamic_shared_memory = 61440
// CHECK:         %[[RING:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [30720]
// CHECK:         gpu.barrier
// CHECK-COUNT-10: nvvm.cp.async.shared.global
// CHECK:         nvvm.cp.async.commit.group
// CHECK-COUNT-10: nvvm.cp.async.shared.global
// CHECK:         nvvm.cp.async.commit.group
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}}, %{{.*}}, %[[STAGE:.*]] = %{{.*}}) -> (vector<4xf32>, vector<4xf32>, index)
// CHECK-NEXT:      nvvm.cp.async.wait.group 1
// CHECK-NEXT:      gpu.barrier
// CHECK-COUNT-10:  nvvm.cp.async.shared.global
// CHECK:           nvvm.cp.async.commit.group
// CHECK-NOT:       gpu.barrier
// CHECK-NOT:       vector.store
// CHECK:           arith.muli %[[STAGE]], %{{.*}} : index
// CHECK-COUNT-8:   nvvm.mma.sync
// CHECK-NOT:       gpu.barrier
// CHECK-NOT:       vector.store
// CHECK:           scf.yield %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>, vector<4xf32>, index
// CHECK:         nvvm.cp.async.wait.group 0
tile.kernel @shared_operand(%x: !tile.view<8x1024xf16>, %w1: !tile.view<1024x1024xf16>,
                            %w2: !tile.view<1024x1024xf16>, %o: !tile.view<8x1024xf32>) {
  %j = tile.block_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant dense<0.0> : tensor<16x32xf32>
  %acc:2 = scf.for %k = %c0 to %c8 step %c1 iter_args(%a1 = %zero, %a2 = %zero) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
    %tx = tile.load %x[%c0, %k] latency 3 padding zero : !tile.view<8x1024xf16> -> tensor<16x128xf16>
    %t1 = tile.load %w1[%k, %j] latency 3 : !tile.view<1024x1024xf16> -> tensor<128x32xf16>
    %t2 = tile.load %w2[%k, %j] latency 3 : !tile.view<1024x1024xf16> -> tensor<128x32xf16>
    %n1 = tile.mma %tx, %t1, %a1 : tensor<16x128xf16>, tensor<128x32xf16>, tensor<16x32xf32>
    %n2 = tile.mma %tx, %t2, %a2 : tensor<16x128xf16>, tensor<128x32xf16>, tensor<16x32xf32>
    scf.yield %n1, %n2 : tensor<16x32xf32>, tensor<16x32xf32>
  }
  %sum = arith.addf %acc#0, %acc#1 : tensor<16x32xf32>
  tile.store %sum, %o[%c0, %j] : tensor<16x32xf32>, !tile.view<8x1024xf32>
  tile.return
}

// -----

// Stages over 48 KiB (3 x (128 x 64 + 64 x 128) bf16 = 96 KiB) live in
// dynamic shared memory: an external zero-length global that NVPTX places
// after the static shared memory, whose size the launch passes.
// CHECK-LABEL: func.func @main
// CHECK:         %[[BYTES:.*]] = arith.constant 98304 : i32
// CHECK:         gpu.launch_func @tileopt_kernels::@dynamic {{.*}} dynamic_shared_memory_size %[[BYTES]]
// CHECK-LABEL: gpu.module @tileopt_kernels
// CHECK:         memref.global "public" @tileopt_dynamic_shared : memref<0xbf16, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK:       gpu.func @dynamic
// CHECK-NOT:     workgroup
// CHECK-SAME:    tileopt.dynamic_shared_memory = 98304 : i64
// CHECK:         %[[GLOBAL:.*]] = memref.get_global @tileopt_dynamic_shared : memref<0xbf16, #gpu.address_space<workgroup>>
// CHECK:         %[[STAGES:.*]] = memref.reinterpret_cast %[[GLOBAL]] to offset: [0], sizes: [49152], strides: [1]
// CHECK:         nvgpu.ldmatrix %[[STAGES]]
tile.kernel @dynamic(%a: !tile.view<512x512xbf16>, %b: !tile.view<512x512xbf16>,
                     %c: !tile.view<512x512xbf16>) {
  %i = tile.block_id x
  %j = tile.block_id y
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %c8 step %c1 iter_args(%sum = %zero) -> (tensor<128x128xf32>) {
    %ta = tile.load %a[%i, %k] latency 3 : !tile.view<512x512xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%k, %j] latency 3 : !tile.view<512x512xbf16> -> tensor<64x128xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    scf.yield %next : tensor<128x128xf32>
  }
  %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
  tile.store %out, %c[%i, %j] : tensor<128x128xbf16>, !tile.view<512x512xbf16>
  tile.return
}

func.func @main(%a: memref<512x512xbf16>, %b: memref<512x512xbf16>,
                %c: memref<512x512xbf16>) {
  tile.launch @dynamic grid [4, 4, 1] (%a, %b, %c)
      : memref<512x512xbf16>, memref<512x512xbf16>, memref<512x512xbf16>
  return
}
