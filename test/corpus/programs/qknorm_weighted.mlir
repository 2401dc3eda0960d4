// QK-norm per head as in OLMo-2/Qwen-3, f32: q and k are RMS-normalized over the
// head dim (64) with weights, eps 1e-6, then softmax(qn kn^T / sqrt(64)) v.
// Q, K, V (2, 5, 64); q_norm_weight, k_norm_weight (64,).
func.func @qknorm_weighted(%q: tensor<2x5x64xf32>, %k: tensor<2x5x64xf32>, %v: tensor<2x5x64xf32>, %q_norm_weight: tensor<64xf32>, %k_norm_weight: tensor<64xf32>) -> tensor<2x5x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %q_rms_sq = tosa.mul %q, %q, %shift : (tensor<2x5x64xf32>, tensor<2x5x64xf32>, tensor<1xi8>) -> tensor<2x5x64xf32>
  %q_rms_ms_sum = tosa.reduce_sum %q_rms_sq {axis = 2 : i32} : (tensor<2x5x64xf32>) -> tensor<2x5x1xf32>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %q_rms_ms = tosa.mul %q_rms_ms_sum, %inv_n, %shift : (tensor<2x5x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x5x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %q_rms_ms_eps = tosa.add %q_rms_ms, %eps : (tensor<2x5x1xf32>, tensor<1x1x1xf32>) -> tensor<2x5x1xf32>
  %q_rms_inv = tosa.rsqrt %q_rms_ms_eps : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %q_rms = tosa.mul %q, %q_rms_inv, %shift : (tensor<2x5x64xf32>, tensor<2x5x1xf32>, tensor<1xi8>) -> tensor<2x5x64xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %wq3 = tosa.reshape %q_norm_weight, %shape : (tensor<64xf32>, !tosa.shape<3>) -> tensor<1x1x64xf32>
  %q_normed = tosa.mul %q_rms, %wq3, %shift : (tensor<2x5x64xf32>, tensor<1x1x64xf32>, tensor<1xi8>) -> tensor<2x5x64xf32>
  %k_rms_sq = tosa.mul %k, %k, %shift : (tensor<2x5x64xf32>, tensor<2x5x64xf32>, tensor<1xi8>) -> tensor<2x5x64xf32>
  %k_rms_ms_sum = tosa.reduce_sum %k_rms_sq {axis = 2 : i32} : (tensor<2x5x64xf32>) -> tensor<2x5x1xf32>
  %inv_n_1 = "tosa.const"() <{values = dense<0.015625> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %k_rms_ms = tosa.mul %k_rms_ms_sum, %inv_n_1, %shift : (tensor<2x5x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x5x1xf32>
  %eps_1 = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %k_rms_ms_eps = tosa.add %k_rms_ms, %eps_1 : (tensor<2x5x1xf32>, tensor<1x1x1xf32>) -> tensor<2x5x1xf32>
  %k_rms_inv = tosa.rsqrt %k_rms_ms_eps : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %k_rms = tosa.mul %k, %k_rms_inv, %shift : (tensor<2x5x64xf32>, tensor<2x5x1xf32>, tensor<1xi8>) -> tensor<2x5x64xf32>
  %shape_1 = tosa.const_shape {values = dense<[1, 1, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %wk3 = tosa.reshape %k_norm_weight, %shape_1 : (tensor<64xf32>, !tosa.shape<3>) -> tensor<1x1x64xf32>
  %k_normed = tosa.mul %k_rms, %wk3, %shift : (tensor<2x5x64xf32>, tensor<1x1x64xf32>, tensor<1xi8>) -> tensor<2x5x64xf32>
  %k_t = tosa.transpose %k_normed {perms = array<i32: 0, 2, 1>} : (tensor<2x5x64xf32>) -> tensor<2x64x5xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %qk = tosa.matmul %q_normed, %k_t, %zp_f32, %zp_f32 : (tensor<2x5x64xf32>, tensor<2x64x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x5xf32>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %scores = tosa.mul %qk, %scale, %shift : (tensor<2x5x5xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x5x5xf32>
  %probs_max = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<2x5x5xf32>) -> tensor<2x5x1xf32>
  %probs_shifted = tosa.sub %scores, %probs_max : (tensor<2x5x5xf32>, tensor<2x5x1xf32>) -> tensor<2x5x5xf32>
  %probs_exp = tosa.exp %probs_shifted : (tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<2x5x5xf32>) -> tensor<2x5x1xf32>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<2x5x5xf32>, tensor<2x5x1xf32>, tensor<1xi8>) -> tensor<2x5x5xf32>
  %out = tosa.matmul %probs, %v, %zp_f32, %zp_f32 : (tensor<2x5x5xf32>, tensor<2x5x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x64xf32>
  return %out : tensor<2x5x64xf32>
}
