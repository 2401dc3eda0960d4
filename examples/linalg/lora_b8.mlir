// lora (BENCHMARKS.md) at b=8: X @ W + (X @ A) @ B,
// X (128, 256), W (256, 4096), A (256, 16), B (16, 4096), fp16.
func.func @lora(%x: tensor<128x256xf16>, %w: tensor<256x4096xf16>, %a: tensor<256x16xf16>, %b: tensor<16x4096xf16>) -> tensor<128x4096xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x4096xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<128x4096xf16>) -> tensor<128x4096xf16>
  %xw = linalg.matmul ins(%x, %w : tensor<128x256xf16>, tensor<256x4096xf16>)
                      outs(%init : tensor<128x4096xf16>) -> tensor<128x4096xf16>
  %er = tensor.empty() : tensor<128x16xf16>
  %rinit = linalg.fill ins(%zero : f16) outs(%er : tensor<128x16xf16>) -> tensor<128x16xf16>
  %xa = linalg.matmul ins(%x, %a : tensor<128x256xf16>, tensor<256x16xf16>)
                      outs(%rinit : tensor<128x16xf16>) -> tensor<128x16xf16>
  %xab = linalg.matmul ins(%xa, %b : tensor<128x16xf16>, tensor<16x4096xf16>)
                       outs(%init : tensor<128x4096xf16>) -> tensor<128x4096xf16>
  %y = linalg.add ins(%xw, %xab : tensor<128x4096xf16>, tensor<128x4096xf16>)
                  outs(%e : tensor<128x4096xf16>) -> tensor<128x4096xf16>
  return %y : tensor<128x4096xf16>
}
