// --help shows tileopt-compile's own options, in its categories, first and
// alone: none of the hundreds of options that LLVM's and MLIR's libraries
// register (AMDGPU, MLIR's printing and debugging flags).
// RUN: tileopt-compile --help | FileCheck %s
// CHECK: OVERVIEW: tileopt-compile:
// CHECK: USAGE: tileopt-compile [options] <input
// CHECK: OPTIONS:
// CHECK-EMPTY:
// CHECK-NEXT: Basic options:
// CHECK: --emit=<stage>
// CHECK: -o <path>
// CHECK: Code generation options:
// CHECK: --chip=
// CHECK: --num-warps=
// CHECK: Search options (tileopt-superoptimize):
// CHECK: --cache-dir=
// CHECK: --no-cache
// CHECK: --progress
// CHECK: --time-budget=

// RUN: tileopt-compile --help | FileCheck %s --check-prefix=LIBRARIES
// LIBRARIES-NOT: amdgpu
// LIBRARIES-NOT: --mlir-
// LIBRARIES-NOT: --debug
// LIBRARIES-NOT: --print-
