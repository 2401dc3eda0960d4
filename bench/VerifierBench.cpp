//===- VerifierBench.cpp - Cost of one equivalence check ------------------===//
//
// Verification is the superoptimizer's inner loop: every candidate µGraph
// that survives pruning is checked against the input program. This measures
// one check of benchmark-sized candidates (BENCHMARKS.md shapes) against
// their reference, reduced instances included: end to end (a fresh
// checkEquivalence: the reference runs too), and as the search checks them
// (BM_CheckCandidate*: an EquivalenceChecker prepared on the reference, whose
// runs of the reference on this reduced instance are kept from a first check,
// so a check interprets only the candidate). docs/performance.md records the
// figures.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Verifier/Verifier.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include <benchmark/benchmark.h>

using namespace mlir;
using namespace mlir::tileopt;

namespace {

struct Workload {
  Workload() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry.insert<func::FuncDialect, arith::ArithDialect, math::MathDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    std::string text;
    for (const char *path : {"examples/ugraph/rmsnorm_linear.mlir",
                             "test/Interpreter/rmsnorm-linear.mlir",
                             "test/Interpreter/equivalence.mlir"})
      text += (*llvm::MemoryBuffer::getFile(std::string(TILEOPT_SOURCE_DIR) +
                                            "/" + path))
                  ->getBuffer()
                  .str();
    module = parseSourceString<ModuleOp>(text, &context);
  }
  func::FuncOp get(StringRef name) {
    return module->lookupSymbol<func::FuncOp>(name);
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

Workload &workload() {
  static Workload w;
  return w;
}

void verifyPair(benchmark::State &state, StringRef candidate,
                StringRef reference) {
  func::FuncOp c = workload().get(candidate), r = workload().get(reference);
  for (auto _ : state) {
    auto result = verifier::checkEquivalence(r, c);
    if (failed(result) || !result->equivalent)
      state.SkipWithError("not verified equivalent");
    benchmark::DoNotOptimize(result);
  }
}

/// One check of `candidate` against a checker prepared on `reference`: the
/// search's steady state, where the reference's runs on this partition's
/// reduced instance were kept by an earlier candidate.
void checkCandidate(benchmark::State &state, StringRef candidate,
                    StringRef reference) {
  func::FuncOp c = workload().get(candidate);
  verifier::EquivalenceChecker checker(workload().get(reference));
  if (failed(checker.check(c)))
    state.SkipWithError("the first check failed");
  for (auto _ : state) {
    auto result = checker.check(c);
    if (failed(result) || !result->equivalent)
      state.SkipWithError("not verified equivalent");
    benchmark::DoNotOptimize(result);
  }
}

/// rms_norm(X) @ W, X: 16x4096, W: 4096x6144, fused (48 blocks, 64
/// iterations) against tk.rms_norm + tk.matmul.
void BM_VerifyRmsNormLinear(benchmark::State &state) {
  verifyPair(state, "rmsnorm_linear", "reference");
}
BENCHMARK(BM_VerifyRmsNormLinear)->Unit(benchmark::kMicrosecond);

/// softmax(S) @ V with online softmax (sum_rescale) against tk ops.
void BM_VerifyOnlineAttention(benchmark::State &state) {
  verifyPair(state, "attention_online", "attention_reference");
}
BENCHMARK(BM_VerifyOnlineAttention)->Unit(benchmark::kMicrosecond);

void BM_CheckCandidateRmsNormLinear(benchmark::State &state) {
  checkCandidate(state, "rmsnorm_linear", "reference");
}
BENCHMARK(BM_CheckCandidateRmsNormLinear)->Unit(benchmark::kMicrosecond);

void BM_CheckCandidateOnlineAttention(benchmark::State &state) {
  checkCandidate(state, "attention_online", "attention_reference");
}
BENCHMARK(BM_CheckCandidateOnlineAttention)->Unit(benchmark::kMicrosecond);

/// The shrinking rewrite alone.
void BM_ShrinkRmsNormLinear(benchmark::State &state) {
  func::FuncOp a = workload().get("rmsnorm_linear"), b = workload().get("reference");
  for (auto _ : state) {
    OwningOpRef<ModuleOp> scratch = ModuleOp::create(a.getLoc());
    benchmark::DoNotOptimize(verifier::shrink({a, b}, *scratch));
  }
}
BENCHMARK(BM_ShrinkRmsNormLinear)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
