// Softmax over the last dim, f32: exp(x - max) * reciprocal(sum(exp(x - max))).
// x (13, 37), inputs in (-4, 4).
// input %x: uniform(-4, 4)
func.func @softmax(%x: tensor<13x37xf32>) -> tensor<13x37xf32> {
  %out_max = tosa.reduce_max %x {axis = 1 : i32} : (tensor<13x37xf32>) -> tensor<13x1xf32>
  %out_shifted = tosa.sub %x, %out_max : (tensor<13x37xf32>, tensor<13x1xf32>) -> tensor<13x37xf32>
  %out_exp = tosa.exp %out_shifted : (tensor<13x37xf32>) -> tensor<13x37xf32>
  %out_sum = tosa.reduce_sum %out_exp {axis = 1 : i32} : (tensor<13x37xf32>) -> tensor<13x1xf32>
  %out_inv = tosa.reciprocal %out_sum : (tensor<13x1xf32>) -> tensor<13x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %out = tosa.mul %out_exp, %out_inv, %shift : (tensor<13x37xf32>, tensor<13x1xf32>, tensor<1xi8>) -> tensor<13x37xf32>
  return %out : tensor<13x37xf32>
}
