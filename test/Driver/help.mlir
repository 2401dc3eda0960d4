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

// --version names TileOpt's version after LLVM's: the version the search
// cache's keys hold, which the Python package reads to tell its cached
// compiled graphs from another compiler's.
// RUN: tileopt-compile --version | FileCheck %s --check-prefix=VERSION
// VERSION: LLVM version
// VERSION: TileOpt version {{[0-9]+\.[0-9]+(\.[0-9]+)?-[0-9a-z]+}}
