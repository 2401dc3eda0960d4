// A relative -o is staged beside its target, not under the system's
// temporary directory (writeArtifact makes the path absolute first).
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t/out
// RUN: cd %t && %tileopt_compile %s -o out/prog.art --no-cache
// RUN: ls %t/out/prog.art/manifest.json

func.func @exp(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = tosa.exp %x : (tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
