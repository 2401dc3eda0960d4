// status: fixed
// compile-args: --search-threads=1 --time-budget=2
// Found by seed 17's 10,000-program run of 2026-12-07 (docs/reliability.md).
// A 1-row product (padded to 16 rows for mma.sync) was added to a 32-row
// tile row by row: rows 1-31 read the padding (0 / 0, NaN) instead of
// the one row broadcast. Fixed in BlockGraphToTile (TileDims::fixBroadcastDims);
// test/Conversion/TKToTile/broadcast-one-row.mlir.
// MISMATCH: output #0: NaNs differ
// reproduce: test/random/run.py --seed=17 --start=2509 --count=1 --compile-args='--search-threads=1 --time-budget=2'
// Random program 2509 of seed 17 (test/random/generate.py), bf16:
//   add[1, 1, 2]
//   matmul 8x32x2 @ 8x2x1 -> bf16 (weight)
//   mul[8, 1, 2]
//   reshape flatten
//   greater[512]
//   select
func.func @rand_17_2509(%x: tensor<8x32x2xbf16>, %b: tensor<1x1x2xbf16>, %w: tensor<8x2x1xbf16>, %b_1: tensor<8x1x2xbf16>, %b_2: tensor<512xbf16>) -> tensor<512xbf16> {
  %add = tosa.add %x, %b : (tensor<8x32x2xbf16>, tensor<1x1x2xbf16>) -> tensor<8x32x2xbf16>
  %zp_bf16 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %mm = tosa.matmul %add, %w, %zp_bf16, %zp_bf16 : (tensor<8x32x2xbf16>, tensor<8x2x1xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<8x32x1xbf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mul = tosa.mul %mm, %b_1, %shift : (tensor<8x32x1xbf16>, tensor<8x1x2xbf16>, tensor<1xi8>) -> tensor<8x32x2xbf16>
  %shape = tosa.const_shape {values = dense<[512]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %reshape = tosa.reshape %mul, %shape : (tensor<8x32x2xbf16>, !tosa.shape<1>) -> tensor<512xbf16>
  %greater = tosa.greater %reshape, %b_2 : (tensor<512xbf16>, tensor<512xbf16>) -> tensor<512xi1>
  %fill = "tosa.const"() <{values = dense<-1.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %select = tosa.select %greater, %fill, %reshape : (tensor<512xi1>, tensor<1xbf16>, tensor<512xbf16>) -> tensor<512xbf16>
  return %select : tensor<512xbf16>
}
