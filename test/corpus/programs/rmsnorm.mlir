// RMSNorm with weight and eps (TF/ONNX style, f32): x * rsqrt(mean(x^2) + 1e-6) * w.
// x (6, 64), w (64,) reshaped to (1, 64) for the broadcast.
func.func @rmsnorm(%x: tensor<6x64xf32>, %weight: tensor<64xf32>) -> tensor<6x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %normed_sq = tosa.mul %x, %x, %shift : (tensor<6x64xf32>, tensor<6x64xf32>, tensor<1xi8>) -> tensor<6x64xf32>
  %normed_ms_sum = tosa.reduce_sum %normed_sq {axis = 1 : i32} : (tensor<6x64xf32>) -> tensor<6x1xf32>
  %inv_n = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %normed_ms = tosa.mul %normed_ms_sum, %inv_n, %shift : (tensor<6x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<6x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %normed_ms_eps = tosa.add %normed_ms, %eps : (tensor<6x1xf32>, tensor<1x1xf32>) -> tensor<6x1xf32>
  %normed_inv = tosa.rsqrt %normed_ms_eps : (tensor<6x1xf32>) -> tensor<6x1xf32>
  %normed = tosa.mul %x, %normed_inv, %shift : (tensor<6x64xf32>, tensor<6x1xf32>, tensor<1xi8>) -> tensor<6x64xf32>
  %shape = tosa.const_shape {values = dense<[1, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %weight2d = tosa.reshape %weight, %shape : (tensor<64xf32>, !tosa.shape<2>) -> tensor<1x64xf32>
  %out = tosa.mul %normed, %weight2d, %shift : (tensor<6x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<6x64xf32>
  return %out : tensor<6x64xf32>
}
