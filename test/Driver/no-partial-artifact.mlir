// A compile that fails leaves no artifact behind, not even in part, and an
// artifact already at -o stays as it was: tileopt-compile writes a complete
// artifact to a temporary directory and renames it into place. Here the
// code generator, the last stage before ptxas, refuses the kernel (3 warps
// cannot share out a 16x16 mma.sync tile), after the search has run.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t

// A failure with nothing at -o: nothing is there afterwards.
// RUN: sh -c '%tileopt_compile %s -o %t/new.art --no-cache --num-warps=3 2>&1; echo exit=$?' | FileCheck %s --check-prefix=REFUSED
// RUN: not ls %t/new.art
// REFUSED: error: 'tile.mma' op needs M a multiple of 16
// REFUSED: exit=1{{$}}

// A failure over an artifact: the artifact is left whole, and nothing is
// left beside it.
// RUN: tileopt-compile %s -o %t/mm.art --no-cache
// RUN: cp -r %t/mm.art %t/before
// RUN: sh -c '%tileopt_compile %s -o %t/mm.art --no-cache --num-warps=3 2>&1; echo exit=$?' | FileCheck %s --check-prefix=REFUSED
// RUN: diff -r %t/before %t/mm.art
// RUN: ls %t | FileCheck %s --check-prefix=LEFT
// LEFT: before
// LEFT-NEXT: mm.art
// LEFT-NOT: {{.}}

// -o naming a file, or a directory under a file: an error, the file kept.
// RUN: echo keep > %t/file
// RUN: sh -c '%tileopt_compile %s -o %t/file --no-cache 2>&1; echo exit=$?' | FileCheck %s --check-prefix=FILE
// FILE: tileopt-compile: {{.*}}file exists and is not a directory
// FILE: exit=1{{$}}
// RUN: sh -c '%tileopt_compile %s -o %t/file/mm.art --no-cache 2>&1; echo exit=$?' | FileCheck %s --check-prefix=UNDER-FILE
// UNDER-FILE: tileopt-compile: cannot create {{.*}}: Not a directory
// UNDER-FILE: exit=1{{$}}
// RUN: FileCheck %s --check-prefix=KEPT --input-file=%t/file
// KEPT: keep

func.func @mm(%a: tensor<1x16x64xf16>, %b: tensor<1x64x32xf16>) -> tensor<1x16x32xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x64xf16>, tensor<1x64x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x32xf16>
  return %c : tensor<1x16x32xf16>
}
