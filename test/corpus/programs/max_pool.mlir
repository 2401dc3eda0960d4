// Max pooling 3x3, stride 2, pad 1 (ResNet's stem), f32, NHWC. x (2, 9, 7, 5).
func.func @max_pool(%x: tensor<2x9x7x5xf32>) -> tensor<2x5x4x5xf32> {
  %out = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x9x7x5xf32>) -> tensor<2x5x4x5xf32>
  return %out : tensor<2x5x4x5xf32>
}
