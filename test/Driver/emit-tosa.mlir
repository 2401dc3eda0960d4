// tileopt-compile --emit=STAGE on TOSA: every stage from the stock
// TOSA-to-linalg passes to the code generator's gpu.module, each printed
// for two functions (an elementwise chain and a matmul). The search runs
// with its default budgets: these programs are small enough to search
// whole in well under a second. --emit=ptx is in emit-ptx.mlir (it needs
// the CUDA toolkit).
// RUN: tileopt-compile %s --emit=linalg --no-cache | FileCheck %s --check-prefix=LINALG
// RUN: tileopt-compile %s --emit=tk --no-cache | FileCheck %s --check-prefix=TK
// RUN: tileopt-compile %s --emit=ugraph --no-cache | FileCheck %s --check-prefix=UGRAPH
// RUN: tileopt-compile %s --emit=tile --no-cache | FileCheck %s --check-prefix=TILE
// RUN: tileopt-compile %s --emit=gpu --no-cache | FileCheck %s --check-prefix=GPU
// -o with --emit is the file the stage is printed to.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tileopt-compile %s --emit=tk --no-cache -o %t/tk.mlir
// RUN: FileCheck %s --check-prefix=TK --input-file=%t/tk.mlir

// The arguments keep the source's names (tileopt.name) from the first stage on.
// LINALG-LABEL: func.func @silu(
// LINALG-SAME: {tileopt.name = "x"}
// LINALG: linalg.generic
// LINALG: math.exp
// LINALG: arith.mulf
// LINALG-NOT: tosa.
// LINALG-LABEL: func.func @matmul(
// LINALG: linalg.batch_matmul
// LINALG-NOT: tosa.

// The importer recognises x * sigmoid(x) as silu.
// TK-LABEL: func.func @silu(
// TK: tk.unary silu
// TK-NOT: linalg.
// TK-LABEL: func.func @matmul(
// TK: tk.matmul
// TK-NOT: linalg.

// The search makes the kernel graph-defined.
// UGRAPH-LABEL: func.func @silu(
// UGRAPH-SAME: {tileopt.name = "x"}
// UGRAPH: tk.fused grid
// UGRAPH: tb.unary silu
// UGRAPH: tb.output_saver
// UGRAPH-LABEL: func.func @matmul(
// UGRAPH: tb.matmul

// TILE-LABEL: tile.kernel @silu_k0(
// TILE: math.exp
// TILE-LABEL: func.func @silu(
// TILE-SAME: memref<8x64xf32> {tileopt.name = "x"}
// TILE-SAME: {tileopt.name = "out0", tileopt.output}
// TILE: tile.launch @silu_k0
// TILE-LABEL: tile.kernel @matmul_k0(
// TILE: tile.mma
// TILE-LABEL: func.func @matmul(
// TILE: tile.launch @matmul_k0

// GPU-LABEL: func.func @silu(
// GPU: gpu.launch_func @tileopt_kernels::@silu_k0
// GPU-LABEL: func.func @matmul(
// GPU: gpu.launch_func @tileopt_kernels::@matmul_k0
// GPU-LABEL: gpu.module @tileopt_kernels
// GPU: gpu.func @silu_k0(
// GPU: gpu.func @matmul_k0(

// silu as a front end writes it: x * sigmoid(x).
func.func @silu(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %s = tosa.sigmoid %x : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %x, %s, %shift : (tensor<8x64xf32>, tensor<8x64xf32>, tensor<1xi8>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

func.func @matmul(%a: tensor<1x16x64xf16>, %b: tensor<1x64x32xf16>) -> tensor<1x16x32xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<1x16x64xf16>, tensor<1x64x32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x32xf16>
  return %c : tensor<1x16x32xf16>
}
