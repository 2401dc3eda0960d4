// qknorm_attention (BENCHMARKS.md): softmax(rms_norm(Q) @ rms_norm(K)) @ V, fp16.
// Each query and each key is normalized over the head dim (64): Q over its
// last dim, K (stored as K^T, (2, 64, 13)) over dim 1.
// Q (2, 7, 64), V (2, 13, 64); eps 1e-5.
// The scores are not scaled: for unit-RMS rows they reach +-30, where fp16
// rounds to 1/32 and exp turns that into a few percent, hence the tolerance.
// tolerance: 5e-2
func.func @qknorm_attention(%q: tensor<2x7x64xf16>, %k_t: tensor<2x64x13xf16>, %v: tensor<2x13x64xf16>) -> tensor<2x7x64xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %q_norm_sq = tosa.mul %q, %q, %shift : (tensor<2x7x64xf16>, tensor<2x7x64xf16>, tensor<1xi8>) -> tensor<2x7x64xf16>
  %q_norm_ms_sum = tosa.reduce_sum %q_norm_sq {axis = 2 : i32} : (tensor<2x7x64xf16>) -> tensor<2x7x1xf16>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %q_norm_ms = tosa.mul %q_norm_ms_sum, %inv_n, %shift : (tensor<2x7x1xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<2x7x1xf16>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %q_norm_ms_eps = tosa.add %q_norm_ms, %eps : (tensor<2x7x1xf16>, tensor<1x1x1xf16>) -> tensor<2x7x1xf16>
  %q_norm_inv = tosa.rsqrt %q_norm_ms_eps : (tensor<2x7x1xf16>) -> tensor<2x7x1xf16>
  %q_norm = tosa.mul %q, %q_norm_inv, %shift : (tensor<2x7x64xf16>, tensor<2x7x1xf16>, tensor<1xi8>) -> tensor<2x7x64xf16>
  %k_norm_sq = tosa.mul %k_t, %k_t, %shift : (tensor<2x64x13xf16>, tensor<2x64x13xf16>, tensor<1xi8>) -> tensor<2x64x13xf16>
  %k_norm_ms_sum = tosa.reduce_sum %k_norm_sq {axis = 1 : i32} : (tensor<2x64x13xf16>) -> tensor<2x1x13xf16>
  %inv_n_1 = "tosa.const"() <{values = dense<0.015625> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %k_norm_ms = tosa.mul %k_norm_ms_sum, %inv_n_1, %shift : (tensor<2x1x13xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<2x1x13xf16>
  %eps_1 = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %k_norm_ms_eps = tosa.add %k_norm_ms, %eps_1 : (tensor<2x1x13xf16>, tensor<1x1x1xf16>) -> tensor<2x1x13xf16>
  %k_norm_inv = tosa.rsqrt %k_norm_ms_eps : (tensor<2x1x13xf16>) -> tensor<2x1x13xf16>
  %k_norm = tosa.mul %k_t, %k_norm_inv, %shift : (tensor<2x64x13xf16>, tensor<2x1x13xf16>, tensor<1xi8>) -> tensor<2x64x13xf16>
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %scores = tosa.matmul %q_norm, %k_norm, %zp_f16, %zp_f16 : (tensor<2x7x64xf16>, tensor<2x64x13xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x7x13xf16>
  %probs_max = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<2x7x13xf16>) -> tensor<2x7x1xf16>
  %probs_shifted = tosa.sub %scores, %probs_max : (tensor<2x7x13xf16>, tensor<2x7x1xf16>) -> tensor<2x7x13xf16>
  %probs_exp = tosa.exp %probs_shifted : (tensor<2x7x13xf16>) -> tensor<2x7x13xf16>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<2x7x13xf16>) -> tensor<2x7x1xf16>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<2x7x1xf16>) -> tensor<2x7x1xf16>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<2x7x13xf16>, tensor<2x7x1xf16>, tensor<1xi8>) -> tensor<2x7x13xf16>
  %out = tosa.matmul %probs, %v, %zp_f16, %zp_f16 : (tensor<2x7x13xf16>, tensor<2x13x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x7x64xf16>
  return %out : tensor<2x7x64xf16>
}
