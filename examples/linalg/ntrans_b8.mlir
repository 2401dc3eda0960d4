// ntrans (BENCHMARKS.md) at b=8: rms_norm(X + rms_norm(Y @ W)),
// X, Y (64, 4096), W (4096, 4096), fp16. The inner rms_norm divides by the
// root (x / sqrt(mean(x^2) + eps)); the outer one is written op by op with
// a keepdim sum ((d0, d1) -> (d0, 0)) and the residual add fused into the
// op that squares.
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
#vec = affine_map<(d0) -> (d0)>

func.func @ntrans(%x: tensor<64x4096xf16>, %y: tensor<64x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<64x4096xf16> {
  %zero = arith.constant 0.0 : f16
  %eps = arith.constant 1.0e-5 : f16
  %e = tensor.empty() : tensor<64x4096xf16>
  %e8 = tensor.empty() : tensor<64xf16>
  %e81 = tensor.empty() : tensor<64x1xf16>

  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<64x4096xf16>) -> tensor<64x4096xf16>
  %yw = linalg.matmul ins(%y, %w : tensor<64x4096xf16>, tensor<4096x4096xf16>)
                      outs(%init : tensor<64x4096xf16>) -> tensor<64x4096xf16>

  // Inner rms_norm.
  %sinit = linalg.fill ins(%zero : f16) outs(%e8 : tensor<64xf16>) -> tensor<64xf16>
  %ss = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
          ins(%yw : tensor<64x4096xf16>) outs(%sinit : tensor<64xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %sq = arith.mulf %a, %a : f16
    %t = arith.addf %acc, %sq : f16
    linalg.yield %t : f16
  } -> tensor<64xf16>
  %rms = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
           ins(%ss : tensor<64xf16>) outs(%e8 : tensor<64xf16>) {
  ^bb0(%s: f16, %out: f16):
    %n = arith.constant 4096.0 : f16
    %m = arith.divf %s, %n : f16
    %p = arith.addf %m, %eps : f16
    %r = math.sqrt %p : f16
    linalg.yield %r : f16
  } -> tensor<64xf16>
  // h = x + yw / rms, and h^2 for the outer norm.
  %h = linalg.generic {indexing_maps = [#id, #id, #rows, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x, %yw, %rms : tensor<64x4096xf16>, tensor<64x4096xf16>, tensor<64xf16>) outs(%e : tensor<64x4096xf16>) {
  ^bb0(%a: f16, %b: f16, %r: f16, %out: f16):
    %nb = arith.divf %b, %r : f16
    %t = arith.addf %a, %nb : f16
    linalg.yield %t : f16
  } -> tensor<64x4096xf16>

  // Outer rms_norm.
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%h : tensor<64x4096xf16>) outs(%e : tensor<64x4096xf16>) {
  ^bb0(%a: f16, %out: f16):
    %two = arith.constant 2.0 : f16
    %p = math.powf %a, %two : f16
    linalg.yield %p : f16
  } -> tensor<64x4096xf16>
  %kinit = linalg.fill ins(%zero : f16) outs(%e81 : tensor<64x1xf16>) -> tensor<64x1xf16>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]}
           ins(%sq : tensor<64x4096xf16>) outs(%kinit : tensor<64x1xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %t = arith.addf %a, %acc : f16
    linalg.yield %t : f16
  } -> tensor<64x1xf16>
  %inv = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
           ins(%sum : tensor<64x1xf16>) outs(%e81 : tensor<64x1xf16>) {
  ^bb0(%s: f16, %out: f16):
    %inv_n = arith.constant 2.44140625E-4 : f16
    %m = arith.mulf %s, %inv_n : f16
    %p = arith.addf %m, %eps : f16
    %r = math.rsqrt %p : f16
    linalg.yield %r : f16
  } -> tensor<64x1xf16>
  %out = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]}
           ins(%h, %inv : tensor<64x4096xf16>, tensor<64x1xf16>) outs(%e : tensor<64x4096xf16>) {
  ^bb0(%a: f16, %r: f16, %o: f16):
    %t = arith.mulf %a, %r : f16
    linalg.yield %t : f16
  } -> tensor<64x4096xf16>
  return %out : tensor<64x4096xf16>
}
