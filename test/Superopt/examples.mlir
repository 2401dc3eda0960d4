// The superoptimizer must rediscover the known fusions of the BENCHMARKS
// workloads, imported from examples/linalg. The checks are on structure:
// how many kernels, and what the fused kernel's block graph holds.
//
// RUN: tileopt-opt %S/../../examples/linalg/gated_mlp.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=2}))' \
// RUN:   | FileCheck %s --check-prefix=GATED
// RUN: tileopt-opt %S/../../examples/linalg/rmsnorm_linear.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=2}))' \
// RUN:   | FileCheck %s --check-prefix=RMSNORM

// silu(X @ W1) * (X @ W2): one kernel; each block owns a column tile of both
// products, walks the hidden dim, and applies silu and the product to the
// two accumulators after the loop.
// GATED-LABEL: func.func @gated_mlp
// GATED-NOT: tk.matmul
// GATED: tk.fused grid [{{[0-9]+}}, 1, 1] block [128, 1, 1] forloop {{[0-9]+}}
// GATED-DAG: tb.input_iterator %{{.*}} imap [-1, -1, -1] fmap 1 : tensor<8x4096xf16>
// GATED-DAG: tb.input_iterator %{{.*}} imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16>
// GATED-DAG: tb.input_iterator %{{.*}} imap [1, -1, -1] fmap 0 : tensor<4096x4096xf16>
// GATED-COUNT-2: tb.matmul
// GATED-COUNT-2: tb.forloop_accum sum
// GATED-DAG: tb.unary silu
// GATED-DAG: tb.binary mul
// GATED: tb.output_saver %{{.*}} omap [1, -1, -1]
// GATED-NOT: tk.
// GATED: return

// rms_norm(X) @ W: one kernel; each block owns a column tile of W and
// normalizes the rows of X it reads.
// RMSNORM-LABEL: func.func @rmsnorm_linear
// RMSNORM-NOT: tk.rms_norm
// RMSNORM-NOT: tk.matmul
// RMSNORM: tk.fused grid [{{[0-9]+}}, 1, 1]
// RMSNORM: tb.matmul
// RMSNORM: tb.output_saver %{{.*}} omap [1, -1, -1]
// RMSNORM-NOT: tk.
// RMSNORM: return
