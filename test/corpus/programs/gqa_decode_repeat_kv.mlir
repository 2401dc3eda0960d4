// GQA decode as HF writes it, fp16: repeat_kv expands each kv head to 3 query
// heads (reshape to (H_kv, 1, S, D), tosa.tile by 3, reshape to (H_q, S, D)),
// then per-head softmax(q k^T / sqrt(16)) v.
// q (6, 1, 16), k, v cache (2, 37, 16), fp16.
func.func @gqa_decode_repeat_kv(%q: tensor<6x1x16xf16>, %k_cache: tensor<2x37x16xf16>, %v_cache: tensor<2x37x16xf16>) -> tensor<6x1x16xf16> {
  %shape = tosa.const_shape {values = dense<[2, 1, 37, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k4 = tosa.reshape %k_cache, %shape : (tensor<2x37x16xf16>, !tosa.shape<4>) -> tensor<2x1x37x16xf16>
  %multiples = tosa.const_shape {values = dense<[1, 3, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k_tiled = tosa.tile %k4, %multiples : (tensor<2x1x37x16xf16>, !tosa.shape<4>) -> tensor<2x3x37x16xf16>
  %shape_1 = tosa.const_shape {values = dense<[6, 37, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k_rep = tosa.reshape %k_tiled, %shape_1 : (tensor<2x3x37x16xf16>, !tosa.shape<3>) -> tensor<6x37x16xf16>
  %shape_2 = tosa.const_shape {values = dense<[2, 1, 37, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v4 = tosa.reshape %v_cache, %shape_2 : (tensor<2x37x16xf16>, !tosa.shape<4>) -> tensor<2x1x37x16xf16>
  %multiples_1 = tosa.const_shape {values = dense<[1, 3, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v_tiled = tosa.tile %v4, %multiples_1 : (tensor<2x1x37x16xf16>, !tosa.shape<4>) -> tensor<2x3x37x16xf16>
  %shape_3 = tosa.const_shape {values = dense<[6, 37, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v_rep = tosa.reshape %v_tiled, %shape_3 : (tensor<2x3x37x16xf16>, !tosa.shape<3>) -> tensor<6x37x16xf16>
  %k_t = tosa.transpose %k_rep {perms = array<i32: 0, 2, 1>} : (tensor<6x37x16xf16>) -> tensor<6x16x37xf16>
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %qk = tosa.matmul %q, %k_t, %zp_f16, %zp_f16 : (tensor<6x1x16xf16>, tensor<6x16x37xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<6x1x37xf16>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scores = tosa.mul %qk, %scale, %shift : (tensor<6x1x37xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<6x1x37xf16>
  %probs_max = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<6x1x37xf16>) -> tensor<6x1x1xf16>
  %probs_shifted = tosa.sub %scores, %probs_max : (tensor<6x1x37xf16>, tensor<6x1x1xf16>) -> tensor<6x1x37xf16>
  %probs_exp = tosa.exp %probs_shifted : (tensor<6x1x37xf16>) -> tensor<6x1x37xf16>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<6x1x37xf16>) -> tensor<6x1x1xf16>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<6x1x1xf16>) -> tensor<6x1x1xf16>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<6x1x37xf16>, tensor<6x1x1xf16>, tensor<1xi8>) -> tensor<6x1x37xf16>
  %out = tosa.matmul %probs, %v_rep, %zp_f16, %zp_f16 : (tensor<6x1x37xf16>, tensor<6x37x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<6x1x16xf16>
  return %out : tensor<6x1x16xf16>
}
