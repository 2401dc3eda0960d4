// A second run with the same program and options answers from the cache.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 cache-dir=%t}))' > %t/first.mlir
// RUN: tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 cache-dir=%t}))' 2> %t/remarks.txt > %t/second.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t/remarks.txt
// RUN: diff %t/first.mlir %t/second.mlir
// RUN: FileCheck %s < %t/second.mlir

// REMARK: remark: superoptimized µGraph read from the cache

// CHECK-LABEL: func.func @gated
// CHECK: tk.fused
// CHECK-NOT: tk.matmul
func.func @gated(%x: tensor<8x256xf16>, %w1: tensor<256x256xf16>, %w2: tensor<256x256xf16>) -> tensor<8x256xf16> {
  %0 = tk.matmul %x, %w1 : tensor<8x256xf16>, tensor<256x256xf16> -> tensor<8x256xf16>
  %1 = tk.matmul %x, %w2 : tensor<8x256xf16>, tensor<256x256xf16> -> tensor<8x256xf16>
  %2 = tk.unary silu %0 : tensor<8x256xf16>
  %3 = tk.binary mul %2, %1 : tensor<8x256xf16>, tensor<8x256xf16> -> tensor<8x256xf16>
  return %3 : tensor<8x256xf16>
}
