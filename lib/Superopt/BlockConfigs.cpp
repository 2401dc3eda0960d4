//===- BlockConfigs.cpp - Partitions of a kernel's inputs -----------------===//
#include "BlockConfigs.h"

#include "llvm/ADT/bit.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

/// The partitions tried for a kernel with `inputs`: every set of up to
/// maxGridDims axes split into tiles of the allowed extents, times every
/// axis the loop may walk in the allowed ranges (in chunks of a power of
/// two), or no loop. A kernel that
/// reads chunks of partial results is there to combine them: its loop walks
/// the chunks, one per iteration.
SmallVector<BlockConfig> superopt::blockConfigs(const ProgramInfo &program,
                                                ArrayRef<ValueInfo> inputs,
                                                const SearchOptions &options) {
  bool readsMatmulOperand = llvm::any_of(inputs, [&](const ValueInfo &v) {
    return program.matmulOperands.contains(v.expr);
  });
  // Axes of the inputs and their extents, and the chunked partial results
  // (axis, chunks). Dims of chunks are walked whole by the loop, never
  // split by the grid.
  SmallVector<std::pair<int, int64_t>> axes, partials;
  for (const ValueInfo &v : inputs)
    for (auto [d, a] : llvm::enumerate(v.axes)) {
      if (a.partialOf >= 0) {
        if (!llvm::is_contained(partials, std::pair(a.partialOf, a.partials)))
          partials.push_back({a.partialOf, a.partials});
        continue;
      }
      if (!a.reduced && v.shape[d] > 1 &&
          !llvm::any_of(axes, [&](auto &x) { return x.first == a.axis; }))
        axes.push_back({a.axis, v.shape[d]});
    }
  llvm::sort(axes);
  llvm::sort(partials);

  SmallVector<SmallVector<std::pair<int, int64_t>, 3>> grids = {{}};
  for (unsigned level = 0; level < options.maxGridDims; ++level) {
    SmallVector<SmallVector<std::pair<int, int64_t>, 3>> next;
    for (auto &g : grids) {
      if (g.size() != level)
        continue;
      for (auto [axis, extent] : axes) {
        if (!g.empty() && axis <= g.back().first)
          continue;
        SmallVector<int64_t, 4> splits;
        for (int64_t tile : options.tileExtents)
          if (extent % tile == 0 && extent / tile >= 2)
            splits.push_back(extent / tile);
        // An axis the program keeps may be split into single rows when
        // the kernel multiplies nothing along it: a row-wise kernel (a
        // norm, a softmax) over long rows then runs on a block per row,
        // whose rows would not fit in shared memory 16 at a time (ntrans's
        // 64 rows of 4096 at b=8), and a batch of products (the heads of
        // attention) on a block per batch. Not a matrix axis of a matmul
        // the kernel reads an operand of: a block's product of one row
        // would pad it to an mma's 16 and read the other operand once per
        // row. Not an axis the program reduces, unless no tile splits it:
        // a family of configs is searched at its finest split of each
        // reduced axis (groupBlockConfigs), and at one element no block
        // reduces a chunk of it.
        bool multipliedAlong =
            readsMatmulOperand && program.matrixAxes.contains(axis);
        bool tooShortForTiles =
            splits.empty() &&
            extent < 2 * *llvm::min_element(options.tileExtents);
        if (!multipliedAlong &&
            (tooShortForTiles || !program.reducedAxes.count(axis)) &&
            !llvm::is_contained(splits, extent))
          splits.push_back(extent);
        for (int64_t blocks : splits) {
          auto grown = g;
          grown.push_back({axis, blocks});
          next.push_back(grown);
        }
      }
    }
    grids.append(next.begin(), next.end());
  }

  SmallVector<BlockConfig> configs;
  int64_t longestRange = *llvm::max_element(options.forloopRanges);
  for (auto &g : grids) {
    BlockConfig c;
    c.grid = g;
    if (!partials.empty()) {
      // One chunking per kernel: every input with chunks is walked.
      if (partials.size() == 1) {
        c.loopAxis = partials.front().first;
        c.forloopRange = partials.front().second;
        c.loopOverPartials = true;
        configs.push_back(c);
      }
      continue;
    }
    configs.push_back(c);
    for (auto [axis, extent] : axes) {
      if (llvm::any_of(g, [&](auto &p) { return p.first == axis; }))
        continue;
      SmallVector<int64_t, 4> ranges;
      for (int64_t range : options.forloopRanges) {
        if (extent % range != 0)
          continue;
        // The code generator tiles powers of two only: chunks of another
        // length (3072 / 16 = 192) become the largest power of two below
        // them that divides the axis (128, in 24 steps), if that takes at
        // most 4 times the longest range's steps.
        int64_t chunk = extent / range;
        if (!llvm::isPowerOf2_64(chunk)) {
          chunk = llvm::bit_floor(static_cast<uint64_t>(chunk));
          while (extent % chunk != 0)
            chunk /= 2;
          range = extent / chunk;
        }
        if (chunk >= 16 && range <= 4 * longestRange &&
            !llvm::is_contained(ranges, range))
          ranges.push_back(range);
      }
      for (int64_t range : ranges) {
        BlockConfig looped = c;
        looped.loopAxis = axis;
        looped.forloopRange = range;
        configs.push_back(looped);
      }
    }
  }
  return configs;
}

/// `configs` grouped by the axes their grids split (the reduced ones only,
/// or with `keptAxesToo` all of them), their loop axis and whether it walks
/// partial results, in first-seen order; each group's `search` is its first
/// member for now.
static std::vector<BlockConfigGroup> groupByAxes(const ProgramInfo &program,
                                                 ArrayRef<BlockConfig> configs,
                                                 bool keptAxesToo) {
  std::vector<BlockConfigGroup> groups;
  std::map<std::tuple<SmallVector<int, 3>, int, bool>, size_t> groupOf;
  for (const BlockConfig &c : configs) {
    SmallVector<int, 3> axes;
    for (auto [axis, blocks] : c.grid)
      if (keptAxesToo || program.reducedAxes.count(axis))
        axes.push_back(axis);
    auto [it, fresh] = groupOf.try_emplace(
        {axes, c.loopAxis, c.loopOverPartials}, groups.size());
    if (fresh)
      groups.push_back({c, {}});
    groups[it->second].members.push_back(c);
  }
  return groups;
}

std::vector<BlockConfigGroup>
superopt::groupBlockConfigs(const ProgramInfo &program,
                            ArrayRef<BlockConfig> configs) {
  std::vector<BlockConfigGroup> groups;
  for (BlockConfigGroup &family :
       groupByAxes(program, configs, /*keptAxesToo=*/false)) {
    std::map<int, int64_t> finest; // axis -> blocks
    for (const BlockConfig &c : family.members) {
      for (auto [axis, blocks] : c.grid)
        finest[axis] = std::max(finest[axis], blocks);
      family.search.forloopRange =
          std::max(family.search.forloopRange, c.forloopRange);
    }
    if (finest.size() > std::tuple_size_v<decltype(BlockGraph::grid)>) {
      for (BlockConfigGroup &g :
           groupByAxes(program, family.members, /*keptAxesToo=*/true))
        groups.push_back(std::move(g));
      continue;
    }
    family.search.grid.assign(finest.begin(), finest.end());
    groups.push_back(std::move(family));
  }
  // Members finest first, as before: results are collected in this order.
  for (BlockConfigGroup &group : groups) {
    auto parts = [](const BlockConfig &c) {
      int64_t n = c.forloopRange;
      for (auto [axis, blocks] : c.grid)
        n *= blocks;
      return n;
    };
    std::stable_sort(group.members.begin(), group.members.end(),
                     [&](const BlockConfig &a, const BlockConfig &b) {
                       return parts(a) > parts(b);
                     });
  }
  // Partitions most likely to fuse first. Results are collected in this
  // order.
  auto unlikely = [&](const BlockConfigGroup &group) {
    const BlockConfig &c = group.search;
    int score = c.loopAxis >= 0 && !program.reducedAxes.count(c.loopAxis);
    for (auto [axis, blocks] : c.grid)
      score += program.reducedAxes.count(axis);
    return score;
  };
  std::stable_sort(
      groups.begin(), groups.end(),
      [&](const auto &a, const auto &b) { return unlikely(a) < unlikely(b); });
  return groups;
}
