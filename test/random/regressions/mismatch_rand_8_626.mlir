// status: fixed
// compile-args: --search-threads=1 --time-budget=3
// Found by the 9,000-program campaign of 2026-12-06 (docs/reliability.md).
// Diagnosed 2026-12-07: the same unfolded bf16 sums (FoldWidenedSum, 11_452);
// now within 3.4e-6 of the float64 twin.
// Symptom: MISMATCH: relative error 1.01e-01 > 0.02 against upstream mlir-runner (tileopt-interp on the tile
// program), and not within the tolerance of the f32 twin either.
//
// MISMATCH: relative error 1.01e-01 > 0.02
// reproduce: test/random/run.py --seed=8 --start=626 --count=1 --compile-args='--search-threads=1 --time-budget=3'
// Random program 626 of seed 8 (test/random/generate.py), bf16:
//   rsqrt
//   layer_norm(axis 2, eps 1e-05)
//   matmul 129x1x7 @ 129x7x128 -> f32 (weight_t)
//   tame:scale
//   rms_norm(axis 2, eps 1e-05)
//   transpose[2, 1, 0]
//   mean(axis 1)
//   cast f32->f16
//   cast f32->bf16
// input %w: uniform(-4, 4)
func.func @rand_8_626(%x: tensor<129x1x7xbf16>, %w: tensor<129x128x7xbf16>, %gamma: tensor<1x1x128xf32>) -> (tensor<129x1x128xbf16>, tensor<129x1x7xbf16>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sq = tosa.mul %x, %x, %shift : (tensor<129x1x7xbf16>, tensor<129x1x7xbf16>, tensor<1xi8>) -> tensor<129x1x7xbf16>
  %c = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %add = tosa.add %sq, %c : (tensor<129x1x7xbf16>, tensor<1x1x1xbf16>) -> tensor<129x1x7xbf16>
  %rsqrt = tosa.rsqrt %add : (tensor<129x1x7xbf16>) -> tensor<129x1x7xbf16>
  %mean_sum = tosa.reduce_sum %rsqrt {axis = 2 : i32} : (tensor<129x1x7xbf16>) -> tensor<129x1x1xbf16>
  %n = "tosa.const"() <{values = dense<7.0> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %inv_n = tosa.reciprocal %n : (tensor<1x1x1xbf16>) -> tensor<1x1x1xbf16>
  %mul = tosa.mul %mean_sum, %inv_n, %shift : (tensor<129x1x1xbf16>, tensor<1x1x1xbf16>, tensor<1xi8>) -> tensor<129x1x1xbf16>
  %sub = tosa.sub %rsqrt, %mul : (tensor<129x1x7xbf16>, tensor<129x1x1xbf16>) -> tensor<129x1x7xbf16>
  %sq_1 = tosa.mul %sub, %sub, %shift : (tensor<129x1x7xbf16>, tensor<129x1x7xbf16>, tensor<1xi8>) -> tensor<129x1x7xbf16>
  %var_sum = tosa.reduce_sum %sq_1 {axis = 2 : i32} : (tensor<129x1x7xbf16>) -> tensor<129x1x1xbf16>
  %c_1 = "tosa.const"() <{values = dense<0.142578125> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %mul_1 = tosa.mul %var_sum, %c_1, %shift : (tensor<129x1x1xbf16>, tensor<1x1x1xbf16>, tensor<1xi8>) -> tensor<129x1x1xbf16>
  %eps = "tosa.const"() <{values = dense<1.0013580322265625e-05> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %add_1 = tosa.add %mul_1, %eps : (tensor<129x1x1xbf16>, tensor<1x1x1xbf16>) -> tensor<129x1x1xbf16>
  %rsqrt_1 = tosa.rsqrt %add_1 : (tensor<129x1x1xbf16>) -> tensor<129x1x1xbf16>
  %mul_2 = tosa.mul %sub, %rsqrt_1, %shift : (tensor<129x1x7xbf16>, tensor<129x1x1xbf16>, tensor<1xi8>) -> tensor<129x1x7xbf16>
  %transpose = tosa.transpose %w {perms = array<i32: 0, 2, 1>} : (tensor<129x128x7xbf16>) -> tensor<129x7x128xbf16>
  %zp_bf16 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %mm = tosa.matmul %x, %transpose, %zp_bf16, %zp_bf16 : (tensor<129x1x7xbf16>, tensor<129x7x128xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<129x1x128xf32>
  %c_2 = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mul_3 = tosa.mul %mm, %c_2, %shift : (tensor<129x1x128xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<129x1x128xf32>
  %sq_2 = tosa.mul %mul_3, %mul_3, %shift : (tensor<129x1x128xf32>, tensor<129x1x128xf32>, tensor<1xi8>) -> tensor<129x1x128xf32>
  %ms_sum = tosa.reduce_sum %sq_2 {axis = 2 : i32} : (tensor<129x1x128xf32>) -> tensor<129x1x1xf32>
  %c_3 = "tosa.const"() <{values = dense<0.0078125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mul_4 = tosa.mul %ms_sum, %c_3, %shift : (tensor<129x1x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<129x1x1xf32>
  %eps_1 = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %add_2 = tosa.add %mul_4, %eps_1 : (tensor<129x1x1xf32>, tensor<1x1x1xf32>) -> tensor<129x1x1xf32>
  %rsqrt_2 = tosa.rsqrt %add_2 : (tensor<129x1x1xf32>) -> tensor<129x1x1xf32>
  %mul_5 = tosa.mul %mul_3, %rsqrt_2, %shift : (tensor<129x1x128xf32>, tensor<129x1x1xf32>, tensor<1xi8>) -> tensor<129x1x128xf32>
  %mul_6 = tosa.mul %mul_5, %gamma, %shift : (tensor<129x1x128xf32>, tensor<1x1x128xf32>, tensor<1xi8>) -> tensor<129x1x128xf32>
  %transpose_1 = tosa.transpose %mm {perms = array<i32: 2, 1, 0>} : (tensor<129x1x128xf32>) -> tensor<128x1x129xf32>
  %sum = tosa.reduce_sum %transpose_1 {axis = 1 : i32} : (tensor<128x1x129xf32>) -> tensor<128x1x129xf32>
  %c_4 = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mul_7 = tosa.mul %sum, %c_4, %shift : (tensor<128x1x129xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<128x1x129xf32>
  %shape = tosa.const_shape {values = dense<[128, 129]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %reshape = tosa.reshape %mul_7, %shape : (tensor<128x1x129xf32>, !tosa.shape<2>) -> tensor<128x129xf32>
  %cast = tosa.cast %mul_6 : (tensor<129x1x128xf32>) -> tensor<129x1x128xf16>
  %cast_1 = tosa.cast %mm : (tensor<129x1x128xf32>) -> tensor<129x1x128xbf16>
  return %cast_1, %mul_2 : tensor<129x1x128xbf16>, tensor<129x1x7xbf16>
}
