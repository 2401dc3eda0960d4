// A fused elementwise chain, the gated-MLP epilogue: out = silu(a) * b over
// bf16 matrices, computed in f32 registers. Each block takes a 4 x 1024 tile;
// the grid covers 8192 x 8192.
tile.kernel @silu_mul(%a: !tile.view<?x8192xbf16>, %b: !tile.view<?x8192xbf16>,
                      %out: !tile.view<?x8192xbf16>) {
  %i = tile.block_id x
  %j = tile.block_id y
  %ta = tile.load %a[%i, %j] : !tile.view<?x8192xbf16> -> tensor<4x1024xbf16>
  %tb = tile.load %b[%i, %j] : !tile.view<?x8192xbf16> -> tensor<4x1024xbf16>
  %fa = arith.extf %ta : tensor<4x1024xbf16> to tensor<4x1024xf32>
  %fb = arith.extf %tb : tensor<4x1024xbf16> to tensor<4x1024xf32>
  %one = arith.constant dense<1.0> : tensor<4x1024xf32>
  %neg = arith.negf %fa : tensor<4x1024xf32>
  %e = math.exp %neg : tensor<4x1024xf32>
  %den = arith.addf %one, %e : tensor<4x1024xf32>
  %silu = arith.divf %fa, %den : tensor<4x1024xf32>
  %prod = arith.mulf %silu, %fb : tensor<4x1024xf32>
  %o = arith.truncf %prod : tensor<4x1024xf32> to tensor<4x1024xbf16>
  tile.store %o, %out[%i, %j] : tensor<4x1024xbf16>, !tile.view<?x8192xbf16>
  tile.return
}

func.func @main(%a: memref<8192x8192xbf16> {tileopt.name = "a"},
                %b: memref<8192x8192xbf16> {tileopt.name = "b"},
                %out: memref<8192x8192xbf16> {tileopt.name = "out", tileopt.output})
    attributes {tileopt.reference = "silu_mul"} {
  tile.launch @silu_mul grid [2048, 8, 1] (%a, %b, %out)
      : memref<8192x8192xbf16>, memref<8192x8192xbf16>, memref<8192x8192xbf16>
  return
}
