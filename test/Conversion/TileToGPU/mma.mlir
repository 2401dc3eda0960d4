// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts --tileopt-lower-tile | FileCheck %s

// tile.mma on tensor cores: the accumulator carried by the loop is in the
// mma layout (4 warps as 2 x 2, each with a 64 x 64 part: 4 x 8 tiles of
// m16n8, 128 f32 per thread); the operands (without a latency hint) go from
// registers into shared memory, A's rows of 64 bytes swizzled and B's
// padded (128 x 32 + 32 x 136 bf16), are loaded with ldmatrix (B transposed, two n8 tiles per ldmatrix.x4), and
// multiplied with mma.sync m16n8k16.
// CHECK-LABEL: gpu.func @gemm
// CHECK-SAME:    workgroup(%[[STAGE:.*]] : memref<8448xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:         %[[INIT:.*]] = arith.constant dense<0.000000e+00> : vector<128xf32>
// CHECK:         scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<128xf32>)
// CHECK:           gpu.barrier
// CHECK:           vector.store %{{.*}}, %[[STAGE]][%{{.*}}] : memref<8448xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:           gpu.barrier
// CHECK:           nvgpu.ldmatrix %[[STAGE]][%{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<8448xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK:           nvgpu.ldmatrix %[[STAGE]][%{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<8448xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK:           nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-63:  nvvm.mma.sync
// CHECK:           scf.yield %{{.*}} : vector<128xf32>
// The epilogue stays in the mma layout: pairs of contiguous bf16 stores.
// CHECK:         arith.truncf %{{.*}} : vector<128xf32> to vector<128xbf16>
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
tile.kernel @gemm(%a: !tile.view<4096x4096xbf16>, %b: !tile.view<4096x4096xbf16>,
                  %c: !tile.view<4096x4096xbf16>) {
  %i = tile.block_id x
  %j = tile.block_id y
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %steps = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %steps step %c1 iter_args(%sum = %zero)
      -> (tensor<128x128xf32>) {
    %ta = tile.load %a[%i, %k] : !tile.view<4096x4096xbf16> -> tensor<128x32xbf16>
    %tb = tile.load %b[%k, %j] : !tile.view<4096x4096xbf16> -> tensor<32x128xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
    scf.yield %next : tensor<128x128xf32>
  }
  %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
  tile.store %out, %c[%i, %j] : tensor<128x128xbf16>, !tile.view<4096x4096xbf16>
  tile.return
}

// -----

// An mma result that a tile.reduce takes is reduced in the accumulator
// layout: each thread combines its elements of a row, the four lanes of a
// quad that share the row combine theirs (shuffles 2 and 1 apart), and each
// of the two warps side by side along the row writes one word of it (the
// scratch holds 64 rows x 2 words, not the 64x64 tile). One that a
// tile.mma takes as a multiplicand is staged from the accumulator layout:
// each thread writes its pairs of columns at their places (vector<2xf16>),
// with no re-deal through the scratch first; the elementwise ops before it
// stay in the accumulator layout (32 per thread).
// CHECK-LABEL: gpu.func @scores_softmax_values
// CHECK-SAME:    workgroup(%[[SCRATCH:.*]] : memref<128xf32, #gpu.address_space<workgroup>>, %[[STAGE:.*]] : memref<6656xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-COUNT-16: nvvm.mma.sync
// CHECK:         gpu.barrier
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.shuffle xor %{{.*}}, %c2_i32
// CHECK:         arith.maximumf
// CHECK:         gpu.shuffle xor %{{.*}}, %c1_i32
// CHECK-COUNT-4: memref.store %{{.*}}, %[[SCRATCH]]
// CHECK-NOT:     memref.load
// CHECK:         gpu.barrier
// CHECK-COUNT-2: memref.load %[[SCRATCH]]
// CHECK-NOT:     gpu.barrier
// CHECK:         math.exp %{{.*}} : vector<32xf32>
// CHECK:         arith.truncf %{{.*}} : vector<32xf32> to vector<32xf16>
// CHECK-NEXT:    gpu.barrier
// CHECK-NOT:     memref.store
// CHECK:         vector.store %{{.*}}, %[[STAGE]][%{{.*}}] : memref<6656xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK:         gpu.barrier
// CHECK:         nvgpu.ldmatrix %[[STAGE]]
// CHECK:         nvvm.mma.sync
tile.kernel @scores_softmax_values(%q: !tile.view<?x?xf16>, %k: !tile.view<?x?xf16>,
                                   %v: !tile.view<?x?xf16>, %o: !tile.view<?x?xf32>,
                                   %m: !tile.view<?xf32>) {
  %i = tile.block_id x
  %tq = tile.load %q[%i, %i] : !tile.view<?x?xf16> -> tensor<64x32xf16>
  %tk = tile.load %k[%i, %i] : !tile.view<?x?xf16> -> tensor<32x64xf16>
  %tv = tile.load %v[%i, %i] : !tile.view<?x?xf16> -> tensor<64x32xf16>
  %zs = arith.constant dense<0.0> : tensor<64x64xf32>
  %zo = arith.constant dense<0.0> : tensor<64x32xf32>
  %s = tile.mma %tq, %tk, %zs : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
  %max = tile.reduce max %s dim 1 : tensor<64x64xf32> -> tensor<64xf32>
  %e = math.exp %s : tensor<64x64xf32>
  %p = arith.truncf %e : tensor<64x64xf32> to tensor<64x64xf16>
  %out = tile.mma %p, %tv, %zo : tensor<64x64xf16>, tensor<64x32xf16>, tensor<64x32xf32>
  tile.store %out, %o[%i, %i] : tensor<64x32xf32>, !tile.view<?x?xf32>
  tile.store %max, %m[%i] : tensor<64xf32>, !tile.view<?xf32>
  tile.return
}

// -----

// A loaded tile added to an mma result (a partial result from an earlier
// kernel, as the superoptimizer's two-kernel LoRA does) is loaded in the
// blocked layout and re-dealt into the accumulator layout through the f32
// scratch, the way tile.reshape re-deals; the add then runs in the
// accumulator layout.
// CHECK-LABEL: gpu.func @mma_plus_loaded
// CHECK-SAME:    workgroup(%[[SCRATCH:.*]] : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
// CHECK:         memref.store %{{.*}}, %[[SCRATCH]]
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[SCRATCH]]
// CHECK:         arith.extf %{{.*}} : vector<32xf16> to vector<32xf32>
// CHECK:         nvvm.mma.sync
// CHECK:         arith.addf %{{.*}} : vector<32xf32>
tile.kernel @mma_plus_loaded(%x: !tile.view<?x?xf16>, %w: !tile.view<?x?xf16>,
                             %p: !tile.view<?x?xf16>, %o: !tile.view<?x?xf16>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %tx = tile.load %x[%c0, %c0] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %tw = tile.load %w[%c0, %i] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %tp = tile.load %p[%c0, %i] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %wide = arith.extf %tp : tensor<64x64xf16> to tensor<64x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.mma %tx, %tw, %z : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  %sum = arith.addf %wide, %s : tensor<64x64xf32>
  %out = arith.truncf %sum : tensor<64x64xf32> to tensor<64x64xf16>
  tile.store %out, %o[%c0, %i] : tensor<64x64xf16>, !tile.view<?x?xf16>
  tile.return
}

// -----

// A product of 16 rows (a decode step's query rows) puts the 4 warps side
// by side (1 x 4, FragmentLayout::mmaWarpGrid): each warp holds 16 x 16 of
// the 16 x 64 accumulator, 8 f32 per thread, and runs 2 n8 tiles x 2 k16
// steps of mma.sync.
// CHECK-LABEL: gpu.func @sixteen_rows
// CHECK:         arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK-COUNT-4: nvvm.mma.sync
// CHECK-NOT:     nvvm.mma.sync
// CHECK:         gpu.return
tile.kernel @sixteen_rows(%a: !tile.view<?x?xf16>, %b: !tile.view<?x?xf16>,
                          %c: !tile.view<?x?xf32>) {
  %i = tile.block_id x
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xf16> -> tensor<16x32xf16>
  %tb = tile.load %b[%i, %i] : !tile.view<?x?xf16> -> tensor<32x64xf16>
  %zero = arith.constant dense<0.0> : tensor<16x64xf32>
  %r = tile.mma %ta, %tb, %zero : tensor<16x32xf16>, tensor<32x64xf16>, tensor<16x64xf32>
  tile.store %r, %c[%i, %i] : tensor<16x64xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

// x @ W^T with W loaded as it is stored, [N, K] (rhs_transposed): W is
// staged in that layout and read with ldmatrix without .trans, like A.
// CHECK-LABEL: gpu.func @transposed_rhs
// CHECK:         gpu.barrier
// CHECK:         gpu.barrier
// CHECK-NOT:     transpose = true
// CHECK:         nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK-NOT:     transpose = true
// CHECK:         nvvm.mma.sync
// CHECK-NOT:     transpose = true
// CHECK:         gpu.return
tile.kernel @transposed_rhs(%x: !tile.view<64x64xf16>, %w: !tile.view<64x64xf16>,
                            %y: !tile.view<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %tx = tile.load %x[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %tw = tile.load %w[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %acc = tile.mma %tx, %tw, %zero {rhs_transposed} : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  %out = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xf16>
  tile.store %out, %y[%c0, %c0] : tensor<64x64xf16>, !tile.view<64x64xf16>
  tile.return
}

// -----

// Two products of one activation (a gated MLP's X W1 and X W2): the second
// mma finds X where the first staged it and stores only its own right
// operand. 64x32 X and 32x64 W tiles on 128 threads: the first stages 2 + 2
// vectors of 8 a thread, the second 2.
// CHECK-LABEL: gpu.func @shared_lhs
// CHECK:         gpu.barrier
// CHECK-COUNT-4: vector.store
// CHECK:         gpu.barrier
// CHECK:         nvvm.mma.sync
// CHECK:         gpu.barrier
// CHECK-COUNT-2: vector.store
// CHECK-NEXT:    gpu.barrier
// CHECK:         nvvm.mma.sync
tile.kernel @shared_lhs(%x: !tile.view<64x32xf16>, %w1: !tile.view<32x64xf16>,
                        %w2: !tile.view<32x64xf16>, %o: !tile.view<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %tx = tile.load %x[%c0, %c0] : !tile.view<64x32xf16> -> tensor<64x32xf16>
  %t1 = tile.load %w1[%c0, %c0] : !tile.view<32x64xf16> -> tensor<32x64xf16>
  %t2 = tile.load %w2[%c0, %c0] : !tile.view<32x64xf16> -> tensor<32x64xf16>
  %p1 = tile.mma %tx, %t1, %zero : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
  %p2 = tile.mma %tx, %t2, %zero : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
  %sum = arith.addf %p1, %p2 : tensor<64x64xf32>
  tile.store %sum, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}

// -----

// An mma result stored through a rank-3 view (how the lowering of block
// graphs restores leading unit dims for a store): the reshape to
// [1, 64, 64] keeps the mma layout, its matrix's, so nothing goes through
// shared memory but the operands' staging, and the fragment is stored as it
// lies.
// CHECK-LABEL: gpu.func @store_rank3
// CHECK-SAME:    workgroup(%{{.*}} : memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-NOT:     memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// CHECK:         nvvm.mma.sync
// CHECK-NOT:     gpu.barrier
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK:         gpu.return
tile.kernel @store_rank3(%a: !tile.view<64x64xf16>, %b: !tile.view<64x64xf16>,
                         %c: !tile.view<4x64x64xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %tb = tile.load %b[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %p = tile.mma %ta, %tb, %zero : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  %r = tile.reshape %p : tensor<64x64xf32> -> tensor<1x64x64xf32>
  tile.store %r, %c[%i, %c0, %c0] : tensor<1x64x64xf32>, !tile.view<4x64x64xf32>
  tile.return
}
