// GeGLU with the tanh GELU approximation, f32:
// gelu_tanh(x @ Wg) * (x @ Wu), gelu_tanh(g) = 0.5 g (1 + tanh(sqrt(2/pi) (g + 0.044715 g^3))).
// x (7, 32), Wg, Wu (32, 40).
func.func @geglu_tanh(%x: tensor<7x32xf32>, %w_gate: tensor<32x40xf32>, %w_up: tensor<32x40xf32>) -> tensor<7x40xf32> {
  %shape = tosa.const_shape {values = dense<[1, 7, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gate_lhs = tosa.reshape %x, %shape : (tensor<7x32xf32>, !tosa.shape<3>) -> tensor<1x7x32xf32>
  %shape_1 = tosa.const_shape {values = dense<[1, 32, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gate_rhs = tosa.reshape %w_gate, %shape_1 : (tensor<32x40xf32>, !tosa.shape<3>) -> tensor<1x32x40xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %gate_mm = tosa.matmul %gate_lhs, %gate_rhs, %zp_f32, %zp_f32 : (tensor<1x7x32xf32>, tensor<1x32x40xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x40xf32>
  %shape_2 = tosa.const_shape {values = dense<[7, 40]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %gate = tosa.reshape %gate_mm, %shape_2 : (tensor<1x7x40xf32>, !tosa.shape<2>) -> tensor<7x40xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %gate_sq = tosa.mul %gate, %gate, %shift : (tensor<7x40xf32>, tensor<7x40xf32>, tensor<1xi8>) -> tensor<7x40xf32>
  %gate_cube = tosa.mul %gate_sq, %gate, %shift : (tensor<7x40xf32>, tensor<7x40xf32>, tensor<1xi8>) -> tensor<7x40xf32>
  %c0 = "tosa.const"() <{values = dense<0.044715> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %gate_cube_c = tosa.mul %gate_cube, %c0, %shift : (tensor<7x40xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<7x40xf32>
  %inner = tosa.add %gate, %gate_cube_c : (tensor<7x40xf32>, tensor<7x40xf32>) -> tensor<7x40xf32>
  %sqrt_2_over_pi = "tosa.const"() <{values = dense<0.7978846> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %inner_scaled = tosa.mul %inner, %sqrt_2_over_pi, %shift : (tensor<7x40xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<7x40xf32>
  %t = tosa.tanh %inner_scaled : (tensor<7x40xf32>) -> tensor<7x40xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half_gate = tosa.mul %gate, %half, %shift : (tensor<7x40xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<7x40xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %one_plus_t = tosa.add %t, %one : (tensor<7x40xf32>, tensor<1x1xf32>) -> tensor<7x40xf32>
  %gelu = tosa.mul %half_gate, %one_plus_t, %shift : (tensor<7x40xf32>, tensor<7x40xf32>, tensor<1xi8>) -> tensor<7x40xf32>
  %shape_3 = tosa.const_shape {values = dense<[1, 7, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %up_lhs = tosa.reshape %x, %shape_3 : (tensor<7x32xf32>, !tosa.shape<3>) -> tensor<1x7x32xf32>
  %shape_4 = tosa.const_shape {values = dense<[1, 32, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %up_rhs = tosa.reshape %w_up, %shape_4 : (tensor<32x40xf32>, !tosa.shape<3>) -> tensor<1x32x40xf32>
  %up_mm = tosa.matmul %up_lhs, %up_rhs, %zp_f32, %zp_f32 : (tensor<1x7x32xf32>, tensor<1x32x40xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x40xf32>
  %shape_5 = tosa.const_shape {values = dense<[7, 40]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %up = tosa.reshape %up_mm, %shape_5 : (tensor<1x7x40xf32>, !tosa.shape<2>) -> tensor<7x40xf32>
  %out = tosa.mul %gelu, %up, %shift : (tensor<7x40xf32>, tensor<7x40xf32>, tensor<1xi8>) -> tensor<7x40xf32>
  return %out : tensor<7x40xf32>
}
