// Average pooling 2x2, stride 1, no padding, then a per-channel scale
// (squeeze-and-excitation's gate applied), f32, NHWC. x (1, 7, 7, 13), s (13).
func.func @avg_pool_scale(%x: tensor<1x7x7x13xf32>, %s: tensor<13xf32>) -> tensor<1x6x6x13xf32> {
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %pooled = tosa.avg_pool2d %x, %zp_f32, %zp_f32 {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x7x7x13xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x13xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 1, 13]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %shape : (tensor<13xf32>, !tosa.shape<4>) -> tensor<1x1x1x13xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %out = tosa.mul %pooled, %s4, %shift : (tensor<1x6x6x13xf32>, tensor<1x1x1x13xf32>, tensor<1xi8>) -> tensor<1x6x6x13xf32>
  return %out : tensor<1x6x6x13xf32>
}
