// LayerNorm over the last dim with mean, variance, gamma and beta, eps 1e-5,
// f32 (torch-mlir: mean as sum * reciprocal(n)). x (13, 37), gamma, beta (37,).
func.func @layernorm(%x: tensor<13x37xf32>, %gamma: tensor<37xf32>, %beta: tensor<37xf32>) -> tensor<13x37xf32> {
  %n = "tosa.const"() <{values = dense<37.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %inv_n = tosa.reciprocal %n : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %x_sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<13x37xf32>) -> tensor<13x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mean = tosa.mul %x_sum, %inv_n, %shift : (tensor<13x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<13x1xf32>
  %centered = tosa.sub %x, %mean : (tensor<13x37xf32>, tensor<13x1xf32>) -> tensor<13x37xf32>
  %centered_sq = tosa.mul %centered, %centered, %shift : (tensor<13x37xf32>, tensor<13x37xf32>, tensor<1xi8>) -> tensor<13x37xf32>
  %var_sum = tosa.reduce_sum %centered_sq {axis = 1 : i32} : (tensor<13x37xf32>) -> tensor<13x1xf32>
  %var = tosa.mul %var_sum, %inv_n, %shift : (tensor<13x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<13x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %var_eps = tosa.add %var, %eps : (tensor<13x1xf32>, tensor<1x1xf32>) -> tensor<13x1xf32>
  %inv_std = tosa.rsqrt %var_eps : (tensor<13x1xf32>) -> tensor<13x1xf32>
  %normed = tosa.mul %centered, %inv_std, %shift : (tensor<13x37xf32>, tensor<13x1xf32>, tensor<1xi8>) -> tensor<13x37xf32>
  %shape = tosa.const_shape {values = dense<[1, 37]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %gamma2d = tosa.reshape %gamma, %shape : (tensor<37xf32>, !tosa.shape<2>) -> tensor<1x37xf32>
  %scaled = tosa.mul %normed, %gamma2d, %shift : (tensor<13x37xf32>, tensor<1x37xf32>, tensor<1xi8>) -> tensor<13x37xf32>
  %shape_1 = tosa.const_shape {values = dense<[1, 37]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %beta2d = tosa.reshape %beta, %shape_1 : (tensor<37xf32>, !tosa.shape<2>) -> tensor<1x37xf32>
  %out = tosa.add %scaled, %beta2d : (tensor<13x37xf32>, tensor<1x37xf32>) -> tensor<13x37xf32>
  return %out : tensor<13x37xf32>
}
