// gqa_decode (BENCHMARKS.md) at b=8: softmax(Q @ K) @ V,
// Q (16, 256, 64), K (16, 64, 4096), V (16, 4096, 64), fp16.
func.func @gqa_decode(%q: tensor<16x256x64xf16>, %k: tensor<16x64x4096xf16>, %v: tensor<16x4096x64xf16>) -> tensor<16x256x64xf16> {
  %zero = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<16x256x4096xf16>
  %sinit = linalg.fill ins(%zero : f16) outs(%es : tensor<16x256x4096xf16>) -> tensor<16x256x4096xf16>
  %s = linalg.batch_matmul ins(%q, %k : tensor<16x256x64xf16>, tensor<16x64x4096xf16>)
                           outs(%sinit : tensor<16x256x4096xf16>) -> tensor<16x256x4096xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<16x256x4096xf16>)
                                   outs(%es : tensor<16x256x4096xf16>) -> tensor<16x256x4096xf16>
  %eo = tensor.empty() : tensor<16x256x64xf16>
  %oinit = linalg.fill ins(%zero : f16) outs(%eo : tensor<16x256x64xf16>) -> tensor<16x256x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<16x256x4096xf16>, tensor<16x4096x64xf16>)
                           outs(%oinit : tensor<16x256x64xf16>) -> tensor<16x256x64xf16>
  return %o : tensor<16x256x64xf16>
}
