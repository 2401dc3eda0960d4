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

#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.h"
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

/// The values of `func`'s argument `index` where the program fixes them (a
/// `tileopt.constant` attribute), in `domain`; nullopt for an argument the
/// caller gives.
template <typename Domain>
std::optional<TensorOf<Domain>>
constantArgument(func::FuncOp func, unsigned index, Domain &domain) {
  auto values = func.getArgAttrOfType<DenseElementsAttr>(
      index, TileOptDialect::ConstantAttrHelper::getNameStr());
  if (!values)
    return std::nullopt;
  TensorOf<Domain> tensor(values.getType().getShape());
  auto it = values.getValues<APFloat>().begin();
  for (auto &value : tensor.values())
    value = domain.constant(*it++);
  return tensor;
}

/// Whether the caller gives argument `index` of `func`: it has no
/// `tileopt.constant` values.
inline bool isCallerArgument(func::FuncOp func, unsigned index) {
  return !func.getArgAttr(index, TileOptDialect::ConstantAttrHelper::getNameStr());
}

/// One tensor per argument of `func`: `given` (one per argument the caller
/// gives, in order) with the constant arguments' values in their places.
/// The verifier gives every argument instead (a µGraph equal to the
/// program for any input is equal for the constants too); tools that run a
/// program as its users would give only what the caller gives.
template <typename Domain>
FailureOr<SmallVector<TensorOf<Domain>>>
withConstantArguments(func::FuncOp func, ArrayRef<TensorOf<Domain>> given,
                      Domain &domain) {
  SmallVector<TensorOf<Domain>> all;
  size_t next = 0;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    if (std::optional<TensorOf<Domain>> constant =
            constantArgument(func, i, domain)) {
      all.push_back(std::move(*constant));
      continue;
    }
    if (next == given.size())
      return func.emitOpError("takes more inputs than the ")
             << given.size() << " given";
    all.push_back(given[next++]);
  }
  if (next != given.size())
    return func.emitOpError("takes ")
           << next << " inputs besides its constants, got " << given.size();
  return all;
}

} // namespace mlir::tileopt::interp

#endif // TILEOPT_INTERPRETER_INTERPRETER_H
