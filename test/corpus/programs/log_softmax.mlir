// Log-softmax over the last dim, f32: (x - max) - log(sum(exp(x - max))). x (7, 37).
// input %x: uniform(-4, 4)
func.func @log_softmax(%x: tensor<7x37xf32>) -> tensor<7x37xf32> {
  %row_max = tosa.reduce_max %x {axis = 1 : i32} : (tensor<7x37xf32>) -> tensor<7x1xf32>
  %shifted = tosa.sub %x, %row_max : (tensor<7x37xf32>, tensor<7x1xf32>) -> tensor<7x37xf32>
  %e = tosa.exp %shifted : (tensor<7x37xf32>) -> tensor<7x37xf32>
  %e_sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<7x37xf32>) -> tensor<7x1xf32>
  %log_sum = tosa.log %e_sum : (tensor<7x1xf32>) -> tensor<7x1xf32>
  %out = tosa.sub %shifted, %log_sum : (tensor<7x37xf32>, tensor<7x1xf32>) -> tensor<7x37xf32>
  return %out : tensor<7x37xf32>
}
