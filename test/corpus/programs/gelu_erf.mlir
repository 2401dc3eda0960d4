// GELU, exact (erf) form, f32: 0.5 * x * (1 + erf(x * 1/sqrt(2))). x (13, 37).
func.func @gelu_erf(%x: tensor<13x37xf32>) -> tensor<13x37xf32> {
  %inv_sqrt2 = "tosa.const"() <{values = dense<0.70710677> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %x_scaled = tosa.mul %x, %inv_sqrt2, %shift : (tensor<13x37xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<13x37xf32>
  %erf = tosa.erf %x_scaled : (tensor<13x37xf32>) -> tensor<13x37xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %one_plus = tosa.add %erf, %one : (tensor<13x37xf32>, tensor<1x1xf32>) -> tensor<13x37xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %half_x = tosa.mul %x, %half, %shift : (tensor<13x37xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<13x37xf32>
  %out = tosa.mul %half_x, %one_plus, %shift : (tensor<13x37xf32>, tensor<13x37xf32>, tensor<1xi8>) -> tensor<13x37xf32>
  return %out : tensor<13x37xf32>
}
