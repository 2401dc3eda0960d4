// A whole decoder-block MLP (Llama), f32, nn.Linear weights stored (out, in):
// h = rms_norm(x) * w_norm; out = x + (silu(h @ Wg^T) * (h @ Wu^T)) @ Wd^T.
// x (6, 32), w_norm (32,), Wg, Wu (48, 32), Wd (32, 48); eps 1e-6.
func.func @decoder_mlp(%x: tensor<6x32xf32>, %norm_weight: tensor<32xf32>, %w_gate: tensor<48x32xf32>, %w_up: tensor<48x32xf32>, %w_down: tensor<32x48xf32>) -> tensor<6x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %x_rms_sq = tosa.mul %x, %x, %shift : (tensor<6x32xf32>, tensor<6x32xf32>, tensor<1xi8>) -> tensor<6x32xf32>
  %x_rms_ms_sum = tosa.reduce_sum %x_rms_sq {axis = 1 : i32} : (tensor<6x32xf32>) -> tensor<6x1xf32>
  %inv_n = "tosa.const"() <{values = dense<0.03125> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %x_rms_ms = tosa.mul %x_rms_ms_sum, %inv_n, %shift : (tensor<6x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<6x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %x_rms_ms_eps = tosa.add %x_rms_ms, %eps : (tensor<6x1xf32>, tensor<1x1xf32>) -> tensor<6x1xf32>
  %x_rms_inv = tosa.rsqrt %x_rms_ms_eps : (tensor<6x1xf32>) -> tensor<6x1xf32>
  %x_rms = tosa.mul %x, %x_rms_inv, %shift : (tensor<6x32xf32>, tensor<6x1xf32>, tensor<1xi8>) -> tensor<6x32xf32>
  %shape = tosa.const_shape {values = dense<[1, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %norm_weight2d = tosa.reshape %norm_weight, %shape : (tensor<32xf32>, !tosa.shape<2>) -> tensor<1x32xf32>
  %h = tosa.mul %x_rms, %norm_weight2d, %shift : (tensor<6x32xf32>, tensor<1x32xf32>, tensor<1xi8>) -> tensor<6x32xf32>
  %gate_wt = tosa.transpose %w_gate {perms = array<i32: 1, 0>} : (tensor<48x32xf32>) -> tensor<32x48xf32>
  %shape_1 = tosa.const_shape {values = dense<[1, 6, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gate_lhs = tosa.reshape %h, %shape_1 : (tensor<6x32xf32>, !tosa.shape<3>) -> tensor<1x6x32xf32>
  %shape_2 = tosa.const_shape {values = dense<[1, 32, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gate_rhs = tosa.reshape %gate_wt, %shape_2 : (tensor<32x48xf32>, !tosa.shape<3>) -> tensor<1x32x48xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %gate_mm = tosa.matmul %gate_lhs, %gate_rhs, %zp_f32, %zp_f32 : (tensor<1x6x32xf32>, tensor<1x32x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x48xf32>
  %shape_3 = tosa.const_shape {values = dense<[6, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %gate = tosa.reshape %gate_mm, %shape_3 : (tensor<1x6x48xf32>, !tosa.shape<2>) -> tensor<6x48xf32>
  %gate_act_sig = tosa.sigmoid %gate : (tensor<6x48xf32>) -> tensor<6x48xf32>
  %gate_act = tosa.mul %gate, %gate_act_sig, %shift : (tensor<6x48xf32>, tensor<6x48xf32>, tensor<1xi8>) -> tensor<6x48xf32>
  %up_wt = tosa.transpose %w_up {perms = array<i32: 1, 0>} : (tensor<48x32xf32>) -> tensor<32x48xf32>
  %shape_4 = tosa.const_shape {values = dense<[1, 6, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %up_lhs = tosa.reshape %h, %shape_4 : (tensor<6x32xf32>, !tosa.shape<3>) -> tensor<1x6x32xf32>
  %shape_5 = tosa.const_shape {values = dense<[1, 32, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %up_rhs = tosa.reshape %up_wt, %shape_5 : (tensor<32x48xf32>, !tosa.shape<3>) -> tensor<1x32x48xf32>
  %up_mm = tosa.matmul %up_lhs, %up_rhs, %zp_f32, %zp_f32 : (tensor<1x6x32xf32>, tensor<1x32x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x48xf32>
  %shape_6 = tosa.const_shape {values = dense<[6, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %up = tosa.reshape %up_mm, %shape_6 : (tensor<1x6x48xf32>, !tosa.shape<2>) -> tensor<6x48xf32>
  %act = tosa.mul %gate_act, %up, %shift : (tensor<6x48xf32>, tensor<6x48xf32>, tensor<1xi8>) -> tensor<6x48xf32>
  %down_wt = tosa.transpose %w_down {perms = array<i32: 1, 0>} : (tensor<32x48xf32>) -> tensor<48x32xf32>
  %shape_7 = tosa.const_shape {values = dense<[1, 6, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %down_lhs = tosa.reshape %act, %shape_7 : (tensor<6x48xf32>, !tosa.shape<3>) -> tensor<1x6x48xf32>
  %shape_8 = tosa.const_shape {values = dense<[1, 48, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %down_rhs = tosa.reshape %down_wt, %shape_8 : (tensor<48x32xf32>, !tosa.shape<3>) -> tensor<1x48x32xf32>
  %down_mm = tosa.matmul %down_lhs, %down_rhs, %zp_f32, %zp_f32 : (tensor<1x6x48xf32>, tensor<1x48x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x32xf32>
  %shape_9 = tosa.const_shape {values = dense<[6, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %down = tosa.reshape %down_mm, %shape_9 : (tensor<1x6x32xf32>, !tosa.shape<2>) -> tensor<6x32xf32>
  %out = tosa.add %x, %down : (tensor<6x32xf32>, tensor<6x32xf32>) -> tensor<6x32xf32>
  return %out : tensor<6x32xf32>
}
