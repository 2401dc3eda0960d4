// RUN: tileopt-opt %s --tileopt-assign-layouts --tileopt-lower-tile --cse | FileCheck %s
// RUN: tileopt-opt %s --tileopt-assign-layouts="swizzle-staging=false" --tileopt-lower-tile \
// RUN:   | FileCheck %s --check-prefix=PAD

// The cp.async stages keep the rows of mma operands packed (two stages of
// 128 x 32 + 32 x 128 bf16) and move each 16-byte chunk q to q ^ key: for
// rows of 4 chunks (A) the key is the 128-byte line, (row / 2) % 8, for
// rows of 16 chunks (B) the row, row % 8. The copies and the ldmatrix
// addresses agree on it. Without the swizzle, rows are padded by 8 elements
// (two stages of 128 x 40 + 32 x 136).
// CHECK-LABEL: gpu.func @gemm
// CHECK-SAME:    workgroup(%[[STAGES:.*]] : memref<16384xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:         %[[LINE:.*]] = arith.divui %{{.*}}, %c2{{[_0-9]*}} : index
// CHECK:         %[[KEY:.*]] = arith.remui %[[LINE]], %c8{{[_0-9]*}} : index
// CHECK:         %[[MOVED:.*]] = arith.xori %{{.*}}, %[[KEY]] : index
// CHECK:         arith.muli %[[MOVED]], %c8{{[_0-9]*}} : index
// CHECK:         nvvm.cp.async.shared.global
// CHECK:         scf.for
// CHECK:           arith.xori
// CHECK:           nvgpu.ldmatrix %[[STAGES]]
// PAD-LABEL: gpu.func @gemm
// PAD-SAME:    workgroup(%{{.*}} : memref<18944xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// PAD-NOT:     arith.xori
tile.kernel @gemm(%a: !tile.view<4096x4096xbf16>, %b: !tile.view<4096x4096xbf16>,
                  %c: !tile.view<4096x4096xf32>) {
  %i = tile.block_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%sum = %zero) -> (tensor<128x128xf32>) {
    %ta = tile.load %a[%i, %k] latency 2 : !tile.view<4096x4096xbf16> -> tensor<128x32xbf16>
    %tb = tile.load %b[%k, %i] latency 2 : !tile.view<4096x4096xbf16> -> tensor<32x128xbf16>
    %next = tile.mma %ta, %tb, %sum : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
    scf.yield %next : tensor<128x128xf32>
  }
  tile.store %acc, %c[%i, %i] : tensor<128x128xf32>, !tile.view<4096x4096xf32>
  tile.return
}
