//===- Verifier.h - Probabilistic equivalence of kernel graphs --*- C++ -*-===//
//
// Decides whether two functions with one signature compute the same function,
// the way Mirage does: random tests over the finite field Z_p x Z_q (exact
// arithmetic, exp through a q-th root of unity), repeated until the chance
// that two different functions pass every test is below a target bound; then
// float64 tests as a second filter for numerical stability. Both run on
// reduced instances (Shrink.h). docs/verifier.md states the guarantee and
// what it assumes.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_VERIFIER_VERIFIER_H
#define TILEOPT_VERIFIER_VERIFIER_H

#include "TileOpt/Verifier/Shrink.h"

#include <string>

namespace mlir::tileopt::verifier {

struct VerifierOptions {
  /// Field trials are repeated until the probability that two different
  /// functions pass them all is at most this.
  double targetBound = 1e-9;
  /// More trials than this needed to reach the target is an error.
  unsigned maxFieldTrials = 16;
  /// Float64 trials, and how close their results must be:
  /// |x - y| <= absTolerance + relTolerance * max(|x|, |y|).
  unsigned floatTrials = 1;
  double relTolerance = 1e-6;
  double absTolerance = 1e-9;
  /// Draws the inputs and the field's uninterpreted functions.
  uint64_t seed = 0;
  /// Test reduced instances (the default) or the functions as they are.
  bool shrink = true;
  ShrinkOptions shrinkOptions;
};

struct VerificationResult {
  bool equivalent = false;
  /// When equivalent: an upper bound on the probability that the functions
  /// differ and yet passed every field trial.
  double falseAcceptBound = 1;
  /// Per-trial bound from the degrees, and the trials run.
  double trialBound = 1;
  unsigned fieldTrials = 0;
  /// When not equivalent: which test told them apart, and where.
  std::string explanation;
};

/// Compares `a` and `b`. Fails, with a diagnostic at the op responsible, on
/// signatures that differ, ops the interpreter or the field domain cannot
/// model, shapes that cannot be shrunk, or a target bound it cannot reach:
/// never a silent "equivalent".
FailureOr<VerificationResult>
checkEquivalence(func::FuncOp a, func::FuncOp b,
                 const VerifierOptions &options = {});

} // namespace mlir::tileopt::verifier

#endif // TILEOPT_VERIFIER_VERIFIER_H
