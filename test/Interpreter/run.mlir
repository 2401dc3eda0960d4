// The interpreter on inputs read from a file, with the exact results.
// RUN: tileopt-interp %s --function=kernel_ops --inputs=%S/Inputs/two-by-four.txt | FileCheck %s --check-prefix=TK
// RUN: tileopt-interp %s --function=block_graph --inputs=%S/Inputs/two-by-four.txt | FileCheck %s --check-prefix=TB
// RUN: tileopt-interp %s --function=kernel_ops --inputs=%S/Inputs/two-by-four.txt --domain=f32 | FileCheck %s --check-prefix=TK
// RUN: tileopt-interp %s --function=kernel_ops --domain=field --inputs=%S/Inputs/two-by-four.txt | FileCheck %s --check-prefix=FIELD
// RUN: not tileopt-interp %s --function=kernel_ops --inputs=%S/Inputs/bad-shape.txt 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tileopt-interp %s --function=kernel_ops --inputs=%S/Inputs/bad-value.txt 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: tileopt-interp %s --function=kernel_ops --seed=3 > %t.a
// RUN: tileopt-interp %s --function=kernel_ops --seed=3 > %t.b
// RUN: diff %t.a %t.b

// TK:      # result #0 of @kernel_ops
// TK-NEXT: tensor 2x1
// TK-NEXT: 4
// TK-NEXT: 8
// TK-NEXT: # result #1 of @kernel_ops
// TK-NEXT: tensor 2x2
// TK-NEXT: 30 70
// TK-NEXT: 70 174
// TK-NEXT: # result #2 of @kernel_ops
// TK-NEXT: tensor 4x2
// TK-NEXT: 1 5
// TK-NEXT: 2 6
// TK-NEXT: 3 7
// TK-NEXT: 4 8
// TK-NEXT: # result #3 of @kernel_ops
// TK-NEXT: tensor 2x4
// TK-NEXT: 2 3 4 5
// TK-NEXT: 6 7 8 9
// FIELD:      # result #1 of @kernel_ops (field)
// FIELD-NEXT: tensor 2x2
// FIELD-NEXT: 30:30 70:70
// FIELD-NEXT: 70:70 174:174
// SHAPE: bad-shape.txt:1:8: error: argument #0 has shape 4x2, the function takes 2x4
// VALUE: bad-value.txt:2:7: error: not a f64 value: `x`
func.func @kernel_ops(%X: tensor<2x4xf32>)
    -> (tensor<2x1xf32>, tensor<2x2xf32>, tensor<4x2xf32>, tensor<2x4xf32>) {
  %m = tk.reduce max %X dim 1 : tensor<2x4xf32> -> tensor<2x1xf32>
  %t = tk.transpose %X [1, 0] : tensor<2x4xf32> -> tensor<4x2xf32>
  %g = tk.matmul %X, %t : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
  %one = tk.reduce mean %X dim 0 : tensor<2x4xf32> -> tensor<1x4xf32>
  %d = tk.binary div %one, %one : tensor<1x4xf32>, tensor<1x4xf32> -> tensor<1x4xf32>
  %p = tk.binary add %X, %d : tensor<2x4xf32>, tensor<1x4xf32> -> tensor<2x4xf32>
  return %m, %g, %t, %p
      : tensor<2x1xf32>, tensor<2x2xf32>, tensor<4x2xf32>, tensor<2x4xf32>
}

// Per-iteration tiles kept by a `none` accumulator and laid out by the
// saver's fmap; pairwise sums by a reduction `to` 2; the row sum through a
// sum accumulator.
// TB:      # result #0 of @block_graph
// TB-NEXT: tensor 2x4
// TB-NEXT: 2 4 6 8
// TB-NEXT: 10 12 14 16
// TB-NEXT: # result #1 of @block_graph
// TB-NEXT: tensor 2x2
// TB-NEXT: 3 7
// TB-NEXT: 11 15
// TB-NEXT: # result #2 of @block_graph
// TB-NEXT: tensor 2x1
// TB-NEXT: 10
// TB-NEXT: 26
func.func @block_graph(%X: tensor<2x4xf32>)
    -> (tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x1xf32>) {
  %Y:3 = tk.fused grid [1, 1, 1] block [32, 1, 1] forloop 2
           (%x = %X : tensor<2x4xf32>)
           -> (tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x1xf32>) {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<2x4xf32> -> !tb.tile<2x2xf32>
    %two = tb.binary add %xt, %xt
             : !tb.tile<2x2xf32>, !tb.tile<2x2xf32> -> !tb.tile<2x2xf32>
    %pairs = tb.reduce sum %xt dim 1 : !tb.tile<2x2xf32> -> !tb.tile<2x1xf32>
    %kept = tb.forloop_accum none %two : (!tb.tile<2x2xf32>) -> !tb.tile<2x2xf32>
    %keptp = tb.forloop_accum none %pairs : (!tb.tile<2x1xf32>) -> !tb.tile<2x1xf32>
    %sum = tb.forloop_accum sum %pairs : (!tb.tile<2x1xf32>) -> !tb.tile<2x1xf32>
    %o1 = tb.output_saver %kept omap [-1, -1, -1] fmap 1
            : !tb.tile<2x2xf32> -> tensor<2x4xf32>
    %o2 = tb.output_saver %keptp omap [-1, -1, -1] fmap 1
            : !tb.tile<2x1xf32> -> tensor<2x2xf32>
    %o3 = tb.output_saver %sum omap [-1, -1, -1]
            : !tb.tile<2x1xf32> -> tensor<2x1xf32>
    tb.yield %o1, %o2, %o3 : tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x1xf32>
  }
  return %Y#0, %Y#1, %Y#2 : tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x1xf32>
}
