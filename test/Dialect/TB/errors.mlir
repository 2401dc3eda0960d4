// RUN: tileopt-opt %s -split-input-file -verify-diagnostics

// Every diagnostic of the tb op verifiers (TBOps.cpp), of TileType::verify
// (TBDialect.cpp) and of the shape checks they share (ShapeChecks.cpp). Each
// case is valid but for the one error it tests.

//===----------------------------------------------------------------------===//
// !tb.tile
//===----------------------------------------------------------------------===//

// expected-error @+1 {{a tile has at least one dimension}}
func.func private @tile_rank_zero(!tb.tile<f32>)

// -----

// expected-error @+1 {{tile dims must be positive, got 0}}
func.func private @tile_zero_dim(!tb.tile<4x0xf32>)

// -----

// expected-error @+1 {{tile elements must be integers or floats, got 'index'}}
func.func private @tile_index_elements(!tb.tile<4xindex>)

// -----

// expected-error @+1 {{tile elements must be integers or floats, got 'vector<4xf32>'}}
func.func private @tile_vector_elements(!tb.tile<4xvector<4xf32>>)

// -----

//===----------------------------------------------------------------------===//
// tb.input_iterator
//===----------------------------------------------------------------------===//

func.func @iterator_of_saver_result(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    // expected-error @+1 {{input must be a kernel input of the enclosing block graph (an argument of its region)}}
    %again = tb.input_iterator %o imap [-1, -1, -1] fmap -1
               : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @imap_too_short(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    // expected-error @+1 {{imap needs one entry per grid dim (x, y, z), got 2}}
    %xt = tb.input_iterator %x imap [-1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @imap_too_long(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    // expected-error @+1 {{imap needs one entry per grid dim (x, y, z), got 4}}
    %xt = tb.input_iterator %x imap [-1, -1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @imap_dim_too_large(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 2, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    // expected-error @+1 {{imap maps grid dim y to tensor dim 2, out of range for rank 2}}
    %xt = tb.input_iterator %x imap [-1, 2, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x32xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x32xf32>) -> !tb.tile<16x32xf32>
    %o = tb.output_saver %a omap [-1, 1, -1]
           : !tb.tile<16x32xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @imap_dim_below_minus_one(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    // expected-error @+1 {{imap maps grid dim x to tensor dim -2, out of range for rank 2}}
    %xt = tb.input_iterator %x imap [-2, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @imap_dim_mapped_twice(%X: tensor<16x64xf32>) -> tensor<8x128xf32> {
  %r = tk.fused grid [2, 1, 2] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<8x128xf32> {
    // expected-error @+1 {{tensor dim 0 is mapped by grid dims x and z}}
    %xt = tb.input_iterator %x imap [0, -1, 0] fmap -1
            : tensor<16x64xf32> -> !tb.tile<4x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<4x64xf32>) -> !tb.tile<4x64xf32>
    %o = tb.output_saver %a omap [0, -1, 1]
           : !tb.tile<4x64xf32> -> tensor<8x128xf32>
    tb.yield %o : tensor<8x128xf32>
  }
  return %r : tensor<8x128xf32>
}

// -----

func.func @iterator_fmap_too_large(%X: tensor<16x64xf32>) -> tensor<16x16xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x64xf32>) -> tensor<16x16xf32> {
    // expected-error @+1 {{fmap 2 is out of range for rank 2}}
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 2
            : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x16xf32> -> tensor<16x16xf32>
    tb.yield %o : tensor<16x16xf32>
  }
  return %r : tensor<16x16xf32>
}

// -----

func.func @iterator_fmap_below_minus_one(%X: tensor<16x64xf32>) -> tensor<16x16xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x64xf32>) -> tensor<16x16xf32> {
    // expected-error @+1 {{fmap -2 is out of range for rank 2}}
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -2
            : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x16xf32> -> tensor<16x16xf32>
    tb.yield %o : tensor<16x16xf32>
  }
  return %r : tensor<16x16xf32>
}

// -----

func.func @iterator_fmap_on_grid_mapped_dim(%X: tensor<16x64xf32>) -> tensor<16x16xf32> {
  %r = tk.fused grid [1, 2, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x64xf32>) -> tensor<16x16xf32> {
    // expected-error @+1 {{tensor dim 1 is mapped both by grid dim y and by fmap}}
    %xt = tb.input_iterator %x imap [-1, 1, -1] fmap 1
            : tensor<16x64xf32> -> !tb.tile<16x8xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x8xf32>) -> !tb.tile<16x8xf32>
    %o = tb.output_saver %a omap [-1, 1, -1]
           : !tb.tile<16x8xf32> -> tensor<16x16xf32>
    tb.yield %o : tensor<16x16xf32>
  }
  return %r : tensor<16x16xf32>
}

// -----

func.func @not_divisible_by_grid(%X: tensor<16x64xf32>) -> tensor<15x64xf32> {
  %r = tk.fused grid [3, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<15x64xf32> {
    // expected-error @+1 {{tensor dim 0 of size 16 is not divisible by grid dim x (3)}}
    %xt = tb.input_iterator %x imap [0, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<5x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<5x64xf32>) -> !tb.tile<5x64xf32>
    %o = tb.output_saver %a omap [0, -1, -1]
           : !tb.tile<5x64xf32> -> tensor<15x64xf32>
    tb.yield %o : tensor<15x64xf32>
  }
  return %r : tensor<15x64xf32>
}

// -----

func.func @not_divisible_by_forloop(%X: tensor<16x64xf32>) -> tensor<16x21xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 3
      (%x = %X : tensor<16x64xf32>) -> tensor<16x21xf32> {
    // expected-error @+1 {{tensor dim 1 of size 64 is not divisible by the for-loop range (3)}}
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x64xf32> -> !tb.tile<16x21xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x21xf32>) -> !tb.tile<16x21xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x21xf32> -> tensor<16x21xf32>
    tb.yield %o : tensor<16x21xf32>
  }
  return %r : tensor<16x21xf32>
}

// -----

func.func @wrong_tile_shape(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 2
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    // expected-error @+1 {{tile shape must be 16x32, got 16x64}}
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @wrong_tile_rank(%X: tensor<16x64xf32>) -> tensor<16x64x1xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64x1xf32> {
    // expected-error @+1 {{tile shape must be 16x64, got 16x64x1}}
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64x1xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64x1xf32>) -> !tb.tile<16x64x1xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64x1xf32> -> tensor<16x64x1xf32>
    tb.yield %o : tensor<16x64x1xf32>
  }
  return %r : tensor<16x64x1xf32>
}

// -----

func.func @wrong_tile_element_type(%X: tensor<16x64xf16>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf16>) -> tensor<16x64xf32> {
    // expected-error @+1 {{tile element type 'f32' differs from the tensor's 'f16'}}
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf16> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tb.forloop_accum
//===----------------------------------------------------------------------===//

func.func @accum_result_type(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{result type must equal the input type '!tb.tile<16x64xf32>'}}
    %s = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf16>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @accum_integer_elements(%X: tensor<16x64xf32>, %I: tensor<16x64xi32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %i = %I : tensor<16x64xi32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %it = tb.input_iterator %i imap [-1, -1, -1] fmap -1
            : tensor<16x64xi32> -> !tb.tile<16x64xi32>
    // expected-error @+1 {{expects floating-point elements, got 'i32'}}
    %s = tb.forloop_accum sum %it : (!tb.tile<16x64xi32>) -> !tb.tile<16x64xi32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @sum_rescale_without_scale(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{sum_rescale needs a scale operand (the per-iteration maximum it rescales by)}}
    %s = tb.forloop_accum sum_rescale %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @scale_on_max(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %m = tb.reduce max %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    // expected-error @+1 {{only sum_rescale takes a scale operand, not max}}
    %s = tb.forloop_accum max %xt, %m
           : (!tb.tile<16x64xf32>, !tb.tile<16x1xf32>) -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @scale_on_none(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %m = tb.reduce max %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    // expected-error @+1 {{only sum_rescale takes a scale operand, not none}}
    %s = tb.forloop_accum none %xt, %m
           : (!tb.tile<16x64xf32>, !tb.tile<16x1xf32>) -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @scale_not_broadcastable(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %m = tb.reduce max %xt dim 1 to 2 : !tb.tile<16x64xf32> -> !tb.tile<16x2xf32>
    // expected-error @+1 {{shapes 16x2 and 16x64 do not broadcast}}
    %s = tb.forloop_accum sum_rescale %xt, %m
           : (!tb.tile<16x64xf32>, !tb.tile<16x2xf32>) -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @scale_wider_than_input(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %l = tb.reduce sum %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    // expected-error @+1 {{result shape must be the broadcast shape 16x64, got 16x1}}
    %s = tb.forloop_accum sum_rescale %l, %xt
           : (!tb.tile<16x1xf32>, !tb.tile<16x64xf32>) -> !tb.tile<16x1xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @scale_element_type(%X: tensor<16x64xf32>, %H: tensor<16x64xf16>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %h = %H : tensor<16x64xf16>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %ht = tb.input_iterator %h imap [-1, -1, -1] fmap -1
            : tensor<16x64xf16> -> !tb.tile<16x64xf16>
    %m = tb.reduce max %ht dim 1 : !tb.tile<16x64xf16> -> !tb.tile<16x1xf16>
    // expected-error @+1 {{element types differ: 'f16' and 'f32'}}
    %s = tb.forloop_accum sum_rescale %xt, %m
           : (!tb.tile<16x64xf32>, !tb.tile<16x1xf16>) -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tb.output_saver
//===----------------------------------------------------------------------===//

func.func @saver_rank(%X: tensor<16x64xf32>) -> tensor<1x16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<1x16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{tile rank 2 differs from the output rank 3}}
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<1x16x64xf32>
    tb.yield %o : tensor<1x16x64xf32>
  }
  return %r : tensor<1x16x64xf32>
}

// -----

func.func @omap_too_short(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{omap needs one entry per grid dim (x, y, z), got 1}}
    %o = tb.output_saver %a omap [-1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @omap_dim_too_large(%X: tensor<16x64xf32>) -> tensor<16x256xf32> {
  %r = tk.fused grid [1, 1, 4] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x256xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{omap maps grid dim z to tensor dim 2, out of range for rank 2}}
    %o = tb.output_saver %a omap [-1, -1, 2]
           : !tb.tile<16x64xf32> -> tensor<16x256xf32>
    tb.yield %o : tensor<16x256xf32>
  }
  return %r : tensor<16x256xf32>
}

// -----

func.func @omap_dim_below_minus_one(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{omap maps grid dim y to tensor dim -3, out of range for rank 2}}
    %o = tb.output_saver %a omap [-1, -3, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @omap_dim_mapped_twice(%X: tensor<16x64xf32>) -> tensor<16x256xf32> {
  %r = tk.fused grid [2, 2, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x256xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{tensor dim 1 is mapped by grid dims x and y}}
    %o = tb.output_saver %a omap [1, 1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x256xf32>
    tb.yield %o : tensor<16x256xf32>
  }
  return %r : tensor<16x256xf32>
}

// -----

func.func @saver_fmap_too_large(%X: tensor<16x64xf32>) -> tensor<16x256xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x64xf32>) -> tensor<16x256xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum none %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{fmap 2 is out of range for rank 2}}
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 2
           : !tb.tile<16x64xf32> -> tensor<16x256xf32>
    tb.yield %o : tensor<16x256xf32>
  }
  return %r : tensor<16x256xf32>
}

// -----

func.func @saver_fmap_below_minus_one(%X: tensor<16x64xf32>) -> tensor<16x256xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x64xf32>) -> tensor<16x256xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum none %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{fmap -7 is out of range for rank 2}}
    %o = tb.output_saver %a omap [-1, -1, -1] fmap -7
           : !tb.tile<16x64xf32> -> tensor<16x256xf32>
    tb.yield %o : tensor<16x256xf32>
  }
  return %r : tensor<16x256xf32>
}

// -----

func.func @saver_fmap_on_grid_mapped_dim(%X: tensor<16x64xf32>) -> tensor<128x64xf32> {
  %r = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x64xf32>) -> tensor<128x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum none %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{tensor dim 0 is mapped both by grid dim x and by fmap}}
    %o = tb.output_saver %a omap [0, -1, -1] fmap 0
           : !tb.tile<16x64xf32> -> tensor<128x64xf32>
    tb.yield %o : tensor<128x64xf32>
  }
  return %r : tensor<128x64xf32>
}

// -----

func.func @unmapped_grid_dim(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 2, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{grid dim y has 2 blocks but omap does not map it: the blocks would overwrite each other's output}}
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @wrong_output_shape(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{output shape must be 32x64, got 16x64}}
    %o = tb.output_saver %a omap [0, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @wrong_output_shape_fmap(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum none %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{output shape must be 16x256, got 16x64}}
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @wrong_output_element_type(%X: tensor<16x64xf32>) -> tensor<16x64xf16> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf16> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{output element type 'f16' differs from the tile's 'f32'}}
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf16>
    tb.yield %o : tensor<16x64xf16>
  }
  return %r : tensor<16x64xf16>
}

// -----

//===----------------------------------------------------------------------===//
// tb.yield
//===----------------------------------------------------------------------===//

func.func @yield_count(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    // expected-error @+1 {{yields 2 values but the enclosing op has 1 results}}
    tb.yield %o, %o : tensor<16x64xf32>, tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @yield_nothing(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    // expected-error @+1 {{yields 0 values but the enclosing op has 1 results}}
    tb.yield
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @yield_type(%X: tensor<16x64xf32>) -> tensor<16x64xf16> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf16> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    // expected-error @+1 {{value #0 has type 'tensor<16x64xf32>' but the enclosing op's result is 'tensor<16x64xf16>'}}
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf16>
}

// -----

//===----------------------------------------------------------------------===//
// tb.matmul
//===----------------------------------------------------------------------===//

func.func @matmul_element_types(%X: tensor<16x64xf32>, %H: tensor<16x64xf16>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %h = %H : tensor<16x64xf16>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %ht = tb.input_iterator %h imap [-1, -1, -1] fmap -1
            : tensor<16x64xf16> -> !tb.tile<16x64xf16>
    // expected-error @+1 {{element types differ: 'f16' and 'f32'}}
    %m = tb.matmul %ht, %xt : !tb.tile<16x64xf16>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf16>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @matmul_integer_elements(%X: tensor<16x64xf32>, %I: tensor<16x16xi32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %i = %I : tensor<16x16xi32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %it = tb.input_iterator %i imap [-1, -1, -1] fmap -1
            : tensor<16x16xi32> -> !tb.tile<16x16xi32>
    // expected-error @+1 {{expects floating-point elements, got 'i32'}}
    %m = tb.matmul %it, %it : !tb.tile<16x16xi32>, !tb.tile<16x16xi32> -> !tb.tile<16x16xi32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @matmul_rank_one(%X: tensor<16x64xf32>, %V: tensor<64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %v = %V : tensor<64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %vt = tb.input_iterator %v imap [-1, -1, -1] fmap -1
            : tensor<64xf32> -> !tb.tile<64xf32>
    // expected-error @+1 {{expects operands and result of one rank >= 2, got 1, 1 and 1}}
    %m = tb.matmul %vt, %vt : !tb.tile<64xf32>, !tb.tile<64xf32> -> !tb.tile<64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @matmul_rank_mismatch(%X: tensor<16x64xf32>, %B: tensor<2x16x64xf32>, %Y: tensor<64x8xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %b = %B : tensor<2x16x64xf32>, %y = %Y : tensor<64x8xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %bt = tb.input_iterator %b imap [-1, -1, -1] fmap -1
            : tensor<2x16x64xf32> -> !tb.tile<2x16x64xf32>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap -1
            : tensor<64x8xf32> -> !tb.tile<64x8xf32>
    // expected-error @+1 {{expects operands and result of one rank >= 2, got 3, 2 and 3}}
    %m = tb.matmul %bt, %yt : !tb.tile<2x16x64xf32>, !tb.tile<64x8xf32> -> !tb.tile<2x16x8xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @matmul_batch_dims(%X: tensor<16x64xf32>, %B: tensor<2x16x64xf32>, %Y: tensor<3x64x8xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %b = %B : tensor<2x16x64xf32>, %y = %Y : tensor<3x64x8xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %bt = tb.input_iterator %b imap [-1, -1, -1] fmap -1
            : tensor<2x16x64xf32> -> !tb.tile<2x16x64xf32>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap -1
            : tensor<3x64x8xf32> -> !tb.tile<3x64x8xf32>
    // expected-error @+1 {{batch dims differ: 2, 3 and 2}}
    %m = tb.matmul %bt, %yt : !tb.tile<2x16x64xf32>, !tb.tile<3x64x8xf32> -> !tb.tile<2x16x8xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @matmul_result_batch_dims(%X: tensor<16x64xf32>, %B: tensor<2x16x64xf32>, %Y: tensor<2x64x8xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %b = %B : tensor<2x16x64xf32>, %y = %Y : tensor<2x64x8xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %bt = tb.input_iterator %b imap [-1, -1, -1] fmap -1
            : tensor<2x16x64xf32> -> !tb.tile<2x16x64xf32>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap -1
            : tensor<2x64x8xf32> -> !tb.tile<2x64x8xf32>
    // expected-error @+1 {{batch dims differ: 2, 2 and 4}}
    %m = tb.matmul %bt, %yt : !tb.tile<2x16x64xf32>, !tb.tile<2x64x8xf32> -> !tb.tile<4x16x8xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @matmul_contraction(%X: tensor<16x64xf32>, %Y: tensor<32x8xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %y = %Y : tensor<32x8xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap -1
            : tensor<32x8xf32> -> !tb.tile<32x8xf32>
    // expected-error @+1 {{contraction dims differ: lhs has 64 columns, rhs has 32 rows}}
    %m = tb.matmul %xt, %yt : !tb.tile<16x64xf32>, !tb.tile<32x8xf32> -> !tb.tile<16x8xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @matmul_result_shape(%X: tensor<16x64xf32>, %Y: tensor<64x8xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %y = %Y : tensor<64x8xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap -1
            : tensor<64x8xf32> -> !tb.tile<64x8xf32>
    // expected-error @+1 {{result must be 16x8 in its last two dims, got 8x16}}
    %m = tb.matmul %xt, %yt : !tb.tile<16x64xf32>, !tb.tile<64x8xf32> -> !tb.tile<8x16xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tb.unary
//===----------------------------------------------------------------------===//

func.func @mul_scalar_without_scalar(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{mul_scalar needs a scalar}}
    %u = tb.unary mul_scalar %xt : !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @scalar_on_exp(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{only mul_scalar and add_scalar take a scalar, not exp}}
    %u = tb.unary exp(2.0) %xt : !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @unary_integer_elements(%X: tensor<16x64xf32>, %I: tensor<16x64xi32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %i = %I : tensor<16x64xi32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %it = tb.input_iterator %i imap [-1, -1, -1] fmap -1
            : tensor<16x64xi32> -> !tb.tile<16x64xi32>
    // expected-error @+1 {{expects floating-point elements, got 'i32'}}
    %u = tb.unary neg %it : !tb.tile<16x64xi32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @unary_result_type(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{requires the same type for all operands and results}}
    %u = "tb.unary"(%xt) <{kind = #tb<unary exp>}> : (!tb.tile<16x64xf32>) -> !tb.tile<16x32xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tb.binary
//===----------------------------------------------------------------------===//

func.func @binary_element_types(%X: tensor<16x64xf32>, %H: tensor<16x64xf16>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %h = %H : tensor<16x64xf16>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %ht = tb.input_iterator %h imap [-1, -1, -1] fmap -1
            : tensor<16x64xf16> -> !tb.tile<16x64xf16>
    // expected-error @+1 {{element types differ: 'f32' and 'f16'}}
    %b = tb.binary add %xt, %ht : !tb.tile<16x64xf32>, !tb.tile<16x64xf16> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @binary_result_element_type(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{element types differ: 'f32' and 'f16'}}
    %b = tb.binary add %xt, %xt : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf16>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @binary_integer_elements(%X: tensor<16x64xf32>, %I: tensor<16x64xi32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %i = %I : tensor<16x64xi32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %it = tb.input_iterator %i imap [-1, -1, -1] fmap -1
            : tensor<16x64xi32> -> !tb.tile<16x64xi32>
    // expected-error @+1 {{expects floating-point elements, got 'i32'}}
    %b = tb.binary mul %it, %it : !tb.tile<16x64xi32>, !tb.tile<16x64xi32> -> !tb.tile<16x64xi32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @binary_not_broadcastable(%X: tensor<16x64xf32>, %Y: tensor<32x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %y = %Y : tensor<32x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap -1
            : tensor<32x64xf32> -> !tb.tile<32x64xf32>
    // expected-error @+1 {{shapes 16x64 and 32x64 do not broadcast}}
    %b = tb.binary sub %xt, %yt : !tb.tile<16x64xf32>, !tb.tile<32x64xf32> -> !tb.tile<32x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @binary_result_shape(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %c = tb.reduce sum %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    // expected-error @+1 {{result shape must be the broadcast shape 16x64, got 16x1}}
    %b = tb.binary div %xt, %c : !tb.tile<16x64xf32>, !tb.tile<16x1xf32> -> !tb.tile<16x1xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tb.reduce
//===----------------------------------------------------------------------===//

func.func @reduce_element_types(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{element types differ: 'f32' and 'f16'}}
    %s = tb.reduce sum %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf16>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @reduce_dim_too_large(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{reduction dim 2 is out of range for rank 2}}
    %s = tb.reduce sum %xt dim 2 : !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @reduce_dim_negative(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{reduction dim -1 is out of range for rank 2}}
    %s = tb.reduce max %xt dim -1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @reduce_to_not_dividing(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{cannot reduce dim 1 of size 64 to 3 elements: it must divide the size}}
    %s = tb.reduce mean %xt dim 1 to 3 : !tb.tile<16x64xf32> -> !tb.tile<16x3xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @reduce_to_zero(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{cannot reduce dim 1 of size 64 to 0 elements: it must divide the size}}
    %s = tb.reduce sum %xt dim 1 to 0 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @reduce_to_larger_than_dim(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{cannot reduce dim 0 of size 16 to 32 elements: it must divide the size}}
    %s = tb.reduce sum %xt dim 0 to 32 : !tb.tile<16x64xf32> -> !tb.tile<32x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @reduce_result_shape(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{result shape must be 16x4, got 16x1}}
    %s = tb.reduce sum %xt dim 1 to 4 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @reduce_result_rank(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{result shape must be 16x1, got 16}}
    %s = tb.reduce sum %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tb.concat
//===----------------------------------------------------------------------===//

func.func @concat_no_inputs(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{needs at least one input}}
    %c = "tb.concat"() <{dim = 0 : i64}> : () -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @concat_element_types(%X: tensor<16x64xf32>, %H: tensor<16x64xf16>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %h = %H : tensor<16x64xf16>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %ht = tb.input_iterator %h imap [-1, -1, -1] fmap -1
            : tensor<16x64xf16> -> !tb.tile<16x64xf16>
    // expected-error @+1 {{element types differ: 'f32' and 'f16'}}
    %c = tb.concat %xt, %ht dim 0 : !tb.tile<16x64xf32>, !tb.tile<16x64xf16> -> !tb.tile<32x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @concat_dim_too_large(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{dim 2 is out of range for rank 2}}
    %c = tb.concat %xt, %xt dim 2 : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @concat_dim_negative(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{dim -1 is out of range for rank 2}}
    %c = tb.concat %xt, %xt dim -1 : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x128xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @concat_operand_rank(%X: tensor<16x64xf32>, %V: tensor<64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %v = %V : tensor<64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %vt = tb.input_iterator %v imap [-1, -1, -1] fmap -1
            : tensor<64xf32> -> !tb.tile<64xf32>
    // expected-error @+1 {{operand #1 has rank 1, expected 2}}
    %c = tb.concat %xt, %vt dim 1 : !tb.tile<16x64xf32>, !tb.tile<64xf32> -> !tb.tile<16x128xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @concat_first_operand_rank(%X: tensor<16x64xf32>, %V: tensor<64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %v = %V : tensor<64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %vt = tb.input_iterator %v imap [-1, -1, -1] fmap -1
            : tensor<64xf32> -> !tb.tile<64xf32>
    // expected-error @+1 {{operand #0 has rank 1, expected 2}}
    %c = tb.concat %vt, %xt dim 1 : !tb.tile<64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x128xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @concat_operand_size(%X: tensor<16x64xf32>, %Y: tensor<8x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %y = %Y : tensor<8x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap -1
            : tensor<8x64xf32> -> !tb.tile<8x64xf32>
    // expected-error @+1 {{operand #1 has size 8 in dim 0, expected 16}}
    %c = tb.concat %xt, %yt dim 1 : !tb.tile<16x64xf32>, !tb.tile<8x64xf32> -> !tb.tile<16x128xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @concat_result_shape(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{result shape must be 16x128, the operands joined along dim 1, got 16x64}}
    %c = tb.concat %xt, %xt dim 1 : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tb.rms_norm
//===----------------------------------------------------------------------===//

func.func @rms_norm_negative_epsilon(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{epsilon must be finite and non-negative}}
    %n = tb.rms_norm %xt {epsilon = -1.0e-05 : f32} : !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @rms_norm_integer_elements(%X: tensor<16x64xf32>, %I: tensor<16x64xi32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>, %i = %I : tensor<16x64xi32>)
      -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %it = tb.input_iterator %i imap [-1, -1, -1] fmap -1
            : tensor<16x64xi32> -> !tb.tile<16x64xi32>
    // expected-error @+1 {{expects floating-point elements, got 'i32'}}
    %n = tb.rms_norm %it : !tb.tile<16x64xi32>
    %a = tb.forloop_accum sum %xt
           : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @reduce_integer_tile(%X: tensor<16x64xi32>) -> tensor<16x1xi32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
         (%x = %X : tensor<16x64xi32>) -> tensor<16x1xi32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xi32> -> !tb.tile<16x64xi32>
    // expected-error @+1 {{'tb.reduce' op expects floating-point elements, got 'i32'}}
    %r = tb.reduce sum %xt dim 1 : !tb.tile<16x64xi32> -> !tb.tile<16x1xi32>
    %acc = tb.forloop_accum none %r : (!tb.tile<16x1xi32>) -> !tb.tile<16x1xi32>
    %out = tb.output_saver %acc omap [-1, -1, -1]
             : !tb.tile<16x1xi32> -> tensor<16x1xi32>
    tb.yield %out : tensor<16x1xi32>
  }
  return %Y : tensor<16x1xi32>
}

// -----

func.func @concat_low_rank_operand_high_dim(%X: tensor<64xf32>) -> tensor<1x128xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
         (%x = %X : tensor<64xf32>) -> tensor<1x128xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<64xf32> -> !tb.tile<64xf32>
    // expected-error @+1 {{'tb.concat' op operand #0 has rank 1, expected 2}}
    %c = tb.concat %xt, %xt dim 1 : !tb.tile<64xf32>, !tb.tile<64xf32> -> !tb.tile<1x128xf32>
    %acc = tb.forloop_accum sum %c : (!tb.tile<1x128xf32>) -> !tb.tile<1x128xf32>
    %out = tb.output_saver %acc omap [-1, -1, -1]
             : !tb.tile<1x128xf32> -> tensor<1x128xf32>
    tb.yield %out : tensor<1x128xf32>
  }
  return %Y : tensor<1x128xf32>
}

// -----

func.func @rms_norm_infinite_epsilon(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
         (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.rms_norm' op epsilon must be finite and non-negative}}
    %n = tb.rms_norm %xt {epsilon = 0x7F800000 : f32} : !tb.tile<16x64xf32>
    %acc = tb.forloop_accum none %n : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %out = tb.output_saver %acc omap [-1, -1, -1]
             : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %out : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// A grid-wide rms_norm across a grid dim of one block.
func.func @rms_norm_across_one_block(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 4, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, 1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'tb.rms_norm' op normalizes across grid dim x, which has 1 block: drop `across`}}
    %n = tb.rms_norm %xt across 0 : !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %n : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, 1, -1]
           : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// A grid-wide rms_norm inside the loop: blocks would wait for each other
// every iteration.
func.func @rms_norm_across_in_loop(%X: tensor<16x64xf32>) -> tensor<4x64xf32> {
  %r = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x64xf32>) -> tensor<4x64xf32> {
    %xt = tb.input_iterator %x imap [1, -1, -1] fmap 0
            : tensor<16x64xf32> -> !tb.tile<4x16xf32>
    // expected-error @+1 {{'tb.rms_norm' op normalizes a per-iteration tile (not yet accumulated) across blocks: a grid-wide rms_norm must come after a reducing tb.forloop_accum, or take tiles the loop does not walk}}
    %n = tb.rms_norm %xt across 0 : !tb.tile<4x16xf32>
    %a = tb.forloop_accum sum %n : (!tb.tile<4x16xf32>) -> !tb.tile<4x16xf32>
    %o = tb.output_saver %a omap [1, -1, -1]
           : !tb.tile<4x16xf32> -> tensor<4x64xf32>
    tb.yield %o : tensor<4x64xf32>
  }
  return %r : tensor<4x64xf32>
}

// -----

// After a `none` accumulator the lowering computes a tile in the loop, once
// an iteration: blocks would wait for each other there each time.
func.func @rms_norm_across_kept(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %xt : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'tb.rms_norm' op normalizes a tile kept per iteration by a `none` accumulator across blocks}}
    %n = tb.rms_norm %a across 0 : !tb.tile<16x16xf32>
    %o = tb.output_saver %n omap [1, -1, -1]
           : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}
