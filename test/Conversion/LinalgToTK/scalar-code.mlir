// RUN: tileopt-opt %s -split-input-file --tileopt-import-linalg -verify-diagnostics | FileCheck %s

// Every elementwise payload of arith and math ops imports: what tk has an
// operator for becomes that operator, scalar constants become the scalar
// of add_scalar or mul_scalar, and the rest is the scalar code of a tk.map
// over the values it reads (which stay tk operators themselves).

#id = affine_map<(d0, d1) -> (d0, d1)>

// x + c, x - c and c - x take the scalar; c / x is scalar code.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %[[A:.*]] = tk.unary add_scalar(1.000000e+00) %arg0 : tensor<8x64xf32>
// CHECK-NEXT:    %[[S:.*]] = tk.unary add_scalar(-2.000000e+00) %[[A]] : tensor<8x64xf32>
// CHECK-NEXT:    %[[N:.*]] = tk.unary neg %[[S]] : tensor<8x64xf32>
// CHECK-NEXT:    %[[R:.*]] = tk.unary add_scalar(3.000000e+00) %[[N]] : tensor<8x64xf32>
// CHECK-NEXT:    %[[M:.*]] = tk.map (%[[V:.*]] = %[[R]] : tensor<8x64xf32>) -> tensor<8x64xf32> {
// CHECK-NEXT:      %[[FOUR:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT:      %[[D:.*]] = arith.divf %[[FOUR]], %[[V]] : f32
// CHECK-NEXT:      tk.yield %[[D]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[M]]
func.func @constants(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %empty = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %three = arith.constant 3.0 : f32
    %four = arith.constant 4.0 : f32
    %p = arith.addf %a, %one : f32
    %q = arith.subf %p, %two : f32
    %r = arith.subf %three, %q : f32
    %d = arith.divf %four, %r : f32
    linalg.yield %d : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// tanh-GELU: 0.5 x (1 + tanh(0.797885 (x + 0.044715 x^3))). The tanh is a
// map; the polynomial around it stays tk operators.
// CHECK-LABEL: func.func @gelu_tanh
// CHECK:         %[[T:.*]] = tk.map (%[[V:.*]] = %{{.*}} : tensor<8x64xf32>) -> tensor<8x64xf32> {
// CHECK-NEXT:      %[[H:.*]] = math.tanh %[[V]] : f32
// CHECK-NEXT:      tk.yield %[[H]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[P:.*]] = tk.unary add_scalar(1.000000e+00) %[[T]]
// CHECK-NOT:     arith.constant
// CHECK:         return
func.func @gelu_tanh(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %empty = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.797884583 : f32
    %c = arith.constant 0.044715 : f32
    %x2 = arith.mulf %a, %a : f32
    %x3 = arith.mulf %x2, %a : f32
    %cx3 = arith.mulf %x3, %c : f32
    %inner = arith.addf %a, %cx3 : f32
    %scaled = arith.mulf %inner, %k : f32
    %t = math.tanh %scaled : f32
    %p = arith.addf %t, %one : f32
    %hx = arith.mulf %a, %half : f32
    %g = arith.mulf %hx, %p : f32
    linalg.yield %g : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// A causal-style mask: a comparison and a select are one map over the
// scores and the bound (the i1 never leaves it).
// CHECK-LABEL: func.func @select_mask
// CHECK-NEXT:    %[[B:.*]] = tk.reshape %arg1 : tensor<64xf16> -> tensor<1x64xf16>
// CHECK-NEXT:    %[[M:.*]] = tk.map (%[[S:.*]] = %arg0 : tensor<8x64xf16>, %[[L:.*]] = %[[B]] : tensor<1x64xf16>) -> tensor<8x64xf16> {
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf ogt, %[[S]], %[[L]] : f16
// CHECK-NEXT:      %[[NINF:.*]] = arith.constant 0xFC00 : f16
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[C]], %[[NINF]], %[[S]] : f16
// CHECK-NEXT:      tk.yield %[[R]] : f16
// CHECK-NEXT:    }
func.func @select_mask(%s: tensor<8x64xf16>, %bound: tensor<64xf16>) -> tensor<8x64xf16> {
  %empty = tensor.empty() : tensor<8x64xf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
         ins(%s, %bound : tensor<8x64xf16>, tensor<64xf16>) outs(%empty : tensor<8x64xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %c = arith.cmpf ogt, %a, %b : f16
    %ninf = arith.constant 0xFC00 : f16
    %r = arith.select %c, %ninf, %a : f16
    linalg.yield %r : f16
  } -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Casts between float types (tosa.cast): a map of the cast, and the math
// between them in the wider type.
// CHECK-LABEL: func.func @upcast
// CHECK-NEXT:    %[[W:.*]] = tk.map (%[[A:.*]] = %arg0 : tensor<8x64xf16>) -> tensor<8x64xf32> {
// CHECK-NEXT:      %[[E:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT:      tk.yield %[[E]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[X:.*]] = tk.unary exp %[[W]] : tensor<8x64xf32>
// CHECK-NEXT:    %[[N:.*]] = tk.map (%[[B:.*]] = %[[X]] : tensor<8x64xf32>) -> tensor<8x64xf16> {
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[B]] : f32 to f16
// CHECK-NEXT:      tk.yield %[[T]] : f16
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[N]]
func.func @upcast(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %e32 = tensor.empty() : tensor<8x64xf32>
  %e16 = tensor.empty() : tensor<8x64xf16>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8x64xf16>) outs(%e32 : tensor<8x64xf32>) {
  ^bb0(%a: f16, %out: f32):
    %e = arith.extf %a : f16 to f32
    linalg.yield %e : f32
  } -> tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%w : tensor<8x64xf32>) outs(%e32 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %out: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<8x64xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%y : tensor<8x64xf32>) outs(%e16 : tensor<8x64xf16>) {
  ^bb0(%a: f32, %out: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<8x64xf16>
  return %n : tensor<8x64xf16>
}

// -----

// A maximum of two tensors, and a clamp, are scalar code.
// CHECK-LABEL: func.func @maximum
// CHECK-NEXT:    %[[M:.*]] = tk.map (%[[A:.*]] = %arg0 : tensor<8xf32>, %[[B:.*]] = %arg1 : tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:      %[[R:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK-NEXT:      tk.yield %[[R]] : f32
// CHECK-NEXT:    }
func.func @maximum(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %m = linalg.max ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
  return %m : tensor<8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// tosa.sigmoid and a product in another op (TOSA's SiLU) are tk's silu;
// tosa.mul %x, %x, a generic of two operands that are one tensor, is a
// square.
// CHECK-LABEL: func.func @silu_and_square
// CHECK-NEXT:    %[[S:.*]] = tk.unary silu %arg0 : tensor<8x64xf16>
// CHECK-NEXT:    %[[Q:.*]] = tk.unary square %[[S]] : tensor<8x64xf16>
// CHECK-NEXT:    return %[[Q]]
func.func @silu_and_square(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %empty = tensor.empty() : tensor<8x64xf16>
  %sig = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
           ins(%x : tensor<8x64xf16>) outs(%empty : tensor<8x64xf16>) {
  ^bb0(%a: f16, %out: f16):
    %one = arith.constant 1.0 : f16
    %n = arith.negf %a : f16
    %e = math.exp %n : f16
    %d = arith.addf %e, %one : f16
    %r = arith.divf %one, %d : f16
    linalg.yield %r : f16
  } -> tensor<8x64xf16>
  %silu = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
            ins(%x, %sig : tensor<8x64xf16>, tensor<8x64xf16>) outs(%empty : tensor<8x64xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %m = arith.mulf %a, %b : f16
    linalg.yield %m : f16
  } -> tensor<8x64xf16>
  %sq = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%silu, %silu : tensor<8x64xf16>, tensor<8x64xf16>) outs(%empty : tensor<8x64xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %m = arith.mulf %a, %b : f16
    linalg.yield %m : f16
  } -> tensor<8x64xf16>
  return %sq : tensor<8x64xf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Integer tensors have no tk form.
func.func @integer_operand(%x: tensor<8x64xi32>) -> tensor<8x64xf32> {
  %empty = tensor.empty() : tensor<8x64xf32>
  // expected-warning @+1 {{cannot import 'linalg.generic': operand #0 has element type i32; tk computes on float tensors}}
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8x64xi32>) outs(%empty : tensor<8x64xf32>) {
  ^bb0(%a: i32, %out: f32):
    %f = arith.sitofp %a : i32 to f32
    linalg.yield %f : f32
  } -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#cols = affine_map<(d0, d1, d2) -> (0, 0, d2)>
#rows = affine_map<(d0, d1, d2) -> (0, d1, 0)>
#mask = affine_map<(d0, d1, d2) -> (0, d1, d2)>

// tosa.greater then tosa.select: the comparison's i1 tensor is computed
// inside the select's map, its operands read through the composed maps.
// CHECK-LABEL: func.func @separate_comparison
// CHECK:         %[[M:.*]] = tk.map (%[[C:.*]] = %{{.*}} : tensor<1x1x7xf32>, %[[R:.*]] = %{{.*}} : tensor<1x7x1xf32>, %[[S:.*]] = %arg2 : tensor<2x7x7xf32>) -> tensor<2x7x7xf32> {
// CHECK-NEXT:      %[[G:.*]] = arith.cmpf ogt, %[[C]], %[[R]] : f32
// CHECK-NEXT:      %[[LOW:.*]] = arith.constant -1.000000e+04 : f32
// CHECK-NEXT:      %[[V:.*]] = arith.select %[[G]], %[[LOW]], %[[S]] : f32
// CHECK-NEXT:      tk.yield %[[V]] : f32
// CHECK-NEXT:    }
func.func @separate_comparison(%col: tensor<1x1x7xf32>, %row: tensor<1x7x1xf32>, %scores: tensor<2x7x7xf32>) -> tensor<2x7x7xf32> {
  %e1 = tensor.empty() : tensor<1x7x7xi1>
  %future = linalg.generic {indexing_maps = [#cols, #rows, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
              ins(%col, %row : tensor<1x1x7xf32>, tensor<1x7x1xf32>) outs(%e1 : tensor<1x7x7xi1>) {
  ^bb0(%c: f32, %r: f32, %out: i1):
    %g = arith.cmpf ogt, %c, %r : f32
    linalg.yield %g : i1
  } -> tensor<1x7x7xi1>
  %e = tensor.empty() : tensor<2x7x7xf32>
  %masked = linalg.generic {indexing_maps = [#mask, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
              ins(%future, %scores : tensor<1x7x7xi1>, tensor<2x7x7xf32>) outs(%e : tensor<2x7x7xf32>) {
  ^bb0(%f: i1, %s: f32, %out: f32):
    %low = arith.constant -1.0e+04 : f32
    %v = arith.select %f, %low, %s : f32
    linalg.yield %v : f32
  } -> tensor<2x7x7xf32>
  return %masked : tensor<2x7x7xf32>
}

// -----

#in = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A result broadcast along a loop no operand varies along (tosa.tile
// repeating keys for grouped heads) is a map that yields its operand.
// CHECK-LABEL: func.func @broadcast_result
// CHECK-NEXT:    %[[B:.*]] = tk.map (%[[X:.*]] = %arg0 : tensor<2x1x16xf16>) -> tensor<2x4x16xf16> {
// CHECK-NEXT:      tk.yield %[[X]] : f16
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[B]]
func.func @broadcast_result(%k: tensor<2x1x16xf16>) -> tensor<2x4x16xf16> {
  %e = tensor.empty() : tensor<2x4x16xf16>
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%k : tensor<2x1x16xf16>) outs(%e : tensor<2x4x16xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<2x4x16xf16>
  return %r : tensor<2x4x16xf16>
}

// -----

// linalg.broadcast on its own is such a map too.
// CHECK-LABEL: func.func @linalg_broadcast
// CHECK-NEXT:    %[[R:.*]] = tk.reshape %arg0 : tensor<64xf32> -> tensor<1x64xf32>
// CHECK-NEXT:    %[[B:.*]] = tk.map (%[[X:.*]] = %[[R]] : tensor<1x64xf32>) -> tensor<8x64xf32> {
// CHECK-NEXT:      tk.yield %[[X]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[B]]
func.func @linalg_broadcast(%x: tensor<64xf32>) -> tensor<8x64xf32> {
  %empty = tensor.empty() : tensor<8x64xf32>
  %b = linalg.broadcast ins(%x : tensor<64xf32>) outs(%empty : tensor<8x64xf32>) dimensions = [0]
  return %b : tensor<8x64xf32>
}
