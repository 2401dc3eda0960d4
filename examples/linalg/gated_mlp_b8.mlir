// gated_mlp (BENCHMARKS.md) at b=8: silu(X @ W1) * (X @ W2),
// X (64, 4096), W1, W2 (4096, 4096), fp16. The gate is one generic with
// silu written out as x * sigmoid(x), as a fusing front end emits it.
#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @gated_mlp(%x: tensor<64x4096xf16>, %w1: tensor<4096x4096xf16>, %w2: tensor<4096x4096xf16>) -> tensor<64x4096xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64x4096xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<64x4096xf16>) -> tensor<64x4096xf16>
  %a = linalg.matmul ins(%x, %w1 : tensor<64x4096xf16>, tensor<4096x4096xf16>)
                     outs(%init : tensor<64x4096xf16>) -> tensor<64x4096xf16>
  %b = linalg.matmul ins(%x, %w2 : tensor<64x4096xf16>, tensor<4096x4096xf16>)
                     outs(%init : tensor<64x4096xf16>) -> tensor<64x4096xf16>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a, %b : tensor<64x4096xf16>, tensor<64x4096xf16>) outs(%e : tensor<64x4096xf16>) {
  ^bb0(%g: f16, %u: f16, %out: f16):
    %one = arith.constant 1.0 : f16
    %neg = arith.negf %g : f16
    %exp = math.exp %neg : f16
    %den = arith.addf %exp, %one : f16
    %sig = arith.divf %one, %den : f16
    %silu = arith.mulf %g, %sig : f16
    %prod = arith.mulf %silu, %u : f16
    linalg.yield %prod : f16
  } -> tensor<64x4096xf16>
  return %y : tensor<64x4096xf16>
}
