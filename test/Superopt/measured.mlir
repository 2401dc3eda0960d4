// The ranked candidates written out for timing on a GPU, and the ranking by
// measured times (docs/superoptimizer.md, "Measured ranking").
// RUN: rm -rf %t && mkdir -p %t
// RUN: tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 candidates-dir=%t/candidates}))' -o /dev/null
// RUN: FileCheck %s --check-prefix=LIST < %t/candidates/gated/candidates.json
// RUN: FileCheck %s --check-prefix=FUSED < %t/candidates/gated/0.mlir
// RUN: FileCheck %s --check-prefix=INPUT < %t/candidates/gated/5.mlir

// Times that make the cost model's fourth choice the fastest, its first
// slower, and leave the others unmeasured: the pass takes the fourth.
// RUN: %python -c "import json, sys; c = json.load(open(sys.argv[1]))['candidates']; print(json.dumps({'gpu': 'Test GPU', 'times_us': {c[3]['key']: 3.5, c[0]['key']: 4.0, c[5]['key']: 9.0}}))" %t/candidates/gated/candidates.json > %t/times.json
// RUN: tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 measured-times=%t/times.json}))' 2> %t/remarks.txt > %t/chosen.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t/remarks.txt
// RUN: diff -B %t/chosen.mlir %t/candidates/gated/3.mlir

// The input program measured fastest: kept.
// RUN: %python -c "import json, sys; c = json.load(open(sys.argv[1]))['candidates']; print(json.dumps({'times_us': {c[0]['key']: 4.0, c[5]['key']: 3.0}}))" %t/candidates/gated/candidates.json > %t/input-fastest.json
// RUN: tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 measured-times=%t/input-fastest.json}))' 2>&1 | FileCheck %s --check-prefix=KEPT

// Times of other candidates: a warning, and the cost model decides.
// RUN: echo '{"times_us": {"0123456789abcdef": 1.0}}' > %t/other.json
// RUN: tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{threads=2 measured-times=%t/other.json}))' 2> %t/other.txt | FileCheck %s --check-prefix=FUSED
// RUN: FileCheck %s --check-prefix=OTHER < %t/other.txt

// Bad files are errors.
// RUN: not tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{measured-times=%t/missing.json}))' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo '{"times_us": [1, 2' > %t/bad.json
// RUN: not tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{measured-times=%t/bad.json}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: echo '{"times": {}}' > %t/no-times.json
// RUN: not tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{measured-times=%t/no-times.json}))' 2>&1 | FileCheck %s --check-prefix=NOTIMES
// RUN: echo '{"times_us": {"0123456789abcdef": -1}}' > %t/negative.json
// RUN: not tileopt-opt %s --pass-pipeline='builtin.module(func.func(tileopt-superoptimize{measured-times=%t/negative.json}))' 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// Six candidates: five fused ones, then the input program, each with the
// key its times are filed under.
// LIST:      "function": "gated",
// LIST:      "rank": 0,
// LIST-NEXT: "file": "0.mlir",
// LIST-NEXT: "key": "{{[0-9a-f]+}}",
// LIST-NEXT: "model_us": {{[0-9.e+-]+}},
// LIST-NEXT: "kernels": 1,
// LIST-NEXT: "input": false
// LIST:      "rank": 5,
// LIST-NEXT: "file": "5.mlir",
// LIST-NEXT: "key": "{{[0-9a-f]+}}",
// LIST-NEXT: "model_us": {{[0-9.e+-]+}},
// LIST-NEXT: "kernels": 4,
// LIST-NEXT: "input": true
// LIST-NOT:  "rank"

// FUSED-LABEL: func.func @gated
// FUSED:       tk.fused
// FUSED-NOT:   tk.matmul

// INPUT-LABEL: func.func @gated
// INPUT-COUNT-2: tk.matmul
// INPUT-NOT:   tk.fused

// REMARK: remark: ranked by measured time (3 of 6 candidates measured on Test GPU): the fastest takes 3.50 us (cost model {{[0-9.]+}} us); the cost model's choice takes 4.00 us

// KEPT: remark: ranked by measured time (2 of 6 candidates measured): the fastest takes 3.00 us
// KEPT: remark: the input program measured fastest; kept as it is
// KEPT:       module
// KEPT-NEXT:  func.func @gated
// KEPT-COUNT-2: tk.matmul

// OTHER: warning: none of the 6 candidates has a measured time in {{.*}}other.json (measured for another search?); ranked by the cost model

// MISSING: error: cannot read the measured times {{.*}}missing.json
// BAD: error: the measured times {{.*}}bad.json are not JSON
// NOTIMES: error: the measured times {{.*}}no-times.json have no "times_us" object
// NEGATIVE: error: the measured time of candidate 0123456789abcdef in {{.*}}negative.json is not a positive number of microseconds

func.func @gated(%x: tensor<8x256xf16>, %w1: tensor<256x256xf16>, %w2: tensor<256x256xf16>) -> tensor<8x256xf16> {
  %0 = tk.matmul %x, %w1 : tensor<8x256xf16>, tensor<256x256xf16> -> tensor<8x256xf16>
  %1 = tk.matmul %x, %w2 : tensor<8x256xf16>, tensor<256x256xf16> -> tensor<8x256xf16>
  %2 = tk.unary silu %0 : tensor<8x256xf16>
  %3 = tk.binary mul %2, %1 : tensor<8x256xf16>, tensor<8x256xf16> -> tensor<8x256xf16>
  return %3 : tensor<8x256xf16>
}
