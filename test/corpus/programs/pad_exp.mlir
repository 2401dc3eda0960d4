// exp of x padded with -1: one row above, two columns left and three right
// (tosa.pad), f32. x (6, 37).
func.func @pad_exp(%x: tensor<6x37xf32>) -> tensor<7x42xf32> {
  %padding = tosa.const_shape {values = dense<[1, 0, 2, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %padded_value = "tosa.const"() <{values = dense<-1.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %padded = tosa.pad %x, %padding, %padded_value : (tensor<6x37xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<7x42xf32>
  %out = tosa.exp %padded : (tensor<7x42xf32>) -> tensor<7x42xf32>
  return %out : tensor<7x42xf32>
}
