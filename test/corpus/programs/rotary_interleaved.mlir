// Rotary embedding on interleaved pairs (GPT-J / Meta Llama complex form), f32:
// x viewed as (6, 2, 4, 2) pairs (a, b); out pair = (a cos - b sin, a sin + b cos),
// cos/sin (6, 4) inputs. x (1, 6, 2, 8).
func.func @rotary_interleaved(%x: tensor<1x6x2x8xf32>, %cos: tensor<6x4xf32>, %sin: tensor<6x4xf32>) -> tensor<1x6x2x8xf32> {
  %shape = tosa.const_shape {values = dense<[6, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pairs = tosa.reshape %x, %shape : (tensor<1x6x2x8xf32>, !tosa.shape<4>) -> tensor<6x2x4x2xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[6, 2, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %a = tosa.slice %pairs, %start, %size : (tensor<6x2x4x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<6x2x4x1xf32>
  %start_1 = tosa.const_shape {values = dense<[0, 0, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size_1 = tosa.const_shape {values = dense<[6, 2, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %b = tosa.slice %pairs, %start_1, %size_1 : (tensor<6x2x4x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<6x2x4x1xf32>
  %shape_1 = tosa.const_shape {values = dense<[6, 1, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %cos4 = tosa.reshape %cos, %shape_1 : (tensor<6x4xf32>, !tosa.shape<4>) -> tensor<6x1x4x1xf32>
  %shape_2 = tosa.const_shape {values = dense<[6, 1, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %sin4 = tosa.reshape %sin, %shape_2 : (tensor<6x4xf32>, !tosa.shape<4>) -> tensor<6x1x4x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a_cos = tosa.mul %a, %cos4, %shift : (tensor<6x2x4x1xf32>, tensor<6x1x4x1xf32>, tensor<1xi8>) -> tensor<6x2x4x1xf32>
  %b_sin = tosa.mul %b, %sin4, %shift : (tensor<6x2x4x1xf32>, tensor<6x1x4x1xf32>, tensor<1xi8>) -> tensor<6x2x4x1xf32>
  %rot_a = tosa.sub %a_cos, %b_sin : (tensor<6x2x4x1xf32>, tensor<6x2x4x1xf32>) -> tensor<6x2x4x1xf32>
  %a_sin = tosa.mul %a, %sin4, %shift : (tensor<6x2x4x1xf32>, tensor<6x1x4x1xf32>, tensor<1xi8>) -> tensor<6x2x4x1xf32>
  %b_cos = tosa.mul %b, %cos4, %shift : (tensor<6x2x4x1xf32>, tensor<6x1x4x1xf32>, tensor<1xi8>) -> tensor<6x2x4x1xf32>
  %rot_b = tosa.add %a_sin, %b_cos : (tensor<6x2x4x1xf32>, tensor<6x2x4x1xf32>) -> tensor<6x2x4x1xf32>
  %rot_pairs = tosa.concat %rot_a, %rot_b {axis = 3 : i32} : (tensor<6x2x4x1xf32>, tensor<6x2x4x1xf32>) -> tensor<6x2x4x2xf32>
  %shape_3 = tosa.const_shape {values = dense<[1, 6, 2, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %out = tosa.reshape %rot_pairs, %shape_3 : (tensor<6x2x4x2xf32>, !tosa.shape<4>) -> tensor<1x6x2x8xf32>
  return %out : tensor<1x6x2x8xf32>
}
