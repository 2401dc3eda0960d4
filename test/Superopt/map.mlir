// Scalar code the importer leaves as tk.map (a sigmoid written out, a clamp)
// is searched: an uninterpreted function of its operands, placed where
// elementwise ops go, as a th.graph of its region inside a fused kernel.
// The chosen µGraph lowers to tile kernels with the map's scalar code.
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=1 time-budget=900 graph-budget=4000000}))' \
// RUN:   | FileCheck %s
// RUN: tileopt-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=1 time-budget=900 graph-budget=4000000}),tileopt-lower-ugraph)' \
// RUN:   | FileCheck %s --check-prefix=TILE

// silu(X W1) * (X W2) with the sigmoid as scalar code in f32: one kernel,
// both products and the map in each block.
// CHECK-LABEL: func.func @gated_mlp_sigmoid_map
// CHECK-NOT: tk.matmul
// CHECK: tk.fused grid [16, 1, 1]
// CHECK-COUNT-2: tb.matmul
// CHECK: th.graph
// CHECK: math.exp
// CHECK: th.yield
// CHECK-COUNT-2: tb.binary mul
// CHECK-NOT: tk.
// CHECK: return
// TILE-LABEL: tile.kernel @gated_mlp_sigmoid_map_k0
// TILE-COUNT-2: tile.mma
// TILE: math.exp
// TILE-NOT: tile.kernel
// TILE: func.func @gated_mlp_sigmoid_map
// TILE-COUNT-1: tile.launch
// TILE-NOT: tile.launch
func.func @gated_mlp_sigmoid_map(%x: tensor<16x256xf16>, %w1: tensor<256x256xf16>,
                                 %w2: tensor<256x256xf16>) -> tensor<16x256xf16> {
  %0 = tk.matmul %x, %w1 : tensor<16x256xf16>, tensor<256x256xf16> -> tensor<16x256xf16>
  %1 = tk.matmul %x, %w2 : tensor<16x256xf16>, tensor<256x256xf16> -> tensor<16x256xf16>
  %s = tk.map (%a = %0 : tensor<16x256xf16>) -> tensor<16x256xf16> {
    %w = arith.extf %a : f16 to f32
    %one = arith.constant 1.0 : f32
    %n = arith.negf %w : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %r = arith.divf %one, %d : f32
    %t = arith.truncf %r : f32 to f16
    tk.yield %t : f16
  }
  %g = tk.binary mul %0, %s : tensor<16x256xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  %o = tk.binary mul %g, %1 : tensor<16x256xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  return %o : tensor<16x256xf16>
}

// -----

// relu6 and hardswish as tosa-to-linalg leaves them: min(x, 6) twice, one
// function applied to two operands. Both maps go into fused kernels.
// CHECK-LABEL: func.func @relu6_hardswish
// CHECK-NOT: tk.map
// CHECK: tk.fused
// CHECK: th.graph
// CHECK: arith.minimumf
// CHECK: th.graph
// CHECK: arith.minimumf
// CHECK-NOT: tk.map
// CHECK: return
// TILE-LABEL: tile.kernel @relu6_hardswish_k0
// TILE: arith.minimumf
func.func @relu6_hardswish(%x: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  %0 = tk.map (%a = %x : tensor<32x64xf32>) -> tensor<32x64xf32> {
    %six = arith.constant 6.0 : f32
    %m = arith.minimumf %a, %six : f32
    tk.yield %m : f32
  }
  %1 = tk.unary relu %0 : tensor<32x64xf32>
  %2 = tk.unary add_scalar(3.0) %x : tensor<32x64xf32>
  %3 = tk.map (%b = %2 : tensor<32x64xf32>) -> tensor<32x64xf32> {
    %six = arith.constant 6.0 : f32
    %m = arith.minimumf %b, %six : f32
    tk.yield %m : f32
  }
  %4 = tk.unary relu %3 : tensor<32x64xf32>
  %5 = tk.binary mul %x, %4 : tensor<32x64xf32>, tensor<32x64xf32> -> tensor<32x64xf32>
  %6 = tk.unary mul_scalar(0.166666672) %5 : tensor<32x64xf32>
  return %1, %6 : tensor<32x64xf32>, tensor<32x64xf32>
}
