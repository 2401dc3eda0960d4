// rmsnorm_linear (BENCHMARKS.md) at b=8: rms_norm(X) @ W,
// X (16, 4096), W (4096, 6144), fp16, written the way torch-mlir lowers
// `x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) @ w`: one
// structured op per torch op, broadcasts in the indexing maps.
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#row_only = affine_map<(d0) -> (d0)>

func.func @rmsnorm_linear(%x: tensor<16x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<16x6144xf16> {
  %zero = arith.constant 0.0 : f16
  %inv_n = arith.constant 2.44140625E-4 : f16
  %eps = arith.constant 1.0e-5 : f16
  %e = tensor.empty() : tensor<16x4096xf16>
  %e2 = tensor.empty() : tensor<16xf16>

  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%x : tensor<16x4096xf16>) outs(%e : tensor<16x4096xf16>) {
  ^bb0(%a: f16, %out: f16):
    %p = arith.mulf %a, %a : f16
    linalg.yield %p : f16
  } -> tensor<16x4096xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e2 : tensor<16xf16>) -> tensor<16xf16>
  %sum = linalg.reduce ins(%sq : tensor<16x4096xf16>) outs(%init : tensor<16xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %t = arith.addf %in, %acc : f16
      linalg.yield %t : f16
    }
  %inv_rms = linalg.generic {indexing_maps = [#row_only, #row_only], iterator_types = ["parallel"]}
               ins(%sum : tensor<16xf16>) outs(%e2 : tensor<16xf16>) {
  ^bb0(%s: f16, %out: f16):
    %mean = arith.mulf %s, %inv_n : f16
    %plus = arith.addf %mean, %eps : f16
    %r = math.rsqrt %plus : f16
    linalg.yield %r : f16
  } -> tensor<16xf16>
  %normed = linalg.generic {indexing_maps = [#id, #rows, #id], iterator_types = ["parallel", "parallel"]}
              ins(%x, %inv_rms : tensor<16x4096xf16>, tensor<16xf16>) outs(%e : tensor<16x4096xf16>) {
  ^bb0(%a: f16, %r: f16, %out: f16):
    %t = arith.mulf %a, %r : f16
    linalg.yield %t : f16
  } -> tensor<16x4096xf16>

  %eo = tensor.empty() : tensor<16x6144xf16>
  %oinit = linalg.fill ins(%zero : f16) outs(%eo : tensor<16x6144xf16>) -> tensor<16x6144xf16>
  %y = linalg.matmul ins(%normed, %w : tensor<16x4096xf16>, tensor<4096x6144xf16>)
                     outs(%oinit : tensor<16x6144xf16>) -> tensor<16x6144xf16>
  return %y : tensor<16x6144xf16>
}
