//===- Search.cpp - The superoptimizer's driver ---------------------------===//
//
// Models the program (abstract expressions and axes), enumerates candidate
// kernel graphs, costs every complete one, then verifies them cheapest first
// until `keep` are proven equivalent: every graph the search returns has
// passed the verifier.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Superopt/Search.h"

#include "Enumerate.h"
#include "Materialize.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Superopt/Abstraction.h"
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
  os << "kernel-ops=" << maxKernelOps << " block-ops=" << maxBlockOps
     << " block-budget=" << blockGraphBudget
     << " fused=" << maxFusedKernels << " block-inputs=" << maxBlockInputs
     << " block-outputs=" << maxBlockOutputs << " grid-dims=" << maxGridDims
     << " forloop=";
  llvm::interleave(forloopRanges, os, ",");
  os << " tiles=";
  llvm::interleave(tileExtents, os, ",");
  os << " threads-per-block=" << blockThreads << " seed=" << seed
     << " target=" << target.name << " keep=" << keep
     << " reassociate=" << reassociate;
  return text;
}

std::string superopt::canonicalText(func::FuncOp func) {
  OpBuilder b(func.getContext());
  auto clone = cast<func::FuncOp>(b.clone(*func));
  clone.setSymName("program");
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
     << ", " << llvm::format("%.2f", seconds) << " s"
     << (budgetExhausted ? " (budget exhausted)" : "");
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
  // numpy broadcasting: `operand`'s trailing dims line up with `result`'s,
  // leaving out the last `unrelated` of both (a matmul's matrix dims); a
  // dim of 1 that broadcasts is not the result's axis.
  auto joinBroadcast = [&](Value operand, Value result, int64_t unrelated = 0) {
    int64_t offset = rank(result) - rank(operand);
    for (int64_t d = 0; d < rank(operand) - unrelated; ++d)
      if (size(operand, d) == size(result, offset + d))
        join(operand, d, result, offset + d);
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
              joinBroadcast(b.getLhs(), b);
              joinBroadcast(b.getRhs(), b);
              return true;
            })
            .Case([&](tk::ReduceOp r) {
              sameDims(r.getInput(), r);
              reducedSlots.insert(slot(r, static_cast<int64_t>(r.getDim())));
              return true;
            })
            .Case([&](tk::MatmulOp m) {
              Value a = m.getLhs(), b = m.getRhs();
              int64_t ra = rank(a), rb = rank(b), rc = rank(m);
              joinBroadcast(a, m, /*unrelated=*/2);
              joinBroadcast(b, m, /*unrelated=*/2);
              join(a, ra - 2, m, rc - 2);
              join(a, ra - 1, b, rb - 2);
              join(b, rb - 1, m, rc - 1);
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
  double seconds;
  uint64_t order; // enumeration order, the tie-break
};

/// Runs `fn` with the context's diagnostics captured instead of printed.
template <typename Fn>
auto quietly(MLIRContext *context, Fn &&fn) {
  ScopedDiagnosticHandler handler(context, [](Diagnostic &) {
    return success();
  });
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
  ScopedDiagnosticHandler handler(program.getContext(),
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
  auto costOf = [&](func::FuncOp f) -> std::optional<double> {
    FailureOr<ProgramCost> cost =
        quietly(context, [&] { return estimateCost(f, opts.target); });
    if (failed(cost))
      return std::nullopt;
    return cost->seconds;
  };
  enumerateKernelGraphs(ctx, info, opts, progress, [&](const KernelGraph &g) {
    auto shared = std::make_shared<const KernelGraph>(g);
    // Every combination of block graphs of the fused kernels.
    SmallVector<size_t, 2> sizes, choices;
    for (const KernelOp &op : g.ops)
      if (op.graphs)
        sizes.push_back(op.graphs->size());
    choices.assign(sizes.size(), 0);
    while (true) {
      func::FuncOp f = materialize(scratch.get(), "candidate", type, g, choices,
                                   info.elementType, opts.blockThreads);
      if (std::optional<double> seconds = costOf(f)) {
        candidates.push_back({shared, choices, *seconds, order++});
        std::lock_guard<std::mutex> lock(progressMutex);
        bestSeconds = std::min(bestSeconds, *seconds);
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
    return std::tie(a.seconds, a.order) < std::tie(b.seconds, b.order);
  });
  for (const Candidate &c : candidates) {
    if (result.ranked.size() >= opts.keep)
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
    FailureOr<ProgramCost> cost = estimateCost(f, opts.target);
    result.ranked.push_back({f, *cost});
  }
  return result;
}

namespace {

/// The program with its prologues taken out (docs/superoptimizer.md,
/// "Prologues"): the ops whose values depend on one argument alone
/// (qknorm_attention's rms_norm(Q) and rms_norm(K)) and the ops that lead
/// to a layout change (mla_decode's transposes of Wk and C, once
/// reassociated) stay kernels of their own, and the rest, whose arguments
/// are the program's other arguments and the prologues' values, is searched
/// as a program of its own.
struct PrologueSplit {
  SmallVector<Operation *> prologue;
  /// The rest; its arguments are `restArguments`, values of the program.
  func::FuncOp rest;
  SmallVector<Value> restArguments;
};

} // namespace

/// Splits `program`, building the rest in `scratch`; nothing when it has no
/// prologue, or when a prologue value is a result (the rest would return an
/// argument).
static std::optional<PrologueSplit> splitPrologues(func::FuncOp program,
                                                   ModuleOp scratch) {
  Block &body = program.getBody().front();
  if (body.getNumArguments() > 64)
    return std::nullopt;
  llvm::DenseMap<Value, uint64_t> reads;
  for (BlockArgument arg : body.getArguments())
    reads[arg] = uint64_t(1) << arg.getArgNumber();
  PrologueSplit split;
  llvm::SmallPtrSet<Operation *, 8> inPrologue;
  // Layout changes, and every op they depend on: the search builds no
  // reshape or transpose, so what leads to one is computed as the program
  // does.
  llvm::SmallPtrSet<Operation *, 8> beforeLayoutChange;
  SmallVector<Operation *> worklist;
  for (Operation &op : body.without_terminator())
    if (isa<tk::ReshapeOp, tk::TransposeOp>(op))
      worklist.push_back(&op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!beforeLayoutChange.insert(op).second)
      continue;
    for (Value operand : op->getOperands())
      if (Operation *producer = operand.getDefiningOp())
        worklist.push_back(producer);
  }
  for (Operation &op : body.without_terminator()) {
    uint64_t mask = 0;
    for (Value operand : op.getOperands())
      mask |= reads.lookup(operand);
    for (Value result : op.getResults())
      reads[result] = mask;
    if (llvm::popcount(mask) == 1 || beforeLayoutChange.contains(&op)) {
      split.prologue.push_back(&op);
      inPrologue.insert(&op);
    }
  }
  Operation *ret = body.getTerminator();
  if (split.prologue.empty() || llvm::any_of(ret->getOperands(), [&](Value v) {
        return v.getDefiningOp() && inPrologue.contains(v.getDefiningOp());
      }))
    return std::nullopt;
  // The rest reads the arguments its ops use or returns, then the prologue
  // values its ops use, in program order.
  auto usedByRest = [&](Value v) {
    return llvm::any_of(v.getUsers(), [&](Operation *user) {
      return !inPrologue.contains(user);
    });
  };
  for (BlockArgument arg : body.getArguments())
    if (usedByRest(arg))
      split.restArguments.push_back(arg);
  for (Operation *op : split.prologue)
    for (Value result : op->getResults())
      if (usedByRest(result))
        split.restArguments.push_back(result);

  OpBuilder b(program.getContext());
  b.setInsertionPointToEnd(scratch.getBody());
  SmallVector<Type> types;
  for (Value v : split.restArguments)
    types.push_back(v.getType());
  split.rest = func::FuncOp::create(
      b, program.getLoc(), (program.getSymName() + "_rest").str(),
      b.getFunctionType(types, program.getFunctionType().getResults()));
  Block *restBody = split.rest.addEntryBlock();
  IRMapping mapping;
  for (auto [value, arg] :
       llvm::zip_equal(split.restArguments, restBody->getArguments()))
    mapping.map(value, arg);
  b.setInsertionPointToEnd(restBody);
  for (Operation &op : body.without_terminator())
    if (!inPrologue.contains(&op))
      b.clone(op, mapping);
  b.clone(*ret, mapping);
  return split;
}

/// `candidate`, a µGraph of `split.rest`, after the prologue kernels: a
/// µGraph of the whole program, as `name` in `module`.
static func::FuncOp spliceAfterPrologue(func::FuncOp program,
                                        const PrologueSplit &split,
                                        func::FuncOp candidate, ModuleOp module,
                                        StringRef name) {
  OpBuilder b(program.getContext());
  b.setInsertionPointToEnd(module.getBody());
  auto f = func::FuncOp::create(b, program.getLoc(), name,
                                program.getFunctionType());
  Block *body = f.addEntryBlock();
  IRMapping mapping;
  mapping.map(program.getArguments(), body->getArguments());
  b.setInsertionPointToEnd(body);
  for (Operation *op : split.prologue)
    b.clone(*op, mapping);
  for (auto [arg, value] :
       llvm::zip_equal(candidate.getArguments(), split.restArguments))
    mapping.map(arg, mapping.lookup(value));
  for (Operation &op : candidate.getBody().front())
    b.clone(op, mapping);
  return f;
}

static bool cheaperFirst(const RankedCandidate &x, const RankedCandidate &y) {
  return x.cost.seconds < y.cost.seconds;
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
  // rest after its prologues may still be checkable (see below).
  verifier::VerifierOptions verifierOptions;
  verifierOptions.seed = opts.seed;
  verifier::EquivalenceChecker checker(program, verifierOptions);
  std::optional<std::string> unverifiable = whyUnverifiable(program, checker);

  // The program with its matmul chains reassociated, if that lowers its
  // flops and the verifier agrees, is what the search explores; every
  // candidate is still verified against the program as given, which stays
  // a candidate itself.
  OwningOpRef<ModuleOp> reassociatedModule;
  func::FuncOp searched = program;
  if (opts.reassociate && !unverifiable) {
    reassociatedModule = ModuleOp::create(UnknownLoc::get(context));
    OpBuilder b(context);
    b.setInsertionPointToEnd(reassociatedModule->getBody());
    auto variant = cast<func::FuncOp>(b.clone(*program));
    FailureOr<verifier::VerificationResult> verdict = failure();
    if (reassociateMatmuls(variant))
      verdict = quietly(context, [&] { return checker.check(variant); });
    FailureOr<ProgramInfo> variantInfo = failure();
    if (succeeded(verdict) && verdict->equivalent)
      variantInfo =
          quietly(context, [&] { return modelProgram(variant, ctx); });
    if (succeeded(variantInfo)) {
      if (opts.progress)
        llvm::errs() << "[superopt] @" << program.getSymName()
                     << ": searching its matmul chains reassociated ("
                     << llvm::format("%.3g", matmulFlops(program) * 1e-9)
                     << " -> "
                     << llvm::format("%.3g", matmulFlops(variant) * 1e-9)
                     << " GFLOP)\n";
      searched = variant;
      info = std::move(variantInfo);
    }
  }

  SearchResult result;
  if (unverifiable)
    result.module = ModuleOp::create(UnknownLoc::get(context));
  else
    result = searchCandidates(searched, *info, ctx, checker, opts, start);

  // Ranks `f`, a function of the whole program in `result.module`, unless
  // an equal candidate was ranked before; with `verify`, only if the
  // checker finds it equivalent to the program.
  llvm::StringSet<> known;
  for (const RankedCandidate &c : result.ranked)
    known.insert(candidateKey(c.function));
  auto admit = [&](func::FuncOp f, bool verify) {
    if (!known.insert(candidateKey(f)).second) {
      f.erase();
      return;
    }
    ++result.stats.verified;
    bool equivalent = true;
    if (verify) {
      FailureOr<verifier::VerificationResult> verdict =
          quietly(context, [&] { return checker.check(f); });
      equivalent = succeeded(verdict) && verdict->equivalent;
    }
    FailureOr<ProgramCost> cost =
        quietly(context, [&] { return estimateCost(f, opts.target); });
    if (!equivalent || failed(cost)) {
      f.erase();
      return;
    }
    ++result.stats.equivalent;
    result.ranked.push_back({f, *cost});
  };

  // The program after its prologues, searched on its own with what is left
  // of the time budget: a smaller program, whose search the budgets let
  // finish (or get further) where the whole program's did not. Its
  // candidates run after the prologue kernels and are verified against the
  // whole program like any other; when the verifier cannot check the whole
  // program, their verification against the rest stands for it (the
  // prologue ops are the program's own: equal rests make equal programs).
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(UnknownLoc::get(context));
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::optional<PrologueSplit> split = splitPrologues(searched, scratch.get());
  if (split && elapsed < opts.timeBudgetSeconds) {
    if (opts.progress)
      llvm::errs() << "[superopt] @" << program.getSymName() << ": searching "
                   << "after its prologues (" << split->prologue.size()
                   << " kernel(s) kept)\n";
    SearchOptions restOptions = opts;
    restOptions.timeBudgetSeconds -= elapsed;
    ExprContext restCtx;
    verifier::EquivalenceChecker restChecker(split->rest, verifierOptions);
    FailureOr<SearchResult> rest = quietly(context, [&] {
      FailureOr<ProgramInfo> restInfo = modelProgram(split->rest, restCtx);
      if (failed(restInfo) || whyUnverifiable(split->rest, restChecker))
        return FailureOr<SearchResult>(failure());
      return FailureOr<SearchResult>(
          searchCandidates(split->rest, *restInfo, restCtx, restChecker,
                           restOptions, std::chrono::steady_clock::now()));
    });
    if (succeeded(rest)) {
      result.stats.explored += rest->stats.explored;
      result.stats.pruned += rest->stats.pruned;
      result.stats.complete += rest->stats.complete;
      result.stats.budgetExhausted |= rest->stats.budgetExhausted;
      for (const RankedCandidate &c : rest->ranked)
        admit(spliceAfterPrologue(searched, *split, c.function,
                                  result.module.get(),
                                  (program.getSymName() + "_candidate" +
                                   std::to_string(result.ranked.size()))
                                      .str()),
              /*verify=*/!unverifiable);
      keepCheapest(result, program.getSymName(), opts.keep);
    }
  }

  if (unverifiable && result.ranked.empty())
    return program.emitRemark("the verifier cannot check this program (")
           << *unverifiable << "); the function is left as it is";

  // The reassociated program itself: verified above.
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
