//===- KernelSearch.cpp - Kernel graphs of the program --------------------===//
//
// Grows kernel graphs one kernel at a time in the canonical order
// (Proposals.h): predefined kernels, and graph-defined ones over sets of
// tensors whose block graphs the block search finds (BlockSearch.h). A new
// tensor survives only if its abstract expression may be a subexpression of
// the program (SubexpressionOracle) and no tensor of the same shape has the
// same expression (docs/superoptimizer.md, step 2).
//
//===----------------------------------------------------------------------===//
#include "KernelSearch.h"

#include "AbstractOps.h"
#include "Admissibility.h"
#include "BlockSearch.h"
#include "Proposals.h"

#include <functional>
#include <map>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

class KernelSearch {
public:
  KernelSearch(ExprContext &ctx, const ProgramInfo &program,
               const SearchOptions &options, SearchProgress &progress,
               llvm::function_ref<void(const KernelGraph &)> onComplete)
      : ctx(ctx), program(program), options(options), progress(progress),
        oracle(program.makeOracle()), onComplete(onComplete) {}

  void run() {
    graph.tensors.assign(program.arguments.begin(), program.arguments.end());
    grow();
  }

private:
  void grow();
  /// Reports the graph when it is complete; whether it holds every output.
  bool tryComplete();
  bool isNew(const ValueInfo &v) const {
    return !llvm::any_of(graph.tensors, [&](const ValueInfo &t) {
      return t.expr == v.expr && t.shape == v.shape;
    });
  }
  void push(KernelOp op, ArrayRef<ValueInfo> results, OpKey key);
  /// Adds graph-defined kernels whose newest input is tensor `t`.
  void growFused(int t);
  /// A graph-defined kernel replaces a part of the program: it reads the
  /// program's arguments, values the program computes, or chunks of partial
  /// results of one (which it combines).
  bool readable(int tensor) const {
    return tensor < static_cast<int>(program.arguments.size()) ||
           program.subtermSet.contains(graph.tensors[tensor].expr) ||
           isPartial(tensor);
  }
  bool isPartial(int tensor) const {
    return superopt::isPartial(graph.tensors[tensor]);
  }
  /// The program's arguments `e` is a term of, as bits.
  uint64_t argumentsOf(const Expr *e);
  /// Whether a kernel over `inputs` could output values of the program (or
  /// partial results of them) that read each input. A kernel's outputs are
  /// computed from its inputs alone, so an output holds no argument the
  /// inputs do not; and every input of a block graph is read by an op that
  /// contributes to an output. An input none of whose candidate outputs
  /// holds all of its arguments could only contribute terms that cancel:
  /// such a kernel computes nothing the same kernel without that input
  /// would not. (qknorm_attention: a kernel over Q and V has nothing to
  /// output, as V meets Q only through K, yet its block search explored 20
  /// million partial graphs.)
  bool mayFeedProgramValues(ArrayRef<int> inputs);
  /// The fused kernels over `inputs`, grouped by their outputs (cached).
  const SmallVector<std::shared_ptr<const BlockGraphGroup>> &
  fusedKernels(ArrayRef<int> inputs);

  ExprContext &ctx;
  const ProgramInfo &program;
  const SearchOptions &options;
  SearchProgress &progress;
  SubexpressionOracle oracle;
  TermCache terms;
  llvm::function_ref<void(const KernelGraph &)> onComplete;

  KernelGraph graph;
  SmallVector<OpKey, 8> keys;
  unsigned fusedCount = 0;
  std::map<std::string, SmallVector<std::shared_ptr<const BlockGraphGroup>>>
      fusedCache;
  llvm::DenseMap<const Expr *, uint64_t> argumentCache;
};

uint64_t KernelSearch::argumentsOf(const Expr *e) {
  if (e->getKind() == ExprKind::Input)
    return uint64_t(1) << e->getCount();
  auto it = argumentCache.find(e);
  if (it != argumentCache.end())
    return it->second;
  uint64_t mask = 0;
  for (const Expr *operand : e->getOperands())
    mask |= argumentsOf(operand);
  argumentCache[e] = mask;
  return mask;
}

bool KernelSearch::mayFeedProgramValues(ArrayRef<int> inputs) {
  if (program.arguments.size() > 64)
    return true;
  uint64_t available = 0;
  for (int i : inputs)
    available |= argumentsOf(graph.tensors[i].expr);
  return llvm::all_of(inputs, [&](int i) {
    const Expr *input = graph.tensors[i].expr;
    uint64_t needed = argumentsOf(input);
    return llvm::any_of(program.subterms, [&](const Expr *value) {
      uint64_t holds = argumentsOf(value);
      return value != input && (holds & needed) == needed &&
             (holds & ~available) == 0;
    });
  });
}

bool KernelSearch::tryComplete() {
  SmallVector<int, 2> outputs;
  for (const ValueInfo &out : program.outputs) {
    int found = -1;
    for (auto [i, t] : llvm::enumerate(graph.tensors))
      if (t.expr == out.expr && t.shape == out.shape)
        found = static_cast<int>(i);
    if (found < 0)
      return false;
    outputs.push_back(found);
  }
  // Canonical: every op contributes to an output.
  SmallVector<bool, 16> needed(graph.tensors.size(), false);
  for (int o : outputs)
    needed[o] = true;
  for (const KernelOp &op : llvm::reverse(graph.ops)) {
    if (!llvm::any_of(op.results, [&](int r) { return needed[r]; }))
      return true;
    if (op.graphs)
      for (const BlockInput &in : op.graphs->front().inputs)
        needed[in.tensor] = true;
    else
      for (int o : op.op.operands)
        needed[o] = true;
  }
  graph.outputs = outputs;
  progress.complete.fetch_add(1, std::memory_order_relaxed);
  onComplete(graph);
  graph.outputs.clear();
  return true;
}

void KernelSearch::push(KernelOp op, ArrayRef<ValueInfo> results, OpKey key) {
  for (const ValueInfo &r : results) {
    op.results.push_back(static_cast<int>(graph.tensors.size()));
    graph.tensors.push_back(r);
  }
  graph.ops.push_back(std::move(op));
  keys.push_back(key);
  grow();
  keys.pop_back();
  graph.tensors.resize(graph.tensors.size() - results.size());
  graph.ops.pop_back();
}

const SmallVector<std::shared_ptr<const BlockGraphGroup>> &
KernelSearch::fusedKernels(ArrayRef<int> inputs) {
  std::string key;
  SmallVector<ValueInfo, 3> values;
  for (int i : inputs) {
    values.push_back(graph.tensors[i]);
    key += std::to_string(graph.tensors[i].expr->getId()) + ":";
    for (int64_t d : graph.tensors[i].shape)
      key += std::to_string(d) + "x";
    key += ";";
  }
  auto [it, inserted] = fusedCache.try_emplace(key);
  if (!inserted)
    return it->second;
  std::vector<BlockGraph> graphs;
  if (mayFeedProgramValues(inputs))
    graphs = searchBlockGraphs(ctx, program, options, progress, values);
  // Group by outputs, in first-found order.
  std::map<std::string, size_t> index;
  SmallVector<std::shared_ptr<BlockGraphGroup>> groups;
  for (BlockGraph &g : graphs) {
    std::string signature;
    for (const BlockOutput &out : g.outputs) {
      signature += std::to_string(out.tensor.expr->getId()) + ":";
      for (auto [d, a] : llvm::zip_equal(out.tensor.shape, out.tensor.axes))
        signature += std::to_string(d) + "/" + std::to_string(a.axis) +
                     (a.reduced ? "r" : "") + "p" +
                     std::to_string(a.partialOf) + ",";
      signature += out.tensor.partialShift ? "s;" : ";";
    }
    auto [slot, fresh] = index.try_emplace(signature, groups.size());
    if (fresh)
      groups.push_back(std::make_shared<BlockGraphGroup>());
    groups[slot->second]->push_back(std::move(g));
  }
  it->second.assign(groups.begin(), groups.end());
  return it->second;
}

void KernelSearch::growFused(int t) {
  if (fusedCount >= options.maxFusedKernels || !readable(t))
    return;
  // Larger input sets first: a kernel over more of the program fuses more.
  // A kernel may also read every argument of the program, however many: it
  // computes the whole program in one launch (LoRA reads X, W, A and B).
  SmallVector<unsigned, 4> sizes;
  if (t + 1 == static_cast<int>(program.arguments.size()) &&
      program.arguments.size() > options.maxBlockInputs)
    sizes.push_back(t + 1);
  for (unsigned n = std::min<unsigned>(options.maxBlockInputs, t + 1); n >= 1;
       --n)
    sizes.push_back(n);
  for (unsigned n : sizes) {
    // Subsets of {0..t-1} of size n-1, plus t, newest tensors first (the
    // order of exploration; the keys decide which graphs exist).
    SmallVector<int, 3> pick; // descending
    std::function<void(int)> choose = [&](int below) {
      if (pick.size() == n - 1) {
        SmallVector<int, 3> inputs(llvm::reverse(pick));
        inputs.push_back(t);
        // A kernel that combines partial results reads nothing else: what
        // the program does with the combined values is a later kernel's.
        if (llvm::any_of(inputs, [&](int i) { return isPartial(i); }) &&
            !llvm::all_of(inputs, [&](int i) { return isPartial(i); }))
          return;
        const auto &groups = fusedKernels(inputs);
        for (auto [gi, group] : llvm::enumerate(groups)) {
          OpKey key{t, 16, static_cast<int64_t>(gi), inputs.front(),
                    static_cast<int64_t>(n), 0};
          if (!keys.empty() && !(keys.back() < key))
            continue;
          SmallVector<ValueInfo, 2> results;
          bool useful = true;
          for (const BlockOutput &out : group->front().outputs) {
            useful &= isNew(out.tensor);
            results.push_back(out.tensor);
          }
          // Even when a budget ran out during the block search, what it
          // found is still placed: completing a graph is cheap.
          progress.tick();
          if (!useful) {
            progress.pruned.fetch_add(1, std::memory_order_relaxed);
            continue;
          }
          // Remap the block graphs' input numbers to kernel tensors.
          auto remapped = std::make_shared<BlockGraphGroup>(*group);
          for (BlockGraph &g : *remapped)
            for (BlockInput &in : g.inputs)
              in.tensor = inputs[in.tensor];
          KernelOp op;
          op.graphs = remapped;
          ++fusedCount;
          push(std::move(op), results, key);
          --fusedCount;
        }
        return;
      }
      // Only as low as leaves enough tensors below for the rest of the
      // set: without this bound, a kernel over all of 70 arguments walked
      // every smaller subset of them first.
      int stillNeeded = static_cast<int>(n - 1 - pick.size());
      for (int i = below - 1; i >= stillNeeded - 1; --i) {
        if (!readable(i))
          continue;
        pick.push_back(i);
        choose(i);
        pick.pop_back();
      }
    };
    choose(t);
  }
}

void KernelSearch::grow() {
  // A graph that holds every output is not grown: whatever it would
  // compute next only adds kernels (and their cost) to one found already.
  if (tryComplete() || graph.ops.size() >= options.maxKernelOps ||
      progress.stop.load())
    return;
  int64_t minNewest = keys.empty() ? 0 : keys.back()[0];
  int numTensors = static_cast<int>(graph.tensors.size());
  SmallVector<Proposal, 64> proposals;
  // Newest tensors first, and graph-defined kernels before predefined ones:
  // kernels over more of the program are what the search is for, and a
  // budget may stop it. (The order of exploration does not change which
  // graphs exist: the keys do.)
  for (int t = numTensors - 1; t >= static_cast<int>(minNewest); --t) {
    growFused(t);
    if (progress.stop.load())
      return;
    proposals.clear();
    // Kernel-level values have one phase: any two may meet.
    proposeComputeOps(
        program, graph.tensors, [](int, int) { return true; }, t,
        /*allowRmsNorm=*/true, proposals);
    for (Proposal &p : proposals) {
      if (!keys.empty() && !(keys.back() < p.key))
        continue;
      // Partial results are read by the kernel that combines them only.
      if (llvm::any_of(p.op.operands, [&](int o) { return isPartial(o); }))
        continue;
      SmallVector<const ValueInfo *, 2> operands =
          operandsOf(p.op, graph.tensors);
      std::optional<ValueInfo> result =
          applyOp(ctx, p.op, operands, 1, &terms, /*broadcastBatch=*/true);
      if (!result)
        continue;
      if (!progress.tick())
        return;
      if (!admissible(program, p.op, operands, *result, graph.tensors) ||
          !oracle.mayBeSubexpression(result->expr) || !isNew(*result)) {
        progress.pruned.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
      KernelOp op;
      op.op = p.op;
      push(std::move(op), {*result}, p.key);
      if (progress.stop.load())
        return;
    }

  }
}

} // namespace

void superopt::enumerateKernelGraphs(
    ExprContext &ctx, const ProgramInfo &program,
    const SearchOptions &options, SearchProgress &progress,
    llvm::function_ref<void(const KernelGraph &)> onComplete) {
  KernelSearch search(ctx, program, options, progress, onComplete);
  search.run();
}
