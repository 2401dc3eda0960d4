// Command lines tileopt-compile cannot follow: a message and exit code 1.
// RUN: rm -rf %t && mkdir -p %t

// --emit of a stage that is not one.
// RUN: sh -c '%tileopt_compile %s --emit=cubin 2>&1; echo exit=$?' | FileCheck %s --check-prefix=EMIT
// EMIT: tileopt-compile: --emit=cubin is not a stage: linalg, tk, ugraph, tile, gpu, ptx or artifact
// EMIT: exit=1{{$}}
// TOSA is an input, not a stage to stop after.
// RUN: sh -c '%tileopt_compile %s --emit=tosa 2>&1; echo exit=$?' | FileCheck %s --check-prefix=EMIT-TOSA
// EMIT-TOSA: tileopt-compile: --emit=tosa is not a stage
// EMIT-TOSA: exit=1{{$}}

// An artifact needs a directory.
// RUN: sh -c '%tileopt_compile %s 2>&1; echo exit=$?' | FileCheck %s --check-prefix=NO-OUTPUT
// NO-OUTPUT: tileopt-compile: an artifact needs a directory: -o DIR (or --emit=STAGE to print a stage)
// NO-OUTPUT: exit=1{{$}}

// An input that is not there.
// RUN: sh -c '%tileopt_compile %t/missing.mlir --emit=tk 2>&1; echo exit=$?' | FileCheck %s --check-prefix=MISSING
// MISSING: tileopt-compile: cannot open input file '{{.*}}missing.mlir': No such file or directory
// MISSING: exit=1{{$}}

// The input from stdin ("-", the default).
// RUN: cat %s | tileopt-compile --emit=tk | FileCheck %s --check-prefix=STDIN
// STDIN: func.func @exp(%arg0: tensor<4x32xf32> {tileopt.name = "x"})
// STDIN: tk.unary exp

func.func @exp(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = tosa.exp %x : (tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
