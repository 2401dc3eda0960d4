// F.normalize(x, p=2, dim=-1, eps=1e-12), f32, as pow/maximum/reciprocal:
// x * reciprocal(maximum(pow(sum(pow(x, 2)), 0.5), eps)). x (7, 37).
func.func @l2_normalize(%x: tensor<7x37xf32>) -> tensor<7x37xf32> {
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %x_sq = tosa.pow %x, %two : (tensor<7x37xf32>, tensor<1x1xf32>) -> tensor<7x37xf32>
  %sum_sq = tosa.reduce_sum %x_sq {axis = 1 : i32} : (tensor<7x37xf32>) -> tensor<7x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %norm = tosa.pow %sum_sq, %half : (tensor<7x1xf32>, tensor<1x1xf32>) -> tensor<7x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-12> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %norm_clamped = tosa.maximum %norm, %eps : (tensor<7x1xf32>, tensor<1x1xf32>) -> tensor<7x1xf32>
  %inv_norm = tosa.reciprocal %norm_clamped : (tensor<7x1xf32>) -> tensor<7x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %out = tosa.mul %x, %inv_norm, %shift : (tensor<7x37xf32>, tensor<7x1xf32>, tensor<1xi8>) -> tensor<7x37xf32>
  return %out : tensor<7x37xf32>
}
