// RUN: tileopt-opt %s --tileopt-lower-tile --cse | FileCheck %s
// RUN: tileopt-opt %s --tileopt-lower-tile="swizzle-staging=false" \
// RUN:   | FileCheck %s --check-prefix=PAD

// mma operands in shared memory keep their rows packed (128 x 32 + 32 x 128
// bf16) and move each 16-byte chunk q to q ^ key: for rows of 4 chunks
// (A) the key is the 128-byte line, (row / 2) % 8, for rows of 16 chunks (B)
// the row, row % 8. The stores and the ldmatrix addresses agree on it.
// Without the swizzle, rows are padded by 8 elements (128 x 40 + 32 x 136).
// CHECK-LABEL: gpu.func @gemm
// CHECK-SAME:    workgroup(%[[STAGE:.*]] : memref<8192xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:         gpu.barrier
// CHECK:         %[[CHUNK:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:         %[[LINE:.*]] = arith.divui %{{.*}}, %c2 : index
// CHECK:         %[[KEY:.*]] = arith.remui %[[LINE]], %c8 : index
// CHECK:         %[[MOVED:.*]] = arith.xori %[[CHUNK]], %[[KEY]] : index
// CHECK:         arith.muli %[[MOVED]], %c8 : index
// CHECK:         vector.store %{{.*}}, %[[STAGE]][%{{.*}}] : memref<8192xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:         arith.xori
// CHECK:         nvgpu.ldmatrix %[[STAGE]]
// PAD-LABEL: gpu.func @gemm
// PAD-SAME:    workgroup(%{{.*}} : memref<9472xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// PAD-NOT:     arith.xori
tile.kernel @gemm(%a: !tile.view<4096x4096xbf16>, %b: !tile.view<4096x4096xbf16>,
                  %c: !tile.view<4096x4096xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %ta = tile.load %a[%i, %c0] : !tile.view<4096x4096xbf16> -> tensor<128x32xbf16>
  %tb = tile.load %b[%c0, %i] : !tile.view<4096x4096xbf16> -> tensor<32x128xbf16>
  %r = tile.mma %ta, %tb, %zero : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
  tile.store %r, %c[%i, %i] : tensor<128x128xf32>, !tile.view<4096x4096xf32>
  tile.return
}

