// SwiGLU MLP with a fused gate/up projection (Phi-3 style), f32:
// gu = x @ W_gate_up; gate, up = gu[:, :F], gu[:, F:]; out = (silu(gate) * up) @ W_down.
// x (6, 48), W_gate_up (48, 80), W_down (40, 48).
func.func @swiglu_fused(%x: tensor<6x48xf32>, %w_gate_up: tensor<48x80xf32>, %w_down: tensor<40x48xf32>) -> tensor<6x48xf32> {
  %shape = tosa.const_shape {values = dense<[1, 6, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gate_up_lhs = tosa.reshape %x, %shape : (tensor<6x48xf32>, !tosa.shape<3>) -> tensor<1x6x48xf32>
  %shape_1 = tosa.const_shape {values = dense<[1, 48, 80]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gate_up_rhs = tosa.reshape %w_gate_up, %shape_1 : (tensor<48x80xf32>, !tosa.shape<3>) -> tensor<1x48x80xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %gate_up_mm = tosa.matmul %gate_up_lhs, %gate_up_rhs, %zp_f32, %zp_f32 : (tensor<1x6x48xf32>, tensor<1x48x80xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x80xf32>
  %shape_2 = tosa.const_shape {values = dense<[6, 80]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %gate_up = tosa.reshape %gate_up_mm, %shape_2 : (tensor<1x6x80xf32>, !tosa.shape<2>) -> tensor<6x80xf32>
  %start = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[6, 40]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %gate = tosa.slice %gate_up, %start, %size : (tensor<6x80xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<6x40xf32>
  %start_1 = tosa.const_shape {values = dense<[0, 40]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size_1 = tosa.const_shape {values = dense<[6, 40]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %up = tosa.slice %gate_up, %start_1, %size_1 : (tensor<6x80xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<6x40xf32>
  %gate_act_sig = tosa.sigmoid %gate : (tensor<6x40xf32>) -> tensor<6x40xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %gate_act = tosa.mul %gate, %gate_act_sig, %shift : (tensor<6x40xf32>, tensor<6x40xf32>, tensor<1xi8>) -> tensor<6x40xf32>
  %hidden = tosa.mul %gate_act, %up, %shift : (tensor<6x40xf32>, tensor<6x40xf32>, tensor<1xi8>) -> tensor<6x40xf32>
  %shape_3 = tosa.const_shape {values = dense<[1, 6, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %out_lhs = tosa.reshape %hidden, %shape_3 : (tensor<6x40xf32>, !tosa.shape<3>) -> tensor<1x6x40xf32>
  %shape_4 = tosa.const_shape {values = dense<[1, 40, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %out_rhs = tosa.reshape %w_down, %shape_4 : (tensor<40x48xf32>, !tosa.shape<3>) -> tensor<1x40x48xf32>
  %out_mm = tosa.matmul %out_lhs, %out_rhs, %zp_f32, %zp_f32 : (tensor<1x6x40xf32>, tensor<1x40x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x48xf32>
  %shape_5 = tosa.const_shape {values = dense<[6, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %out = tosa.reshape %out_mm, %shape_5 : (tensor<1x6x48xf32>, !tosa.shape<2>) -> tensor<6x48xf32>
  return %out : tensor<6x48xf32>
}
