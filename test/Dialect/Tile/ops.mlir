// RUN: tileopt-opt %s -split-input-file | tileopt-opt -split-input-file | FileCheck %s
// RUN: tileopt-opt %s -split-input-file -mlir-print-op-generic | tileopt-opt -split-input-file | FileCheck %s

// Round trip of every tile op and of !tile.view, in custom and generic form.

// Views with static and dynamic dims of several element types, scalar
// arguments, and both hints.

// CHECK-LABEL: tile.kernel @view_types
// CHECK-SAME: (%{{.*}}: !tile.view<4096x1024xbf16>, %{{.*}}: !tile.view<?x64xf32>,
// CHECK-SAME: %{{.*}}: !tile.view<?x?x?xi8>, %{{.*}}: !tile.view<16xf8E4M3FN>,
// CHECK-SAME: %{{.*}}: !tile.view<7x?xi64>,
// CHECK-SAME: %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: index, %{{.*}}: i1, %{{.*}}: bf16)
// CHECK-SAME: attributes {num_ctas = 2 : i32, occupancy = 4 : i32}
// CHECK-NEXT: tile.return
tile.kernel @view_types(%a: !tile.view<4096x1024xbf16>, %b: !tile.view<?x64xf32>,
                        %c: !tile.view<?x?x?xi8>, %d: !tile.view<16xf8E4M3FN>,
                        %e: !tile.view<7x?xi64>,
                        %n: i32, %s: f32, %i: index, %p: i1, %h: bf16)
    attributes {occupancy = 4 : i32, num_ctas = 2 : i32} {
  tile.return
}

// -----

// The ends of the hint ranges, and a kernel without hints.

// CHECK-LABEL: tile.kernel @hints_low()
// CHECK-SAME: attributes {num_ctas = 1 : i32, occupancy = 1 : i32}
tile.kernel @hints_low() attributes {occupancy = 1 : i32, num_ctas = 1 : i32} {
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @hints_high()
// CHECK-SAME: attributes {num_ctas = 16 : i32, occupancy = 32 : i32}
tile.kernel @hints_high() attributes {occupancy = 32 : i32, num_ctas = 16 : i32} {
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel private @no_hints(%{{.*}}: !tile.view<8xf32>) {
// CHECK-NEXT: tile.return
tile.kernel private @no_hints(%x: !tile.view<8xf32>) {
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @grid
// CHECK: tile.block_id x
// CHECK: tile.block_id y
// CHECK: tile.block_id z
// CHECK: tile.num_blocks x
// CHECK: tile.num_blocks y
// CHECK: tile.num_blocks z
// CHECK: tile.return
tile.kernel @grid(%v: !tile.view<?x?x?xi32>) {
  %bx = tile.block_id x
  %by = tile.block_id y
  %bz = tile.block_id z
  %nx = tile.num_blocks x
  %ny = tile.num_blocks y
  %nz = tile.num_blocks z
  %s = arith.addi %nx, %ny : index
  %t = arith.addi %s, %nz : index
  %tile = tile.iota : tensor<16xi32>
  %r = tile.reshape %tile : tensor<16xi32> -> tensor<1x1x16xi32>
  tile.store %r, %v[%bx, %by, %bz] : tensor<1x1x16xi32>, !tile.view<?x?x?xi32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @loads
// CHECK-SAME: (%[[V:[a-z0-9]+]]: !tile.view<?x128xf16>
// CHECK: %[[I:.*]] = tile.block_id x
// CHECK: %[[J:.*]] = arith.constant 0 : index
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] latency 1 : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] latency 10 : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] allow_tma : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] latency 3 allow_tma : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] padding undetermined : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] padding zero : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] padding neg_zero : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] padding nan : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] padding pos_inf : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] padding neg_inf : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %[[V]][%[[I]], %[[J]]] latency 2 allow_tma padding zero : !tile.view<?x128xf16> -> tensor<64x128xf16>
// CHECK: tile.load %{{.*}}[%[[I]]] : !tile.view<4096xi8> -> tensor<256xi8>
// CHECK: tile.return
tile.kernel @loads(%v: !tile.view<?x128xf16>, %w: !tile.view<4096xi8>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %0 = tile.load %v[%i, %c0] : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %1 = tile.load %v[%i, %c0] latency 1 : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %2 = tile.load %v[%i, %c0] latency 10 : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %3 = tile.load %v[%i, %c0] allow_tma : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %4 = tile.load %v[%i, %c0] latency 3 allow_tma : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %5 = tile.load %v[%i, %c0] padding undetermined : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %6 = tile.load %v[%i, %c0] padding zero : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %7 = tile.load %v[%i, %c0] padding neg_zero : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %8 = tile.load %v[%i, %c0] padding nan : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %9 = tile.load %v[%i, %c0] padding pos_inf : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %10 = tile.load %v[%i, %c0] padding neg_inf : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %11 = tile.load %v[%i, %c0] latency 2 allow_tma padding zero : !tile.view<?x128xf16> -> tensor<64x128xf16>
  %12 = tile.load %w[%i] : !tile.view<4096xi8> -> tensor<256xi8>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @stores
// CHECK-SAME: (%[[V:[a-z0-9]+]]: !tile.view<?x?xf32>, %[[S:[a-z0-9]+]]: f32)
// CHECK: %[[I:.*]] = tile.block_id x
// CHECK: %[[J:.*]] = tile.block_id y
// CHECK: %[[T:.*]] = tile.splat %[[S]] : f32 -> tensor<128x64xf32>
// CHECK: tile.store %[[T]], %[[V]][%[[I]], %[[J]]] : tensor<128x64xf32>, !tile.view<?x?xf32>
// CHECK: tile.store %[[T]], %[[V]][%[[I]], %[[J]]] latency 4 : tensor<128x64xf32>, !tile.view<?x?xf32>
// CHECK: tile.store %[[T]], %[[V]][%[[I]], %[[J]]] allow_tma : tensor<128x64xf32>, !tile.view<?x?xf32>
// CHECK: tile.store %[[T]], %[[V]][%[[I]], %[[J]]] latency 10 allow_tma : tensor<128x64xf32>, !tile.view<?x?xf32>
// CHECK: tile.return
tile.kernel @stores(%v: !tile.view<?x?xf32>, %s: f32) {
  %i = tile.block_id x
  %j = tile.block_id y
  %t = tile.splat %s : f32 -> tensor<128x64xf32>
  tile.store %t, %v[%i, %j] : tensor<128x64xf32>, !tile.view<?x?xf32>
  tile.store %t, %v[%i, %j] latency 4 : tensor<128x64xf32>, !tile.view<?x?xf32>
  tile.store %t, %v[%i, %j] allow_tma : tensor<128x64xf32>, !tile.view<?x?xf32>
  tile.store %t, %v[%i, %j] latency 10 allow_tma : tensor<128x64xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

// Every operand/accumulator pair tensor cores offer, and a batched product.

// CHECK-LABEL: tile.kernel @mma_dtypes
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x16xf16>, tensor<16x32xf16>, tensor<64x32xf16>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x16xf16>, tensor<16x32xf16>, tensor<64x32xf32>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} {rhs_transposed} : tensor<64x16xf16>, tensor<32x16xf16>, tensor<64x32xf32>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x16xbf16>, tensor<16x32xbf16>, tensor<64x32xf32>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x8xf32>, tensor<8x32xf32>, tensor<64x32xf32>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf8E4M3FN>, tensor<32x32xf8E4M3FN>, tensor<64x32xf32>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf8E4M3FN>, tensor<32x32xf8E4M3FN>, tensor<64x32xf16>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf8E5M2>, tensor<32x32xf8E5M2>, tensor<64x32xf16>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf8E5M2>, tensor<32x32xf8E5M2>, tensor<64x32xf32>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf8E4M3FN>, tensor<32x32xf8E5M2>, tensor<64x32xf32>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xi8>, tensor<32x32xi8>, tensor<64x32xi32>
// CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x64x16xbf16>, tensor<4x16x32xbf16>, tensor<4x64x32xf32>
// CHECK: tile.return
tile.kernel @mma_dtypes(%h: !tile.view<?x?xf16>, %b: !tile.view<?x?xbf16>,
                        %f: !tile.view<?x?xf32>, %e4: !tile.view<?x?xf8E4M3FN>,
                        %e5: !tile.view<?x?xf8E5M2>, %q: !tile.view<?x?xi8>,
                        %bb: !tile.view<?x?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %acc16 = arith.constant dense<0.0> : tensor<64x32xf16>
  %acc32 = arith.constant dense<0.0> : tensor<64x32xf32>
  %acci = arith.constant dense<0> : tensor<64x32xi32>

  %h0 = tile.load %h[%c0, %c0] : !tile.view<?x?xf16> -> tensor<64x16xf16>
  %h1 = tile.load %h[%c0, %c0] : !tile.view<?x?xf16> -> tensor<16x32xf16>
  %0 = tile.mma %h0, %h1, %acc16 : tensor<64x16xf16>, tensor<16x32xf16>, tensor<64x32xf16>
  %1 = tile.mma %h0, %h1, %acc32 : tensor<64x16xf16>, tensor<16x32xf16>, tensor<64x32xf32>
  %ht = tile.load %h[%c0, %c0] : !tile.view<?x?xf16> -> tensor<32x16xf16>
  %t = tile.mma %h0, %ht, %acc32 {rhs_transposed} : tensor<64x16xf16>, tensor<32x16xf16>, tensor<64x32xf32>

  %b0 = tile.load %b[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x16xbf16>
  %b1 = tile.load %b[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x32xbf16>
  %2 = tile.mma %b0, %b1, %acc32 : tensor<64x16xbf16>, tensor<16x32xbf16>, tensor<64x32xf32>

  %f0 = tile.load %f[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x8xf32>
  %f1 = tile.load %f[%c0, %c0] : !tile.view<?x?xf32> -> tensor<8x32xf32>
  %3 = tile.mma %f0, %f1, %acc32 : tensor<64x8xf32>, tensor<8x32xf32>, tensor<64x32xf32>

  %e40 = tile.load %e4[%c0, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<64x32xf8E4M3FN>
  %e41 = tile.load %e4[%c0, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<32x32xf8E4M3FN>
  %4 = tile.mma %e40, %e41, %acc32 : tensor<64x32xf8E4M3FN>, tensor<32x32xf8E4M3FN>, tensor<64x32xf32>
  %5 = tile.mma %e40, %e41, %acc16 : tensor<64x32xf8E4M3FN>, tensor<32x32xf8E4M3FN>, tensor<64x32xf16>

  %e50 = tile.load %e5[%c0, %c0] : !tile.view<?x?xf8E5M2> -> tensor<64x32xf8E5M2>
  %e51 = tile.load %e5[%c0, %c0] : !tile.view<?x?xf8E5M2> -> tensor<32x32xf8E5M2>
  %6 = tile.mma %e50, %e51, %acc16 : tensor<64x32xf8E5M2>, tensor<32x32xf8E5M2>, tensor<64x32xf16>
  %7 = tile.mma %e50, %e51, %acc32 : tensor<64x32xf8E5M2>, tensor<32x32xf8E5M2>, tensor<64x32xf32>
  %mixed = tile.mma %e40, %e51, %acc32 : tensor<64x32xf8E4M3FN>, tensor<32x32xf8E5M2>, tensor<64x32xf32>

  %q0 = tile.load %q[%c0, %c0] : !tile.view<?x?xi8> -> tensor<64x32xi8>
  %q1 = tile.load %q[%c0, %c0] : !tile.view<?x?xi8> -> tensor<32x32xi8>
  %8 = tile.mma %q0, %q1, %acci : tensor<64x32xi8>, tensor<32x32xi8>, tensor<64x32xi32>

  %bb0 = tile.load %bb[%c0, %c0, %c0] : !tile.view<?x?x?xbf16> -> tensor<4x64x16xbf16>
  %bb1 = tile.load %bb[%c0, %c0, %c0] : !tile.view<?x?x?xbf16> -> tensor<4x16x32xbf16>
  %bacc = arith.constant dense<0.0> : tensor<4x64x32xf32>
  %9 = tile.mma %bb0, %bb1, %bacc : tensor<4x64x16xbf16>, tensor<4x16x32xbf16>, tensor<4x64x32xf32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @reduce_kinds
// CHECK: tile.reduce sum %{{.*}} dim 1 : tensor<32x64xf32> -> tensor<32xf32>
// CHECK: tile.reduce prod %{{.*}} dim 0 : tensor<32x64xf32> -> tensor<64xf32>
// CHECK: tile.reduce max %{{.*}} dim 1 : tensor<32x64xf32> -> tensor<32xf32>
// CHECK: tile.reduce min %{{.*}} dim 0 : tensor<32x64xf32> -> tensor<64xf32>
// CHECK: tile.reduce max %{{.*}} dim 1 : tensor<2x4x8xi32> -> tensor<2x8xi32>
// CHECK: tile.reduce sum %{{.*}} dim 0 : tensor<32xf32> -> tensor<f32>
// CHECK: tile.return
tile.kernel @reduce_kinds(%v: !tile.view<?x64xf32>, %w: !tile.view<?x?x?xi32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0, %c0] : !tile.view<?x64xf32> -> tensor<32x64xf32>
  %0 = tile.reduce sum %t dim 1 : tensor<32x64xf32> -> tensor<32xf32>
  %1 = tile.reduce prod %t dim 0 : tensor<32x64xf32> -> tensor<64xf32>
  %2 = tile.reduce max %t dim 1 : tensor<32x64xf32> -> tensor<32xf32>
  %3 = tile.reduce min %t dim 0 : tensor<32x64xf32> -> tensor<64xf32>
  %u = tile.load %w[%c0, %c0, %c0] : !tile.view<?x?x?xi32> -> tensor<2x4x8xi32>
  %4 = tile.reduce max %u dim 1 : tensor<2x4x8xi32> -> tensor<2x8xi32>
  %5 = tile.reduce sum %0 dim 0 : tensor<32xf32> -> tensor<f32>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @scans
// CHECK: tile.scan sum %{{.*}} dim 1 : tensor<16x128xf32>
// CHECK: tile.scan sum %{{.*}} dim 1 reverse : tensor<16x128xf32>
// CHECK: tile.scan prod %{{.*}} dim 0 : tensor<16x128xf32>
// CHECK: tile.scan max %{{.*}} dim 0 reverse : tensor<16x128xf32>
// CHECK: tile.scan min %{{.*}} dim 0 : tensor<64xi16>
// CHECK: tile.return
tile.kernel @scans(%v: !tile.view<?x128xf32>, %w: !tile.view<?xi16>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0, %c0] : !tile.view<?x128xf32> -> tensor<16x128xf32>
  %0 = tile.scan sum %t dim 1 : tensor<16x128xf32>
  %1 = tile.scan sum %t dim 1 reverse : tensor<16x128xf32>
  %2 = tile.scan prod %t dim 0 : tensor<16x128xf32>
  %3 = tile.scan max %t dim 0 reverse : tensor<16x128xf32>
  %u = tile.load %w[%c0] : !tile.view<?xi16> -> tensor<64xi16>
  %4 = tile.scan min %u dim 0 : tensor<64xi16>
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @reshaping
// CHECK: tile.splat %{{.*}} : f32 -> tensor<64x1xf32>
// CHECK: tile.splat %{{.*}} : i32 -> tensor<8xi32>
// CHECK: tile.splat %{{.*}} : index -> tensor<4x4xindex>
// CHECK: tile.broadcast %{{.*}} : tensor<64x1xf32> -> tensor<64x128xf32>
// CHECK: tile.broadcast %{{.*}} : tensor<1x1x8xf32> -> tensor<2x4x8xf32>
// CHECK: tile.iota : tensor<128xi32>
// CHECK: tile.iota : tensor<128xi8>
// CHECK: tile.iota : tensor<1xi1>
// CHECK: tile.iota : tensor<1024xi64>
// CHECK: tile.reshape %{{.*}} : tensor<64x128xf32> -> tensor<8192xf32>
// CHECK: tile.reshape %{{.*}} : tensor<8192xf32> -> tensor<2x64x64xf32>
// CHECK: tile.reshape %{{.*}} : tensor<f32> -> tensor<1x1xf32>
// CHECK: tile.permute %{{.*}} [1, 0] : tensor<64x128xf32> -> tensor<128x64xf32>
// CHECK: tile.permute %{{.*}} [2, 0, 1] : tensor<2x64x64xf32> -> tensor<64x2x64xf32>
// CHECK: tile.permute %{{.*}} [0, 1] : tensor<64x128xf32> -> tensor<64x128xf32>
// CHECK: tile.return
tile.kernel @reshaping(%s: f32, %n: i32, %i: index) {
  %col = tile.splat %s : f32 -> tensor<64x1xf32>
  %si = tile.splat %n : i32 -> tensor<8xi32>
  %sx = tile.splat %i : index -> tensor<4x4xindex>
  %b = tile.broadcast %col : tensor<64x1xf32> -> tensor<64x128xf32>
  %row = arith.constant dense<1.0> : tensor<1x1x8xf32>
  %b3 = tile.broadcast %row : tensor<1x1x8xf32> -> tensor<2x4x8xf32>
  %io = tile.iota : tensor<128xi32>
  %io8 = tile.iota : tensor<128xi8>
  %io1 = tile.iota : tensor<1xi1>
  %io64 = tile.iota : tensor<1024xi64>
  %flat = tile.reshape %b : tensor<64x128xf32> -> tensor<8192xf32>
  %cube = tile.reshape %flat : tensor<8192xf32> -> tensor<2x64x64xf32>
  %scalar = arith.constant dense<2.0> : tensor<f32>
  %unit = tile.reshape %scalar : tensor<f32> -> tensor<1x1xf32>
  %t = tile.permute %b [1, 0] : tensor<64x128xf32> -> tensor<128x64xf32>
  %t3 = tile.permute %cube [2, 0, 1] : tensor<2x64x64xf32> -> tensor<64x2x64xf32>
  %id = tile.permute %b [0, 1] : tensor<64x128xf32> -> tensor<64x128xf32>
  tile.return
}

// -----

// Elementwise math on tiles is arith and math on tensors: a row softmax.

// CHECK-LABEL: tile.kernel @softmax
// CHECK-SAME: attributes {occupancy = 2 : i32}
// CHECK: %[[X:.*]] = tile.load %{{.*}} padding neg_inf : !tile.view<?x1024xf32> -> tensor<8x1024xf32>
// CHECK: %[[M:.*]] = tile.reduce max %[[X]] dim 1 : tensor<8x1024xf32> -> tensor<8xf32>
// CHECK: %[[M2:.*]] = tile.reshape %[[M]] : tensor<8xf32> -> tensor<8x1xf32>
// CHECK: %[[MB:.*]] = tile.broadcast %[[M2]] : tensor<8x1xf32> -> tensor<8x1024xf32>
// CHECK: %[[D:.*]] = arith.subf %[[X]], %[[MB]] : tensor<8x1024xf32>
// CHECK: %[[E:.*]] = math.exp %[[D]] : tensor<8x1024xf32>
// CHECK: %[[S:.*]] = tile.reduce sum %[[E]] dim 1 : tensor<8x1024xf32> -> tensor<8xf32>
// CHECK: tile.reshape %[[S]] : tensor<8xf32> -> tensor<8x1xf32>
// CHECK: tile.broadcast
// CHECK: %[[Y:.*]] = arith.divf %[[E]], %{{.*}} : tensor<8x1024xf32>
// CHECK: %[[H:.*]] = arith.truncf %[[Y]] : tensor<8x1024xf32> to tensor<8x1024xf16>
// CHECK: tile.store %[[H]], %{{.*}} : tensor<8x1024xf16>, !tile.view<?x1024xf16>
// CHECK: tile.return
tile.kernel @softmax(%x: !tile.view<?x1024xf32>, %y: !tile.view<?x1024xf16>)
    attributes {occupancy = 2 : i32} {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] padding neg_inf : !tile.view<?x1024xf32> -> tensor<8x1024xf32>
  %m = tile.reduce max %t dim 1 : tensor<8x1024xf32> -> tensor<8xf32>
  %m2 = tile.reshape %m : tensor<8xf32> -> tensor<8x1xf32>
  %mb = tile.broadcast %m2 : tensor<8x1xf32> -> tensor<8x1024xf32>
  %d = arith.subf %t, %mb : tensor<8x1024xf32>
  %e = math.exp %d : tensor<8x1024xf32>
  %s = tile.reduce sum %e dim 1 : tensor<8x1024xf32> -> tensor<8xf32>
  %s2 = tile.reshape %s : tensor<8xf32> -> tensor<8x1xf32>
  %sb = tile.broadcast %s2 : tensor<8x1xf32> -> tensor<8x1024xf32>
  %r = arith.divf %e, %sb : tensor<8x1024xf32>
  %h = arith.truncf %r : tensor<8x1024xf32> to tensor<8x1024xf16>
  tile.store %h, %y[%i, %c0] : tensor<8x1024xf16>, !tile.view<?x1024xf16>
  tile.return
}

// -----

// A GEMM: C[128 i, 128 j] = A[128 i, :] @ B[:, 128 j], looping over K with
// an accumulator tile carried by scf.for.

// CHECK-LABEL: tile.kernel @gemm
// CHECK-SAME: (%[[A:[a-z0-9]+]]: !tile.view<?x?xbf16>, %[[B:[a-z0-9]+]]: !tile.view<?x?xbf16>, %[[C:[a-z0-9]+]]: !tile.view<?x?xf32>, %[[K:[a-z0-9]+]]: index)
// CHECK-SAME: attributes {num_ctas = 2 : i32, occupancy = 1 : i32}
// CHECK-DAG: %[[I:.*]] = tile.block_id x
// CHECK-DAG: %[[J:.*]] = tile.block_id y
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
// CHECK: %[[RES:.*]] = scf.for %[[KK:.*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<128x128xf32>) {
// CHECK: %[[TA:.*]] = tile.load %[[A]][%[[I]], %[[KK]]] latency 3 allow_tma padding zero : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
// CHECK: %[[TB:.*]] = tile.load %[[B]][%[[KK]], %[[J]]] latency 3 allow_tma padding zero : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
// CHECK: %[[NEW:.*]] = tile.mma %[[TA]], %[[TB]], %[[ACC]] : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
// CHECK: scf.yield %[[NEW]] : tensor<128x128xf32>
// CHECK: }
// CHECK: tile.store %[[RES]], %[[C]][%[[I]], %[[J]]] allow_tma : tensor<128x128xf32>, !tile.view<?x?xf32>
// CHECK: tile.return
tile.kernel @gemm(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>,
                  %c: !tile.view<?x?xf32>, %k_tiles: index)
    attributes {occupancy = 1 : i32, num_ctas = 2 : i32} {
  %i = tile.block_id x
  %j = tile.block_id y
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %res = scf.for %k = %c0 to %k_tiles step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32>) {
    %ta = tile.load %a[%i, %k] latency 3 allow_tma padding zero : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %tb = tile.load %b[%k, %j] latency 3 allow_tma padding zero : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %next = tile.mma %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    scf.yield %next : tensor<128x128xf32>
  }
  tile.store %res, %c[%i, %j] allow_tma : tensor<128x128xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

// A static view binds a buffer of another shape with as many elements (the
// buffer reinterpreted row-major, as a reshape that is a view binds it).
// CHECK-LABEL: func.func @reshaped_binding
// CHECK: tile.launch @rows grid [16, 1, 1](%{{.*}}) : memref<16x1x512xf16>
tile.kernel @rows(%x: !tile.view<16x512xf16>) {
  tile.return
}
func.func @reshaped_binding(%b: memref<16x1x512xf16>) {
  tile.launch @rows grid [16, 1, 1](%b) : memref<16x1x512xf16>
  return
}

// -----

// CHECK-LABEL: tile.kernel @row_sums_across_blocks
// CHECK: tile.reduce_across_blocks sum %{{.*}} along y : tensor<16xf32>
// CHECK: tile.reduce_across_blocks max %{{.*}} along x : tensor<16xi32>
tile.kernel @row_sums_across_blocks(%v: !tile.view<16x64xf32>, %w: !tile.view<16xi32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0, %c0] : !tile.view<16x64xf32> -> tensor<16x64xf32>
  %r = tile.reduce sum %t dim 1 : tensor<16x64xf32> -> tensor<16xf32>
  %s = tile.reduce_across_blocks sum %r along y : tensor<16xf32>
  %i = tile.load %w[%c0] : !tile.view<16xi32> -> tensor<16xi32>
  %m = tile.reduce_across_blocks max %i along x : tensor<16xi32>
  tile.return
}

// -----

// Layouts, as tileopt-assign-layouts gives them to every tile of a kernel
// (printed as aliases), tile.convert_layout, and the decision recorded on a
// loop whose multiplicands the code generator pipelines.

// CHECK-DAG: #[[BLOCKED:.*]] = #tile.blocked<chunk = 8, warps = 4>
// CHECK-DAG: #[[MMA:.*]] = #tile.mma_sync<warps = [2, 2]>
// CHECK-LABEL: tile.kernel @layouts
// CHECK: arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[MMA]]>
// CHECK: scf.for
// CHECK: tile.load {{.*}} -> tensor<64x32xf16, #[[BLOCKED]]>
// CHECK: tile.mma {{.*}} : tensor<64x32xf16, #[[BLOCKED]]>, tensor<32x64xf16, #[[BLOCKED]]>, tensor<64x64xf32, #[[MMA]]>
// CHECK: } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 3, staging = swizzled>}
// CHECK: tile.convert_layout %{{.*}} : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[BLOCKED]]>
#blocked = #tile.blocked<chunk = 8, warps = 4>
#mma = #tile.mma_sync<warps = [2, 2]>
tile.kernel @layouts(%a: !tile.view<?x?xf16>, %b: !tile.view<?x?xf16>,
                     %c: !tile.view<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %res = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) {
    %ta = tile.load %a[%c0, %k] latency 3 : !tile.view<?x?xf16> -> tensor<64x32xf16, #blocked>
    %tb = tile.load %b[%k, %c0] latency 3 : !tile.view<?x?xf16> -> tensor<32x64xf16, #blocked>
    %next = tile.mma %ta, %tb, %acc : tensor<64x32xf16, #blocked>, tensor<32x64xf16, #blocked>, tensor<64x64xf32, #mma>
    scf.yield %next : tensor<64x64xf32, #mma>
  } {tile.mma_pipeline = #tile.mma_pipeline<cp_async, stages = 3, staging = swizzled>}
  %out = tile.convert_layout %res : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
  tile.store %out, %c[%c0, %c0] : tensor<64x64xf32, #blocked>, !tile.view<?x?xf32>
  tile.return
}

// -----

// The wgmma accumulator, a replicated tile (fewer elements than threads),
// a tile.mma that leaves its left operand where the one before it staged
// it, and a loop whose hinted multiplicands cannot be staged.

// CHECK-DAG: #[[BLOCKED:.*]] = #tile.blocked<chunk = 8, warps = 4>
// CHECK-DAG: #[[REPLICATED:.*]] = #tile.blocked<chunk = 1, warps = 4>
// CHECK-DAG: #[[WGMMA:.*]] = #tile.wgmma<warpgroups = 1>
// CHECK-LABEL: tile.kernel @wgmma_layouts
// CHECK: tile.mma %[[X:.*]], %{{.*}}, %{{.*}} : {{.*}}, tensor<64x64xf32, #[[WGMMA]]>
// CHECK-NEXT: tile.mma %[[X]], %{{.*}}, %{{.*}} {tile.lhs_staged}
// CHECK: tile.reduce sum %{{.*}} dim 1 : tensor<64x64xf32, #[[BLOCKED]]> -> tensor<64xf32, #[[REPLICATED]]>
// CHECK: } {tile.mma_pipeline = #tile.mma_pipeline<none>}
#blocked = #tile.blocked<chunk = 8, warps = 4>
#replicated = #tile.blocked<chunk = 1, warps = 4>
#wgmma = #tile.wgmma<warpgroups = 1>
tile.kernel @wgmma_layouts(%x: !tile.view<64x64xbf16>, %w: !tile.view<64x64xbf16>,
                           %o: !tile.view<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #wgmma>
  %tx = tile.load %x[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16, #blocked>
  %tw = tile.load %w[%c0, %c0] : !tile.view<64x64xbf16> -> tensor<64x64xbf16, #blocked>
  %p = tile.mma %tx, %tw, %zero : tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>, tensor<64x64xf32, #wgmma>
  %q = tile.mma %tx, %tw, %zero {tile.lhs_staged} : tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>, tensor<64x64xf32, #wgmma>
  %s = arith.addf %p, %q : tensor<64x64xf32, #wgmma>
  %sb = tile.convert_layout %s : tensor<64x64xf32, #wgmma> -> tensor<64x64xf32, #blocked>
  %r = tile.reduce sum %sb dim 1 : tensor<64x64xf32, #blocked> -> tensor<64xf32, #replicated>
  tile.store %r, %o[%c0] : tensor<64xf32, #replicated>, !tile.view<64xf32>
  %t = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #wgmma>) {
    %ta = tile.load %x[%c0, %k] latency 2 : !tile.view<64x64xbf16> -> tensor<64x64xbf16, #blocked>
    %next = tile.mma %ta, %tw, %acc : tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>, tensor<64x64xf32, #wgmma>
    scf.yield %next : tensor<64x64xf32, #wgmma>
  } {tile.mma_pipeline = #tile.mma_pipeline<none>}
  tile.return
}

// -----

// CHECK-LABEL: tile.kernel @gather_scatter
// CHECK: %[[X:.*]] = tile.gather %{{.*}}[%[[O:.*]]] : !tile.view<4x8xf32>, tensor<256xi32> -> tensor<256xf32>
// CHECK: tile.scatter %[[X]], %{{.*}}[%[[O]]] : tensor<256xf32>, !tile.view<32xf32>, tensor<256xi32>
tile.kernel @gather_scatter(%x: !tile.view<4x8xf32>, %y: !tile.view<32xf32>) {
  %o = tile.iota : tensor<256xi32>
  %v = tile.gather %x[%o] : !tile.view<4x8xf32>, tensor<256xi32> -> tensor<256xf32>
  tile.scatter %v, %y[%o] : tensor<256xf32>, !tile.view<32xf32>, tensor<256xi32>
  tile.return
}
