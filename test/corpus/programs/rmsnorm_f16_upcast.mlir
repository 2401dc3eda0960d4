// HF LlamaRMSNorm on fp16 activations, one row (decode), prime width:
// h = x.to(f32); var = h.pow(2).mean(-1, keepdim); h = h * rsqrt(var + 1e-6);
// out = weight * h.to(f16). torch-mlir writes pow(h, 2) and the mean's 1/n as
// reciprocal(n) * sum. x (1, 37) f16, weight (37,) f16.
func.func @rmsnorm_f16_upcast(%hidden: tensor<1x37xf16>, %weight: tensor<37xf16>) -> tensor<1x37xf16> {
  %h = tosa.cast %hidden : (tensor<1x37xf16>) -> tensor<1x37xf32>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %h_pow2 = tosa.pow %h, %two : (tensor<1x37xf32>, tensor<1x1xf32>) -> tensor<1x37xf32>
  %h_pow2_sum = tosa.reduce_sum %h_pow2 {axis = 1 : i32} : (tensor<1x37xf32>) -> tensor<1x1xf32>
  %n = "tosa.const"() <{values = dense<37.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %inv_n = tosa.reciprocal %n : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %variance = tosa.mul %h_pow2_sum, %inv_n, %shift : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %var_eps = tosa.add %variance, %eps : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %inv_rms = tosa.rsqrt %var_eps : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %h_normed = tosa.mul %h, %inv_rms, %shift : (tensor<1x37xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x37xf32>
  %h_f16 = tosa.cast %h_normed : (tensor<1x37xf32>) -> tensor<1x37xf16>
  %shape = tosa.const_shape {values = dense<[1, 37]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %weight2d = tosa.reshape %weight, %shape : (tensor<37xf16>, !tosa.shape<2>) -> tensor<1x37xf16>
  %out = tosa.mul %weight2d, %h_f16, %shift : (tensor<1x37xf16>, tensor<1x37xf16>, tensor<1xi8>) -> tensor<1x37xf16>
  return %out : tensor<1x37xf16>
}
