// RUN: tileopt-opt %s -split-input-file -verify-diagnostics

// The structure of a block graph (verifyBlockGraph in BlockGraph.cpp, run by
// tk.fused): kernel input -> tb.input_iterator -> compute -> exactly one
// tb.forloop_accum -> compute -> tb.output_saver -> tb.yield. Also the
// InBlockGraph trait and tb.yield outside a block graph. Each case is valid but
// for the one error it tests.

//===----------------------------------------------------------------------===//
// Ops a block graph may hold
//===----------------------------------------------------------------------===//

func.func @non_block_graph_op(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'arith.constant' op is not a block-graph op: a block graph holds tb ops and th.graph}}
    %c = arith.constant 2.0 : f32
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// An op with a region of its own is not a block-graph op either.
func.func @non_block_graph_region_op(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'scf.execute_region' op is not a block-graph op}}
    %s = scf.execute_region -> !tb.tile<16x64xf32> {
      scf.yield %xt : !tb.tile<16x64xf32>
    }
    %a = tb.forloop_accum sum %s : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Kernel inputs enter only through tb.input_iterator
//===----------------------------------------------------------------------===//

// Compute ops take tiles, so the only op that can read a kernel input other
// than tb.input_iterator is tb.yield.
func.func @kernel_input_yielded(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    // expected-error @+1 {{'tb.yield' op value #0 is a kernel input: outputs leave a block graph through tb.output_saver}}
    tb.yield %x : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// The second of two yielded values is the kernel input.
func.func @kernel_input_yielded_second(%X: tensor<16x64xf32>)
    -> (tensor<16x64xf32>, tensor<16x64xf32>) {
  %r:2 = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>) {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    // expected-error @+1 {{'tb.yield' op value #1 is a kernel input: outputs leave a block graph through tb.output_saver}}
    tb.yield %o, %x : tensor<16x64xf32>, tensor<16x64xf32>
  }
  return %r#0, %r#1 : tensor<16x64xf32>, tensor<16x64xf32>
}

// -----

// A compute op given a kernel input directly: the operand type constraint
// (tiles only) rejects it before verifyBlockGraph's kernel-input check runs.
func.func @kernel_input_to_compute_op(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.unary' op operand #0 must be}}
    %u = "tb.unary"(%x) <{kind = #tb<unary exp>}>
           : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tb.yield returns output-saver results
//===----------------------------------------------------------------------===//

// Every tensor in a block graph is a kernel input or a saver result, so a
// yielded value that is not a saver result is caught earlier: at the op that
// made it (here) or by the kernel-input check (above).
func.func @yield_non_saver_tensor(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    // expected-error @+1 {{'tensor.empty' op is not a block-graph op}}
    %e = tensor.empty() : tensor<16x64xf32>
    tb.yield %e : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Exactly one tb.forloop_accum on every path
//===----------------------------------------------------------------------===//

func.func @accum_of_reduced(%X: tensor<16x256xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.forloop_accum' op operand #0 is a tile reduced over the for-loop: a path from an input to an output crosses exactly one tb.forloop_accum}}
    %b = tb.forloop_accum max %a : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %b omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// Compute between the two accumulators does not reset the stage.
func.func @accum_of_computed_reduced(%X: tensor<16x256xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum mean %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %e = tb.unary exp %a : !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.forloop_accum' op operand #0 is a tile reduced over the for-loop}}
    %b = tb.forloop_accum sum %e : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %b omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @accum_of_kept(%X: tensor<16x256xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %k = tb.forloop_accum none %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.forloop_accum' op operand #0 is a tile kept per iteration by a `none` accumulator: a path from an input to an output crosses exactly one tb.forloop_accum}}
    %b = tb.forloop_accum sum %k : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %b omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// The scale of sum_rescale is a per-iteration tile too.
func.func @accum_scale_reduced(%X: tensor<16x256xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %m = tb.reduce max %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    %mx = tb.forloop_accum max %m : (!tb.tile<16x1xf32>) -> !tb.tile<16x1xf32>
    // expected-error @+1 {{'tb.forloop_accum' op operand #1 is a tile reduced over the for-loop}}
    %s = tb.forloop_accum sum_rescale %xt, %mx
           : (!tb.tile<16x64xf32>, !tb.tile<16x1xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %s omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @saver_of_iteration(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.output_saver' op input is a tile the for-loop does not walk: a path from an input to an output crosses exactly one tb.forloop_accum before its tb.output_saver}}
    %o = tb.output_saver %xt omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @saver_of_computed_iteration(%X: tensor<16x256xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %e = tb.unary exp %xt : !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.output_saver' op input is a per-iteration tile (not yet accumulated)}}
    %o = tb.output_saver %e omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// fmap of tb.output_saver against the accumulator kind
//===----------------------------------------------------------------------===//

func.func @kept_saved_without_fmap(%X: tensor<16x256xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %k = tb.forloop_accum none %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.output_saver' op saves tiles kept per iteration over 4 iterations and needs an fmap to lay them out}}
    %o = tb.output_saver %k omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// Compute on kept tiles keeps them per iteration.
func.func @computed_kept_saved_without_fmap(%X: tensor<16x256xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 2
      (%x = %X : tensor<16x256xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [1, -1, -1] fmap -1
            : tensor<16x256xf32> -> !tb.tile<16x128xf32>
    %k = tb.forloop_accum none %xt
           : (!tb.tile<16x128xf32>) -> !tb.tile<16x128xf32>
    %s = tb.reduce sum %k dim 1 to 32
           : !tb.tile<16x128xf32> -> !tb.tile<16x32xf32>
    // expected-error @+1 {{'tb.output_saver' op saves tiles kept per iteration over 2 iterations and needs an fmap}}
    %o = tb.output_saver %s omap [1, -1, -1]
           : !tb.tile<16x32xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @reduced_saved_with_fmap(%X: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x256xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.output_saver' op has an fmap but its input is already reduced over the for-loop}}
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 1
           : !tb.tile<16x64xf32> -> tensor<16x256xf32>
    tb.yield %o : tensor<16x256xf32>
  }
  return %r : tensor<16x256xf32>
}

// -----

// Also with a one-iteration loop, where the fmap would be harmless.
func.func @reduced_saved_with_fmap_one_iteration(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum rms %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.output_saver' op has an fmap but its input is already reduced over the for-loop}}
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 0
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Compute ops: no saver results, one stage per op
//===----------------------------------------------------------------------===//

// Saver results are tensors and compute ops take tiles: the operand type
// constraint rejects the op before verifyBlockGraph's saver-result check.
func.func @compute_reads_saver_result(%X: tensor<16x64xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    // expected-error @+1 {{'tb.rms_norm' op operand #0 must be}}
    %n = "tb.rms_norm"(%o) : (tensor<16x64xf32>) -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @mix_reduced_and_iteration(%X: tensor<16x256xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.binary' op mixes a tile reduced over the for-loop with a per-iteration tile (not yet accumulated) (operand #1): every path from an input the loop walks to an output crosses exactly one tb.forloop_accum}}
    %b = tb.binary add %a, %xt
           : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
    %o = tb.output_saver %b omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @mix_iteration_and_reduced(%X: tensor<16x256xf32>)
    -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %m = tb.reduce max %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    %mx = tb.forloop_accum max %m : (!tb.tile<16x1xf32>) -> !tb.tile<16x1xf32>
    // expected-error @+1 {{'tb.binary' op mixes a per-iteration tile (not yet accumulated) with a tile reduced over the for-loop}}
    %d = tb.binary sub %xt, %mx
           : !tb.tile<16x64xf32>, !tb.tile<16x1xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %d : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// The mismatch is found at the third operand of a concat.
func.func @mix_in_concat(%X: tensor<16x256xf32>) -> tensor<48x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<48x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %a = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.concat' op mixes a tile reduced over the for-loop with a per-iteration tile (not yet accumulated)}}
    %c = tb.concat %a, %a, %xt dim 0
           : !tb.tile<16x64xf32>, !tb.tile<16x64xf32>, !tb.tile<16x64xf32>
             -> !tb.tile<48x64xf32>
    %o = tb.output_saver %c omap [-1, -1, -1]
           : !tb.tile<48x64xf32> -> tensor<48x64xf32>
    tb.yield %o : tensor<48x64xf32>
  }
  return %r : tensor<48x64xf32>
}

// -----

func.func @mix_kept_and_reduced(%X: tensor<16x256xf32>) -> tensor<16x256xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x256xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %m = tb.reduce max %xt dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
    %k = tb.forloop_accum none %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %mx = tb.forloop_accum max %m : (!tb.tile<16x1xf32>) -> !tb.tile<16x1xf32>
    // expected-error @+1 {{'tb.binary' op mixes a tile kept per iteration by a `none` accumulator with a tile reduced over the for-loop (operand #1): every path from an input the loop walks to an output crosses exactly one tb.forloop_accum}}
    %d = tb.binary sub %k, %mx
           : !tb.tile<16x64xf32>, !tb.tile<16x1xf32> -> !tb.tile<16x64xf32>
    %o = tb.output_saver %d omap [-1, -1, -1] fmap 1
           : !tb.tile<16x64xf32> -> tensor<16x256xf32>
    tb.yield %o : tensor<16x256xf32>
  }
  return %r : tensor<16x256xf32>
}

// -----

func.func @mix_reduced_and_kept(%X: tensor<16x256xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %k = tb.forloop_accum none %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %s = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.binary' op mixes a tile reduced over the for-loop with a tile kept per iteration by a `none` accumulator}}
    %d = tb.binary mul %s, %k
           : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
    %o = tb.output_saver %d omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @mix_kept_and_iteration(%X: tensor<16x256xf32>,
                                  %Y: tensor<64x256xf32>) -> tensor<16x256xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 4
      (%x = %X : tensor<16x256xf32>, %y = %Y : tensor<64x256xf32>)
      -> tensor<16x256xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<16x64xf32>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap 1
            : tensor<64x256xf32> -> !tb.tile<64x64xf32>
    %k = tb.forloop_accum none %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    // expected-error @+1 {{'tb.matmul' op mixes a tile kept per iteration by a `none` accumulator with a per-iteration tile (not yet accumulated)}}
    %p = tb.matmul %k, %yt
           : !tb.tile<16x64xf32>, !tb.tile<64x64xf32> -> !tb.tile<16x64xf32>
    %o = tb.output_saver %p omap [-1, -1, -1] fmap 1
           : !tb.tile<16x64xf32> -> tensor<16x256xf32>
    tb.yield %o : tensor<16x256xf32>
  }
  return %r : tensor<16x256xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tb ops outside a block graph (InBlockGraph trait)
//===----------------------------------------------------------------------===//

func.func @input_iterator_outside(%x: tensor<16x64xf32>) -> !tb.tile<16x64xf32> {
  // expected-error @+1 {{'tb.input_iterator' op must be directly inside a block graph (the region of tk.fused)}}
  %t = tb.input_iterator %x imap [-1, -1, -1] fmap -1
         : tensor<16x64xf32> -> !tb.tile<16x64xf32>
  return %t : !tb.tile<16x64xf32>
}

// -----

func.func @forloop_accum_outside(%t: !tb.tile<16x64xf32>) -> !tb.tile<16x64xf32> {
  // expected-error @+1 {{'tb.forloop_accum' op must be directly inside a block graph (the region of tk.fused)}}
  %a = tb.forloop_accum sum %t : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
  return %a : !tb.tile<16x64xf32>
}

// -----

func.func @output_saver_outside(%t: !tb.tile<16x64xf32>) -> tensor<16x64xf32> {
  // expected-error @+1 {{'tb.output_saver' op must be directly inside a block graph (the region of tk.fused)}}
  %o = tb.output_saver %t omap [-1, -1, -1]
         : !tb.tile<16x64xf32> -> tensor<16x64xf32>
  return %o : tensor<16x64xf32>
}

// -----

func.func @matmul_outside(%a: !tb.tile<16x64xf32>, %b: !tb.tile<64x8xf32>)
    -> !tb.tile<16x8xf32> {
  // expected-error @+1 {{'tb.matmul' op must be directly inside a block graph (the region of tk.fused)}}
  %m = tb.matmul %a, %b : !tb.tile<16x64xf32>, !tb.tile<64x8xf32> -> !tb.tile<16x8xf32>
  return %m : !tb.tile<16x8xf32>
}

// -----

func.func @unary_outside(%t: !tb.tile<16x64xf32>) -> !tb.tile<16x64xf32> {
  // expected-error @+1 {{'tb.unary' op must be directly inside a block graph (the region of tk.fused)}}
  %u = tb.unary exp %t : !tb.tile<16x64xf32>
  return %u : !tb.tile<16x64xf32>
}

// -----

func.func @binary_outside(%t: !tb.tile<16x64xf32>) -> !tb.tile<16x64xf32> {
  // expected-error @+1 {{'tb.binary' op must be directly inside a block graph (the region of tk.fused)}}
  %b = tb.binary add %t, %t
         : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<16x64xf32>
  return %b : !tb.tile<16x64xf32>
}

// -----

func.func @reduce_outside(%t: !tb.tile<16x64xf32>) -> !tb.tile<16x1xf32> {
  // expected-error @+1 {{'tb.reduce' op must be directly inside a block graph (the region of tk.fused)}}
  %r = tb.reduce sum %t dim 1 : !tb.tile<16x64xf32> -> !tb.tile<16x1xf32>
  return %r : !tb.tile<16x1xf32>
}

// -----

func.func @concat_outside(%t: !tb.tile<16x64xf32>) -> !tb.tile<32x64xf32> {
  // expected-error @+1 {{'tb.concat' op must be directly inside a block graph (the region of tk.fused)}}
  %c = tb.concat %t, %t dim 0
         : !tb.tile<16x64xf32>, !tb.tile<16x64xf32> -> !tb.tile<32x64xf32>
  return %c : !tb.tile<32x64xf32>
}

// -----

func.func @rms_norm_outside(%t: !tb.tile<16x64xf32>) -> !tb.tile<16x64xf32> {
  // expected-error @+1 {{'tb.rms_norm' op must be directly inside a block graph (the region of tk.fused)}}
  %n = tb.rms_norm %t : !tb.tile<16x64xf32>
  return %n : !tb.tile<16x64xf32>
}

// -----

// Nested one region deeper inside a block graph is not "directly inside". The
// op is checked before the region op that holds it.
func.func @unary_nested_in_graph(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
      (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %s = scf.execute_region -> !tb.tile<16x64xf32> {
      // expected-error @+1 {{'tb.unary' op must be directly inside a block graph (the region of tk.fused)}}
      %u = tb.unary exp %xt : !tb.tile<16x64xf32>
      scf.yield %u : !tb.tile<16x64xf32>
    }
    %a = tb.forloop_accum sum %s : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %o : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// tb.yield outside a block graph
//===----------------------------------------------------------------------===//

func.func @yield_in_func(%t: tensor<16x64xf32>) {
  // expected-error @+1 {{'tb.yield' op must terminate a block graph}}
  tb.yield %t : tensor<16x64xf32>
}

// -----

func.func @yield_in_execute_region(%t: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %r = scf.execute_region -> tensor<16x64xf32> {
    // expected-error @+1 {{'tb.yield' op must terminate a block graph}}
    tb.yield %t : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @saver_not_yielded(%X: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
         (%x = %X : tensor<16x64xf32>) -> tensor<16x64xf32> {
    %xt = tb.input_iterator %x imap [-1, -1, -1] fmap -1
            : tensor<16x64xf32> -> !tb.tile<16x64xf32>
    %acc = tb.forloop_accum sum %xt : (!tb.tile<16x64xf32>) -> !tb.tile<16x64xf32>
    %out = tb.output_saver %acc omap [-1, -1, -1]
             : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    // expected-error @+1 {{'tb.output_saver' op result is never yielded: it writes no kernel output}}
    %dead = tb.output_saver %acc omap [-1, -1, -1]
             : !tb.tile<16x64xf32> -> tensor<16x64xf32>
    tb.yield %out : tensor<16x64xf32>
  }
  return %Y : tensor<16x64xf32>
}
