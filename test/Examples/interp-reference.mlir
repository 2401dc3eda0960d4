// scripts/interp-reference.py, which scripts/prepare-device-run.sh runs on
// every -small artifact: seeded inputs rounded to the buffers' dtypes and the
// tile interpreter's f64 outputs on them, written into the artifact as
// inputs.tensors and expected.tensors for tileopt-run. ptxas is needed (to
// compile the artifacts), a GPU is not.
// REQUIRES: ptxas
//
// Softmax, 4 rows of 128: bf16 inputs in [-1, 1], f32 expected values, each
// row summing to 1.
// RUN: rm -rf %t && mkdir %t
// RUN: sed -e 's/8192x8192x/4x8192x/g' -e 's/grid \[8192, 1, 1\]/grid [4, 1, 1]/' \
// RUN:     -e 's/8192/128/g' %S/../../examples/tile/softmax.mlir > %t/softmax.mlir
// RUN: tileopt-compile %t/softmax.mlir -o %t/softmax
// RUN: %python %S/../../scripts/interp-reference.py %t/softmax.mlir %t/softmax \
// RUN:     --interp tileopt-interp | FileCheck %s --check-prefix=WROTE
// RUN: head -c 18 %t/softmax/inputs.tensors | FileCheck %s --check-prefix=MAGIC
// RUN: env PYTHONPATH=%S/../../python %python -m tileopt.tensor_file \
// RUN:     %t/softmax/inputs.tensors %t/softmax/expected.tensors | FileCheck %s --check-prefix=SOFTMAX
// RUN: env PYTHONPATH=%S/../../python %python -c "from tileopt.tensor_file import read; \
// RUN:     x = read('%t/softmax/inputs.tensors')[0].values; \
// RUN:     y = read('%t/softmax/expected.tensors')[0].values; \
// RUN:     print('inputs', all(0 < abs(v) <= 1 for v in x), 'row sums', \
// RUN:           max(abs(sum(y[128 * r:128 * r + 128]) - 1) for r in range(4)) < 1e-6)" \
// RUN:   | FileCheck %s --check-prefix=VALUES
//
// The same seed gives the same files; another seed other inputs.
// RUN: cp -r %t/softmax %t/again
// RUN: %python %S/../../scripts/interp-reference.py %t/softmax.mlir %t/again --interp tileopt-interp
// RUN: cmp %t/softmax/inputs.tensors %t/again/inputs.tensors
// RUN: cmp %t/softmax/expected.tensors %t/again/expected.tensors
// RUN: %python %S/../../scripts/interp-reference.py %t/softmax.mlir %t/again --interp tileopt-interp --seed 2
// RUN: not cmp %t/softmax/inputs.tensors %t/again/inputs.tensors
//
// The GEMM at 128^3 (one block, 4 K steps) with --positive: inputs in (0, 1].
// RUN: sed -e 's/4096x4096/128x128/g; s/constant 128 : index/constant 4 : index/' \
// RUN:     -e 's/grid \[32, 32, 1\]/grid [1, 1, 1]/' %S/../../examples/tile/gemm.mlir > %t/gemm.mlir
// RUN: tileopt-compile %t/gemm.mlir -o %t/gemm
// RUN: %python %S/../../scripts/interp-reference.py %t/gemm.mlir %t/gemm --interp tileopt-interp --positive
// RUN: env PYTHONPATH=%S/../../python %python -c "from tileopt.tensor_file import read; \
// RUN:     print([(t.name, t.dtype, t.shape, min(t.values) > 0) for t in read('%t/gemm/inputs.tensors')])" \
// RUN:   | FileCheck %s --check-prefix=GEMM
//
// Errors: a source the artifact was not compiled from; outputs the program
// leaves unwritten (a grid of 2 blocks for 4 rows). Nothing is written then.
// RUN: not %python %S/../../scripts/interp-reference.py %t/gemm.mlir %t/softmax \
// RUN:     --interp tileopt-interp 2>&1 | FileCheck %s --check-prefix=SOURCE
// RUN: sed -e 's/grid \[4, 1, 1\]/grid [2, 1, 1]/' %t/softmax.mlir > %t/half.mlir
// RUN: tileopt-compile %t/half.mlir -o %t/half
// RUN: not %python %S/../../scripts/interp-reference.py %t/half.mlir %t/half \
// RUN:     --interp tileopt-interp 2>&1 | FileCheck %s --check-prefix=UNWRITTEN
// RUN: not ls %t/half/inputs.tensors

// WROTE: interp-reference: {{.*}}softmax/{inputs,expected}.tensors (seed 1)
// MAGIC: tileopt-tensors 1
// SOFTMAX:      # x bf16 4 128
// SOFTMAX-NEXT: tensor 4x128
// SOFTMAX-COUNT-4: {{^(-?[0-9.e-]+ ){127}-?[0-9.e-]+$}}
// SOFTMAX-NEXT: # y f32 4 128
// SOFTMAX-NEXT: tensor 4x128
// SOFTMAX-COUNT-4: {{^([0-9.e-]+ ){127}[0-9.e-]+$}}
// SOFTMAX-NOT:  {{.}}
// VALUES: inputs True row sums True
// GEMM: [('a', 'bf16', [128, 128], True), ('b', 'bf16', [128, 128], True)]
// SOURCE: interp-reference: {{.*}}softmax was not compiled from {{.*}}gemm.mlir (the manifest's source_hash differs)
// UNWRITTEN: interp-reference: output y: 256 elements are NaN (never written, or NaN from the inputs)
