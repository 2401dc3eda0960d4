// What tileopt-lower-ugraph refuses: an error at the op that says why, and
// the function left as it was.
// RUN: tileopt-opt %s -split-input-file -verify-diagnostics --tileopt-lower-ugraph

// Tiles are powers of two in tile programs; a block graph's tile is what it is.
func.func @odd_tile(%x: tensor<6x64xf32>) -> tensor<6x64xf32> {
  %0 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 1 (%a = %x : tensor<6x64xf32>) -> tensor<6x64xf32> {
    // expected-error @+1 {{'tb.input_iterator' op has tile '!tb.tile<3x64xf32>' whose dim 0 (3) is not a power of two; tile programs need power-of-two tiles}}
    %1 = tb.input_iterator %a imap [0, -1, -1] fmap -1 : tensor<6x64xf32> -> !tb.tile<3x64xf32>
    %2 = tb.forloop_accum none %1 : (!tb.tile<3x64xf32>) -> !tb.tile<3x64xf32>
    %3 = tb.output_saver %2 omap [0, -1, -1] : !tb.tile<3x64xf32> -> tensor<6x64xf32>
    tb.yield %3 : tensor<6x64xf32>
  }
  return %0 : tensor<6x64xf32>
}

// -----

func.func @concat(%x: tensor<8x64xf32>) -> tensor<8x128xf32> {
  %0 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%a = %x : tensor<8x64xf32>) -> tensor<8x128xf32> {
    %1 = tb.input_iterator %a imap [-1, -1, -1] fmap -1 : tensor<8x64xf32> -> !tb.tile<8x64xf32>
    // expected-error @+1 {{'tb.concat' op has no tile form yet: tile programs have no concatenation of tiles}}
    %2 = tb.concat %1, %1 dim 1 : !tb.tile<8x64xf32>, !tb.tile<8x64xf32> -> !tb.tile<8x128xf32>
    %3 = tb.forloop_accum none %2 : (!tb.tile<8x128xf32>) -> !tb.tile<8x128xf32>
    %4 = tb.output_saver %3 omap [-1, -1, -1] : !tb.tile<8x128xf32> -> tensor<8x128xf32>
    tb.yield %4 : tensor<8x128xf32>
  }
  return %0 : tensor<8x128xf32>
}

// -----

// A transpose copies its leading dims one block each: 70000 of them are
// more blocks than grid z allows.
func.func @transpose_grid(%x: tensor<70000x2x4xf32>) -> tensor<70000x4x2xf32> {
  // expected-error @+1 {{'tk.transpose' op needs a grid of [1, 1, 70000] blocks to copy, more than CUDA allows}}
  %0 = tk.transpose %x [0, 2, 1] : tensor<70000x2x4xf32> -> tensor<70000x4x2xf32>
  return %0 : tensor<70000x4x2xf32>
}

// -----

// What the importer could not import stays, with a warning; it is not lowered.
func.func @not_tk(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{'arith.constant' op is not a tk op; tileopt-lower-ugraph lowers functions of tk ops}}
  %c = arith.constant dense<1.0> : tensor<8x64xf32>
  %0 = tk.binary add %x, %c : tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// A row of 100 is padded to 128 where what is combined along it is zero in
// the padding (test/Conversion/TKToTile/Inputs/block-graphs.mlir); a
// maximum would see the padding.
func.func @odd_row_max(%x: tensor<8x100xf32>) -> tensor<8x1xf32> {
  %0 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%a = %x : tensor<8x100xf32>) -> tensor<8x1xf32> {
    // expected-error @+1 {{'tb.input_iterator' op has tile '!tb.tile<8x100xf32>' whose dim 1 (100) is not a power of two; tile programs need power-of-two tiles}}
    %1 = tb.input_iterator %a imap [-1, -1, -1] fmap -1 : tensor<8x100xf32> -> !tb.tile<8x100xf32>
    %2 = tb.reduce max %1 dim 1 : !tb.tile<8x100xf32> -> !tb.tile<8x1xf32>
    %3 = tb.forloop_accum none %2 : (!tb.tile<8x1xf32>) -> !tb.tile<8x1xf32>
    %4 = tb.output_saver %3 omap [-1, -1, -1] : !tb.tile<8x1xf32> -> tensor<8x1xf32>
    tb.yield %4 : tensor<8x1xf32>
  }
  return %0 : tensor<8x1xf32>
}

// -----

// Without an epsilon, a padded row of zeros normalizes to 0 / 0: a sum
// down the rows of an rms_norm would see it.
func.func @column_sum_of_rms_norm_without_epsilon(%x: tensor<7x64xf32>) -> tensor<1x64xf32> {
  %0 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%a = %x : tensor<7x64xf32>) -> tensor<1x64xf32> {
    // expected-error @+1 {{'tb.input_iterator' op has tile '!tb.tile<7x64xf32>' whose dim 0 (7) is not a power of two; tile programs need power-of-two tiles}}
    %1 = tb.input_iterator %a imap [-1, -1, -1] fmap -1 : tensor<7x64xf32> -> !tb.tile<7x64xf32>
    %2 = tb.rms_norm %1 : !tb.tile<7x64xf32>
    %3 = tb.reduce sum %2 dim 0 : !tb.tile<7x64xf32> -> !tb.tile<1x64xf32>
    %4 = tb.forloop_accum none %3 : (!tb.tile<1x64xf32>) -> !tb.tile<1x64xf32>
    %5 = tb.output_saver %4 omap [-1, -1, -1] : !tb.tile<1x64xf32> -> tensor<1x64xf32>
    tb.yield %5 : tensor<1x64xf32>
  }
  return %0 : tensor<1x64xf32>
}

// -----

// exp(0) is 1: a sum of exps would add the padding.
func.func @odd_row_sum_of_exps(%x: tensor<8x100xf32>) -> tensor<8x1xf32> {
  %0 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%a = %x : tensor<8x100xf32>) -> tensor<8x1xf32> {
    // expected-error @+1 {{'tb.input_iterator' op has tile '!tb.tile<8x100xf32>' whose dim 1 (100) is not a power of two; tile programs need power-of-two tiles}}
    %1 = tb.input_iterator %a imap [-1, -1, -1] fmap -1 : tensor<8x100xf32> -> !tb.tile<8x100xf32>
    %2 = tb.unary exp %1 : !tb.tile<8x100xf32>
    %3 = tb.reduce sum %2 dim 1 : !tb.tile<8x100xf32> -> !tb.tile<8x1xf32>
    %4 = tb.forloop_accum none %3 : (!tb.tile<8x1xf32>) -> !tb.tile<8x1xf32>
    %5 = tb.output_saver %4 omap [-1, -1, -1] : !tb.tile<8x1xf32> -> tensor<8x1xf32>
    tb.yield %5 : tensor<8x1xf32>
  }
  return %0 : tensor<8x1xf32>
}

// -----

func.func @two_batch_dims(%a: tensor<2x2x16x32xf16>, %b: tensor<2x2x32x16xf16>) -> tensor<2x2x16x16xf16> {
  // expected-error @+1 {{'tk.matmul' op has 2 batch dims; its tiling takes at most one (the grid's z)}}
  %0 = tk.matmul %a, %b : tensor<2x2x16x32xf16>, tensor<2x2x32x16xf16> -> tensor<2x2x16x16xf16>
  return %0 : tensor<2x2x16x16xf16>
}

// -----

func.func @scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tk.unary' op has rank 0; its tiling takes 1 to 3 dims, one per grid dim}}
  %0 = tk.unary exp %x : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A copy into a rank-0 tensor: copies view both sides as rows of their last
// dim, which a rank-0 tensor has not (this crashed, found by
// test/fuzz/fuzz.py). A dot product's 1x1 result reshaped to rank 0 needs
// no copy: its kernel writes the result's buffer (rank4.mlir).
func.func @copy_to_rank0(%a: tensor<1x1xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tk.reshape' op reshapes a rank-0 tensor; the layout kernels copy rows of the last dim, which it has not}}
  %0 = tk.reshape %a : tensor<1x1xf32> -> tensor<f32>
  return %0 : tensor<f32>
}
