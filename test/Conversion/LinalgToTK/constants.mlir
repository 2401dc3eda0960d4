// RUN: tileopt-opt %s -split-input-file --tileopt-import-linalg | FileCheck %s

// Non-splat constants the kernel graph reads (weights, masks, ids left by
// constant folding) become arguments of the function that carry their
// values (tileopt.constant), since tk ops take tensors, not constants; the
// artifact stores the values and the runtime uploads them.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>

// A float bias: one argument, named for the manifest, read like any input.
// CHECK-LABEL: func.func @float_bias
// CHECK-SAME:    (%[[X:.*]]: tensor<4x3xf32>,
// CHECK-SAME:     %[[C:.*]]: tensor<1x3xf32> {tileopt.constant = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<1x3xf32>, tileopt.name = "constant0"})
// CHECK-NEXT:    %[[Y:.*]] = tk.binary add %[[X]], %[[C]] : tensor<4x3xf32>, tensor<1x3xf32> -> tensor<4x3xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @float_bias(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %bias = arith.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %empty = tensor.empty() : tensor<4x3xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x, %bias : tensor<4x3xf32>, tensor<1x3xf32>) outs(%empty : tensor<4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (0, d1)>
#rowid = affine_map<(d0, d1) -> (d0, 0)>

// Integer ids (what torch.triu leaves after folding) are held as f32, which
// holds them exactly, and compared as floats: cmpi sgt becomes cmpf ogt.
// CHECK-LABEL: func.func @causal_ids
// CHECK-SAME:    %[[COL:[^:]*]]: tensor<1x3xf32> {tileopt.constant = dense<{{\[\[}}0.000000e+00, 1.000000e+00, 2.000000e+00]]> : tensor<1x3xf32>, tileopt.name = "constant0"}
// CHECK-SAME:    %[[ROW:[^:]*]]: tensor<3x1xf32> {tileopt.constant = dense<{{\[\[}}0.000000e+00], [1.000000e+00], [2.000000e+00]]> : tensor<3x1xf32>, tileopt.name = "constant1"}
// CHECK-NOT:     tileopt.constant
// CHECK:         tk.map (%[[C:.*]] = %[[COL]] : tensor<1x3xf32>, %[[R:.*]] = %[[ROW]] : tensor<3x1xf32>, %[[S:.*]] = %arg0 : tensor<3x3xf32>)
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[C]], %[[R]] : f32
// CHECK-NEXT:      %[[MIN:.*]] = arith.constant -1.000000e+09 : f32
// CHECK-NEXT:      %[[SEL:.*]] = arith.select %[[GT]], %[[MIN]], %[[S]] : f32
// CHECK-NEXT:      tk.yield %[[SEL]] : f32
func.func @causal_ids(%scores: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %cols = arith.constant dense<[[0, 1, 2]]> : tensor<1x3xi32>
  %rows = arith.constant dense<[[0], [1], [2]]> : tensor<3x1xi32>
  %empty = tensor.empty() : tensor<3x3xf32>
  %y = linalg.generic {indexing_maps = [#col, #rowid, #id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%cols, %rows, %scores : tensor<1x3xi32>, tensor<3x1xi32>, tensor<3x3xf32>) outs(%empty : tensor<3x3xf32>) {
  ^bb0(%c: i32, %r: i32, %s: f32, %out: f32):
    %gt = arith.cmpi sgt, %c, %r : i32
    %min = arith.constant -1.0e9 : f32
    %m = arith.select %gt, %min, %s : f32
    linalg.yield %m : f32
  } -> tensor<3x3xf32>
  return %y : tensor<3x3xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// An i1 mask is held as 0.0/1.0 and is true where nonzero.
// CHECK-LABEL: func.func @bool_mask
// CHECK-SAME:    %[[M:[^:]*]]: tensor<2x2xf32> {tileopt.constant = dense<{{\[\[}}1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00]]> : tensor<2x2xf32>
// CHECK:         tk.map (%[[B:.*]] = %[[M]] : tensor<2x2xf32>, %[[X:.*]] = %arg0 : tensor<2x2xf32>)
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[TRUE:.*]] = arith.cmpf une, %[[B]], %[[ZERO]] : f32
// CHECK:           arith.select %[[TRUE]]
func.func @bool_mask(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %mask = arith.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  %empty = tensor.empty() : tensor<2x2xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%mask, %x : tensor<2x2xi1>, tensor<2x2xf32>) outs(%empty : tensor<2x2xf32>) {
  ^bb0(%b: i1, %a: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %m = arith.select %b, %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (0, d1)>

// An integer scalar compared with integer ids is held as an f32 too.
// CHECK-LABEL: func.func @ids_below_scalar
// CHECK:         tk.map
// CHECK:           %[[LIMIT:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      arith.cmpf olt, %{{.*}}, %[[LIMIT]] : f32
func.func @ids_below_scalar(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %cols = arith.constant dense<[[0, 1, 2]]> : tensor<1x3xi32>
  %empty = tensor.empty() : tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%cols, %x : tensor<1x3xi32>, tensor<2x3xf32>) outs(%empty : tensor<2x3xf32>) {
  ^bb0(%c: i32, %a: f32, %out: f32):
    %limit = arith.constant 2 : i32
    %lt = arith.cmpi slt, %c, %limit : i32
    %zero = arith.constant 0.0 : f32
    %m = arith.select %lt, %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Two constant ops of the same values are one argument.
// CHECK-LABEL: func.func @same_values_twice
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2xf32>, %[[C:.*]]: tensor<1x2xf32> {tileopt.constant = {{.*}}}) -> tensor<1x2xf32>
// CHECK-NEXT:    %[[A:.*]] = tk.binary add %[[X]], %[[C]]
// CHECK-NEXT:    %[[M:.*]] = tk.binary mul %[[A]], %[[C]]
func.func @same_values_twice(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %c0 = arith.constant dense<[[0.5, 1.5]]> : tensor<1x2xf32>
  %c1 = arith.constant dense<[[0.5, 1.5]]> : tensor<1x2xf32>
  %empty = tensor.empty() : tensor<1x2xf32>
  %a = linalg.add ins(%x, %c0 : tensor<1x2xf32>, tensor<1x2xf32>) outs(%empty : tensor<1x2xf32>) -> tensor<1x2xf32>
  %m = linalg.mul ins(%a, %c1 : tensor<1x2xf32>, tensor<1x2xf32>) outs(%empty : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %m : tensor<1x2xf32>
}
