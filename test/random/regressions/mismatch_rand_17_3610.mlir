// status: fixed
// compile-args: --search-threads=1 --time-budget=2
// Found by seed 17's run of 2026-12-07 (docs/reliability.md), the tools of a444901.
// Not a TileOpt bug: the runner's verdict. Every row of the softmax is
// uniform, so the LayerNorm (eps 1e-6) sees three equal values; upstream's
// mean, sum * 0.33333334, equals them and gives exactly 0, while TileOpt's
// mean (the importer reads the factor as a division by 3) is one ulp off,
// which the LayerNorm scales by 1000, and the rms_norm and the last
// LayerNorm carry on to 3e-4. Upstream's own execution with 0.33333331
// gives TileOpt's values to 1e-6, so run.py now judges against that
// variant too (generate.py --other-mean-rounding): ill-conditioned.
// MISMATCH: relative error 3.13e+34 > 0.0001
// reproduce: test/random/run.py --seed=17 --start=3610 --count=1 --compile-args='--search-threads=1 --time-budget=2'
// Random program 3610 of seed 17 (test/random/generate.py), f32:
//   greater[1, 3]
//   softmax(axis 1)
//   reduce_sum(axis 0)
//   tame:scale
//   layer_norm(axis 1, eps 1e-06)
//   tame:tanh
//   matmul 1x3x1 @ 1x1x3 -> f32 (lhs transposed, earlier)
//   reciprocal
//   rms_norm(axis 2, eps 0.001)
//   reciprocal
//   reciprocal
//   tanh
//   layer_norm(axis 2, eps 1e-05)
func.func @rand_17_3610(%x: tensor<17x1xf32>, %b: tensor<1x3xf32>, %gamma: tensor<1x1x3xf32>) -> tensor<1x3x3xf32> {
  %min = "tosa.const"() <{values = dense<-3.4028235e+38> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %greater = tosa.greater %b, %x : (tensor<1x3xf32>, tensor<17x1xf32>) -> tensor<17x3xi1>
  %select = tosa.select %greater, %min, %x : (tensor<17x3xi1>, tensor<1x1xf32>, tensor<17x1xf32>) -> tensor<17x3xf32>
  %softmax_max = tosa.reduce_max %select {axis = 1 : i32} : (tensor<17x3xf32>) -> tensor<17x1xf32>
  %softmax_shifted = tosa.sub %select, %softmax_max : (tensor<17x3xf32>, tensor<17x1xf32>) -> tensor<17x3xf32>
  %softmax_exp = tosa.exp %softmax_shifted : (tensor<17x3xf32>) -> tensor<17x3xf32>
  %softmax_sum = tosa.reduce_sum %softmax_exp {axis = 1 : i32} : (tensor<17x3xf32>) -> tensor<17x1xf32>
  %softmax_inv = tosa.reciprocal %softmax_sum : (tensor<17x1xf32>) -> tensor<17x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %softmax = tosa.mul %softmax_exp, %softmax_inv, %shift : (tensor<17x3xf32>, tensor<17x1xf32>, tensor<1xi8>) -> tensor<17x3xf32>
  %sum = tosa.reduce_sum %softmax {axis = 0 : i32} : (tensor<17x3xf32>) -> tensor<1x3xf32>
  %c = "tosa.const"() <{values = dense<0.125> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %mul = tosa.mul %sum, %c, %shift : (tensor<1x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x3xf32>
  %mean_sum = tosa.reduce_sum %mul {axis = 1 : i32} : (tensor<1x3xf32>) -> tensor<1x1xf32>
  %c_1 = "tosa.const"() <{values = dense<0.33333334> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %mul_1 = tosa.mul %mean_sum, %c_1, %shift : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x1xf32>
  %sub = tosa.sub %mul, %mul_1 : (tensor<1x3xf32>, tensor<1x1xf32>) -> tensor<1x3xf32>
  %sq = tosa.mul %sub, %sub, %shift : (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<1x3xf32>
  %var_sum = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<1x3xf32>) -> tensor<1x1xf32>
  %c_2 = "tosa.const"() <{values = dense<0.33333334> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %mul_2 = tosa.mul %var_sum, %c_2, %shift : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %add = tosa.add %mul_2, %eps : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %rsqrt = tosa.rsqrt %add : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %mul_3 = tosa.mul %sub, %rsqrt, %shift : (tensor<1x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x3xf32>
  %tanh = tosa.tanh %sum : (tensor<1x3xf32>) -> tensor<1x3xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %reshape = tosa.reshape %tanh, %shape : (tensor<1x3xf32>, !tosa.shape<3>) -> tensor<1x1x3xf32>
  %transpose = tosa.transpose %reshape {perms = array<i32: 0, 2, 1>} : (tensor<1x1x3xf32>) -> tensor<1x3x1xf32>
  %shape_1 = tosa.const_shape {values = dense<[1, 1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %reshape_1 = tosa.reshape %mul_3, %shape_1 : (tensor<1x3xf32>, !tosa.shape<3>) -> tensor<1x1x3xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mm = tosa.matmul %transpose, %reshape_1, %zp_f32, %zp_f32 : (tensor<1x3x1xf32>, tensor<1x1x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3xf32>
  %sq_1 = tosa.mul %mul_3, %mul_3, %shift : (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<1x3xf32>
  %c_3 = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %add_1 = tosa.add %sq_1, %c_3 : (tensor<1x3xf32>, tensor<1x1xf32>) -> tensor<1x3xf32>
  %recip = tosa.reciprocal %add_1 : (tensor<1x3xf32>) -> tensor<1x3xf32>
  %sq_2 = tosa.mul %mm, %mm, %shift : (tensor<1x3x3xf32>, tensor<1x3x3xf32>, tensor<1xi8>) -> tensor<1x3x3xf32>
  %ms_sum = tosa.reduce_sum %sq_2 {axis = 2 : i32} : (tensor<1x3x3xf32>) -> tensor<1x3x1xf32>
  %n = "tosa.const"() <{values = dense<3.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %inv_n = tosa.reciprocal %n : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %mul_4 = tosa.mul %ms_sum, %inv_n, %shift : (tensor<1x3x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x3x1xf32>
  %eps_1 = "tosa.const"() <{values = dense<0.001> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %add_2 = tosa.add %mul_4, %eps_1 : (tensor<1x3x1xf32>, tensor<1x1x1xf32>) -> tensor<1x3x1xf32>
  %rsqrt_1 = tosa.rsqrt %add_2 : (tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
  %mul_5 = tosa.mul %mm, %rsqrt_1, %shift : (tensor<1x3x3xf32>, tensor<1x3x1xf32>, tensor<1xi8>) -> tensor<1x3x3xf32>
  %mul_6 = tosa.mul %mul_5, %gamma, %shift : (tensor<1x3x3xf32>, tensor<1x1x3xf32>, tensor<1xi8>) -> tensor<1x3x3xf32>
  %sq_3 = tosa.mul %mul_6, %mul_6, %shift : (tensor<1x3x3xf32>, tensor<1x3x3xf32>, tensor<1xi8>) -> tensor<1x3x3xf32>
  %c_4 = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %add_3 = tosa.add %sq_3, %c_4 : (tensor<1x3x3xf32>, tensor<1x1x1xf32>) -> tensor<1x3x3xf32>
  %recip_1 = tosa.reciprocal %add_3 : (tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
  %recip_2 = tosa.reciprocal %recip_1 : (tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
  %tanh_1 = tosa.tanh %recip_2 : (tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
  %mean_sum_1 = tosa.reduce_sum %tanh_1 {axis = 2 : i32} : (tensor<1x3x3xf32>) -> tensor<1x3x1xf32>
  %n_1 = "tosa.const"() <{values = dense<3.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %inv_n_1 = tosa.reciprocal %n_1 : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %mul_7 = tosa.mul %mean_sum_1, %inv_n_1, %shift : (tensor<1x3x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x3x1xf32>
  %sub_1 = tosa.sub %tanh_1, %mul_7 : (tensor<1x3x3xf32>, tensor<1x3x1xf32>) -> tensor<1x3x3xf32>
  %sq_4 = tosa.mul %sub_1, %sub_1, %shift : (tensor<1x3x3xf32>, tensor<1x3x3xf32>, tensor<1xi8>) -> tensor<1x3x3xf32>
  %var_sum_1 = tosa.reduce_sum %sq_4 {axis = 2 : i32} : (tensor<1x3x3xf32>) -> tensor<1x3x1xf32>
  %c_5 = "tosa.const"() <{values = dense<0.33333334> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mul_8 = tosa.mul %var_sum_1, %c_5, %shift : (tensor<1x3x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x3x1xf32>
  %eps_2 = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %add_4 = tosa.add %mul_8, %eps_2 : (tensor<1x3x1xf32>, tensor<1x1x1xf32>) -> tensor<1x3x1xf32>
  %rsqrt_2 = tosa.rsqrt %add_4 : (tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
  %mul_9 = tosa.mul %sub_1, %rsqrt_2, %shift : (tensor<1x3x3xf32>, tensor<1x3x1xf32>, tensor<1xi8>) -> tensor<1x3x3xf32>
  return %mul_9 : tensor<1x3x3xf32>
}
