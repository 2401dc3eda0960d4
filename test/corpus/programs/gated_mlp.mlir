// gated_mlp (BENCHMARKS.md): silu(X @ W1) * (X @ W2), fp16, silu as
// x * sigmoid(x). X (7, 64), W1, W2 (64, 48).
func.func @gated_mlp(%x: tensor<7x64xf16>, %w1: tensor<64x48xf16>, %w2: tensor<64x48xf16>) -> tensor<7x48xf16> {
  %shape = tosa.const_shape {values = dense<[1, 7, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gate_proj_lhs = tosa.reshape %x, %shape : (tensor<7x64xf16>, !tosa.shape<3>) -> tensor<1x7x64xf16>
  %shape_1 = tosa.const_shape {values = dense<[1, 64, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gate_proj_rhs = tosa.reshape %w1, %shape_1 : (tensor<64x48xf16>, !tosa.shape<3>) -> tensor<1x64x48xf16>
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %gate_proj_mm = tosa.matmul %gate_proj_lhs, %gate_proj_rhs, %zp_f16, %zp_f16 : (tensor<1x7x64xf16>, tensor<1x64x48xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x7x48xf16>
  %shape_2 = tosa.const_shape {values = dense<[7, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %gate_proj = tosa.reshape %gate_proj_mm, %shape_2 : (tensor<1x7x48xf16>, !tosa.shape<2>) -> tensor<7x48xf16>
  %gate_sig = tosa.sigmoid %gate_proj : (tensor<7x48xf16>) -> tensor<7x48xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %gate = tosa.mul %gate_proj, %gate_sig, %shift : (tensor<7x48xf16>, tensor<7x48xf16>, tensor<1xi8>) -> tensor<7x48xf16>
  %shape_3 = tosa.const_shape {values = dense<[1, 7, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %up_lhs = tosa.reshape %x, %shape_3 : (tensor<7x64xf16>, !tosa.shape<3>) -> tensor<1x7x64xf16>
  %shape_4 = tosa.const_shape {values = dense<[1, 64, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %up_rhs = tosa.reshape %w2, %shape_4 : (tensor<64x48xf16>, !tosa.shape<3>) -> tensor<1x64x48xf16>
  %up_mm = tosa.matmul %up_lhs, %up_rhs, %zp_f16, %zp_f16 : (tensor<1x7x64xf16>, tensor<1x64x48xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x7x48xf16>
  %shape_5 = tosa.const_shape {values = dense<[7, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %up = tosa.reshape %up_mm, %shape_5 : (tensor<1x7x48xf16>, !tosa.shape<2>) -> tensor<7x48xf16>
  %out = tosa.mul %gate, %up, %shift : (tensor<7x48xf16>, tensor<7x48xf16>, tensor<1xi8>) -> tensor<7x48xf16>
  return %out : tensor<7x48xf16>
}
