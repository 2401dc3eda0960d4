// RUN: tileopt-opt %s -split-input-file --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// What no tk op models becomes a tk.structured, a kernel of its own, with
// a remark naming the op and the reason the patterns refused it; what no
// generic kernel can compute either (dynamic shapes, integer tensors,
// buffers, several results) stays, with a warning. The ops around either
// are imported.

// The structured op holds the generic and the empty init it writes; the
// function is a kernel graph.
// CHECK-LABEL: func.func @partial
// CHECK-NEXT:    %[[E:.*]] = tk.unary exp %arg0 : tensor<8x64xf32>
// CHECK-NEXT:    %[[T:.*]] = tk.structured (%[[A:.*]] = %[[E]] : tensor<8x64xf32>) -> tensor<8x64xf32> {
// CHECK-NEXT:      %[[EMPTY:.*]] = tensor.empty() : tensor<8x64xf32>
// CHECK-NEXT:      %[[G:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<8x64xf32>) outs(%[[EMPTY]] : tensor<8x64xf32>)
// CHECK:             linalg.index 1
// CHECK:           tk.yield %[[G]] : tensor<8x64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[N:.*]] = tk.unary neg %[[T]] : tensor<8x64xf32>
// CHECK-NEXT:    return %[[N]]
func.func @partial(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %empty = tensor.empty() : tensor<8x64xf32>
  %e = linalg.exp ins(%x : tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) -> tensor<8x64xf32>
  // expected-remark @+1 {{'linalg.generic' is a kernel of its own (tk.structured), not fused: the payload reads the iteration index (linalg.index); tk ops do not depend on where an element is}}
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%e : tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %h = arith.addf %a, %f : f32
    linalg.yield %h : f32
  } -> tensor<8x64xf32>
  %n = linalg.negf ins(%t : tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %n : tensor<8x64xf32>
}

// -----

func.func @accumulate(%a: tensor<16x256xf32>, %b: tensor<256x64xf32>, %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-remark @+1 {{'linalg.matmul' is a kernel of its own (tk.structured), not fused: accumulates into an init that is not zero; tk.matmul does not accumulate (write the addition as its own op)}}
  %r = linalg.matmul ins(%a, %b : tensor<16x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

func.func @sum_init_not_zero(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %one = arith.constant 1.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%one : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{'linalg.reduce' is a kernel of its own (tk.structured), not fused: the init of a sum must be a fill with 0, got 1.000000e+00}}
  %s = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<8xf32>
}

// -----

func.func @max_init_uninitialised(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %empty = tensor.empty() : tensor<8xf32>
  // expected-remark @+1 {{'linalg.reduce' is a kernel of its own (tk.structured), not fused: the init of a max must be a fill with -inf or -3.40282}}
  %s = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%empty : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.maximumf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<8xf32>
}

// -----

func.func @product(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %one = arith.constant 1.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%one : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{'linalg.reduce' is a kernel of its own (tk.structured), not fused: the reduction combines with 'arith.mulf'; tk reduces with sum (arith.addf) or max (arith.maximumf, arith.maxnumf)}}
  %s = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %t = arith.mulf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %s : tensor<8xf32>
}

// -----

func.func @dynamic(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-warning @+1 {{cannot import 'linalg.exp': the result has type tensor<?x64xf32>; tk takes ranked tensors of static shape}}
  %e = linalg.exp ins(%x : tensor<?x64xf32>) outs(%x : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %e : tensor<?x64xf32>
}

// -----

func.func @integers(%x: tensor<8xi32>, %y: tensor<8xi32>) -> tensor<8xi32> {
  // expected-warning @+1 {{cannot import 'linalg.add': the result has type tensor<8xi32>; tk computes on float tensors}}
  %s = linalg.add ins(%x, %y : tensor<8xi32>, tensor<8xi32>) outs(%x : tensor<8xi32>) -> tensor<8xi32>
  return %s : tensor<8xi32>
}

// -----

func.func @buffers(%x: memref<8xf32>, %y: memref<8xf32>) {
  // expected-warning @+1 {{cannot import 'linalg.exp': works on buffers; tk imports linalg on tensors}}
  linalg.exp ins(%x : memref<8xf32>) outs(%y : memref<8xf32>)
  return
}

// -----

// Reading element 0 of a dim of size 16 is a slice, not a broadcast.
func.func @slice(%x: tensor<8x16xf32>) -> tensor<8x64xf32> {
  %empty = tensor.empty() : tensor<8x64xf32>
  // expected-remark @+1 {{'linalg.generic' is a kernel of its own (tk.structured), not fused: indexing map (d0, d1) -> (d0, 0) indexes dim 1 (size 16) by 0; tk takes maps that pick loops, with 0 for size-1 dims}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8x16xf32>) outs(%empty : tensor<8x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

func.func @reads_init(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-remark @+1 {{'linalg.generic' is a kernel of its own (tk.structured), not fused: the payload reads the init (outs) operand; tk ops have no destination to read}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
         ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.addf %a, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @index(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-remark @+1 {{'linalg.generic' is a kernel of its own (tk.structured), not fused: the payload reads the iteration index (linalg.index); tk ops do not depend on where an element is}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
         ins(%x : tensor<8xf32>) outs(%x : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %s = arith.addf %a, %f : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A strided slice is a gather, which tk has not.
func.func @strided_slice(%x: tensor<8x64xf32>) -> tensor<4x64xf32> {
  // expected-warning @+1 {{cannot import 'tensor.extract_slice': slices with dynamic offsets or sizes, or strides other than 1, have no tk form}}
  %s = tensor.extract_slice %x[0, 0] [4, 64] [2, 1] : tensor<8x64xf32> to tensor<4x64xf32>
  return %s : tensor<4x64xf32>
}

// -----

// Ops of other dialects are reported as having no tk equivalent.
func.func @pad(%x: tensor<8x64xf32>) -> tensor<8x72xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-remark @+1 {{'tensor.pad' is a kernel of its own (tk.structured), not fused: tk has no equivalent op}}
  %p = tensor.pad %x low[0, 0] high[0, 8] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x64xf32> to tensor<8x72xf32>
  return %p : tensor<8x72xf32>
}

// -----

// A fill that is the result itself is reported, as is a returned constant.
func.func @fill_result() -> (tensor<8xf32>, tensor<8xf32>) {
  %one = arith.constant 1.0 : f32
  // expected-warning @+1 {{constant in the kernel graph: tk has no constants, and only dense ones become constant arguments (tileopt.constant)}}
  %c = arith.constant dense<2.0> : tensor<8xf32>
  %empty = tensor.empty() : tensor<8xf32>
  // expected-remark @+1 {{'linalg.fill' is a kernel of its own (tk.structured), not fused: computes a constant; tk has no op that fills a tensor}}
  %f = linalg.fill ins(%one : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  return %f, %c : tensor<8xf32>, tensor<8xf32>
}

// -----

// A convolution reads its input through d1 + d4: no tk operator.
func.func @conv(%i: tensor<1x8x8x4xf32>, %f: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  // expected-remark @+1 {{'linalg.conv_2d_nhwc_hwcf' is a kernel of its own (tk.structured), not fused: indexing map (d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6) indexes dim 1 (size 8) by d1 + d4}}
  %r = linalg.conv_2d_nhwc_hwcf ins(%i, %f : tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) outs(%o : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %r : tensor<1x6x6x8xf32>
}

// -----

func.func @scalar_argument(%x: tensor<4x8xf32>, %s: f32) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-warning @+1 {{cannot import 'linalg.generic': scalar operand #1 is not a constant; tk has no scalar inputs}}
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
    ins(%x, %s : tensor<4x8xf32>, f32) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %t: f32, %o: f32):
    %m = arith.mulf %in, %t : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
