// Causal self-attention per head, f32: softmax(mask(Q K^T / sqrt(16))) V; the
// mask is select(col > row, finfo.min, scores) with the row/col ids constant
// (what torch.triu / ONNX Trilu leave after constant folding).
// Q, K, V (2, 7, 16).
func.func @attention_causal_select(%q: tensor<2x7x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>) -> tensor<2x7x16xf32> {
  %k_t = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x7x16xf32>) -> tensor<2x16x7xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %qk = tosa.matmul %q, %k_t, %zp_f32, %zp_f32 : (tensor<2x7x16xf32>, tensor<2x16x7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x7x7xf32>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scores = tosa.mul %qk, %scale, %shift : (tensor<2x7x7xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x7x7xf32>
  %row_ids = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5], [6]]]> : tensor<1x7x1xi32>}> : () -> tensor<1x7x1xi32>
  %col_ids = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5, 6]]]> : tensor<1x1x7xi32>}> : () -> tensor<1x1x7xi32>
  %future = tosa.greater %col_ids, %row_ids : (tensor<1x1x7xi32>, tensor<1x7x1xi32>) -> tensor<1x7x7xi1>
  %min_f32 = "tosa.const"() <{values = dense<-3.4028235e+38> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %masked = tosa.select %future, %min_f32, %scores : (tensor<1x7x7xi1>, tensor<1x1x1xf32>, tensor<2x7x7xf32>) -> tensor<2x7x7xf32>
  %probs_max = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<2x7x7xf32>) -> tensor<2x7x1xf32>
  %probs_shifted = tosa.sub %masked, %probs_max : (tensor<2x7x7xf32>, tensor<2x7x1xf32>) -> tensor<2x7x7xf32>
  %probs_exp = tosa.exp %probs_shifted : (tensor<2x7x7xf32>) -> tensor<2x7x7xf32>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<2x7x7xf32>) -> tensor<2x7x1xf32>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<2x7x1xf32>) -> tensor<2x7x1xf32>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<2x7x7xf32>, tensor<2x7x1xf32>, tensor<1xi8>) -> tensor<2x7x7xf32>
  %out = tosa.matmul %probs, %v, %zp_f32, %zp_f32 : (tensor<2x7x7xf32>, tensor<2x7x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x7x16xf32>
  return %out : tensor<2x7x16xf32>
}
