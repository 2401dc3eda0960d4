// tileopt-compile without --emit: TOSA in, a searched, fused, compiled
// artifact out (kernels.cubin, kernels.ptx, manifest.json), and --emit=ptx,
// which stops before ptxas. Needs the CUDA toolkit (ptxas, libdevice), not
// a GPU.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tileopt-compile %s -o %t/mlp.art --no-cache
// RUN: ls %t/mlp.art | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/mlp.art/manifest.json
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/mlp.art/kernels.ptx
// RUN: tileopt-compile %s --emit=ptx --no-cache | FileCheck %s --check-prefix=PTX
// Nothing but the artifact is left beside it (it is written to a temporary
// directory and renamed when complete).
// RUN: ls %t | FileCheck %s --check-prefix=DIR
// An artifact already there is replaced whole.
// RUN: tileopt-compile %s -o %t/mlp.art --no-cache --chip=sm_90a
// RUN: FileCheck %s --check-prefix=SM90A --input-file=%t/mlp.art/manifest.json
// RUN: ls %t | FileCheck %s --check-prefix=DIR

// FILES: kernels.cubin
// FILES-NEXT: kernels.ptx
// FILES-NEXT: manifest.json

// The buffers keep the source's argument names; results are out0, ...
// MANIFEST: "buffers": [
// MANIFEST: "name": "x",
// MANIFEST-NEXT: "role": "input",
// MANIFEST: "name": "w",
// MANIFEST-NEXT: "role": "input",
// MANIFEST: "name": "out0",
// MANIFEST-NEXT: "role": "output",
// MANIFEST: "format": "tileopt-artifact",
// The matmul and its silu epilogue are one kernel.
// MANIFEST: "kernels": [
// MANIFEST: "name": "mlp_k0",
// MANIFEST-NOT: "name": "mlp_k1",
// MANIFEST: "launches": [
// MANIFEST: "grid": [
// MANIFEST: "source_hash": "{{[0-9a-f]+}}",
// MANIFEST: "arch": "sm_90"

// PTX: .target sm_90
// PTX: .entry mlp_k0(
// PTX: mma.sync.aligned.m16n8k16

// SM90A: "arch": "sm_90a"

// DIR: mlp.art
// DIR-NOT: {{.}}

func.func @mlp(%x: tensor<1x16x64xf16>, %w: tensor<1x64x32xf16>) -> tensor<1x16x32xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %h = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x64xf16>, tensor<1x64x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x32xf16>
  %s = tosa.sigmoid %h : (tensor<1x16x32xf16>) -> tensor<1x16x32xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %h, %s, %shift : (tensor<1x16x32xf16>, tensor<1x16x32xf16>, tensor<1xi8>) -> tensor<1x16x32xf16>
  return %y : tensor<1x16x32xf16>
}
