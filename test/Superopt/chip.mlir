// The chip the candidates are for (option chip; tileopt-compile passes its
// --chip) prices them with its limits: the fused kernel's blocks take 33 KB
// of shared memory, of which an SM of sm_90 (228 KiB) holds 6 and one of
// sm_80 (164 KiB) 4. A chip TileOpt has no facts for is an error.
// RUN: tileopt-opt %s -o /dev/null 2>&1 \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=1 time-budget=900 graph-budget=4000000 print-top=1}))' \
// RUN:   | FileCheck %s --check-prefix=SM90
// RUN: tileopt-opt %s -o /dev/null 2>&1 \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=1 time-budget=900 graph-budget=4000000 print-top=1 chip=sm_80}))' \
// RUN:   | FileCheck %s --check-prefix=SM80
// RUN: not tileopt-opt %s -o /dev/null 2>&1 \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{chip=sm_70}))' \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN

// SM90: // candidate 0
// SM90: tk.fused {{.*}} smem 33792 B/block  blocks 16 (6 per SM, 1 waves)
// SM80: // candidate 0
// SM80: tk.fused {{.*}} smem 33792 B/block  blocks 16 (4 per SM, 1 waves)
// UNKNOWN: error: tileopt-superoptimize: chip: unknown chip 'sm_70': TileOpt targets sm_80, sm_90, sm_90a
func.func @gated(%x: tensor<16x256xf16>, %w1: tensor<256x256xf16>, %w2: tensor<256x256xf16>) -> tensor<16x256xf16> {
  %0 = tk.matmul %x, %w1 : tensor<16x256xf16>, tensor<256x256xf16> -> tensor<16x256xf16>
  %1 = tk.matmul %x, %w2 : tensor<16x256xf16>, tensor<256x256xf16> -> tensor<16x256xf16>
  %2 = tk.unary silu %0 : tensor<16x256xf16>
  %3 = tk.binary mul %2, %1 : tensor<16x256xf16>, tensor<16x256xf16> -> tensor<16x256xf16>
  return %3 : tensor<16x256xf16>
}
