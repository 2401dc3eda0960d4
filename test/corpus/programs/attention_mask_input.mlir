// Cross-attention with an additive mask input broadcast over the heads, f32:
// softmax(Q K^T / sqrt(16) + mask) V. Q (4, 7, 16), K, V (4, 13, 16), mask (1, 7, 13).
// input %mask: uniform(-4, 0)
func.func @attention_mask_input(%q: tensor<4x7x16xf32>, %k: tensor<4x13x16xf32>, %v: tensor<4x13x16xf32>, %mask: tensor<1x7x13xf32>) -> tensor<4x7x16xf32> {
  %k_t = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x13x16xf32>) -> tensor<4x16x13xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %qk = tosa.matmul %q, %k_t, %zp_f32, %zp_f32 : (tensor<4x7x16xf32>, tensor<4x16x13xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x7x13xf32>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scores = tosa.mul %qk, %scale, %shift : (tensor<4x7x13xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x7x13xf32>
  %masked = tosa.add %scores, %mask : (tensor<4x7x13xf32>, tensor<1x7x13xf32>) -> tensor<4x7x13xf32>
  %probs_max = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<4x7x13xf32>) -> tensor<4x7x1xf32>
  %probs_shifted = tosa.sub %masked, %probs_max : (tensor<4x7x13xf32>, tensor<4x7x1xf32>) -> tensor<4x7x13xf32>
  %probs_exp = tosa.exp %probs_shifted : (tensor<4x7x13xf32>) -> tensor<4x7x13xf32>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<4x7x13xf32>) -> tensor<4x7x1xf32>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<4x7x1xf32>) -> tensor<4x7x1xf32>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<4x7x13xf32>, tensor<4x7x1xf32>, tensor<1xi8>) -> tensor<4x7x13xf32>
  %out = tosa.matmul %probs, %v, %zp_f32, %zp_f32 : (tensor<4x7x13xf32>, tensor<4x13x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x7x16xf32>
  return %out : tensor<4x7x16xf32>
}
