// Scans over the last dim in every regime: rows longer than a round of
// chunks (8192), one warp of chunks (256), several rows per warp (64,
// reversed), and a running maximum.
tile.kernel @scans(%x: !tile.view<?x8192xf32>, %cx: !tile.view<?x8192xf32>,
                   %y: !tile.view<?x256xf32>, %cy: !tile.view<?x256xf32>,
                   %z: !tile.view<?x64xf32>, %rz: !tile.view<?x64xf32>,
                   %w: !tile.view<?x128xf32>, %mw: !tile.view<?x128xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%i, %c0] : !tile.view<?x8192xf32> -> tensor<1x8192xf32>
  %as = tile.scan sum %a dim 1 : tensor<1x8192xf32>
  tile.store %as, %cx[%i, %c0] : tensor<1x8192xf32>, !tile.view<?x8192xf32>
  %b = tile.load %y[%i, %c0] : !tile.view<?x256xf32> -> tensor<4x256xf32>
  %bs = tile.scan sum %b dim 1 : tensor<4x256xf32>
  tile.store %bs, %cy[%i, %c0] : tensor<4x256xf32>, !tile.view<?x256xf32>
  %c = tile.load %z[%i, %c0] : !tile.view<?x64xf32> -> tensor<64x64xf32>
  %cs = tile.scan sum %c dim 1 reverse : tensor<64x64xf32>
  tile.store %cs, %rz[%i, %c0] : tensor<64x64xf32>, !tile.view<?x64xf32>
  %d = tile.load %w[%i, %c0] : !tile.view<?x128xf32> -> tensor<8x128xf32>
  %dm = tile.scan max %d dim 1 : tensor<8x128xf32>
  tile.store %dm, %mw[%i, %c0] : tensor<8x128xf32>, !tile.view<?x128xf32>
  tile.return
}

func.func @main(%x: memref<4x8192xf32> {tileopt.name = "x"},
                %cx: memref<4x8192xf32> {tileopt.name = "cx", tileopt.output},
                %y: memref<16x256xf32> {tileopt.name = "y"},
                %cy: memref<16x256xf32> {tileopt.name = "cy", tileopt.output},
                %z: memref<256x64xf32> {tileopt.name = "z"},
                %rz: memref<256x64xf32> {tileopt.name = "rz", tileopt.output},
                %w: memref<32x128xf32> {tileopt.name = "w"},
                %mw: memref<32x128xf32> {tileopt.name = "mw", tileopt.output}) {
  tile.launch @scans grid [4, 1, 1] (%x, %cx, %y, %cy, %z, %rz, %w, %mw)
      : memref<4x8192xf32>, memref<4x8192xf32>, memref<16x256xf32>,
        memref<16x256xf32>, memref<256x64xf32>, memref<256x64xf32>,
        memref<32x128xf32>, memref<32x128xf32>
  return
}
