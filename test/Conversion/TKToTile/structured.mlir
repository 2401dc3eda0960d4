// A tk.structured becomes a generic kernel: one result element per lane of
// a 256-lane tile, the parallel loops' indices from the element's position,
// the reduction loops as one scf.for, every operand element gathered at the
// offset its indexing map (or tensor.extract) gives, the result scattered.
// RUN: tileopt-opt %s --tileopt-lower-ugraph | FileCheck %s
// The tile program computes what the interpreter's loop nest does (which
// shares no code with the kernel): x[7 - i] * (k[0][i] + k[1][i]) + 0.5.
// RUN: tileopt-interp %s --function=reverse_sum --inputs=%S/Inputs/structured.txt | sed 1d > %t.tk
// RUN: tileopt-opt %s --tileopt-lower-ugraph | tileopt-interp --function=reverse_sum --inputs=%S/Inputs/structured.txt | sed 1d > %t.tile
// RUN: diff %t.tk %t.tile
// RUN: FileCheck %s --check-prefix=VALUES --input-file=%t.tile
// VALUES:      tensor 8
// VALUES-NEXT: 16.5 21.5 24.5 25.5 24.5 21.5 16.5 9.5

// CHECK-LABEL: tile.kernel @reverse_sum_k0
// CHECK-SAME:    (%[[X:.*]]: !tile.view<8xf32>, %[[K:.*]]: !tile.view<2x8xf32>, %[[OUT:.*]]: !tile.view<8xf32>)
// CHECK:         %[[B:.*]] = tile.block_id x
// CHECK:         %[[LANE:.*]] = tile.iota : tensor<256xi32>
// CHECK:         %[[E:.*]] = arith.addi %{{.*}}, %[[LANE]] : tensor<256xi32>
// The fill's 0.5 is the accumulator's first value.
// CHECK:         %[[INIT:.*]] = tile.splat %{{.*}} : f32 -> tensor<256xf32>
// CHECK:         %[[SUM:.*]] = scf.for %[[R:.*]] = %{{.*}} to %c2 step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<256xf32>)
// CHECK:           %[[KV:.*]] = tile.gather %[[K]][%{{.*}}] : !tile.view<2x8xf32>, tensor<256xi32> -> tensor<256xf32>
// CHECK:           arith.subi
// CHECK:           %[[XV:.*]] = tile.gather %[[X]][%{{.*}}] : !tile.view<8xf32>, tensor<256xi32> -> tensor<256xf32>
// CHECK:           %[[M:.*]] = arith.mulf %[[XV]], %[[KV]] : tensor<256xf32>
// CHECK:           %[[A:.*]] = arith.addf %[[ACC]], %[[M]] : tensor<256xf32>
// CHECK:           scf.yield %[[A]] : tensor<256xf32>
// CHECK:         tile.scatter %[[SUM]], %[[OUT]][%[[E]]] : tensor<256xf32>, !tile.view<8xf32>, tensor<256xi32>
// CHECK:       func.func @reverse_sum
// CHECK:         tile.launch @reverse_sum_k0 grid [1, 1, 1]
func.func @reverse_sum(%x: tensor<8xf32>, %k: tensor<2x8xf32>) -> tensor<8xf32> {
  %r = tk.structured (%a = %x : tensor<8xf32>, %b = %k : tensor<2x8xf32>) -> tensor<8xf32> {
    %half = arith.constant 0.5 : f32
    %e = tensor.empty() : tensor<8xf32>
    %init = linalg.fill ins(%half : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%b : tensor<2x8xf32>) outs(%init : tensor<8xf32>) {
    ^bb0(%s: f32, %out: f32):
      %i = linalg.index 0 : index
      %c7 = arith.constant 7 : index
      %j = arith.subi %c7, %i : index
      %v = tensor.extract %a[%j] : tensor<8xf32>
      %m = arith.mulf %v, %s : f32
      %t = arith.addf %out, %m : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    tk.yield %g : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// A transpose that a structured op reads is a copy: the generic kernel
// reads its operands' own buffers (a tiled kernel would read through it).
// CHECK-LABEL: func.func @reads_transpose
// CHECK-SAME:    (%[[X:.*]]: memref<3x8xf32> {{.*}}, %[[OUT:.*]]: memref<8x3xf32> {{.*}}, %[[T:.*]]: memref<8x3xf32> {{.*}})
// CHECK-NEXT:    tile.launch @reads_transpose_k0 {{.*}}(%[[X]], %[[T]])
// CHECK-NEXT:    tile.launch @reads_transpose_k1 {{.*}}(%[[T]], %[[OUT]])
// RUN: tileopt-interp %s --function=reads_transpose --seed=4 | sed 1d | sed 's/^# result/# output/' > %t.tk2
// RUN: tileopt-opt %s --tileopt-lower-ugraph | tileopt-interp --function=reads_transpose --seed=4 | awk '/^# output #1 /{done = 1} NR > 1 && !done' > %t.tile2
// RUN: diff %t.tk2 %t.tile2
func.func @reads_transpose(%x: tensor<3x8xf32>) -> tensor<8x3xf32> {
  %t = tk.transpose %x [1, 0] : tensor<3x8xf32> -> tensor<8x3xf32>
  %r = tk.structured (%a = %t : tensor<8x3xf32>) -> tensor<8x3xf32> {
    %e = tensor.empty() : tensor<8x3xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<8x3xf32>) outs(%e : tensor<8x3xf32>) {
    ^bb0(%v: f32, %out: f32):
      %i = linalg.index 0 : index
      %c = arith.index_cast %i : index to i32
      %f = arith.sitofp %c : i32 to f32
      %s = arith.addf %v, %f : f32
      linalg.yield %s : f32
    } -> tensor<8x3xf32>
    tk.yield %g : tensor<8x3xf32>
  }
  return %r : tensor<8x3xf32>
}
