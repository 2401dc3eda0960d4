// Causal self-attention in fp16 throughout with an additive constant mask
// (0 on and below the diagonal, finfo(f16).min above, as HF builds it):
// softmax(Q K^T * 1/sqrt(32) + mask) V. Q, K, V (2, 6, 32) f16.
func.func @attention_causal_additive_f16(%q: tensor<2x6x32xf16>, %k: tensor<2x6x32xf16>, %v: tensor<2x6x32xf16>) -> tensor<2x6x32xf16> {
  %k_t = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x6x32xf16>) -> tensor<2x32x6xf16>
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %qk = tosa.matmul %q, %k_t, %zp_f16, %zp_f16 : (tensor<2x6x32xf16>, tensor<2x32x6xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x6x6xf16>
  %scale = "tosa.const"() <{values = dense<0.1767578125> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scores = tosa.mul %qk, %scale, %shift : (tensor<2x6x6xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<2x6x6xf16>
  %causal_mask = "tosa.const"() <{values = dense<[[[0.0, -65504.0, -65504.0, -65504.0, -65504.0, -65504.0], [0.0, 0.0, -65504.0, -65504.0, -65504.0, -65504.0], [0.0, 0.0, 0.0, -65504.0, -65504.0, -65504.0], [0.0, 0.0, 0.0, 0.0, -65504.0, -65504.0], [0.0, 0.0, 0.0, 0.0, 0.0, -65504.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x6x6xf16>}> : () -> tensor<1x6x6xf16>
  %masked = tosa.add %scores, %causal_mask : (tensor<2x6x6xf16>, tensor<1x6x6xf16>) -> tensor<2x6x6xf16>
  %probs_max = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<2x6x6xf16>) -> tensor<2x6x1xf16>
  %probs_shifted = tosa.sub %masked, %probs_max : (tensor<2x6x6xf16>, tensor<2x6x1xf16>) -> tensor<2x6x6xf16>
  %probs_exp = tosa.exp %probs_shifted : (tensor<2x6x6xf16>) -> tensor<2x6x6xf16>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<2x6x6xf16>) -> tensor<2x6x1xf16>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<2x6x1xf16>) -> tensor<2x6x1xf16>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<2x6x6xf16>, tensor<2x6x1xf16>, tensor<1xi8>) -> tensor<2x6x6xf16>
  %out = tosa.matmul %probs, %v, %zp_f16, %zp_f16 : (tensor<2x6x6xf16>, tensor<2x6x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x6x32xf16>
  return %out : tensor<2x6x32xf16>
}
