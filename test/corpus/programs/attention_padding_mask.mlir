// Attention with a key padding mask of 0/1 (HF attention_mask), f32:
// scores.masked_fill(mask == 0, finfo.min), as equal + select.
// Q (2, 5, 16), K, V (2, 13, 16), mask (1, 13) of 0/1.
// input %mask: choice(0, 1)
func.func @attention_padding_mask(%q: tensor<2x5x16xf32>, %k: tensor<2x13x16xf32>, %v: tensor<2x13x16xf32>, %mask: tensor<1x13xf32>) -> tensor<2x5x16xf32> {
  %k_t = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x13x16xf32>) -> tensor<2x16x13xf32>
  %zp_f32 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %qk = tosa.matmul %q, %k_t, %zp_f32, %zp_f32 : (tensor<2x5x16xf32>, tensor<2x16x13xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x13xf32>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scores = tosa.mul %qk, %scale, %shift : (tensor<2x5x13xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x5x13xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 13]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %mask3 = tosa.reshape %mask, %shape : (tensor<1x13xf32>, !tosa.shape<3>) -> tensor<1x1x13xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %is_pad = tosa.equal %mask3, %zero : (tensor<1x1x13xf32>, tensor<1x1x1xf32>) -> tensor<1x1x13xi1>
  %min_f32 = "tosa.const"() <{values = dense<-3.4028235e+38> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %masked = tosa.select %is_pad, %min_f32, %scores : (tensor<1x1x13xi1>, tensor<1x1x1xf32>, tensor<2x5x13xf32>) -> tensor<2x5x13xf32>
  %probs_max = tosa.reduce_max %masked {axis = 2 : i32} : (tensor<2x5x13xf32>) -> tensor<2x5x1xf32>
  %probs_shifted = tosa.sub %masked, %probs_max : (tensor<2x5x13xf32>, tensor<2x5x1xf32>) -> tensor<2x5x13xf32>
  %probs_exp = tosa.exp %probs_shifted : (tensor<2x5x13xf32>) -> tensor<2x5x13xf32>
  %probs_sum = tosa.reduce_sum %probs_exp {axis = 2 : i32} : (tensor<2x5x13xf32>) -> tensor<2x5x1xf32>
  %probs_inv = tosa.reciprocal %probs_sum : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %probs = tosa.mul %probs_exp, %probs_inv, %shift : (tensor<2x5x13xf32>, tensor<2x5x1xf32>, tensor<1xi8>) -> tensor<2x5x13xf32>
  %out = tosa.matmul %probs, %v, %zp_f32, %zp_f32 : (tensor<2x5x13xf32>, tensor<2x13x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x16xf32>
  return %out : tensor<2x5x16xf32>
}
