// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts --tileopt-lower-tile -verify-diagnostics

tile.kernel @scan_first_dim(%a: !tile.view<?x?xf32>) {
  %i = tile.block_id x
  %t = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  // expected-error @+1 {{'tile.scan' op scans dim 0; the code generator scans the last dim only (permute first)}}
  %s = tile.scan sum %t dim 0 : tensor<64x64xf32>
  tile.store %s, %a[%i, %i] : tensor<64x64xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

tile.kernel @reduce_first_dim(%a: !tile.view<?x?xf32>, %b: !tile.view<?xf32>) {
  %i = tile.block_id x
  %t = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  // expected-error @+1 {{'tile.reduce' op reduces dim 0; the code generator reduces the last dim only (permute first)}}
  %s = tile.reduce sum %t dim 0 : tensor<64x64xf32> -> tensor<64xf32>
  tile.store %s, %b[%i] : tensor<64xf32>, !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @scan_small(%a: !tile.view<?x?xf32>) {
  %i = tile.block_id x
  %t = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<2x32xf32>
  // expected-error @+1 {{'tile.scan' op input has 64 elements, fewer than the 128 threads of a block}}
  %s = tile.scan sum %t dim 1 : tensor<2x32xf32>
  tile.store %s, %a[%i, %i] : tensor<2x32xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

tile.kernel @too_big(%a: !tile.view<?x?xf32>) {
  %i = tile.block_id x
  // expected-error @+1 {{'tile.load' op tile 'tensor<128x512xf32>' gives each of 128 threads 512 elements, over the limit of 256: use a smaller tile or more warps}}
  %t = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<128x512xf32>
  tile.store %t, %a[%i, %i] : tensor<128x512xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

tile.kernel @dense_constant(%a: !tile.view<?xf32>) {
  %i = tile.block_id x
  // expected-error @+1 {{'arith.constant' op tile constants must be splats}}
  %c = arith.constant dense<[0.0, 1.0]> : tensor<2xf32>
  tile.store %c, %a[%i] : tensor<2xf32>, !tile.view<?xf32>
  tile.return
}

// -----

tile.kernel @wide_scratch(%a: !tile.view<?x?xf64>) {
  %i = tile.block_id x
  %t = tile.load %a[%i, %i] : !tile.view<?x?xf64> -> tensor<128x1xf64>
  // expected-error @+1 {{'tile.broadcast' op moves 'f64' elements through shared memory; only types of up to 32 bits are supported}}
  %b = tile.broadcast %t : tensor<128x1xf64> -> tensor<128x2xf64>
  tile.store %b, %a[%i, %i] : tensor<128x2xf64>, !tile.view<?x?xf64>
  tile.return
}

// -----

// expected-error @+1 {{'tile.kernel' op needs 65536 bytes of shared memory for its scratch, over the 49152 bytes of static shared memory; use smaller tiles}}
tile.kernel @scratch_too_large(%a: !tile.view<?x?xf32>) {
  %i = tile.block_id x
  %t = tile.load %a[%i, %i] : !tile.view<?x?xf32> -> tensor<16384x1xf32>
  %r = tile.reshape %t : tensor<16384x1xf32> -> tensor<128x128xf32>
  tile.store %r, %a[%i, %i] : tensor<128x128xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

tile.kernel @mma_f16_accumulator(%a: !tile.view<?x?xf16>, %c: !tile.view<?x?xf16>) {
  %i = tile.block_id x
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %acc = arith.constant dense<0.0> : tensor<64x64xf16>
  // expected-error @+1 {{'tile.mma' op takes rank-2 f16 or bf16 operands (tensor cores) or f32 operands (CUDA cores), and an f32 accumulator, for now}}
  %r = tile.mma %ta, %ta, %acc : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>
  tile.store %r, %c[%i, %i] : tensor<64x64xf16>, !tile.view<?x?xf16>
  tile.return
}

// -----

tile.kernel @mma_too_small(%a: !tile.view<?x?xf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.block_id x
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %acc = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tile.mma' op needs M a multiple of 16, N of 32 and K of 16 for mma.sync m16n8k16 on 1x4 warps}}
  %r = tile.mma %ta, %ta, %acc : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  tile.store %r, %c[%i, %i] : tensor<16x16xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

tile.kernel @mma_result_scanned(%a: !tile.view<?x?xf16>, %c: !tile.view<?x?xf32>) {
  %i = tile.block_id x
  %ta = tile.load %a[%i, %i] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = tile.mma %ta, %ta, %acc : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  // expected-error @+1 {{'tile.scan' op uses an mma accumulator; only tile.store, elementwise ops and scf.for take them for now (and tile.broadcast, reshape, permute, tile.reduce and tile.mma multiplicands, through shared memory)}}
  %s = tile.scan sum %r dim 1 : tensor<64x64xf32>
  tile.store %s, %c[%i, %i] : tensor<64x64xf32>, !tile.view<?x?xf32>
  tile.return
}

// -----

// A latency hint on mma operands that the cp.async pipeline cannot follow is
// a warning; the operands then go through registers, without prefetching.
tile.kernel @mma_nan_padding(%a: !tile.view<256x256xbf16>, %c: !tile.view<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%sum = %zero) -> (tensor<64x64xf32>) {
    // expected-warning @+1 {{latency hint not followed: cp.async pads with zeros only}}
    %ta = tile.load %a[%c0, %k] latency 3 padding nan : !tile.view<256x256xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %a[%k, %c0] : !tile.view<256x256xbf16> -> tensor<32x64xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<256x256xf32>
  tile.return
}

// -----

tile.kernel @mma_operand_computed(%a: !tile.view<256x256xbf16>, %c: !tile.view<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%sum = %zero) -> (tensor<64x64xf32>) {
    // expected-warning @+1 {{latency hint not followed: both operands of every tile.mma must be loaded in the scf.for around it}}
    %ta = tile.load %a[%c0, %k] latency 3 : !tile.view<256x256xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %a[%k, %c0] : !tile.view<256x256xbf16> -> tensor<32x64xbf16>
    %scaled = arith.addf %tb, %tb : tensor<32x64xbf16>
    %next = tile.mma %ta, %scaled, %sum : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<256x256xf32>
  tile.return
}

// -----

tile.kernel @mma_loop_does_more(%a: !tile.view<256x256xbf16>, %c: !tile.view<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%sum = %zero) -> (tensor<64x64xf32>) {
    // expected-warning @+1 {{latency hint not followed: the loop body may hold only loads and pure ops}}
    %ta = tile.load %a[%c0, %k] latency 3 : !tile.view<256x256xbf16> -> tensor<64x32xbf16>
    %tb = tile.load %a[%k, %c0] latency 3 : !tile.view<256x256xbf16> -> tensor<32x64xbf16>
    %t = tile.load %a[%k, %k] : !tile.view<256x256xbf16> -> tensor<64x64xbf16>
    tile.store %t, %a[%k, %c1] : tensor<64x64xbf16>, !tile.view<256x256xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<256x256xf32>
  tile.return
}

// -----

// The partials array of tile.reduce_across_blocks is sized by the grid.
tile.kernel @unlaunched(%v: !tile.view<16xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %v[%c0] : !tile.view<16xf32> -> tensor<16xf32>
  // expected-error @+1 {{'tile.reduce_across_blocks' op needs the grid its kernel is launched on: no tile.launch of @unlaunched in the module}}
  %s = tile.reduce_across_blocks max %t along x : tensor<16xf32>
  tile.store %s, %v[%c0] : tensor<16xf32>, !tile.view<16xf32>
  tile.return
}
