// --chip is checked before the search: a chip TileOpt has no facts for
// (sm_bogus), or one without mma.sync m16n8k16 (sm_70), used to abort in
// LLVM's NVPTX instruction selection; now it is a usage error naming the
// chips TileOpt targets.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c '%tileopt_compile %s -o %t/bogus.art --no-cache --chip=sm_bogus 2>&1; echo exit=$?' | FileCheck %s
// RUN: sh -c '%tileopt_compile %s -o %t/sm70.art --no-cache --chip=sm_70 2>&1; echo exit=$?' | FileCheck %s
// CHECK: error: --chip: unknown chip {{.*}}: TileOpt targets sm_80, sm_90, sm_90a
// CHECK: exit=1{{$}}

func.func @mm(%a: tensor<1x16x64xf16>, %b: tensor<1x64x32xf16>) -> tensor<1x16x32xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x64xf16>, tensor<1x64x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x32xf16>
  return %c : tensor<1x16x32xf16>
}
