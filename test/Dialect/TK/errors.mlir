// RUN: tileopt-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// tk.matmul
//===----------------------------------------------------------------------===//

func.func @matmul_rank_one(%a: tensor<64xf32>, %b: tensor<64xf32>) {
  // expected-error @+1 {{'tk.matmul' op expects operands of rank >= 2, got 1 and 1}}
  %0 = tk.matmul %a, %b : tensor<64xf32>, tensor<64xf32> -> tensor<1xf32>
  return
}

// -----

func.func @matmul_result_rank(%a: tensor<2x16x64xf32>, %b: tensor<64x32xf32>) {
  // expected-error @+1 {{'tk.matmul' op result must have the broadcast batch dims 2, got scalar}}
  %0 = tk.matmul %a, %b : tensor<2x16x64xf32>, tensor<64x32xf32> -> tensor<16x32xf32>
  return
}

// -----

// A result of rank 1: its batch dims were read past its shape's start to
// print them (a crash found by test/fuzz/fuzz.py).
func.func @matmul_result_rank_one(%a: tensor<2x16x64xf32>, %b: tensor<64x32xf32>) {
  // expected-error @+1 {{'tk.matmul' op expects a result of rank >= 2, got 1}}
  %0 = tk.matmul %a, %b : tensor<2x16x64xf32>, tensor<64x32xf32> -> tensor<16xf32>
  return
}

// -----

func.func @matmul_batch_dims(%a: tensor<2x16x64xf32>, %b: tensor<3x64x32xf32>) {
  // expected-error @+1 {{'tk.matmul' op batch dims 2 and 3 do not broadcast}}
  %0 = tk.matmul %a, %b : tensor<2x16x64xf32>, tensor<3x64x32xf32> -> tensor<2x16x32xf32>
  return
}

// -----

func.func @matmul_result_batch_dims(%a: tensor<2x16x64xf32>, %b: tensor<2x64x32xf32>) {
  // expected-error @+1 {{'tk.matmul' op result must have the broadcast batch dims 2, got 4}}
  %0 = tk.matmul %a, %b : tensor<2x16x64xf32>, tensor<2x64x32xf32> -> tensor<4x16x32xf32>
  return
}

// -----

func.func @matmul_contraction(%a: tensor<16x64xf32>, %b: tensor<32x128xf32>) {
  // expected-error @+1 {{'tk.matmul' op contraction dims differ: lhs has 64 columns, rhs has 32 rows}}
  %0 = tk.matmul %a, %b : tensor<16x64xf32>, tensor<32x128xf32> -> tensor<16x128xf32>
  return
}

// -----

func.func @matmul_result_shape(%a: tensor<16x64xf32>, %b: tensor<64x128xf32>) {
  // expected-error @+1 {{'tk.matmul' op result must be 16x128 in its last two dims, got 128x16}}
  %0 = tk.matmul %a, %b : tensor<16x64xf32>, tensor<64x128xf32> -> tensor<128x16xf32>
  return
}

// -----

func.func @matmul_element_types(%a: tensor<16x64xf16>, %b: tensor<64x128xf32>) {
  // expected-error @+1 {{'tk.matmul' op element types differ: 'f16' and 'f32'}}
  %0 = tk.matmul %a, %b : tensor<16x64xf16>, tensor<64x128xf32> -> tensor<16x128xf16>
  return
}

// -----

func.func @matmul_result_element_type(%a: tensor<16x64xf16>, %b: tensor<64x128xf16>) {
  // expected-error @+1 {{'tk.matmul' op element types differ: 'f16' and 'f32'}}
  %0 = tk.matmul %a, %b : tensor<16x64xf16>, tensor<64x128xf16> -> tensor<16x128xf32>
  return
}

// -----

func.func @matmul_integer(%a: tensor<16x64xi8>, %b: tensor<64x128xi8>) {
  // expected-error @+1 {{'tk.matmul' op expects floating-point elements, got 'i8'}}
  %0 = tk.matmul %a, %b : tensor<16x64xi8>, tensor<64x128xi8> -> tensor<16x128xi8>
  return
}

//===----------------------------------------------------------------------===//
// tk.unary
//===----------------------------------------------------------------------===//

// -----

func.func @unary_mul_scalar_without_scalar(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tk.unary' op mul_scalar needs a scalar}}
  %0 = tk.unary mul_scalar %x : tensor<8x16xf32>
  return
}

// -----

func.func @unary_add_scalar_without_scalar(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tk.unary' op add_scalar needs a scalar}}
  %0 = tk.unary add_scalar %x : tensor<8x16xf32>
  return
}

// -----

func.func @unary_scalar_on_exp(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tk.unary' op only mul_scalar and add_scalar take a scalar, not exp}}
  %0 = tk.unary exp(2.0) %x : tensor<8x16xf32>
  return
}

// -----

func.func @unary_scalar_on_relu_generic(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tk.unary' op only mul_scalar and add_scalar take a scalar, not relu}}
  %0 = "tk.unary"(%x) <{kind = #tk<unary relu>, scalar = 1.0 : f32}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @unary_integer(%x: tensor<8x16xi32>) {
  // expected-error @+1 {{'tk.unary' op expects floating-point elements, got 'i32'}}
  %0 = tk.unary exp %x : tensor<8x16xi32>
  return
}

// -----

func.func @unary_result_type(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tk.unary' op requires the same type for all operands and results}}
  %0 = "tk.unary"(%x) <{kind = #tk<unary exp>}> : (tensor<8x16xf32>) -> tensor<8x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// tk.binary
//===----------------------------------------------------------------------===//

// -----

func.func @binary_no_broadcast(%a: tensor<4x8xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'tk.binary' op shapes 4x8 and 4x3 do not broadcast}}
  %0 = tk.binary add %a, %b : tensor<4x8xf32>, tensor<4x3xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @binary_result_shape(%a: tensor<4x8xf32>, %b: tensor<4x1xf32>) {
  // expected-error @+1 {{'tk.binary' op result shape must be the broadcast shape 4x8, got 4x1}}
  %0 = tk.binary mul %a, %b : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @binary_result_rank(%a: tensor<8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'tk.binary' op result shape must be the broadcast shape 8, got 1x8}}
  %0 = tk.binary sub %a, %b : tensor<8xf32>, tensor<8xf32> -> tensor<1x8xf32>
  return
}

// -----

func.func @binary_element_types(%a: tensor<4x8xf32>, %b: tensor<4x8xf16>) {
  // expected-error @+1 {{'tk.binary' op element types differ: 'f32' and 'f16'}}
  %0 = tk.binary div %a, %b : tensor<4x8xf32>, tensor<4x8xf16> -> tensor<4x8xf32>
  return
}

// -----

func.func @binary_integer(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) {
  // expected-error @+1 {{'tk.binary' op expects floating-point elements, got 'i32'}}
  %0 = tk.binary pow %a, %b : tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xi32>
  return
}

//===----------------------------------------------------------------------===//
// tk.reduce
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_dim_too_large(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.reduce' op reduction dim 2 is out of range for rank 2}}
  %0 = tk.reduce sum %x dim 2 : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_dim_negative(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.reduce' op reduction dim -1 is out of range for rank 2}}
  %0 = tk.reduce max %x dim -1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @reduce_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.reduce' op result shape must be 4x1, got 4}}
  %0 = tk.reduce mean %x dim 1 : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_result_wrong_dim(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.reduce' op result shape must be 1x8, got 4x1}}
  %0 = tk.reduce sum %x dim 0 : tensor<4x8xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @reduce_element_types(%x: tensor<4x8xf16>) {
  // expected-error @+1 {{'tk.reduce' op element types differ: 'f16' and 'f32'}}
  %0 = tk.reduce sum %x dim 1 : tensor<4x8xf16> -> tensor<4x1xf32>
  return
}

// -----

func.func @reduce_integer(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'tk.reduce' op expects floating-point elements, got 'i32'}}
  %0 = tk.reduce sum %x dim 1 : tensor<4x8xi32> -> tensor<4x1xi32>
  return
}

//===----------------------------------------------------------------------===//
// tk.rms_norm
//===----------------------------------------------------------------------===//

// -----

func.func @rms_norm_negative_epsilon(%x: tensor<16x4096xf16>) {
  // expected-error @+1 {{'tk.rms_norm' op epsilon must be finite and non-negative}}
  %0 = tk.rms_norm %x {epsilon = -1.0e-5 : f32} : tensor<16x4096xf16>
  return
}

// -----

func.func @rms_norm_integer(%x: tensor<16x4096xi16>) {
  // expected-error @+1 {{'tk.rms_norm' op expects floating-point elements, got 'i16'}}
  %0 = tk.rms_norm %x : tensor<16x4096xi16>
  return
}

//===----------------------------------------------------------------------===//
// tk.concat
//===----------------------------------------------------------------------===//

// -----

func.func @concat_no_inputs() {
  // expected-error @+1 {{'tk.concat' op needs at least one input}}
  %0 = "tk.concat"() <{dim = 0 : i64}> : () -> tensor<4x8xf32>
  return
}

// -----

func.func @concat_dim_out_of_range(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.concat' op dim 2 is out of range for rank 2}}
  %0 = tk.concat %a, %b dim 2 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @concat_rank_mismatch(%a: tensor<4x8xf32>, %b: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'tk.concat' op operand #1 has rank 3, expected 2}}
  %0 = tk.concat %a, %b dim 0 : tensor<4x8xf32>, tensor<2x4x8xf32> -> tensor<6x8xf32>
  return
}

// -----

func.func @concat_size_mismatch(%a: tensor<4x8xf32>, %b: tensor<3x2xf32>) {
  // expected-error @+1 {{'tk.concat' op operand #1 has size 3 in dim 0, expected 4}}
  %0 = tk.concat %a, %b dim 1 : tensor<4x8xf32>, tensor<3x2xf32> -> tensor<4x10xf32>
  return
}

// -----

func.func @concat_result_shape(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{'tk.concat' op result shape must be 4x10, the operands joined along dim 1, got 4x16}}
  %0 = tk.concat %a, %b dim 1 : tensor<4x8xf32>, tensor<4x2xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @concat_element_types(%a: tensor<4x8xf32>, %b: tensor<4x2xf16>) {
  // expected-error @+1 {{'tk.concat' op element types differ: 'f32' and 'f16'}}
  %0 = tk.concat %a, %b dim 1 : tensor<4x8xf32>, tensor<4x2xf16> -> tensor<4x10xf32>
  return
}

//===----------------------------------------------------------------------===//
// tk.split
//===----------------------------------------------------------------------===//

// -----

func.func @split_no_results(%x: tensor<12x8xf32>) {
  // expected-error @+1 {{'tk.split' op needs at least one result}}
  "tk.split"(%x) <{dim = 0 : i64}> : (tensor<12x8xf32>) -> ()
  return
}

// -----

// The sizes of the results do not add up to the input's: the shared concat
// check names the input "result".
func.func @split_sizes_do_not_sum(%x: tensor<12x8xf32>) {
  // expected-error @+1 {{'tk.split' op input shape must be 10x8, the results joined along dim 0, got 12x8}}
  %0:2 = tk.split %x dim 0 : tensor<12x8xf32> -> tensor<4x8xf32>, tensor<6x8xf32>
  return
}

// -----

func.func @split_other_dim_mismatch(%x: tensor<12x8xf32>) {
  // expected-error @+1 {{'tk.split' op result #1 has size 4 in dim 1, expected 8}}
  %0:2 = tk.split %x dim 0 : tensor<12x8xf32> -> tensor<6x8xf32>, tensor<6x4xf32>
  return
}

// -----

func.func @split_dim_out_of_range(%x: tensor<12x8xf32>) {
  // expected-error @+1 {{'tk.split' op dim 2 is out of range for rank 2}}
  %0:2 = tk.split %x dim 2 : tensor<12x8xf32> -> tensor<6x8xf32>, tensor<6x8xf32>
  return
}

// -----

func.func @split_element_types(%x: tensor<12x8xf32>) {
  // expected-error @+1 {{'tk.split' op element types differ: 'f32' and 'f16'}}
  %0:2 = tk.split %x dim 0 : tensor<12x8xf32> -> tensor<6x8xf32>, tensor<6x8xf16>
  return
}

//===----------------------------------------------------------------------===//
// tk.reshape
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_element_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.reshape' op cannot reshape 32 elements into 30}}
  %0 = tk.reshape %x : tensor<4x8xf32> -> tensor<5x6xf32>
  return
}

// -----

func.func @reshape_element_types(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.reshape' op element types differ: 'f32' and 'f16'}}
  %0 = tk.reshape %x : tensor<4x8xf32> -> tensor<32xf16>
  return
}

//===----------------------------------------------------------------------===//
// tk.transpose
//===----------------------------------------------------------------------===//

// -----

func.func @transpose_repeated_entry(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.transpose' op [0, 0] is not a permutation of 0..1}}
  %0 = tk.transpose %x [0, 0] : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @transpose_entry_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.transpose' op [2, 0] is not a permutation of 0..1}}
  %0 = tk.transpose %x [2, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @transpose_wrong_length(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.transpose' op permutation has 3 entries for rank 2}}
  %0 = tk.transpose %x [1, 0, 2] : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @transpose_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.transpose' op result shape must be 8x4, got 4x8}}
  %0 = tk.transpose %x [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @transpose_element_types(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.transpose' op element types differ: 'f32' and 'bf16'}}
  %0 = tk.transpose %x [1, 0] : tensor<4x8xf32> -> tensor<8x4xbf16>
  return
}

//===----------------------------------------------------------------------===//
// ODS: static shapes only
//===----------------------------------------------------------------------===//

// -----

func.func @dynamic_shape(%x: tensor<?x8xf32>) {
  // expected-error @+1 {{'tk.unary' op operand #0 must be statically shaped tensor with positive dims, but got 'tensor<?x8xf32>'}}
  %0 = tk.unary exp %x : tensor<?x8xf32>
  return
}

// -----

func.func @dynamic_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.reshape' op result #0 must be statically shaped tensor with positive dims, but got 'tensor<?xf32>'}}
  %0 = tk.reshape %x : tensor<4x8xf32> -> tensor<?xf32>
  return
}

// -----

func.func @unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{'tk.rms_norm' op operand #0 must be statically shaped tensor with positive dims, but got 'tensor<*xf32>'}}
  %0 = "tk.rms_norm"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

//===----------------------------------------------------------------------===//
// tk.fused: launch configuration
//===----------------------------------------------------------------------===//

// -----

func.func @fused_grid_two_dims(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op grid and block need three dims (x, y, z), got 2 and 3}}
  %Y = tk.fused grid [1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_block_four_dims(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op grid and block need three dims (x, y, z), got 3 and 4}}
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_grid_x_zero(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op grid dim x is 0, must be in [1, 2147483647]}}
  %Y = tk.fused grid [0, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_grid_x_too_large(%X: tensor<2147483648x64xf32>) -> tensor<2147483648x64xf32> {
  // expected-error @+1 {{'tk.fused' op grid dim x is 2147483648, must be in [1, 2147483647]}}
  %Y = tk.fused grid [2147483648, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<2147483648x64xf32>) -> tensor<2147483648x64xf32> {
    %t = tb.input_iterator %x imap [0, -1, -1] fmap 1 : tensor<2147483648x64xf32> -> !tb.tile<1x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<1x16xf32>) -> !tb.tile<1x16xf32>
    %o = tb.output_saver %a omap [0, -1, -1] fmap 1 : !tb.tile<1x16xf32> -> tensor<2147483648x64xf32>
    tb.yield %o : tensor<2147483648x64xf32>
  }
  return %Y : tensor<2147483648x64xf32>
}

// -----

func.func @fused_grid_y_too_large(%X: tensor<65536x64xf32>) -> tensor<65536x64xf32> {
  // expected-error @+1 {{'tk.fused' op grid dim y is 65536, must be in [1, 65535]}}
  %Y = tk.fused grid [1, 65536, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<65536x64xf32>) -> tensor<65536x64xf32> {
    %t = tb.input_iterator %x imap [-1, 0, -1] fmap 1 : tensor<65536x64xf32> -> !tb.tile<1x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<1x16xf32>) -> !tb.tile<1x16xf32>
    %o = tb.output_saver %a omap [-1, 0, -1] fmap 1 : !tb.tile<1x16xf32> -> tensor<65536x64xf32>
    tb.yield %o : tensor<65536x64xf32>
  }
  return %Y : tensor<65536x64xf32>
}

// -----

func.func @fused_grid_z_too_large(%X: tensor<65536x64xf32>) -> tensor<65536x64xf32> {
  // expected-error @+1 {{'tk.fused' op grid dim z is 65536, must be in [1, 65535]}}
  %Y = tk.fused grid [1, 1, 65536] block [128, 1, 1] forloop 4 (%x = %X : tensor<65536x64xf32>) -> tensor<65536x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, 0] fmap 1 : tensor<65536x64xf32> -> !tb.tile<1x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<1x16xf32>) -> !tb.tile<1x16xf32>
    %o = tb.output_saver %a omap [-1, -1, 0] fmap 1 : !tb.tile<1x16xf32> -> tensor<65536x64xf32>
    tb.yield %o : tensor<65536x64xf32>
  }
  return %Y : tensor<65536x64xf32>
}

// -----

func.func @fused_grid_negative(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op grid dim y is -2, must be in [1, 65535]}}
  %Y = tk.fused grid [1, -2, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_block_x_too_large(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op block dim x is 2048, must be in [1, 1024]}}
  %Y = tk.fused grid [1, 1, 1] block [2048, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_block_y_zero(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op block dim y is 0, must be in [1, 1024]}}
  %Y = tk.fused grid [1, 1, 1] block [128, 0, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_block_z_too_large(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op block dim z is 65, must be in [1, 64]}}
  %Y = tk.fused grid [1, 1, 1] block [1, 1, 65] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_too_many_threads(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op a block of 2048 threads exceeds the limit of 1024}}
  %Y = tk.fused grid [1, 1, 1] block [512, 2, 2] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_forloop_zero(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op forloop range must be at least 1, got 0}}
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 0 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap -1 : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %t : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_forloop_negative(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op forloop range must be at least 1, got -4}}
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop -4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap -1 : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %t : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

//===----------------------------------------------------------------------===//
// tk.fused: region arguments (generic form: the custom form binds them)
//===----------------------------------------------------------------------===//

// -----

func.func @fused_region_argument_count(%X: tensor<16x64xf32>, %Z: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op block graph has 1 arguments for 2 inputs}}
  %Y = "tk.fused"(%X, %Z) <{block_dims = array<i64: 128, 1, 1>, forloop_range = 4 : i64, grid_dims = array<i64: 1, 1, 1>}> ({
  ^bb0(%x: tensor<16x64xf32>):
    %t = "tb.input_iterator"(%x) <{fmap = 1 : i64, imap = array<i64: -1, -1, -1>}> : (tensor<16x64xf32>) -> !tb.tile<16x16xf32>
    %a = "tb.forloop_accum"(%t) <{kind = #tb<accum none>}> : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = "tb.output_saver"(%a) <{fmap = 1 : i64, omap = array<i64: -1, -1, -1>}> : (!tb.tile<16x16xf32>) -> tensor<16x64xf32>
    "tb.yield"(%o) : (tensor<16x64xf32>) -> ()
  }) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_region_argument_extra(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tk.fused' op block graph has 2 arguments for 1 inputs}}
  %Y = "tk.fused"(%X) <{block_dims = array<i64: 128, 1, 1>, forloop_range = 4 : i64, grid_dims = array<i64: 1, 1, 1>}> ({
  ^bb0(%x: tensor<16x64xf32>, %z: tensor<16x64xf32>):
    %t = "tb.input_iterator"(%x) <{fmap = 1 : i64, imap = array<i64: -1, -1, -1>}> : (tensor<16x64xf32>) -> !tb.tile<16x16xf32>
    %a = "tb.forloop_accum"(%t) <{kind = #tb<accum none>}> : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = "tb.output_saver"(%a) <{fmap = 1 : i64, omap = array<i64: -1, -1, -1>}> : (!tb.tile<16x16xf32>) -> tensor<16x64xf32>
    "tb.yield"(%o) : (tensor<16x64xf32>) -> ()
  }) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  return %Y : tensor<16x64xf32>
}

// -----

func.func @fused_region_argument_type(%X: tensor<16x64xf32>) -> tensor<16x64xf16> {
  // expected-error @+1 {{'tk.fused' op block graph argument #0 has type 'tensor<16x64xf16>' but input #0 is 'tensor<16x64xf32>'}}
  %Y = "tk.fused"(%X) <{block_dims = array<i64: 128, 1, 1>, forloop_range = 4 : i64, grid_dims = array<i64: 1, 1, 1>}> ({
  ^bb0(%x: tensor<16x64xf16>):
    %t = "tb.input_iterator"(%x) <{fmap = 1 : i64, imap = array<i64: -1, -1, -1>}> : (tensor<16x64xf16>) -> !tb.tile<16x16xf16>
    %a = "tb.forloop_accum"(%t) <{kind = #tb<accum none>}> : (!tb.tile<16x16xf16>) -> !tb.tile<16x16xf16>
    %o = "tb.output_saver"(%a) <{fmap = 1 : i64, omap = array<i64: -1, -1, -1>}> : (!tb.tile<16x16xf16>) -> tensor<16x64xf16>
    "tb.yield"(%o) : (tensor<16x64xf16>) -> ()
  }) : (tensor<16x64xf32>) -> tensor<16x64xf16>
  return %Y : tensor<16x64xf16>
}

// -----

func.func @fused_dynamic_input(%X: tensor<?x64xf32>) {
  // expected-error @+1 {{'tk.fused' op operand #0 must be variadic of statically shaped tensor with positive dims, but got 'tensor<?x64xf32>'}}
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1 (%x = %X : tensor<?x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap -1 : tensor<?x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %t : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return
}

// -----

// The rank check comes before any indexing by dim: a lower-rank first
// operand with a dim beyond its rank is a diagnostic, not a crash.
func.func @concat_low_rank_operand_high_dim(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tk.concat' op operand #0 has rank 1, expected 3}}
  %0 = tk.concat %a dim 2 : tensor<4xf32> -> tensor<1x1x4xf32>
  return
}

// -----

func.func @rms_norm_rank_zero(%x: tensor<f32>) {
  // expected-error @+1 {{'tk.rms_norm' op normalizes over the last dim and needs rank >= 1}}
  %0 = tk.rms_norm %x : tensor<f32>
  return
}

// -----

func.func @rms_norm_nan_epsilon(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.rms_norm' op epsilon must be finite and non-negative}}
  %0 = tk.rms_norm %x {epsilon = 0x7FC00000 : f32} : tensor<4x8xf32>
  return
}

// -----

func.func @zero_sized_dim(%x: tensor<0x8xf32>) {
  // expected-error @+1 {{'tk.unary' op operand #0 must be statically shaped tensor with positive dims, but got 'tensor<0x8xf32>'}}
  %0 = tk.unary exp %x : tensor<0x8xf32>
  return
}

// -----

func.func @fused_without_outputs(%z: tensor<4x8xf32>) {
  // expected-error @+1 {{'tk.fused' op must produce at least one output}}
  tk.fused grid [1, 1, 1] block [32, 1, 1] forloop 1
      (%a = %z : tensor<4x8xf32>) -> () {
    tb.yield
  }
  return
}

// -----

func.func @map_no_inputs() -> tensor<4xf32> {
  // expected-error @+1 {{'tk.map' op needs at least one input}}
  %0 = "tk.map"() ({
    %c = arith.constant 1.0 : f32
    tk.yield %c : f32
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @map_bad_broadcast(%x: tensor<8x4xf32>) -> tensor<8x5xf32> {
  // expected-error @+1 {{'tk.map' op input #0 of shape 8x4 does not broadcast to the result shape 8x5}}
  %0 = tk.map (%a = %x : tensor<8x4xf32>) -> tensor<8x5xf32> {
    tk.yield %a : f32
  }
  return %0 : tensor<8x5xf32>
}

// -----

func.func @map_argument_type(%x: tensor<8x4xf16>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'tk.map' op region argument #0 has type 'f32', expected the element type 'f16' of input #0}}
  %0 = "tk.map"(%x) ({
  ^bb0(%a: f32):
    tk.yield %a : f32
  }) : (tensor<8x4xf16>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @map_tensor_op(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = tk.map (%a = %x : tensor<8x4xf32>) -> tensor<8x4xf32> {
    // expected-error @+1 {{'tensor.empty' op is not allowed in a tk.map: it holds scalar arith and math ops only}}
    %e = tensor.empty() : tensor<4xf32>
    tk.yield %a : f32
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @map_yield_type(%x: tensor<8x4xf32>) -> tensor<8x4xf16> {
  %0 = tk.map (%a = %x : tensor<8x4xf32>) -> tensor<8x4xf16> {
    // expected-error @+1 {{'tk.yield' op value #0 has type 'f32', expected 'f16', the element type of result #0}}
    tk.yield %a : f32
  }
  return %0 : tensor<8x4xf16>
}

// -----

func.func @map_integer_tensor(%x: tensor<8x4xi32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'tk.map' op expects floating-point elements, got 'i32'}}
  %0 = tk.map (%a = %x : tensor<8x4xi32>) -> tensor<8x4xf32> {
    %f = arith.sitofp %a : i32 to f32
    tk.yield %f : f32
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @structured_argument_type(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tk.structured' op region argument #0 has type 'tensor<4xf32>', expected 'tensor<8xf32>', the type of input #0}}
  %0 = "tk.structured"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %e = tensor.empty() : tensor<8xf32>
    tk.yield %e : tensor<8xf32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @structured_without_generic(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tk.structured' op must yield the result of a linalg.generic}}
  %0 = tk.structured (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
    tk.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @structured_other_op(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tk.structured (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{'linalg.exp' op is not allowed in a tk.structured: it holds one linalg.generic and the tensor.empty, linalg.fill and arith.constant ops of its init}}
    %b = linalg.exp ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%b : tensor<8xf32>) outs(%a : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8xf32>
    tk.yield %g : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @structured_payload(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tk.structured (%a = %x : tensor<8xf32>) -> tensor<8xf32> {
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      // expected-error @+1 {{'tensor.empty' op is not allowed in the payload of a tk.structured: it takes arith and math ops, linalg.index and tensor.extract}}
      %e = tensor.empty() : tensor<2xf32>
      linalg.yield %in : f32
    } -> tensor<8xf32>
    tk.yield %g : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @structured_integers(%x: tensor<8xi32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tk.structured' op expects floating-point elements, got 'i32'}}
  %0 = tk.structured (%a = %x : tensor<8xi32>) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    tk.yield %e : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
