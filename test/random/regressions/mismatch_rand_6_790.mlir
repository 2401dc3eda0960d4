// status: fixed
// compile-args: --search-threads=1 --time-budget=3
// Found by the 9,000-program campaign of 2026-12-06 (docs/reliability.md).
// Diagnosed 2026-12-07: not a TileOpt bug: upstream's sequential f32 sum of
// 27,776 terms is 1.7e-4 off (its softmax sums to 0.99983); ours is within
// 8e-7 of the float64 twin.
// Symptom: MISMATCH: relative error 1.72e-04 > 0.0001 against upstream mlir-runner (tileopt-interp on the tile
// program), and not within the tolerance of the f32 twin either.
//
// MISMATCH: relative error 1.72e-04 > 0.0001
// reproduce: test/random/run.py --seed=6 --start=790 --count=1 --compile-args='--search-threads=1 --time-budget=3'
// Random program 790 of seed 6 (test/random/generate.py), f32:
//   mask argument
//   select
//   reshape flatten
//   reciprocal
//   softmax(axis 0)
// input %mask: choice(0, 1)
func.func @rand_6_790(%x: tensor<7x1x31x128xf32>, %mask: tensor<7x1x1x128xf32>) -> tensor<27776xf32> {
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %keep = tosa.greater %mask, %half : (tensor<7x1x1x128xf32>, tensor<1x1x1x1xf32>) -> tensor<7x1x1x128xi1>
  %fill = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %select = tosa.select %keep, %x, %fill : (tensor<7x1x1x128xi1>, tensor<7x1x31x128xf32>, tensor<1x1x1x1xf32>) -> tensor<7x1x31x128xf32>
  %shape = tosa.const_shape {values = dense<[27776]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %reshape = tosa.reshape %select, %shape : (tensor<7x1x31x128xf32>, !tosa.shape<1>) -> tensor<27776xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sq = tosa.mul %select, %select, %shift : (tensor<7x1x31x128xf32>, tensor<7x1x31x128xf32>, tensor<1xi8>) -> tensor<7x1x31x128xf32>
  %c = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %add = tosa.add %sq, %c : (tensor<7x1x31x128xf32>, tensor<1x1x1x1xf32>) -> tensor<7x1x31x128xf32>
  %recip = tosa.reciprocal %add : (tensor<7x1x31x128xf32>) -> tensor<7x1x31x128xf32>
  %softmax_max = tosa.reduce_max %reshape {axis = 0 : i32} : (tensor<27776xf32>) -> tensor<1xf32>
  %softmax_shifted = tosa.sub %reshape, %softmax_max : (tensor<27776xf32>, tensor<1xf32>) -> tensor<27776xf32>
  %softmax_exp = tosa.exp %softmax_shifted : (tensor<27776xf32>) -> tensor<27776xf32>
  %softmax_sum = tosa.reduce_sum %softmax_exp {axis = 0 : i32} : (tensor<27776xf32>) -> tensor<1xf32>
  %softmax_inv = tosa.reciprocal %softmax_sum : (tensor<1xf32>) -> tensor<1xf32>
  %softmax = tosa.mul %softmax_exp, %softmax_inv, %shift : (tensor<27776xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<27776xf32>
  return %softmax : tensor<27776xf32>
}
