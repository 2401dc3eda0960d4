// A rank-0 tensor used to crash the code generator (the tile.load lowering,
// reached from the search's compile check). The code generator now refuses
// rank-0 tiles, the search keeps the program, and the lowering of the
// µGraph refuses it with a diagnostic at the op and exit code 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c '%tileopt_compile %s --emit=gpu --no-cache -o %t/out.mlir 2>&1; echo exit=$?' | FileCheck %s
// CHECK: rank0.mlir:[[@LINE+5]]:8: error: 'tk.unary' op has rank 0
// CHECK: note: in stage 'tile'
// CHECK: exit=1{{$}}

func.func @scalar_exp(%x: tensor<f32>) -> tensor<f32> {
  %y = tosa.exp %x : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
