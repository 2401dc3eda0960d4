// An rms_norm of rows wider than one block holds as a tile (32768 elements
// padded: 256 a thread of 128; rand_15_194 normalizes a flattened
// 49152-element tensor, which the code generator refused) is computed by
// three kernels that each walk the row in chunks: the squares in f32,
// their mean (a loop over the row), and x / sqrt(mean + epsilon).
// REQUIRES: ptxas
// RUN: tileopt-opt %s --tileopt-lower-ugraph | FileCheck %s
// The same values as the kernel graph's rms_norm:
// RUN: tileopt-interp %s --function=wide_rows --seed=3 | sed 1d > %t.tk
// RUN: tileopt-opt %s --tileopt-lower-ugraph | tileopt-interp --function=wide_rows --seed=3 \
// RUN:   | sed 1d > %t.tile
// RUN: diff %t.tk %t.tile
// The code generator takes all three:
// RUN: rm -rf %t && mkdir -p %t
// RUN: tileopt-compile %s --graph-budget=1 --no-cache -o %t/wide 2>/dev/null
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/wide/kernels.ptx

// CHECK-LABEL: tile.kernel @wide_rows_k0
// CHECK-SAME:    !tile.view<2x40000xf16>, %{{.*}}: !tile.view<2x40000xf32>
// CHECK:         arith.extf
// CHECK:         arith.mulf
// CHECK-LABEL: tile.kernel @wide_rows_k1
// CHECK-SAME:    !tile.view<2x40000xf32>, %{{.*}}: !tile.view<2x1xf32>
// CHECK:         scf.for
// CHECK:           tile.load {{.*}} : !tile.view<2x40000xf32> -> tensor<2x64xf32>
// CHECK:           tile.reduce sum
// CHECK-LABEL: tile.kernel @wide_rows_k2
// CHECK:         math.sqrt
// CHECK:         arith.divf
// CHECK:         arith.truncf {{.*}} to tensor<2x64xf16>
// CHECK-LABEL: func.func @wide_rows
// CHECK:         tile.launch @wide_rows_k0
// CHECK-NEXT:    tile.launch @wide_rows_k1
// CHECK-NEXT:    tile.launch @wide_rows_k2
// CHECK-NEXT:    return
// PTX-DAG: .entry wide_rows_k0
// PTX-DAG: .entry wide_rows_k1
// PTX-DAG: .entry wide_rows_k2
func.func @wide_rows(%x: tensor<2x40000xf16>) -> tensor<2x40000xf16> {
  %0 = tk.rms_norm %x {epsilon = 1.0e-5 : f32} : tensor<2x40000xf16>
  return %0 : tensor<2x40000xf16>
}
