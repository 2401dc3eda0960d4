// mla_decode (BENCHMARKS.md) at b=8: per head h,
// softmax(Q_h @ (C @ Wk_h)^T) @ (C @ Wv_h), Q (16, 8, 128), C (4096, 512),
// Wk, Wv (16, 512, 128), fp16, in the literal form: the projections of the
// latent cache C are contractions that broadcast C over the heads, the
// scores a batch_matmul whose indexing maps read K transposed.
#c = affine_map<(h, s, d, r) -> (s, r)>
#w = affine_map<(h, s, d, r) -> (h, r, d)>
#kv = affine_map<(h, s, d, r) -> (h, s, d)>

func.func @mla_decode(%q: tensor<16x8x128xf16>, %c: tensor<4096x512xf16>, %wk: tensor<16x512x128xf16>, %wv: tensor<16x512x128xf16>) -> tensor<16x8x128xf16> {
  %zero = arith.constant 0.0 : f16
  %ekv = tensor.empty() : tensor<16x4096x128xf16>
  %kvinit = linalg.fill ins(%zero : f16) outs(%ekv : tensor<16x4096x128xf16>) -> tensor<16x4096x128xf16>
  %k = linalg.generic {indexing_maps = [#c, #w, #kv], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
         ins(%c, %wk : tensor<4096x512xf16>, tensor<16x512x128xf16>) outs(%kvinit : tensor<16x4096x128xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %p = arith.mulf %a, %b : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  } -> tensor<16x4096x128xf16>
  %v = linalg.generic {indexing_maps = [#c, #w, #kv], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
         ins(%c, %wv : tensor<4096x512xf16>, tensor<16x512x128xf16>) outs(%kvinit : tensor<16x4096x128xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %p = arith.mulf %a, %b : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  } -> tensor<16x4096x128xf16>

  %es = tensor.empty() : tensor<16x8x4096xf16>
  %sinit = linalg.fill ins(%zero : f16) outs(%es : tensor<16x8x4096xf16>) -> tensor<16x8x4096xf16>
  %s = linalg.batch_matmul
         indexing_maps = [affine_map<(h, m, n, d) -> (h, m, d)>,
                          affine_map<(h, m, n, d) -> (h, n, d)>,
                          affine_map<(h, m, n, d) -> (h, m, n)>]
         ins(%q, %k : tensor<16x8x128xf16>, tensor<16x4096x128xf16>)
         outs(%sinit : tensor<16x8x4096xf16>) -> tensor<16x8x4096xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<16x8x4096xf16>)
                                   outs(%es : tensor<16x8x4096xf16>) -> tensor<16x8x4096xf16>
  %eo = tensor.empty() : tensor<16x8x128xf16>
  %oinit = linalg.fill ins(%zero : f16) outs(%eo : tensor<16x8x128xf16>) -> tensor<16x8x128xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<16x8x4096xf16>, tensor<16x4096x128xf16>)
                           outs(%oinit : tensor<16x8x128xf16>) -> tensor<16x8x128xf16>
  return %o : tensor<16x8x128xf16>
}
