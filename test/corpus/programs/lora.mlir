// lora (BENCHMARKS.md): X @ W + (X @ A) @ B, fp16.
// X (13, 64), W (64, 96), A (64, 8), B (8, 96).
func.func @lora(%x: tensor<13x64xf16>, %w: tensor<64x96xf16>, %lora_a: tensor<64x8xf16>, %lora_b: tensor<8x96xf16>) -> tensor<13x96xf16> {
  %shape = tosa.const_shape {values = dense<[1, 13, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %base_lhs = tosa.reshape %x, %shape : (tensor<13x64xf16>, !tosa.shape<3>) -> tensor<1x13x64xf16>
  %shape_1 = tosa.const_shape {values = dense<[1, 64, 96]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %base_rhs = tosa.reshape %w, %shape_1 : (tensor<64x96xf16>, !tosa.shape<3>) -> tensor<1x64x96xf16>
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %base_mm = tosa.matmul %base_lhs, %base_rhs, %zp_f16, %zp_f16 : (tensor<1x13x64xf16>, tensor<1x64x96xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x13x96xf16>
  %shape_2 = tosa.const_shape {values = dense<[13, 96]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %base = tosa.reshape %base_mm, %shape_2 : (tensor<1x13x96xf16>, !tosa.shape<2>) -> tensor<13x96xf16>
  %shape_3 = tosa.const_shape {values = dense<[1, 13, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xa_lhs = tosa.reshape %x, %shape_3 : (tensor<13x64xf16>, !tosa.shape<3>) -> tensor<1x13x64xf16>
  %shape_4 = tosa.const_shape {values = dense<[1, 64, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xa_rhs = tosa.reshape %lora_a, %shape_4 : (tensor<64x8xf16>, !tosa.shape<3>) -> tensor<1x64x8xf16>
  %xa_mm = tosa.matmul %xa_lhs, %xa_rhs, %zp_f16, %zp_f16 : (tensor<1x13x64xf16>, tensor<1x64x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x13x8xf16>
  %shape_5 = tosa.const_shape {values = dense<[13, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %xa = tosa.reshape %xa_mm, %shape_5 : (tensor<1x13x8xf16>, !tosa.shape<2>) -> tensor<13x8xf16>
  %shape_6 = tosa.const_shape {values = dense<[1, 13, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %delta_lhs = tosa.reshape %xa, %shape_6 : (tensor<13x8xf16>, !tosa.shape<3>) -> tensor<1x13x8xf16>
  %shape_7 = tosa.const_shape {values = dense<[1, 8, 96]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %delta_rhs = tosa.reshape %lora_b, %shape_7 : (tensor<8x96xf16>, !tosa.shape<3>) -> tensor<1x8x96xf16>
  %delta_mm = tosa.matmul %delta_lhs, %delta_rhs, %zp_f16, %zp_f16 : (tensor<1x13x8xf16>, tensor<1x8x96xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x13x96xf16>
  %shape_8 = tosa.const_shape {values = dense<[13, 96]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %delta = tosa.reshape %delta_mm, %shape_8 : (tensor<1x13x96xf16>, !tosa.shape<2>) -> tensor<13x96xf16>
  %out = tosa.add %base, %delta : (tensor<13x96xf16>, tensor<13x96xf16>) -> tensor<13x96xf16>
  return %out : tensor<13x96xf16>
}
