// RUN: tileopt-opt %s --tileopt-view-ugraph -o /dev/null 2>&1 | FileCheck %s
// RUN: tileopt-opt %s --tileopt-view-ugraph=output=- -o /dev/null | FileCheck %s
// RUN: tileopt-opt %s --tileopt-view-ugraph=output=%t.dot | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.dot
// RUN: not tileopt-opt %s --tileopt-view-ugraph=output=%t.missing/g.dot 2>&1 | FileCheck %s --check-prefix=BAD

// The IR is printed as it was.
// IR-LABEL: func.func @lora_then_relu
// IR:       tk.fused grid [128, 1, 1] block [128, 1, 1] forloop 16
// BAD:      error: tileopt-view-ugraph: {{.*}}g.dot

// One digraph: the function a cluster, its named argument, the kernel a
// cluster labelled with its launch shape, the loop's ops a cluster inside.
// CHECK:      digraph ugraph {
// CHECK:      subgraph cluster_0 {
// CHECK-NEXT:   label="func @lora_then_relu\l";
// CHECK-NEXT:   [[X:n[0-9]+]] [label="x = %arg0\ltensor<16x256xf16>\l", shape=ellipse];
// CHECK:        subgraph cluster_1 {
// CHECK-NEXT:     label="tk.fused\lgrid [128, 1, 1]  block [128, 1, 1]  forloop 16\l";
// CHECK:          [[XIN:n[0-9]+]] [label="%arg4\ltensor<16x256xf16>\l", shape=ellipse];
// CHECK:          subgraph cluster_2 {
// CHECK-NEXT:       label="for-loop body, 16 iterations\l";
// CHECK:            [[XT:n[0-9]+]] [label="%{{[0-9]+}} = tb.input_iterator %arg4 imap [-1, -1, -1] fmap 1\l  : tensor<16x256xf16> -> !tb.tile<16x16xf16>\l", shape=invhouse];
// CHECK:            [[XW:n[0-9]+]] [label="%{{[0-9]+}} = tb.matmul
// CHECK-SAME:         -> !tb.tile<16x32xf16>
// CHECK:            [[XA:n[0-9]+]] [label="%{{[0-9]+}} = tb.matmul
// CHECK-SAME:         -> !tb.tile<16x16xf16>
// CHECK-NEXT:     }
// The invariant tile (fmap -1) and what follows the accumulators are
// outside the loop; the accumulators are filled; the thread graph lists
// its scalar ops.
// CHECK:          [[B:n[0-9]+]] [label="%{{[0-9]+}} = tb.input_iterator %arg7 imap [1, -1, -1] fmap -1
// CHECK-SAME:       shape=invhouse
// CHECK:          [[ACC:n[0-9]+]] [label="%{{[0-9]+}} = tb.forloop_accum sum
// CHECK-SAME:       style=filled
// CHECK:          [[LOWRANK:n[0-9]+]] [label="%{{[0-9]+}} = tb.forloop_accum sum
// CHECK:          [[XAB:n[0-9]+]] [label="%{{[0-9]+}} = tb.matmul
// CHECK:          [[SUM:n[0-9]+]] [label="%{{[0-9]+}} = th.graph
// CHECK-SAME:       {...}\l  | arith.addf\l  | arith.constant\l  | arith.maximumf\l  | th.yield\l"];
// CHECK:          [[SAVER:n[0-9]+]] [label="%{{[0-9]+}} = tb.output_saver
// CHECK-SAME:       shape=house
// CHECK-NEXT:   }
// A kernel-graph op after the kernel reads the saver's tensor.
// CHECK-NEXT:   [[NEG:n[0-9]+]] [label="%{{[0-9]+}} = tk.unary neg
// CHECK-NEXT:   [[RET:n[0-9]+]] [label="func.return
// CHECK-SAME:     style=rounded
// CHECK-NEXT: }
// Edges: into the kernel through its region's arguments, along the block
// graph, out of it from the saver.
// CHECK-DAG:  [[X]] -> [[XIN]];
// CHECK-DAG:  [[XIN]] -> [[XT]];
// CHECK-DAG:  [[XT]] -> [[XW]];
// CHECK-DAG:  [[XW]] -> [[ACC]];
// CHECK-DAG:  [[LOWRANK]] -> [[XAB]];
// CHECK-DAG:  [[B]] -> [[XAB]];
// CHECK-DAG:  [[ACC]] -> [[SUM]];
// CHECK-DAG:  [[XAB]] -> [[SUM]];
// CHECK-DAG:  [[SUM]] -> [[SAVER]];
// CHECK-DAG:  [[SAVER]] -> [[NEG]];
// CHECK-DAG:  [[NEG]] -> [[RET]];
// CHECK:      }
func.func @lora_then_relu(%arg0: tensor<16x256xf16> {tileopt.name = "x"}, %arg1: tensor<256x4096xf16>, %arg2: tensor<256x16xf16>, %arg3: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %0 = tk.fused grid [128, 1, 1] block [128, 1, 1] forloop 16 (%arg4 = %arg0 : tensor<16x256xf16>, %arg5 = %arg1 : tensor<256x4096xf16>, %arg6 = %arg2 : tensor<256x16xf16>, %arg7 = %arg3 : tensor<16x4096xf16>) -> tensor<16x4096xf16> {
    %1 = tb.input_iterator %arg4 imap [-1, -1, -1] fmap 1 : tensor<16x256xf16> -> !tb.tile<16x16xf16>
    %2 = tb.input_iterator %arg5 imap [1, -1, -1] fmap 0 : tensor<256x4096xf16> -> !tb.tile<16x32xf16>
    %3 = tb.input_iterator %arg6 imap [-1, -1, -1] fmap 0 : tensor<256x16xf16> -> !tb.tile<16x16xf16>
    %4 = tb.input_iterator %arg7 imap [1, -1, -1] fmap -1 : tensor<16x4096xf16> -> !tb.tile<16x32xf16>
    %5 = tb.matmul %1, %2 : !tb.tile<16x16xf16>, !tb.tile<16x32xf16> -> !tb.tile<16x32xf16>
    %6 = tb.matmul %1, %3 : !tb.tile<16x16xf16>, !tb.tile<16x16xf16> -> !tb.tile<16x16xf16>
    %7 = tb.forloop_accum sum %5 : (!tb.tile<16x32xf16>) -> !tb.tile<16x32xf16>
    %8 = tb.forloop_accum sum %6 : (!tb.tile<16x16xf16>) -> !tb.tile<16x16xf16>
    %9 = tb.matmul %8, %4 : !tb.tile<16x16xf16>, !tb.tile<16x32xf16> -> !tb.tile<16x32xf16>
    %10 = th.graph (%a = %7 : !tb.tile<16x32xf16>, %b = %9 : !tb.tile<16x32xf16>) -> !tb.tile<16x32xf16> {
      %s = arith.addf %a, %b : f16
      %z = arith.constant 0.0 : f16
      %r = arith.maximumf %s, %z : f16
      th.yield %r : f16
    }
    %11 = tb.output_saver %10 omap [1, -1, -1] : !tb.tile<16x32xf16> -> tensor<16x4096xf16>
    tb.yield %11 : tensor<16x4096xf16>
  }
  %12 = tk.unary neg %0 : tensor<16x4096xf16>
  return %12 : tensor<16x4096xf16>
}
