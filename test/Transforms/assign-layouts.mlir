// RUN: tileopt-opt %s -split-input-file -verify-diagnostics --tileopt-assign-layouts \
// RUN:   | FileCheck %s
// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts="swizzle-staging=false" \
// RUN:   2>/dev/null | FileCheck %s --check-prefix=PAD

// The output of tileopt-assign-layouts on sm_90 (mma.sync), one case per
// function: every tile gets a layout, the accumulators the tensor cores',
// and the loops of tile.mma ops the decision of how they are pipelined.
// (assign-layouts-wgmma.mlir: sm_90a; assign-layouts-errors.mlir: what it
// refuses.)

// Tiles no tensor core computes are blocked, in the widest chunk of at most
// 8 elements that the last dim and the elements per thread allow: 64x128
// f32 on 128 threads has 64 a thread (chunk 8), 128x4 f16 has 4 (chunk 4),
// and the 64 row maxima, fewer than the threads, are replicated (chunk 1).
// Constants, reshapes and broadcasts take the layout of their result.

// CHECK-DAG: #[[B8:blocked[0-9]*]] = #tile.blocked<chunk = 8, warps = 4>
// CHECK-DAG: #[[B1:blocked[0-9]*]] = #tile.blocked<chunk = 1, warps = 4>
// CHECK-DAG: #[[B4:blocked[0-9]*]] = #tile.blocked<chunk = 4, warps = 4>
// CHECK-LABEL: tile.kernel @blocked_chunks
// CHECK:      %[[T:.*]] = tile.load {{.*}} -> tensor<64x128xf32, #[[B8]]>
// CHECK-NEXT: tile.reduce max %[[T]] dim 1 : tensor<64x128xf32, #[[B8]]> -> tensor<64xf32, #[[B1]]>
// CHECK-NEXT: tile.reshape {{.*}} : tensor<64xf32, #[[B1]]> -> tensor<64x1xf32, #[[B1]]>
// CHECK-NEXT: tile.broadcast {{.*}} : tensor<64x1xf32, #[[B1]]> -> tensor<64x128xf32, #[[B8]]>
// CHECK-NEXT: arith.subf {{.*}} : tensor<64x128xf32, #[[B8]]>
// CHECK-NEXT: math.exp {{.*}} : tensor<64x128xf32, #[[B8]]>
// CHECK:      tile.load {{.*}} -> tensor<128x4xf16, #[[B4]]>
// CHECK-NEXT: arith.constant dense<1.000000e+00> : tensor<128x4xf16, #[[B4]]>
// CHECK-NOT:  tile.convert_layout
// CHECK:      tile.return
tile.kernel @blocked_chunks(%v: !tile.view<64x128xf32>, %w: !tile.view<64xf32>,
                            %s: !tile.view<128x4xf16>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0, %c0] : !tile.view<64x128xf32> -> tensor<64x128xf32>
  %m = tile.reduce max %t dim 1 : tensor<64x128xf32> -> tensor<64xf32>
  %r = tile.reshape %m : tensor<64xf32> -> tensor<64x1xf32>
  %b = tile.broadcast %r : tensor<64x1xf32> -> tensor<64x128xf32>
  %d = arith.subf %t, %b : tensor<64x128xf32>
  %e = math.exp %d : tensor<64x128xf32>
  %sum = tile.reduce sum %e dim 1 : tensor<64x128xf32> -> tensor<64xf32>
  tile.store %sum, %w[%c0] : tensor<64xf32>, !tile.view<64xf32>
  %n = tile.load %s[%c0, %c0] : !tile.view<128x4xf16> -> tensor<128x4xf16>
  %one = arith.constant dense<1.0> : tensor<128x4xf16>
  %p = arith.addf %n, %one : tensor<128x4xf16>
  tile.store %p, %s[%c0, %c0] : tensor<128x4xf16>, !tile.view<128x4xf16>
  tile.return
}

// -----

// The accumulator of a tile.mma, and all that is tied to it (the splat it
// starts from, the value the loop carries, an elementwise op on the
// result), is in the mma.sync layout on the warp grid its rows allow: 2x2
// warps for 64 rows, 1x4 for 16. A loaded tile added to it is loaded
// blocked and converted; a tile.reduce takes it where it lies, and so does
// a reshape that only adds or drops leading unit dims. The multiplicands
// stay blocked.

// CHECK-DAG: #[[B8:blocked[0-9]*]] = #tile.blocked<chunk = 8, warps = 4>
// CHECK-DAG: #[[B1:blocked[0-9]*]] = #tile.blocked<chunk = 1, warps = 4>
// CHECK-DAG: #[[MMA:mma[0-9]*]] = #tile.mma_sync<warps = [2, 2]>
// CHECK-DAG: #[[MMA14:mma[0-9]*]] = #tile.mma_sync<warps = [1, 4]>
// CHECK-LABEL: tile.kernel @mma_sync_accumulators
// CHECK:      arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[MMA]]>
// CHECK:      scf.for {{.*}} -> (tensor<64x64xf32, #[[MMA]]>) {
// CHECK-NEXT:   tile.load {{.*}} -> tensor<64x64xf16, #[[B8]]>
// CHECK-NEXT:   tile.mma {{.*}} : tensor<64x64xf16, #[[B8]]>, tensor<64x64xf16, #[[B8]]>, tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT:   scf.yield {{.*}} : tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: }
// CHECK-NEXT: %[[BIAS:.*]] = tile.load {{.*}} -> tensor<64x64xf32, #[[B8]]>
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %[[BIAS]] : tensor<64x64xf32, #[[B8]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[OUT:.*]] = arith.addf %{{.*}}, %[[C]] : tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: tile.reduce sum %[[OUT]] dim 1 : tensor<64x64xf32, #[[MMA]]> -> tensor<64xf32, #[[B1]]>
// CHECK-NEXT: tile.store %[[OUT]], {{.*}} : tensor<64x64xf32, #[[MMA]]>
// CHECK:      tile.mma {{.*}} : tensor<16x64xf16, #[[B8]]>, tensor<64x64xf16, #[[B8]]>, tensor<16x64xf32, #[[MMA14]]>
// CHECK-NEXT: tile.reshape {{.*}} : tensor<16x64xf32, #[[MMA14]]> -> tensor<1x16x64xf32, #[[MMA14]]>
tile.kernel @mma_sync_accumulators(%x: !tile.view<64x64xf16>, %y: !tile.view<16x64xf16>,
                                   %o: !tile.view<64x64xf32>, %p: !tile.view<64xf32>,
                                   %q: !tile.view<1x16x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<64x64xf32>) {
    %tx = tile.load %x[%c0, %k] : !tile.view<64x64xf16> -> tensor<64x64xf16>
    %next = tile.mma %tx, %tx, %a : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  %bias = tile.load %o[%c0, %c0] : !tile.view<64x64xf32> -> tensor<64x64xf32>
  %out = arith.addf %acc, %bias : tensor<64x64xf32>
  %rows = tile.reduce sum %out dim 1 : tensor<64x64xf32> -> tensor<64xf32>
  tile.store %out, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.store %rows, %p[%c0] : tensor<64xf32>, !tile.view<64xf32>
  %ty = tile.load %y[%c0, %c0] : !tile.view<16x64xf16> -> tensor<16x64xf16>
  %tx2 = tile.load %x[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %z16 = arith.constant dense<0.0> : tensor<16x64xf32>
  %r = tile.mma %ty, %tx2, %z16 : tensor<16x64xf16>, tensor<64x64xf16>, tensor<16x64xf32>
  %r3 = tile.reshape %r : tensor<16x64xf32> -> tensor<1x16x64xf32>
  tile.store %r3, %q[%c0, %c0, %c0] : tensor<1x16x64xf32>, !tile.view<1x16x64xf32>
  tile.return
}

// -----

// A loop whose tile.mma ops multiply tiles it loads with a latency hint,
// for mmas alone, into accumulators it carries: a ring of min(latency, 4)
// stages, filled by cp.async (TMA needs wgmma), staged in swizzled rows
// (padded with swizzle-staging=false).

// CHECK-LABEL: tile.kernel @cp_async_ring
// CHECK:      scf.for
// CHECK:      } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 3, staging = swizzled>}
// PAD-LABEL:  tile.kernel @cp_async_ring
// PAD:        } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 3, staging = padded>}
tile.kernel @cp_async_ring(%a: !tile.view<?x1024xbf16>, %b: !tile.view<?x1024xbf16>,
                           %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32>) {
    %ta = tile.load %a[%c0, %k] latency 3 : !tile.view<?x1024xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%k, %c0] latency 3 : !tile.view<?x1024xbf16> -> tensor<32x64xbf16>
    %next = tile.mma %ta, %tb, %s : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

// Latency 6 asks for more stages than the 4 of the deepest ring.

// CHECK-LABEL: tile.kernel @deepest_ring
// CHECK:      } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 4, staging = swizzled>}
tile.kernel @deepest_ring(%a: !tile.view<?x1024xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32>) {
    %ta = tile.load %a[%c0, %k] latency 6 : !tile.view<?x1024xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %a[%k, %c0] : !tile.view<?x1024xbf16> -> tensor<32x64xbf16>
    %next = tile.mma %ta, %tb, %s : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

// 128x256 and 256x64 bf16 tiles: 96 KiB a stage; two fit in the 227 KiB of
// a block, three do not.

// CHECK-LABEL: tile.kernel @ring_of_what_fits
// CHECK:      } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 2, staging = swizzled>}
tile.kernel @ring_of_what_fits(%a: !tile.view<?x1024xbf16>, %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<128x64xf32>) {
    %ta = tile.load %a[%c0, %k] latency 3 : !tile.view<?x1024xbf16> -> tensor<128x256xbf16>
    %tb = tile.load %a[%k, %c0] latency 3 : !tile.view<?x1024xbf16> -> tensor<256x64xbf16>
    %next = tile.mma %ta, %tb, %s : tensor<128x256xbf16>, tensor<256x64xbf16>, tensor<128x64xf32>
    scf.yield %next : tensor<128x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<128x64xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

// Rows of 100 elements split 16-byte chunks across rows: no ring can be
// built, the loop is marked so (tileopt-pipeline-tile-loads leaves it as
// it is) and its hint gets a warning.

// CHECK-LABEL: tile.kernel @no_whole_chunks
// CHECK:      } {tile.mma_pipeline = #tile.mma_pipeline<none>}
tile.kernel @no_whole_chunks(%a: !tile.view<?x100xbf16>, %b: !tile.view<?x64xbf16>,
                             %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<64x64xf32>) {
    // expected-warning @+1 {{latency hint not followed: every 16-byte chunk of the tiles must lie wholly inside or outside the view, and each thread must copy whole chunks}}
    %ta = tile.load %a[%c0, %k] latency 3 padding zero : !tile.view<?x100xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %b[%k, %c0] latency 3 : !tile.view<?x64xbf16> -> tensor<32x64xbf16>
    %next = tile.mma %ta, %tb, %s : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

// A multiplicand that another op reads too (X, squared and summed beside
// X W) keeps the loop out of any ring: no attribute, and no warning here;
// tileopt-pipeline-tile-loads follows the hints in registers.

// CHECK-LABEL: tile.kernel @multiplicand_read_elsewhere
// CHECK-NOT:  tile.mma_pipeline
// CHECK:      tile.return
tile.kernel @multiplicand_read_elsewhere(%x: !tile.view<32x4096xf16>, %w: !tile.view<4096x4096xf16>,
                                         %o: !tile.view<32x4096xf32>, %p: !tile.view<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %zeros = arith.constant dense<0.0> : tensor<32xf32>
  %acc:2 = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %zero, %ss = %zeros) -> (tensor<32x64xf32>, tensor<32xf32>) {
    %tx = tile.load %x[%c0, %k] latency 3 : !tile.view<32x4096xf16> -> tensor<32x64xf16>
    %tw = tile.load %w[%k, %c0] latency 3 : !tile.view<4096x4096xf16> -> tensor<64x64xf16>
    %wide = arith.extf %tx : tensor<32x64xf16> to tensor<32x64xf32>
    %sq = arith.mulf %wide, %wide : tensor<32x64xf32>
    %rows = tile.reduce sum %sq dim 1 : tensor<32x64xf32> -> tensor<32xf32>
    %next = tile.mma %tx, %tw, %a : tensor<32x64xf16>, tensor<64x64xf16>, tensor<32x64xf32>
    %ss2 = arith.addf %ss, %rows : tensor<32xf32>
    scf.yield %next, %ss2 : tensor<32x64xf32>, tensor<32xf32>
  }
  tile.store %acc#0, %o[%c0, %c0] : tensor<32x64xf32>, !tile.view<32x4096xf32>
  tile.store %acc#1, %p[%c0] : tensor<32xf32>, !tile.view<32xf32>
  tile.return
}

// -----

// Two products of one activation, X W1 and X W2, with only loads between
// them: the second leaves X where the first staged it. Not across a
// tile.reduce (the code generator's reduction uses shared memory), and not
// in a loop pipelined through a ring, whose mmas read both operands from
// it.

// CHECK-LABEL: tile.kernel @staged_lhs
// CHECK:      %[[X:.*]] = tile.load
// CHECK:      tile.mma %[[X]], %{{[^ ]*}}, %{{[^ ]*}} :
// CHECK-NEXT: tile.load
// CHECK-NEXT: tile.mma %[[X]], %{{[^ ]*}}, %{{[^ ]*}} {tile.lhs_staged} :
// CHECK-NEXT: tile.reduce
// CHECK-NEXT: tile.mma %[[X]], %{{[^ ]*}}, %{{[^ ]*}} :
// CHECK:      scf.for
// CHECK-NOT:  tile.lhs_staged
// CHECK:      tile.mma_pipeline
tile.kernel @staged_lhs(%x: !tile.view<64x64xf16>, %w: !tile.view<?x64xf16>,
                        %o: !tile.view<64x64xf32>, %p: !tile.view<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %tx = tile.load %x[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %w1 = tile.load %w[%c0, %c0] : !tile.view<?x64xf16> -> tensor<64x64xf16>
  %y1 = tile.mma %tx, %w1, %zero : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  %w2 = tile.load %w[%c1, %c0] : !tile.view<?x64xf16> -> tensor<64x64xf16>
  %y2 = tile.mma %tx, %w2, %zero : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  %r = tile.reduce sum %y2 dim 1 : tensor<64x64xf32> -> tensor<64xf32>
  %y3 = tile.mma %tx, %w1, %y1 : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  tile.store %y3, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.store %r, %p[%c0] : tensor<64xf32>, !tile.view<64xf32>
  %acc:2 = scf.for %k = %c0 to %n step %c1 iter_args(%a1 = %zero, %a2 = %zero) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
    %lx = tile.load %x[%k, %c0] latency 3 : !tile.view<64x64xf16> -> tensor<64x64xf16>
    %l1 = tile.load %w[%k, %c0] latency 3 : !tile.view<?x64xf16> -> tensor<64x64xf16>
    %n1 = tile.mma %lx, %l1, %a1 : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
    %n2 = tile.mma %lx, %l1, %a2 : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
    scf.yield %n1, %n2 : tensor<64x64xf32>, tensor<64x64xf32>
  }
  %sum = arith.addf %acc#0, %acc#1 : tensor<64x64xf32>
  tile.store %sum, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}

// -----

// A kernel whose tiles have layouts already is left as it is.

// CHECK-LABEL: tile.kernel @laid_out_already
// CHECK:      tile.load {{.*}} -> tensor<1024xf32, #{{.*}}>
// CHECK-NEXT: tile.store
#blocked = #tile.blocked<chunk = 4, warps = 8>
tile.kernel @laid_out_already(%v: !tile.view<1024xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0] : !tile.view<1024xf32> -> tensor<1024xf32, #blocked>
  tile.store %t, %v[%c0] : tensor<1024xf32, #blocked>, !tile.view<1024xf32>
  tile.return
}

// -----

// K of 1 (a random program's 1x1 by 1x1 product, its rows padded to 32 and
// its columns to 16): no mma.sync instruction takes it, so the product runs
// on the CUDA cores, its operands widened to f32, its accumulator blocked.
// CHECK-LABEL: tile.kernel @mma_k_of_one
// CHECK: %[[A:.*]] = arith.extf %{{.*}} : tensor<32x1xf16, #blocked{{[0-9]*}}> to tensor<32x1xf32, #blocked{{[0-9]*}}>
// CHECK: %[[B:.*]] = arith.extf %{{.*}} : tensor<1x16xf16, #blocked{{[0-9]*}}> to tensor<1x16xf32, #blocked{{[0-9]*}}>
// CHECK: tile.mma %[[A]], %[[B]], %{{.*}} : tensor<32x1xf32, #blocked{{[0-9]*}}>, tensor<1x16xf32, #blocked{{[0-9]*}}>, tensor<32x16xf32, #blocked{{[0-9]*}}>
tile.kernel @mma_k_of_one(%x: !tile.view<32x1xf16>, %w: !tile.view<1x16xf16>, %o: !tile.view<32x16xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<32x16xf32>
  %a = tile.load %x[%c0, %c0] : !tile.view<32x1xf16> -> tensor<32x1xf16>
  %b = tile.load %w[%c0, %c0] : !tile.view<1x16xf16> -> tensor<1x16xf16>
  // expected-remark @+1 {{runs on the CUDA cores in f32: mma.sync takes M a multiple of 16, N of 8 and K of 16, here 32x16x1}}
  %y = tile.mma %a, %b, %zero : tensor<32x1xf16>, tensor<1x16xf16>, tensor<32x16xf32>
  tile.store %y, %o[%c0, %c0] : tensor<32x16xf32>, !tile.view<32x16xf32>
  tile.return
}
