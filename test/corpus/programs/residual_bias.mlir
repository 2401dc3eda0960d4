// Residual and bias adds around a linear, one row, f32:
// out = x + (x @ W + b), b (37,) broadcast as (1, 37). x (1, 37), W (37, 37).
func.func @residual_bias(%x: tensor<1x37xf32>, %w: tensor<37x37xf32>, %bias: tensor<37xf32>) -> tensor<1x37xf32> {
  %shape = tosa.const_shape {values = dense<[1, 1, 37]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xw_lhs = tosa.reshape %x, %shape : (tensor<1x37xf32>, !tosa.shape<3>) -> tensor<1x1x37xf32>
  %shape_1 = tosa.const_shape {values = dense<[1, 37, 37]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xw_rhs = tosa.reshape %w, %shape_1 : (tensor<37x37xf32>, !tosa.shape<3>) -> tensor<1x37x37xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %xw_mm = tosa.matmul %xw_lhs, %xw_rhs, %zp_f32, %zp_f32 : (tensor<1x1x37xf32>, tensor<1x37x37xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x37xf32>
  %shape_2 = tosa.const_shape {values = dense<[1, 37]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %xw = tosa.reshape %xw_mm, %shape_2 : (tensor<1x1x37xf32>, !tosa.shape<2>) -> tensor<1x37xf32>
  %shape_3 = tosa.const_shape {values = dense<[1, 37]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %bias2d = tosa.reshape %bias, %shape_3 : (tensor<37xf32>, !tosa.shape<2>) -> tensor<1x37xf32>
  %xw_b = tosa.add %xw, %bias2d : (tensor<1x37xf32>, tensor<1x37xf32>) -> tensor<1x37xf32>
  %out = tosa.add %x, %xw_b : (tensor<1x37xf32>, tensor<1x37xf32>) -> tensor<1x37xf32>
  return %out : tensor<1x37xf32>
}
