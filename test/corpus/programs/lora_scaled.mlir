// LoRA as PEFT writes it, f32: x @ W + bias + (x @ A) @ B * (alpha / r), alpha/r = 2.
// x (6, 64), W (64, 40), bias (40,), A (64, 4), B (4, 40).
func.func @lora_scaled(%x: tensor<6x64xf32>, %w: tensor<64x40xf32>, %bias: tensor<40xf32>, %lora_a: tensor<64x4xf32>, %lora_b: tensor<4x40xf32>) -> tensor<6x40xf32> {
  %shape = tosa.const_shape {values = dense<[1, 6, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %base_lhs = tosa.reshape %x, %shape : (tensor<6x64xf32>, !tosa.shape<3>) -> tensor<1x6x64xf32>
  %shape_1 = tosa.const_shape {values = dense<[1, 64, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %base_rhs = tosa.reshape %w, %shape_1 : (tensor<64x40xf32>, !tosa.shape<3>) -> tensor<1x64x40xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %base_mm = tosa.matmul %base_lhs, %base_rhs, %zp_f32, %zp_f32 : (tensor<1x6x64xf32>, tensor<1x64x40xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x40xf32>
  %shape_2 = tosa.const_shape {values = dense<[6, 40]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %base = tosa.reshape %base_mm, %shape_2 : (tensor<1x6x40xf32>, !tosa.shape<2>) -> tensor<6x40xf32>
  %shape_3 = tosa.const_shape {values = dense<[1, 40]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %bias2d = tosa.reshape %bias, %shape_3 : (tensor<40xf32>, !tosa.shape<2>) -> tensor<1x40xf32>
  %base_b = tosa.add %base, %bias2d : (tensor<6x40xf32>, tensor<1x40xf32>) -> tensor<6x40xf32>
  %shape_4 = tosa.const_shape {values = dense<[1, 6, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xa_lhs = tosa.reshape %x, %shape_4 : (tensor<6x64xf32>, !tosa.shape<3>) -> tensor<1x6x64xf32>
  %shape_5 = tosa.const_shape {values = dense<[1, 64, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xa_rhs = tosa.reshape %lora_a, %shape_5 : (tensor<64x4xf32>, !tosa.shape<3>) -> tensor<1x64x4xf32>
  %xa_mm = tosa.matmul %xa_lhs, %xa_rhs, %zp_f32, %zp_f32 : (tensor<1x6x64xf32>, tensor<1x64x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x4xf32>
  %shape_6 = tosa.const_shape {values = dense<[6, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %xa = tosa.reshape %xa_mm, %shape_6 : (tensor<1x6x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
  %shape_7 = tosa.const_shape {values = dense<[1, 6, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xab_lhs = tosa.reshape %xa, %shape_7 : (tensor<6x4xf32>, !tosa.shape<3>) -> tensor<1x6x4xf32>
  %shape_8 = tosa.const_shape {values = dense<[1, 4, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %xab_rhs = tosa.reshape %lora_b, %shape_8 : (tensor<4x40xf32>, !tosa.shape<3>) -> tensor<1x4x40xf32>
  %xab_mm = tosa.matmul %xab_lhs, %xab_rhs, %zp_f32, %zp_f32 : (tensor<1x6x4xf32>, tensor<1x4x40xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x40xf32>
  %shape_9 = tosa.const_shape {values = dense<[6, 40]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %xab = tosa.reshape %xab_mm, %shape_9 : (tensor<1x6x40xf32>, !tosa.shape<2>) -> tensor<6x40xf32>
  %scaling = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %delta = tosa.mul %xab, %scaling, %shift : (tensor<6x40xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<6x40xf32>
  %out = tosa.add %base_b, %delta : (tensor<6x40xf32>, tensor<6x40xf32>) -> tensor<6x40xf32>
  return %out : tensor<6x40xf32>
}
