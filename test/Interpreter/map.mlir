// tk.map runs its scalar code on every element, in every domain: floats
// exactly, comparisons and selects in the field against the same random
// order that max uses, float casts as the value itself.
// RUN: tileopt-interp %s --function=masked_tanh --inputs=%S/Inputs/map-2x3.txt | FileCheck %s
// RUN: tileopt-interp %s --function=masked_tanh --inputs=%S/Inputs/map-2x3.txt --domain=f32 | FileCheck %s
// RUN: tileopt-interp %s --function=relu_by_select --equivalent-to=relu | FileCheck %s --check-prefix=EQUAL
// RUN: tileopt-interp %s --function=relu_by_select --equivalent-to=negated_relu | FileCheck %s --check-prefix=DIFFER

// CHECK:      # result #0 of @masked_tanh
// CHECK-NEXT: tensor 2x3
// CHECK-NEXT: 0.761594 -100 0.462117
// CHECK-NEXT: -100 0.995055 -100
func.func @masked_tanh(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = tk.map (%a = %x : tensor<2x3xf32>, %b = %y : tensor<3xf32>) -> tensor<2x3xf32> {
    %c = arith.cmpf ogt, %a, %b : f32
    %t = math.tanh %a : f32
    %h = arith.truncf %t : f32 to f16
    %e = arith.extf %h : f16 to f32
    %low = arith.constant -100.0 : f32
    %s = arith.select %c, %e, %low : f32
    tk.yield %s : f32
  }
  return %0 : tensor<2x3xf32>
}

// EQUAL: @relu_by_select and @relu are equivalent
// DIFFER: @relu_by_select and @negated_relu are not equivalent
func.func @relu_by_select(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tk.map (%a = %x : tensor<4x8xf32>) -> tensor<4x8xf32> {
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %a, %zero : f32
    %s = arith.select %c, %a, %zero : f32
    tk.yield %s : f32
  }
  return %0 : tensor<4x8xf32>
}

func.func @relu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tk.unary relu %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @negated_relu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tk.unary neg %x : tensor<4x8xf32>
  %1 = tk.unary relu %0 : tensor<4x8xf32>
  %2 = tk.unary neg %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
