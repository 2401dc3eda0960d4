//===- Interpreter.cpp - Reference semantics of tk, tb and th -------------===//
//
// A kernel graph runs op by op over whole tensors. A tk.fused block graph is
// first compiled into two lists of steps — those that run every for-loop
// iteration and those that run once after the loop — and then run for every
// block of the grid, with one tensor per value reused across blocks and
// iterations. Blocks run in lock step, a group of them at a time (the
// "lanes"): each step does its work for every block of the group.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Interpreter/Interpreter.h"

#include "Kernels.h"
#include "ScalarProgram.h"
#include "StructuredOp.h"
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>
#include <variant>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::interp;
using namespace mlir::tileopt::interp::detail;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

static Type elementTypeOf(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

/// Reports the failure `domain` recorded while `op` ran, if any.
template <typename Domain>
static LogicalResult checkDomain(Domain &domain, Operation *op) {
  if (std::optional<std::string> error = domain.takeError())
    return op->emitOpError() << *error;
  return success();
}

/// The shape a value takes in the interpreter: its type's, or, in a block
/// graph run in lanes, that of the value for every lane (see
/// BlockGraphRunner). `rank` is the rank of the result the value is
/// broadcast to.
using ShapeFn = function_ref<SmallVector<int64_t, 4>(Value, int64_t rank)>;

static SmallVector<int64_t, 4> typeShape(Value v, int64_t) {
  return SmallVector<int64_t, 4>(shapeOf(v));
}

template <typename Domain>
static FailureOr<Elementwise<Domain>>
compileElementwise(Domain &domain, Operation *op, ShapeFn shape,
                   FailureOr<ScalarProgram> program) {
  if (failed(program))
    return failure();
  int64_t rank = shapeOf(op->getResult(0)).size();
  SmallVector<SmallVector<int64_t, 4>> inShapes;
  for (Value operand : op->getOperands())
    inShapes.push_back(shape(operand, rank));
  Elementwise<Domain> e{std::move(*program),
                        {},
                        BroadcastPlan(shape(op->getResult(0), rank), inShapes),
                        {}};
  e.pool = e.program.bindConstants(domain);
  e.regs.resize(e.program.getNumRegisters());
  if (failed(checkDomain(domain, op)))
    return failure();
  return e;
}

/// The elementwise computation of a tk/tb unary, binary op, th.graph or
/// tk.map, on values of the shapes `shape` gives.
template <typename Domain>
static FailureOr<Elementwise<Domain>>
compileElementwise(Domain &domain, Operation *op, ShapeFn shape = typeShape) {
  return llvm::TypeSwitch<Operation *, FailureOr<Elementwise<Domain>>>(op)
      .template Case<tk::UnaryOp, tb::UnaryOp>([&](auto unary) {
        std::optional<APFloat> scalar;
        if (FloatAttr attr = unary.getScalarAttr())
          scalar = attr.getValue();
        return compileElementwise(
            domain, op, shape,
            ScalarProgram::forUnary(op, unary.getKind(), scalar,
                                    elementTypeOf(unary.getResult())));
      })
      .template Case<tk::BinaryOp, tb::BinaryOp>([&](auto binary) {
        return compileElementwise(
            domain, op, shape,
            ScalarProgram::forBinary(op, binary.getKind(),
                                     elementTypeOf(binary.getResult())));
      })
      .template Case<th::GraphOp, tk::MapOp>([&](auto graph) {
        Block &body = graph.getBody().front();
        return compileElementwise(
            domain, op, shape,
            ScalarProgram::compile(body, body.getTerminator()->getOperands()));
      })
      .Default([](Operation *) -> FailureOr<Elementwise<Domain>> {
        llvm_unreachable("not an elementwise op");
      });
}

namespace {

//===----------------------------------------------------------------------===//
// Block graphs
//===----------------------------------------------------------------------===//

/// Runs one tk.fused (any BlockGraphOpInterface op) over its whole grid.
///
/// Blocks are independent — the op verifiers give every block its own part
/// of every output — but for grid-wide rms_norms (then all blocks form one
/// group), so the runner interprets a group of consecutive blocks in lock
/// step, one *lane* per block: every tile value holds one tile per
/// lane (a leading dim of extent `lanes`), and each step does its work for
/// all of them. Every element is computed by the same domain operations in
/// the same order as block by block, so the results are the same; what lock
/// step saves is the per-step dispatch, which dominates on the tiny tiles of
/// the verifier's reduced instances (48 blocks x 64 iterations of 2x2 tiles
/// for rmsnorm_linear).
template <typename Domain>
class BlockGraphRunner {
  using S = typename Domain::Scalar;
  using T = Tensor<S>;
  using GridPoint = std::array<int64_t, 3>;

  /// Where a step runs: the blocks in flight (one per lane), which
  /// iteration.
  struct Launch {
    ArrayRef<GridPoint> blocks;
    int64_t iteration;
  };
  static bool first(const Launch &l) { return l.iteration == 0; }

  /// Where a block's (and iteration's) tile sits in a tensor, as a flat
  /// offset: the offset step per block index along x, y, z and per
  /// iteration (see `placeTile`).
  struct TilePlacement {
    std::array<int64_t, 4> steps;
    int64_t offset(const GridPoint &block, int64_t iteration) const {
      return steps[0] * block[0] + steps[1] * block[1] + steps[2] * block[2] +
             steps[3] * iteration;
    }
  };

  // The steps a block graph compiles to, one struct per kind of work with
  // the operands it needs resolved to tensors. The dispatch is a std::visit
  // over a variant (one jump) rather than a std::function call through a
  // heap-allocated closure.

  /// tb.input_iterator: copies each lane's tile in.
  struct ReadTile {
    BoxCopy copy;
    TilePlacement placement;
    int64_t tileSize;
    const T *tensor;
    T *tile;
    void run(Domain &, const Launch &l) {
      for (auto [lane, block] : llvm::enumerate(l.blocks))
        copy.run(*tensor, placement.offset(block, l.iteration), *tile,
                 lane * tileSize);
    }
  };
  /// tb.output_saver: writes each lane's tile to every yielded result it
  /// feeds.
  struct WriteTile {
    BoxCopy copy;
    TilePlacement placement;
    int64_t tileSize;
    const T *tile;
    SmallVector<T *, 1> targets;
    void run(Domain &, const Launch &l) {
      for (T *target : targets)
        for (auto [lane, block] : llvm::enumerate(l.blocks))
          copy.run(*tile, lane * tileSize, *target,
                   placement.offset(block, l.iteration));
    }
  };
  /// The lanes are the matmul's outermost batch dim.
  struct Matmul {
    const T *a, *b;
    T *c;
    void run(Domain &d, const Launch &) { matmul(d, *a, *b, *c); }
  };
  /// `dim` counts the lane dim.
  struct Reduce {
    ReduceKind kind;
    int64_t dim, to;
    const T *in;
    T *out;
    void run(Domain &d, const Launch &) { reduce(d, kind, *in, dim, to, *out); }
  };
  struct RmsNorm {
    S epsilon;
    const T *in;
    T *out;
    void run(Domain &d, const Launch &) { rmsNorm(d, *in, epsilon, *out); }
  };
  /// tb.rms_norm across grid dim `across`: a row's mean of squares adds up
  /// the row's parts in all blocks that differ only along it. Such a graph
  /// runs all of its blocks as lanes at once (chooseLanes).
  struct GridRmsNorm {
    S epsilon;
    int64_t across;
    int64_t blocksAcross;
    const T *in;
    T *out;
    void run(Domain &d, const Launch &l) {
      int64_t lanes = static_cast<int64_t>(l.blocks.size());
      int64_t n = in->getShape().back();
      int64_t rows = in->size() / (n * lanes);
      // Each lane's sums of squares (its rows follow the previous lane's),
      // then each row's total over its group.
      std::vector<S> partial = rowSumsOfSquares(d, *in);
      auto groupOf = [&](const GridPoint &block) {
        GridPoint key = block;
        key[across] = 0;
        return key;
      };
      std::map<GridPoint, std::vector<S>> totals;
      for (auto [lane, block] : llvm::enumerate(l.blocks)) {
        std::vector<S> &total = totals[groupOf(block)];
        total.resize(rows, d.zero());
        for (int64_t r = 0; r < rows; ++r)
          total[r] = d.add(total[r], partial[lane * rows + r]);
      }
      std::vector<S> rowTotals;
      for (const GridPoint &block : l.blocks)
        llvm::append_range(rowTotals, totals[groupOf(block)]);
      divideRowsByRms(d, *in, ArrayRef<S>(rowTotals),
                      d.inverseCount(n * blocksAcross), epsilon, *out);
    }
  };
  /// `dim` counts the lane dim.
  struct Concat {
    SmallVector<const T *> ins;
    int64_t dim;
    T *out;
    void run(Domain &, const Launch &) { concatenate<S>(ins, dim, *out); }
  };
  struct ApplyElementwise {
    Elementwise<Domain> elementwise;
    SmallVector<const T *> ins;
    SmallVector<T *> outs;
    void run(Domain &d, const Launch &) { elementwise.apply(d, ins, outs); }
  };
  /// The in-loop part of tb.forloop_accum other than sum_rescale: combines
  /// iteration `i`'s tile `x` into `r`.
  struct Accumulate {
    tb::AccumKind kind;
    const T *x;
    T *r;
    void run(Domain &d, const Launch &l) {
      S *acc = r->values().data();
      const S *in = x->values().data();
      int64_t n = r->size();
      // Same shapes: only the values move (a Tensor assignment would copy
      // the shape too, every iteration).
      if (kind == tb::AccumKind::none ||
          (first(l) && kind != tb::AccumKind::rms)) {
        std::copy(in, in + n, acc);
        return;
      }
      switch (kind) {
      case tb::AccumKind::sum:
      case tb::AccumKind::mean:
        for (int64_t i = 0; i < n; ++i)
          acc[i] = d.add(acc[i], in[i]);
        break;
      case tb::AccumKind::rms:
        for (int64_t i = 0; i < n; ++i)
          acc[i] = first(l) ? d.mul(in[i], in[i])
                            : d.add(acc[i], d.mul(in[i], in[i]));
        break;
      case tb::AccumKind::max:
        for (int64_t i = 0; i < n; ++i)
          acc[i] = d.maximum(acc[i], in[i]);
        break;
      case tb::AccumKind::none:
      case tb::AccumKind::sum_rescale:
        llvm_unreachable("copied above / a step of its own");
      }
    }
  };
  /// After the loop: a `mean` or `rms` accumulator divides by the count.
  struct FinishAccumulate {
    bool rms;
    S inverseCount;
    T *r;
    void run(Domain &d, const Launch &) {
      for (S &a : r->values())
        a = rms ? d.sqrt(d.mul(a, inverseCount)) : d.mul(a, inverseCount);
    }
  };
  /// sum_i exp(s_i - M) x_i with M = max_i s_i, computed online as
  /// FlashAttention does: with m the running maximum, each iteration
  /// rescales the sum by exp(m - m') and adds exp(s_i - m') x_i. The
  /// factors telescope to the definition exactly in a field (exp is a
  /// homomorphism there) and up to rounding in floating point.
  struct SumRescale {
    const T *x, *s;
    T *r;
    /// The running maximum and the two factors, in the scale's shape.
    T m, alpha, beta;
    BroadcastPlan plan;
    void run(Domain &d, const Launch &l) {
      for (int64_t i = 0, e = s->size(); i < e; ++i) {
        S next = first(l) ? (*s)[i] : d.maximum(m[i], (*s)[i]);
        alpha[i] = first(l) ? d.zero() : d.exp(d.sub(m[i], next));
        beta[i] = d.exp(d.sub((*s)[i], next));
        m[i] = next;
      }
      plan.run([&](int64_t o, const int64_t *in) {
        S added = d.mul((*x)[o], beta[in[0]]);
        (*r)[o] =
            first(l) ? added : d.add(d.mul((*r)[o], alpha[in[0]]), added);
      });
    }
  };

  using Action = std::variant<ReadTile, WriteTile, Matmul, Reduce, RmsNorm,
                              GridRmsNorm, Concat, ApplyElementwise, Accumulate,
                              FinishAccumulate, SumRescale>;
  struct Step {
    Operation *op;
    Action action;
  };

public:
  /// Runs `graph` over its whole grid, reading `inputs` and writing
  /// `outputs`.
  static LogicalResult run(Domain &d, tb::BlockGraphOpInterface graph,
                           ArrayRef<const T *> inputs, ArrayRef<T *> outputs) {
    int64_t lanes = chooseLanes(graph);
    BlockGraphRunner runner(d, graph, inputs, outputs, lanes);
    if (failed(runner.compile()))
      return failure();
    Operation *failing = runner.runGrid();
    if (!failing)
      return success();
    if (lanes > 1 && tb::countGridBarriers(graph) == 0) {
      // The failure to report is the one the grid order meets first, and
      // another lane of the group may have met it at an earlier step: run
      // again block by block (failures are rare: the verifier redraws a
      // trial's inputs on a zero divisor).
      d.takeError();
      BlockGraphRunner single(d, graph, inputs, outputs, /*lanes=*/1);
      if (failed(single.compile()))
        return failure();
      failing = single.runGrid();
      assert(failing && "a failure in lock step recurs block by block");
    }
    return checkDomain(d, failing);
  }

private:
  BlockGraphRunner(Domain &domain, tb::BlockGraphOpInterface graph,
                   ArrayRef<const T *> inputs, ArrayRef<T *> outputs,
                   int64_t lanes)
      : d(domain), graph(graph), inputs(inputs), outputs(outputs),
        lanes(lanes) {}

  /// Scalars of all tile values of all lanes, at most: enough lanes to make
  /// the dispatch cheap on small tiles, while the group's tiles stay in the
  /// cache on large ones.
  static constexpr int64_t kLaneBudget = 1 << 15;

  /// The most lanes within the budget that divide the number of blocks (so
  /// every group is full), at least 1; all blocks when they combine values
  /// with each other.
  static int64_t chooseLanes(tb::BlockGraphOpInterface graph) {
    int64_t blocks = numElements(graph.getGridDims());
    if (tb::countGridBarriers(graph) > 0)
      return blocks;
    int64_t perBlock = 0;
    for (Operation &op : graph.getBlockGraph())
      for (Value result : op.getResults())
        if (isa<tb::TileType>(result.getType()))
          perBlock += numElements(shapeOf(result));
    int64_t lanes =
        std::min(blocks, kLaneBudget / std::max<int64_t>(perBlock, 1));
    while (lanes > 1 && blocks % lanes != 0)
      --lanes;
    return std::max<int64_t>(lanes, 1);
  }

  /// Runs every block, a group of `lanes` at a time, in grid order (x
  /// fastest); returns the op whose step met a domain failure, if any,
  /// leaving the failure in the domain.
  Operation *runGrid() {
    ArrayRef<int64_t> grid = graph.getGridDims();
    SmallVector<GridPoint> blocks;
    for (int64_t z = 0; z < grid[2]; ++z)
      for (int64_t y = 0; y < grid[1]; ++y)
        for (int64_t x = 0; x < grid[0]; ++x)
          blocks.push_back({x, y, z});
    int64_t iterations = graph.getForloopRange();
    for (size_t group = 0; group < blocks.size(); group += lanes) {
      Launch launch{ArrayRef<GridPoint>(blocks).slice(group, lanes), 0};
      if (Operation *op = runSteps(invariantSteps, launch))
        return op;
      for (; launch.iteration < iterations; ++launch.iteration)
        if (Operation *op = runSteps(loopSteps, launch))
          return op;
      if (Operation *op = runSteps(postSteps, launch))
        return op;
    }
    return nullptr;
  }

  Operation *runSteps(MutableArrayRef<Step> steps, const Launch &launch) {
    for (Step &step : steps) {
      std::visit([&](auto &action) { action.run(d, launch); }, step.action);
      // A domain failure (a zero divisor, a second exp) is reported at the
      // op whose step hit it: one predictable branch per step.
      if (LLVM_UNLIKELY(d.failed()))
        return step.op;
    }
    return nullptr;
  }

  /// The shape of `v` in this runner: one `v` per lane, its dims padded
  /// with leading 1s to `rank` so that numpy broadcasting still lines
  /// them up.
  SmallVector<int64_t, 4> lanedShape(Value v, int64_t rank) {
    ArrayRef<int64_t> shape = shapeOf(v);
    SmallVector<int64_t, 4> laned{lanes};
    laned.append(rank - shape.size(), 1);
    laned.append(shape.begin(), shape.end());
    return laned;
  }

  T &slot(Value v) { return slots[slotOf.lookup(v)]; }

  /// Where a step runs: once before the loop, in it, or once after it.
  enum class Stage { Invariant, Loop, Post };

  /// A value is per-iteration from an input iterator that the loop walks
  /// until a reducing accumulator; a `none` accumulator keeps it so. A
  /// value computed from tiles the loop does not walk alone is invariant.
  bool isPerIteration(Value v) { return perIteration.contains(v); }

  void addStep(Operation *op, Stage stage, Action action) {
    std::vector<Step> &steps = stage == Stage::Invariant ? invariantSteps
                               : stage == Stage::Loop    ? loopSteps
                                                         : postSteps;
    steps.push_back({op, std::move(action)});
  }

  LogicalResult compile() {
    Block &body = graph.getBlockGraph();
    // One tensor per tile value, a tile per lane, sized once: steps hold
    // pointers into it.
    for (Operation &op : body)
      for (Value result : op.getResults())
        if (isa<tb::TileType>(result.getType()))
          slotOf[result] = slotOf.size();
    slots.resize(slotOf.size());
    for (auto [value, index] : slotOf)
      slots[index].resize(lanedShape(value, shapeOf(value).size()));

    auto yield = cast<tb::YieldOp>(body.getTerminator());
    for (Operation &op : body.without_terminator()) {
      LogicalResult compiled =
          llvm::TypeSwitch<Operation *, LogicalResult>(&op)
              .Case([&](tb::InputIteratorOp it) { return compileIterator(it); })
              .Case([&](tb::ForloopAccumOp acc) { return compileAccum(acc); })
              .Case([&](tb::OutputSaverOp saver) {
                return compileSaver(saver, yield);
              })
              .Case([&](tb::MatmulOp mm) {
                return compileCompute(mm, Matmul{&slot(mm.getLhs()),
                                                 &slot(mm.getRhs()),
                                                 &slot(mm.getResult())});
              })
              .Case([&](tb::ReduceOp r) {
                return compileCompute(
                    r, Reduce{r.getKind(), r.getDimAttr().getInt() + 1,
                              r.getToAttr() ? r.getToAttr().getInt() : 1,
                              &slot(r.getInput()), &slot(r.getResult())});
              })
              .Case([&](tb::RmsNormOp r) {
                if (std::optional<int64_t> across = r.getAcross())
                  return compileCompute(
                      r,
                      GridRmsNorm{d.constant(r.getEpsilon()), *across,
                                  graph.getGridDims()[*across],
                                  &slot(r.getInput()), &slot(r.getResult())});
                return compileCompute(r, RmsNorm{d.constant(r.getEpsilon()),
                                                 &slot(r.getInput()),
                                                 &slot(r.getResult())});
              })
              .Case([&](tb::ConcatOp c) {
                SmallVector<const T *> ins;
                for (Value in : c.getInputs())
                  ins.push_back(&slot(in));
                return compileCompute(c, Concat{std::move(ins),
                                                c.getDimAttr().getInt() + 1,
                                                &slot(c.getResult())});
              })
              .template Case<tb::UnaryOp, tb::BinaryOp, th::GraphOp>(
                  [&](Operation *ew) { return compileElementwiseStep(ew); })
              .Default([](Operation *other) {
                return other->emitOpError(
                    "is not supported in a block graph by the interpreter");
              });
      if (failed(compiled))
        return failure();
    }
    return success();
  }

  /// A compute op runs in the loop when an operand is per-iteration, else
  /// after it when an operand is accumulated, else before it.
  LogicalResult compileCompute(Operation *op, Action action) {
    Stage stage = stageOf(op->getOperands());
    if (stage == Stage::Loop)
      perIteration.insert(op->result_begin(), op->result_end());
    else if (stage == Stage::Post)
      accumulated.insert(op->result_begin(), op->result_end());
    addStep(op, stage, std::move(action));
    return checkDomain(d, op);
  }

  Stage stageOf(ValueRange values) {
    if (llvm::any_of(values, [&](Value v) { return isPerIteration(v); }))
      return Stage::Loop;
    if (llvm::any_of(values, [&](Value v) { return accumulated.contains(v); }))
      return Stage::Post;
    return Stage::Invariant;
  }

  LogicalResult compileElementwiseStep(Operation *op) {
    FailureOr<Elementwise<Domain>> ew = compileElementwise(
        d, op, [&](Value v, int64_t rank) { return lanedShape(v, rank); });
    if (failed(ew))
      return failure();
    SmallVector<const T *> ins;
    for (Value operand : op->getOperands())
      ins.push_back(&slot(operand));
    SmallVector<T *> outs;
    for (Value result : op->getResults())
      outs.push_back(&slot(result));
    return compileCompute(
        op, ApplyElementwise{std::move(*ew), std::move(ins), std::move(outs)});
  }

  /// The placement of a tile in a tensor: grid dim g moves along tensor dim
  /// map[g], the iterations along `fmap`, each by one tile.
  static TilePlacement placeTile(ArrayRef<int64_t> tileShape,
                                 ArrayRef<int64_t> map, int64_t fmap,
                                 function_ref<int64_t(int64_t)> stride) {
    TilePlacement placement{{0, 0, 0, 0}};
    for (auto [g, dim] : llvm::enumerate(map))
      if (dim != -1)
        placement.steps[g] = tileShape[dim] * stride(dim);
    if (fmap != -1)
      placement.steps[3] = tileShape[fmap] * stride(fmap);
    return placement;
  }

  LogicalResult compileIterator(tb::InputIteratorOp it) {
    const T *tensor = inputs[cast<BlockArgument>(it.getInput()).getArgNumber()];
    ArrayRef<int64_t> tileShape = shapeOf(it.getResult());
    BoxCopy copy(tensor->getShape(), tileShape, tileShape);
    TilePlacement placement =
        placeTile(tileShape, it.getImap(), it.getFmap(),
                  [&](int64_t dim) { return copy.srcStride(dim); });
    // A tile the loop does not walk is read once.
    bool walked = it.getFmapAttr().getInt() != -1;
    if (walked)
      perIteration.insert(it.getResult());
    addStep(it, walked ? Stage::Loop : Stage::Invariant,
            ReadTile{std::move(copy), placement, numElements(tileShape), tensor,
                     &slot(it.getResult())});
    return success();
  }

  LogicalResult compileSaver(tb::OutputSaverOp saver, tb::YieldOp yield) {
    const T *tile = &slot(saver.getInput());
    SmallVector<T *, 1> targets;
    for (auto [i, value] : llvm::enumerate(yield.getValues()))
      if (value == saver.getResult())
        targets.push_back(outputs[i]);
    ArrayRef<int64_t> tileShape = shapeOf(saver.getInput());
    BoxCopy copy(tileShape, shapeOf(saver.getResult()), tileShape);
    TilePlacement placement =
        placeTile(tileShape, saver.getOmap(), saver.getFmap().value_or(-1),
                  [&](int64_t dim) { return copy.dstStride(dim); });
    addStep(saver, stageOf(saver.getInput()),
            WriteTile{std::move(copy), placement, numElements(tileShape), tile,
                      std::move(targets)});
    return success();
  }

  LogicalResult compileAccum(tb::ForloopAccumOp acc) {
    const T *x = &slot(acc.getInput());
    T *r = &slot(acc.getResult());
    tb::AccumKind kind = acc.getKind();
    if (kind == tb::AccumKind::none)
      perIteration.insert(acc.getResult());
    else
      accumulated.insert(acc.getResult());
    if (kind == tb::AccumKind::sum_rescale)
      compileSumRescale(acc, x, r);
    else
      addStep(acc, Stage::Loop, Accumulate{kind, x, r});
    if (kind == tb::AccumKind::mean || kind == tb::AccumKind::rms)
      addStep(acc, Stage::Post,
              FinishAccumulate{kind == tb::AccumKind::rms,
                               d.inverseCount(graph.getForloopRange()), r});
    return checkDomain(d, acc);
  }

  void compileSumRescale(tb::ForloopAccumOp acc, const T *x, T *r) {
    Value scale = acc.getScale();
    SmallVector<int64_t, 4> scaleShape =
        lanedShape(scale, shapeOf(acc.getInput()).size());
    SumRescale step{x,
                    &slot(scale),
                    r,
                    {},
                    {},
                    {},
                    BroadcastPlan(x->getShape(), {scaleShape})};
    for (T *t : {&step.m, &step.alpha, &step.beta})
      t->resize(scaleShape);
    addStep(acc, Stage::Loop, std::move(step));
  }

  Domain &d;
  tb::BlockGraphOpInterface graph;
  ArrayRef<const T *> inputs;
  ArrayRef<T *> outputs;
  int64_t lanes;
  llvm::DenseMap<Value, unsigned> slotOf;
  std::vector<T> slots;
  llvm::DenseSet<Value> perIteration, accumulated;
  std::vector<Step> invariantSteps, loopSteps, postSteps;
};

//===----------------------------------------------------------------------===//
// Kernel graphs
//===----------------------------------------------------------------------===//

template <typename Domain>
class FunctionInterpreter {
  using S = typename Domain::Scalar;
  using T = Tensor<S>;

public:
  explicit FunctionInterpreter(Domain &domain) : d(domain) {}

  FailureOr<SmallVector<T>> run(func::FuncOp func, ArrayRef<T> inputs) {
    if (!func.getBody().hasOneBlock())
      return func.emitOpError("must have a body of one block to be interpreted");
    Block &body = func.getBody().front();
    if (inputs.size() != body.getNumArguments())
      return func.emitOpError("takes ")
             << body.getNumArguments() << " arguments, got " << inputs.size()
             << " inputs";
    FailureOr<SmallVector<SmallVector<int64_t, 4>>> shapes =
        getArgumentShapes(func);
    if (failed(shapes))
      return failure();
    for (auto [i, input, shape] : llvm::enumerate(inputs, *shapes))
      if (input.getShape() != ArrayRef<int64_t>(shape))
        return func.emitOpError("input #")
               << i << " has shape [" << input.getShape()
               << "], the argument needs [" << ArrayRef<int64_t>(shape) << "]";
    // Arguments are read in place (the verifier runs every candidate on
    // the same kept inputs). Every result gets its entry up front, so
    // references into the map stay valid while ops run.
    for (auto [arg, input] : llvm::zip(body.getArguments(), inputs))
      arguments[arg] = &input;
    for (Operation &op : body)
      for (Value result : op.getResults())
        values[result].resize(shapeOf(result));

    for (Operation &op : body) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        SmallVector<T> results;
        for (Value v : ret.getOperands())
          results.push_back(read(v));
        return results;
      }
      if (failed(execute(op)) || failed(checkDomain(d, &op)))
        return failure();
    }
    return func.emitOpError("has no func.return");
  }

private:
  const T &read(Value v) {
    if (const T *argument = arguments.lookup(v))
      return *argument;
    return write(v);
  }
  T &write(Value v) { return values.find(v)->second; }

  LogicalResult execute(Operation &op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
        .Case([&](tk::MatmulOp mm) {
          matmul(d, read(mm.getLhs()), read(mm.getRhs()),
                 write(mm.getResult()));
          return success();
        })
        .Case([&](tk::ReduceOp r) {
          reduce(d, r.getKind(), read(r.getInput()), r.getDim(), 1,
                 write(r.getResult()));
          return success();
        })
        .Case([&](tk::RmsNormOp r) {
          rmsNorm(d, read(r.getInput()), d.constant(r.getEpsilon()),
                  write(r.getResult()));
          return success();
        })
        .Case([&](tk::ConcatOp c) {
          SmallVector<const T *> ins;
          for (Value in : c.getInputs())
            ins.push_back(&read(in));
          concatenate<S>(ins, c.getDim(), write(c.getResult()));
          return success();
        })
        .Case([&](tk::SplitOp s) {
          SmallVector<int64_t, 4> offsets(shapeOf(s.getInput()).size(), 0);
          SmallVector<int64_t, 4> zeros(offsets.size(), 0);
          for (Value out : s.getResults()) {
            copyBox(read(s.getInput()), offsets, write(out), zeros,
                    shapeOf(out));
            offsets[s.getDim()] += shapeOf(out)[s.getDim()];
          }
          return success();
        })
        .Case([&](tk::ReshapeOp r) {
          // Row-major data is unchanged; only the shape is new.
          T &out = write(r.getResult());
          out = read(r.getInput());
          out.resize(shapeOf(r.getResult()));
          return success();
        })
        .Case([&](tk::TransposeOp t) {
          transpose(read(t.getInput()), t.getPermutation(),
                    write(t.getResult()));
          return success();
        })
        .template Case<tk::UnaryOp, tk::BinaryOp, tk::MapOp>(
            [&](Operation *ew) {
              FailureOr<Elementwise<Domain>> e = compileElementwise(d, ew);
              if (failed(e))
                return failure();
              SmallVector<const T *> ins;
              for (Value operand : ew->getOperands())
                ins.push_back(&read(operand));
              e->apply(d, ins, {&write(ew->getResult(0))});
              return success();
            })
        .Case([&](tk::StructuredOp structured) -> LogicalResult {
          // Floats only: the loop nest of a generic has no meaning in the
          // verifier's finite field or degree domains.
          if constexpr (std::is_floating_point_v<S>) {
            SmallVector<const T *> ins;
            for (Value operand : structured.getInputs())
              ins.push_back(&read(operand));
            return runStructured<S>(structured, ins,
                                    write(structured.getResult()));
          } else {
            return structured.emitOpError("is not evaluated in the ")
                   << Domain::name << " domain";
          }
        })
        .Case([&](tk::FusedOp fused) {
          SmallVector<const T *> ins;
          for (Value operand : fused.getInputs())
            ins.push_back(&read(operand));
          SmallVector<T *> outs;
          for (Value result : fused.getResults())
            outs.push_back(&write(result));
          return BlockGraphRunner<Domain>::run(d, fused, ins, outs);
        })
        .Default([](Operation *other) {
          return other->emitOpError(
              "is not supported by the interpreter (it runs tk ops)");
        });
  }

  Domain &d;
  llvm::DenseMap<Value, const T *> arguments;
  llvm::DenseMap<Value, T> values;
};

} // namespace

FailureOr<SmallVector<SmallVector<int64_t, 4>>>
interp::getArgumentShapes(func::FuncOp func) {
  SmallVector<SmallVector<int64_t, 4>> shapes;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return func.emitOpError("argument #")
             << i << " has type " << type
             << ": the interpreter takes statically shaped tensors";
    shapes.emplace_back(tensor.getShape());
  }
  return shapes;
}

template <typename Domain>
FailureOr<SmallVector<TensorOf<Domain>>>
interp::interpret(func::FuncOp func, ArrayRef<TensorOf<Domain>> inputs,
                  Domain &domain) {
  return FunctionInterpreter<Domain>(domain).run(func, inputs);
}

template FailureOr<SmallVector<TensorOf<F64Domain>>>
interp::interpret<F64Domain>(func::FuncOp, ArrayRef<TensorOf<F64Domain>>,
                             F64Domain &);
template FailureOr<SmallVector<TensorOf<F32Domain>>>
interp::interpret<F32Domain>(func::FuncOp, ArrayRef<TensorOf<F32Domain>>,
                             F32Domain &);
template FailureOr<SmallVector<TensorOf<FieldDomain>>>
interp::interpret<FieldDomain>(func::FuncOp, ArrayRef<TensorOf<FieldDomain>>,
                               FieldDomain &);
template FailureOr<SmallVector<TensorOf<DegreeDomain>>>
interp::interpret<DegreeDomain>(func::FuncOp, ArrayRef<TensorOf<DegreeDomain>>,
                                DegreeDomain &);
