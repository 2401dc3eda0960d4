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

#include <memory>
#include <string>
#include <vector>

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
  /// The most element operations a trial of either reduced function may
  /// take (`estimatedWork`): a candidate whose partition keeps its reduced
  /// instance larger is refused, since testing it would take minutes (a
  /// grid of 512 blocks keeps a dim at 1024 or more, and a matmul of three
  /// such dims is 10^9 multiply-adds per trial).
  int64_t maxWork = int64_t(1) << 28;
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

/// Checks candidates against one reference program, the way the search uses
/// the verifier: many candidates, one input program. The reference's side of
/// every trial — the trial inputs, its degree run, its field and float64
/// results — is computed the first time a check needs it and kept, so a
/// check only interprets the candidate. Interpretation is deterministic, so
/// a kept result is exactly what running the reference again would give:
/// verdicts, bounds and explanations are those of `checkEquivalence`.
///
/// What is kept depends on the reduced instance of the reference, which
/// depends on the candidate too (the two are shrunk together; Shrink.h):
/// one entry per distinct reduced reference, told apart by structural
/// equivalence of the IR. Candidates of one partition share an entry; each
/// new partition pays for the reference's runs once.
class EquivalenceChecker {
public:
  explicit EquivalenceChecker(func::FuncOp reference,
                              const VerifierOptions &options = {});
  ~EquivalenceChecker();
  EquivalenceChecker(const EquivalenceChecker &) = delete;
  EquivalenceChecker &operator=(const EquivalenceChecker &) = delete;

  /// Compares `candidate` with the reference. Fails, with a diagnostic at
  /// the op responsible, on signatures that differ, ops the interpreter or
  /// the field domain cannot model, shapes that cannot be shrunk, or a target
  /// bound it cannot reach: never a silent "equivalent".
  FailureOr<VerificationResult> check(func::FuncOp candidate);

  /// Distinct reduced references kept so far.
  size_t getNumReducedReferences() const { return reduced.size(); }

  /// What is kept per reduced reference (defined in Verifier.cpp).
  struct ReducedReference;

private:
  /// The kept entry for `reducedReference` (a clone the checker may take
  /// over), created if new.
  ReducedReference &lookupOrAdd(func::FuncOp reducedReference);

  func::FuncOp reference;
  VerifierOptions options;
  std::vector<std::unique_ptr<ReducedReference>> reduced;
};

/// The element operations one interpretation of `func` takes, roughly:
/// every value's elements (a matmul's times its contracted extent), those
/// of a block graph's values times the blocks and loop iterations that
/// compute them. Saturates at INT64_MAX.
int64_t estimatedWork(func::FuncOp func);

/// Compares `a` (the reference) and `b` once: a fresh EquivalenceChecker.
FailureOr<VerificationResult>
checkEquivalence(func::FuncOp a, func::FuncOp b,
                 const VerifierOptions &options = {});

} // namespace mlir::tileopt::verifier

#endif // TILEOPT_VERIFIER_VERIFIER_H
