// What the interpreter and the verifier refuse: a diagnostic at the op
// responsible and exit status 1, never a crash and never a silent answer.
// RUN: not tileopt-interp %s --function=mm --equivalent-to=other_signature 2>&1 | FileCheck %s --check-prefix=SIG
// RUN: not tileopt-interp %s --function=regroup_dims --equivalent-to=regroup_dims 2>&1 | FileCheck %s --check-prefix=RESHAPE
// RUN: not tileopt-interp %s --function=power --equivalent-to=power 2>&1 | FileCheck %s --check-prefix=POW
// RUN: not tileopt-interp %s --function=exp_exp --domain=field 2>&1 | FileCheck %s --check-prefix=EXPEXP
// RUN: not tileopt-interp %s --function=div_zero --domain=field 2>&1 | FileCheck %s --check-prefix=DIVZERO
// RUN: not tileopt-interp %s --function=div_zero --equivalent-to=div_zero 2>&1 | FileCheck %s --check-prefix=DIVZERO-VERIFY
// RUN: not tileopt-interp %s --function=tensor_arith 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tileopt-interp %s --function=missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tileopt-interp %s 2>&1 | FileCheck %s --check-prefix=WHICH
// RUN: tileopt-interp %s --function=exp_exp --domain=f64 | FileCheck %s --check-prefix=EXPEXP-F64

func.func @mm(%A: tensor<4x8xf32>, %B: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %c = tk.matmul %A, %B : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// SIG: errors.mlir:[[@LINE+1]]:1: error: 'func.func' op has signature '(tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>' but @mm has '(tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>'
func.func @other_signature(%A: tensor<4x8xf16>, %B: tensor<8x4xf16>) -> tensor<4x4xf16> {
  %c = tk.matmul %A, %B : tensor<4x8xf16>, tensor<8x4xf16> -> tensor<4x4xf16>
  return %c : tensor<4x4xf16>
}

// 4 x 8 as 8 x 4 neither merges dims into one nor splits one.
// RESHAPE: error: 'tk.reshape' op cannot be shrunk: it regroups dims other than by merging several into one or splitting one into several
func.func @regroup_dims(%X: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %y = tk.reshape %X : tensor<4x8xf32> -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// POW: error: 'tk.binary' op pow has no model in the finite-field domain
func.func @power(%X: tensor<4x8xf32>, %Y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = tk.binary pow %X, %Y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// EXPEXP: error: 'tk.unary' op exp of a value that already depends on an exp: the finite-field domain models at most one exp on a path
// EXPEXP-F64: tensor 4x8
func.func @exp_exp(%X: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tk.unary exp %X : tensor<4x8xf32>
  %ee = tk.unary exp %e : tensor<4x8xf32>
  return %ee : tensor<4x8xf32>
}

// DIVZERO: error: 'tk.binary' op division by zero in the finite-field domain
// DIVZERO-VERIFY: error: 'tk.binary' op division by zero in the finite-field domain
// DIVZERO-VERIFY: error: every draw of the field trial divided by zero: a divisor is identically zero
func.func @div_zero(%X: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %z = tk.binary sub %X, %X : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %y = tk.binary div %X, %z : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// UNKNOWN: error: 'arith.addf' op is not supported by the interpreter (it runs tk ops)
func.func @tensor_arith(%X: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = arith.addf %X, %X : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// MISSING: error: no function named @missing
// WHICH: error: the module has 7 functions: choose one with --function
