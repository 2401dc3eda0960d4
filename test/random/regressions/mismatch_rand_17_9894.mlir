// status: fixed
// compile-args: --search-threads=1 --time-budget=2
// Found by seed 17's run of 2026-12-07 (docs/reliability.md), the tools of a444901.
// Not a TileOpt bug: the runner's verdict. The result is the mean of a
// LayerNorm's output, exactly 0; upstream's f32 execution gives 3.7e-9 and
// TileOpt's 6.5e-9, both rounding, and relative to the largest |output|
// (itself noise) they differ by 75%. run.py now judges an output whose
// float64 value vanishes by its distance from 0 on the inputs' scale:
// ill-conditioned.
// MISMATCH: relative error 7.50e-01 > 0.0001
// reproduce: test/random/run.py --seed=17 --start=9894 --count=1 --compile-args='--search-threads=1 --time-budget=2'
// Random program 9894 of seed 17 (test/random/generate.py), f32:
//   add[4, 1]
//   layer_norm(axis 1, eps 1e-06)
//   reshape merge
//   mul[1]
//   mean(axis 0)
func.func @rand_17_9894(%x: tensor<4x8xf32>, %b: tensor<4x1xf32>) -> tensor<1xf32> {
  %add = tosa.add %x, %b : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %mean_sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %n = "tosa.const"() <{values = dense<8.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %inv_n = tosa.reciprocal %n : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mul = tosa.mul %mean_sum, %inv_n, %shift : (tensor<4x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x1xf32>
  %sub = tosa.sub %x, %mul : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %sq = tosa.mul %sub, %sub, %shift : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %var_sum = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %c = "tosa.const"() <{values = dense<0.125> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %mul_1 = tosa.mul %var_sum, %c, %shift : (tensor<4x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %add_1 = tosa.add %mul_1, %eps : (tensor<4x1xf32>, tensor<1x1xf32>) -> tensor<4x1xf32>
  %rsqrt = tosa.rsqrt %add_1 : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %mul_2 = tosa.mul %sub, %rsqrt, %shift : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %shape = tosa.const_shape {values = dense<[32]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %reshape = tosa.reshape %mul_2, %shape : (tensor<4x8xf32>, !tosa.shape<1>) -> tensor<32xf32>
  %c_1 = "tosa.const"() <{values = dense<-0.25> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mul_3 = tosa.mul %reshape, %c_1, %shift : (tensor<32xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<32xf32>
  %sum = tosa.reduce_sum %mul_3 {axis = 0 : i32} : (tensor<32xf32>) -> tensor<1xf32>
  %c_2 = "tosa.const"() <{values = dense<0.03125> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mul_4 = tosa.mul %sum, %c_2, %shift : (tensor<1xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1xf32>
  return %mul_4 : tensor<1xf32>
}
