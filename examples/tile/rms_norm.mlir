// Row RMSNorm of a bf16 matrix with rows of 8192: y = x / sqrt(mean(x^2) + eps),
// one block per row, the row kept in registers between the reduction and the
// scaling.
tile.kernel @rms_norm(%x: !tile.view<?x8192xbf16>, %y: !tile.view<?x8192xbf16>) {
  %row = tile.block_id x
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%row, %c0] : !tile.view<?x8192xbf16> -> tensor<1x8192xbf16>
  %f = arith.extf %t : tensor<1x8192xbf16> to tensor<1x8192xf32>
  %sq = arith.mulf %f, %f : tensor<1x8192xf32>
  %ss = tile.reduce sum %sq dim 1 : tensor<1x8192xf32> -> tensor<1xf32>
  %inv_n = arith.constant dense<1.220703125E-4> : tensor<1xf32>
  %eps = arith.constant dense<1.0E-6> : tensor<1xf32>
  %mean = arith.mulf %ss, %inv_n : tensor<1xf32>
  %shifted = arith.addf %mean, %eps : tensor<1xf32>
  %scale = math.rsqrt %shifted : tensor<1xf32>
  %s1 = tile.reshape %scale : tensor<1xf32> -> tensor<1x1xf32>
  %sb = tile.broadcast %s1 : tensor<1x1xf32> -> tensor<1x8192xf32>
  %n = arith.mulf %f, %sb : tensor<1x8192xf32>
  %o = arith.truncf %n : tensor<1x8192xf32> to tensor<1x8192xbf16>
  tile.store %o, %y[%row, %c0] : tensor<1x8192xbf16>, !tile.view<?x8192xbf16>
  tile.return
}

func.func @main(%x: memref<8192x8192xbf16> {tileopt.name = "x"},
                %y: memref<8192x8192xbf16> {tileopt.name = "y", tileopt.output})
    attributes {tileopt.reference = "row_rms_norm",
                tileopt.reference_args = {eps = 1.0e-6 : f64}} {
  tile.launch @rms_norm grid [8192, 1, 1] (%x, %y)
      : memref<8192x8192xbf16>, memref<8192x8192xbf16>
  return
}
