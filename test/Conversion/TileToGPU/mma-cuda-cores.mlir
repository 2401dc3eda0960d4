// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: tileopt-opt %s -split-input-file --tileopt-assign-layouts --tileopt-lower-tile | FileCheck %s

// tile.mma of f32 operands runs on the CUDA cores: its accumulator keeps the
// blocked layout of any tile, the loop around it is not pipelined, and the
// product writes both operands to the f32 scratch (A's 16x32 words, then
// B's 32x64 from word 512: 2560 words) between two barriers, then adds to
// each of the thread's 8 elements its dot product in fp32 fused
// multiply-adds, one K step an iteration (32 iterations).
// LAYOUT-NOT:     mma_sync
// LAYOUT:         #[[ACC:blocked[0-9]*]] = #tile.blocked
// LAYOUT-LABEL: tile.kernel @f32_linear
// LAYOUT:         tile.mma {{.*}} : tensor<16x32xf32, #blocked{{[0-9]*}}>, tensor<32x64xf32, #blocked{{[0-9]*}}>, tensor<16x64xf32, #[[ACC]]>
// LAYOUT-NOT:     tile.mma_pipeline
// CHECK-LABEL: gpu.func @f32_linear
// CHECK-SAME:    workgroup(%[[SCRATCH:.*]] : memref<2560xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
// CHECK:         memref.store %{{.*}}, %[[SCRATCH]][%{{.*}}] : memref<2560xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK:           memref.load %[[SCRATCH]]
// CHECK:           memref.load %[[SCRATCH]]
// CHECK:           math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-7:   math.fma
// CHECK:           scf.yield
// CHECK-NOT:     nvvm.mma.sync
// CHECK:         gpu.return
tile.kernel @f32_linear(%x: !tile.view<16x32xf32>, %w: !tile.view<32x64xf32>,
                        %y: !tile.view<16x64xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<16x64xf32>
  %a = tile.load %x[%c0, %c0] : !tile.view<16x32xf32> -> tensor<16x32xf32>
  %b = tile.load %w[%c0, %c0] : !tile.view<32x64xf32> -> tensor<32x64xf32>
  %r = tile.mma %a, %b, %zero : tensor<16x32xf32>, tensor<32x64xf32>, tensor<16x64xf32>
  tile.store %r, %y[%c0, %c0] : tensor<16x64xf32>, !tile.view<16x64xf32>
  tile.return
}

// -----

// With the rhs transposed ([N, K]), its K steps are adjacent words: B's
// element (k, n) is word 512 + n * 32 + k.
// CHECK-LABEL: gpu.func @f32_transposed_rhs
// CHECK:         scf.for
// CHECK-COUNT-8:   math.fma
tile.kernel @f32_transposed_rhs(%x: !tile.view<16x32xf32>, %w: !tile.view<64x32xf32>,
                                %y: !tile.view<16x64xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<16x64xf32>
  %a = tile.load %x[%c0, %c0] : !tile.view<16x32xf32> -> tensor<16x32xf32>
  %b = tile.load %w[%c0, %c0] : !tile.view<64x32xf32> -> tensor<64x32xf32>
  %r = tile.mma %a, %b, %zero {rhs_transposed} : tensor<16x32xf32>, tensor<64x32xf32>, tensor<16x64xf32>
  tile.store %r, %y[%c0, %c0] : tensor<16x64xf32>, !tile.view<16x64xf32>
  tile.return
}
