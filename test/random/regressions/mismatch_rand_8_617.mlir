// status: fixed
// compile-args: --search-threads=1 --time-budget=3
// Found by the 9,000-program campaign of 2026-12-06 (docs/reliability.md).
// Diagnosed 2026-12-07: not a TileOpt bug: a LayerNorm of softmax values that
// are nearly equal, ill-conditioned in f32: upstream's own f32 execution is
// 1.5e-3 from the float64 twin, ours 4.1e-4 (verdict ill-conditioned).
// Symptom: MISMATCH: relative error 1.82e-03 > 0.0001 against upstream mlir-runner (tileopt-interp on the tile
// program), and not within the tolerance of the f32 twin either.
//
// MISMATCH: relative error 1.82e-03 > 0.0001
// reproduce: test/random/run.py --seed=8 --start=617 --count=1 --compile-args='--search-threads=1 --time-budget=3'
// Random program 617 of seed 8 (test/random/generate.py), f32:
//   add[1, 1, 1]
//   exp
//   maximum[1, 31, 64]
//   reduce_max(axis 2)
//   reshape flatten
//   softmax(axis 0)
//   add[1]
//   layer_norm(axis 0, eps 1e-06)
//   reshape split
//   tame:scale
//   rms_norm(axis 1, eps 1e-06)
func.func @rand_8_617(%x: tensor<1x31x64xf32>, %b: tensor<1x31x64xf32>, %gamma: tensor<1984xf32>, %beta: tensor<1984xf32>) -> tensor<16x124xf32> {
  %w = "tosa.const"() <{values = dense<-0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %add = tosa.add %x, %w : (tensor<1x31x64xf32>, tensor<1x1x1xf32>) -> tensor<1x31x64xf32>
  %exp = tosa.exp %add : (tensor<1x31x64xf32>) -> tensor<1x31x64xf32>
  %maximum = tosa.maximum %exp, %b : (tensor<1x31x64xf32>, tensor<1x31x64xf32>) -> tensor<1x31x64xf32>
  %rowmax = tosa.reduce_max %add {axis = 2 : i32} : (tensor<1x31x64xf32>) -> tensor<1x31x1xf32>
  %shape = tosa.const_shape {values = dense<[1984]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %reshape = tosa.reshape %x, %shape : (tensor<1x31x64xf32>, !tosa.shape<1>) -> tensor<1984xf32>
  %softmax_max = tosa.reduce_max %reshape {axis = 0 : i32} : (tensor<1984xf32>) -> tensor<1xf32>
  %softmax_shifted = tosa.sub %reshape, %softmax_max : (tensor<1984xf32>, tensor<1xf32>) -> tensor<1984xf32>
  %softmax_exp = tosa.exp %softmax_shifted : (tensor<1984xf32>) -> tensor<1984xf32>
  %softmax_sum = tosa.reduce_sum %softmax_exp {axis = 0 : i32} : (tensor<1984xf32>) -> tensor<1xf32>
  %softmax_inv = tosa.reciprocal %softmax_sum : (tensor<1xf32>) -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %softmax = tosa.mul %softmax_exp, %softmax_inv, %shift : (tensor<1984xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1984xf32>
  %c = "tosa.const"() <{values = dense<-3.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %add_1 = tosa.add %softmax, %c : (tensor<1984xf32>, tensor<1xf32>) -> tensor<1984xf32>
  %mean_sum = tosa.reduce_sum %add_1 {axis = 0 : i32} : (tensor<1984xf32>) -> tensor<1xf32>
  %c_1 = "tosa.const"() <{values = dense<0.00050403224> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mul = tosa.mul %mean_sum, %c_1, %shift : (tensor<1xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1xf32>
  %sub = tosa.sub %add_1, %mul : (tensor<1984xf32>, tensor<1xf32>) -> tensor<1984xf32>
  %sq = tosa.mul %sub, %sub, %shift : (tensor<1984xf32>, tensor<1984xf32>, tensor<1xi8>) -> tensor<1984xf32>
  %var_sum = tosa.reduce_sum %sq {axis = 0 : i32} : (tensor<1984xf32>) -> tensor<1xf32>
  %c_2 = "tosa.const"() <{values = dense<0.00050403224> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mul_1 = tosa.mul %var_sum, %c_2, %shift : (tensor<1xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1xf32>}> : () -> tensor<1xf32>
  %add_2 = tosa.add %mul_1, %eps : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %rsqrt = tosa.rsqrt %add_2 : (tensor<1xf32>) -> tensor<1xf32>
  %mul_2 = tosa.mul %sub, %rsqrt, %shift : (tensor<1984xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1984xf32>
  %mul_3 = tosa.mul %mul_2, %gamma, %shift : (tensor<1984xf32>, tensor<1984xf32>, tensor<1xi8>) -> tensor<1984xf32>
  %add_3 = tosa.add %mul_3, %beta : (tensor<1984xf32>, tensor<1984xf32>) -> tensor<1984xf32>
  %shape_1 = tosa.const_shape {values = dense<[16, 124]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %reshape_1 = tosa.reshape %add_3, %shape_1 : (tensor<1984xf32>, !tosa.shape<2>) -> tensor<16x124xf32>
  %c_3 = "tosa.const"() <{values = dense<0.0625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %mul_4 = tosa.mul %reshape_1, %c_3, %shift : (tensor<16x124xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x124xf32>
  %sq_1 = tosa.mul %mul_4, %mul_4, %shift : (tensor<16x124xf32>, tensor<16x124xf32>, tensor<1xi8>) -> tensor<16x124xf32>
  %ms_sum = tosa.reduce_sum %sq_1 {axis = 1 : i32} : (tensor<16x124xf32>) -> tensor<16x1xf32>
  %n = "tosa.const"() <{values = dense<124.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %inv_n = tosa.reciprocal %n : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %mul_5 = tosa.mul %ms_sum, %inv_n, %shift : (tensor<16x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16x1xf32>
  %eps_1 = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %add_4 = tosa.add %mul_5, %eps_1 : (tensor<16x1xf32>, tensor<1x1xf32>) -> tensor<16x1xf32>
  %rsqrt_1 = tosa.rsqrt %add_4 : (tensor<16x1xf32>) -> tensor<16x1xf32>
  %mul_6 = tosa.mul %mul_4, %rsqrt_1, %shift : (tensor<16x124xf32>, tensor<16x1xf32>, tensor<1xi8>) -> tensor<16x124xf32>
  return %mul_6 : tensor<16x124xf32>
}
