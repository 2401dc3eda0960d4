// status: fixed
// compile-args: --search-threads=1 --time-budget=2
// Found by seed 17's run of 2026-12-07 (docs/reliability.md), the tools of 2c0d0f7.
// The same bug as mismatch_rand_17_2509: a 1-row product, padded to 32 rows
// for mma.sync, scaled by a 23-row column: rows 1-22 multiplied the padding's
// zeros. Fixed in a444901 (TileDims::fixBroadcastDims).
// MISMATCH: relative error 1.00e+00 > 0.02
// reproduce: test/random/run.py --seed=17 --start=2980 --count=1 --compile-args='--search-threads=1 --time-budget=2'
// Random program 2980 of seed 17 (test/random/generate.py), bf16:
//   softmax(axis 3)
//   matmul 10x23x1 @ 10x1x23 -> bf16 (lhs transposed, self_t)
//   matmul 10x23x23 @ 10x23x2 -> bf16 (weight_t)
//   tame:scale
//   matmul 10x23x2 @ 10x2x4 -> bf16 (weight_t)
func.func @rand_17_2980(%x: tensor<5x2x1x23xbf16>, %w: tensor<10x2x23xbf16>, %w_1: tensor<10x4x2xbf16>) -> tensor<10x23x4xbf16> {
  %softmax_max = tosa.reduce_max %x {axis = 3 : i32} : (tensor<5x2x1x23xbf16>) -> tensor<5x2x1x1xbf16>
  %softmax_shifted = tosa.sub %x, %softmax_max : (tensor<5x2x1x23xbf16>, tensor<5x2x1x1xbf16>) -> tensor<5x2x1x23xbf16>
  %softmax_exp = tosa.exp %softmax_shifted : (tensor<5x2x1x23xbf16>) -> tensor<5x2x1x23xbf16>
  %softmax_sum = tosa.reduce_sum %softmax_exp {axis = 3 : i32} : (tensor<5x2x1x23xbf16>) -> tensor<5x2x1x1xbf16>
  %softmax_inv = tosa.reciprocal %softmax_sum : (tensor<5x2x1x1xbf16>) -> tensor<5x2x1x1xbf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %softmax = tosa.mul %softmax_exp, %softmax_inv, %shift : (tensor<5x2x1x23xbf16>, tensor<5x2x1x1xbf16>, tensor<1xi8>) -> tensor<5x2x1x23xbf16>
  %shape = tosa.const_shape {values = dense<[10, 1, 23]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %reshape = tosa.reshape %x, %shape : (tensor<5x2x1x23xbf16>, !tosa.shape<3>) -> tensor<10x1x23xbf16>
  %transpose = tosa.transpose %reshape {perms = array<i32: 0, 2, 1>} : (tensor<10x1x23xbf16>) -> tensor<10x23x1xbf16>
  %transpose_1 = tosa.transpose %transpose {perms = array<i32: 0, 2, 1>} : (tensor<10x23x1xbf16>) -> tensor<10x1x23xbf16>
  %zp_bf16 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %mm = tosa.matmul %transpose, %transpose_1, %zp_bf16, %zp_bf16 : (tensor<10x23x1xbf16>, tensor<10x1x23xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<10x23x23xbf16>
  %c = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %mul = tosa.mul %mm, %c, %shift : (tensor<10x23x23xbf16>, tensor<1x1x1xbf16>, tensor<1xi8>) -> tensor<10x23x23xbf16>
  %transpose_2 = tosa.transpose %w {perms = array<i32: 0, 2, 1>} : (tensor<10x2x23xbf16>) -> tensor<10x23x2xbf16>
  %mm_1 = tosa.matmul %mul, %transpose_2, %zp_bf16, %zp_bf16 : (tensor<10x23x23xbf16>, tensor<10x23x2xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<10x23x2xbf16>
  %c_1 = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %mul_1 = tosa.mul %mm_1, %c_1, %shift : (tensor<10x23x2xbf16>, tensor<1x1x1xbf16>, tensor<1xi8>) -> tensor<10x23x2xbf16>
  %transpose_3 = tosa.transpose %w_1 {perms = array<i32: 0, 2, 1>} : (tensor<10x4x2xbf16>) -> tensor<10x2x4xbf16>
  %mm_2 = tosa.matmul %mul_1, %transpose_3, %zp_bf16, %zp_bf16 : (tensor<10x23x2xbf16>, tensor<10x2x4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<10x23x4xbf16>
  return %mm_2 : tensor<10x23x4xbf16>
}
