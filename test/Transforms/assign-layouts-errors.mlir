// RUN: tileopt-opt %s -split-input-file -verify-diagnostics --tileopt-assign-layouts
// RUN: not tileopt-opt %s --tileopt-assign-layouts="num-warps=0" \
// RUN:   -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WARPS
// WARPS: error: num-warps must be in 1-32, got 0
// RUN: not tileopt-opt %s --tileopt-assign-layouts="chip=sm_70" \
// RUN:   -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHIP
// CHIP: error: unknown chip 'sm_70': TileOpt targets sm_80, sm_90, sm_90a

// What tileopt-assign-layouts cannot give a layout, each an error at the op.

tile.kernel @mma_f16_accumulator(%x: !tile.view<64x64xf16>, %o: !tile.view<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf16>
  %a = tile.load %x[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  // expected-error @+1 {{'tile.mma' op takes rank-2 f16 or bf16 operands (tensor cores) or f32 operands (CUDA cores), and an f32 accumulator, for now}}
  %y = tile.mma %a, %a, %zero : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>
  tile.store %y, %o[%c0, %c0] : tensor<64x64xf16>, !tile.view<64x64xf16>
  tile.return
}

// -----

// 16 rows put the 4 warps side by side along N: 4 x 8 columns at least.
tile.kernel @mma_too_narrow(%x: !tile.view<16x64xf16>, %o: !tile.view<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %a = tile.load %x[%c0, %c0] : !tile.view<16x64xf16> -> tensor<16x64xf16>
  %b = tile.load %x[%c0, %c0] : !tile.view<16x64xf16> -> tensor<64x16xf16>
  // expected-error @+1 {{'tile.mma' op needs M a multiple of 16, N of 32 and K of 16 for mma.sync m16n8k16 on 1x4 warps}}
  %y = tile.mma %a, %b, %zero : tensor<16x64xf16>, tensor<64x16xf16>, tensor<16x16xf32>
  tile.store %y, %o[%c0, %c0] : tensor<16x16xf32>, !tile.view<16x16xf32>
  tile.return
}

// -----

tile.kernel @accumulator_scanned(%x: !tile.view<64x64xf16>, %o: !tile.view<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %a = tile.load %x[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  %y = tile.mma %a, %a, %zero : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  // expected-error @+1 {{'tile.scan' op uses an mma accumulator; only tile.store, elementwise ops and scf.for take them for now}}
  %s = tile.scan sum %y dim 1 : tensor<64x64xf32>
  tile.store %s, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}

// -----

tile.kernel @accumulator_from_if(%x: !tile.view<64x64xf16>, %o: !tile.view<64x64xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %a = tile.load %x[%c0, %c0] : !tile.view<64x64xf16> -> tensor<64x64xf16>
  // expected-error @+1 {{'scf.if' op produces an mma accumulator; only tile.mma, tile.load, splat constants, scf.for and elementwise ops can for now}}
  %init = scf.if %p -> (tensor<64x64xf32>) {
    scf.yield %zero : tensor<64x64xf32>
  } else {
    %one = arith.constant dense<1.0> : tensor<64x64xf32>
    scf.yield %one : tensor<64x64xf32>
  }
  %y = tile.mma %a, %a, %init : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  tile.store %y, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32>
  tile.return
}
