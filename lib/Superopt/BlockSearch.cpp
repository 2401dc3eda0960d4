//===- BlockSearch.cpp - Block graphs of a graph-defined kernel -----------===//
//
// For a set of kernel inputs, enumerates block graphs under each partition
// (BlockConfigs.h) in the canonical order (Proposals.h), by iterative
// deepening under a budget per group of partitions (docs/superoptimizer.md,
// steps 3 to 7).
//
//===----------------------------------------------------------------------===//
#include "BlockSearch.h"

#include "AbstractOps.h"
#include "Admissibility.h"
#include "BlockConfigs.h"
#include "Proposals.h"

#include <thread>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

class BlockSearch {
public:
  BlockSearch(ExprContext &ctx, const ProgramInfo &program,
              const SearchOptions &options, SearchProgress &progress,
              ArrayRef<ValueInfo> inputs, uint64_t budget)
      : ctx(ctx), program(program), options(options), progress(progress),
        budget(budget), inputs(inputs), oracle(program.makeOracle()) {}

  /// Enumerates block graphs under `search`, a config at least as fine as
  /// each of `members` along every axis, and appends those complete under
  /// each member (members split the same reduced axes and loop alike).
  void run(const BlockConfig &search, ArrayRef<BlockConfig> members,
           std::vector<BlockGraph> &found);

private:
  /// Starts a graph of the input iterators under `c`; false when a tensor
  /// does not divide.
  bool setUp(const BlockConfig &c);
  /// `shape`'s ops replayed under `c`, if they fit it.
  std::optional<BlockGraph> instantiate(const BlockGraph &shape,
                                        const BlockConfig &c);
  /// A lower bound of the shared memory a block needs: the input tiles
  /// (double-buffered when streamed) and every value after an accumulator
  /// stay; a value before one needs room only next to its operands. Returns
  /// the elements that stay after `result`, or nothing when the bound
  /// already exceeds the target. The cost model checks the materialized
  /// graph exactly.
  std::optional<int64_t>
  sharedMemoryAfter(const ValueInfo &result, bool post,
                    ArrayRef<const ValueInfo *> operands) const;
  /// Adds `op`, whose value is `result`, to the graph; pop() takes the last
  /// op back.
  void push(const OpDesc &op, ValueInfo result, bool post);
  void pop();
  /// The savers of the current graph when it is complete: every
  /// pre-accumulator value used, the unused post-accumulator values (at most
  /// maxBlockOutputs) all values of the program, every split grid dim mapped.
  std::optional<SmallVector<BlockOutput, 2>> completeOutputs() const;
  /// The saver of tile `t`, or nothing when its tensor would be neither a
  /// value of the program nor chunks of partial results of one.
  std::optional<BlockOutput> placeOutput(int t) const;
  void grow();
  void tryComplete();
  bool accumulatorAllowed(const OpDesc &op) const;
  /// The grid dim that splits `axis` among blocks, if any.
  std::optional<int64_t> gridDimSplitting(AxisRef axis) const;
  /// Grid-wide rms_norms of tile `t` (tb.rms_norm `across`): where its
  /// rows are split among the blocks of a grid dim, after a reducing
  /// accumulator (blocks wait for each other there, once). Without a loop,
  /// a kernel of blocks that hold whole rows does the same without waiting.
  void proposeGridNorms(int t, SmallVectorImpl<Proposal> &out) const;
  /// Whether `op` comes after the accumulators: an accumulator, or an op on
  /// a value after one (its other operands loop-invariant).
  bool isPost(const OpDesc &op) const {
    return op.kind == OpKind::Accum ||
           llvm::any_of(op.operands, [&](int o) { return graph.post[o]; });
  }

  ExprContext &ctx;
  const ProgramInfo &program;
  const SearchOptions &options;
  SearchProgress &progress;
  /// Partial graphs one group of configs may explore.
  uint64_t budget;
  uint64_t explored = 0;
  unsigned depthLimit = 0;
  ArrayRef<ValueInfo> inputs;
  SubexpressionOracle oracle;
  TermCache terms;

  BlockConfig config;
  BlockGraph graph;
  SmallVector<unsigned, 16> uses;
  /// Per tile: whether it holds an exp shifted by a partial maximum
  /// (shiftedByPartialMax), kept as ops are pushed and popped.
  SmallVector<bool, 16> shifted;
  /// Per tile: whether it is the same in every iteration (an input the loop
  /// does not walk, or computed from such tiles alone). Such a tile may
  /// also be an operand after the accumulators: LoRA's B multiplies the
  /// accumulated X A, and the lowering loads it once before the loop.
  SmallVector<bool, 16> invariant;
  SmallVector<OpKey, 12> keys;
  int accumKind = -1; // the kind of the first accumulator
  std::vector<BlockGraph> *found = nullptr;
  /// While searching for several members: a grid dim over an axis the
  /// program keeps need not be mapped by every output (a member that does
  /// not split that axis may complete the graph); instantiate() checks.
  bool anyMember = false;
  /// Elements of the tiles that stay in shared memory (sharedMemoryAfter).
  int64_t sharedMemoryElements = 0;
};

bool BlockSearch::setUp(const BlockConfig &c) {
  config = c;
  graph = BlockGraph();
  graph.forloopRange = c.forloopRange;
  for (auto [i, part] : llvm::enumerate(c.grid))
    graph.grid[i] = part.second;
  uses.clear();
  shifted.clear();
  invariant.clear();
  keys.clear();
  accumKind = -1;
  sharedMemoryElements = 0;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    BlockInput in;
    in.tensor = static_cast<int>(i);
    ValueInfo tile = input;
    for (auto [g, part] : llvm::enumerate(c.grid))
      for (size_t d = 0; d < tile.shape.size(); ++d)
        if (tile.axes[d] == AxisRef{part.first, false}) {
          if (tile.shape[d] % part.second != 0)
            return false;
          in.imap[g] = static_cast<int64_t>(d);
          tile.shape[d] /= part.second;
        }
    for (size_t d = 0; d < tile.shape.size(); ++d) {
      AxisRef &axis = tile.axes[d];
      bool walked = c.loopOverPartials
                        ? axis.partialOf == c.loopAxis
                        : c.loopAxis >= 0 && axis == AxisRef{c.loopAxis, false};
      if (!walked)
        continue;
      if (tile.shape[d] % c.forloopRange != 0)
        return false;
      in.fmap = static_cast<int64_t>(d);
      tile.shape[d] /= c.forloopRange;
      // One chunk per iteration: the tile is one block's partial result.
      if (c.loopOverPartials)
        axis = AxisRef{axis.axis, axis.reduced};
    }
    // Input tiles are double-buffered when the loop streams them.
    sharedMemoryElements +=
        tile.numElements() * (in.fmap >= 0 && c.forloopRange > 1 ? 2 : 1);
    graph.inputs.push_back(in);
    shifted.push_back(tile.partialShift);
    invariant.push_back(in.fmap < 0);
    graph.tiles.push_back(std::move(tile));
    graph.post.push_back(false);
    uses.push_back(0);
  }
  return true;
}

std::optional<int64_t>
BlockSearch::sharedMemoryAfter(const ValueInfo &result, bool post,
                               ArrayRef<const ValueInfo *> operands) const {
  int64_t persistent = sharedMemoryElements + (post ? result.numElements() : 0);
  int64_t peak = persistent + (post ? 0 : result.numElements());
  for (const ValueInfo *operand : operands)
    peak += operand->numElements();
  if (peak * program.elementType.getIntOrFloatBitWidth() / 8 >
      options.target.sharedMemoryPerBlock)
    return std::nullopt;
  return persistent;
}

void BlockSearch::push(const OpDesc &op, ValueInfo result, bool post) {
  if (op.kind == OpKind::Accum && accumKind < 0)
    accumKind = op.sub;
  for (int o : op.operands)
    ++uses[o];
  shifted.push_back(shiftsByPartialMax(ctx, program, graph, op, shifted));
  invariant.push_back(
      op.kind != OpKind::Accum &&
      llvm::all_of(op.operands, [&](int o) { return invariant[o]; }));
  graph.tiles.push_back(std::move(result));
  graph.post.push_back(post);
  graph.ops.push_back(op);
  uses.push_back(0);
}

void BlockSearch::pop() {
  OpDesc op = graph.ops.pop_back_val();
  uses.pop_back();
  shifted.pop_back();
  invariant.pop_back();
  graph.post.pop_back();
  graph.tiles.pop_back();
  for (int o : op.operands)
    --uses[o];
  if (llvm::none_of(graph.ops,
                    [](const OpDesc &o) { return o.kind == OpKind::Accum; }))
    accumKind = -1;
}

std::optional<BlockGraph> BlockSearch::instantiate(const BlockGraph &shape,
                                                   const BlockConfig &c) {
  if (!setUp(c))
    return std::nullopt;
  for (OpDesc op : shape.ops) {
    SmallVector<const ValueInfo *, 2> operands = operandsOf(op, graph.tiles);
    // A member may place the normalized axis on another grid dim.
    if (op.kind == OpKind::RmsNorm && op.sub == kAcrossGrid) {
      std::optional<int64_t> g = gridDimSplitting(operands[0]->axes.back());
      if (!g)
        return std::nullopt;
      op.dim = *g;
    }
    std::optional<ValueInfo> result =
        applyOp(ctx, op, operands, config.forloopRange, &terms,
                /*broadcastBatch=*/false, graph.grid);
    if (!result)
      return std::nullopt;
    bool post = isPost(op);
    std::optional<int64_t> elements =
        sharedMemoryAfter(*result, post, operands);
    if (!elements)
      return std::nullopt;
    sharedMemoryElements = *elements;
    push(op, std::move(*result), post);
  }
  // Blocks that wait for each other must all be resident at once: at most
  // one per SM (as the cost model requires).
  bool waits = llvm::any_of(shape.ops, [](const OpDesc &op) {
    return op.kind == OpKind::RmsNorm && op.sub == kAcrossGrid;
  });
  if (waits && graph.grid[0] * graph.grid[1] * graph.grid[2] >
                   static_cast<int64_t>(options.target.numSMs))
    return std::nullopt;
  std::optional<SmallVector<BlockOutput, 2>> outputs = completeOutputs();
  if (!outputs)
    return std::nullopt;
  graph.outputs = std::move(*outputs);
  return graph;
}

void BlockSearch::run(const BlockConfig &search, ArrayRef<BlockConfig> members,
                      std::vector<BlockGraph> &results) {
  // The ops of a graph do not depend on the block counts and the loop range
  // of a config, nor on whether the grid splits axes the program keeps
  // (ops never reduce over those; a single row may broadcast where a
  // longer tile cannot, and instantiate() rejects such graphs), only on
  // the reduced axes the grid splits and the axis the
  // loop walks: search once, then replay what was found under each member.
  //
  // Iterative deepening under a node budget: every depth is searched
  // completely before the next, so the smallest graphs are found first and
  // one deep search cannot starve the kernel-level search. A depth the
  // budget cannot finish is not started: it would explore an arbitrary
  // prefix of the canonical order. Its size is predicted from the growth
  // of the last depth (each depth repeats the shallower ones, so the
  // sizes of consecutive depths grow by about the branching factor).
  std::vector<BlockGraph> shapes;
  found = &shapes;
  explored = 0;
  uint64_t lastDepthSize = 0;
  anyMember = true;
  for (depthLimit = 1; depthLimit <= options.maxBlockOps; ++depthLimit) {
    if (!setUp(search))
      break;
    uint64_t before = explored;
    grow();
    uint64_t depthSize = explored - before;
    if (explored > budget || progress.stop.load())
      break;
    if (lastDepthSize > 0 &&
        explored + depthSize * depthSize / lastDepthSize > budget)
      break;
    lastDepthSize = depthSize;
  }
  anyMember = false;
  for (const BlockConfig &c : members)
    for (const BlockGraph &shape : shapes)
      if (std::optional<BlockGraph> g = instantiate(shape, c))
        results.push_back(std::move(*g));
}

std::optional<int64_t> BlockSearch::gridDimSplitting(AxisRef axis) const {
  if (axis.reduced || axis.partialOf >= 0)
    return std::nullopt;
  for (auto [g, part] : llvm::enumerate(config.grid))
    if (part.first == axis.axis && part.second > 1)
      return static_cast<int64_t>(g);
  return std::nullopt;
}

void BlockSearch::proposeGridNorms(int t,
                                   SmallVectorImpl<Proposal> &out) const {
  const ValueInfo &tile = graph.tiles[t];
  if (!options.gridReductions || tile.shape.empty())
    return;
  std::optional<int64_t> g = gridDimSplitting(tile.axes.back());
  bool reducing =
      accumKind >= 0 && accumKind != static_cast<int>(tb::AccumKind::none);
  if (!g || !(graph.post[t] && reducing))
    return;
  for (auto [i, c] : llvm::enumerate(program.addends))
    out.push_back({OpDesc{OpKind::RmsNorm, kAcrossGrid, c, *g, {t}},
                   OpKey{t, static_cast<int64_t>(OpKind::RmsNorm), kAcrossGrid,
                         t, *g * 2, static_cast<int64_t>(i)}});
}

bool BlockSearch::accumulatorAllowed(const OpDesc &op) const {
  auto kind = static_cast<tb::AccumKind>(op.sub);
  const ValueInfo &x = graph.tiles[op.operands[0]];
  bool walksLoop = llvm::any_of(x.axes, [&](AxisRef a) {
    return a == AxisRef{config.loopAxis, false};
  });
  // One kind of layout per graph: all `none`, or all reducing.
  bool none = kind == tb::AccumKind::none;
  if (accumKind >= 0 &&
      none != (accumKind == static_cast<int>(tb::AccumKind::none)))
    return false;
  // Accumulating an input tile untouched only copies it (or adds the same
  // tile up), unless the loop walks chunks of partial results: then it
  // combines them.
  int operand = op.operands[0];
  if (operand < static_cast<int>(graph.inputs.size()) &&
      !(config.loopOverPartials && graph.inputs[operand].fmap >= 0))
    return false;
  if (config.forloopRange == 1)
    return none;
  // `none` lays the iterations out along the dim the loop walks; the others
  // combine iterations, which must then not walk a dim of the tile.
  if (none)
    return walksLoop;
  if (walksLoop)
    return false;
  if (kind == tb::AccumKind::sum_rescale) {
    const Expr *scale = graph.tiles[op.operands[1]].expr;
    return scale->getKind() == ExprKind::Max;
  }
  return combinesShiftsConsistently(shifted, op.operands[0], kind);
}

std::optional<SmallVector<BlockOutput, 2>>
BlockSearch::completeOutputs() const {
  SmallVector<BlockOutput, 2> outputs;
  for (auto [t, tile] : llvm::enumerate(graph.tiles)) {
    if (uses[t] > 0)
      continue;
    if (!graph.post[t])
      return std::nullopt; // a pre-accumulator value nobody uses
    if (outputs.size() == options.maxBlockOutputs)
      return std::nullopt;
    std::optional<BlockOutput> out = placeOutput(static_cast<int>(t));
    if (!out)
      return std::nullopt;
    // An exp shifted by a partial maximum is right only as a partial
    // result, which the combining kernel rescales.
    if (shifted[t] && !isPartial(out->tensor))
      return std::nullopt;
    out->tensor.partialShift = shifted[t];
    outputs.push_back(std::move(*out));
  }
  if (outputs.empty())
    return std::nullopt;
  // A kernel that writes partial results writes nothing else: the values
  // it holds whole are another kernel's (one search, not one per mix).
  auto partial = [](const BlockOutput &out) { return isPartial(out.tensor); };
  if (llvm::any_of(outputs, partial) && !llvm::all_of(outputs, partial))
    return std::nullopt;
  return outputs;
}

std::optional<BlockOutput> BlockSearch::placeOutput(int t) const {
  const ValueInfo &tile = graph.tiles[t];
  BlockOutput out;
  out.tile = t;
  out.tensor = tile;
  // A grid dim over an axis the tile keeps places the blocks' tiles side by
  // side along it. The blocks along a grid dim over an axis the program
  // reduces and the tile does not keep each hold a partial result over
  // their chunk of it (a reduction over the chunk, or a product contracted
  // over it): they are laid out along the dim that holds the axis reduced,
  // else along the outermost dim no other grid dim takes, as chunks
  // (AxisRef::partialOf) that a later kernel combines. Outermost, because
  // the combining kernel's grid cannot split a dim of chunks (its loop
  // walks them): chunks along the rows leave it the columns, which every
  // partial product has and which are contiguous.
  std::optional<std::pair<size_t, int>> partial; // grid dim, axis
  for (auto [g, part] : llvm::enumerate(config.grid)) {
    auto [axis, blocks] = part;
    auto *it = llvm::find(tile.axes, AxisRef{axis, false});
    if (it != tile.axes.end()) {
      int64_t d = it - tile.axes.begin();
      out.omap[g] = d;
      out.tensor.shape[d] *= blocks;
      continue;
    }
    if (!program.reducedAxes.contains(axis)) {
      if (anyMember)
        continue;
      return std::nullopt; // blocks would overwrite each other's tiles
    }
    // Partials over two axes would need two chunk dims.
    if (partial)
      return std::nullopt;
    partial = {g, axis};
  }
  // Iterations kept side by side (a `none` accumulator) are laid out along
  // the dim the loop walks.
  if (accumKind == static_cast<int>(tb::AccumKind::none) &&
      config.forloopRange > 1) {
    auto *it = llvm::find(tile.axes, AxisRef{config.loopAxis, false});
    if (it == tile.axes.end())
      return std::nullopt;
    int64_t d = it - tile.axes.begin();
    out.fmap = d;
    out.tensor.shape[d] *= config.forloopRange;
  }
  if (partial) {
    auto [g, axis] = *partial;
    int64_t blocks = config.grid[g].second;
    auto *it = llvm::find(tile.axes, AxisRef{axis, true});
    int64_t rank = static_cast<int64_t>(tile.axes.size());
    int64_t d = 0;
    if (it != tile.axes.end())
      d = it - tile.axes.begin();
    else
      while (d < rank && (llvm::is_contained(out.omap, d) || d == out.fmap))
        ++d;
    if (d == rank)
      return std::nullopt;
    out.omap[g] = d;
    out.tensor.shape[d] *= blocks;
    out.tensor.axes[d].partialOf = axis;
    out.tensor.axes[d].partials = blocks;
  }
  // A kernel's outputs are values the program computes (a graph-defined
  // kernel replaces a part of the program), or partial results of one. A
  // value the program computes whole needs no chunks; the oracle has
  // admitted every tile's term already.
  if (program.subtermSet.contains(tile.expr) == partial.has_value())
    return std::nullopt;
  return out;
}

void BlockSearch::tryComplete() {
  std::optional<SmallVector<BlockOutput, 2>> outputs = completeOutputs();
  if (!outputs)
    return;
  graph.outputs = std::move(*outputs);
  found->push_back(graph);
  graph.outputs.clear();
}

void BlockSearch::grow() {
  if (graph.ops.size() == depthLimit) {
    tryComplete(); // smaller graphs were found at smaller limits
    return;
  }
  if (progress.stop.load() || explored > budget)
    return;
  unsigned remaining = depthLimit - graph.ops.size();
  SmallVector<Proposal, 64> proposals;
  // Values meet within their phase; a loop-invariant tile meets any value.
  auto meet = [&](int u, int t) {
    return graph.post[u] == graph.post[t] || invariant[u] || invariant[t];
  };
  int64_t minNewest = keys.empty() ? 0 : keys.back()[0];
  for (int t = static_cast<int>(minNewest);
       t < static_cast<int>(graph.tiles.size()); ++t) {
    proposals.clear();
    proposeComputeOps(program, graph.tiles, meet, t,
                      /*allowRmsNorm=*/true, proposals);
    proposeGridNorms(t, proposals);
    if (!graph.post[t]) {
      for (tb::AccumKind kind : {tb::AccumKind::none, tb::AccumKind::sum,
                                 tb::AccumKind::mean, tb::AccumKind::max})
        proposals.push_back(
            {OpDesc{OpKind::Accum, static_cast<int>(kind), 0, 0, {t}},
             OpKey{t, static_cast<int64_t>(OpKind::Accum),
                   static_cast<int64_t>(kind), t, 0, 0}});
      for (int s = 0; s < static_cast<int>(graph.tiles.size()); ++s)
        if (s != t && !graph.post[s])
          proposals.push_back(
              {OpDesc{OpKind::Accum,
                      static_cast<int>(tb::AccumKind::sum_rescale),
                      0,
                      0,
                      {t, s}},
               OpKey{std::max(t, s), static_cast<int64_t>(OpKind::Accum),
                     static_cast<int64_t>(tb::AccumKind::sum_rescale),
                     std::min(t, s), t > s, 0}});
    }
    for (Proposal &p : proposals) {
      if (!keys.empty() && !(keys.back() < p.key))
        continue;
      if (p.op.kind == OpKind::Accum && !accumulatorAllowed(p.op))
        continue;
      bool post = isPost(p.op);
      // After a `none` accumulator (or without a loop) an op computes the
      // same before or after it: only the order with the op first is built.
      if (post && p.op.kind != OpKind::Accum &&
          accumKind == static_cast<int>(tb::AccumKind::none))
        continue;
      SmallVector<const ValueInfo *, 2> operands =
          operandsOf(p.op, graph.tiles);
      std::optional<ValueInfo> result =
          applyOp(ctx, p.op, operands, config.forloopRange, &terms,
                  /*broadcastBatch=*/false, graph.grid);
      if (!result)
        continue;
      ++explored;
      if (!progress.tick())
        return;
      // Values are compared within their phase.
      if (!admissible(program, p.op, operands, *result, graph.tiles, graph.post,
                      post) ||
          !oracle.mayBeSubexpression(result->expr)) {
        progress.pruned.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
      // Every pre-accumulator value must end up used, and at most
      // maxBlockOutputs post-accumulator values unused (saved). An op lowers
      // either count by at most one (a binary op consumes two and makes
      // one), so more than the remaining ops can fix is a dead end.
      unsigned unusedPre = !post, unusedPost = post;
      for (size_t i = 0; i < graph.tiles.size(); ++i) {
        bool unused = uses[i] == 0 &&
                      !llvm::is_contained(p.op.operands, static_cast<int>(i));
        (graph.post[i] ? unusedPost : unusedPre) += unused;
      }
      unsigned extraPost = unusedPost > options.maxBlockOutputs
                               ? unusedPost - options.maxBlockOutputs
                               : 0;
      if (unusedPre > remaining - 1 || extraPost > remaining - 1)
        continue;
      std::optional<int64_t> persistent =
          sharedMemoryAfter(*result, post, operands);
      if (!persistent)
        continue;
      int64_t elements = *persistent;

      push(p.op, std::move(*result), post);
      keys.push_back(p.key);
      std::swap(sharedMemoryElements, elements);
      grow();
      std::swap(sharedMemoryElements, elements);
      keys.pop_back();
      pop();
      if (progress.stop.load())
        return;
    }
  }
}

} // namespace

std::vector<BlockGraph> superopt::searchBlockGraphs(
    ExprContext &ctx, const ProgramInfo &program, const SearchOptions &options,
    SearchProgress &progress, ArrayRef<ValueInfo> inputs) {
  SmallVector<BlockConfig> configs = blockConfigs(program, inputs, options);
  std::vector<BlockConfigGroup> groups = groupBlockConfigs(program, configs);
  std::vector<std::vector<BlockGraph>> perGroup(groups.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    BlockSearch search(ctx, program, options, progress, inputs,
                       options.blockGraphBudget);
    for (size_t i = next++; i < groups.size(); i = next++)
      search.run(groups[i].search, groups[i].members, perGroup[i]);
  };
  unsigned threads = std::max(1u, options.numThreads);
  SmallVector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i)
    pool.emplace_back(worker);
  worker();
  for (std::thread &t : pool)
    t.join();
  std::vector<BlockGraph> all;
  for (auto &graphs : perGroup)
    all.insert(all.end(), std::make_move_iterator(graphs.begin()),
               std::make_move_iterator(graphs.end()));
  return all;
}
