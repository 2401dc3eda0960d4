// A constant the program reads (a non-splat bias) travels in the artifact:
// its values in constants.bin, a buffer of role "constant" in the manifest
// that the runtime fills, and the caller gives only the other buffers.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tileopt-compile %s -o %t/bias.art --no-cache
// RUN: ls %t/bias.art | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/bias.art/manifest.json
// RUN: od -An -tf4 -w16 %t/bias.art/constants.bin | FileCheck %s --check-prefix=VALUES
// The interpreter runs the program as its users do: one input.
// RUN: tileopt-compile %s --emit=tk --no-cache > %t/bias.tk.mlir
// RUN: tileopt-interp %t/bias.tk.mlir --inputs=%S/../Interpreter/Inputs/two-by-four.txt | FileCheck %s --check-prefix=INTERP

// FILES: constants.bin
// FILES-NEXT: kernels.cubin

// MANIFEST: "name": "x",
// MANIFEST-NEXT: "role": "input",
// MANIFEST: "data": {
// MANIFEST-NEXT: "bytes": 16,
// MANIFEST-NEXT: "file": "constants.bin",
// MANIFEST-NEXT: "offset": 0
// MANIFEST: "name": "constant0",
// MANIFEST-NEXT: "role": "constant",
// MANIFEST: "name": "out0",
// MANIFEST-NEXT: "role": "output",

// VALUES: 0.5 -1 2 4

// INTERP:      # result #0 of @bias
// INTERP-NEXT: tensor 2x4
// INTERP-NEXT: 1.5 1 5 8
// INTERP-NEXT: 5.5 5 9 12

func.func @bias(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %b = "tosa.const"() <{values = dense<[[0.5, -1.0, 2.0, 4.0]]> : tensor<1x4xf32>}> : () -> tensor<1x4xf32>
  %y = tosa.add %x, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
