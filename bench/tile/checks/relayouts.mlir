// Broadcast, permute and a layout-changing reshape (all through shared
// memory), plus iota, splat and select.
tile.kernel @relayouts(%col: !tile.view<?x1xf32>, %out: !tile.view<?x64xf32>,
                       %m: !tile.view<?x32xf32>, %mt: !tile.view<?x64xf32>,
                       %r: !tile.view<?x2xf32>, %rr: !tile.view<?x256xf32>,
                       %io: !tile.view<?xi32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %v = tile.load %col[%i, %c0] : !tile.view<?x1xf32> -> tensor<256x1xf32>
  %b = tile.broadcast %v : tensor<256x1xf32> -> tensor<256x64xf32>
  tile.store %b, %out[%i, %c0] : tensor<256x64xf32>, !tile.view<?x64xf32>
  %a = tile.load %m[%i, %c0] : !tile.view<?x32xf32> -> tensor<64x32xf32>
  %p = tile.permute %a [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  tile.store %p, %mt[%i, %c0] : tensor<32x64xf32>, !tile.view<?x64xf32>
  %q = tile.load %r[%i, %c0] : !tile.view<?x2xf32> -> tensor<256x2xf32>
  %q2 = tile.reshape %q : tensor<256x2xf32> -> tensor<2x256xf32>
  tile.store %q2, %rr[%i, %c0] : tensor<2x256xf32>, !tile.view<?x256xf32>
  %n = tile.iota : tensor<512xi32>
  %three = arith.constant 3 : i32
  %t3 = tile.splat %three : i32 -> tensor<512xi32>
  %rem = arith.remsi %n, %t3 : tensor<512xi32>
  %zero = arith.constant dense<0> : tensor<512xi32>
  %is0 = arith.cmpi eq, %rem, %zero : tensor<512xi32>
  %neg = arith.subi %zero, %n : tensor<512xi32>
  %sel = arith.select %is0, %neg, %n : tensor<512xi1>, tensor<512xi32>
  tile.store %sel, %io[%i] : tensor<512xi32>, !tile.view<?xi32>
  tile.return
}

func.func @main(%col: memref<256x1xf32> {tileopt.name = "col"},
                %out: memref<256x64xf32> {tileopt.name = "out", tileopt.output},
                %m: memref<64x32xf32> {tileopt.name = "m"},
                %mt: memref<32x64xf32> {tileopt.name = "mt", tileopt.output},
                %r: memref<256x2xf32> {tileopt.name = "r"},
                %rr: memref<2x256xf32> {tileopt.name = "rr", tileopt.output},
                %io: memref<512xi32> {tileopt.name = "io", tileopt.output}) {
  tile.launch @relayouts grid [1, 1, 1] (%col, %out, %m, %mt, %r, %rr, %io)
      : memref<256x1xf32>, memref<256x64xf32>, memref<64x32xf32>,
        memref<32x64xf32>, memref<256x2xf32>, memref<2x256xf32>, memref<512xi32>
  return
}
