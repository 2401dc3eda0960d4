// The µGraph the search returns (and the one it reads from its cache) is
// built without locations; the driver gives its ops the source locations of
// the ops of their kind, so that a later stage's error points at the source
// op, with a note naming the stage. Here the code generator refuses the
// matmul on 3 warps.
// RUN: sh -c '%tileopt_compile %s --emit=gpu --no-cache --num-warps=3 2>&1; echo exit=$?' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %tileopt_compile %s --emit=ugraph --cache-dir=%t -o /dev/null
// RUN: sh -c '%tileopt_compile %s --emit=gpu --cache-dir=%t --num-warps=3 2>&1; echo exit=$?' | FileCheck %s
// CHECK: location-after-search.mlir:[[@LINE+6]]:{{[0-9]+}}: error: 'tile.mma' op needs M a multiple of 16
// CHECK: note: in stage 'gpu'
// CHECK: exit=1{{$}}

func.func @mm(%a: tensor<1x16x64xf16>, %b: tensor<1x64x32xf16>) -> tensor<1x16x32xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x64xf16>, tensor<1x64x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x32xf16>
  return %c : tensor<1x16x32xf16>
}
