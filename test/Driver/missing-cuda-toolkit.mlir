// A --cuda-toolkit that does not exist is an error (exit code 1, no
// artifact); upstream's gpu-module-to-binary would print an error and go on
// with the ptxas on PATH.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c '%tileopt_compile %s -o %t/mm.art --no-cache --cuda-toolkit=%t/no-such-toolkit 2>&1; echo exit=$?' | FileCheck %s
// RUN: not ls %t/mm.art
// CHECK: error: {{.*}}no-such-toolkit
// CHECK: exit=1{{$}}

func.func @mm(%a: tensor<1x16x64xf16>, %b: tensor<1x64x32xf16>) -> tensor<1x16x32xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x64xf16>, tensor<1x64x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x32xf16>
  return %c : tensor<1x16x32xf16>
}
