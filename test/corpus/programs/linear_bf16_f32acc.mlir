// A bf16 linear layer with f32 accumulation, as TOSA types it (bf16 x bf16 ->
// f32 matmul), f32 bias, output cast to bf16.
// x (6, 64) bf16, W (64, 37) bf16, bias (37,) f32.
func.func @linear_bf16_f32acc(%x: tensor<6x64xbf16>, %w: tensor<64x37xbf16>, %bias: tensor<37xf32>) -> tensor<6x37xbf16> {
  %shape = tosa.const_shape {values = dense<[1, 6, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xw_lhs = tosa.reshape %x, %shape : (tensor<6x64xbf16>, !tosa.shape<3>) -> tensor<1x6x64xbf16>
  %shape_1 = tosa.const_shape {values = dense<[1, 64, 37]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xw_rhs = tosa.reshape %w, %shape_1 : (tensor<64x37xbf16>, !tosa.shape<3>) -> tensor<1x64x37xbf16>
  %zp_bf16 = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %xw_mm = tosa.matmul %xw_lhs, %xw_rhs, %zp_bf16, %zp_bf16 : (tensor<1x6x64xbf16>, tensor<1x64x37xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x6x37xf32>
  %shape_2 = tosa.const_shape {values = dense<[6, 37]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %xw = tosa.reshape %xw_mm, %shape_2 : (tensor<1x6x37xf32>, !tosa.shape<2>) -> tensor<6x37xf32>
  %shape_3 = tosa.const_shape {values = dense<[1, 37]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %bias2d = tosa.reshape %bias, %shape_3 : (tensor<37xf32>, !tosa.shape<2>) -> tensor<1x37xf32>
  %xw_b = tosa.add %xw, %bias2d : (tensor<6x37xf32>, tensor<1x37xf32>) -> tensor<6x37xf32>
  %out = tosa.cast %xw_b : (tensor<6x37xf32>) -> tensor<6x37xbf16>
  return %out : tensor<6x37xbf16>
}
