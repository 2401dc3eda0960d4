// True equivalences the verifier must accept and planted bugs it must catch.
// RUN: tileopt-interp %s --function=mm_left --equivalent-to=mm_right | FileCheck %s --check-prefix=ASSOC
// RUN: tileopt-interp %s --function=split_k --equivalent-to=matmul_8x64x32 | FileCheck %s --check-prefix=SPLITK
// RUN: tileopt-interp %s --function=grid_2d --equivalent-to=matmul_16x32x16 | FileCheck %s --check-prefix=GRID
// RUN: tileopt-interp %s --function=grid_2d_wrong_imap --equivalent-to=matmul_16x32x16 | FileCheck %s --check-prefix=IMAP
// RUN: tileopt-interp %s --function=swapped_operands --equivalent-to=square_matmul | FileCheck %s --check-prefix=SWAP
// RUN: tileopt-interp %s --function=scale_by_column_sums --equivalent-to=scale_by_row_sums | FileCheck %s --check-prefix=RDIM
// RUN: tileopt-interp %s --function=attention_online --equivalent-to=attention_reference | FileCheck %s --check-prefix=ONLINE
// RUN: tileopt-interp %s --function=attention_no_rescale --equivalent-to=attention_reference | FileCheck %s --check-prefix=NORESCALE
// RUN: tileopt-interp %s --function=attention_online --equivalent-to=attention_reference --no-shrink | FileCheck %s --check-prefix=ONLINE
// RUN: tileopt-interp %s --function=grid_norms --equivalent-to=norms_reference | FileCheck %s --check-prefix=GRIDNORM
// RUN: tileopt-interp %s --function=grid_norm_local --equivalent-to=norms_reference | FileCheck %s --check-prefix=LOCALNORM

// ASSOC: @mm_left and @mm_right are equivalent
// SPLITK: @split_k and @matmul_8x64x32 are equivalent
// GRID: @grid_2d and @matmul_16x32x16 are equivalent
// IMAP: @grid_2d_wrong_imap and @matmul_16x32x16 are not equivalent: field trial 0: result #0 differs at
// SWAP: @swapped_operands and @square_matmul are not equivalent
// RDIM: @scale_by_column_sums and @scale_by_row_sums are not equivalent
// ONLINE: @attention_online and @attention_reference are equivalent
// NORESCALE: @attention_no_rescale and @attention_reference are not equivalent
// GRIDNORM: @grid_norms and @norms_reference are equivalent
// LOCALNORM: @grid_norm_local and @norms_reference are not equivalent

func.func @mm_left(%A: tensor<8x16xf32>, %B: tensor<16x32xf32>,
                   %C: tensor<32x4xf32>) -> tensor<8x4xf32> {
  %ab = tk.matmul %A, %B : tensor<8x16xf32>, tensor<16x32xf32> -> tensor<8x32xf32>
  %r = tk.matmul %ab, %C : tensor<8x32xf32>, tensor<32x4xf32> -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

func.func @mm_right(%A: tensor<8x16xf32>, %B: tensor<16x32xf32>,
                    %C: tensor<32x4xf32>) -> tensor<8x4xf32> {
  %bc = tk.matmul %B, %C : tensor<16x32xf32>, tensor<32x4xf32> -> tensor<16x4xf32>
  %r = tk.matmul %A, %bc : tensor<8x16xf32>, tensor<16x4xf32> -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

func.func @matmul_8x64x32(%A: tensor<8x64xf32>, %B: tensor<64x32xf32>)
    -> tensor<8x32xf32> {
  %c = tk.matmul %A, %B : tensor<8x64xf32>, tensor<64x32xf32> -> tensor<8x32xf32>
  return %c : tensor<8x32xf32>
}

// Four blocks own 8 columns each; four iterations walk K, summed.
func.func @split_k(%A: tensor<8x64xf32>, %B: tensor<64x32xf32>)
    -> tensor<8x32xf32> {
  %C = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 4
         (%a = %A : tensor<8x64xf32>, %b = %B : tensor<64x32xf32>)
         -> tensor<8x32xf32> {
    %at = tb.input_iterator %a imap [-1, -1, -1] fmap 1
            : tensor<8x64xf32> -> !tb.tile<8x16xf32>
    %bt = tb.input_iterator %b imap [1, -1, -1] fmap 0
            : tensor<64x32xf32> -> !tb.tile<16x8xf32>
    %p = tb.matmul %at, %bt
           : !tb.tile<8x16xf32>, !tb.tile<16x8xf32> -> !tb.tile<8x8xf32>
    %acc = tb.forloop_accum sum %p : (!tb.tile<8x8xf32>) -> !tb.tile<8x8xf32>
    %out = tb.output_saver %acc omap [1, -1, -1]
             : !tb.tile<8x8xf32> -> tensor<8x32xf32>
    tb.yield %out : tensor<8x32xf32>
  }
  return %C : tensor<8x32xf32>
}

func.func @matmul_16x32x16(%A: tensor<16x32xf32>, %B: tensor<32x16xf32>)
    -> tensor<16x16xf32> {
  %c = tk.matmul %A, %B : tensor<16x32xf32>, tensor<32x16xf32> -> tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}

// Grid x splits the rows, grid y the columns.
func.func @grid_2d(%A: tensor<16x32xf32>, %B: tensor<32x16xf32>)
    -> tensor<16x16xf32> {
  %C = tk.fused grid [2, 2, 1] block [128, 1, 1] forloop 2
         (%a = %A : tensor<16x32xf32>, %b = %B : tensor<32x16xf32>)
         -> tensor<16x16xf32> {
    %at = tb.input_iterator %a imap [0, -1, -1] fmap 1
            : tensor<16x32xf32> -> !tb.tile<8x16xf32>
    %bt = tb.input_iterator %b imap [-1, 1, -1] fmap 0
            : tensor<32x16xf32> -> !tb.tile<16x8xf32>
    %p = tb.matmul %at, %bt
           : !tb.tile<8x16xf32>, !tb.tile<16x8xf32> -> !tb.tile<8x8xf32>
    %acc = tb.forloop_accum sum %p : (!tb.tile<8x8xf32>) -> !tb.tile<8x8xf32>
    %out = tb.output_saver %acc omap [0, 1, -1]
             : !tb.tile<8x8xf32> -> tensor<16x16xf32>
    tb.yield %out : tensor<16x16xf32>
  }
  return %C : tensor<16x16xf32>
}

// The bug: A's rows follow grid y, but the output's rows follow grid x.
func.func @grid_2d_wrong_imap(%A: tensor<16x32xf32>, %B: tensor<32x16xf32>)
    -> tensor<16x16xf32> {
  %C = tk.fused grid [2, 2, 1] block [128, 1, 1] forloop 2
         (%a = %A : tensor<16x32xf32>, %b = %B : tensor<32x16xf32>)
         -> tensor<16x16xf32> {
    %at = tb.input_iterator %a imap [-1, 0, -1] fmap 1
            : tensor<16x32xf32> -> !tb.tile<8x16xf32>
    %bt = tb.input_iterator %b imap [-1, 1, -1] fmap 0
            : tensor<32x16xf32> -> !tb.tile<16x8xf32>
    %p = tb.matmul %at, %bt
           : !tb.tile<8x16xf32>, !tb.tile<16x8xf32> -> !tb.tile<8x8xf32>
    %acc = tb.forloop_accum sum %p : (!tb.tile<8x8xf32>) -> !tb.tile<8x8xf32>
    %out = tb.output_saver %acc omap [0, 1, -1]
             : !tb.tile<8x8xf32> -> tensor<16x16xf32>
    tb.yield %out : tensor<16x16xf32>
  }
  return %C : tensor<16x16xf32>
}

func.func @square_matmul(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>)
    -> tensor<8x8xf32> {
  %c = tk.matmul %A, %B : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

func.func @swapped_operands(%A: tensor<8x8xf32>, %B: tensor<8x8xf32>)
    -> tensor<8x8xf32> {
  %c = tk.matmul %B, %A : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

func.func @scale_by_row_sums(%X: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = tk.reduce sum %X dim 1 : tensor<8x8xf32> -> tensor<8x1xf32>
  %y = tk.binary mul %X, %s : tensor<8x8xf32>, tensor<8x1xf32> -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// The bug: reduces over dim 0; broadcasting hides it from the types.
func.func @scale_by_column_sums(%X: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = tk.reduce sum %X dim 0 : tensor<8x8xf32> -> tensor<1x8xf32>
  %y = tk.binary mul %X, %s : tensor<8x8xf32>, tensor<1x8xf32> -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// softmax(S) @ V and the row maximum of S, from kernel-graph ops.
func.func @attention_reference(%S: tensor<16x256xf32>, %V: tensor<256x32xf32>)
    -> (tensor<16x32xf32>, tensor<16x1xf32>) {
  %m = tk.reduce max %S dim 1 : tensor<16x256xf32> -> tensor<16x1xf32>
  %d = tk.binary sub %S, %m : tensor<16x256xf32>, tensor<16x1xf32> -> tensor<16x256xf32>
  %e = tk.unary exp %d : tensor<16x256xf32>
  %l = tk.reduce sum %e dim 1 : tensor<16x256xf32> -> tensor<16x1xf32>
  %p = tk.binary div %e, %l : tensor<16x256xf32>, tensor<16x1xf32> -> tensor<16x256xf32>
  %o = tk.matmul %p, %V : tensor<16x256xf32>, tensor<256x32xf32> -> tensor<16x32xf32>
  return %o, %m : tensor<16x32xf32>, tensor<16x1xf32>
}

// FlashAttention's online softmax: two blocks of 8 rows, four iterations of
// 64 keys; partial results against each iteration's own maximum, rescaled
// to the final one by sum_rescale.
func.func @attention_online(%S: tensor<16x256xf32>, %V: tensor<256x32xf32>)
    -> (tensor<16x32xf32>, tensor<16x1xf32>) {
  %O:2 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4
           (%s = %S : tensor<16x256xf32>, %v = %V : tensor<256x32xf32>)
           -> (tensor<16x32xf32>, tensor<16x1xf32>) {
    %st = tb.input_iterator %s imap [0, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<8x64xf32>
    %vt = tb.input_iterator %v imap [-1, -1, -1] fmap 0
            : tensor<256x32xf32> -> !tb.tile<64x32xf32>
    %m = tb.reduce max %st dim 1 : !tb.tile<8x64xf32> -> !tb.tile<8x1xf32>
    %d = tb.binary sub %st, %m
           : !tb.tile<8x64xf32>, !tb.tile<8x1xf32> -> !tb.tile<8x64xf32>
    %e = tb.unary exp %d : !tb.tile<8x64xf32>
    %l = tb.reduce sum %e dim 1 : !tb.tile<8x64xf32> -> !tb.tile<8x1xf32>
    %o = tb.matmul %e, %vt
           : !tb.tile<8x64xf32>, !tb.tile<64x32xf32> -> !tb.tile<8x32xf32>
    %oacc = tb.forloop_accum sum_rescale %o, %m
              : (!tb.tile<8x32xf32>, !tb.tile<8x1xf32>) -> !tb.tile<8x32xf32>
    %lacc = tb.forloop_accum sum_rescale %l, %m
              : (!tb.tile<8x1xf32>, !tb.tile<8x1xf32>) -> !tb.tile<8x1xf32>
    %macc = tb.forloop_accum max %m : (!tb.tile<8x1xf32>) -> !tb.tile<8x1xf32>
    %r = tb.binary div %oacc, %lacc
           : !tb.tile<8x32xf32>, !tb.tile<8x1xf32> -> !tb.tile<8x32xf32>
    %out = tb.output_saver %r omap [0, -1, -1]
             : !tb.tile<8x32xf32> -> tensor<16x32xf32>
    %mout = tb.output_saver %macc omap [0, -1, -1]
              : !tb.tile<8x1xf32> -> tensor<16x1xf32>
    tb.yield %out, %mout : tensor<16x32xf32>, tensor<16x1xf32>
  }
  return %O#0, %O#1 : tensor<16x32xf32>, tensor<16x1xf32>
}

// The bug: partial sums against different maxima added without rescaling.
func.func @attention_no_rescale(%S: tensor<16x256xf32>, %V: tensor<256x32xf32>)
    -> (tensor<16x32xf32>, tensor<16x1xf32>) {
  %O:2 = tk.fused grid [2, 1, 1] block [128, 1, 1] forloop 4
           (%s = %S : tensor<16x256xf32>, %v = %V : tensor<256x32xf32>)
           -> (tensor<16x32xf32>, tensor<16x1xf32>) {
    %st = tb.input_iterator %s imap [0, -1, -1] fmap 1
            : tensor<16x256xf32> -> !tb.tile<8x64xf32>
    %vt = tb.input_iterator %v imap [-1, -1, -1] fmap 0
            : tensor<256x32xf32> -> !tb.tile<64x32xf32>
    %m = tb.reduce max %st dim 1 : !tb.tile<8x64xf32> -> !tb.tile<8x1xf32>
    %d = tb.binary sub %st, %m
           : !tb.tile<8x64xf32>, !tb.tile<8x1xf32> -> !tb.tile<8x64xf32>
    %e = tb.unary exp %d : !tb.tile<8x64xf32>
    %l = tb.reduce sum %e dim 1 : !tb.tile<8x64xf32> -> !tb.tile<8x1xf32>
    %o = tb.matmul %e, %vt
           : !tb.tile<8x64xf32>, !tb.tile<64x32xf32> -> !tb.tile<8x32xf32>
    %oacc = tb.forloop_accum sum %o : (!tb.tile<8x32xf32>) -> !tb.tile<8x32xf32>
    %lacc = tb.forloop_accum sum %l : (!tb.tile<8x1xf32>) -> !tb.tile<8x1xf32>
    %macc = tb.forloop_accum max %m : (!tb.tile<8x1xf32>) -> !tb.tile<8x1xf32>
    %r = tb.binary div %oacc, %lacc
           : !tb.tile<8x32xf32>, !tb.tile<8x1xf32> -> !tb.tile<8x32xf32>
    %out = tb.output_saver %r omap [0, -1, -1]
             : !tb.tile<8x32xf32> -> tensor<16x32xf32>
    %mout = tb.output_saver %macc omap [0, -1, -1]
              : !tb.tile<8x1xf32> -> tensor<16x1xf32>
    tb.yield %out, %mout : tensor<16x32xf32>, tensor<16x1xf32>
  }
  return %O#0, %O#1 : tensor<16x32xf32>, tensor<16x1xf32>
}

// rms_norm(X + rms_norm(Y @ W)) in one kernel: 4 blocks of 16 columns each,
// whose norms add up their rows' sums of squares across the grid.
func.func @norms_reference(%X: tensor<8x64xf32>, %Y: tensor<8x32xf32>,
                           %W: tensor<32x64xf32>) -> tensor<8x64xf32> {
  %0 = tk.matmul %Y, %W : tensor<8x32xf32>, tensor<32x64xf32> -> tensor<8x64xf32>
  %1 = tk.rms_norm %0 {epsilon = 1.0e-5 : f32} : tensor<8x64xf32>
  %2 = tk.binary add %X, %1 : tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %3 = tk.rms_norm %2 {epsilon = 1.0e-5 : f32} : tensor<8x64xf32>
  return %3 : tensor<8x64xf32>
}

func.func @grid_norms(%X: tensor<8x64xf32>, %Y: tensor<8x32xf32>,
                      %W: tensor<32x64xf32>) -> tensor<8x64xf32> {
  %r = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 2
      (%x = %X : tensor<8x64xf32>, %y = %Y : tensor<8x32xf32>,
       %w = %W : tensor<32x64xf32>) -> tensor<8x64xf32> {
    %xt = tb.input_iterator %x imap [1, -1, -1] fmap -1 : tensor<8x64xf32> -> !tb.tile<8x16xf32>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap 1 : tensor<8x32xf32> -> !tb.tile<8x16xf32>
    %wt = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<32x64xf32> -> !tb.tile<16x16xf32>
    %p = tb.matmul %yt, %wt : !tb.tile<8x16xf32>, !tb.tile<16x16xf32> -> !tb.tile<8x16xf32>
    %z = tb.forloop_accum sum %p : (!tb.tile<8x16xf32>) -> !tb.tile<8x16xf32>
    %n1 = tb.rms_norm %z across 0 {epsilon = 1.0e-5 : f32} : !tb.tile<8x16xf32>
    %u = tb.binary add %xt, %n1 : !tb.tile<8x16xf32>, !tb.tile<8x16xf32> -> !tb.tile<8x16xf32>
    %n2 = tb.rms_norm %u across 0 {epsilon = 1.0e-5 : f32} : !tb.tile<8x16xf32>
    %o = tb.output_saver %n2 omap [1, -1, -1] : !tb.tile<8x16xf32> -> tensor<8x64xf32>
    tb.yield %o : tensor<8x64xf32>
  }
  return %r : tensor<8x64xf32>
}

// The second norm without `across`: each block normalizes its 16 columns
// alone.
func.func @grid_norm_local(%X: tensor<8x64xf32>, %Y: tensor<8x32xf32>,
                           %W: tensor<32x64xf32>) -> tensor<8x64xf32> {
  %r = tk.fused grid [4, 1, 1] block [128, 1, 1] forloop 2
      (%x = %X : tensor<8x64xf32>, %y = %Y : tensor<8x32xf32>,
       %w = %W : tensor<32x64xf32>) -> tensor<8x64xf32> {
    %xt = tb.input_iterator %x imap [1, -1, -1] fmap -1 : tensor<8x64xf32> -> !tb.tile<8x16xf32>
    %yt = tb.input_iterator %y imap [-1, -1, -1] fmap 1 : tensor<8x32xf32> -> !tb.tile<8x16xf32>
    %wt = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<32x64xf32> -> !tb.tile<16x16xf32>
    %p = tb.matmul %yt, %wt : !tb.tile<8x16xf32>, !tb.tile<16x16xf32> -> !tb.tile<8x16xf32>
    %z = tb.forloop_accum sum %p : (!tb.tile<8x16xf32>) -> !tb.tile<8x16xf32>
    %n1 = tb.rms_norm %z across 0 {epsilon = 1.0e-5 : f32} : !tb.tile<8x16xf32>
    %u = tb.binary add %xt, %n1 : !tb.tile<8x16xf32>, !tb.tile<8x16xf32> -> !tb.tile<8x16xf32>
    %n2 = tb.rms_norm %u {epsilon = 1.0e-5 : f32} : !tb.tile<8x16xf32>
    %o = tb.output_saver %n2 omap [1, -1, -1] : !tb.tile<8x16xf32> -> tensor<8x64xf32>
    tb.yield %o : tensor<8x64xf32>
  }
  return %r : tensor<8x64xf32>
}
