// status: fixed
// timeout: 20
// compile-args: --search-threads=1 --time-budget=5
// Found by test/random/run.py --seed=2 (program 146, an RMSNorm without the
// mean over a unit dim, times a scalar gamma and x), minimized by hand.
//
// Symptom: tileopt-compile --emit=tile --search-threads=1 --time-budget=5
// does not stop: after about 2 s the search's explored count stops growing
// while its memory grows (250 MB at 5 s, 380 MB at 30 s, 550 MB at 40 s);
// killed after 180 s. In lib/Superopt/Search.cpp, searchCandidates' callback
// of enumerateKernelGraphs materializes and prices every combination of the
// fused kernels' block graphs (the `choices` odometer) and keeps each one in
// `candidates`, without looking at progress.deadline or the graph budget;
// with several fused kernels the product of their block-graph counts is
// huge. (With 3 elementwise ops, exp, x * e * g * x, it ends, after 11.6 s
// on a 2 s budget.)
//
// Fixed: the combination loop checks SearchProgress::expired() per
// combination; the command above ends after 5.4 s (2026-12-06).
func.func @search_ignores_time_budget(%x: tensor<4x17xf32>, %g: tensor<1x1xf32>) -> tensor<4x17xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sq = tosa.mul %x, %x, %shift : (tensor<4x17xf32>, tensor<4x17xf32>, tensor<1xi8>) -> tensor<4x17xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %add = tosa.add %sq, %eps : (tensor<4x17xf32>, tensor<1x1xf32>) -> tensor<4x17xf32>
  %rsqrt = tosa.rsqrt %add : (tensor<4x17xf32>) -> tensor<4x17xf32>
  %m1 = tosa.mul %x, %rsqrt, %shift : (tensor<4x17xf32>, tensor<4x17xf32>, tensor<1xi8>) -> tensor<4x17xf32>
  %m2 = tosa.mul %m1, %g, %shift : (tensor<4x17xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x17xf32>
  %m3 = tosa.mul %m2, %x, %shift : (tensor<4x17xf32>, tensor<4x17xf32>, tensor<1xi8>) -> tensor<4x17xf32>
  return %m3 : tensor<4x17xf32>
}
