// A depthwise 3x3 convolution (MobileNet), pad 1, multiplier 1, then ReLU6, f32,
// NHWC. x (1, 8, 13, 6), w (3, 3, 6, 1) (HWCM), b (6).
func.func @depthwise_conv(%x: tensor<1x8x13x6xf32>, %w: tensor<3x3x6x1xf32>, %b: tensor<6xf32>) -> tensor<1x8x13x6xf32> {
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %dwconv = tosa.depthwise_conv2d %x, %w, %b, %zp_f32, %zp_f32 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x13x6xf32>, tensor<3x3x6x1xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x13x6xf32>
  %out = tosa.clamp %dwconv {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x8x13x6xf32>) -> tensor<1x8x13x6xf32>
  return %out : tensor<1x8x13x6xf32>
}
