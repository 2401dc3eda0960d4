// Row maxima and sums of tile.mma results, reduced in the mma.sync
// accumulator layout itself, and the results (as f16) multiplied again,
// staged from that layout: on 2x2 warps (64x64, two warps side by side
// along each row) and on 1x4 warps (16x128, four side by side). The inputs
// are small integers (bench/tile/checks.py), so every value is exact.
tile.kernel @mma_rows(%q: !tile.view<64x32xf16>, %k: !tile.view<32x64xf16>,
                      %smax: !tile.view<64xf32>, %ssum: !tile.view<64xf32>,
                      %a: !tile.view<16x32xf16>, %b: !tile.view<32x128xf16>,
                      %amax: !tile.view<16xf32>, %asum: !tile.view<16xf32>,
                      %v: !tile.view<64x32xf16>, %sv: !tile.view<64x32xf32>,
                      %w: !tile.view<128x32xf16>, %pw: !tile.view<16x32xf32>) {
  %c0 = arith.constant 0 : index
  %tq = tile.load %q[%c0, %c0] : !tile.view<64x32xf16> -> tensor<64x32xf16>
  %tk = tile.load %k[%c0, %c0] : !tile.view<32x64xf16> -> tensor<32x64xf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.mma %tq, %tk, %z : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
  %sm = tile.reduce max %s dim 1 : tensor<64x64xf32> -> tensor<64xf32>
  %ss = tile.reduce sum %s dim 1 : tensor<64x64xf32> -> tensor<64xf32>
  tile.store %sm, %smax[%c0] : tensor<64xf32>, !tile.view<64xf32>
  tile.store %ss, %ssum[%c0] : tensor<64xf32>, !tile.view<64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.view<16x32xf16> -> tensor<16x32xf16>
  %tb = tile.load %b[%c0, %c0] : !tile.view<32x128xf16> -> tensor<32x128xf16>
  %zs = arith.constant dense<0.0> : tensor<16x128xf32>
  %p = tile.mma %ta, %tb, %zs : tensor<16x32xf16>, tensor<32x128xf16>, tensor<16x128xf32>
  %pm = tile.reduce max %p dim 1 : tensor<16x128xf32> -> tensor<16xf32>
  %ps = tile.reduce sum %p dim 1 : tensor<16x128xf32> -> tensor<16xf32>
  tile.store %pm, %amax[%c0] : tensor<16xf32>, !tile.view<16xf32>
  tile.store %ps, %asum[%c0] : tensor<16xf32>, !tile.view<16xf32>
  %tv = tile.load %v[%c0, %c0] : !tile.view<64x32xf16> -> tensor<64x32xf16>
  %s16 = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xf16>
  %z2 = arith.constant dense<0.0> : tensor<64x32xf32>
  %o = tile.mma %s16, %tv, %z2 : tensor<64x64xf16>, tensor<64x32xf16>, tensor<64x32xf32>
  tile.store %o, %sv[%c0, %c0] : tensor<64x32xf32>, !tile.view<64x32xf32>
  %tw = tile.load %w[%c0, %c0] : !tile.view<128x32xf16> -> tensor<128x32xf16>
  %p16 = arith.truncf %p : tensor<16x128xf32> to tensor<16x128xf16>
  %z3 = arith.constant dense<0.0> : tensor<16x32xf32>
  %o2 = tile.mma %p16, %tw, %z3 : tensor<16x128xf16>, tensor<128x32xf16>, tensor<16x32xf32>
  tile.store %o2, %pw[%c0, %c0] : tensor<16x32xf32>, !tile.view<16x32xf32>
  tile.return
}

func.func @main(%q: memref<64x32xf16> {tileopt.name = "q"},
                %k: memref<32x64xf16> {tileopt.name = "k"},
                %smax: memref<64xf32> {tileopt.name = "smax", tileopt.output},
                %ssum: memref<64xf32> {tileopt.name = "ssum", tileopt.output},
                %a: memref<16x32xf16> {tileopt.name = "a"},
                %b: memref<32x128xf16> {tileopt.name = "b"},
                %amax: memref<16xf32> {tileopt.name = "amax", tileopt.output},
                %asum: memref<16xf32> {tileopt.name = "asum", tileopt.output},
                %v: memref<64x32xf16> {tileopt.name = "v"},
                %sv: memref<64x32xf32> {tileopt.name = "sv", tileopt.output},
                %w: memref<128x32xf16> {tileopt.name = "w"},
                %pw: memref<16x32xf32> {tileopt.name = "pw", tileopt.output}) {
  tile.launch @mma_rows grid [1, 1, 1] (%q, %k, %smax, %ssum, %a, %b, %amax, %asum, %v, %sv, %w, %pw)
      : memref<64x32xf16>, memref<32x64xf16>, memref<64xf32>, memref<64xf32>,
        memref<16x32xf16>, memref<32x128xf16>, memref<16xf32>, memref<16xf32>,
        memref<64x32xf16>, memref<64x32xf32>, memref<128x32xf16>, memref<16x32xf32>
  return
}
