// BUG (XFAIL until fixed; then delete the XFAIL line): the µGraph the
// search returns (and the one it reads from its cache) has lost the
// source's locations, so a later stage's error says `<unknown>:0` and
// no stage note names the code generator. Here the code generator refuses
// the matmul on 3 warps; the error should point at the source op.
// XFAIL: *
// RUN: sh -c '%tileopt_compile %s --emit=gpu --no-cache --num-warps=3 2>&1; echo exit=$?' | FileCheck %s
// CHECK: bug-location-after-search.mlir:[[@LINE+6]]:{{[0-9]+}}: error: 'tile.mma' op needs M a multiple of 16
// CHECK: note: in stage 'gpu'
// CHECK: exit=1{{$}}

func.func @mm(%a: tensor<1x16x64xf16>, %b: tensor<1x64x32xf16>) -> tensor<1x16x32xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x64xf16>, tensor<1x64x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x32xf16>
  return %c : tensor<1x16x32xf16>
}
