//===- Verifier.cpp - Probabilistic equivalence of kernel graphs ----------===//
#include "TileOpt/Verifier/Verifier.h"

#include "TileOpt/Interpreter/Interpreter.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::interp;
using namespace mlir::tileopt::verifier;

namespace {

/// The seed of trial `i`: a SplitMix64 step, so nearby seeds draw unrelated
/// inputs.
uint64_t trialSeed(uint64_t seed, uint64_t i) {
  return SplitMix64::mix(seed + SplitMix64::kGolden * (i + 1));
}

std::string indexString(ArrayRef<int64_t> shape, int64_t flat) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(index, os);
  os << "]";
  return s;
}

/// The first element where `x` and `y` differ under `same`, described.
template <typename T, typename Same>
std::optional<std::string> firstDifference(ArrayRef<Tensor<T>> x,
                                           ArrayRef<Tensor<T>> y, Same same) {
  for (auto [i, a, b] : llvm::enumerate(x, y))
    for (int64_t e = 0; e < a.size(); ++e)
      if (!same(a[e], b[e]))
        return "result #" + std::to_string(i) + " differs at " +
               indexString(a.getShape(), e);
  return std::nullopt;
}

template <typename Domain>
struct Run {
  Domain domain;
  SmallVector<TensorOf<Domain>> a, b;
};

/// Runs `a` and `b` on the same random inputs in `domain`.
template <typename Domain>
FailureOr<Run<Domain>> runBoth(func::FuncOp a, func::FuncOp b, Domain domain,
                               uint64_t seed) {
  SplitMix64 rng(seed);
  FailureOr<SmallVector<TensorOf<Domain>>> inputs = randomInputs(a, domain, rng);
  if (failed(inputs))
    return failure();
  auto ra = interpret<Domain>(a, *inputs, domain);
  if (failed(ra))
    return failure();
  auto rb = interpret<Domain>(b, *inputs, domain);
  if (failed(rb))
    return failure();
  return Run<Domain>{std::move(domain), std::move(*ra), std::move(*rb)};
}

/// Diagnostics held back while a field trial runs: a zero divisor is an
/// accident of the draw, retried with another; anything else is reported.
class HeldDiagnostics {
public:
  explicit HeldDiagnostics(MLIRContext *ctx)
      : handler(ctx, [this](Diagnostic &diag) {
          held.push_back({diag.getLocation(), diag.str()});
          return success();
        }) {}
  bool onlyZeroDivisors() const {
    return llvm::all_of(held, [](const auto &d) {
      return StringRef(d.second).contains("division by zero");
    });
  }
  void clear() { held.clear(); }
  std::vector<std::pair<Location, std::string>> take() {
    return std::move(held);
  }

private:
  std::vector<std::pair<Location, std::string>> held;
  ScopedDiagnosticHandler handler;
};

/// One field trial; redraws when a divisor happens to be zero.
FailureOr<Run<FieldDomain>> fieldTrial(func::FuncOp a, func::FuncOp b,
                                       uint64_t seed) {
  constexpr unsigned kDraws = 4;
  std::vector<std::pair<Location, std::string>> errors;
  {
    HeldDiagnostics held(a.getContext());
    for (unsigned draw = 0; draw < kDraws; ++draw) {
      held.clear();
      uint64_t drawSeed = trialSeed(seed, draw);
      FailureOr<Run<FieldDomain>> run =
          runBoth(a, b, FieldDomain(drawSeed), drawSeed);
      if (succeeded(run))
        return run;
      if (!held.onlyZeroDivisors())
        break;
    }
    errors = held.take();
  }
  for (auto &[loc, message] : errors)
    emitError(loc) << message;
  if (!errors.empty() && StringRef(errors.back().second).contains("by zero"))
    emitError(a.getLoc()) << "every draw of the field trial divided by zero: "
                             "a divisor is identically zero";
  return failure();
}

/// The per-trial false-accept bound: d/p + d'/q, with d the degree of the
/// identity N_a D_b - N_b D_a of the results and d' the largest degree of an
/// argument of exp or of an uninterpreted function.
FailureOr<double> trialBound(func::FuncOp a, func::FuncOp b) {
  FailureOr<Run<DegreeDomain>> run = runBoth(a, b, DegreeDomain(), 0);
  if (failed(run))
    return failure();
  double d = 0;
  for (auto [x, y] : llvm::zip(run->a, run->b))
    for (int64_t e = 0; e < x.size(); ++e)
      d = std::max({d, x[e].num + y[e].den, y[e].num + x[e].den});
  return d / FieldDomain::P +
         run->domain.getMaxArgumentDegree() / FieldDomain::Q;
}

bool closeEnough(double x, double y, const VerifierOptions &options) {
  if (std::isnan(x) || std::isnan(y))
    return std::isnan(x) && std::isnan(y);
  if (x == y)
    return true; // also equal infinities
  return std::fabs(x - y) <= options.absTolerance +
                                 options.relTolerance *
                                     std::max(std::fabs(x), std::fabs(y));
}

/// Runs the field trials; sets the verdict's trial fields, and the
/// explanation when a trial tells the functions apart.
LogicalResult fieldTrials(func::FuncOp a, func::FuncOp b,
                          const VerifierOptions &options,
                          VerificationResult &result) {
  FailureOr<double> bound = trialBound(a, b);
  if (failed(bound))
    return failure();
  double epsilon = *bound;
  result.trialBound = epsilon;
  unsigned needed =
      epsilon <= 0 ? 1
                   : std::max(1.0, std::ceil(std::log(options.targetBound) /
                                             std::log(epsilon)));
  if (epsilon >= 1 || needed > options.maxFieldTrials)
    return a.emitOpError("needs more than ")
           << options.maxFieldTrials << " field trials to bound a false "
           << "accept by " << options.targetBound << " (per-trial bound "
           << epsilon << " from the degrees)";

  for (unsigned t = 0; t < needed; ++t) {
    FailureOr<Run<FieldDomain>> run =
        fieldTrial(a, b, trialSeed(options.seed, t));
    if (failed(run))
      return failure();
    ++result.fieldTrials;
    if (auto difference = firstDifference<FieldElement>(
            run->a, run->b,
            [](FieldElement x, FieldElement y) { return x.sameValue(y); })) {
      result.explanation =
          "field trial " + std::to_string(t) + ": " + *difference;
      return success();
    }
  }
  result.falseAcceptBound = std::pow(epsilon, result.fieldTrials);
  return success();
}

} // namespace

FailureOr<VerificationResult>
verifier::checkEquivalence(func::FuncOp a, func::FuncOp b,
                           const VerifierOptions &options) {
  if (a.getFunctionType() != b.getFunctionType())
    return b.emitOpError("has signature ")
           << b.getFunctionType() << " but @" << a.getSymName() << " has "
           << a.getFunctionType() << ": only functions of one signature can "
           << "be equivalent";

  OwningOpRef<ModuleOp> scratch = ModuleOp::create(a.getLoc());
  if (options.shrink) {
    FailureOr<SmallVector<func::FuncOp>> shrunk =
        shrink({a, b}, *scratch, options.shrinkOptions);
    if (failed(shrunk))
      return failure();
    a = (*shrunk)[0];
    b = (*shrunk)[1];
  }

  VerificationResult result;
  if (failed(fieldTrials(a, b, options, result)))
    return failure();
  if (!result.explanation.empty())
    return result;

  for (unsigned t = 0; t < options.floatTrials; ++t) {
    FailureOr<Run<F64Domain>> run =
        runBoth(a, b, F64Domain(), trialSeed(~options.seed, t));
    if (failed(run))
      return failure();
    if (std::optional<std::string> difference = firstDifference<double>(
            run->a, run->b,
            [&](double x, double y) { return closeEnough(x, y, options); })) {
      result.explanation = "float64 trial " + std::to_string(t) + ": " +
                           *difference + " beyond the tolerance";
      return result;
    }
  }
  result.equivalent = true;
  return result;
}
