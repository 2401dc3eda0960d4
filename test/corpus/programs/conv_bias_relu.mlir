// A convolution block (ONNX Conv + Relu): relu(conv2d(x, w, pad 1) + b), f32,
// NHWC. x (1, 9, 7, 3), w (5, 3, 3, 3) (OHWI), b (5).
func.func @conv_bias_relu(%x: tensor<1x9x7x3xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x9x7x5xf32> {
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %conv = tosa.conv2d %x, %w, %b, %zp_f32, %zp_f32 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x9x7x3xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x9x7x5xf32>
  %out = tosa.clamp %conv {min_val = 0.0 : f32, max_val = 3.4028235e+38 : f32} : (tensor<1x9x7x5xf32>) -> tensor<1x9x7x5xf32>
  return %out : tensor<1x9x7x5xf32>
}
