// The documented workflow on the command line: the µGraph and its tile
// program, run by tileopt-interp on the same seeded inputs (the host
// function draws its input buffers in the order the function takes its
// arguments), print the same values. unittests/Conversion/TKToTileTest.cpp
// compares every element of many more programs in f64 and f32.
// RUN: tileopt-interp %S/../../../examples/ugraph/small/gated_mlp.mlir --seed=5 \
// RUN:   | sed 1d > %t.ugraph
// RUN: tileopt-opt %S/../../../examples/ugraph/small/gated_mlp.mlir --tileopt-lower-ugraph \
// RUN:   | tileopt-interp --seed=5 | sed 1d > %t.tile
// RUN: diff %t.ugraph %t.tile
// RUN: FileCheck %s --input-file=%t.tile
// CHECK: tensor 8x128

// qknorm_attention: split-KV (normalizing its rows of Q and the head dim
// of its key columns) and its combine. The tile program also returns the
// tensors between its kernels; its first output is the result.
// RUN: tileopt-interp %S/../../../examples/ugraph/small/qknorm_attention.mlir --seed=7 \
// RUN:   | sed 1d > %t.qk.ugraph
// RUN: tileopt-opt %S/../../../examples/ugraph/small/qknorm_attention.mlir --tileopt-lower-ugraph \
// RUN:   | tileopt-interp --seed=7 | awk '/^# output #1 /{done = 1} NR > 1 && !done' > %t.qk.tile
// RUN: diff %t.qk.ugraph %t.qk.tile
// RUN: FileCheck %s --check-prefix=QKNORM --input-file=%t.qk.tile
// QKNORM: tensor 2x64x16

// mla_decode in small: transposes and reshapes as copy kernels around the
// split-KV attention; the tile program computes what the µGraph does.
// RUN: tileopt-interp %S/../../../examples/ugraph/small/mla_decode.mlir --seed=11 \
// RUN:   | sed 1d > %t.mla.ugraph
// RUN: tileopt-opt %S/../../../examples/ugraph/small/mla_decode.mlir --tileopt-lower-ugraph \
// RUN:   | tileopt-interp --seed=11 | awk '/^# output #1 /{done = 1} NR > 1 && !done' > %t.mla.tile
// RUN: diff %t.mla.ugraph %t.mla.tile
// The code generator's folds first (as tileopt-compile does): the two
// products that read the transposed C and Wk read them through, with
// tile.mma's rhs_transposed; the results are the same.
// RUN: tileopt-opt %S/../../../examples/ugraph/small/mla_decode.mlir --tileopt-lower-ugraph \
// RUN:   --canonicalize --cse -o %t.mla.folded.mlir
// RUN: FileCheck %s --check-prefix=MLA-FOLDED --input-file=%t.mla.folded.mlir
// RUN: tileopt-interp %t.mla.folded.mlir --seed=11 | awk '/^# output #1 /{done = 1} NR > 1 && !done' > %t.mla.folded
// RUN: diff %t.mla.ugraph %t.mla.folded
// MLA-FOLDED-COUNT-2: tile.mma {{.*}} {rhs_transposed}
// MLA-FOLDED-NOT: tile.permute
// RUN: FileCheck %s --check-prefix=MLA --input-file=%t.mla.tile
// MLA: tensor 16x1x32
