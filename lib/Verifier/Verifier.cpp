//===- Verifier.cpp - Probabilistic equivalence of kernel graphs ----------===//
#include "TileOpt/Verifier/Verifier.h"

#include "TileOpt/Dialect/Common/ThreadDiagnostics.h"
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Interpreter/Interpreter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <map>
#include <tuple>

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

} // namespace

/// The reference's side of every trial on one reduced instance of it.
struct EquivalenceChecker::ReducedReference {
  /// The trial inputs of one seed, the reference's results on them, and the
  /// domain as the reference's run left it (the degree domain's largest
  /// argument degree so far): the candidate runs on a copy of that domain,
  /// exactly as if both had run one after the other in one domain.
  template <typename Domain>
  struct Run {
    Domain domain;
    SmallVector<TensorOf<Domain>> inputs, results;
  };
  /// Keyed by seed: every caller derives the domain from the seed alone.
  template <typename Domain>
  using Runs = std::map<uint64_t, Run<Domain>>;

  OwningOpRef<func::FuncOp> func;
  std::tuple<Runs<DegreeDomain>, Runs<FieldDomain>, Runs<F64Domain>> runs;
};

namespace {

using ReducedReference = EquivalenceChecker::ReducedReference;

/// The reference's and the candidate's results on the same inputs.
template <typename Domain>
struct Trial {
  /// After both runs.
  Domain domain;
  ArrayRef<TensorOf<Domain>> reference;
  SmallVector<TensorOf<Domain>> candidate;
};

/// Runs `candidate` on the random inputs of `seed` in `domain`, and the
/// reference too unless `reference` already holds its run for that seed.
/// A failed reference run is not kept: its diagnostics belong to the check
/// that hit it, and the next check reports them again.
template <typename Domain>
FailureOr<Trial<Domain>> runTrial(ReducedReference &reference,
                                  func::FuncOp candidate, Domain domain,
                                  uint64_t seed) {
  auto &runs = std::get<ReducedReference::Runs<Domain>>(reference.runs);
  auto it = runs.find(seed);
  if (it == runs.end()) {
    SplitMix64 rng(seed);
    FailureOr<SmallVector<TensorOf<Domain>>> inputs =
        randomInputs(*reference.func, domain, rng);
    if (failed(inputs))
      return failure();
    auto results = interpret<Domain>(*reference.func, *inputs, domain);
    if (failed(results))
      return failure();
    it = runs.try_emplace(seed, ReducedReference::Run<Domain>{
                                    domain, std::move(*inputs),
                                    std::move(*results)})
             .first;
  }
  Trial<Domain> trial{it->second.domain, it->second.results, {}};
  auto results = interpret<Domain>(candidate, it->second.inputs, trial.domain);
  if (failed(results))
    return failure();
  trial.candidate = std::move(*results);
  return trial;
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
  ThreadDiagnosticHandler handler;
};

/// One field trial; redraws when a divisor happens to be zero.
FailureOr<Trial<FieldDomain>> fieldTrial(ReducedReference &reference,
                                         func::FuncOp candidate,
                                         uint64_t seed) {
  constexpr unsigned kDraws = 4;
  std::vector<std::pair<Location, std::string>> errors;
  {
    HeldDiagnostics held(candidate.getContext());
    for (unsigned draw = 0; draw < kDraws; ++draw) {
      held.clear();
      uint64_t drawSeed = trialSeed(seed, draw);
      FailureOr<Trial<FieldDomain>> trial =
          runTrial(reference, candidate, FieldDomain(drawSeed), drawSeed);
      if (succeeded(trial))
        return trial;
      if (!held.onlyZeroDivisors())
        break;
    }
    errors = held.take();
  }
  for (auto &[loc, message] : errors)
    emitError(loc) << message;
  if (!errors.empty() && StringRef(errors.back().second).contains("by zero"))
    emitError(reference.func->getLoc())
        << "every draw of the field trial divided by zero: a divisor is "
           "identically zero";
  return failure();
}

/// The per-trial false-accept bound: d/p + d'/q, with d the degree of the
/// identity N_a D_b - N_b D_a of the results and d' the largest degree of an
/// argument of exp or of an uninterpreted function.
FailureOr<double> trialBound(ReducedReference &reference,
                             func::FuncOp candidate) {
  FailureOr<Trial<DegreeDomain>> trial =
      runTrial(reference, candidate, DegreeDomain(), 0);
  if (failed(trial))
    return failure();
  double d = 0;
  for (auto [x, y] : llvm::zip(trial->reference, trial->candidate))
    for (int64_t e = 0; e < x.size(); ++e)
      d = std::max({d, x[e].num + y[e].den, y[e].num + x[e].den});
  return d / FieldDomain::P +
         trial->domain.getMaxArgumentDegree() / FieldDomain::Q;
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
LogicalResult fieldTrials(ReducedReference &reference, func::FuncOp candidate,
                          const VerifierOptions &options,
                          VerificationResult &result) {
  FailureOr<double> bound = trialBound(reference, candidate);
  if (failed(bound))
    return failure();
  double epsilon = *bound;
  result.trialBound = epsilon;
  unsigned needed =
      epsilon <= 0 ? 1
                   : std::max(1.0, std::ceil(std::log(options.targetBound) /
                                             std::log(epsilon)));
  if (epsilon >= 1 || needed > options.maxFieldTrials)
    return reference.func->emitOpError("needs more than ")
           << options.maxFieldTrials << " field trials to bound a false "
           << "accept by " << options.targetBound << " (per-trial bound "
           << epsilon << " from the degrees)";

  for (unsigned t = 0; t < needed; ++t) {
    FailureOr<Trial<FieldDomain>> trial =
        fieldTrial(reference, candidate, trialSeed(options.seed, t));
    if (failed(trial))
      return failure();
    ++result.fieldTrials;
    if (auto difference = firstDifference<FieldElement>(
            trial->reference, trial->candidate,
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

EquivalenceChecker::EquivalenceChecker(func::FuncOp reference,
                                       const VerifierOptions &options)
    : reference(reference), options(options) {}

EquivalenceChecker::~EquivalenceChecker() = default;

EquivalenceChecker::ReducedReference &
EquivalenceChecker::lookupOrAdd(func::FuncOp reducedReference) {
  // Equal IR (names, types, attributes, region by region) runs the same on
  // the same inputs; locations only place diagnostics.
  for (const std::unique_ptr<ReducedReference> &kept : reduced)
    if (OperationEquivalence::isEquivalentTo(
            *kept->func, reducedReference,
            OperationEquivalence::IgnoreLocations))
      return *kept;
  reduced.push_back(std::make_unique<ReducedReference>());
  reduced.back()->func = reducedReference.clone();
  return *reduced.back();
}

FailureOr<VerificationResult>
EquivalenceChecker::check(func::FuncOp candidate) {
  if (reference.getFunctionType() != candidate.getFunctionType())
    return candidate.emitOpError("has signature ")
           << candidate.getFunctionType() << " but @" << reference.getSymName()
           << " has " << reference.getFunctionType()
           << ": only functions of one signature can be equivalent";
  FunctionType type = candidate.getFunctionType();
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults()))
    if (auto tensor = dyn_cast<RankedTensorType>(t);
        !tensor || !tensor.hasStaticShape())
      return candidate.emitOpError("takes or returns ")
             << t
             << ": the verifier compares functions of statically "
                "shaped tensors only";

  OwningOpRef<ModuleOp> scratch = ModuleOp::create(candidate.getLoc());
  func::FuncOp reducedReference = reference;
  if (options.shrink) {
    FailureOr<SmallVector<func::FuncOp>> shrunk =
        shrink({reference, candidate}, *scratch, options.shrinkOptions);
    if (failed(shrunk))
      return failure();
    reducedReference = (*shrunk)[0];
    candidate = (*shrunk)[1];
  }
  for (func::FuncOp f : {reducedReference, candidate})
    if (int64_t work = estimatedWork(f); work > options.maxWork)
      return f.emitOpError("needs about ")
             << work << " element operations per trial"
             << (options.shrink ? " on its reduced instance" : "")
             << ", more than the verifier's limit of " << options.maxWork
             << " (its grid and loop divisions keep it large)";
  ReducedReference &kept = lookupOrAdd(reducedReference);

  VerificationResult result;
  if (failed(fieldTrials(kept, candidate, options, result)))
    return failure();
  if (!result.explanation.empty())
    return result;

  for (unsigned t = 0; t < options.floatTrials; ++t) {
    FailureOr<Trial<F64Domain>> trial =
        runTrial(kept, candidate, F64Domain(), trialSeed(~options.seed, t));
    if (failed(trial))
      return failure();
    if (std::optional<std::string> difference = firstDifference<double>(
            trial->reference, trial->candidate,
            [&](double x, double y) { return closeEnough(x, y, options); })) {
      result.explanation = "float64 trial " + std::to_string(t) + ": " +
                           *difference + " beyond the tolerance";
      return result;
    }
  }
  result.equivalent = true;
  return result;
}

int64_t verifier::estimatedWork(func::FuncOp func) {
  auto saturatingMul = [](int64_t a, int64_t b) {
    int64_t product;
    return llvm::MulOverflow(a, b, product) ? INT64_MAX : product;
  };
  auto saturatingAdd = [](int64_t a, int64_t b) {
    int64_t sum;
    return llvm::AddOverflow(a, b, sum) ? INT64_MAX : sum;
  };
  int64_t work = 0;
  func.walk([&](Operation *op) {
    int64_t repeat = 1;
    auto fused = op->getParentOfType<tk::FusedOp>();
    // A saver writes its tile, counted where it was computed.
    if (fused && isa<tb::OutputSaverOp>(op))
      return;
    if (fused) {
      for (int64_t blocks : fused.getGridDims())
        repeat = saturatingMul(repeat, blocks);
      repeat = saturatingMul(repeat, fused.getForloopRange());
    }
    for (Type type : op->getResultTypes()) {
      auto shaped = dyn_cast<ShapedType>(type);
      if (!shaped || !shaped.hasStaticShape())
        continue;
      int64_t elements = shaped.getNumElements();
      if (isa<tk::MatmulOp, tb::MatmulOp>(op))
        elements = saturatingMul(
            elements,
            cast<ShapedType>(op->getOperand(0).getType()).getShape().back());
      work = saturatingAdd(work, saturatingMul(elements, repeat));
    }
  });
  return work;
}

FailureOr<VerificationResult>
verifier::checkEquivalence(func::FuncOp a, func::FuncOp b,
                           const VerifierOptions &options) {
  return EquivalenceChecker(a, options).check(b);
}
