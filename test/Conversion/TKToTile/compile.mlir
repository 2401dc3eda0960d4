// Lowered µGraphs through tileopt-compile to cubins and PTX. ptxas is
// needed, a GPU is not. docs/lowering.md lists what compiles end to end.
// REQUIRES: ptxas

// gated_mlp as the superoptimizer finds it: one kernel on tensor cores, 64
// blocks of 64 columns, X's 8 rows padded to the 16 of one m16 tile for 4
// warps side by side.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tileopt-opt %S/../../../examples/ugraph/gated_mlp.mlir --tileopt-lower-ugraph -o %t/gated_mlp.mlir
// RUN: tileopt-compile %t/gated_mlp.mlir -o %t/gated_mlp 2>/dev/null
// RUN: FileCheck %s --check-prefix=GATED-TILE --input-file=%t/gated_mlp.mlir
// RUN: FileCheck %s --check-prefix=GATED-PTX --input-file=%t/gated_mlp/kernels.ptx
// RUN: FileCheck %s --check-prefix=GATED --input-file=%t/gated_mlp/manifest.json
// The loop holds the loads and the two mmas alone, and X feeds both: all
// three tiles go through one cp.async ring (3 stages of 16x256 + 2 x
// 256x64 f16, 216 KiB of dynamic shared memory), and the mmas read them
// with ldmatrix; nothing is staged from registers.
// GATED-TILE-COUNT-2: tile.mma %{{.*}} : tensor<16x256xf16>, tensor<256x64xf16>, tensor<16x64xf32>
// GATED-PTX: .entry gated_mlp_k0(
// GATED-PTX-NOT: st.shared
// GATED-PTX: cp.async.cg.shared.global
// GATED-PTX: cp.async.commit_group
// GATED-PTX: ldmatrix
// GATED-PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// GATED-PTX: cp.async.wait_group{{[[:space:]]+}}1;
// GATED-PTX: ex2.approx
// GATED: "name": "in0",
// GATED-NEXT: "role": "input",
// GATED: "name": "out0",
// GATED-NEXT: "role": "output",
// GATED: "dynamic": 221184,
// GATED: "launches": [
// GATED: "grid": [
// GATED-NEXT: 64,

// rmsnorm_linear as imported: the rms_norm kernel, then the matmul in
// 128x128x64 tiles (M padded from 2), the normalized X between them.
// RUN: tileopt-opt %S/../../../examples/linalg/rmsnorm_linear.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg),tileopt-lower-ugraph)' -o %t/rmsnorm_linear.mlir
// RUN: tileopt-compile %t/rmsnorm_linear.mlir -o %t/rmsnorm_linear 2>/dev/null
// RUN: FileCheck %s --check-prefix=RMSNORM --input-file=%t/rmsnorm_linear/manifest.json
// RMSNORM: "name": "tmp0",
// RMSNORM-NEXT: "role": "scratch",
// RMSNORM: "launches": [
// RMSNORM: "kernel": 0
// RMSNORM: "kernel": 1

// Mirage's rmsnorm_linear: the rms, broadcast over the accumulator's
// columns, enters the accumulator's layout through shared memory.
// RUN: tileopt-opt %S/../../../examples/ugraph/rmsnorm_linear.mlir --tileopt-lower-ugraph -o %t/rmsnorm_mirage.mlir
// RUN: tileopt-compile %t/rmsnorm_mirage.mlir -o %t/rmsnorm_mirage 2>/dev/null
// RUN: FileCheck %s --check-prefix=MIRAGE --input-file=%t/rmsnorm_mirage/kernels.ptx
// MIRAGE: .entry rmsnorm_linear_k0(
// MIRAGE: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MIRAGE: sqrt

// gqa_decode as imported: batched matmuls in 64x128 tiles, the batch dim
// restored for the store through shared memory; softmax in row kernels.
// RUN: tileopt-opt %S/../../../examples/linalg/gqa_decode.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg),tileopt-lower-ugraph)' -o %t/gqa_imported.mlir
// RUN: tileopt-compile %t/gqa_imported.mlir -o %t/gqa_imported 2>/dev/null
// RUN: FileCheck %s --check-prefix=GQA-IMPORTED --input-file=%t/gqa_imported/kernels.ptx
// GQA-IMPORTED: .entry gqa_decode_k0(
// GQA-IMPORTED: mma.sync
// GQA-IMPORTED: .entry gqa_decode_k6(

// gqa_decode's fused kernel (its batch of 2 split over the grid's z) has
// 16x16 products, which mma.sync takes on 2 warps, not 4 (16 rows put 4
// warps side by side, which needs 32 columns). On 2 warps it
// compiles: the scores' row maximum (a tile.reduce of an mma result) and
// the probabilities (an mma result as a multiplicand) leave the accumulator
// layout through shared memory.
// RUN: tileopt-opt %S/../../../examples/ugraph/gqa_decode.mlir --tileopt-lower-ugraph -o %t/gqa_decode.mlir
// RUN: not tileopt-compile %t/gqa_decode.mlir -o %t/gqa_decode 2>&1 | FileCheck %s --check-prefix=GQA4
// RUN: tileopt-compile --num-warps 2 %t/gqa_decode.mlir -o %t/gqa_decode 2>/dev/null
// RUN: FileCheck %s --check-prefix=GQA2 --input-file=%t/gqa_decode/kernels.ptx
// GQA4: error: 'tile.mma' op needs M a multiple of 16, N of 32 and K of 16 for mma.sync m16n8k16 on 1x4 warps
// GQA2: .entry gqa_decode_k0(
// GQA2: ldmatrix
// GQA2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// GQA2: ex2.approx

// gqa_decode as split-KV plus a combine (examples/ugraph/gqa_decode_splitkv.mlir):
// the first kernel, on 4 warps, reduces S = Q K's rows and multiplies its
// exponentials by V, both out of the accumulator layout through shared
// memory; the combine rescales the chunks' partial sums.
// RUN: tileopt-opt %S/../../../examples/ugraph/gqa_decode_splitkv.mlir --tileopt-lower-ugraph -o %t/gqa_splitkv.mlir
// RUN: tileopt-compile %t/gqa_splitkv.mlir -o %t/gqa_splitkv 2>/dev/null
// RUN: FileCheck %s --check-prefix=SPLITKV-PTX --input-file=%t/gqa_splitkv/kernels.ptx
// RUN: FileCheck %s --check-prefix=SPLITKV --input-file=%t/gqa_splitkv/manifest.json
// SPLITKV-PTX: .entry gqa_decode_k0(
// SPLITKV-PTX: ldmatrix.sync.aligned
// SPLITKV-PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SPLITKV-PTX: ex2.approx
// SPLITKV-PTX: ldmatrix.sync.aligned
// SPLITKV-PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SPLITKV-PTX: .entry gqa_decode_k1(
// SPLITKV: "launches": [
// SPLITKV: "grid": [
// SPLITKV-NEXT: 4,
// SPLITKV-NEXT: 32,
// SPLITKV-NEXT: 2
// SPLITKV: "kernel": 1

// qknorm_attention (examples/ugraph/qknorm_attention.mlir): the split-KV
// kernel over V, Q and K, which normalizes its rows of Q (a tb.rms_norm)
// and the head dim of its key columns (a mean over dim 1, then rsqrt),
// then the combine.
// RUN: tileopt-opt %S/../../../examples/ugraph/qknorm_attention.mlir --tileopt-lower-ugraph -o %t/qknorm.mlir
// RUN: tileopt-compile %t/qknorm.mlir -o %t/qknorm 2>/dev/null
// RUN: FileCheck %s --check-prefix=QKNORM-PTX --input-file=%t/qknorm/kernels.ptx
// QKNORM-PTX: .entry qknorm_attention_k0(
// QKNORM-PTX: sqrt.approx.f32
// QKNORM-PTX: rsqrt.approx.f32
// QKNORM-PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// QKNORM-PTX: ex2.approx
// QKNORM-PTX: .entry qknorm_attention_k1(
// QKNORM-PTX-NOT: .entry

// qknorm_attention at b=8 (examples/ugraph/qknorm_attention_b8.mlir): the
// rms_norm of K over its head dim is a predefined kernel between two
// transposes, both read through (no copy kernels): it loads K's tiles and
// permutes them, and the attention kernel loads the normalized keys' rows
// and permutes them for its mma. Two launches.
// RUN: tileopt-opt %S/../../../examples/ugraph/qknorm_attention_b8.mlir --tileopt-lower-ugraph -o %t/qknorm_b8.mlir
// RUN: tileopt-compile %t/qknorm_b8.mlir -o %t/qknorm_b8 2>/dev/null
// RUN: FileCheck %s --check-prefix=QKNORM8-PTX --input-file=%t/qknorm_b8/kernels.ptx
// QKNORM8-PTX: .entry qknorm_attention_k0(
// QKNORM8-PTX: sqrt.approx.f32
// QKNORM8-PTX: .entry qknorm_attention_k1(
// QKNORM8-PTX: sqrt.approx.f32
// QKNORM8-PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// QKNORM8-PTX: ex2.approx
// QKNORM8-PTX-NOT: .entry

// ntrans (examples/ugraph/ntrans.mlir): the matmul on the tensor cores,
// then one kernel of a block per row with both rms_norms (a row sum and a
// root each) and the residual add.
// RUN: tileopt-opt %S/../../../examples/ugraph/ntrans.mlir --tileopt-lower-ugraph -o %t/ntrans.mlir
// RUN: tileopt-compile %t/ntrans.mlir -o %t/ntrans 2>/dev/null
// RUN: FileCheck %s --check-prefix=NTRANS-PTX --input-file=%t/ntrans/kernels.ptx
// RUN: FileCheck %s --check-prefix=NTRANS --input-file=%t/ntrans/manifest.json
// NTRANS-PTX: .entry ntrans_k0(
// NTRANS-PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// NTRANS-PTX: .entry ntrans_k1(
// NTRANS-PTX-NOT: mma.sync
// NTRANS-PTX-COUNT-2: sqrt.approx.f32
// NTRANS-PTX-NOT: .entry
// NTRANS: "launches": [
// NTRANS: "kernel": 0
// NTRANS: "grid": [
// NTRANS-NEXT: 8,
// NTRANS-NEXT: 1,
// NTRANS-NEXT: 1
// NTRANS: "kernel": 1
// NTRANS-NOT: "kernel":

// mla_decode (examples/ugraph/mla_decode.mlir): the products read the
// transposes of Wk and C through (transposeReadThrough), so those two get no
// kernel: Q Wk^T reads Wk and split-KV reads its C tile once for both of
// its products, as the rhs of S = A C^T with tile.mma's rhs_transposed
// (ldmatrix without .trans) and of P C (with .trans). The reshapes to and
// from the heads' rows are views (ReshapeOp::isView): their readers bind
// their inputs' buffers. Four launches in all.
// RUN: tileopt-opt %S/../../../examples/ugraph/mla_decode.mlir --tileopt-lower-ugraph -o %t/mla.mlir
// RUN: tileopt-compile %t/mla.mlir -o %t/mla 2>/dev/null
// RUN: FileCheck %s --check-prefix=MLA-PTX --input-file=%t/mla/kernels.ptx
// RUN: FileCheck %s --check-prefix=MLA --input-file=%t/mla/manifest.json
// tileopt-compile's --register-budget reaches tileopt-pipeline-tile-loads:
// the default 128 registers a thread take the combine's tiles (its loop
// walks the chunks) two steps ahead, 4 one step.
// RUN: tileopt-compile %t/mla.mlir -o %t/mla_budget --register-budget 4 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUDGET
// BUDGET: remark: tiles in flight would take 6 registers per thread, over the budget of 4: the loads are issued one iteration ahead (3 registers)
// MLA-PTX: .entry mla_decode_k0(
// MLA-PTX-NOT: ldmatrix{{.*}}.trans
// MLA-PTX: mma.sync.aligned
// MLA-PTX: .entry mla_decode_k1(
// MLA-PTX-NOT: ldmatrix{{.*}}.trans
// MLA-PTX: mma.sync.aligned
// MLA-PTX: ex2.approx
// MLA-PTX: ldmatrix.sync.aligned.m8n8.x4.trans
// MLA-PTX: mma.sync.aligned
// MLA-PTX: .entry mla_decode_k2(
// MLA-PTX: .entry mla_decode_k3(
// MLA-PTX-NOT: .entry
// The query projection writes A (16x1x512, buffer 5) and split-KV reads
// it as 16 rows of 512: the same buffer.
// MLA: "launches": [
// MLA: "buffer": 5
// MLA: "kernel": 0
// MLA: "buffer": 5
// MLA: "kernel": 1
// MLA-COUNT-2: "kernel":
// MLA-NOT: "kernel":
