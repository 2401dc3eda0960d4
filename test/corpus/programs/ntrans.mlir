// ntrans (BENCHMARKS.md): rms_norm(X + rms_norm(Y @ W)), fp16, eps 1e-5.
// X, Y (6, 64), W (64, 64).
func.func @ntrans(%x: tensor<6x64xf16>, %y: tensor<6x64xf16>, %w: tensor<64x64xf16>) -> tensor<6x64xf16> {
  %shape = tosa.const_shape {values = dense<[1, 6, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %yw_lhs = tosa.reshape %y, %shape : (tensor<6x64xf16>, !tosa.shape<3>) -> tensor<1x6x64xf16>
  %shape_1 = tosa.const_shape {values = dense<[1, 64, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %yw_rhs = tosa.reshape %w, %shape_1 : (tensor<64x64xf16>, !tosa.shape<3>) -> tensor<1x64x64xf16>
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %yw_mm = tosa.matmul %yw_lhs, %yw_rhs, %zp_f16, %zp_f16 : (tensor<1x6x64xf16>, tensor<1x64x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x6x64xf16>
  %shape_2 = tosa.const_shape {values = dense<[6, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %yw = tosa.reshape %yw_mm, %shape_2 : (tensor<1x6x64xf16>, !tosa.shape<2>) -> tensor<6x64xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %yw_norm_sq = tosa.mul %yw, %yw, %shift : (tensor<6x64xf16>, tensor<6x64xf16>, tensor<1xi8>) -> tensor<6x64xf16>
  %yw_norm_ms_sum = tosa.reduce_sum %yw_norm_sq {axis = 1 : i32} : (tensor<6x64xf16>) -> tensor<6x1xf16>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf16>}> : () -> tensor<1x1xf16>
  %yw_norm_ms = tosa.mul %yw_norm_ms_sum, %inv_n, %shift : (tensor<6x1xf16>, tensor<1x1xf16>, tensor<1xi8>) -> tensor<6x1xf16>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf16>}> : () -> tensor<1x1xf16>
  %yw_norm_ms_eps = tosa.add %yw_norm_ms, %eps : (tensor<6x1xf16>, tensor<1x1xf16>) -> tensor<6x1xf16>
  %yw_norm_inv = tosa.rsqrt %yw_norm_ms_eps : (tensor<6x1xf16>) -> tensor<6x1xf16>
  %yw_norm = tosa.mul %yw, %yw_norm_inv, %shift : (tensor<6x64xf16>, tensor<6x1xf16>, tensor<1xi8>) -> tensor<6x64xf16>
  %resid = tosa.add %x, %yw_norm : (tensor<6x64xf16>, tensor<6x64xf16>) -> tensor<6x64xf16>
  %out_sq = tosa.mul %resid, %resid, %shift : (tensor<6x64xf16>, tensor<6x64xf16>, tensor<1xi8>) -> tensor<6x64xf16>
  %out_ms_sum = tosa.reduce_sum %out_sq {axis = 1 : i32} : (tensor<6x64xf16>) -> tensor<6x1xf16>
  %inv_n_1 = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf16>}> : () -> tensor<1x1xf16>
  %out_ms = tosa.mul %out_ms_sum, %inv_n_1, %shift : (tensor<6x1xf16>, tensor<1x1xf16>, tensor<1xi8>) -> tensor<6x1xf16>
  %eps_1 = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf16>}> : () -> tensor<1x1xf16>
  %out_ms_eps = tosa.add %out_ms, %eps_1 : (tensor<6x1xf16>, tensor<1x1xf16>) -> tensor<6x1xf16>
  %out_inv = tosa.rsqrt %out_ms_eps : (tensor<6x1xf16>) -> tensor<6x1xf16>
  %out = tosa.mul %resid, %out_inv, %shift : (tensor<6x64xf16>, tensor<6x1xf16>, tensor<1xi8>) -> tensor<6x64xf16>
  return %out : tensor<6x64xf16>
}
