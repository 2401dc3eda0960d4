// A strided 1x1 projection plus a 3x3 convolution of stride 2, added (a ResNet
// downsampling block), f32, NHWC. x (2, 11, 7, 4); w3 (6, 3, 3, 4),
// w1 (6, 1, 1, 4), zero biases.
func.func @conv_strided_residual(%x: tensor<2x11x7x4xf32>, %w3: tensor<6x3x3x4xf32>, %w1: tensor<6x1x1x4xf32>) -> tensor<2x6x4x6xf32> {
  %bias = "tosa.const"() <{values = dense<0.0> : tensor<6xf32>}> : () -> tensor<6xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %main = tosa.conv2d %x, %w3, %bias, %zp_f32, %zp_f32 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x11x7x4xf32>, tensor<6x3x3x4xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x4x6xf32>
  %skip = tosa.conv2d %x, %w1, %bias, %zp_f32, %zp_f32 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x11x7x4xf32>, tensor<6x1x1x4xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x4x6xf32>
  %out = tosa.add %main, %skip : (tensor<2x6x4x6xf32>, tensor<2x6x4x6xf32>) -> tensor<2x6x4x6xf32>
  return %out : tensor<2x6x4x6xf32>
}
