// rmsnorm_linear (BENCHMARKS.md): rms_norm(X) @ W, fp16, no norm weight.
// X (6, 64), W (64, 37); eps 1e-5 in fp16.
func.func @rmsnorm_linear(%x: tensor<6x64xf16>, %w: tensor<64x37xf16>) -> tensor<6x37xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %x_norm_sq = tosa.mul %x, %x, %shift : (tensor<6x64xf16>, tensor<6x64xf16>, tensor<1xi8>) -> tensor<6x64xf16>
  %x_norm_ms_sum = tosa.reduce_sum %x_norm_sq {axis = 1 : i32} : (tensor<6x64xf16>) -> tensor<6x1xf16>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf16>}> : () -> tensor<1x1xf16>
  %x_norm_ms = tosa.mul %x_norm_ms_sum, %inv_n, %shift : (tensor<6x1xf16>, tensor<1x1xf16>, tensor<1xi8>) -> tensor<6x1xf16>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf16>}> : () -> tensor<1x1xf16>
  %x_norm_ms_eps = tosa.add %x_norm_ms, %eps : (tensor<6x1xf16>, tensor<1x1xf16>) -> tensor<6x1xf16>
  %x_norm_inv = tosa.rsqrt %x_norm_ms_eps : (tensor<6x1xf16>) -> tensor<6x1xf16>
  %x_norm = tosa.mul %x, %x_norm_inv, %shift : (tensor<6x64xf16>, tensor<6x1xf16>, tensor<1xi8>) -> tensor<6x64xf16>
  %shape = tosa.const_shape {values = dense<[1, 6, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %out_lhs = tosa.reshape %x_norm, %shape : (tensor<6x64xf16>, !tosa.shape<3>) -> tensor<1x6x64xf16>
  %shape_1 = tosa.const_shape {values = dense<[1, 64, 37]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %out_rhs = tosa.reshape %w, %shape_1 : (tensor<64x37xf16>, !tosa.shape<3>) -> tensor<1x64x37xf16>
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %out_mm = tosa.matmul %out_lhs, %out_rhs, %zp_f16, %zp_f16 : (tensor<1x6x64xf16>, tensor<1x64x37xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x6x37xf16>
  %shape_2 = tosa.const_shape {values = dense<[6, 37]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %out = tosa.reshape %out_mm, %shape_2 : (tensor<1x6x37xf16>, !tosa.shape<2>) -> tensor<6x37xf16>
  return %out : tensor<6x37xf16>
}
