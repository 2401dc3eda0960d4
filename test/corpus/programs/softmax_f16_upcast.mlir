// softmax(x, dim=-1, dtype=torch.float32).to(torch.float16) on fp16 x: cast
// f16 -> f32, softmax in f32, cast back. x (6, 37).
// input %x: uniform(-4, 4)
func.func @softmax_f16_upcast(%x: tensor<6x37xf16>) -> tensor<6x37xf16> {
  %x_f32 = tosa.cast %x : (tensor<6x37xf16>) -> tensor<6x37xf32>
  %probs_max = tosa.reduce_max %x_f32 {axis = 1 : i32} : (tensor<6x37xf32>) -> tensor<6x1xf32>
  %probs_shifted = tosa.sub %x_f32, %probs_max : (tensor<6x37xf32>, tensor<6x1xf32>) -> tensor<6x37xf32>
  %probs_exp = tosa.exp %probs_shifted : (tensor<6x37xf32>) -> tensor<6x37xf32>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 1 : i32} : (tensor<6x37xf32>) -> tensor<6x1xf32>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<6x1xf32>) -> tensor<6x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<6x37xf32>, tensor<6x1xf32>, tensor<1xi8>) -> tensor<6x37xf32>
  %out = tosa.cast %probs : (tensor<6x37xf32>) -> tensor<6x37xf16>
  return %out : tensor<6x37xf16>
}
