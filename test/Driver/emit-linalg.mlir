// tileopt-compile --emit=STAGE on linalg on tensors (as any front end emits
// it): the importer, the search, the lowering and the code generator, each
// stage printed for two functions. The stages after the search share one
// search cache, so the search runs once. --emit=linalg of linalg prints it
// back (with the source's argument names).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tileopt-compile %s --emit=linalg --no-cache | FileCheck %s --check-prefix=LINALG
// RUN: tileopt-compile %s --emit=tk --no-cache | FileCheck %s --check-prefix=TK
// RUN: tileopt-compile %s --emit=ugraph --cache-dir=%t/cache | FileCheck %s --check-prefix=UGRAPH
// RUN: tileopt-compile %s --emit=tile --cache-dir=%t/cache | FileCheck %s --check-prefix=TILE
// RUN: tileopt-compile %s --emit=gpu --cache-dir=%t/cache | FileCheck %s --check-prefix=GPU

// LINALG-LABEL: func.func @scaled_exp(
// LINALG-SAME: {tileopt.name = "x"}
// LINALG: linalg.generic
// LINALG-LABEL: func.func @matmul(
// LINALG-SAME: {tileopt.name = "a"}
// LINALG-SAME: {tileopt.name = "b"}
// LINALG: linalg.matmul

// TK-LABEL: func.func @scaled_exp(
// TK: tk.unary mul_scalar(5.000000e-01)
// TK: tk.unary exp
// TK-NOT: linalg.
// TK-LABEL: func.func @matmul(
// TK-NOT: linalg.fill
// TK: tk.matmul {{.*}} : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>

// UGRAPH-LABEL: func.func @scaled_exp(
// UGRAPH: tk.fused grid
// UGRAPH: tb.unary mul_scalar
// UGRAPH: tb.unary exp
// UGRAPH-LABEL: func.func @matmul(
// UGRAPH: tk.fused grid
// UGRAPH: tb.matmul

// TILE-LABEL: tile.kernel @scaled_exp_k0(
// TILE: math.exp
// TILE-LABEL: func.func @scaled_exp(
// TILE: tile.launch @scaled_exp_k0
// TILE-LABEL: tile.kernel @matmul_k0(
// TILE: tile.mma
// TILE-LABEL: func.func @matmul(
// TILE-SAME: memref<16x64xf16> {tileopt.name = "a"}
// TILE-SAME: memref<64x32xf16> {tileopt.name = "b"}
// TILE-SAME: memref<16x32xf16> {tileopt.name = "out0", tileopt.output}
// TILE: tile.launch @matmul_k0

// GPU-LABEL: func.func @scaled_exp(
// GPU: gpu.launch_func @tileopt_kernels::@scaled_exp_k0
// GPU-LABEL: func.func @matmul(
// GPU: gpu.launch_func @tileopt_kernels::@matmul_k0
// GPU-LABEL: gpu.module @tileopt_kernels
// GPU: gpu.func @scaled_exp_k0(
// GPU: gpu.func @matmul_k0(
// GPU: nvvm.mma.sync

#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @scaled_exp(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %e = tensor.empty() : tensor<4x32xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %s = arith.mulf %a, %half : f32
    %r = math.exp %s : f32
    linalg.yield %r : f32
  } -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

func.func @matmul(%a: tensor<16x64xf16>, %b: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<16x32xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<16x32xf16>) -> tensor<16x32xf16>
  %c = linalg.matmul ins(%a, %b : tensor<16x64xf16>, tensor<64x32xf16>)
                     outs(%init : tensor<16x32xf16>) -> tensor<16x32xf16>
  return %c : tensor<16x32xf16>
}
