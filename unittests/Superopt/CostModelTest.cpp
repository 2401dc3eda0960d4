//===- CostModelTest.cpp - Estimated run times of µGraphs on the H200 -----===//
//
// The cost model on small programs whose bytes, flops, blocks and times are
// worked out by hand from docs/superoptimizer.md ("Cost model"), and the
// orderings the search relies on: narrow decode blocks that pad their rows
// lose to wider ones, a grid spread over the SMs beats one block, and
// Mirage's fused rmsnorm_linear, whose 48 SMs load W through registers,
// loses to the predefined kernels as it does on the GPU.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Superopt/CostModel.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/InitAllDialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

constexpr StringLiteral kPrograms = R"mlir(
// rmsnorm_linear at b = 8 as predefined kernels.
func.func @unfused(%X: tensor<16x4096xf16>, %W: tensor<4096x6144xf16>)
    -> tensor<16x6144xf16> {
  %n = tk.rms_norm %X : tensor<16x4096xf16>
  %y = tk.matmul %n, %W
         : tensor<16x4096xf16>, tensor<4096x6144xf16> -> tensor<16x6144xf16>
  return %y : tensor<16x6144xf16>
}

func.func @big_matmul(%A: tensor<4096x4096xbf16>, %B: tensor<4096x4096xbf16>)
    -> tensor<4096x4096xbf16> {
  %c = tk.matmul %A, %B : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>
         -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// The same product with 256x128 output tiles, walking K in steps of 64.
func.func @big_matmul_fused(%A: tensor<4096x4096xbf16>,
                            %B: tensor<4096x4096xbf16>)
    -> tensor<4096x4096xbf16> {
  %C = tk.fused grid [32, 16, 1] block [128, 1, 1] forloop 64
         (%a = %A : tensor<4096x4096xbf16>, %b = %B : tensor<4096x4096xbf16>)
         -> tensor<4096x4096xbf16> {
    %at = tb.input_iterator %a imap [-1, 0, -1] fmap 1
            : tensor<4096x4096xbf16> -> !tb.tile<256x64xbf16>
    %bt = tb.input_iterator %b imap [1, -1, -1] fmap 0
            : tensor<4096x4096xbf16> -> !tb.tile<64x128xbf16>
    %p = tb.matmul %at, %bt
           : !tb.tile<256x64xbf16>, !tb.tile<64x128xbf16> -> !tb.tile<256x128xbf16>
    %acc = tb.forloop_accum sum %p
             : (!tb.tile<256x128xbf16>) -> !tb.tile<256x128xbf16>
    %c = tb.output_saver %acc omap [1, 0, -1]
           : !tb.tile<256x128xbf16> -> tensor<4096x4096xbf16>
    tb.yield %c : tensor<4096x4096xbf16>
  }
  return %C : tensor<4096x4096xbf16>
}

// gqa_decode (Q 2x256x64, K 2x64x4096, V 2x4096x64) as the search finds it
// with one fused kernel (FlashAttention-style: 16 x 4 blocks walk the keys)
// and with two (split-KV over 4 x 32 blocks, then a combine over the 32
// chunks).
func.func @gqa_flash(%arg0: tensor<2x256x64xf16>, %arg1: tensor<2x64x4096xf16>, %arg2: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %0 = tk.fused grid [16, 4, 1] block [128, 1, 1] forloop 64 (%arg3 = %arg0 : tensor<2x256x64xf16>, %arg4 = %arg1 : tensor<2x64x4096xf16>, %arg5 = %arg2 : tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
    %1 = tb.input_iterator %arg3 imap [1, -1, -1] fmap -1 : tensor<2x256x64xf16> -> !tb.tile<2x16x64xf16>
    %2 = tb.input_iterator %arg4 imap [-1, -1, -1] fmap 2 : tensor<2x64x4096xf16> -> !tb.tile<2x64x64xf16>
    %3 = tb.input_iterator %arg5 imap [-1, 2, -1] fmap 1 : tensor<2x4096x64xf16> -> !tb.tile<2x64x16xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<2x16x64xf16>, !tb.tile<2x64x64xf16> -> !tb.tile<2x16x64xf16>
    %5 = tb.reduce max %4 dim 2 : !tb.tile<2x16x64xf16> -> !tb.tile<2x16x1xf16>
    %6 = tb.binary sub %4, %5 : !tb.tile<2x16x64xf16>, !tb.tile<2x16x1xf16> -> !tb.tile<2x16x64xf16>
    %7 = tb.unary exp %6 : !tb.tile<2x16x64xf16>
    %8 = tb.matmul %7, %3 : !tb.tile<2x16x64xf16>, !tb.tile<2x64x16xf16> -> !tb.tile<2x16x16xf16>
    %9 = tb.reduce sum %7 dim 2 : !tb.tile<2x16x64xf16> -> !tb.tile<2x16x1xf16>
    %10 = tb.forloop_accum sum_rescale %8, %5 : (!tb.tile<2x16x16xf16>, !tb.tile<2x16x1xf16>) -> !tb.tile<2x16x16xf16>
    %11 = tb.forloop_accum sum_rescale %9, %5 : (!tb.tile<2x16x1xf16>, !tb.tile<2x16x1xf16>) -> !tb.tile<2x16x1xf16>
    %12 = tb.binary div %10, %11 : !tb.tile<2x16x16xf16>, !tb.tile<2x16x1xf16> -> !tb.tile<2x16x16xf16>
    %13 = tb.output_saver %12 omap [1, 2, -1] : !tb.tile<2x16x16xf16> -> tensor<2x256x64xf16>
    tb.yield %13 : tensor<2x256x64xf16>
  }
  return %0 : tensor<2x256x64xf16>
}

func.func @gqa_split(%arg0: tensor<2x256x64xf16>, %arg1: tensor<2x64x4096xf16>, %arg2: tensor<2x4096x64xf16>) -> tensor<2x256x64xf16> {
  %0:3 = tk.fused grid [4, 32, 1] block [128, 1, 1] forloop 1 (%arg3 = %arg0 : tensor<2x256x64xf16>, %arg4 = %arg1 : tensor<2x64x4096xf16>, %arg5 = %arg2 : tensor<2x4096x64xf16>) -> (tensor<2x256x32xf16>, tensor<2x256x2048xf16>, tensor<2x256x32xf16>) {
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap -1 : tensor<2x256x64xf16> -> !tb.tile<2x64x64xf16>
    %3 = tb.input_iterator %arg4 imap [-1, 2, -1] fmap -1 : tensor<2x64x4096xf16> -> !tb.tile<2x64x128xf16>
    %4 = tb.input_iterator %arg5 imap [-1, 1, -1] fmap -1 : tensor<2x4096x64xf16> -> !tb.tile<2x128x64xf16>
    %5 = tb.matmul %2, %3 : !tb.tile<2x64x64xf16>, !tb.tile<2x64x128xf16> -> !tb.tile<2x64x128xf16>
    %6 = tb.reduce max %5 dim 2 : !tb.tile<2x64x128xf16> -> !tb.tile<2x64x1xf16>
    %7 = tb.binary sub %5, %6 : !tb.tile<2x64x128xf16>, !tb.tile<2x64x1xf16> -> !tb.tile<2x64x128xf16>
    %8 = tb.forloop_accum none %6 : (!tb.tile<2x64x1xf16>) -> !tb.tile<2x64x1xf16>
    %9 = tb.unary exp %7 : !tb.tile<2x64x128xf16>
    %10 = tb.matmul %9, %4 : !tb.tile<2x64x128xf16>, !tb.tile<2x128x64xf16> -> !tb.tile<2x64x64xf16>
    %11 = tb.reduce sum %9 dim 2 : !tb.tile<2x64x128xf16> -> !tb.tile<2x64x1xf16>
    %12 = tb.forloop_accum none %10 : (!tb.tile<2x64x64xf16>) -> !tb.tile<2x64x64xf16>
    %13 = tb.forloop_accum none %11 : (!tb.tile<2x64x1xf16>) -> !tb.tile<2x64x1xf16>
    %14 = tb.output_saver %8 omap [1, 2, -1] : !tb.tile<2x64x1xf16> -> tensor<2x256x32xf16>
    %15 = tb.output_saver %12 omap [1, 2, -1] : !tb.tile<2x64x64xf16> -> tensor<2x256x2048xf16>
    %16 = tb.output_saver %13 omap [1, 2, -1] : !tb.tile<2x64x1xf16> -> tensor<2x256x32xf16>
    tb.yield %14, %15, %16 : tensor<2x256x32xf16>, tensor<2x256x2048xf16>, tensor<2x256x32xf16>
  }
  %1 = tk.fused grid [16, 1, 1] block [128, 1, 1] forloop 32 (%arg3 = %0#0 : tensor<2x256x32xf16>, %arg4 = %0#1 : tensor<2x256x2048xf16>, %arg5 = %0#2 : tensor<2x256x32xf16>) -> tensor<2x256x64xf16> {
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 2 : tensor<2x256x32xf16> -> !tb.tile<2x16x1xf16>
    %3 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 2 : tensor<2x256x2048xf16> -> !tb.tile<2x16x64xf16>
    %4 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 2 : tensor<2x256x32xf16> -> !tb.tile<2x16x1xf16>
    %5 = tb.forloop_accum sum_rescale %3, %2 : (!tb.tile<2x16x64xf16>, !tb.tile<2x16x1xf16>) -> !tb.tile<2x16x64xf16>
    %6 = tb.forloop_accum sum_rescale %4, %2 : (!tb.tile<2x16x1xf16>, !tb.tile<2x16x1xf16>) -> !tb.tile<2x16x1xf16>
    %7 = tb.binary div %5, %6 : !tb.tile<2x16x64xf16>, !tb.tile<2x16x1xf16> -> !tb.tile<2x16x64xf16>
    %8 = tb.output_saver %7 omap [1, -1, -1] : !tb.tile<2x16x64xf16> -> tensor<2x256x64xf16>
    tb.yield %8 : tensor<2x256x64xf16>
  }
  return %1 : tensor<2x256x64xf16>
}

// A GEMV: padding M from 1 to 16 would waste more than tensor cores gain.
func.func @gemv(%x: tensor<1x4096xf16>, %W: tensor<4096x6144xf16>)
    -> tensor<1x6144xf16> {
  %y = tk.matmul %x, %W
         : tensor<1x4096xf16>, tensor<4096x6144xf16> -> tensor<1x6144xf16>
  return %y : tensor<1x6144xf16>
}

// One 256x1024 f16 tile (512 KiB) and its accumulator.
func.func @too_big(%X: tensor<256x1024xf16>) -> tensor<256x1024xf16> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 1
         (%x = %X : tensor<256x1024xf16>) -> tensor<256x1024xf16> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap -1
           : tensor<256x1024xf16> -> !tb.tile<256x1024xf16>
    %a = tb.forloop_accum sum %t
           : (!tb.tile<256x1024xf16>) -> !tb.tile<256x1024xf16>
    %o = tb.output_saver %a omap [-1, -1, -1]
           : !tb.tile<256x1024xf16> -> tensor<256x1024xf16>
    tb.yield %o : tensor<256x1024xf16>
  }
  return %Y : tensor<256x1024xf16>
}

// exp(2x) over 768x1024: 48 blocks of 16 rows, or one block walking them.
func.func @grid48(%X: tensor<768x1024xf16>) -> tensor<768x1024xf16> {
  %Y = tk.fused grid [48, 1, 1] block [128, 1, 1] forloop 1
         (%x = %X : tensor<768x1024xf16>) -> tensor<768x1024xf16> {
    %t = tb.input_iterator %x imap [0, -1, -1] fmap -1
           : tensor<768x1024xf16> -> !tb.tile<16x1024xf16>
    %g = th.graph (%s = %t : !tb.tile<16x1024xf16>) -> !tb.tile<16x1024xf16> {
      %two = arith.constant 2.000000e+00 : f16
      %m = arith.mulf %s, %two : f16
      %e = math.exp %m : f16
      th.yield %e : f16
    }
    %a = tb.forloop_accum none %g
           : (!tb.tile<16x1024xf16>) -> !tb.tile<16x1024xf16>
    %o = tb.output_saver %a omap [0, -1, -1]
           : !tb.tile<16x1024xf16> -> tensor<768x1024xf16>
    tb.yield %o : tensor<768x1024xf16>
  }
  return %Y : tensor<768x1024xf16>
}

func.func @grid1(%X: tensor<768x1024xf16>) -> tensor<768x1024xf16> {
  %Y = tk.fused grid [1, 1, 1] block [128, 1, 1] forloop 48
         (%x = %X : tensor<768x1024xf16>) -> tensor<768x1024xf16> {
    %t = tb.input_iterator %x imap [-1, -1, -1] fmap 0
           : tensor<768x1024xf16> -> !tb.tile<16x1024xf16>
    %g = th.graph (%s = %t : !tb.tile<16x1024xf16>) -> !tb.tile<16x1024xf16> {
      %two = arith.constant 2.000000e+00 : f16
      %m = arith.mulf %s, %two : f16
      %e = math.exp %m : f16
      th.yield %e : f16
    }
    %a = tb.forloop_accum none %g
           : (!tb.tile<16x1024xf16>) -> !tb.tile<16x1024xf16>
    %o = tb.output_saver %a omap [-1, -1, -1] fmap 0
           : !tb.tile<16x1024xf16> -> tensor<768x1024xf16>
    tb.yield %o : tensor<768x1024xf16>
  }
  return %Y : tensor<768x1024xf16>
}

func.func @moves(%X: tensor<16x4096xf16>) -> tensor<4096x16xf16> {
  %r = tk.reshape %X : tensor<16x4096xf16> -> tensor<64x1024xf16>
  %t = tk.transpose %r [1, 0] : tensor<64x1024xf16> -> tensor<1024x64xf16>
  %s = tk.reshape %t : tensor<1024x64xf16> -> tensor<4096x16xf16>
  return %s : tensor<4096x16xf16>
}

func.func @read_through(%X: tensor<16x4096xf16>, %W: tensor<4096x4096xf16>) -> tensor<16x4096xf16> {
  %t = tk.transpose %W [1, 0] : tensor<4096x4096xf16> -> tensor<4096x4096xf16>
  %y = tk.matmul %X, %t : tensor<16x4096xf16>, tensor<4096x4096xf16> -> tensor<16x4096xf16>
  return %y : tensor<16x4096xf16>
}

// Rows of 3000: no power-of-two tile holds one, so the lowering has no
// tiling for this rms_norm.
func.func @untiled_exp(%X: tensor<2x2x4x3000xf16>) -> tensor<2x2x4x3000xf16> {
  %e = tk.unary exp %X : tensor<2x2x4x3000xf16>
  return %e : tensor<2x2x4x3000xf16>
}

func.func @unknown(%X: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %y = arith.addf %X, %X : tensor<16x16xf32>
  return %y : tensor<16x16xf32>
}
// A decode step's product (8 rows) in blocks of 16 and of 32 columns of W,
// walking K in 16 steps of 256.
func.func @decode_n16(%X: tensor<8x4096xf16>, %W: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %0 = tk.fused grid [256, 1, 1] block [128, 1, 1] forloop 16 (%x = %X : tensor<8x4096xf16>, %w = %W : tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<8x4096xf16> -> !tb.tile<8x256xf16>
    %2 = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x16xf16>
    %3 = tb.matmul %1, %2 : !tb.tile<8x256xf16>, !tb.tile<256x16xf16> -> !tb.tile<8x16xf16>
    %4 = tb.forloop_accum sum %3 : (!tb.tile<8x16xf16>) -> !tb.tile<8x16xf16>
    %5 = tb.output_saver %4 omap [1, -1, -1] : !tb.tile<8x16xf16> -> tensor<8x4096xf16>
    tb.yield %5 : tensor<8x4096xf16>
  }
  return %0 : tensor<8x4096xf16>
}

func.func @decode_n32(%X: tensor<8x4096xf16>, %W: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %0 = tk.fused grid [128, 1, 1] block [128, 1, 1] forloop 16 (%x = %X : tensor<8x4096xf16>, %w = %W : tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
    %1 = tb.input_iterator %x imap [-1, -1, -1] fmap 1 : tensor<8x4096xf16> -> !tb.tile<8x256xf16>
    %2 = tb.input_iterator %w imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x32xf16>
    %3 = tb.matmul %1, %2 : !tb.tile<8x256xf16>, !tb.tile<256x32xf16> -> !tb.tile<8x32xf16>
    %4 = tb.forloop_accum sum %3 : (!tb.tile<8x32xf16>) -> !tb.tile<8x32xf16>
    %5 = tb.output_saver %4 omap [1, -1, -1] : !tb.tile<8x32xf16> -> tensor<8x4096xf16>
    tb.yield %5 : tensor<8x4096xf16>
  }
  return %0 : tensor<8x4096xf16>
}
// K^T read through its transpose: each block's 128x16 tile of K^T is a 16x128
// tile of K, whole rows of it, 4 KiB in one run.
func.func @transposed_read(%K: tensor<4096x128xf16>) -> tensor<128x4096xf16> {
  %t = tk.transpose %K [1, 0] : tensor<4096x128xf16> -> tensor<128x4096xf16>
  %Y = tk.fused grid [256, 1, 1] block [128, 1, 1] forloop 1
         (%k = %t : tensor<128x4096xf16>) -> tensor<128x4096xf16> {
    %kt = tb.input_iterator %k imap [1, -1, -1] fmap -1
            : tensor<128x4096xf16> -> !tb.tile<128x16xf16>
    %e = tb.unary exp %kt : !tb.tile<128x16xf16>
    %a = tb.forloop_accum none %e
           : (!tb.tile<128x16xf16>) -> !tb.tile<128x16xf16>
    %o = tb.output_saver %a omap [1, -1, -1]
           : !tb.tile<128x16xf16> -> tensor<128x4096xf16>
    tb.yield %o : tensor<128x4096xf16>
  }
  return %Y : tensor<128x4096xf16>
}

// rmsnorm_linear at b=1 in 192 blocks of 32 columns of W and in 96 blocks of
// 64: X is also squared, so the threads load both tiles into registers.
func.func @rmsnorm_b1_n32(%arg0: tensor<2x4096xf16>, %arg1: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %0 = tk.fused grid [192, 1, 1] block [128, 1, 1] forloop 16 (%arg2 = %arg0 : tensor<2x4096xf16>, %arg3 = %arg1 : tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
    %1 = tb.input_iterator %arg2 imap [-1, -1, -1] fmap 1 : tensor<2x4096xf16> -> !tb.tile<2x256xf16>
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 0 : tensor<4096x6144xf16> -> !tb.tile<256x32xf16>
    %3 = tb.unary square %1 : !tb.tile<2x256xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<2x256xf16>, !tb.tile<256x32xf16> -> !tb.tile<2x32xf16>
    %5 = tb.reduce mean %3 dim 1 : !tb.tile<2x256xf16> -> !tb.tile<2x1xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<2x32xf16>) -> !tb.tile<2x32xf16>
    %7 = tb.unary add_scalar(1.00135803E-5) %5 : !tb.tile<2x1xf16>
    %8 = tb.forloop_accum mean %7 : (!tb.tile<2x1xf16>) -> !tb.tile<2x1xf16>
    %9 = tb.unary sqrt %8 : !tb.tile<2x1xf16>
    %10 = tb.binary div %6, %9 : !tb.tile<2x32xf16>, !tb.tile<2x1xf16> -> !tb.tile<2x32xf16>
    %11 = tb.output_saver %10 omap [1, -1, -1] : !tb.tile<2x32xf16> -> tensor<2x6144xf16>
    tb.yield %11 : tensor<2x6144xf16>
  }
  return %0 : tensor<2x6144xf16>
}

func.func @rmsnorm_b1_n64(%arg0: tensor<2x4096xf16>, %arg1: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %0 = tk.fused grid [96, 1, 1] block [128, 1, 1] forloop 16 (%arg2 = %arg0 : tensor<2x4096xf16>, %arg3 = %arg1 : tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
    %1 = tb.input_iterator %arg2 imap [-1, -1, -1] fmap 1 : tensor<2x4096xf16> -> !tb.tile<2x256xf16>
    %2 = tb.input_iterator %arg3 imap [1, -1, -1] fmap 0 : tensor<4096x6144xf16> -> !tb.tile<256x64xf16>
    %3 = tb.unary square %1 : !tb.tile<2x256xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<2x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<2x64xf16>
    %5 = tb.reduce mean %3 dim 1 : !tb.tile<2x256xf16> -> !tb.tile<2x1xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<2x64xf16>) -> !tb.tile<2x64xf16>
    %7 = tb.unary add_scalar(1.00135803E-5) %5 : !tb.tile<2x1xf16>
    %8 = tb.forloop_accum mean %7 : (!tb.tile<2x1xf16>) -> !tb.tile<2x1xf16>
    %9 = tb.unary sqrt %8 : !tb.tile<2x1xf16>
    %10 = tb.binary div %6, %9 : !tb.tile<2x64xf16>, !tb.tile<2x1xf16> -> !tb.tile<2x64xf16>
    %11 = tb.output_saver %10 omap [1, -1, -1] : !tb.tile<2x64xf16> -> tensor<2x6144xf16>
    tb.yield %11 : tensor<2x6144xf16>
  }
  return %0 : tensor<2x6144xf16>
}

func.func @gated_n64(%arg0: tensor<8x4096xf16>, %arg1: tensor<4096x4096xf16>, %arg2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %0 = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 16 (%arg3 = %arg0 : tensor<8x4096xf16>, %arg4 = %arg1 : tensor<4096x4096xf16>, %arg5 = %arg2 : tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
    %1 = tb.input_iterator %arg3 imap [-1, -1, -1] fmap 1 : tensor<8x4096xf16> -> !tb.tile<8x256xf16>
    %2 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x64xf16>
    %3 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x64xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %5 = tb.matmul %1, %3 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %7 = tb.forloop_accum sum %5 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %8 = tb.unary silu %6 : !tb.tile<8x64xf16>
    %9 = tb.binary mul %7, %8 : !tb.tile<8x64xf16>, !tb.tile<8x64xf16> -> !tb.tile<8x64xf16>
    %10 = tb.output_saver %9 omap [1, -1, -1] : !tb.tile<8x64xf16> -> tensor<8x4096xf16>
    tb.yield %10 : tensor<8x4096xf16>
  }
  return %0 : tensor<8x4096xf16>
}

func.func @gated_n64_column_sums(%arg0: tensor<8x4096xf16>, %arg1: tensor<4096x4096xf16>, %arg2: tensor<4096x4096xf16>, %arg3: tensor<4096x4096xf16>) -> (tensor<8x4096xf16>, tensor<1x4096xf16>) {
  %0:2 = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 16 (%arg4 = %arg0 : tensor<8x4096xf16>, %arg5 = %arg1 : tensor<4096x4096xf16>, %arg6 = %arg2 : tensor<4096x4096xf16>, %arg7 = %arg3 : tensor<4096x4096xf16>) -> (tensor<8x4096xf16>, tensor<1x4096xf16>) {
    %1 = tb.input_iterator %arg4 imap [-1, -1, -1] fmap 1 : tensor<8x4096xf16> -> !tb.tile<8x256xf16>
    %2 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x64xf16>
    %3 = tb.input_iterator %arg6 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x64xf16>
    %4 = tb.input_iterator %arg7 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x64xf16>
    %5 = tb.matmul %1, %2 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %6 = tb.matmul %1, %3 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %7 = tb.forloop_accum sum %5 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %8 = tb.forloop_accum sum %6 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %9 = tb.reduce sum %4 dim 0 : !tb.tile<256x64xf16> -> !tb.tile<1x64xf16>
    %10 = tb.forloop_accum sum %9 : (!tb.tile<1x64xf16>) -> !tb.tile<1x64xf16>
    %11 = tb.binary mul %7, %8 : !tb.tile<8x64xf16>, !tb.tile<8x64xf16> -> !tb.tile<8x64xf16>
    %12 = tb.output_saver %11 omap [1, -1, -1] : !tb.tile<8x64xf16> -> tensor<8x4096xf16>
    %13 = tb.output_saver %10 omap [1, -1, -1] : !tb.tile<1x64xf16> -> tensor<1x4096xf16>
    tb.yield %12, %13 : tensor<8x4096xf16>, tensor<1x4096xf16>
  }
  return %0#0, %0#1 : tensor<8x4096xf16>, tensor<1x4096xf16>
}

func.func @gated_n64_squared(%arg0: tensor<8x4096xf16>, %arg1: tensor<4096x4096xf16>, %arg2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %0 = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 16 (%arg3 = %arg0 : tensor<8x4096xf16>, %arg4 = %arg1 : tensor<4096x4096xf16>, %arg5 = %arg2 : tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
    %1 = tb.input_iterator %arg3 imap [-1, -1, -1] fmap 1 : tensor<8x4096xf16> -> !tb.tile<8x256xf16>
    %2 = tb.input_iterator %arg4 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x64xf16>
    %3 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16> -> !tb.tile<256x64xf16>
    %4 = tb.matmul %1, %2 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %5 = tb.matmul %1, %3 : !tb.tile<8x256xf16>, !tb.tile<256x64xf16> -> !tb.tile<8x64xf16>
    %6 = tb.forloop_accum sum %4 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %7 = tb.forloop_accum sum %5 : (!tb.tile<8x64xf16>) -> !tb.tile<8x64xf16>
    %8 = tb.unary square %1 : !tb.tile<8x256xf16>
    %9 = tb.reduce sum %8 dim 1 : !tb.tile<8x256xf16> -> !tb.tile<8x1xf16>
    %10 = tb.forloop_accum sum %9 : (!tb.tile<8x1xf16>) -> !tb.tile<8x1xf16>
    %11 = tb.binary mul %7, %6 : !tb.tile<8x64xf16>, !tb.tile<8x64xf16> -> !tb.tile<8x64xf16>
    %12 = tb.binary div %11, %10 : !tb.tile<8x64xf16>, !tb.tile<8x1xf16> -> !tb.tile<8x64xf16>
    %13 = tb.output_saver %12 omap [1, -1, -1] : !tb.tile<8x64xf16> -> tensor<8x4096xf16>
    tb.yield %13 : tensor<8x4096xf16>
  }
  return %0 : tensor<8x4096xf16>
}
)mlir";

class CostModelTest : public ::testing::Test {
protected:
  CostModelTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry
        .insert<func::FuncDialect, arith::ArithDialect, math::MathDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    auto example = llvm::MemoryBuffer::getFile(
        TILEOPT_SOURCE_DIR "/examples/ugraph/rmsnorm_linear.mlir");
    EXPECT_TRUE(bool(example));
    module = parseSourceString<ModuleOp>(
        (kPrograms + (*example)->getBuffer()).str(), &context);
    EXPECT_TRUE(bool(module));
  }

  ProgramCost cost(StringRef name) {
    auto func = module->lookupSymbol<func::FuncOp>(name);
    EXPECT_TRUE(func) << name.str();
    FailureOr<ProgramCost> result = estimateCost(func, target);
    EXPECT_TRUE(succeeded(result)) << name.str();
    return succeeded(result) ? *result : ProgramCost();
  }

  /// The diagnostics of estimating `name`, which must fail.
  std::string failureOf(StringRef name) {
    std::string text;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
      text += d.str() + "\n";
      return success();
    });
    auto func = module->lookupSymbol<func::FuncOp>(name);
    EXPECT_TRUE(func) << name.str();
    EXPECT_TRUE(failed(estimateCost(func, target))) << name.str();
    return text;
  }

  tk::FusedOp fusedIn(StringRef name) {
    auto func = module->lookupSymbol<func::FuncOp>(name);
    return *func.getOps<tk::FusedOp>().begin();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  GpuTarget target = GpuTarget::h200();
};

/// Times agree to a part in a million: the expectations are written with
/// the target's numbers, in another order of operations.
void expectSeconds(double actual, double expected) {
  EXPECT_NEAR(actual, expected, expected * 1e-6);
}

TEST_F(CostModelTest, H200Numbers) {
  EXPECT_EQ(target.numSMs, 132u);
  EXPECT_EQ(target.sharedMemoryPerBlock, 232448);
  EXPECT_DOUBLE_EQ(target.dramBytesPerSecond, 4.26e12);
  EXPECT_DOUBLE_EQ(target.tensorCoreFlopsPerSecond, 683e12);
  EXPECT_NEAR(target.cudaCoreFlopsPerSecond, 66.9e12, 0.1e12);
  EXPECT_NEAR(target.sharedMemoryBytesPerSecondPerSM, 253.44e9, 1e6);
}

TEST_F(CostModelTest, UnfusedRmsNormLinear) {
  ProgramCost unfused = cost("unfused");
  ASSERT_EQ(unfused.kernels.size(), 2u);
  const KernelCost &norm = unfused.kernels[0], &matmul = unfused.kernels[1];
  // Both are priced as the lowering tiles them (tilePredefinedKernel).
  // rms_norm: a block per row of 4096 (16 blocks, no loop); it reads and
  // writes X (16x4096 f16) once and makes one reduction pass. Each block's
  // threads load their row into registers: 8192 bytes in 64 lines of 128,
  // which bound it.
  EXPECT_EQ(norm.blocks, 16);
  EXPECT_DOUBLE_EQ(norm.dramBytes, 2 * 131072);
  EXPECT_DOUBLE_EQ(norm.cudaCoreFlops, 3 * 16 * 4096);
  EXPECT_EQ(norm.reductionPasses, 1u);
  EXPECT_EQ(norm.bound, "register loads");
  EXPECT_DOUBLE_EQ(norm.loopSeconds, 0);
  EXPECT_DOUBLE_EQ(norm.registerLoadBytes, 131072);
  EXPECT_DOUBLE_EQ(norm.registerLoadLines, 16 * 64);
  expectSeconds(norm.seconds, 2e-6 + 8192 / 55.6e9 + 64 * 0.68e-9);
  // The matmul: 16x32 output tiles (128 columns narrowed until the grid has
  // 192 blocks), K in 64 steps of 64. It reads W once and writes Y; every
  // block reads all of X, the first from device memory, the rest from L2;
  // 2*M*N*K on tensor cores.
  EXPECT_EQ(matmul.blocks, 192);
  EXPECT_DOUBLE_EQ(matmul.dramBytes, 131072 + 50331648 + 196608);
  EXPECT_DOUBLE_EQ(matmul.l2Bytes, 191.0 * 131072);
  EXPECT_DOUBLE_EQ(matmul.tensorCoreFlops, 2.0 * 16 * 6144 * 4096);
  // Per step its two tiles land (2048 + 4096), its 1x4 warps (16 rows, 32
  // columns, no padding) each read all of the X tile and a quarter of the W
  // tile (4 * 2048 + 4096); the 16x32 result is saved once. Reading W
  // bounds it.
  EXPECT_DOUBLE_EQ(matmul.sharedMemoryTraffic,
                   192.0 * (64 * (2048 + 4096 + 4 * 2048 + 4096) + 1024));
  EXPECT_EQ(matmul.bound, "memory");
  // The loop: 64 steps in one round (two blocks an SM), then the wait for
  // the first step's tiles (16x64 of X, 64x32 of W) at an SM's share of the
  // device bandwidth. Its tiles go through the cp.async ring, not through
  // registers.
  EXPECT_TRUE(matmul.pipelined);
  EXPECT_DOUBLE_EQ(matmul.registerLoadBytes, 0);
  expectSeconds(matmul.loopSeconds,
                64 * 0.075e-6 + 0.6e-6 + (2048 + 4096) * 132 / 4.26e12);
  expectSeconds(matmul.seconds, 2e-6 + 50659328 / 4.26e12 + matmul.loopSeconds);
  expectSeconds(unfused.seconds, norm.seconds + matmul.seconds);
}

TEST_F(CostModelTest, FusedRmsNormLinear) {
  ProgramCost fused = cost("rmsnorm_linear");
  ASSERT_EQ(fused.kernels.size(), 1u);
  const KernelCost &kernel = fused.kernels[0];
  EXPECT_EQ(kernel.blocks, 48);
  // W once, Y once, X once from device memory; the other 47 blocks read
  // X again from L2.
  EXPECT_DOUBLE_EQ(kernel.dramBytes, 131072 + 50331648 + 196608);
  EXPECT_DOUBLE_EQ(kernel.l2Bytes, 47.0 * 131072);
  EXPECT_DOUBLE_EQ(kernel.tensorCoreFlops, 2.0 * 16 * 6144 * 4096);
  // Per block and iteration: square and row sum of the 16x64 X tile, the
  // two accumulators (16x128, 16x1); per block after the loop: mean and
  // sqrt of 16x1, the 16x128 division.
  EXPECT_DOUBLE_EQ(kernel.cudaCoreFlops,
                   48.0 * (64 * (1024 + 1024 + 2048 + 16) + 16 + 16 + 2048));
  // Per iteration: the two tiles land (2048 + 16384), the matmul's 1x4
  // warps (16 rows, 128 columns) each read the whole X tile and a quarter
  // of the W tile (4 * 2048 + 16384), square and reduce make a pass; after
  // the loop: three small passes and the 16x128 tile saved.
  EXPECT_DOUBLE_EQ(kernel.sharedMemoryTraffic,
                   48.0 *
                       (64 * (2048 + 16384 + 4 * 2048 + 16384 + 4096 + 2080) +
                        64 + 64 + 8224 + 4096));
  EXPECT_EQ(kernel.sharedMemoryBytes, 45088);
  EXPECT_EQ(kernel.reductionPasses, 1u);
  // Shared memory allows 5 blocks per SM (233472 / 45088); all 48 fit in
  // one wave, one to an SM.
  EXPECT_DOUBLE_EQ(kernel.blocksPerSM, 5);
  EXPECT_EQ(kernel.waves, 1);
  // X is also squared, so the threads load both tiles into registers: per
  // step 16 rows of 128 bytes and 64 rows of 256 (two lines each). One SM
  // loads a whole block's tiles at the register path's rate: that bounds
  // the kernel, ahead of its shared memory and of device memory.
  EXPECT_DOUBLE_EQ(kernel.registerLoadBytes, 48.0 * 64 * (2048 + 16384));
  EXPECT_DOUBLE_EQ(kernel.registerLoadLines, 48.0 * 64 * (16 + 64 * 2));
  EXPECT_EQ(kernel.bound, "register loads");
  // 64 steps in one round; the tiles in registers, 16x64 and 64x128 f16,
  // take 36 registers a thread, within the pipelining's budget. Then the
  // wait for the first step's tiles, the 48 SMs sharing the device's
  // bandwidth.
  EXPECT_TRUE(kernel.pipelined);
  expectSeconds(kernel.loopSeconds,
                64 * 0.075e-6 + 0.6e-6 + (2048 + 16384) * 48 / 4.26e12);
  expectSeconds(kernel.seconds, 2e-6 + 64 * (18432 / 55.6e9 + 144 * 0.68e-9) +
                                    kernel.loopSeconds);

  // Both the model and the GPU rank the fused kernel behind the predefined
  // ones: on the H200 it took 32.3 us where torch.compile took 16.7
  // (docs/performance.md, 2026-12-04), the model says 35.1 us. 48 SMs cannot
  // pull W through their threads' registers at the device's rate.
  ProgramCost unfused = cost("unfused");
  EXPECT_GT(fused.seconds, unfused.seconds);
}

TEST_F(CostModelTest, SharedMemoryOfRmsNormLinear) {
  // At the matmul: both double-buffered iterator tiles (the 16x64 X tile,
  // 16 rows being one m16 tile, 4096; 32768), its 16x128 result, and the
  // accumulators (4096 + 32), live for the loop.
  EXPECT_EQ(estimateSharedMemory(fusedIn("rmsnorm_linear")),
            4096 + 32768 + 4096 + 4096 + 32);
}

// A 4096^3 product. The predefined tiling (128x128 output tiles, 1024
// blocks, K in 64 steps of 64) reads A and B 32 times each, all but once
// from L2, and at the L2 bandwidth the model assumes that bounds it. The
// fused 256x128 tiling re-reads A half as often and is tensor-core bound.
TEST_F(CostModelTest, BiggerTilesReReadLess) {
  ProgramCost predefined = cost("big_matmul");
  ASSERT_EQ(predefined.kernels.size(), 1u);
  const KernelCost &library = predefined.kernels[0];
  EXPECT_EQ(library.blocks, 1024);
  EXPECT_EQ(library.bound, "memory");
  // Per step the two tiles land and each is read by two of the 2x2 warps;
  // the 128x128 result is saved once.
  EXPECT_DOUBLE_EQ(library.sharedMemoryTraffic,
                   1024.0 * (64 * (2 * 16384 + 2 * 2 * 16384) + 32768));
  EXPECT_DOUBLE_EQ(library.tensorCoreFlops, 2.0 * 4096 * 4096 * 4096);
  EXPECT_DOUBLE_EQ(library.dramBytes, 3.0 * 4096 * 4096 * 2);
  EXPECT_DOUBLE_EQ(library.l2Bytes,
                   1024.0 * 64 * 32768 - 2.0 * 4096 * 4096 * 2);
  // 1024 blocks, 8 on the busiest SM, one at a time (its tiles take 96 KiB
  // and more): 8 rounds of 64 steps, each round waiting for a 128x64 and a
  // 64x128 tile first.
  EXPECT_DOUBLE_EQ(library.blocksPerSM, 1);
  expectSeconds(library.loopSeconds,
                8 * (64 * 0.075e-6 + 0.6e-6 + 32768 * 132 / 4.26e12));
  expectSeconds(library.seconds,
                2e-6 + (library.dramBytes + library.l2Bytes) / 10e12 +
                    library.loopSeconds);

  ProgramCost fused = cost("big_matmul_fused");
  ASSERT_EQ(fused.kernels.size(), 1u);
  const KernelCost &kernel = fused.kernels[0];
  EXPECT_EQ(kernel.bound, "tensor core");
  EXPECT_DOUBLE_EQ(kernel.tensorCoreFlops, 2.0 * 4096 * 4096 * 4096);
  EXPECT_EQ(kernel.blocks, 512);
  // Each block reads a 256x64 and a 64x128 tile per iteration; all but the
  // first reader of a tile get it from L2.
  EXPECT_DOUBLE_EQ(kernel.dramBytes, 3.0 * 4096 * 4096 * 2);
  EXPECT_DOUBLE_EQ(kernel.l2Bytes,
                   512.0 * 64 * (32768 + 16384) - 2.0 * 4096 * 4096 * 2);
  // 224 KiB of tiles (double-buffered iterators, product, accumulator): one
  // block per SM, 512 blocks in 4 waves; the busiest SM runs 4 blocks where
  // the average is 512 / 132, each one after the other: 4 rounds of 64
  // steps, each round waiting for its first two tiles.
  EXPECT_EQ(kernel.sharedMemoryBytes, 2 * 32768 + 2 * 16384 + 65536 + 65536);
  EXPECT_DOUBLE_EQ(kernel.blocksPerSM, 1);
  EXPECT_EQ(kernel.waves, 4);
  expectSeconds(kernel.loopSeconds,
                4 * (64 * 0.075e-6 + 0.6e-6 + 49152 * 132 / 4.26e12));
  expectSeconds(kernel.seconds,
                2e-6 + 4 * 2.0 * 256 * 128 * 4096 / (683e12 / 132) +
                    kernel.loopSeconds);
  EXPECT_LT(fused.seconds, predefined.seconds);
}

TEST_F(CostModelTest, ThinMatmulRunsOnCudaCores) {
  ProgramCost gemv = cost("gemv");
  ASSERT_EQ(gemv.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(gemv.kernels[0].tensorCoreFlops, 0);
  // The product, and one add per output element and K step (64 of them)
  // into the accumulator.
  EXPECT_DOUBLE_EQ(gemv.kernels[0].cudaCoreFlops,
                   2.0 * 4096 * 6144 + 6144.0 * 64);
  EXPECT_EQ(gemv.kernels[0].bound, "memory");
}

TEST_F(CostModelTest, TooMuchSharedMemoryFails) {
  EXPECT_EQ(estimateSharedMemory(fusedIn("too_big")), 2 * 524288);
  std::string diagnostics = failureOf("too_big");
  EXPECT_NE(diagnostics.find("'tk.fused' op needs 1048576 bytes of shared "
                             "memory per block"),
            std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("more than the 232448 bytes a block can have "
                             "on H200"),
            std::string::npos)
      << diagnostics;
}

TEST_F(CostModelTest, OneBlockIsMuchSlowerThanAGrid) {
  ProgramCost spread = cost("grid48"), single = cost("grid1");
  ASSERT_EQ(spread.kernels.size(), 1u);
  ASSERT_EQ(single.kernels.size(), 1u);
  const KernelCost &wide = spread.kernels[0], &narrow = single.kernels[0];
  // The same work: X read once, Y written once, two flops per element (the
  // constant is free).
  for (const KernelCost *kernel : {&wide, &narrow}) {
    EXPECT_DOUBLE_EQ(kernel->dramBytes, 2 * 1572864);
    EXPECT_DOUBLE_EQ(kernel->l2Bytes, 0);
    EXPECT_DOUBLE_EQ(kernel->cudaCoreFlops, 2 * 768 * 1024);
  }
  EXPECT_EQ(wide.blocks, 48);
  EXPECT_EQ(narrow.blocks, 1);
  // The threads load each 16x1024 tile into registers: 32 KiB in one run,
  // 256 lines. On 48 SMs that takes a little longer than device memory
  // takes to move X and Y; one block loads all 48 tiles on one SM.
  for (const KernelCost *kernel : {&wide, &narrow}) {
    EXPECT_DOUBLE_EQ(kernel->registerLoadBytes, 1572864);
    EXPECT_DOUBLE_EQ(kernel->registerLoadLines, 48 * 256);
  }
  expectSeconds(wide.seconds, 2e-6 + 32768 / 55.6e9 + 256 * 0.68e-9);
  // The single block also walks its tiles one step after another, its first
  // tile at what its SM's port to L2 takes.
  expectSeconds(narrow.loopSeconds,
                48 * 0.075e-6 + 0.6e-6 + 32768 / (64 * 1.98e9));
  expectSeconds(narrow.seconds, 2e-6 + 48 * (32768 / 55.6e9 + 256 * 0.68e-9) +
                                    narrow.loopSeconds);
  EXPECT_GT(single.seconds, 5 * spread.seconds);
  // One tile per block; double-buffered when the loop walks the tiles.
  EXPECT_EQ(wide.sharedMemoryBytes, 3 * 32768);
  EXPECT_EQ(narrow.sharedMemoryBytes, 4 * 32768);
}

// The mma's padding and ldmatrix reads: 16 columns pad X's 8 rows to 32 for
// 2x2 warps, each X row read by 2 warps; 32 columns pad them to 16 for 1x4
// warps, each X row read by 4. Per result column the narrow blocks move
// more shared memory, and two of them share an SM. (gated_mlp, whose two
// products load through registers, took 38.8 us in the first form and 23.7
// in the second on the H200; these kernels of one product are staged.)
TEST_F(CostModelTest, NarrowDecodeBlocksMoveMoreSharedMemory) {
  ProgramCost narrow = cost("decode_n16"), wide = cost("decode_n32");
  ASSERT_EQ(narrow.kernels.size(), 1u);
  ASSERT_EQ(wide.kernels.size(), 1u);
  // Per step: the iterator tiles land (4096 + 8192 or 16384), X's padding
  // rows are written (12288 or 4096), the padded X tile is read by each
  // column of warps (16384 x 2 or 8192 x 4) and W's tile by each row of
  // warps (8192 x 2 or 16384 x 1); the saved tile once.
  EXPECT_DOUBLE_EQ(
      narrow.kernels[0].sharedMemoryTraffic,
      256.0 * (16 * (4096 + 8192 + 12288 + 16384 * 2 + 8192 * 2) + 256));
  EXPECT_DOUBLE_EQ(
      wide.kernels[0].sharedMemoryTraffic,
      128.0 * (16 * (4096 + 16384 + 4096 + 8192 * 4 + 16384 * 1) + 512));
  EXPECT_EQ(narrow.kernels[0].bound, "shared memory");
  EXPECT_EQ(wide.kernels[0].bound, "memory");
  EXPECT_LT(wide.seconds, narrow.seconds);
}

// Both forms of rmsnorm_linear at b=1 read W once, and the busiest SM loads
// 512 KiB of it either way: two blocks of 32 columns, or one of 64. But the
// 32-column rows are 64 bytes, each a line of its own, so those two blocks
// load twice the lines: on the H200 they took 20.9 us, the one wide block
// 16.4 (docs/performance.md, 2026-12-04).
TEST_F(CostModelTest, ShortRowsLoadSlowerThroughRegisters) {
  ProgramCost narrow = cost("rmsnorm_b1_n32"), wide = cost("rmsnorm_b1_n64");
  ASSERT_EQ(narrow.kernels.size(), 1u);
  ASSERT_EQ(wide.kernels.size(), 1u);
  const KernelCost &n32 = narrow.kernels[0], &n64 = wide.kernels[0];
  // Per block and step: X's 2 rows of 512 bytes (4 lines each) and W's 256
  // rows of 64 or 128 bytes (a line each).
  EXPECT_DOUBLE_EQ(n32.registerLoadBytes, 192.0 * 16 * (1024 + 16384));
  EXPECT_DOUBLE_EQ(n32.registerLoadLines, 192.0 * 16 * (8 + 256));
  EXPECT_DOUBLE_EQ(n64.registerLoadBytes, 96.0 * 16 * (1024 + 32768));
  EXPECT_DOUBLE_EQ(n64.registerLoadLines, 96.0 * 16 * (8 + 256));
  // Both are bound by the busiest SM's loads, ahead of device memory
  // (50.4 MB: 11.8 us).
  EXPECT_EQ(n32.bound, "register loads");
  EXPECT_EQ(n64.bound, "register loads");
  expectSeconds(n32.seconds, 2e-6 + 2 * 16 * (17408 / 55.6e9 + 264 * 0.68e-9) +
                                 n32.loopSeconds);
  expectSeconds(n64.seconds,
                2e-6 + 16 * (33792 / 55.6e9 + 264 * 0.68e-9) + n64.loopSeconds);
  EXPECT_LT(wide.seconds, narrow.seconds);
}

// Two products on one activation tile (gated_mlp's X W1 and X W2): the code
// generator stages X, W1 and W2 through one cp.async ring, and nothing is
// loaded through registers, so the kernel is priced by its bytes (on the
// H200: 17.8 us, 22.2 when its loop went through registers). Once X is also
// squared for a sum, the loop keeps its tiles in registers
// (mmaStagingObstacle), every one of them.
TEST_F(CostModelTest, ProductsOfTilesLoadedForThemAloneAreStaged) {
  ProgramCost staged = cost("gated_n64"), squared = cost("gated_n64_squared");
  ASSERT_EQ(staged.kernels.size(), 1u);
  ASSERT_EQ(squared.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(staged.kernels[0].registerLoadBytes, 0);
  EXPECT_DOUBLE_EQ(staged.kernels[0].registerLoadLines, 0);
  EXPECT_EQ(staged.kernels[0].bound, "memory");
  EXPECT_TRUE(staged.kernels[0].pipelined);
  // Per block and step: X's 8 rows of 512 bytes (4 lines each) and two W
  // tiles of 256 rows of 128 bytes (a line each).
  EXPECT_DOUBLE_EQ(squared.kernels[0].registerLoadBytes,
                   64.0 * 16 * (4096 + 2 * 32768));
  EXPECT_DOUBLE_EQ(squared.kernels[0].registerLoadLines,
                   64.0 * 16 * (32 + 2 * 256));
  EXPECT_LT(staged.seconds, squared.seconds);
  // A walked tile beside the products (summed over its columns) is loaded
  // through registers, and the code generator, which keeps a staged loop as
  // it is, does not prefetch it: the loop is not pipelined.
  ProgramCost sums = cost("gated_n64_column_sums");
  ASSERT_EQ(sums.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(sums.kernels[0].registerLoadBytes, 64.0 * 16 * 32768);
  EXPECT_FALSE(sums.kernels[0].pipelined);
}

// A tile of a transposed tensor that the lowering reads through its source
// (transposeReadThrough) touches the source's lines: 16 rows of 256 bytes
// in one run, 32 lines, not 128 columns of 32 bytes (128 lines).
TEST_F(CostModelTest, TransposedTilesCountTheSourcesLines) {
  ProgramCost program = cost("transposed_read");
  ASSERT_EQ(program.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(program.kernels[0].registerLoadBytes, 256.0 * 4096);
  EXPECT_DOUBLE_EQ(program.kernels[0].registerLoadLines, 256.0 * 32);
}

// Equal times are ordered by the components' sum, the work the overlap
// hides; a shorter time comes first whatever that sum.
TEST_F(CostModelTest, TiesGoToLessWork) {
  ProgramCost lean, busy, slow;
  lean.seconds = busy.seconds = 10e-6;
  lean.serialSeconds = 12e-6;
  busy.serialSeconds = 15e-6;
  slow.seconds = 11e-6;
  slow.serialSeconds = 11e-6;
  EXPECT_TRUE(lean.cheaperThan(busy));
  EXPECT_FALSE(busy.cheaperThan(lean));
  EXPECT_FALSE(lean.cheaperThan(lean));
  EXPECT_TRUE(busy.cheaperThan(slow));
  // Each kernel's sum is its components', not its time's.
  ProgramCost fused = cost("rmsnorm_linear");
  const KernelCost &kernel = fused.kernels[0];
  EXPECT_GT(kernel.serialSeconds, kernel.seconds - 2e-6 - kernel.loopSeconds);
  expectSeconds(fused.serialSeconds, kernel.serialSeconds);
}

// Why the search prefers split-KV at decode sizes: the FlashAttention form
// has 64 blocks for 132 SMs (each SM's tensor cores and port to L2 carry
// 1/64 of the work), the split form 128 blocks, at the price of a second
// launch and the partial results' round trip through device memory.
TEST_F(CostModelTest, SplitKVBeatsTooFewBlocks) {
  ProgramCost flash = cost("gqa_flash"), split = cost("gqa_split");
  ASSERT_EQ(flash.kernels.size(), 1u);
  ASSERT_EQ(split.kernels.size(), 2u);
  EXPECT_EQ(flash.kernels[0].blocks, 64);
  EXPECT_EQ(split.kernels[0].blocks, 128);
  EXPECT_EQ(split.kernels[1].blocks, 16);
  EXPECT_LT(split.seconds, flash.seconds / 2);
}

// The lowering copies a transpose that a layout change reads and a reshape
// the function returns (its own output buffer); the first reshape is a view
// of X's buffer and costs nothing. Two launches, each reading and writing
// the 128 KiB once.
TEST_F(CostModelTest, LayoutChangesAreCopies) {
  ProgramCost moves = cost("moves");
  ASSERT_EQ(moves.kernels.size(), 2u);
  EXPECT_TRUE(isa<tk::TransposeOp>(moves.kernels[0].op));
  EXPECT_TRUE(isa<tk::ReshapeOp>(moves.kernels[1].op));
  for (const KernelCost &kernel : moves.kernels) {
    EXPECT_DOUBLE_EQ(kernel.dramBytes, 2 * 131072);
    EXPECT_DOUBLE_EQ(kernel.cudaCoreFlops, 0);
  }
  expectSeconds(moves.seconds, 2 * (2e-6 + 2 * 131072 / 4.26e12));
}

// A transpose that only computing kernels read costs nothing: they read
// its source (TransposeOp::readByKernelsOnly); the matmul alone is priced.
TEST_F(CostModelTest, TransposeReadThroughIsFree) {
  ProgramCost program = cost("read_through");
  ASSERT_EQ(program.kernels.size(), 1u);
  EXPECT_TRUE(isa<tk::MatmulOp>(program.kernels[0].op));
  expectSeconds(program.seconds, program.kernels[0].seconds);
}

// A predefined kernel without a tiling is priced as spread evenly over the
// SMs, and its tiling's diagnostic is not reported: it is no error of the
// program's.
TEST_F(CostModelTest, UntiledPredefinedKernelIsSpreadEvenly) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  ProgramCost program = cost("untiled_exp");
  ASSERT_EQ(program.kernels.size(), 1u);
  EXPECT_EQ(program.kernels[0].blocks, 132);
  EXPECT_DOUBLE_EQ(program.kernels[0].loopSeconds, 0);
  expectSeconds(program.seconds, 2e-6 + 2 * 96000 / 4.26e12);
  EXPECT_EQ(diagnostics, "");
}

// The search prices thousands of candidates with the same predefined
// kernels; a memo keeps their prices. A price read from it is the one
// computed, given for the op now priced.
TEST_F(CostModelTest, MemoizedPredefinedPricesAreTheSame) {
  PredefinedCostMemo memo;
  auto unfused = module->lookupSymbol<func::FuncOp>("unfused");
  FailureOr<ProgramCost> first = estimateCost(unfused, target, &memo);
  ASSERT_TRUE(succeeded(first));
  // A copy of the function: other ops of the same kind, types and
  // attributes.
  OpBuilder builder(&context);
  builder.setInsertionPointToEnd(module->getBody());
  auto copy = cast<func::FuncOp>(builder.clone(*unfused));
  copy.setSymName("unfused_copy");
  FailureOr<ProgramCost> again = estimateCost(copy, target, &memo);
  ASSERT_TRUE(succeeded(again));
  ProgramCost fresh = cost("unfused");
  ASSERT_EQ(again->kernels.size(), 2u);
  expectSeconds(first->seconds, fresh.seconds);
  expectSeconds(again->seconds, fresh.seconds);
  auto copiedOps = copy.getBody().front().without_terminator();
  for (auto [kernel, op, computed] :
       llvm::zip_equal(again->kernels, copiedOps, fresh.kernels)) {
    EXPECT_EQ(kernel.op, &op);
    EXPECT_EQ(kernel.blocks, computed.blocks);
    expectSeconds(kernel.seconds, computed.seconds);
  }
  copy.erase();
}

TEST_F(CostModelTest, UnknownOpFails) {
  std::string diagnostics = failureOf("unknown");
  EXPECT_NE(diagnostics.find("'arith.addf' op is not modelled by the cost "
                             "model"),
            std::string::npos)
      << diagnostics;
}

TEST_F(CostModelTest, PrintsEveryKernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  cost("unfused").print(os);
  EXPECT_NE(text.find("tk.rms_norm"), std::string::npos) << text;
  EXPECT_NE(text.find("tk.matmul"), std::string::npos) << text;
  EXPECT_NE(text.find("total"), std::string::npos) << text;
  EXPECT_NE(text.find("21.67"), std::string::npos) << text;
  EXPECT_NE(
      text.find("blocks 192 (14 per SM, 1 waves)  reductions 0  loop 5.59 us"),
      std::string::npos)
      << text;
}

} // namespace
