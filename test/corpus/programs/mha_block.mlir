// A causal multi-head self-attention block, f32, nn.Linear weights (out, in):
// q, k, v = x Wq^T, x Wk^T, x Wv^T split into 4 heads of 8 (reshape +
// transpose), causal additive constant mask, softmax(q k^T / sqrt(8) + mask) v,
// heads merged back (transpose + reshape), out = x + o Wo^T.
// x (6, 32), Wq, Wk, Wv, Wo (32, 32).
func.func @mha_block(%x: tensor<6x32xf32>, %w_q: tensor<32x32xf32>, %w_k: tensor<32x32xf32>, %w_v: tensor<32x32xf32>, %w_o: tensor<32x32xf32>) -> tensor<6x32xf32> {
  %q_wt = tosa.transpose %w_q {perms = array<i32: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %shape = tosa.const_shape {values = dense<[1, 6, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q_lhs = tosa.reshape %x, %shape : (tensor<6x32xf32>, !tosa.shape<3>) -> tensor<1x6x32xf32>
  %shape_1 = tosa.const_shape {values = dense<[1, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q_rhs = tosa.reshape %q_wt, %shape_1 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %q_mm = tosa.matmul %q_lhs, %q_rhs, %zp_f32, %zp_f32 : (tensor<1x6x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x32xf32>
  %shape_2 = tosa.const_shape {values = dense<[6, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %q = tosa.reshape %q_mm, %shape_2 : (tensor<1x6x32xf32>, !tosa.shape<2>) -> tensor<6x32xf32>
  %shape_3 = tosa.const_shape {values = dense<[6, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q_split = tosa.reshape %q, %shape_3 : (tensor<6x32xf32>, !tosa.shape<3>) -> tensor<6x4x8xf32>
  %q_heads = tosa.transpose %q_split {perms = array<i32: 1, 0, 2>} : (tensor<6x4x8xf32>) -> tensor<4x6x8xf32>
  %k_wt = tosa.transpose %w_k {perms = array<i32: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %shape_4 = tosa.const_shape {values = dense<[1, 6, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k_lhs = tosa.reshape %x, %shape_4 : (tensor<6x32xf32>, !tosa.shape<3>) -> tensor<1x6x32xf32>
  %shape_5 = tosa.const_shape {values = dense<[1, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k_rhs = tosa.reshape %k_wt, %shape_5 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
  %k_mm = tosa.matmul %k_lhs, %k_rhs, %zp_f32, %zp_f32 : (tensor<1x6x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x32xf32>
  %shape_6 = tosa.const_shape {values = dense<[6, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %k = tosa.reshape %k_mm, %shape_6 : (tensor<1x6x32xf32>, !tosa.shape<2>) -> tensor<6x32xf32>
  %shape_7 = tosa.const_shape {values = dense<[6, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k_split = tosa.reshape %k, %shape_7 : (tensor<6x32xf32>, !tosa.shape<3>) -> tensor<6x4x8xf32>
  %k_heads = tosa.transpose %k_split {perms = array<i32: 1, 0, 2>} : (tensor<6x4x8xf32>) -> tensor<4x6x8xf32>
  %v_wt = tosa.transpose %w_v {perms = array<i32: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %shape_8 = tosa.const_shape {values = dense<[1, 6, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v_lhs = tosa.reshape %x, %shape_8 : (tensor<6x32xf32>, !tosa.shape<3>) -> tensor<1x6x32xf32>
  %shape_9 = tosa.const_shape {values = dense<[1, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v_rhs = tosa.reshape %v_wt, %shape_9 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
  %v_mm = tosa.matmul %v_lhs, %v_rhs, %zp_f32, %zp_f32 : (tensor<1x6x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x32xf32>
  %shape_10 = tosa.const_shape {values = dense<[6, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v = tosa.reshape %v_mm, %shape_10 : (tensor<1x6x32xf32>, !tosa.shape<2>) -> tensor<6x32xf32>
  %shape_11 = tosa.const_shape {values = dense<[6, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v_split = tosa.reshape %v, %shape_11 : (tensor<6x32xf32>, !tosa.shape<3>) -> tensor<6x4x8xf32>
  %v_heads = tosa.transpose %v_split {perms = array<i32: 1, 0, 2>} : (tensor<6x4x8xf32>) -> tensor<4x6x8xf32>
  %k_t = tosa.transpose %k_heads {perms = array<i32: 0, 2, 1>} : (tensor<4x6x8xf32>) -> tensor<4x8x6xf32>
  %qk = tosa.matmul %q_heads, %k_t, %zp_f32, %zp_f32 : (tensor<4x6x8xf32>, tensor<4x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x6xf32>
  %scale = "tosa.const"() <{values = dense<0.35355338> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scores = tosa.mul %qk, %scale, %shift : (tensor<4x6x6xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x6x6xf32>
  %causal_mask = "tosa.const"() <{values = dense<[[[0.0, -3.4028235e+38, -3.4028235e+38, -3.4028235e+38, -3.4028235e+38, -3.4028235e+38], [0.0, 0.0, -3.4028235e+38, -3.4028235e+38, -3.4028235e+38, -3.4028235e+38], [0.0, 0.0, 0.0, -3.4028235e+38, -3.4028235e+38, -3.4028235e+38], [0.0, 0.0, 0.0, 0.0, -3.4028235e+38, -3.4028235e+38], [0.0, 0.0, 0.0, 0.0, 0.0, -3.4028235e+38], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x6x6xf32>}> : () -> tensor<1x6x6xf32>
  %masked = tosa.add %scores, %causal_mask : (tensor<4x6x6xf32>, tensor<1x6x6xf32>) -> tensor<4x6x6xf32>
  %probs_max = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<4x6x6xf32>) -> tensor<4x6x1xf32>
  %probs_shifted = tosa.sub %masked, %probs_max : (tensor<4x6x6xf32>, tensor<4x6x1xf32>) -> tensor<4x6x6xf32>
  %probs_exp = tosa.exp %probs_shifted : (tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<4x6x6xf32>) -> tensor<4x6x1xf32>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<4x6x6xf32>, tensor<4x6x1xf32>, tensor<1xi8>) -> tensor<4x6x6xf32>
  %attn = tosa.matmul %probs, %v_heads, %zp_f32, %zp_f32 : (tensor<4x6x6xf32>, tensor<4x6x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x6x8xf32>
  %attn_t = tosa.transpose %attn {perms = array<i32: 1, 0, 2>} : (tensor<4x6x8xf32>) -> tensor<6x4x8xf32>
  %shape_12 = tosa.const_shape {values = dense<[6, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %merged = tosa.reshape %attn_t, %shape_12 : (tensor<6x4x8xf32>, !tosa.shape<2>) -> tensor<6x32xf32>
  %o_proj_wt = tosa.transpose %w_o {perms = array<i32: 1, 0>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %shape_13 = tosa.const_shape {values = dense<[1, 6, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %o_proj_lhs = tosa.reshape %merged, %shape_13 : (tensor<6x32xf32>, !tosa.shape<3>) -> tensor<1x6x32xf32>
  %shape_14 = tosa.const_shape {values = dense<[1, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %o_proj_rhs = tosa.reshape %o_proj_wt, %shape_14 : (tensor<32x32xf32>, !tosa.shape<3>) -> tensor<1x32x32xf32>
  %o_proj_mm = tosa.matmul %o_proj_lhs, %o_proj_rhs, %zp_f32, %zp_f32 : (tensor<1x6x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x32xf32>
  %shape_15 = tosa.const_shape {values = dense<[6, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %o_proj = tosa.reshape %o_proj_mm, %shape_15 : (tensor<1x6x32xf32>, !tosa.shape<2>) -> tensor<6x32xf32>
  %out = tosa.add %x, %o_proj : (tensor<6x32xf32>, tensor<6x32xf32>) -> tensor<6x32xf32>
  return %out : tensor<6x32xf32>
}
