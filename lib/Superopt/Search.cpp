//===- Search.cpp - The superoptimizer's driver ---------------------------===//
//
// Models the program (abstract expressions and axes), enumerates candidate
// kernel graphs, costs every complete one, then verifies them cheapest first
// until `keep` are proven equivalent: every graph the search returns has
// passed the verifier.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Superopt/Search.h"

#include "TileOpt/Version.h"

#include "Enumerate.h"
#include "Materialize.h"
#include "TileOpt/Dialect/Common/DimRelations.h"
#include "TileOpt/Dialect/Common/ThreadDiagnostics.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Superopt/AbsorbProducers.h"
#include "TileOpt/Superopt/Abstraction.h"
#include "TileOpt/Superopt/Compilation.h"
#include "TileOpt/Superopt/MergeBatchRows.h"
#include "TileOpt/Superopt/Reassociate.h"
#include "TileOpt/Verifier/Verifier.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"

#include <condition_variable>
#include <thread>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

std::string SearchOptions::fingerprint() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tileopt=" TILEOPT_VERSION " kernel-ops=" << maxKernelOps << " block-ops=" << maxBlockOps
     << " block-budget=" << blockGraphBudget << " fused=" << maxFusedKernels
     << " block-inputs=" << maxBlockInputs
     << " block-outputs=" << maxBlockOutputs << " grid-dims=" << maxGridDims
     << " grid-reductions=" << gridReductions << " forloop=";
  llvm::interleave(forloopRanges, os, ",");
  os << " tiles=";
  llvm::interleave(tileExtents, os, ",");
  os << " threads-per-block=" << blockThreads << " seed=" << seed
     << " target=" << target.fingerprint() << " keep=" << keep
     << " reassociate=" << reassociate << " merge-batch-rows=" << mergeBatchRows
     << " compile-candidates=" << compileCandidates;
  // What the compile check refuses depends on the ptxas it runs.
  if (compileCandidates)
    os << " ptxas=" << compilationPtxas().value_or("none")
       << " max-spill=" << kMaxSpillStoreBytes;
  return text;
}

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

unsigned superopt::rankByMeasurement(
    SearchResult &result, const llvm::StringMap<double> &secondsByKey) {
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
  llvm::stable_sort(result.ranked, [](const RankedCandidate &x,
                                      const RankedCandidate &y) {
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

//===----------------------------------------------------------------------===//
// The program's axes
//===----------------------------------------------------------------------===//

namespace {

/// Which dims of the program's values index the same axis: every op equates
/// some dims of its operands and results (a matmul its batch dims, M, K and
/// N; an elementwise op equal dims; a reduction the dims it keeps).
class ProgramAxes {
public:
  LogicalResult build(func::FuncOp func);
  SmallVector<AxisRef, 4> axesOf(Value v) const;

private:
  unsigned slot(Value v, int64_t dim) {
    auto [it, inserted] = base.try_emplace(v, next);
    if (inserted) {
      next += cast<ShapedType>(v.getType()).getRank();
      for (unsigned s = it->second; s < next; ++s)
        classes.insert(s);
    }
    return it->second + static_cast<unsigned>(dim);
  }
  void join(Value a, int64_t da, Value b, int64_t db) {
    classes.unionSets(slot(a, da), slot(b, db));
  }
  llvm::DenseMap<Value, unsigned> base;
  llvm::EquivalenceClasses<unsigned> classes;
  llvm::DenseSet<unsigned> reducedSlots;
  unsigned next = 0;
};

LogicalResult ProgramAxes::build(func::FuncOp func) {
  for (Value arg : func.getArguments())
    slot(arg, 0);
  auto rank = [](Value v) { return cast<ShapedType>(v.getType()).getRank(); };
  auto size = [](Value v, int64_t d) {
    return cast<ShapedType>(v.getType()).getDimSize(d);
  };
  auto sameDims = [&](Value a, Value b) {
    for (int64_t d = 0; d < rank(a); ++d)
      join(a, d, b, d);
  };
  auto equate = [&](Value a, int64_t da, Value b, int64_t db) {
    join(a, da, b, db);
  };
  // The program's own ops only: what a region of an unknown op holds is that
  // op's business, and the op itself is reported.
  auto visit = [&](Operation *op) -> WalkResult {
    if (isa<func::ReturnOp>(op))
      return WalkResult::advance();
    // Only tk ops (whose values are all tensors) have axes.
    bool known =
        isa<tk::TKDialect>(op->getDialect()) && !isa<tk::FusedOp>(op) &&
        TypeSwitch<Operation *, bool>(op)
            .Case<tk::UnaryOp, tk::RmsNormOp>([&](Operation *o) {
              sameDims(o->getOperand(0), o->getResult(0));
              return true;
            })
            .Case([&](tk::BinaryOp b) {
              equateBroadcastDims(b.getLhs(), b, equate);
              equateBroadcastDims(b.getRhs(), b, equate);
              return true;
            })
            .Case([&](tk::ReduceOp r) {
              sameDims(r.getInput(), r);
              reducedSlots.insert(slot(r, static_cast<int64_t>(r.getDim())));
              return true;
            })
            .Case([&](tk::MatmulOp m) {
              equateMatmulDims(m.getLhs(), m.getRhs(), m, equate);
              return true;
            })
            .Case([&](tk::TransposeOp t) {
              for (auto [i, p] : llvm::enumerate(t.getPermutation()))
                join(t, static_cast<int64_t>(i), t.getInput(), p);
              return true;
            })
            .Case([&](tk::ReshapeOp r) {
              // Only unit dims added or dropped keep their axes.
              SmallVector<int64_t> in, out;
              for (int64_t d = 0; d < rank(r.getInput()); ++d)
                if (size(r.getInput(), d) != 1)
                  in.push_back(d);
              for (int64_t d = 0; d < rank(r); ++d)
                if (size(r, d) != 1)
                  out.push_back(d);
              if (in.size() == out.size() &&
                  llvm::all_of(llvm::zip(in, out), [&](auto p) {
                    return size(r.getInput(), std::get<0>(p)) ==
                           size(r, std::get<1>(p));
                  }))
                for (auto [i, o] : llvm::zip(in, out))
                  join(r.getInput(), i, r, o);
              return true;
            })
            .Default([](Operation *) { return false; });
    if (known)
      for (Value r : op->getResults())
        slot(r, 0);
    if (!known) {
      op->emitRemark("the superoptimizer cannot model '")
          << op->getName() << "'; the function is left as it is";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  };
  for (Operation &op : func.getBody().front())
    if (visit(&op).wasInterrupted())
      return failure();
  return success();
}

SmallVector<AxisRef, 4> ProgramAxes::axesOf(Value v) const {
  SmallVector<AxisRef, 4> axes;
  unsigned first = base.lookup(v);
  for (int64_t d = 0; d < cast<ShapedType>(v.getType()).getRank(); ++d) {
    unsigned s = first + static_cast<unsigned>(d);
    axes.push_back({static_cast<int>(classes.getLeaderValue(s)),
                    reducedSlots.contains(s)});
  }
  return axes;
}

} // namespace

FailureOr<ProgramInfo> superopt::modelProgram(func::FuncOp program,
                                                ExprContext &ctx) {
  if (program.getBody().getBlocks().size() != 1)
    return program.emitRemark(
        "the superoptimizer needs a function of one block");
  for (Value arg : program.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape())
      return program.emitRemark(
          "the superoptimizer needs statically shaped tensor arguments");
  }
  if (program.getNumResults() == 0)
    return program.emitRemark("the superoptimizer needs a function with "
                              "results");
  ProgramAxes axes;
  if (failed(axes.build(program)))
    return failure();
  FailureOr<llvm::DenseMap<Value, const Expr *>> exprs =
      abstractValues(program, ctx);
  if (failed(exprs))
    return failure();

  ProgramInfo info;
  auto valueInfo = [&](Value v) {
    ValueInfo vi;
    auto type = cast<ShapedType>(v.getType());
    vi.shape.assign(type.getShape().begin(), type.getShape().end());
    vi.axes = axes.axesOf(v);
    vi.expr = exprs->lookup(v);
    return vi;
  };
  for (Value arg : program.getArguments()) {
    auto type = cast<RankedTensorType>(arg.getType());
    if (!info.elementType)
      info.elementType = type.getElementType();
    if (type.getElementType() != info.elementType)
      return program.emitRemark("the superoptimizer needs one element type, "
                                "got ")
             << info.elementType << " and " << type.getElementType();
    info.arguments.push_back(valueInfo(arg));
  }
  if (!info.elementType)
    return program.emitRemark("the superoptimizer needs tensor arguments");
  Operation *ret = program.getBody().front().getTerminator();
  for (Value out : ret->getOperands())
    info.outputs.push_back(valueInfo(out));
  for (auto &[value, expr] : *exprs)
    info.subterms.push_back(expr);
  // DenseMap order is not deterministic: sort by interned id.
  llvm::sort(info.subterms, [](const Expr *a, const Expr *b) {
    return a->getId() < b->getId();
  });
  info.subterms.erase(llvm::unique(info.subterms), info.subterms.end());
  info.subtermSet.insert(info.subterms.begin(), info.subterms.end());
  program.walk([&](Operation *op) {
    auto reduces = [&](Value v, int64_t dim) {
      auto type = cast<ShapedType>(v.getType());
      if (dim < 0)
        dim += type.getRank();
      info.reducedAxes[axes.axesOf(v)[dim].axis] = type.getDimSize(dim);
    };
    if (auto reduce = dyn_cast<tk::ReduceOp>(op))
      reduces(reduce.getInput(), reduce.getDim());
    if (isa<tk::MatmulOp, tk::RmsNormOp>(op))
      reduces(op->getOperand(0), -1);
    if (isa<tk::MatmulOp>(op))
      for (Value operand : op->getOperands()) {
        info.matmulOperands.insert(exprs->lookup(operand));
        SmallVector<AxisRef, 4> operandAxes = axes.axesOf(operand);
        for (AxisRef a : ArrayRef(operandAxes).take_back(2))
          info.matrixAxes.insert(a.axis);
      }
    if (auto norm = dyn_cast<tk::RmsNormOp>(op))
      info.addends.push_back(norm.getEpsilon().convertToDouble());
    if (auto unary = dyn_cast<tk::UnaryOp>(op)) {
      if (unary.getKind() == UnaryKind::add_scalar)
        info.addends.push_back(unary.getScalar()->convertToDouble());
      if (unary.getKind() == UnaryKind::mul_scalar)
        info.factors.push_back(unary.getScalar()->convertToDouble());
      // The search scales by the program's factors; a negation is one.
      if (unary.getKind() == UnaryKind::neg)
        info.factors.push_back(-1);
      if (unary.getKind() == UnaryKind::sigmoid &&
          !llvm::is_contained(info.ownUnaryKinds, UnaryKind::sigmoid))
        info.ownUnaryKinds.push_back(UnaryKind::sigmoid);
    }
  });
  SmallVector<tk::UnaryOp> exps;
  program.walk([&](tk::UnaryOp u) {
    if (u.getKind() == UnaryKind::exp)
      exps.push_back(u);
  });
  info.stableExp = !exps.empty() && llvm::all_of(exps, [&](tk::UnaryOp u) {
    return shiftedByMax(exprs->lookup(u.getInput()));
  });
  for (auto *list : {&info.addends, &info.factors}) {
    llvm::sort(*list);
    list->erase(llvm::unique(*list), list->end());
  }
  return info;
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
template <typename Fn>
auto quietly(MLIRContext *context, Fn &&fn) {
  ThreadDiagnosticHandler handler(context,
                                  [](Diagnostic &) { return success(); });
  return fn();
}

} // namespace

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

/// Whether `f` compiles to kernels worth running (whyNotCompiled), when
/// `opts` asks for the check; with `progress`, says on stderr why not.
static bool compilesWell(func::FuncOp f, double seconds,
                         const SearchOptions &opts, SearchStatistics &stats) {
  if (!opts.compileCandidates)
    return true;
  CompileCheck check = whyNotCompiled(f, opts.blockThreads, opts.target.chip);
  if (!check.refusal)
    return true;
  ++stats.uncompiled;
  if (check.notRun && stats.notRun++ == 0)
    stats.whyNotRun = *check.refusal;
  if (opts.progress)
    llvm::errs() << "[superopt] a candidate priced "
                 << llvm::format("%.2f", seconds * 1e6)
                 << " us is left out: " << *check.refusal << "\n";
  return false;
}

/// The search proper: the candidates of `program` (modeled as `info`, its
/// terms in `ctx`) that `checker` verifies equivalent to it, at most
/// `opts.keep`, cheapest first, in `result.module` named
/// `<program>_candidate<i>`.
static SearchResult
searchCandidates(func::FuncOp program, const ProgramInfo &info,
                 ExprContext &ctx, verifier::EquivalenceChecker &checker,
                 const SearchOptions &opts,
                 std::chrono::steady_clock::time_point start) {
  MLIRContext *context = program.getContext();

  SearchProgress progress;
  progress.deadline =
      start + std::chrono::milliseconds(
                  static_cast<int64_t>(opts.timeBudgetSeconds * 1000));
  progress.graphBudget = opts.graphBudget;

  SearchResult result;
  result.module = ModuleOp::create(UnknownLoc::get(context));
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(UnknownLoc::get(context));

  // Progress on stderr, about once a second.
  std::mutex progressMutex;
  std::condition_variable progressDone;
  bool finished = false;
  double bestSeconds = std::numeric_limits<double>::infinity();
  std::thread reporter;
  if (opts.progress)
    reporter = std::thread([&] {
      std::unique_lock<std::mutex> lock(progressMutex);
      while (!progressDone.wait_for(lock, std::chrono::seconds(1),
                                    [&] { return finished; }))
        llvm::errs() << "[superopt] explored " << progress.explored.load()
                     << ", pruned " << progress.pruned.load() << ", complete "
                     << progress.complete.load() << ", best "
                     << llvm::format("%.2f", bestSeconds * 1e6) << " us\n";
    });

  // Enumerate and cost.
  FunctionType type = program.getFunctionType();
  std::vector<Candidate> candidates;
  uint64_t order = 0;
  // The candidates share most of their predefined kernels, whose pricing
  // builds their tilings.
  PredefinedCostMemo predefinedPrices;
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
    while (!progress.expired()) {
      func::FuncOp f = materialize(scratch.get(), "candidate", type, g, choices,
                                   info.elementType, opts.blockThreads);
      if (FailureOr<ProgramCost> cost = costOf(f); succeeded(cost)) {
        candidates.push_back(
            {shared, choices, cost->seconds, cost->serialSeconds, order++});
        std::lock_guard<std::mutex> lock(progressMutex);
        bestSeconds = std::min(bestSeconds, cost->seconds);
      }
      f.erase();
      size_t i = 0;
      for (; i < sizes.size(); ++i) {
        if (++choices[i] < sizes[i])
          break;
        choices[i] = 0;
      }
      if (i == sizes.size())
        break;
    }
  });
  result.stats.explored = progress.explored.load();
  result.stats.pruned = progress.pruned.load();
  result.stats.complete = progress.complete.load();
  result.stats.budgetExhausted = progress.stop.load();
  {
    std::lock_guard<std::mutex> lock(progressMutex);
    finished = true;
  }
  progressDone.notify_all();
  if (reporter.joinable())
    reporter.join();

  // Verify cheapest first; the input program is always a candidate.
  llvm::sort(candidates, [](const Candidate &a, const Candidate &b) {
    return std::tie(a.seconds, a.serialSeconds, a.order) <
           std::tie(b.seconds, b.serialSeconds, b.order);
  });
  for (const Candidate &c : candidates) {
    if (result.ranked.size() >= opts.keep ||
        result.stats.uncompiled >= kMaxUncompiledCandidates)
      break;
    func::FuncOp f = materialize(result.module.get(),
                                 (program.getSymName() + "_candidate" +
                                  std::to_string(result.ranked.size()))
                                     .str(),
                                 type, *c.graph, c.choices, info.elementType,
                                 opts.blockThreads);
    ++result.stats.verified;
    FailureOr<verifier::VerificationResult> verdict =
        quietly(context, [&] { return checker.check(f); });
    if (failed(verdict) || !verdict->equivalent) {
      f.erase();
      continue;
    }
    ++result.stats.equivalent;
    if (!compilesWell(f, c.seconds, opts, result.stats)) {
      f.erase();
      continue;
    }
    FailureOr<ProgramCost> cost =
        estimateCost(f, opts.target, &predefinedPrices);
    result.ranked.push_back({f, *cost});
  }
  return result;
}

namespace {

/// A part of the program searched as a program of its own.
struct Segment {
  SmallVector<Operation *> ops;
  /// The part as a function: its arguments are `arguments`, its results
  /// `results`, values of the program.
  func::FuncOp function;
  SmallVector<Value> arguments, results;
};

/// The program cut where the search cannot go (docs/superoptimizer.md,
/// step 11). Kept ops stay kernels of their own: the layout changes
/// (reshapes and transposes, which the search does not build) and the ops
/// whose values depend on one argument alone (qknorm_attention's
/// rms_norm(Q) and rms_norm(K), a weight's transpose). The other ops are
/// cut into segments at the layout changes: an op belongs to the segment
/// of the most layout changes on a path from an argument to it.
struct ProgramSplit {
  /// Kept ops and segments in an order that runs them: for each segment,
  /// the layout changes that lead to it, the other kept ops of its level,
  /// then the segment.
  struct Step {
    Operation *kept = nullptr;
    unsigned segment = 0;
  };
  SmallVector<Step> schedule;
  SmallVector<Segment> segments;
  bool hasLayoutChange = false;
};

bool isLayoutChange(Operation *op) { return op->hasTrait<tk::LayoutChange>(); }

} // namespace

/// Splits `program`, building the segments' functions in `scratch`;
/// nothing when there is no op to keep or nothing to search.
static std::optional<ProgramSplit> splitProgram(func::FuncOp program,
                                                ModuleOp scratch) {
  Block &body = program.getBody().front();
  if (body.getNumArguments() > 64)
    return std::nullopt;
  // The arguments each value depends on, and its level: the most layout
  // changes on a path from an argument to it.
  llvm::DenseMap<Value, uint64_t> reads;
  llvm::DenseMap<Value, unsigned> levelOf;
  for (BlockArgument arg : body.getArguments())
    reads[arg] = uint64_t(1) << arg.getArgNumber();
  struct Placed {
    Operation *op;
    unsigned level;
    bool kept;
  };
  SmallVector<Placed> placed;
  ProgramSplit split;
  unsigned levels = 0;
  bool anyKept = false;
  for (Operation &op : body.without_terminator()) {
    uint64_t mask = 0;
    unsigned level = 0;
    for (Value operand : op.getOperands()) {
      mask |= reads.lookup(operand);
      level = std::max(level, levelOf.lookup(operand));
    }
    bool layoutChange = isLayoutChange(&op);
    split.hasLayoutChange |= layoutChange;
    if (layoutChange)
      ++level;
    for (Value result : op.getResults()) {
      reads[result] = mask;
      levelOf[result] = level;
    }
    bool kept = layoutChange || llvm::popcount(mask) == 1;
    anyKept |= kept;
    placed.push_back({&op, level, kept});
    levels = std::max(levels, level + 1);
  }
  if (!anyKept)
    return std::nullopt;

  llvm::DenseMap<Operation *, unsigned> segmentOf;
  for (unsigned level = 0; level < levels; ++level) {
    for (const Placed &p : placed)
      if (p.kept && p.level == level && isLayoutChange(p.op))
        split.schedule.push_back({p.op});
    for (const Placed &p : placed)
      if (p.kept && p.level == level && !isLayoutChange(p.op))
        split.schedule.push_back({p.op});
    Segment segment;
    for (const Placed &p : placed)
      if (!p.kept && p.level == level)
        segment.ops.push_back(p.op);
    if (segment.ops.empty())
      continue;
    for (Operation *op : segment.ops)
      segmentOf[op] = split.segments.size();
    split.schedule.push_back({nullptr, unsigned(split.segments.size())});
    split.segments.push_back(std::move(segment));
  }
  if (split.segments.empty())
    return std::nullopt;

  // A segment reads the values its ops use that other steps compute (the
  // arguments first, in order), and returns those of its values that other
  // steps use or the program returns.
  Operation *ret = body.getTerminator();
  OpBuilder b(program.getContext());
  b.setInsertionPointToEnd(scratch.getBody());
  for (auto [index, segment] : llvm::enumerate(split.segments)) {
    auto inSegment = [&, index = index](Operation *op) {
      auto it = segmentOf.find(op);
      return it != segmentOf.end() && it->second == index;
    };
    llvm::SetVector<Value> arguments;
    for (BlockArgument arg : body.getArguments())
      if (llvm::any_of(arg.getUsers(), inSegment))
        arguments.insert(arg);
    for (Operation *op : segment.ops)
      for (Value operand : op->getOperands())
        if (!isa<BlockArgument>(operand) && !inSegment(operand.getDefiningOp()))
          arguments.insert(operand);
    segment.arguments = arguments.takeVector();
    for (Operation *op : segment.ops)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return user == ret || !inSegment(user);
            }))
          segment.results.push_back(result);

    SmallVector<Type> argumentTypes, resultTypes;
    for (Value v : segment.arguments)
      argumentTypes.push_back(v.getType());
    for (Value v : segment.results)
      resultTypes.push_back(v.getType());
    segment.function = func::FuncOp::create(
        b, program.getLoc(),
        (program.getSymName() + "_segment" + Twine(index)).str(),
        b.getFunctionType(argumentTypes, resultTypes));
    Block *segmentBody = segment.function.addEntryBlock();
    IRMapping mapping;
    mapping.map(segment.arguments, segmentBody->getArguments());
    OpBuilder inner = OpBuilder::atBlockEnd(segmentBody);
    for (Operation *op : segment.ops)
      inner.clone(*op, mapping);
    SmallVector<Value> returned;
    for (Value v : segment.results)
      returned.push_back(mapping.lookup(v));
    func::ReturnOp::create(inner, program.getLoc(), returned);
  }
  return split;
}

/// The program with each segment computed by `chosen[i]`, a µGraph of the
/// segment's function (or, when null, as the program computes it), as
/// `name` in `module`.
static func::FuncOp splice(func::FuncOp program, const ProgramSplit &split,
                           ArrayRef<func::FuncOp> chosen, ModuleOp module,
                           StringRef name) {
  OpBuilder b(program.getContext());
  b.setInsertionPointToEnd(module.getBody());
  auto f = func::FuncOp::create(b, program.getLoc(), name,
                                program.getFunctionType());
  Block *body = f.addEntryBlock();
  IRMapping mapping;
  mapping.map(program.getArguments(), body->getArguments());
  b.setInsertionPointToEnd(body);
  for (const ProgramSplit::Step &step : split.schedule) {
    if (step.kept) {
      b.clone(*step.kept, mapping);
      continue;
    }
    const Segment &segment = split.segments[step.segment];
    func::FuncOp candidate = chosen[step.segment];
    if (!candidate) {
      for (Operation *op : segment.ops)
        b.clone(*op, mapping);
      continue;
    }
    IRMapping inner;
    for (auto [arg, value] :
         llvm::zip_equal(candidate.getArguments(), segment.arguments))
      inner.map(arg, mapping.lookup(value));
    Block &candidateBody = candidate.getBody().front();
    for (Operation &op : candidateBody.without_terminator())
      b.clone(op, inner);
    for (auto [value, computed] : llvm::zip_equal(
             segment.results, candidateBody.getTerminator()->getOperands()))
      mapping.map(value, inner.lookupOrDefault(computed));
  }
  b.clone(*program.getBody().front().getTerminator(), mapping);
  return f;
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

FailureOr<SearchResult> superopt::superoptimize(func::FuncOp program,
                                                const SearchOptions &options) {
  auto start = std::chrono::steady_clock::now();
  MLIRContext *context = program.getContext();
  SearchOptions opts = options;
  if (opts.numThreads == 0)
    opts.numThreads = std::max(1u, std::thread::hardware_concurrency());
  if (!context->isMultithreadingEnabled())
    opts.numThreads = 1;

  // What the search cannot model keeps its form; a remark says why.
  ExprContext ctx;
  FailureOr<ProgramInfo> info = modelProgram(program, ctx);
  if (failed(info))
    return failure();
  // A program the verifier cannot check gets no search of its own; the
  // segments between its kept ops may still be checkable (see below).
  verifier::VerifierOptions verifierOptions;
  verifierOptions.seed = opts.seed;
  verifier::EquivalenceChecker checker(program, verifierOptions);
  std::optional<std::string> unverifiable = whyUnverifiable(program, checker);

  // The program rewritten (its matmul chains reassociated where that lowers
  // its flops, the batches of its shared-rhs matmuls merged into rows), if
  // the verifier agrees, is what the search explores; every candidate is
  // still verified against the program as given, which stays a candidate
  // itself.
  OwningOpRef<ModuleOp> rewrittenModule;
  func::FuncOp searched = program;
  if ((opts.reassociate || opts.mergeBatchRows) && !unverifiable) {
    rewrittenModule = ModuleOp::create(UnknownLoc::get(context));
    OpBuilder b(context);
    b.setInsertionPointToEnd(rewrittenModule->getBody());
    auto variant = cast<func::FuncOp>(b.clone(*program));
    bool reassociated = opts.reassociate && reassociateMatmuls(variant);
    bool merged = opts.mergeBatchRows && mergeBatchRows(variant);
    FailureOr<verifier::VerificationResult> verdict = failure();
    if (reassociated || merged)
      verdict = quietly(context, [&] { return checker.check(variant); });
    FailureOr<ProgramInfo> variantInfo = failure();
    if (succeeded(verdict) && verdict->equivalent)
      variantInfo =
          quietly(context, [&] { return modelProgram(variant, ctx); });
    if (succeeded(variantInfo)) {
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
      searched = variant;
      info = std::move(variantInfo);
    }
  }

  // The search builds no layout changes: a program with one is searched
  // in segments only (below).
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(UnknownLoc::get(context));
  std::optional<ProgramSplit> split = splitProgram(searched, scratch.get());
  SearchResult result;
  if (unverifiable || (split && split->hasLayoutChange))
    result.module = ModuleOp::create(UnknownLoc::get(context));
  else
    result = searchCandidates(searched, *info, ctx, checker, opts, start);

  // Ranks `f`, a function of the whole program in `result.module`, unless
  // an equal candidate was ranked before; with `verify`, only if the
  // checker finds it equivalent to the program.
  llvm::StringSet<> known;
  for (const RankedCandidate &c : result.ranked)
    known.insert(candidateKey(c.function));
  auto price = [&](func::FuncOp f) {
    return quietly(context, [&] { return estimateCost(f, opts.target); });
  };
  // Ranks `f`, priced `cost`, if (with `verify`) the checker finds it
  // equivalent and it compiles; whether it does.
  auto accept = [&](func::FuncOp f, const ProgramCost &cost, bool verify) {
    ++result.stats.verified;
    if (verify) {
      FailureOr<verifier::VerificationResult> verdict =
          quietly(context, [&] { return checker.check(f); });
      if (failed(verdict) || !verdict->equivalent) {
        f.erase();
        return false;
      }
    }
    ++result.stats.equivalent;
    if (!compilesWell(f, cost.seconds, opts, result.stats)) {
      f.erase();
      return false;
    }
    result.ranked.push_back({f, cost});
    return true;
  };
  auto admit = [&](func::FuncOp f, bool verify) {
    if (!known.insert(candidateKey(f)).second) {
      f.erase();
      return;
    }
    FailureOr<ProgramCost> cost = price(f);
    if (failed(cost)) {
      f.erase();
      return;
    }
    accept(f, *cost, verify);
  };

  // Each segment, searched as a program of its own with an equal share of
  // what is left of the time budget: smaller programs, whose searches the
  // budgets let finish (or get further) where the whole program's did not.
  // Their candidates, spliced between the kept kernels, are verified
  // against the whole program like any other; when the verifier cannot
  // check the whole program, their verification against their segments
  // stands for it (the kept ops are the program's own: equal segments make
  // equal programs).
  if (split) {
    if (opts.progress)
      llvm::errs() << "[superopt] @" << program.getSymName() << ": searching "
                   << split->segments.size() << " segment(s) between "
                   << split->schedule.size() - split->segments.size()
                   << " kernel(s) kept as they are\n";
    // Each segment's search result, which owns its candidates, and those
    // candidates (none when the segment could not be searched).
    std::vector<SearchResult> segmentResults;
    SmallVector<SmallVector<func::FuncOp>> segmentCandidates;
    for (auto [index, segment] : llvm::enumerate(split->segments)) {
      double elapsed = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      SearchOptions segmentOptions = opts;
      segmentOptions.timeBudgetSeconds =
          std::max(0.0, opts.timeBudgetSeconds - elapsed) /
          (split->segments.size() - index);
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
            segmentOptions, std::chrono::steady_clock::now()));
      });
      SmallVector<func::FuncOp> &candidates = segmentCandidates.emplace_back();
      if (failed(found))
        continue;
      result.stats.explored += found->stats.explored;
      result.stats.pruned += found->stats.pruned;
      result.stats.complete += found->stats.complete;
      result.stats.uncompiled += found->stats.uncompiled;
      if (result.stats.notRun == 0)
        result.stats.whyNotRun = found->stats.whyNotRun;
      result.stats.notRun += found->stats.notRun;
      result.stats.budgetExhausted |= found->stats.budgetExhausted;
      for (const RankedCandidate &c : found->ranked)
        candidates.push_back(c.function);
      segmentResults.push_back(std::move(*found));
    }
    // The cheapest of every segment together, then each other candidate
    // of a segment with the cheapest of the others.
    SmallVector<func::FuncOp> cheapest;
    for (const SmallVector<func::FuncOp> &candidates : segmentCandidates)
      cheapest.push_back(candidates.empty() ? func::FuncOp() : candidates[0]);
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
    // Each with kept producers computed inside the kernels that read them,
    // too, where the verifier can check the whole program: that form is no
    // longer the program's ops around equal segments. Moving a producer
    // saves a launch and a round trip but recomputes it in every block
    // that reads a tile of it, which pays or not producer by producer (at
    // b=8 qknorm_attention's 8 blocks per head would each normalize every
    // key), so each subset of the producers that can move is a candidate
    // (up to kMaxAbsorbedSubsetProducers of them; beyond, all of them and
    // each alone), priced like any other.
    //
    // All are priced as they come, then verified and compiled (up to a
    // second each) cheapest first until `keep` pass, as in step 8: those
    // behind them could not be kept.
    struct Offer {
      func::FuncOp function;
      ProgramCost cost;
      bool verify;
    };
    SmallVector<Offer> offers;
    auto offer = [&](func::FuncOp f, bool verify) {
      if (!known.insert(candidateKey(f)).second) {
        f.erase();
        return;
      }
      FailureOr<ProgramCost> cost = price(f);
      if (failed(cost)) {
        f.erase();
        return;
      }
      offers.push_back({f, *cost, verify});
    };
    size_t named = result.ranked.size();
    auto nextName = [&] {
      return (program.getSymName() + "_candidate" + std::to_string(named++))
          .str();
    };
    auto offerAbsorbed = [&](func::FuncOp spliced) {
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
      for (ArrayRef<bool> moves : subsets) {
        auto absorbed = cast<func::FuncOp>(spliced->clone());
        absorbed.setSymName(nextName());
        result.module->push_back(absorbed);
        auto ops = llvm::map_to_vector(absorbed.getBody().front(),
                                       [](Operation &op) { return &op; });
        llvm::SmallPtrSet<Operation *, 4> staying;
        for (auto [position, move] : llvm::zip_equal(producers, moves))
          if (!move)
            staying.insert(ops[position]);
        if (absorbProducers(absorbed, [&](Operation *op) {
              return staying.contains(op);
            }))
          offer(absorbed, /*verify=*/true);
        else
          absorbed.erase();
      }
    };
    if (llvm::any_of(cheapest, [](func::FuncOp f) { return bool(f); }))
      for (ArrayRef<func::FuncOp> chosen : combinations) {
        func::FuncOp spliced =
            splice(searched, *split, chosen, result.module.get(), nextName());
        if (!unverifiable)
          offerAbsorbed(spliced);
        offer(spliced, /*verify=*/!unverifiable);
      }
    llvm::stable_sort(offers, [](const Offer &x, const Offer &y) {
      return x.cost.cheaperThan(y.cost);
    });
    unsigned accepted = 0;
    for (Offer &o : offers) {
      if (accepted == opts.keep)
        o.function.erase();
      else if (accept(o.function, o.cost, o.verify))
        ++accepted;
    }
    keepCheapest(result, program.getSymName(), opts.keep);
  }

  if (unverifiable && result.ranked.empty())
    return program.emitRemark("the verifier cannot check this program (")
           << *unverifiable << "); the function is left as it is";

  // The rewritten program itself: verified above.
  if (searched != program) {
    OpBuilder b(context);
    b.setInsertionPointToEnd(result.module->getBody());
    admit(cast<func::FuncOp>(b.clone(*searched)), /*verify=*/false);
    keepCheapest(result, program.getSymName(), opts.keep);
  }

  // The program itself, placed by its cost.
  {
    OpBuilder b(context);
    b.setInsertionPointToEnd(result.module->getBody());
    auto original = cast<func::FuncOp>(b.clone(*program));
    original.setSymName((program.getSymName() + "_input").str());
    FailureOr<ProgramCost> cost =
        quietly(context, [&] { return estimateCost(original, opts.target); });
    if (failed(cost))
      return program.emitRemark("the cost model cannot model the program");
    result.ranked.push_back({original, *cost, /*isInput=*/true});
    llvm::stable_sort(result.ranked, cheaperFirst);
  }
  result.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}
