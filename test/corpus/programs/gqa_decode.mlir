// gqa_decode (BENCHMARKS.md): softmax(Q @ K) @ V, fp16, no scale; K stored
// transposed. Q (2, 7, 64), K (2, 64, 37), V (2, 37, 64).
func.func @gqa_decode(%q: tensor<2x7x64xf16>, %k_t: tensor<2x64x37xf16>, %v: tensor<2x37x64xf16>) -> tensor<2x7x64xf16> {
  %zp_f16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %scores = tosa.matmul %q, %k_t, %zp_f16, %zp_f16 : (tensor<2x7x64xf16>, tensor<2x64x37xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x7x37xf16>
  %probs_max = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<2x7x37xf16>) -> tensor<2x7x1xf16>
  %probs_shifted = tosa.sub %scores, %probs_max : (tensor<2x7x37xf16>, tensor<2x7x1xf16>) -> tensor<2x7x37xf16>
  %probs_exp = tosa.exp %probs_shifted : (tensor<2x7x37xf16>) -> tensor<2x7x37xf16>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<2x7x37xf16>) -> tensor<2x7x1xf16>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<2x7x1xf16>) -> tensor<2x7x1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<2x7x37xf16>, tensor<2x7x1xf16>, tensor<1xi8>) -> tensor<2x7x37xf16>
  %out = tosa.matmul %probs, %v, %zp_f16, %zp_f16 : (tensor<2x7x37xf16>, tensor<2x37x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x7x64xf16>
  return %out : tensor<2x7x64xf16>
}
