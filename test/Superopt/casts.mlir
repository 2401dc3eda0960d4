// A program with casts holds values of more than one element type, which
// no candidate does: the casts stay kernels of their own and the search
// takes each segment of one element type between them (step 11).
// RUN: tileopt-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=1 time-budget=900}))' \
// RUN:   | FileCheck %s

// An f16 softmax computed in f32: the upcast and the downcast are kept,
// the f32 softmax between them is fused, though it reads one argument
// alone (what is computed from a cast is the program's work, not a
// weight's preparation).
// CHECK-LABEL: func.func @softmax_upcast
// CHECK:       tk.map
// CHECK:         arith.extf
// CHECK:       tk.fused
// CHECK-NOT:   tk.reduce
// CHECK:       tk.map
// CHECK:         arith.truncf
// CHECK:       return
func.func @softmax_upcast(%x: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %0 = tk.map (%a = %x : tensor<16x64xf16>) -> tensor<16x64xf32> {
    %w = arith.extf %a : f16 to f32
    tk.yield %w : f32
  }
  %1 = tk.reduce max %0 dim 1 : tensor<16x64xf32> -> tensor<16x1xf32>
  %2 = tk.binary sub %0, %1 : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
  %3 = tk.unary exp %2 : tensor<16x64xf32>
  %4 = tk.reduce sum %3 dim 1 : tensor<16x64xf32> -> tensor<16x1xf32>
  %5 = tk.binary div %3, %4 : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
  %6 = tk.map (%a = %5 : tensor<16x64xf32>) -> tensor<16x64xf16> {
    %n = arith.truncf %a : f32 to f16
    tk.yield %n : f16
  }
  return %6 : tensor<16x64xf16>
}

// -----

// A Hugging Face RMSNorm: the f32 norm of the upcast x, cast down, times
// an f16 weight. Both segments are searched: the norm's ops are fused
// (tk.rms_norm's rows in one kernel), and so is the weight's product.
// CHECK-LABEL: func.func @rms_norm_upcast
// CHECK:       tk.map
// CHECK:         arith.extf
// CHECK:       tk.fused
// CHECK-NOT:   tk.rms_norm
// CHECK:       tk.map
// CHECK:         arith.truncf
// CHECK:       tk.fused
// CHECK-NOT:   tk.binary
// CHECK:       return
func.func @rms_norm_upcast(%x: tensor<16x64xf16>, %w: tensor<1x64xf16>) -> tensor<16x64xf16> {
  %0 = tk.map (%a = %x : tensor<16x64xf16>) -> tensor<16x64xf32> {
    %e = arith.extf %a : f16 to f32
    tk.yield %e : f32
  }
  %1 = tk.rms_norm %0 {epsilon = 1.0e-06 : f32} : tensor<16x64xf32>
  %2 = tk.unary exp %1 : tensor<16x64xf32>
  %3 = tk.map (%a = %2 : tensor<16x64xf32>) -> tensor<16x64xf16> {
    %n = arith.truncf %a : f32 to f16
    tk.yield %n : f16
  }
  %4 = tk.binary mul %3, %w : tensor<16x64xf16>, tensor<1x64xf16> -> tensor<16x64xf16>
  return %4 : tensor<16x64xf16>
}

// -----

// Nothing but a cast: no segment to search, and the remark says why.
// CHECK-LABEL: func.func @cast_alone
// CHECK: tk.map
func.func @cast_alone(%x: tensor<16x64xf16>) -> tensor<16x64xf32> {
  // expected-remark @+1 {{the superoptimizer needs one element type, got 'f16' and 'f32'}}
  %0 = tk.map (%a = %x : tensor<16x64xf16>) -> tensor<16x64xf32> {
    %w = arith.extf %a : f16 to f32
    tk.yield %w : f32
  }
  return %0 : tensor<16x64xf32>
}
