// status: fixed
// compile-args: --search-threads=1 --time-budget=3
// Found by the 9,000-program campaign of 2026-12-06 (docs/reliability.md).
// Diagnosed 2026-12-07: not a TileOpt bug: the output sums a LayerNorm's row,
// which is 0 up to rounding (the twin gives 2.6e-6, upstream's f16 execution
// 0.1); ours 2.3e-6 (verdict ill-conditioned).
// Symptom: MISMATCH: relative error 1.00e+00 > 0.02 against upstream mlir-runner (tileopt-interp on the tile
// program), and not within the tolerance of the f32 twin either.
//
// MISMATCH: relative error 1.00e+00 > 0.02
// reproduce: test/random/run.py --seed=10 --start=993 --count=1 --compile-args='--search-threads=1 --time-budget=3'
// Random program 993 of seed 10 (test/random/generate.py), f16:
//   maximum[3, 37]
//   reshape flatten
//   cast f16->f32
//   reduce_sum(axis 0)
//   layer_norm(axis 0, eps 0.001)
//   reshape unit
//   reduce_sum(axis 0)
//   tame:clamp
//   matmul 1x1x1 @ 1x1x32 -> f16 (weight)
// input %b: uniform(-4, 4)
func.func @rand_10_993(%x: tensor<3x37xf16>, %b: tensor<3x37xf16>, %w: tensor<1x1x32xf16>) -> tensor<1x32xf16> {
  %maximum = tosa.maximum %x, %b : (tensor<3x37xf16>, tensor<3x37xf16>) -> tensor<3x37xf16>
  %shape = tosa.const_shape {values = dense<[111]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %reshape = tosa.reshape %maximum, %shape : (tensor<3x37xf16>, !tosa.shape<1>) -> tensor<111xf16>
  %cast = tosa.cast %reshape : (tensor<111xf16>) -> tensor<111xf32>
  %sum = tosa.reduce_sum %cast {axis = 0 : i32} : (tensor<111xf32>) -> tensor<1xf32>
  %mean_sum = tosa.reduce_sum %reshape {axis = 0 : i32} : (tensor<111xf16>) -> tensor<1xf16>
  %c = "tosa.const"() <{values = dense<0.00901> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mul = tosa.mul %mean_sum, %c, %shift : (tensor<1xf16>, tensor<1xf16>, tensor<1xi8>) -> tensor<1xf16>
  %sub = tosa.sub %reshape, %mul : (tensor<111xf16>, tensor<1xf16>) -> tensor<111xf16>
  %sq = tosa.mul %sub, %sub, %shift : (tensor<111xf16>, tensor<111xf16>, tensor<1xi8>) -> tensor<111xf16>
  %var_sum = tosa.reduce_sum %sq {axis = 0 : i32} : (tensor<111xf16>) -> tensor<1xf16>
  %c_1 = "tosa.const"() <{values = dense<0.00901> : tensor<1xf16>}> : () -> tensor<1xf16>
  %mul_1 = tosa.mul %var_sum, %c_1, %shift : (tensor<1xf16>, tensor<1xf16>, tensor<1xi8>) -> tensor<1xf16>
  %eps = "tosa.const"() <{values = dense<0.001> : tensor<1xf16>}> : () -> tensor<1xf16>
  %add = tosa.add %mul_1, %eps : (tensor<1xf16>, tensor<1xf16>) -> tensor<1xf16>
  %rsqrt = tosa.rsqrt %add : (tensor<1xf16>) -> tensor<1xf16>
  %mul_2 = tosa.mul %sub, %rsqrt, %shift : (tensor<111xf16>, tensor<1xf16>, tensor<1xi8>) -> tensor<111xf16>
  %shape_1 = tosa.const_shape {values = dense<[111, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %reshape_1 = tosa.reshape %mul_2, %shape_1 : (tensor<111xf16>, !tosa.shape<2>) -> tensor<111x1xf16>
  %sum_1 = tosa.reduce_sum %reshape_1 {axis = 0 : i32} : (tensor<111x1xf16>) -> tensor<1x1xf16>
  %clamp = tosa.clamp %sum_1 {min_val = -4.0 : f16, max_val = 4.0 : f16} : (tensor<1x1xf16>) -> tensor<1x1xf16>
  %shape_2 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %reshape_2 = tosa.reshape %clamp, %shape_2 : (tensor<1x1xf16>, !tosa.shape<3>) -> tensor<1x1x1xf16>
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %mm = tosa.matmul %reshape_2, %w, %zp_f16, %zp_f16 : (tensor<1x1x1xf16>, tensor<1x1x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x32xf16>
  %shape_3 = tosa.const_shape {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %reshape_3 = tosa.reshape %mm, %shape_3 : (tensor<1x1x32xf16>, !tosa.shape<2>) -> tensor<1x32xf16>
  return %reshape_3 : tensor<1x32xf16>
}
