// An fp16 linear layer accumulating in f32 (f16 x f16 -> f32 tosa.matmul),
// GELU-erf in f32, cast to f16 (what torch-mlir emits for an fp16 model with
// f32 accumulation). x (6, 64), W (64, 37).
func.func @linear_f16_f32acc(%x: tensor<6x64xf16>, %w: tensor<64x37xf16>) -> tensor<6x37xf16> {
  %shape = tosa.const_shape {values = dense<[1, 6, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xw_lhs = tosa.reshape %x, %shape : (tensor<6x64xf16>, !tosa.shape<3>) -> tensor<1x6x64xf16>
  %shape_1 = tosa.const_shape {values = dense<[1, 64, 37]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xw_rhs = tosa.reshape %w, %shape_1 : (tensor<64x37xf16>, !tosa.shape<3>) -> tensor<1x64x37xf16>
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %xw_mm = tosa.matmul %xw_lhs, %xw_rhs, %zp_f16, %zp_f16 : (tensor<1x6x64xf16>, tensor<1x64x37xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x6x37xf32>
  %shape_2 = tosa.const_shape {values = dense<[6, 37]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %xw = tosa.reshape %xw_mm, %shape_2 : (tensor<1x6x37xf32>, !tosa.shape<2>) -> tensor<6x37xf32>
  %inv_sqrt2 = "tosa.const"() <{values = dense<0.70710677> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y_scaled = tosa.mul %xw, %inv_sqrt2, %shift : (tensor<6x37xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<6x37xf32>
  %erf = tosa.erf %y_scaled : (tensor<6x37xf32>) -> tensor<6x37xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half_y = tosa.mul %xw, %half, %shift : (tensor<6x37xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<6x37xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %one_plus = tosa.add %erf, %one : (tensor<6x37xf32>, tensor<1x1xf32>) -> tensor<6x37xf32>
  %gelu = tosa.mul %half_y, %one_plus, %shift : (tensor<6x37xf32>, tensor<6x37xf32>, tensor<1xi8>) -> tensor<6x37xf32>
  %out = tosa.cast %gelu : (tensor<6x37xf32>) -> tensor<6x37xf16>
  return %out : tensor<6x37xf16>
}
