//===- Search.cpp - The superoptimizer's driver ---------------------------===//
//
// Models the program (abstract expressions and axes), enumerates candidate
// kernel graphs, costs every complete one, then verifies them cheapest first
// until `keep` are proven equivalent: every graph the search returns has
// passed the verifier.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Superopt/Search.h"

#include "KernelSearch.h"
#include "Materialize.h"
#include "ProgramModel.h"
#include "Segments.h"
#include "TileOpt/Dialect/Common/ThreadDiagnostics.h"
#include "TileOpt/Superopt/AbsorbProducers.h"
#include "TileOpt/Superopt/Abstraction.h"
#include "TileOpt/Superopt/Compilation.h"
#include "TileOpt/Superopt/MergeBatchRows.h"
#include "TileOpt/Superopt/Reassociate.h"
#include "TileOpt/Verifier/Verifier.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"

#include <condition_variable>
#include <limits>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

#define DEBUG_TYPE "tileopt-superoptimize"

// SearchStatistics' counts, summed over the functions a run searches, for
// `-stats` (docs/superoptimizer.md says what shows them). Always enabled:
// in TileOpt's Release builds (NDEBUG) against Debian's LLVM 22
// (LLVM_FORCE_ENABLE_STATS off) STATISTIC counts nothing.
ALWAYS_ENABLED_STATISTIC(NumFunctionsSearched, "Functions searched");
ALWAYS_ENABLED_STATISTIC(NumExplored,
                         "Partial graphs built (kernel and block level)");
ALWAYS_ENABLED_STATISTIC(NumPruned,
                         "Partial graphs dropped by the abstract check");
ALWAYS_ENABLED_STATISTIC(NumComplete,
                         "Graphs whose outputs match the program's terms");
ALWAYS_ENABLED_STATISTIC(NumVerified, "Candidates the verifier ran on");
ALWAYS_ENABLED_STATISTIC(NumEquivalent,
                         "Candidates the verifier found equivalent");
ALWAYS_ENABLED_STATISTIC(NumNotCompiled,
                         "Equivalent candidates the compile check turned down");
ALWAYS_ENABLED_STATISTIC(NumBudgetExhausted,
                         "Functions whose search a budget stopped");

std::string superopt::canonicalText(func::FuncOp func) {
  OpBuilder b(func.getContext());
  auto clone = cast<func::FuncOp>(b.clone(*func));
  clone.setSymName("program");
  // The names a front end gave the arguments do not change the program.
  clone.setAllArgAttrs(ArrayRef<DictionaryAttr>{});
  clone.setAllResultAttrs(ArrayRef<DictionaryAttr>{});
  std::string text;
  llvm::raw_string_ostream os(text);
  clone.print(os, OpPrintingFlags().printGenericOpForm().enableDebugInfo(
                      /*enable=*/false));
  clone.erase();
  return text;
}

std::string superopt::candidateKey(func::FuncOp func) {
  return llvm::utohexstr(llvm::xxh3_64bits(canonicalText(func)),
                         /*LowerCase=*/true, /*Width=*/16);
}

unsigned
superopt::rankByMeasurement(SearchResult &result,
                            const llvm::StringMap<double> &secondsByKey) {
  unsigned measured = 0;
  for (RankedCandidate &c : result.ranked) {
    auto it = secondsByKey.find(candidateKey(c.function));
    if (it == secondsByKey.end())
      continue;
    c.measuredSeconds = it->second;
    ++measured;
  }
  // Stable: unmeasured candidates keep the cost model's order behind the
  // measured ones.
  llvm::stable_sort(
      result.ranked, [](const RankedCandidate &x, const RankedCandidate &y) {
        if (x.measuredSeconds.has_value() != y.measuredSeconds.has_value())
          return x.measuredSeconds.has_value();
        return x.measuredSeconds && *x.measuredSeconds < *y.measuredSeconds;
      });
  return measured;
}

void SearchStatistics::print(raw_ostream &os) const {
  os << "explored " << explored << ", pruned " << pruned << ", complete "
     << complete << ", verified " << verified << ", equivalent " << equivalent
     << ", not compiled " << uncompiled << ", " << llvm::format("%.2f", seconds)
     << " s" << (budgetExhausted ? " (budget exhausted)" : "");
}

namespace {

/// A complete kernel graph with one block graph chosen per fused kernel.
struct Candidate {
  std::shared_ptr<const KernelGraph> graph;
  SmallVector<size_t, 2> choices;
  /// ProgramCost's ordering keys (ProgramCost::cheaperThan).
  double seconds, serialSeconds;
  uint64_t order; // enumeration order, the last tie-break
};

/// Runs `fn` with the diagnostics it emits on this thread dropped.
template <typename Fn> auto quietly(MLIRContext *context, Fn &&fn) {
  ThreadDiagnosticHandler handler(context,
                                  [](Diagnostic &) { return success(); });
  return fn();
}

/// With the `progress` option, prints the counts of a running search and
/// the cheapest price so far on stderr about once a second, from a thread
/// of its own, until it is stopped (or destroyed).
class ProgressReporter {
public:
  ProgressReporter(const SearchProgress &progress, bool enabled)
      : progress(progress) {
    if (enabled)
      reporter = std::thread([this] { report(); });
  }
  ~ProgressReporter() { stop(); }

  /// Notes a candidate priced `seconds` (called by the search's workers).
  void priced(double seconds) {
    std::lock_guard<std::mutex> lock(mutex);
    bestSeconds = std::min(bestSeconds, seconds);
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      finished = true;
    }
    done.notify_all();
    if (reporter.joinable())
      reporter.join();
  }

private:
  void report() {
    std::unique_lock<std::mutex> lock(mutex);
    while (
        !done.wait_for(lock, std::chrono::seconds(1), [&] { return finished; }))
      llvm::errs() << "[superopt] explored " << progress.explored.load()
                   << ", pruned " << progress.pruned.load() << ", complete "
                   << progress.complete.load() << ", best "
                   << llvm::format("%.2f", bestSeconds * 1e6) << " us\n";
  }

  const SearchProgress &progress;
  std::mutex mutex;
  std::condition_variable done;
  bool finished = false;
  double bestSeconds = std::numeric_limits<double>::infinity();
  std::thread reporter;
};

} // namespace

/// Adds the counts of a function's search to the statistics (`-stats`).
static void recordStatistics(const SearchStatistics &stats) {
  ++NumFunctionsSearched;
  NumExplored += stats.explored;
  NumPruned += stats.pruned;
  NumComplete += stats.complete;
  NumVerified += stats.verified;
  NumEquivalent += stats.equivalent;
  NumNotCompiled += stats.uncompiled;
  if (stats.budgetExhausted)
    ++NumBudgetExhausted;
}

/// Why the verifier cannot check `program` (it is checked against itself),
/// or nothing. Every candidate must pass the verifier, so a program it
/// cannot check (docs/verifier.md: an exp of a value that already depends
/// on one, as in silu(exp(x)); a reshape that merges dims) gets no search,
/// instead of one whose every candidate is then rejected.
static std::optional<std::string>
whyUnverifiable(func::FuncOp program, verifier::EquivalenceChecker &checker) {
  std::string reason;
  ThreadDiagnosticHandler handler(program.getContext(),
                                  [&](Diagnostic &diagnostic) {
                                    if (reason.empty())
                                      reason = diagnostic.str();
                                    return success();
                                  });
  FailureOr<verifier::VerificationResult> self = checker.check(program);
  if (failed(self))
    return reason;
  if (!self->equivalent)
    return self->explanation;
  return std::nullopt;
}

/// Candidates a search turns down as not compiled before it gives up the
/// rest: compiling one takes up to a second, and where the code generator
/// refuses the cheapest forms (tiles that are not powers of two) it tends
/// to refuse the next thousand as well.
constexpr uint64_t kMaxUncompiledCandidates = 24;

/// Kept producers up to which every subset of them is offered moved into
/// the kernels that read them (2^n - 1 candidates); beyond, all of them
/// and each alone.
constexpr unsigned kMaxAbsorbedSubsetProducers = 3;

/// Moves `choices` to the next combination of one block graph per fused
/// kernel (`sizes[i]` graphs for the i-th), the first choice fastest;
/// false after the last.
static bool nextCombination(MutableArrayRef<size_t> choices,
                            ArrayRef<size_t> sizes) {
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (++choices[i] < sizes[i])
      return true;
    choices[i] = 0;
  }
  return false;
}

/// Step 1 of a search: enumerates the kernel graphs of `program` (modeled
/// as `info`) and prices each combination of their fused kernels' block
/// graphs, until the enumeration ends or a budget stops it.
static std::vector<Candidate> enumerateAndPrice(
    func::FuncOp program, const ProgramInfo &info, ExprContext &ctx,
    const SearchOptions &opts, SearchProgress &progress,
    PredefinedCostMemo &predefinedPrices, ProgressReporter &reporter) {
  MLIRContext *context = program.getContext();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(UnknownLoc::get(context));
  FunctionType type = program.getFunctionType();
  std::vector<Candidate> candidates;
  uint64_t order = 0;
  auto costOf = [&](func::FuncOp f) -> FailureOr<ProgramCost> {
    return quietly(context, [&] {
      return estimateCost(f, opts.target, &predefinedPrices);
    });
  };
  enumerateKernelGraphs(ctx, info, opts, progress, [&](const KernelGraph &g) {
    auto shared = std::make_shared<const KernelGraph>(g);
    // Every combination of block graphs of the fused kernels.
    SmallVector<size_t, 2> sizes, choices;
    for (const KernelOp &op : g.ops)
      if (op.graphs)
        sizes.push_back(op.graphs->size());
    choices.assign(sizes.size(), 0);
    // The combinations multiply (a few fused kernels of many block graphs
    // each): each is priced, so the time budget is checked per combination.
    do {
      if (progress.expired())
        break;
      func::FuncOp f = materialize(scratch.get(), "candidate", type, g, choices,
                                   info, opts.blockThreads);
      if (FailureOr<ProgramCost> cost = costOf(f); succeeded(cost)) {
        candidates.push_back(
            {shared, choices, cost->seconds, cost->serialSeconds, order++});
        reporter.priced(cost->seconds);
      }
      f.erase();
    } while (nextCombination(choices, sizes));
  });
  return candidates;
}

namespace {

/// Candidates being ranked into a SearchResult: each µGraph once (by
/// candidateKey), priced by the cost model, verified against the program
/// (unless it stands verified) and compiled (`compiler`, unless the
/// options skip it).
class CandidateRanking {
public:
  CandidateRanking(SearchResult &result, verifier::EquivalenceChecker &checker,
                   const SearchOptions &opts, CandidateCompiler *compiler,
                   MLIRContext *context)
      : result(result), checker(checker), opts(opts), compiler(compiler),
        context(context) {
    for (const RankedCandidate &c : result.ranked)
      known.insert(candidateKey(c.function));
  }

  /// A priced candidate; `verify` unless it stands verified.
  struct Offer {
    func::FuncOp function;
    ProgramCost cost;
    bool verify;
  };

  /// The price of `f`, unless an equal candidate came before or the cost
  /// model cannot price it: then `f` is erased.
  FailureOr<ProgramCost> priceIfNew(func::FuncOp f) {
    if (!known.insert(candidateKey(f)).second) {
      f.erase();
      return failure();
    }
    FailureOr<ProgramCost> cost =
        quietly(context, [&] { return estimateCost(f, opts.target); });
    if (failed(cost))
      f.erase();
    return cost;
  }

  /// Ranks the offers `next` gives (cheapest first; nothing after the last)
  /// until `wanted` are ranked or `maxUncompiled` candidates (counted in the
  /// result's statistics) did not compile; erases those it turns down.
  /// Those it equals, one at a time: compiling takes up to a second, so
  /// the equivalent ones are compiled `compiler->numThreads()` at once, and
  /// those fetched behind the last one needed are erased uncounted. Offers
  /// `next` did not give are left to the caller. With `price`, an offer's
  /// cost is its ordering keys only, and the ones ranked are priced in full
  /// by it (most candidates fail the verifier: pricing them is wasted).
  void rank(function_ref<std::optional<Offer>()> next, unsigned wanted,
            uint64_t maxUncompiled,
            function_ref<FailureOr<ProgramCost>(func::FuncOp)> price = {}) {
    unsigned ranked = 0;
    auto done = [&] {
      return ranked >= wanted || result.stats.uncompiled >= maxUncompiled;
    };
    unsigned batchSize = compiler ? compiler->numThreads() : 1;
    bool more = true;
    while (more && !done()) {
      // Offers up to the batch's `batchSize`-th equivalent one.
      SmallVector<std::pair<Offer, bool>> batch; // with its verdict
      SmallVector<func::FuncOp> equivalent;
      while (equivalent.size() < batchSize) {
        std::optional<Offer> o = next();
        if (!(more = o.has_value()))
          break;
        bool isEquivalent = !o->verify || verifies(o->function);
        batch.push_back({*o, isEquivalent});
        if (isEquivalent)
          equivalent.push_back(o->function);
      }
      SmallVector<CompileCheck> checks;
      if (compiler)
        checks = compiler->check(equivalent);
      checks.resize(equivalent.size());
      size_t compiled = 0;
      for (auto &[o, isEquivalent] : batch) {
        if (done()) {
          o.function.erase();
          continue;
        }
        ++result.stats.verified;
        if (!isEquivalent) {
          o.function.erase();
          continue;
        }
        ++result.stats.equivalent;
        if (!compilesWell(checks[compiled++], o.cost.seconds)) {
          o.function.erase();
          continue;
        }
        if (price) {
          FailureOr<ProgramCost> cost = price(o.function);
          if (failed(cost)) {
            o.function.erase();
            continue;
          }
          o.cost = *cost;
        }
        result.ranked.push_back({o.function, o.cost});
        ++ranked;
      }
    }
  }

  /// Ranks `f` as `rank` does, unless an equal candidate came before.
  void admit(func::FuncOp f, bool verify) {
    FailureOr<ProgramCost> cost = priceIfNew(f);
    if (failed(cost))
      return;
    std::optional<Offer> offer = Offer{f, *cost, verify};
    rank([&] { return std::exchange(offer, std::nullopt); }, 1,
         std::numeric_limits<uint64_t>::max());
  }

private:
  bool verifies(func::FuncOp f) {
    FailureOr<verifier::VerificationResult> verdict =
        quietly(context, [&] { return checker.check(f); });
    return succeeded(verdict) && verdict->equivalent;
  }

  /// Whether `check`, of a candidate priced `seconds`, says it compiles to
  /// kernels worth running; with `progress`, says on stderr why not.
  bool compilesWell(const CompileCheck &check, double seconds) {
    if (!check.refusal)
      return true;
    ++result.stats.uncompiled;
    if (check.notRun && result.stats.notRun++ == 0)
      result.stats.whyNotRun = *check.refusal;
    if (opts.progress)
      llvm::errs() << "[superopt] a candidate priced "
                   << llvm::format("%.2f", seconds * 1e6)
                   << " us is left out: " << *check.refusal << "\n";
    return false;
  }

  SearchResult &result;
  verifier::EquivalenceChecker &checker;
  const SearchOptions &opts;
  CandidateCompiler *compiler;
  MLIRContext *context;
  llvm::StringSet<> known;
};

} // namespace

/// Step 2 of a search: materializes `candidates` cheapest first into
/// `result.module` and ranks (`ranking`) those the verifier finds equivalent
/// to `program` and that compile, until `opts.keep` are ranked or too many
/// did not compile.
static void verifyCheapestFirst(func::FuncOp program, const ProgramInfo &info,
                                const SearchOptions &opts,
                                std::vector<Candidate> &candidates,
                                PredefinedCostMemo &predefinedPrices,
                                SearchResult &result,
                                CandidateRanking &ranking) {
  FunctionType type = program.getFunctionType();
  // The input program is always a candidate (superoptimize ranks it).
  llvm::sort(candidates, [](const Candidate &a, const Candidate &b) {
    return std::tie(a.seconds, a.serialSeconds, a.order) <
           std::tie(b.seconds, b.serialSeconds, b.order);
  });
  size_t next = 0;
  auto offer = [&]() -> std::optional<CandidateRanking::Offer> {
    if (next == candidates.size())
      return std::nullopt;
    const Candidate &c = candidates[next];
    func::FuncOp f = materialize(
        result.module.get(),
        (program.getSymName() + "_unranked" + std::to_string(next++)).str(),
        type, *c.graph, c.choices, info, opts.blockThreads);
    ProgramCost keys;
    keys.seconds = c.seconds;
    keys.serialSeconds = c.serialSeconds;
    return CandidateRanking::Offer{f, keys, /*verify=*/true};
  };
  auto price = [&](func::FuncOp f) {
    return quietly(program.getContext(), [&] {
      return estimateCost(f, opts.target, &predefinedPrices);
    });
  };
  size_t before = result.ranked.size();
  ranking.rank(offer, opts.keep, kMaxUncompiledCandidates, price);
  for (size_t i = before; i < result.ranked.size(); ++i)
    result.ranked[i].function.setSymName(
        (program.getSymName() + "_candidate" + std::to_string(i)).str());
}

/// The search proper: the candidates of `program` (modeled as `info`, its
/// terms in `ctx`) that `checker` verifies equivalent to it, at most
/// `opts.keep`, cheapest first, in `result.module` named
/// `<program>_candidate<i>`, compiled by `compiler` (none: not compiled).
static SearchResult
searchCandidates(func::FuncOp program, const ProgramInfo &info,
                 ExprContext &ctx, verifier::EquivalenceChecker &checker,
                 const SearchOptions &opts, CandidateCompiler *compiler,
                 std::chrono::steady_clock::time_point start) {
  SearchProgress progress;
  progress.deadline = start + std::chrono::milliseconds(static_cast<int64_t>(
                                  opts.timeBudgetSeconds * 1000));
  progress.graphBudget = opts.graphBudget;

  SearchResult result;
  result.module = ModuleOp::create(UnknownLoc::get(program.getContext()));
  // The candidates share most of their predefined kernels, whose pricing
  // builds their tilings.
  PredefinedCostMemo predefinedPrices;
  ProgressReporter reporter(progress, opts.progress);
  std::vector<Candidate> candidates = enumerateAndPrice(
      program, info, ctx, opts, progress, predefinedPrices, reporter);
  result.stats.explored = progress.explored.load();
  result.stats.pruned = progress.pruned.load();
  result.stats.complete = progress.complete.load();
  result.stats.budgetExhausted = progress.stop.load();
  reporter.stop();

  CandidateRanking ranking(result, checker, opts, compiler,
                           program.getContext());
  verifyCheapestFirst(program, info, opts, candidates, predefinedPrices, result,
                      ranking);
  LLVM_DEBUG({
    llvm::dbgs() << "[" DEBUG_TYPE "] @" << program.getSymName() << ": ";
    result.stats.print(llvm::dbgs());
    llvm::dbgs() << "\n";
  });
  return result;
}

static bool cheaperFirst(const RankedCandidate &x, const RankedCandidate &y) {
  return x.cost.cheaperThan(y.cost);
}

/// Orders `result`'s candidates cheapest first, keeps the first `keep`,
/// and names them `<name>_candidate<i>` in that order.
static void keepCheapest(SearchResult &result, StringRef name, unsigned keep) {
  llvm::stable_sort(result.ranked, cheaperFirst);
  while (result.ranked.size() > keep) {
    result.ranked.back().function.erase();
    result.ranked.pop_back();
  }
  for (auto [i, c] : llvm::enumerate(result.ranked))
    c.function.setSymName((name + "_candidate" + std::to_string(i)).str());
}

namespace {

/// The program rewritten for the search (its matmul chains reassociated,
/// the batches of its shared-rhs matmuls merged into rows), once the
/// verifier has found it equivalent.
struct RewrittenProgram {
  OwningOpRef<ModuleOp> module; // owns `function`
  func::FuncOp function;
  ProgramInfo info;
};

/// The searches of a program's segments: each segment's result, which owns
/// its candidates, and those candidates (none where the segment could not
/// be searched), cheapest first.
struct SegmentSearches {
  std::vector<SearchResult> results;
  SmallVector<SmallVector<func::FuncOp>> candidates;
};

} // namespace

/// Step 1 of superoptimize: the program rewritten for the search, if that
/// changes it, the verifier finds it equivalent and it can be modeled.
static std::optional<RewrittenProgram>
rewriteForSearch(func::FuncOp program, const SearchOptions &opts,
                 verifier::EquivalenceChecker &checker, ExprContext &ctx) {
  if (!opts.reassociate && !opts.mergeBatchRows)
    return std::nullopt;
  MLIRContext *context = program.getContext();
  RewrittenProgram rewritten;
  rewritten.module = ModuleOp::create(UnknownLoc::get(context));
  OpBuilder b(context);
  b.setInsertionPointToEnd(rewritten.module->getBody());
  auto variant = cast<func::FuncOp>(b.clone(*program));
  bool reassociated = opts.reassociate && reassociateMatmuls(variant);
  bool merged = opts.mergeBatchRows && mergeBatchRows(variant);
  FailureOr<verifier::VerificationResult> verdict = failure();
  if (reassociated || merged)
    verdict = quietly(context, [&] { return checker.check(variant); });
  FailureOr<ProgramInfo> variantInfo = failure();
  if (succeeded(verdict) && verdict->equivalent)
    variantInfo = quietly(context, [&] { return modelProgram(variant, ctx); });
  if (failed(variantInfo))
    return std::nullopt;
  if (opts.progress) {
    llvm::errs() << "[superopt] @" << program.getSymName()
                 << ": searching it with";
    if (reassociated)
      llvm::errs() << " its matmul chains reassociated ("
                   << llvm::format("%.3g", matmulFlops(program) * 1e-9)
                   << " -> "
                   << llvm::format("%.3g", matmulFlops(variant) * 1e-9)
                   << " GFLOP)" << (merged ? " and" : "");
    if (merged)
      llvm::errs() << " the batches of its shared-rhs matmuls as rows";
    llvm::errs() << "\n";
  }
  rewritten.function = variant;
  rewritten.info = std::move(*variantInfo);
  return rewritten;
}

/// Step 3a of superoptimize: searches each segment of `split` as a program
/// of its own, with an equal share of what is left of the time budget
/// (smaller programs, whose searches the budgets let finish, or get
/// further, where the whole program's did not). Adds their counts to
/// `stats`.
static SegmentSearches
searchEachSegment(const ProgramSplit &split, const SearchOptions &opts,
                  const verifier::VerifierOptions &verifierOptions,
                  CandidateCompiler *compiler,
                  std::chrono::steady_clock::time_point start,
                  MLIRContext *context, SearchStatistics &stats) {
  SegmentSearches searches;
  for (auto [index, segment] : llvm::enumerate(split.segments)) {
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    SearchOptions segmentOptions = opts;
    segmentOptions.timeBudgetSeconds =
        std::max(0.0, opts.timeBudgetSeconds - elapsed) /
        (split.segments.size() - index);
    ExprContext segmentCtx;
    verifier::EquivalenceChecker segmentChecker(segment.function,
                                                verifierOptions);
    FailureOr<SearchResult> found = quietly(context, [&] {
      FailureOr<ProgramInfo> segmentInfo =
          modelProgram(segment.function, segmentCtx);
      if (failed(segmentInfo) ||
          whyUnverifiable(segment.function, segmentChecker))
        return FailureOr<SearchResult>(failure());
      return FailureOr<SearchResult>(searchCandidates(
          segment.function, *segmentInfo, segmentCtx, segmentChecker,
          segmentOptions, compiler, std::chrono::steady_clock::now()));
    });
    SmallVector<func::FuncOp> &candidates = searches.candidates.emplace_back();
    if (failed(found))
      continue;
    stats.explored += found->stats.explored;
    stats.pruned += found->stats.pruned;
    stats.complete += found->stats.complete;
    stats.uncompiled += found->stats.uncompiled;
    if (stats.notRun == 0)
      stats.whyNotRun = found->stats.whyNotRun;
    stats.notRun += found->stats.notRun;
    stats.budgetExhausted |= found->stats.budgetExhausted;
    for (const RankedCandidate &c : found->ranked)
      candidates.push_back(c.function);
    searches.results.push_back(std::move(*found));
  }
  return searches;
}

/// Step 3b of superoptimize: the choices of one candidate per segment
/// (null: the segment as the program computes it) that are spliced into
/// the program: the cheapest of every segment together, then each other
/// candidate of a segment with the cheapest of the others. None when no
/// segment has a candidate.
static SmallVector<SmallVector<func::FuncOp>>
segmentCombinations(ArrayRef<SmallVector<func::FuncOp>> segmentCandidates) {
  SmallVector<func::FuncOp> cheapest;
  for (const SmallVector<func::FuncOp> &candidates : segmentCandidates)
    cheapest.push_back(candidates.empty() ? func::FuncOp() : candidates[0]);
  if (llvm::none_of(cheapest, [](func::FuncOp f) { return bool(f); }))
    return {};
  SmallVector<SmallVector<func::FuncOp>> combinations = {cheapest};
  for (auto [index, candidates] : llvm::enumerate(segmentCandidates)) {
    // drop_begin of an empty list would run past its end.
    if (candidates.empty())
      continue;
    for (func::FuncOp candidate : llvm::drop_begin(candidates)) {
      combinations.push_back(cheapest);
      combinations.back()[index] = candidate;
    }
  }
  return combinations;
}

/// Step 3c of superoptimize: `spliced` with kept producers computed inside
/// the kernels that read them, one function per subset of the producers
/// that can move, each named by `nextName` in `module`. That form is no
/// longer the program's ops around equal segments, so each must be verified
/// against the whole program. Moving a producer saves a launch and a round
/// trip but recomputes it in every block that reads a tile of it, which
/// pays or not producer by producer (at b=8 qknorm_attention's 8 blocks per
/// head would each normalize every key), so each subset is a candidate (up
/// to kMaxAbsorbedSubsetProducers producers; beyond, all of them and each
/// alone), priced like any other.
static SmallVector<func::FuncOp>
absorbedVariants(func::FuncOp spliced, ModuleOp module,
                 llvm::function_ref<std::string()> nextName) {
  // The producers by their position in the body, which a clone keeps.
  Block &body = spliced.getBody().front();
  SmallVector<unsigned> producers;
  for (Operation *op : absorbableProducers(spliced))
    producers.push_back(std::distance(body.begin(), op->getIterator()));
  unsigned n = producers.size();
  // Which producers move, by their index in `producers`.
  SmallVector<SmallVector<bool>> subsets;
  if (n <= kMaxAbsorbedSubsetProducers) {
    for (unsigned mask = 1; mask < (1u << n); ++mask)
      subsets.push_back(llvm::map_to_vector(
          llvm::seq(n), [&](unsigned i) { return bool(mask >> i & 1); }));
  } else {
    subsets.push_back(SmallVector<bool>(n, true));
    for (unsigned i = 0; i < n; ++i) {
      subsets.push_back(SmallVector<bool>(n, false));
      subsets.back()[i] = true;
    }
  }
  SmallVector<func::FuncOp> variants;
  for (ArrayRef<bool> moves : subsets) {
    auto absorbed = cast<func::FuncOp>(spliced->clone());
    absorbed.setSymName(nextName());
    module.push_back(absorbed);
    auto ops = llvm::map_to_vector(absorbed.getBody().front(),
                                   [](Operation &op) { return &op; });
    llvm::SmallPtrSet<Operation *, 4> staying;
    for (auto [position, move] : llvm::zip_equal(producers, moves))
      if (!move)
        staying.insert(ops[position]);
    if (absorbProducers(absorbed,
                        [&](Operation *op) { return staying.contains(op); }))
      variants.push_back(absorbed);
    else
      absorbed.erase();
  }
  return variants;
}

/// Step 3 of superoptimize: the program's segments (`split` of `searched`),
/// each searched as a program of its own, their candidates spliced between
/// the kept kernels and ranked. They are verified against the whole
/// program like any other candidate; when the verifier cannot check the
/// whole program (`unverifiable`), their verification against their
/// segments stands for it (the kept ops are the program's own: equal
/// segments make equal programs).
static void rankSegmentCandidates(
    func::FuncOp program, func::FuncOp searched, const ProgramSplit &split,
    bool unverifiable, const SearchOptions &opts,
    const verifier::VerifierOptions &verifierOptions,
    CandidateCompiler *compiler, std::chrono::steady_clock::time_point start,
    SearchResult &result, CandidateRanking &ranking) {
  if (opts.progress)
    llvm::errs() << "[superopt] @" << program.getSymName() << ": searching "
                 << split.segments.size() << " segment(s) between "
                 << split.schedule.size() - split.segments.size()
                 << " kernel(s) kept as they are\n";
  // Owns the segments' candidates until they are spliced.
  SegmentSearches searches =
      searchEachSegment(split, opts, verifierOptions, compiler, start,
                        program.getContext(), result.stats);

  // All are priced as they come, then verified and compiled (up to a
  // second each) cheapest first until `keep` pass, as in step 8: those
  // behind them could not be kept.
  SmallVector<CandidateRanking::Offer> offers;
  auto offer = [&](func::FuncOp f, bool verify) {
    if (FailureOr<ProgramCost> cost = ranking.priceIfNew(f); succeeded(cost))
      offers.push_back({f, *cost, verify});
  };
  size_t named = result.ranked.size();
  auto nextName = [&] {
    return (program.getSymName() + "_candidate" + std::to_string(named++))
        .str();
  };
  for (ArrayRef<func::FuncOp> chosen :
       segmentCombinations(searches.candidates)) {
    func::FuncOp spliced =
        splice(searched, split, chosen, result.module.get(), nextName());
    // Kept producers moved into the kernels that read them, where the
    // verifier can check the whole program.
    if (!unverifiable)
      for (func::FuncOp absorbed :
           absorbedVariants(spliced, result.module.get(), nextName))
        offer(absorbed, /*verify=*/true);
    offer(spliced, /*verify=*/!unverifiable);
  }
  llvm::stable_sort(offers, [](const CandidateRanking::Offer &x,
                               const CandidateRanking::Offer &y) {
    return x.cost.cheaperThan(y.cost);
  });
  size_t next = 0;
  ranking.rank(
      [&]() -> std::optional<CandidateRanking::Offer> {
        if (next == offers.size())
          return std::nullopt;
        return offers[next++];
      },
      opts.keep, std::numeric_limits<uint64_t>::max());
  for (; next < offers.size(); ++next)
    offers[next].function.erase();
  keepCheapest(result, program.getSymName(), opts.keep);
}

FailureOr<SearchResult> superopt::superoptimize(func::FuncOp program,
                                                const SearchOptions &options) {
  auto start = std::chrono::steady_clock::now();
  MLIRContext *context = program.getContext();
  SearchOptions opts = options;
  if (opts.numThreads == 0)
    opts.numThreads = std::max(1u, std::thread::hardware_concurrency());
  if (!context->isMultithreadingEnabled())
    opts.numThreads = 1;

  // What the search cannot model keeps its form; a remark says why. But a
  // program it cannot model whole may have segments it can: one with casts
  // has a segment of one element type between them (step 3).
  ExprContext ctx;
  SmallVector<std::pair<Location, std::string>> whyNotModeled;
  FailureOr<ProgramInfo> info = [&] {
    ThreadDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
      whyNotModeled.push_back({diagnostic.getLocation(), diagnostic.str()});
      return success();
    });
    return modelProgram(program, ctx);
  }();
  // Owns the segments' functions (step 3).
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(UnknownLoc::get(context));
  std::optional<ProgramSplit> split;
  if (failed(info)) {
    split = splitProgram(program, scratch.get());
    if (!split || !split->hasBoundary) {
      for (auto &[loc, why] : whyNotModeled)
        emitRemark(loc) << why;
      return failure();
    }
  }
  // A program the verifier cannot check gets no search of its own; the
  // segments between its kept ops may still be checkable (step 3).
  verifier::VerifierOptions verifierOptions;
  verifierOptions.seed = opts.seed;
  verifier::EquivalenceChecker checker(program, verifierOptions);
  std::optional<std::string> unverifiable = whyUnverifiable(program, checker);

  // Step 1. The program rewritten, if the verifier agrees, is what the
  // search explores; every candidate is still verified against the program
  // as given, which stays a candidate itself.
  std::optional<RewrittenProgram> rewritten;
  if (!unverifiable && succeeded(info))
    rewritten = rewriteForSearch(program, opts, checker, ctx);
  func::FuncOp searched = rewritten ? rewritten->function : program;
  if (rewritten)
    info = std::move(rewritten->info);

  // Every candidate the search would return is compiled, unless the
  // options say not to.
  std::optional<CandidateCompiler> compiling;
  if (opts.compileCandidates)
    compiling.emplace(context, opts.numThreads, opts.blockThreads,
                      opts.target.chip);
  CandidateCompiler *compiler = compiling ? &*compiling : nullptr;

  // Step 2. The whole program's search. It builds no layout changes and
  // fuses nothing into a structured op: a program with either is searched
  // in segments only (step 3).
  // The program's split, unless step 1's failure made it already (then
  // nothing was rewritten).
  if (succeeded(info))
    split = splitProgram(searched, scratch.get());
  SearchResult result;
  if (failed(info) || unverifiable || (split && split->hasBoundary))
    result.module = ModuleOp::create(UnknownLoc::get(context));
  else
    result =
        searchCandidates(searched, *info, ctx, checker, opts, compiler, start);

  // Step 3. Each segment, searched as a program of its own.
  CandidateRanking ranking(result, checker, opts, compiler, context);
  if (split)
    rankSegmentCandidates(program, searched, *split, unverifiable.has_value(),
                          opts, verifierOptions, compiler, start, result,
                          ranking);

  if (unverifiable && result.ranked.empty()) {
    recordStatistics(result.stats);
    return program.emitRemark("the verifier cannot check this program (")
           << *unverifiable << ")" << kLeftAsItIs;
  }

  // Step 4. The rewritten program itself: verified in step 1.
  if (searched != program) {
    OpBuilder b(context);
    b.setInsertionPointToEnd(result.module->getBody());
    ranking.admit(cast<func::FuncOp>(b.clone(*searched)), /*verify=*/false);
    keepCheapest(result, program.getSymName(), opts.keep);
  }

  recordStatistics(result.stats);

  // Step 5. The program itself, placed by its cost.
  OpBuilder b(context);
  b.setInsertionPointToEnd(result.module->getBody());
  auto original = cast<func::FuncOp>(b.clone(*program));
  original.setSymName((program.getSymName() + "_input").str());
  FailureOr<ProgramCost> cost =
      quietly(context, [&] { return estimateCost(original, opts.target); });
  if (failed(cost))
    return program.emitRemark("the cost model cannot model the program")
           << kLeftAsItIs;
  result.ranked.push_back({original, *cost, /*isInput=*/true});
  llvm::stable_sort(result.ranked, cheaperFirst);
  result.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}
