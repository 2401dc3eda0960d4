// The tile examples through the whole pipeline. ptxas is needed, a GPU is not.
// REQUIRES: ptxas

// PTX: 16-byte vector loads and stores, warp butterflies, barriers.
// RUN: tileopt-opt %S/../../examples/tile/softmax.mlir \
// RUN:   --tileopt-tile-to-cubin="format=isa" | FileCheck %s --check-prefix=SOFTMAX-PTX
// SOFTMAX-PTX: gpu.binary @tileopt_kernels
// SOFTMAX-PTX-SAME: .target sm_90
// SOFTMAX-PTX-SAME: .entry softmax(
// SOFTMAX-PTX-SAME: .maxntid 128, 1, 1
// SOFTMAX-PTX-SAME: ld.global.v4.b32
// SOFTMAX-PTX-SAME: shfl.sync.bfly.b32
// SOFTMAX-PTX-SAME: bar.sync
// SOFTMAX-PTX-SAME: ex2.approx
// SOFTMAX-PTX-SAME: st.global.v4.b32

// The artifact: cubin, PTX and a manifest with the launch sequence.
// RUN: rm -rf %t && tileopt-compile %S/../../examples/tile/softmax.mlir -o %t/softmax
// RUN: FileCheck %s --check-prefix=SOFTMAX --input-file=%t/softmax/manifest.json
// RUN: od -An -c -N4 %t/softmax/kernels.cubin | FileCheck %s --check-prefix=ELF
// SOFTMAX:      "buffers": [
// SOFTMAX:          "dtype": "bf16",
// SOFTMAX-NEXT:     "name": "x",
// SOFTMAX-NEXT:     "role": "input",
// SOFTMAX:          "name": "y",
// SOFTMAX-NEXT:     "role": "output",
// SOFTMAX:      "kernels": [
// SOFTMAX:          "block": [
// SOFTMAX-NEXT:       128,
// SOFTMAX:          "cubin": "kernels.cubin",
// SOFTMAX:          "params": [
// SOFTMAX-NEXT:       "ptr",
// SOFTMAX-NEXT:       "i64",
// SOFTMAX-NEXT:       "ptr",
// SOFTMAX-NEXT:       "i64"
// SOFTMAX:          "static": 16
// SOFTMAX:      "launches": [
// SOFTMAX:          "args": [
// SOFTMAX-NEXT:       {
// SOFTMAX-NEXT:         "buffer": 0
// SOFTMAX-NEXT:       },
// SOFTMAX-NEXT:       {
// SOFTMAX-NEXT:         "buffer": 0,
// SOFTMAX-NEXT:         "dim": 0
// SOFTMAX:          "grid": [
// SOFTMAX-NEXT:       8192,
// SOFTMAX:      "reference": "row_softmax",
// SOFTMAX:      "source_hash": "{{[0-9a-f]+}}",
// SOFTMAX:      "arch": "sm_90"
// ELF: 177   E   L   F

// RUN: tileopt-compile %S/../../examples/tile/rms_norm.mlir -o %t/rms_norm
// RUN: FileCheck %s --check-prefix=RMS --input-file=%t/rms_norm/kernels.ptx
// RUN: FileCheck %s --check-prefix=RMS-MANIFEST --input-file=%t/rms_norm/manifest.json
// RMS: .entry rms_norm(
// RMS: ld.global.v4.b32
// RMS: shfl.sync.bfly.b32
// RMS: rsqrt.approx.f32
// RMS: st.global.v4.b32
// RMS-MANIFEST: "reference": "row_rms_norm",
// RMS-MANIFEST: "reference_args": {
// RMS-MANIFEST-NEXT: "eps": 9.9999999999999995e-07

// RUN: tileopt-compile %S/../../examples/tile/elementwise.mlir -o %t/elementwise
// RUN: FileCheck %s --check-prefix=EW --input-file=%t/elementwise/kernels.ptx
// RUN: FileCheck %s --check-prefix=EW-MANIFEST --input-file=%t/elementwise/manifest.json
// EW: .entry silu_mul(
// EW-COUNT-8: ld.global.v4.b32
// EW-NOT: shfl
// EW-NOT: bar.sync
// EW: st.global.v4.b32
// EW-MANIFEST:      "grid": [
// EW-MANIFEST-NEXT:   2048,
// EW-MANIFEST-NEXT:   8,
// EW-MANIFEST-NEXT:   1

// A missing ptxas is an error that says where it looked (a toolkit folder
// without one; a --cuda-toolkit that does not exist is a usage error,
// test/Driver/missing-cuda-toolkit.mlir).
// RUN: mkdir -p %t/no-toolkit
// RUN: not env CUDA_HOME=%t/no-toolkit PATH=/nonexistent %tileopt_compile \
// RUN:   %S/../../examples/tile/softmax.mlir -o %t/none 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-PTXAS
// NO-PTXAS: error: ptxas not found: looked in {{.*}}no-toolkit/bin/ptxas and on PATH

// The bf16 matrix product: both operands copied by cp.async into three
// shared-memory stages (48 KiB), read with ldmatrix, multiplied with
// mma.sync m16n8k16; two barriers in all (before the prologue and one per K
// step), nothing spilled, nothing stored to shared memory by threads.
// RUN: tileopt-compile %S/../../examples/tile/gemm.mlir -o %t/gemm
// RUN: FileCheck %s --check-prefix=GEMM --input-file=%t/gemm/kernels.ptx
// RUN: grep -c bar.sync %t/gemm/kernels.ptx | FileCheck %s --check-prefix=GEMM-BARRIERS
// RUN: FileCheck %s --check-prefix=GEMM-MANIFEST --input-file=%t/gemm/manifest.json
// GEMM: .entry gemm(
// GEMM: .shared .align 16 .b8 {{.*}}[49152];
// GEMM-DAG: cp.async.cg.shared.global [%{{.*}}], [%{{.*}}], 16, %{{.*}};
// GEMM-DAG: cp.async.commit_group;
// GEMM-DAG: cp.async.wait_group 1;
// GEMM-DAG: cp.async.wait_group 0;
// GEMM-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// GEMM-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// GEMM-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// GEMM-NOT: ld.local
// GEMM-NOT: st.shared
// GEMM-BARRIERS: 2
// GEMM-MANIFEST: "params": [
// GEMM-MANIFEST-NEXT: "ptr",
// GEMM-MANIFEST-NEXT: "ptr",
// GEMM-MANIFEST-NEXT: "ptr"
// GEMM-MANIFEST: "static": 49152
// GEMM-MANIFEST: "reference": "gemm",

// The GEMM for sm_90a (128 x 256 tiles, K steps of 64, 8 warps):
// wgmma.mma_async m64n256k16 on operands read by descriptor from four
// 1024-byte-aligned stages in dynamic shared memory, which TMA fills
// (cp.async.bulk.tensor, completing on one mbarrier per stage); one group
// left in flight across K steps; no cp.async, no ldmatrix, no mma.sync,
// nothing spilled. The manifest binds the two extra params to tensor maps
// of A (boxes of 128 x 64) and B (64 x 64, one per 64-column panel).
// RUN: tileopt-compile %S/../../examples/tile/gemm-wgmma.mlir -o %t/gemm-wgmma --chip=sm_90a --num-warps=8
// RUN: FileCheck %s --check-prefix=WGMMA --input-file=%t/gemm-wgmma/kernels.ptx
// RUN: FileCheck %s --check-prefix=WGMMA-MANIFEST --input-file=%t/gemm-wgmma/manifest.json
// WGMMA: .target sm_90a
// WGMMA: .extern .shared .align 1024 .b8 tileopt_dynamic_shared[];
// WGMMA: .entry gemm(
// WGMMA: .param .u64 .ptr .align 1 gemm_param_4
// WGMMA-DAG: mbarrier.init.shared.b64
// WGMMA-DAG: fence.mbarrier_init.release.cluster;
// WGMMA-DAG: mbarrier.arrive.expect_tx.shared.b64 %{{.*}}, [%{{.*}}], %{{.*}};
// WGMMA-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%{{.*}}], [%{{.*}}, {%{{.*}}, %{{.*}}}], [%{{.*}}];
// WGMMA-DAG: mbarrier.try_wait.parity.shared.b64
// WGMMA-DAG: mbarrier.inval.shared.b64
// WGMMA-DAG: wgmma.fence.sync.aligned;
// WGMMA-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// WGMMA-DAG: wgmma.commit_group.sync.aligned;
// WGMMA-DAG: wgmma.wait_group.sync.aligned 1;
// WGMMA-DAG: wgmma.wait_group.sync.aligned 0;
// WGMMA-NOT: cp.async.cg
// WGMMA-NOT: ldmatrix
// WGMMA-NOT: mma.sync
// WGMMA-NOT: ld.local
// WGMMA-MANIFEST:      "params": [
// WGMMA-MANIFEST-COUNT-5: "ptr"
// WGMMA-MANIFEST:      "dynamic": 196608
// WGMMA-MANIFEST:      "args": [
// WGMMA-MANIFEST:          "tensor_map": {
// WGMMA-MANIFEST-NEXT:       "box": [
// WGMMA-MANIFEST-NEXT:         128,
// WGMMA-MANIFEST-NEXT:         64
// WGMMA-MANIFEST-NEXT:       ],
// WGMMA-MANIFEST-NEXT:       "buffer": 0,
// WGMMA-MANIFEST-NEXT:       "swizzle": 128
// WGMMA-MANIFEST:          "tensor_map": {
// WGMMA-MANIFEST-NEXT:       "box": [
// WGMMA-MANIFEST-NEXT:         64,
// WGMMA-MANIFEST-NEXT:         64
// WGMMA-MANIFEST-NEXT:       ],
// WGMMA-MANIFEST-NEXT:       "buffer": 1,
// WGMMA-MANIFEST:      "arch": "sm_90a"
// The example's first line gives scripts/prepare-device-run.sh the flags.
// RUN: head -1 %S/../../examples/tile/gemm-wgmma.mlir | FileCheck %s --check-prefix=WGMMA-FLAGS
// WGMMA-FLAGS: // tileopt-compile: --chip=sm_90a --num-warps=8

// Without a host function there is no launch sequence: an error at the
// kernel.
// RUN: not tileopt-compile %S/../Conversion/TileToGPU/scan.mlir -o %t/none 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-HOST
// NO-HOST: scan.mlir:{{[0-9]+}}:1: error: no func.func launches a kernel with tile.launch
