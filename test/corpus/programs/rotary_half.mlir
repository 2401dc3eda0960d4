// Rotary embedding, rotate_half form (HF Llama), f32:
// out = x * cos + cat(-x[..., D/2:], x[..., :D/2]) * sin, cos/sin (7, 16) inputs
// broadcast over the heads as (7, 1, 16). x (7, 2, 16).
func.func @rotary_half(%x: tensor<7x2x16xf32>, %cos: tensor<7x16xf32>, %sin: tensor<7x16xf32>) -> tensor<7x2x16xf32> {
  %start = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[7, 2, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x1 = tosa.slice %x, %start, %size : (tensor<7x2x16xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<7x2x8xf32>
  %start_1 = tosa.const_shape {values = dense<[0, 0, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size_1 = tosa.const_shape {values = dense<[7, 2, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x2 = tosa.slice %x, %start_1, %size_1 : (tensor<7x2x16xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<7x2x8xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %neg_x2 = tosa.negate %x2, %zp_f32, %zp_f32 : (tensor<7x2x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<7x2x8xf32>
  %rotated = tosa.concat %neg_x2, %x1 {axis = 2 : i32} : (tensor<7x2x8xf32>, tensor<7x2x8xf32>) -> tensor<7x2x16xf32>
  %shape = tosa.const_shape {values = dense<[7, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %cos3 = tosa.reshape %cos, %shape : (tensor<7x16xf32>, !tosa.shape<3>) -> tensor<7x1x16xf32>
  %shape_1 = tosa.const_shape {values = dense<[7, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sin3 = tosa.reshape %sin, %shape_1 : (tensor<7x16xf32>, !tosa.shape<3>) -> tensor<7x1x16xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %x_cos = tosa.mul %x, %cos3, %shift : (tensor<7x2x16xf32>, tensor<7x1x16xf32>, tensor<1xi8>) -> tensor<7x2x16xf32>
  %rot_sin = tosa.mul %rotated, %sin3, %shift : (tensor<7x2x16xf32>, tensor<7x1x16xf32>, tensor<1xi8>) -> tensor<7x2x16xf32>
  %out = tosa.add %x_cos, %rot_sin : (tensor<7x2x16xf32>, tensor<7x2x16xf32>) -> tensor<7x2x16xf32>
  return %out : tensor<7x2x16xf32>
}
