// mla_decode (BENCHMARKS.md), literal form: per head h,
// softmax(Q_h @ (C @ Wk_h)^T) @ (C @ Wv_h), fp16. The latent cache C is
// broadcast over the heads with tosa.tile (torch.matmul's broadcast).
// Q (3, 1, 16), C (37, 24), Wk, Wv (3, 24, 16).
func.func @mla_decode(%q: tensor<3x1x16xf16>, %c_kv: tensor<37x24xf16>, %w_k: tensor<3x24x16xf16>, %w_v: tensor<3x24x16xf16>) -> tensor<3x1x16xf16> {
  %shape = tosa.const_shape {values = dense<[1, 37, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %c3 = tosa.reshape %c_kv, %shape : (tensor<37x24xf16>, !tosa.shape<3>) -> tensor<1x37x24xf16>
  %multiples = tosa.const_shape {values = dense<[3, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %c_heads = tosa.tile %c3, %multiples : (tensor<1x37x24xf16>, !tosa.shape<3>) -> tensor<3x37x24xf16>
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %k = tosa.matmul %c_heads, %w_k, %zp_f16, %zp_f16 : (tensor<3x37x24xf16>, tensor<3x24x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x37x16xf16>
  %v = tosa.matmul %c_heads, %w_v, %zp_f16, %zp_f16 : (tensor<3x37x24xf16>, tensor<3x24x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x37x16xf16>
  %k_t = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<3x37x16xf16>) -> tensor<3x16x37xf16>
  %scores = tosa.matmul %q, %k_t, %zp_f16, %zp_f16 : (tensor<3x1x16xf16>, tensor<3x16x37xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x1x37xf16>
  %probs_max = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<3x1x37xf16>) -> tensor<3x1x1xf16>
  %probs_shifted = tosa.sub %scores, %probs_max : (tensor<3x1x37xf16>, tensor<3x1x1xf16>) -> tensor<3x1x37xf16>
  %probs_exp = tosa.exp %probs_shifted : (tensor<3x1x37xf16>) -> tensor<3x1x37xf16>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<3x1x37xf16>) -> tensor<3x1x1xf16>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<3x1x1xf16>) -> tensor<3x1x1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<3x1x37xf16>, tensor<3x1x1xf16>, tensor<1xi8>) -> tensor<3x1x37xf16>
  %out = tosa.matmul %probs, %v, %zp_f16, %zp_f16 : (tensor<3x1x37xf16>, tensor<3x37x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x1x16xf16>
  return %out : tensor<3x1x16xf16>
}
