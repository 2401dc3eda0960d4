// RUN: tileopt-opt %s -split-input-file -verify-diagnostics

// Every case but the error it tests is a valid block graph: X is 16x64, the
// for-loop walks its columns in 4 tiles of 16x16, and a `none` accumulator
// lays them back out.

//===----------------------------------------------------------------------===//
// th.graph: inputs and results
//===----------------------------------------------------------------------===//

func.func @no_inputs(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op needs at least one input and one result}}
    %g = th.graph () -> !tb.tile<16x16xf32> {
      %c = arith.constant 1.0 : f32
      th.yield %c : f32
    }
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @no_results(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op needs at least one input and one result}}
    th.graph (%s = %t : !tb.tile<16x16xf32>) -> () {
      th.yield
    }
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @inputs_do_not_broadcast(%X: tensor<16x64xf32>, %Z: tensor<16x32xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
         (%x = %X : tensor<16x64xf32>, %z = %Z : tensor<16x32xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %u = tb.input_iterator %z imap [-1, -1, -1] fmap 1 : tensor<16x32xf32> -> !tb.tile<16x8xf32>
    // expected-error @+1 {{'th.graph' op input #1 of shape 16x8 does not broadcast to the result shape 16x16}}
    %g = th.graph (%a = %t : !tb.tile<16x16xf32>, %b = %u : !tb.tile<16x8xf32>) -> !tb.tile<16x16xf32> {
      %s = arith.addf %a, %b : f32
      th.yield %s : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @result_not_broadcast_shape(%X: tensor<16x64xf32>) -> tensor<16x128xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x128xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op input #0 of shape 16x16 does not broadcast to the result shape 16x32}}
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x32xf32> {
      %e = math.exp %s : f32
      th.yield %e : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x32xf32>) -> !tb.tile<16x32xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x32xf32> -> tensor<16x128xf32>
    tb.yield %o : tensor<16x128xf32>
  }
  return %Y : tensor<16x128xf32>
}

// -----

// The second result is checked too.
func.func @second_result_not_broadcast_shape(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op input #0 of shape 16x16 does not broadcast to the result shape 16x1}}
    %g:2 = th.graph (%s = %t : !tb.tile<16x16xf32>) -> (!tb.tile<16x16xf32>, !tb.tile<16x1xf32>) {
      %e = math.exp %s : f32
      th.yield %e, %e : f32, f32
    }
    %a = tb.forloop_accum none %g#0 : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

//===----------------------------------------------------------------------===//
// th.graph: region arguments (generic form: the custom form derives them)
//===----------------------------------------------------------------------===//

// -----

func.func @region_argument_count(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op region has 1 arguments for 2 inputs}}
    %g = "th.graph"(%t, %t) ({
    ^bb0(%a: f32):
      "th.yield"(%a) : (f32) -> ()
    }) : (!tb.tile<16x16xf32>, !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @region_argument_type(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op region argument #0 has type 'f16', expected the element type 'f32' of input #0}}
    %g = "th.graph"(%t) ({
    ^bb0(%a: f16):
      %w = "arith.extf"(%a) : (f16) -> f32
      "th.yield"(%w) : (f32) -> ()
    }) : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// A region argument that is the tile itself rather than its element.
func.func @region_argument_is_tile(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op region argument #0 has type '!tb.tile<16x16xf32>', expected the element type 'f32' of input #0}}
    %g = "th.graph"(%t) ({
    ^bb0(%a: !tb.tile<16x16xf32>):
      %c = "arith.constant"() <{value = 1.0 : f32}> : () -> f32
      "th.yield"(%c) : (f32) -> ()
    }) : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

//===----------------------------------------------------------------------===//
// th.graph: the ops of the region
//===----------------------------------------------------------------------===//

// -----

func.func @ub_op_in_region(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      // expected-error @+1 {{'ub.poison' op is not allowed in a thread graph: it holds scalar arith and math ops only}}
      %p = ub.poison : f32
      %e = arith.addf %s, %p : f32
      th.yield %e : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func private @callee(f32) -> f32

func.func @func_call_in_region(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      // expected-error @+1 {{'func.call' op is not allowed in a thread graph: it holds scalar arith and math ops only}}
      %e = func.call @callee(%s) : (f32) -> f32
      th.yield %e : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// A tb op in a thread graph fails its own check (it must sit directly in a
// block graph) before th.graph looks at it.
func.func @tb_op_in_region(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      // expected-error @+1 {{'tb.unary' op must be directly inside a block graph (the region of tk.fused)}}
      %u = tb.unary exp %t : !tb.tile<16x16xf32>
      th.yield %s : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @arith_on_tensor(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      // expected-error @+1 {{'arith.constant' op works on 'tensor<4xf32>': a thread graph computes on scalars only}}
      %c = arith.constant dense<1.0> : tensor<4xf32>
      th.yield %s : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @math_on_vector(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      // expected-error @+1 {{'arith.constant' op works on 'vector<4xf32>': a thread graph computes on scalars only}}
      %c = arith.constant dense<1.0> : vector<4xf32>
      %e = math.exp %c : vector<4xf32>
      th.yield %s : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

//===----------------------------------------------------------------------===//
// th.graph: the terminator
//===----------------------------------------------------------------------===//

// -----

func.func @yield_count(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      %e = math.exp %s : f32
      // expected-error @+1 {{'th.yield' op yields 2 values for 1 results}}
      th.yield %e, %s : f32, f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @yield_nothing(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      // expected-error @+1 {{'th.yield' op yields 0 values for 1 results}}
      th.yield
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @yield_type(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      %n = arith.truncf %s : f32 to f16
      // expected-error @+1 {{'th.yield' op value #0 has type 'f16', expected 'f32', the element type of result #0}}
      th.yield %n : f16
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @yield_second_type(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g:2 = th.graph (%s = %t : !tb.tile<16x16xf32>) -> (!tb.tile<16x16xf32>, !tb.tile<16x16xbf16>) {
      %n = arith.truncf %s : f32 to f16
      // expected-error @+1 {{'th.yield' op value #1 has type 'f16', expected 'bf16', the element type of result #1}}
      th.yield %s, %n : f32, f16
    }
    %a = tb.forloop_accum none %g#0 : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// ODS: th.yield takes scalars only.
func.func @yield_vector(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      %v = arith.constant dense<1.0> : vector<4xf32>
      // expected-error @+1 {{'th.yield' op operand #0 must be variadic of integer or floating-point or index, but got 'vector<4xf32>'}}
      th.yield %v : vector<4xf32>
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// A terminator other than th.yield that passes its own verifier.
func.func @ends_in_ub_unreachable(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op region must end in th.yield}}
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      %e = math.exp %s : f32
      ub.unreachable
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

func.func @ends_in_llvm_unreachable(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op region must end in th.yield}}
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      llvm.unreachable
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// Without a terminator at all, MLIR's generic block check fires first.
func.func @no_terminator(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      // expected-error @+1 {{block with no terminator}}
      %e = math.exp %s : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// ODS: one block.
func.func @two_blocks(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      th.yield %s : f32
    ^bb1:
      %c = arith.constant 1.0 : f32
      th.yield %c : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

//===----------------------------------------------------------------------===//
// Where th.graph and th.yield may appear
//===----------------------------------------------------------------------===//

// -----

func.func @yield_outside_graph() {
  // expected-error @+1 {{'th.yield' op expects parent op 'th.graph'}}
  th.yield
}

// -----

func.func @graph_outside_block_graph(%t: !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
  // expected-error @+1 {{'th.graph' op must be directly inside a block graph (the region of tk.fused)}}
  %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
    %e = math.exp %s : f32
    th.yield %e : f32
  }
  return %g : !tb.tile<16x16xf32>
}

// -----

func.func @graph_in_graph(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %g = th.graph (%s = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      // expected-error @+1 {{'th.graph' op must be directly inside a block graph (the region of tk.fused)}}
      %h = th.graph (%r = %t : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
        th.yield %r : f32
      }
      th.yield %s : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// ODS: the inputs are tiles; a kernel input (a device tensor) is not.
func.func @tensor_input(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op operand #0 must be variadic of a tile of a tensor held in one thread block's shared memory, but got 'tensor<16x64xf32>'}}
    %g = th.graph (%s = %x : tensor<16x64xf32>) -> !tb.tile<16x16xf32> {
      th.yield %s : f32
    }
    %a = tb.forloop_accum none %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}

// -----

// The block-graph stage rule applies to th.graph like to any compute op.
func.func @mixes_stages(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4 (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<16x64xf32> -> !tb.tile<16x16xf32>
    %m = tb.forloop_accum max %t : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    // expected-error @+1 {{'th.graph' op mixes a per-iteration tile (not yet accumulated) with a tile reduced over the for-loop}}
    %g = th.graph (%a = %t : !tb.tile<16x16xf32>, %b = %m : !tb.tile<16x16xf32>) -> !tb.tile<16x16xf32> {
      %d = arith.subf %a, %b : f32
      th.yield %d : f32
    }
    %a = tb.forloop_accum none %g : (!tb.tile<16x16xf32>) -> !tb.tile<16x16xf32>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1 : !tb.tile<16x16xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}
