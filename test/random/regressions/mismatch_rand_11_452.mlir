// status: fixed
// compile-args: --search-threads=1 --time-budget=3
// Found by the 9,000-program campaign of 2026-12-06 (docs/reliability.md).
// Diagnosed 2026-12-07: the importer left bf16 sums as truncf(sum(extf(x))),
// as tosa-to-linalg writes them, so a mean of ones times bf16(1/129) stayed
// 0.99994 where upstream rounds to 1; a LayerNorm of that constant row
// amplified it by rsqrt(eps). Fixed by FoldWidenedSum (the sum is tk's bf16
// sum, the scaled sum a mean): now equal to upstream.
// Symptom: MISMATCH: relative error 5.19e+36 > 0.02 against upstream mlir-runner (tileopt-interp on the tile
// program), and not within the tolerance of the f32 twin either.
//
// MISMATCH: relative error 5.19e+36 > 0.02
// reproduce: test/random/run.py --seed=11 --start=452 --count=1 --compile-args='--search-threads=1 --time-budget=3'
// Random program 452 of seed 11 (test/random/generate.py), bf16:
//   reduce_max(axis 0)
//   softmax(axis 0)
//   mask argument
//   select
//   equal[1, 129]
//   select
//   add[1, 129]
//   layer_norm(axis 1, eps 1e-06)
// input %mask: choice(0, 1)
func.func @rand_11_452(%x: tensor<128x129xbf16>, %mask: tensor<1x1xbf16>, %b: tensor<1x129xbf16>, %b_1: tensor<1x129xbf16>) -> (tensor<1x129xbf16>, tensor<1x129xbf16>) {
  %rowmax = tosa.reduce_max %x {axis = 0 : i32} : (tensor<128x129xbf16>) -> tensor<1x129xbf16>
  %softmax_max = tosa.reduce_max %rowmax {axis = 0 : i32} : (tensor<1x129xbf16>) -> tensor<1x129xbf16>
  %softmax_shifted = tosa.sub %rowmax, %softmax_max : (tensor<1x129xbf16>, tensor<1x129xbf16>) -> tensor<1x129xbf16>
  %softmax_exp = tosa.exp %softmax_shifted : (tensor<1x129xbf16>) -> tensor<1x129xbf16>
  %softmax_sum = tosa.reduce_sum %softmax_exp {axis = 0 : i32} : (tensor<1x129xbf16>) -> tensor<1x129xbf16>
  %softmax_inv = tosa.reciprocal %softmax_sum : (tensor<1x129xbf16>) -> tensor<1x129xbf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %softmax = tosa.mul %softmax_exp, %softmax_inv, %shift : (tensor<1x129xbf16>, tensor<1x129xbf16>, tensor<1xi8>) -> tensor<1x129xbf16>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
  %keep = tosa.greater %mask, %half : (tensor<1x1xbf16>, tensor<1x1xbf16>) -> tensor<1x1xi1>
  %fill = "tosa.const"() <{values = dense<-1.0> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
  %select = tosa.select %keep, %softmax, %fill : (tensor<1x1xi1>, tensor<1x129xbf16>, tensor<1x1xbf16>) -> tensor<1x129xbf16>
  %w = "tosa.const"() <{values = dense<[[-0.25, 0.125, 0.75, 3.0, 0.5, 0.5, 0.5, 0.5, 0.5, -3.0, 0.25, 3.0, -0.125, 0.5, 0.25, -2.0, 2.0, -0.25, -1.0, -0.125, -3.0, -0.5, 1.5, -0.75, 0.125, 1.5, -0.5, -2.0, -1.0, 1.0, -1.0, 3.0, -0.25, -0.75, 0.75, 0.125, 1.5, 1.5, 0.75, 0.75, -3.0, 3.0, 0.5, 0.75, 0.5, 0.75, 1.0, 0.25, 1.0, 0.25, 3.0, 0.75, 2.0, 0.75, -0.125, 0.75, 1.5, -2.0, 3.0, -0.125, -0.25, -0.75, -1.5, -1.0, 0.125, 1.0, 0.25, -2.0, -0.5, -1.0, -1.0, 0.25, -1.0, 1.0, -0.5, 0.125, 0.5, -0.25, -3.0, 2.0, 0.75, -1.5, 2.0, -0.25, 1.5, -1.0, 0.5, 0.125, -0.75, -2.0, -1.5, -1.5, -0.5, -0.5, -0.25, 0.5, 0.125, -0.125, -3.0, -0.5, -0.25, 0.75, -2.0, -0.75, -0.125, -0.5, -0.25, 0.125, 2.0, 0.25, -0.75, -2.0, 0.75, 1.5, -0.75, -1.0, -0.5, -0.75, 1.0, 0.25, 1.5, 0.25, 0.75, 1.5, 0.5, 1.0, 2.0, 1.0, -0.25]]> : tensor<1x129xbf16>}> : () -> tensor<1x129xbf16>
  %equal = tosa.equal %w, %select : (tensor<1x129xbf16>, tensor<1x129xbf16>) -> tensor<1x129xi1>
  %select_1 = tosa.select %equal, %b, %select : (tensor<1x129xi1>, tensor<1x129xbf16>, tensor<1x129xbf16>) -> tensor<1x129xbf16>
  %add = tosa.add %softmax, %b_1 : (tensor<1x129xbf16>, tensor<1x129xbf16>) -> tensor<1x129xbf16>
  %mean_sum = tosa.reduce_sum %select {axis = 1 : i32} : (tensor<1x129xbf16>) -> tensor<1x1xbf16>
  %n = "tosa.const"() <{values = dense<129.0> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
  %inv_n = tosa.reciprocal %n : (tensor<1x1xbf16>) -> tensor<1x1xbf16>
  %mul = tosa.mul %mean_sum, %inv_n, %shift : (tensor<1x1xbf16>, tensor<1x1xbf16>, tensor<1xi8>) -> tensor<1x1xbf16>
  %sub = tosa.sub %select, %mul : (tensor<1x129xbf16>, tensor<1x1xbf16>) -> tensor<1x129xbf16>
  %sq = tosa.mul %sub, %sub, %shift : (tensor<1x129xbf16>, tensor<1x129xbf16>, tensor<1xi8>) -> tensor<1x129xbf16>
  %var_sum = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<1x129xbf16>) -> tensor<1x1xbf16>
  %n_1 = "tosa.const"() <{values = dense<129.0> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
  %inv_n_1 = tosa.reciprocal %n_1 : (tensor<1x1xbf16>) -> tensor<1x1xbf16>
  %mul_1 = tosa.mul %var_sum, %inv_n_1, %shift : (tensor<1x1xbf16>, tensor<1x1xbf16>, tensor<1xi8>) -> tensor<1x1xbf16>
  %eps = "tosa.const"() <{values = dense<9.98377799987793e-07> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
  %add_1 = tosa.add %mul_1, %eps : (tensor<1x1xbf16>, tensor<1x1xbf16>) -> tensor<1x1xbf16>
  %rsqrt = tosa.rsqrt %add_1 : (tensor<1x1xbf16>) -> tensor<1x1xbf16>
  %mul_2 = tosa.mul %sub, %rsqrt, %shift : (tensor<1x129xbf16>, tensor<1x1xbf16>, tensor<1xi8>) -> tensor<1x129xbf16>
  return %mul_2, %select : tensor<1x129xbf16>, tensor<1x129xbf16>
}
