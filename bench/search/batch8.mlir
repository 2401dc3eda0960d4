// BENCHMARKS.md runs every workload at b=1 and b=8; the examples at b=8
// (examples/linalg/*_b8.mlir) have 8 times the rows or heads of the ones
// the search was first tried on. Each is searched whole, as the examples
// at b=1 (examples.mlir); the graph budgets end the searches.
// gqa_decode's choice depends on what ptxas reports (the search leaves out
// candidates that spill in a loop).
// REQUIRES: ptxas
// RUN: tileopt-opt %S/../../examples/linalg/ntrans_b8.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=2 time-budget=900}))' \
// RUN:   | FileCheck %s --check-prefix=NTRANS
// RUN: tileopt-opt %S/../../examples/linalg/gqa_decode_b8.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=2 time-budget=900}))' \
// RUN:   | FileCheck %s --check-prefix=GQA
// RUN: tileopt-opt %S/../../examples/linalg/mla_decode_b8.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=2 time-budget=900 progress=true}))' \
// RUN:   2>&1 | FileCheck %s --check-prefix=MLA
// RUN: tileopt-opt %S/../../examples/linalg/qknorm_attention_b8.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=2 time-budget=900}))' \
// RUN:   | FileCheck %s --check-prefix=QKNORM
// RUN: tileopt-opt %S/../../examples/linalg/gated_mlp_b8.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=2 time-budget=900}))' \
// RUN:   | FileCheck %s --check-prefix=GATED

// ntrans with 64 rows: the norms' kernel takes a block per row. 64 rows
// are long enough for tiles of 16 or 32, but 16 rows of 4096 do not fit in
// shared memory next to each other; single rows do. The product's kernel
// may not split rows that finely (each block would pad its row to an mma's
// 16 and read all of W).
// NTRANS-LABEL: func.func @ntrans
// NTRANS-NOT: tk.
// NTRANS: %[[D:.*]] = tk.fused grid [{{[0-9]+}}, 1, 1] block [128, 1, 1] forloop {{[0-9]+}} (%{{.*}} = %arg1 : tensor<64x4096xf16>, %{{.*}} = %arg2 : tensor<4096x4096xf16>)
// NTRANS: tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap 1 : tensor<64x4096xf16> -> !tb.tile<64x{{[0-9]+}}xf16>
// NTRANS: tb.forloop_accum sum
// NTRANS: %[[N:.*]] = tk.fused grid [64, 1, 1] block [128, 1, 1] forloop 1 (%{{.*}} = %arg0 : tensor<64x4096xf16>, %{{.*}} = %[[D]] : tensor<64x4096xf16>)
// NTRANS-COUNT-2: tb.input_iterator %{{.*}} imap [0, -1, -1] fmap -1 : tensor<64x4096xf16> -> !tb.tile<1x4096xf16>
// NTRANS: tb.rms_norm
// NTRANS-NEXT: tb.binary add
// NTRANS-NEXT: tb.rms_norm
// NTRANS-NOT: tk.
// NTRANS: return %[[N]]

// softmax(Q @ K) @ V with 16 heads: the heads are a batch of the products,
// not rows of them, so the grid may split them into single heads; with 16
// heads the blocks are many enough without splitting the keys, and the
// search keeps one kernel whose loop walks them (FlashAttention). As
// before, 16 heads held whole would not fit in shared memory. The model
// prices 16 steps of 256 keys cheapest, but ptxas spills 1668 bytes a
// thread in that loop, and the search, which compiles its candidates,
// takes 64 steps of 64 keys.
// GQA-LABEL: func.func @gqa_decode
// GQA-NOT: tk.
// GQA: tk.fused grid [{{[0-9]+}}, 16, 1] block [128, 1, 1] forloop 64
// GQA-DAG: tb.input_iterator %{{.*}} imap [1, 0, -1] fmap -1 : tensor<16x256x64xf16> -> !tb.tile<1x{{[0-9]+}}x64xf16>
// GQA-DAG: tb.input_iterator %{{.*}} imap [-1, 0, -1] fmap 2 : tensor<16x64x4096xf16> -> !tb.tile<1x64x64xf16>
// GQA-DAG: tb.input_iterator %{{.*}} imap [-1, 0, -1] fmap 1 : tensor<16x4096x64xf16> -> !tb.tile<1x64x64xf16>
// GQA-COUNT-2: tb.forloop_accum sum_rescale
// GQA: tb.binary div
// GQA: tb.output_saver %{{.*}} omap [1, 0, -1]
// GQA-NOT: tk.
// GQA: return

// silu(X @ W1) * (X @ W2) with 64 rows: still one kernel, each block
// owning a column tile of both weights and all 64 rows of X.
// GATED-LABEL: func.func @gated_mlp
// GATED-NOT: tk.
// GATED: tk.fused grid [{{[0-9]+}}, 1, 1] block [128, 1, 1] forloop {{[0-9]+}}
// GATED: tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap 1 : tensor<64x4096xf16> -> !tb.tile<64x{{[0-9]+}}xf16>
// GATED-COUNT-2: tb.forloop_accum sum
// GATED-NOT: tk.
// GATED: return

// mla_decode with 8 query rows per head: reassociated as at b=1, so K and
// V are never formed, and the heads' rows merged into 128 rows of one
// attention over C. The verifier checks the rewritten program on an
// instance whose merged rows are the product of its shrunk heads and rows.
// The search of the attention between the reshapes completes nothing it
// keeps (its predefined kernels stay); the whole search must not fail on
// such a segment.
// The rewritten program is searched only once the verifier has found it
// equal to the program as given.
// MLA: [superopt] @mla_decode: searching it with its matmul chains reassociated (17.4 -> 1.11 GFLOP) and the batches of its shared-rhs matmuls as rows
// MLA-LABEL: func.func @mla_decode
// MLA-NOT:     tensor<16x4096x128xf16>
// MLA:         tk.fused grid [16, {{[0-9]+}}, 1] {{.*}} -> tensor<16x8x512xf16>
// MLA:         tk.reshape %{{.*}} : tensor<16x8x512xf16> -> tensor<128x512xf16>
// MLA-NOT:     tensor<16x4096x128xf16>
// MLA:         tk.reshape %{{.*}} : tensor<128x512xf16> -> tensor<16x8x512xf16>
// MLA-NEXT:    tk.fused grid [16, {{[0-9]+}}, 1] {{.*}} -> tensor<16x8x128xf16>
// MLA:         return

// qknorm_attention with 16 heads: gqa_decode's one kernel with the rms_norm
// of Q inside (each block normalizes its rows of Q once, before its loop),
// after the rms_norm of K over the head dim as a kernel of its own between
// the importer's transposes. Each subset of the kept norms is offered moved
// into the kernel (docs/superoptimizer.md, step 11), and this one is priced
// cheapest: with K's inside too, each of the 8 blocks of a head would
// normalize every key tile in every step.
// QKNORM-LABEL: func.func @qknorm_attention
// QKNORM-NEXT: %[[KT:.*]] = tk.transpose %arg1 [0, 2, 1] : tensor<16x64x4096xf16> -> tensor<16x4096x64xf16>
// QKNORM-NEXT: %[[KTN:.*]] = tk.rms_norm %[[KT]]
// QKNORM-NEXT: %[[KN:.*]] = tk.transpose %[[KTN]] [0, 2, 1]
// QKNORM-NEXT: tk.fused grid [{{[0-9]+}}, {{[0-9]+}}, 1] block [128, 1, 1] forloop 64 (%{{.*}} = %arg2 : tensor<16x4096x64xf16>, %[[QA:.*]] = %arg0 : tensor<16x256x64xf16>, %[[KA:.*]] = %[[KN]] : tensor<16x64x4096xf16>)
// QKNORM: %[[QT:.*]] = tb.input_iterator %[[QA]] {{.*}} fmap -1 : tensor<16x256x64xf16> -> !tb.tile<1x{{[0-9]+}}x64xf16>
// QKNORM-NEXT: tb.rms_norm %[[QT]]
// QKNORM-NEXT: tb.input_iterator %[[KA]] {{.*}} fmap 2 : tensor<16x64x4096xf16> -> !tb.tile<1x64x64xf16>
// QKNORM-NEXT: tb.matmul
// QKNORM-NOT: tb.reduce mean
// QKNORM-COUNT-2: tb.forloop_accum sum_rescale
// QKNORM: tb.binary div
// QKNORM-NOT: tk.
// QKNORM: return
