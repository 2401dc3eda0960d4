//===- Interpreter.h - Reference semantics of tk, tb and th -----*- C++ -*-===//
//
// Runs a kernel-graph function (tk ops, tk.fused block graphs of tb ops and
// th thread graphs) on the CPU, in one of the scalar domains of Domains.h.
// It is the definition the rest of TileOpt is checked against: the verifier
// compares candidate µGraphs with it, the GPU runtime's results are compared
// with it. docs/interpreter.md states the semantics op by op.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_INTERPRETER_INTERPRETER_H
#define TILEOPT_INTERPRETER_INTERPRETER_H

#include "TileOpt/Interpreter/Domains.h"
#include "TileOpt/Interpreter/Tensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tileopt::interp {

template <typename Domain>
using TensorOf = Tensor<typename Domain::Scalar>;

/// Runs `func` on `inputs` (one per argument, of the argument's shape) and
/// returns its results. Anything it cannot do — inputs that do not match, an
/// op it does not know, an operation `domain` cannot model (a division by
/// zero in a field, a second exp on a path) — is reported as a diagnostic at
/// the responsible op, and the call fails.
template <typename Domain>
FailureOr<SmallVector<TensorOf<Domain>>>
interpret(func::FuncOp func, ArrayRef<TensorOf<Domain>> inputs, Domain &domain);

/// The float64 reference.
inline FailureOr<SmallVector<Tensor<double>>>
interpret(func::FuncOp func, ArrayRef<Tensor<double>> inputs) {
  F64Domain domain;
  return interpret<F64Domain>(func, inputs, domain);
}

/// The static shapes of `func`'s arguments; reports an argument that is not
/// a statically shaped tensor.
FailureOr<SmallVector<SmallVector<int64_t, 4>>> getArgumentShapes(func::FuncOp func);

/// One random tensor per argument of `func`, drawn by `domain.random`.
template <typename Domain>
FailureOr<SmallVector<TensorOf<Domain>>>
randomInputs(func::FuncOp func, Domain &domain, SplitMix64 &rng) {
  FailureOr<SmallVector<SmallVector<int64_t, 4>>> shapes = getArgumentShapes(func);
  if (failed(shapes))
    return failure();
  SmallVector<TensorOf<Domain>> inputs;
  for (ArrayRef<int64_t> shape : *shapes) {
    TensorOf<Domain> &t = inputs.emplace_back(shape);
    for (auto &value : t.values())
      value = domain.random(rng);
  }
  return inputs;
}

} // namespace mlir::tileopt::interp

#endif // TILEOPT_INTERPRETER_INTERPRETER_H
