// When the importer leaves an op, the driver's error names the op the
// importer refused, at its location (the TOSA op's), not a constant or
// tensor.empty that only feeds it (which the TOSA passes create without a
// location).
// RUN: sh -c '%tileopt_compile %s --emit=tk 2>&1; echo exit=$?' | FileCheck %s
// CHECK: unimported-op.mlir:[[@LINE+4]]:8: error: 'linalg.generic' was not imported into the kernel graph
// CHECK: exit=1{{$}}

func.func @gather(%x: tensor<1x16x8xf32>, %i: tensor<1x4xi32>) -> tensor<1x4x8xf32> {
  %y = tosa.gather %x, %i : (tensor<1x16x8xf32>, tensor<1x4xi32>) -> tensor<1x4x8xf32>
  return %y : tensor<1x4x8xf32>
}
