// A tk.map is priced as the lowering tiles it, its elements computed in a
// th.graph: tileopt-estimate-cost loads the th dialect for it. Without, the
// th.graph was created as an unregistered op and the pass crashed on every
// tk.map (found by test/fuzz/fuzz.py, issue 28).
// RUN: tileopt-opt %s --tileopt-estimate-cost -split-input-file \
// RUN:   -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s

// CHECK: estimate-cost-map.mlir:[[# @LINE + 2]]:8: remark: estimated on H200: {{.*}} blocks 1
func.func @copy(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %0 = tk.map (%a = %x : tensor<8x64xf16>) -> tensor<8x64xf16> {
    tk.yield %a : f16
  }
  return %0 : tensor<8x64xf16>
}
// CHECK: remark: estimated on H200: {{.*}} in 1 kernel(s)

// -----

// Mixed element types and a broadcast operand.
// CHECK: estimate-cost-map.mlir:[[# @LINE + 2]]:8: remark: estimated on H200:
func.func @masked(%x: tensor<8x64xf16>, %y: tensor<64xf32>) -> tensor<8x64xf16> {
  %0 = tk.map (%a = %x : tensor<8x64xf16>, %b = %y : tensor<64xf32>) -> tensor<8x64xf16> {
    %w = arith.extf %a : f16 to f32
    %c = arith.cmpf ogt, %w, %b : f32
    %s = arith.select %c, %w, %b : f32
    %t = arith.truncf %s : f32 to f16
    tk.yield %t : f16
  }
  return %0 : tensor<8x64xf16>
}
// CHECK: remark: estimated on H200: {{.*}} in 1 kernel(s)

// -----

// A map the lowering's tiling does not take (a broadcast of rank 6, as the
// importer writes mla_decode's latent cache for every head) is priced as
// an elementwise kernel spread evenly over the SMs.
// CHECK: estimate-cost-map.mlir:[[# @LINE + 2]]:8: remark: estimated on H200:
func.func @broadcast(%c: tensor<1x1x1x37x1x24xf16>) -> tensor<3x1x1x37x1x24xf16> {
  %0 = tk.map (%a = %c : tensor<1x1x1x37x1x24xf16>) -> tensor<3x1x1x37x1x24xf16> {
    tk.yield %a : f16
  }
  return %0 : tensor<3x1x1x37x1x24xf16>
}
// CHECK: remark: estimated on H200: {{.*}} in 1 kernel(s)
