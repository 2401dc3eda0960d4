// A view whose sizes are not multiples of the tile, with rows of odd length:
// element-wise accesses under bounds checks, padding -inf for a row max,
// nothing written outside. Output is x + max(row) for each row.
tile.kernel @ragged(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) {
  %i = tile.block_id x
  %j = tile.block_id y
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] padding neg_inf : !tile.view<?x?xf32> -> tensor<4x128xf32>
  %m = tile.reduce max %t dim 1 : tensor<4x128xf32> -> tensor<4xf32>
  %m1 = tile.reshape %m : tensor<4xf32> -> tensor<4x1xf32>
  %mb = tile.broadcast %m1 : tensor<4x1xf32> -> tensor<4x128xf32>
  %s = arith.addf %t, %mb : tensor<4x128xf32>
  tile.store %s, %y[%i, %c0] : tensor<4x128xf32>, !tile.view<?x?xf32>
  tile.return
}

func.func @main(%x: memref<37x100xf32> {tileopt.name = "x"},
                %y: memref<37x100xf32> {tileopt.name = "y", tileopt.output}) {
  tile.launch @ragged grid [10, 1, 1] (%x, %y)
      : memref<37x100xf32>, memref<37x100xf32>
  return
}
