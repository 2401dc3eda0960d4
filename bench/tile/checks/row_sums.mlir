// Row sums and maxima in every regime of the reduction lowering (128
// threads): rows longer than a round of chunks (8192), exactly one warp of
// chunks (256), a few lanes (64), and several rows per warp; and tiles of
// fewer elements than threads, which every thread holds a copy of: a row
// over two warps (1x64), rows within a warp (2x32 sums, 4x4 maxima).
tile.kernel @row_sums(%x: !tile.view<?x8192xf32>, %s: !tile.view<?xf32>,
                      %y: !tile.view<?x256xf32>, %t: !tile.view<?xf32>,
                      %z: !tile.view<?x64xf32>, %u: !tile.view<?xf32>,
                      %p: !tile.view<?x64xf32>, %ps: !tile.view<?xf32>,
                      %q: !tile.view<?x32xf32>, %qs: !tile.view<?xf32>,
                      %r: !tile.view<?x4xf32>, %rm: !tile.view<?xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%i, %c0] : !tile.view<?x8192xf32> -> tensor<1x8192xf32>
  %as = tile.reduce sum %a dim 1 : tensor<1x8192xf32> -> tensor<1xf32>
  tile.store %as, %s[%i] : tensor<1xf32>, !tile.view<?xf32>
  %b = tile.load %y[%i, %c0] : !tile.view<?x256xf32> -> tensor<4x256xf32>
  %bm = tile.reduce max %b dim 1 : tensor<4x256xf32> -> tensor<4xf32>
  tile.store %bm, %t[%i] : tensor<4xf32>, !tile.view<?xf32>
  %c = tile.load %z[%i, %c0] : !tile.view<?x64xf32> -> tensor<64x64xf32>
  %cs = tile.reduce sum %c dim 1 : tensor<64x64xf32> -> tensor<64xf32>
  tile.store %cs, %u[%i] : tensor<64xf32>, !tile.view<?xf32>
  %d = tile.load %p[%i, %c0] : !tile.view<?x64xf32> -> tensor<1x64xf32>
  %ds = tile.reduce sum %d dim 1 : tensor<1x64xf32> -> tensor<1xf32>
  tile.store %ds, %ps[%i] : tensor<1xf32>, !tile.view<?xf32>
  %e = tile.load %q[%i, %c0] : !tile.view<?x32xf32> -> tensor<2x32xf32>
  %es = tile.reduce sum %e dim 1 : tensor<2x32xf32> -> tensor<2xf32>
  tile.store %es, %qs[%i] : tensor<2xf32>, !tile.view<?xf32>
  %f = tile.load %r[%i, %c0] : !tile.view<?x4xf32> -> tensor<4x4xf32>
  %fm = tile.reduce max %f dim 1 : tensor<4x4xf32> -> tensor<4xf32>
  tile.store %fm, %rm[%i] : tensor<4xf32>, !tile.view<?xf32>
  tile.return
}

func.func @main(%x: memref<16x8192xf32> {tileopt.name = "x"},
                %s: memref<16xf32> {tileopt.name = "s", tileopt.output},
                %y: memref<64x256xf32> {tileopt.name = "y"},
                %t: memref<64xf32> {tileopt.name = "t", tileopt.output},
                %z: memref<1024x64xf32> {tileopt.name = "z"},
                %u: memref<1024xf32> {tileopt.name = "u", tileopt.output},
                %p: memref<16x64xf32> {tileopt.name = "p"},
                %ps: memref<16xf32> {tileopt.name = "ps", tileopt.output},
                %q: memref<32x32xf32> {tileopt.name = "q"},
                %qs: memref<32xf32> {tileopt.name = "qs", tileopt.output},
                %r: memref<64x4xf32> {tileopt.name = "r"},
                %rm: memref<64xf32> {tileopt.name = "rm", tileopt.output}) {
  tile.launch @row_sums grid [16, 1, 1] (%x, %s, %y, %t, %z, %u, %p, %ps, %q, %qs, %r, %rm)
      : memref<16x8192xf32>, memref<16xf32>, memref<64x256xf32>, memref<64xf32>,
        memref<1024x64xf32>, memref<1024xf32>, memref<16x64xf32>, memref<16xf32>,
        memref<32x32xf32>, memref<32xf32>, memref<64x4xf32>, memref<64xf32>
  return
}
