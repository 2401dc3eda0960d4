// qknorm_attention (BENCHMARKS.md) at b=1: softmax(rms_norm(Q) @ rms_norm(K)) @ V,
// Q (2, 256, 64), K (2, 64, 4096), V (2, 4096, 64), fp16; rms_norm over the
// head dim (64) of each query and each key, as real QK-norm does: Q over its
// last dim, K (stored as K^T) over dim 1, so each key column is normalized
// on its own. Each rms_norm squares inside its reduction and scales in one
// fused op; the softmax is written out (max, exp(x - max), sum, divide) with
// the reduced dim dropped between ops.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#cols3 = affine_map<(d0, d1, d2) -> (d0, d2)>

func.func @qknorm_attention(%q: tensor<2x256x64xf16>, %k: tensor<2x64x4096xf16>, %v: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %zero = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFC00 : f16
  %eps = arith.constant 1.0e-5 : f16

  // rms_norm(Q): mean over 64 as a product with 1/64.
  %eq = tensor.empty() : tensor<2x256x64xf16>
  %eq2 = tensor.empty() : tensor<2x256xf16>
  %qinit = linalg.fill ins(%zero : f16) outs(%eq2 : tensor<2x256xf16>) -> tensor<2x256xf16>
  %qss = linalg.generic {indexing_maps = [#id3, #rows3], iterator_types = ["parallel", "parallel", "reduction"]}
           ins(%q : tensor<2x256x64xf16>) outs(%qinit : tensor<2x256xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %sq = arith.mulf %a, %a : f16
    %t = arith.addf %acc, %sq : f16
    linalg.yield %t : f16
  } -> tensor<2x256xf16>
  %qn = linalg.generic {indexing_maps = [#id3, #rows3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%q, %qss : tensor<2x256x64xf16>, tensor<2x256xf16>) outs(%eq : tensor<2x256x64xf16>) {
  ^bb0(%a: f16, %s: f16, %out: f16):
    %inv_n = arith.constant 1.5625E-2 : f16
    %m = arith.mulf %s, %inv_n : f16
    %p = arith.addf %m, %eps : f16
    %r = math.rsqrt %p : f16
    %t = arith.mulf %a, %r : f16
    linalg.yield %t : f16
  } -> tensor<2x256x64xf16>

  // rms_norm(K) over dim 1 (the head dim, per key): mean over 64 as a
  // division.
  %ek = tensor.empty() : tensor<2x64x4096xf16>
  %ek2 = tensor.empty() : tensor<2x4096xf16>
  %kinit = linalg.fill ins(%zero : f16) outs(%ek2 : tensor<2x4096xf16>) -> tensor<2x4096xf16>
  %kss = linalg.generic {indexing_maps = [#id3, #cols3], iterator_types = ["parallel", "reduction", "parallel"]}
           ins(%k : tensor<2x64x4096xf16>) outs(%kinit : tensor<2x4096xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %sq = arith.mulf %a, %a : f16
    %t = arith.addf %acc, %sq : f16
    linalg.yield %t : f16
  } -> tensor<2x4096xf16>
  %kn = linalg.generic {indexing_maps = [#id3, #cols3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%k, %kss : tensor<2x64x4096xf16>, tensor<2x4096xf16>) outs(%ek : tensor<2x64x4096xf16>) {
  ^bb0(%a: f16, %s: f16, %out: f16):
    %n = arith.constant 64.0 : f16
    %m = arith.divf %s, %n : f16
    %p = arith.addf %m, %eps : f16
    %r = math.rsqrt %p : f16
    %t = arith.mulf %a, %r : f16
    linalg.yield %t : f16
  } -> tensor<2x64x4096xf16>

  // S = Qn @ Kn, softmax over the last dim.
  %es = tensor.empty() : tensor<2x256x4096xf16>
  %es2 = tensor.empty() : tensor<2x256xf16>
  %sinit = linalg.fill ins(%zero : f16) outs(%es : tensor<2x256x4096xf16>) -> tensor<2x256x4096xf16>
  %s = linalg.batch_matmul ins(%qn, %kn : tensor<2x256x64xf16>, tensor<2x64x4096xf16>)
                           outs(%sinit : tensor<2x256x4096xf16>) -> tensor<2x256x4096xf16>
  %minit = linalg.fill ins(%ninf : f16) outs(%es2 : tensor<2x256xf16>) -> tensor<2x256xf16>
  %max = linalg.reduce ins(%s : tensor<2x256x4096xf16>) outs(%minit : tensor<2x256xf16>) dimensions = [2]
    (%in: f16, %acc: f16) {
      %t = arith.maximumf %in, %acc : f16
      linalg.yield %t : f16
    }
  %exp = linalg.generic {indexing_maps = [#id3, #rows3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
           ins(%s, %max : tensor<2x256x4096xf16>, tensor<2x256xf16>) outs(%es : tensor<2x256x4096xf16>) {
  ^bb0(%a: f16, %m: f16, %out: f16):
    %d = arith.subf %a, %m : f16
    %e = math.exp %d : f16
    linalg.yield %e : f16
  } -> tensor<2x256x4096xf16>
  %zinit = linalg.fill ins(%zero : f16) outs(%es2 : tensor<2x256xf16>) -> tensor<2x256xf16>
  %sum = linalg.reduce ins(%exp : tensor<2x256x4096xf16>) outs(%zinit : tensor<2x256xf16>) dimensions = [2]
    (%in: f16, %acc: f16) {
      %t = arith.addf %in, %acc : f16
      linalg.yield %t : f16
    }
  %p = linalg.generic {indexing_maps = [#id3, #rows3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%exp, %sum : tensor<2x256x4096xf16>, tensor<2x256xf16>) outs(%es : tensor<2x256x4096xf16>) {
  ^bb0(%a: f16, %z: f16, %out: f16):
    %d = arith.divf %a, %z : f16
    linalg.yield %d : f16
  } -> tensor<2x256x4096xf16>

  %eo = tensor.empty() : tensor<2x256x64xf16>
  %oinit = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x256x64xf16>) -> tensor<2x256x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x256x4096xf16>, tensor<2x4096x64xf16>)
                           outs(%oinit : tensor<2x256x64xf16>) -> tensor<2x256x64xf16>
  return %o : tensor<2x256x64xf16>
}
