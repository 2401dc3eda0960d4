// GQA decode, one token, heads grouped by reshape: the 8 query heads become
// (2 kv heads, 4 queries each), so each kv head's K and V serve a (4, 16)
// block; softmax(Q_g K^T / sqrt(16)) V, f32.
// q (1, 8, 1, 16), k, v cache (1, 2, 13, 16); out (1, 8, 1, 16).
func.func @gqa_decode_grouped(%q: tensor<1x8x1x16xf32>, %k_cache: tensor<1x2x13x16xf32>, %v_cache: tensor<1x2x13x16xf32>) -> tensor<1x8x1x16xf32> {
  %shape = tosa.const_shape {values = dense<[2, 4, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q_grouped = tosa.reshape %q, %shape : (tensor<1x8x1x16xf32>, !tosa.shape<3>) -> tensor<2x4x16xf32>
  %shape_1 = tosa.const_shape {values = dense<[2, 13, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.reshape %k_cache, %shape_1 : (tensor<1x2x13x16xf32>, !tosa.shape<3>) -> tensor<2x13x16xf32>
  %shape_2 = tosa.const_shape {values = dense<[2, 13, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.reshape %v_cache, %shape_2 : (tensor<1x2x13x16xf32>, !tosa.shape<3>) -> tensor<2x13x16xf32>
  %k_t = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<2x13x16xf32>) -> tensor<2x16x13xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %qk = tosa.matmul %q_grouped, %k_t, %zp_f32, %zp_f32 : (tensor<2x4x16xf32>, tensor<2x16x13xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x13xf32>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scores = tosa.mul %qk, %scale, %shift : (tensor<2x4x13xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x13xf32>
  %probs_max = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<2x4x13xf32>) -> tensor<2x4x1xf32>
  %probs_shifted = tosa.sub %scores, %probs_max : (tensor<2x4x13xf32>, tensor<2x4x1xf32>) -> tensor<2x4x13xf32>
  %probs_exp = tosa.exp %probs_shifted : (tensor<2x4x13xf32>) -> tensor<2x4x13xf32>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<2x4x13xf32>) -> tensor<2x4x1xf32>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<2x4x13xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x13xf32>
  %o_grouped = tosa.matmul %probs, %v3, %zp_f32, %zp_f32 : (tensor<2x4x13xf32>, tensor<2x13x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x16xf32>
  %shape_3 = tosa.const_shape {values = dense<[1, 8, 1, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %out = tosa.reshape %o_grouped, %shape_3 : (tensor<2x4x16xf32>, !tosa.shape<4>) -> tensor<1x8x1x16xf32>
  return %out : tensor<1x8x1x16xf32>
}
