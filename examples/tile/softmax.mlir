// Row softmax of a bf16 matrix with rows of 8192: one block per row; the
// row is read once, kept in registers (as f32) through max, exp, sum and
// scaling, and written once. The row sum is inverted once and multiplied in,
// rather than divided into every element.
tile.kernel @softmax(%x: !tile.view<?x8192xbf16>, %y: !tile.view<?x8192xbf16>) {
  %row = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%row, %c0] : !tile.view<?x8192xbf16> -> tensor<1x8192xbf16>
  %f = arith.extf %t : tensor<1x8192xbf16> to tensor<1x8192xf32>
  %m = tile.reduce max %f dim 1 : tensor<1x8192xf32> -> tensor<1xf32>
  %m1 = tile.reshape %m : tensor<1xf32> -> tensor<1x1xf32>
  %mb = tile.broadcast %m1 : tensor<1x1xf32> -> tensor<1x8192xf32>
  %d = arith.subf %f, %mb : tensor<1x8192xf32>
  %e = math.exp %d : tensor<1x8192xf32>
  %s = tile.reduce sum %e dim 1 : tensor<1x8192xf32> -> tensor<1xf32>
  %one = arith.constant dense<1.0> : tensor<1xf32>
  %inv = arith.divf %one, %s : tensor<1xf32>
  %inv1 = tile.reshape %inv : tensor<1xf32> -> tensor<1x1xf32>
  %ib = tile.broadcast %inv1 : tensor<1x1xf32> -> tensor<1x8192xf32>
  %p = arith.mulf %e, %ib : tensor<1x8192xf32>
  %o = arith.truncf %p : tensor<1x8192xf32> to tensor<1x8192xbf16>
  tile.store %o, %y[%row, %c0] : tensor<1x8192xbf16>, !tile.view<?x8192xbf16>
  tile.return
}

// The host side: softmax of every row of an 8192 x 8192 matrix.
func.func @main(%x: memref<8192x8192xbf16> {tileopt.name = "x"},
                %y: memref<8192x8192xbf16> {tileopt.name = "y", tileopt.output})
    attributes {tileopt.reference = "row_softmax"} {
  tile.launch @softmax grid [8192, 1, 1] (%x, %y)
      : memref<8192x8192xbf16>, memref<8192x8192xbf16>
  return
}
