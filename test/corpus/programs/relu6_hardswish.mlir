// ReLU6 and hard-swish (MobileNet), f32, via tosa.clamp:
// relu6 = clamp(x, 0, 6); hardswish = x * clamp(x + 3, 0, 6) * (1/6). x (37, 13).
// input %x: uniform(-8, 8)
func.func @relu6_hardswish(%x: tensor<37x13xf32>) -> (tensor<37x13xf32>, tensor<37x13xf32>) {
  %relu6 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<37x13xf32>) -> tensor<37x13xf32>
  %three = "tosa.const"() <{values = dense<3.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %x_plus_3 = tosa.add %x, %three : (tensor<37x13xf32>, tensor<1x1xf32>) -> tensor<37x13xf32>
  %gate = tosa.clamp %x_plus_3 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<37x13xf32>) -> tensor<37x13xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %x_gate = tosa.mul %x, %gate, %shift : (tensor<37x13xf32>, tensor<37x13xf32>, tensor<1xi8>) -> tensor<37x13xf32>
  %sixth = "tosa.const"() <{values = dense<0.16666667> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %hardswish = tosa.mul %x_gate, %sixth, %shift : (tensor<37x13xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<37x13xf32>
  return %relu6, %hardswish : tensor<37x13xf32>, tensor<37x13xf32>
}
