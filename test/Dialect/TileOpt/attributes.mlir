// RUN: tileopt-opt %s | tileopt-opt | FileCheck %s
// RUN: tileopt-opt %s --mlir-print-op-generic | tileopt-opt | FileCheck %s

// Every attribute of the tileopt dialect where it belongs: a host function
// and its buffers, and a lowered kernel.

// CHECK-LABEL: func.func @host
// CHECK-SAME:    %{{.*}}: memref<8x64xf32> {tileopt.name = "x"}
// CHECK-SAME:    %{{.*}}: memref<8x64xf32> {tileopt.name = "y", tileopt.output}
// CHECK-SAME:    %{{.*}}: memref<8x64xf32> {tileopt.name = "tmp0", tileopt.scratch}
// CHECK-SAME:    attributes {tileopt.reference = "row_rms_norm", tileopt.reference_args = {eps = {{.*}} : f64}}
func.func @host(%x: memref<8x64xf32> {tileopt.name = "x"},
                %y: memref<8x64xf32> {tileopt.name = "y", tileopt.output},
                %t: memref<8x64xf32> {tileopt.name = "tmp0", tileopt.scratch})
    attributes {tileopt.reference = "row_rms_norm",
                tileopt.reference_args = {eps = 1.0e-6 : f64}} {
  return
}

// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @kernel
// CHECK-SAME:      tileopt.dynamic_shared_memory = 65536 : i64
// CHECK-SAME:      tileopt.grid_sync
// CHECK-SAME:      tileopt.tensor_maps = [{box = [128, 64], view = 0 : i64}]
gpu.module @kernels {
  gpu.func @kernel(%a: !llvm.ptr<1>, %map: !llvm.ptr) kernel
      attributes {tileopt.dynamic_shared_memory = 65536 : i64,
                  tileopt.grid_sync,
                  tileopt.tensor_maps = [{view = 0 : i64, box = [128, 64]}]} {
    gpu.return
  }
}

// A tensor argument of a program not lowered yet names the buffer it
// becomes.
// CHECK-LABEL: func.func @named_tensor
// CHECK-SAME: tileopt.name = "x"
func.func @named_tensor(%x: tensor<4xf32> {tileopt.name = "x"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// A constant buffer, and a tensor argument of a program not lowered yet
// whose values the program fixes.
// CHECK-LABEL: func.func @constants
// CHECK-SAME:    %{{.*}}: memref<2x2xf32> {tileopt.constant = dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>, tileopt.name = "w"}
// CHECK-SAME:    %{{.*}}: tensor<3xf16> {tileopt.constant = dense<[1.000000e+00, 0.000000e+00, -1.000000e+00]> : tensor<3xf16>}
func.func @constants(
    %w: memref<2x2xf32> {tileopt.name = "w",
                         tileopt.constant = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>},
    %m: tensor<3xf16> {tileopt.constant = dense<[1.0, 0.0, -1.0]> : tensor<3xf16>}) {
  return
}
