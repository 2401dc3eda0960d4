//===- Interpreter.cpp - Reference semantics of tk, tb and th -------------===//
//
// A kernel graph runs op by op over whole tensors. A tk.fused block graph is
// first compiled into two lists of steps — those that run every for-loop
// iteration and those that run once after the loop — and then run for every
// block of the grid, as the GPU would, with one tensor per value reused
// across blocks and iterations.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Interpreter/Interpreter.h"

#include "Kernels.h"
#include "ScalarProgram.h"
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

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

template <typename Domain>
static FailureOr<Elementwise<Domain>>
compileElementwise(Domain &domain, Operation *op,
                   FailureOr<ScalarProgram> program) {
  if (failed(program))
    return failure();
  SmallVector<SmallVector<int64_t, 4>> inShapes;
  for (Value operand : op->getOperands())
    inShapes.emplace_back(shapeOf(operand));
  Elementwise<Domain> e{std::move(*program), {},
                        BroadcastPlan(shapeOf(op->getResult(0)), inShapes),
                        {}};
  e.pool = e.program.bindConstants(domain);
  e.regs.resize(e.program.getNumRegisters());
  if (failed(checkDomain(domain, op)))
    return failure();
  return e;
}

/// The elementwise computation of a tk/tb unary, binary op or th.graph.
template <typename Domain>
static FailureOr<Elementwise<Domain>> compileElementwise(Domain &domain,
                                                         Operation *op) {
  return llvm::TypeSwitch<Operation *, FailureOr<Elementwise<Domain>>>(op)
      .template Case<tk::UnaryOp, tb::UnaryOp>([&](auto unary) {
        std::optional<APFloat> scalar;
        if (FloatAttr attr = unary.getScalarAttr())
          scalar = attr.getValue();
        return compileElementwise(
            domain, op,
            ScalarProgram::forUnary(op, unary.getKind(), scalar,
                                    elementTypeOf(unary.getResult())));
      })
      .template Case<tk::BinaryOp, tb::BinaryOp>([&](auto binary) {
        return compileElementwise(
            domain, op,
            ScalarProgram::forBinary(op, binary.getKind(),
                                     elementTypeOf(binary.getResult())));
      })
      .template Case<th::GraphOp>([&](th::GraphOp graph) {
        Block &body = graph.getBody().front();
        return compileElementwise(
            domain, op,
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
template <typename Domain>
class BlockGraphRunner {
  using S = typename Domain::Scalar;
  using T = Tensor<S>;

  /// Where a step runs: which block, which iteration.
  struct Launch {
    std::array<int64_t, 3> block;
    int64_t iteration;
  };
  static bool first(const Launch &l) { return l.iteration == 0; }

  /// Where this block's (and iteration's) tile sits in a tensor, as a flat
  /// offset: the offset step per block index along x, y, z and per
  /// iteration (see `tileSteps`).
  struct TilePlacement {
    std::array<int64_t, 4> steps;
    int64_t offset(const Launch &l) const {
      return steps[0] * l.block[0] + steps[1] * l.block[1] +
             steps[2] * l.block[2] + steps[3] * l.iteration;
    }
  };

  // The steps a block graph compiles to, one struct per kind of work with
  // the operands it needs resolved to tensors. A reduced instance runs
  // thousands of steps on tiny tiles per interpretation, so the dispatch is
  // a std::visit over a variant (one jump) rather than a std::function call
  // through a heap-allocated closure.

  /// tb.input_iterator: copies this block's and iteration's tile in.
  struct ReadTile {
    BoxCopy copy;
    TilePlacement placement;
    const T *tensor;
    T *tile;
    void run(Domain &, const Launch &l) {
      copy.run(*tensor, placement.offset(l), *tile, 0);
    }
  };
  /// tb.output_saver: writes the tile to every yielded result it feeds.
  struct WriteTile {
    BoxCopy copy;
    TilePlacement placement;
    const T *tile;
    SmallVector<T *, 1> targets;
    void run(Domain &, const Launch &l) {
      for (T *target : targets)
        copy.run(*tile, 0, *target, placement.offset(l));
    }
  };
  struct Matmul {
    const T *a, *b;
    T *c;
    void run(Domain &d, const Launch &) { matmul(d, *a, *b, *c); }
  };
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
                              Concat, ApplyElementwise, Accumulate,
                              FinishAccumulate, SumRescale>;
  struct Step {
    Operation *op;
    Action action;
  };

public:
  BlockGraphRunner(Domain &domain, tb::BlockGraphOpInterface graph,
                   ArrayRef<const T *> inputs, ArrayRef<T *> outputs)
      : d(domain), graph(graph), inputs(inputs), outputs(outputs) {}

  LogicalResult run() {
    if (failed(compile()))
      return failure();
    ArrayRef<int64_t> grid = graph.getGridDims();
    int64_t iterations = graph.getForloopRange();
    Launch launch;
    for (launch.block[2] = 0; launch.block[2] < grid[2]; ++launch.block[2])
      for (launch.block[1] = 0; launch.block[1] < grid[1]; ++launch.block[1])
        for (launch.block[0] = 0; launch.block[0] < grid[0];
             ++launch.block[0]) {
          for (launch.iteration = 0; launch.iteration < iterations;
               ++launch.iteration)
            if (failed(runSteps(loopSteps, launch)))
              return failure();
          if (failed(runSteps(postSteps, launch)))
            return failure();
        }
    return success();
  }

private:
  LogicalResult runSteps(MutableArrayRef<Step> steps, const Launch &launch) {
    for (Step &step : steps) {
      std::visit([&](auto &action) { action.run(d, launch); }, step.action);
      // A domain failure (a zero divisor, a second exp) is reported at the
      // op whose step hit it: one predictable branch per step.
      if (LLVM_UNLIKELY(d.failed()))
        return checkDomain(d, step.op);
    }
    return success();
  }

  T &slot(Value v) { return slots[slotOf.lookup(v)]; }

  /// A value is per-iteration from its input iterator until a reducing
  /// accumulator; a `none` accumulator keeps it so.
  bool isPerIteration(Value v) { return perIteration.contains(v); }

  void addStep(Operation *op, bool inLoop, Action action) {
    (inLoop ? loopSteps : postSteps).push_back({op, std::move(action)});
  }

  LogicalResult compile() {
    Block &body = graph.getBlockGraph();
    // One tensor per tile value, sized once: steps hold pointers into it.
    for (Operation &op : body)
      for (Value result : op.getResults())
        if (isa<tb::TileType>(result.getType()))
          slotOf[result] = slotOf.size();
    slots.resize(slotOf.size());
    for (auto [value, index] : slotOf)
      slots[index].resize(shapeOf(value));

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
                    r, Reduce{r.getKind(), r.getDimAttr().getInt(),
                              r.getToAttr() ? r.getToAttr().getInt() : 1,
                              &slot(r.getInput()), &slot(r.getResult())});
              })
              .Case([&](tb::RmsNormOp r) {
                return compileCompute(r, RmsNorm{d.constant(r.getEpsilon()),
                                                 &slot(r.getInput()),
                                                 &slot(r.getResult())});
              })
              .Case([&](tb::ConcatOp c) {
                SmallVector<const T *> ins;
                for (Value in : c.getInputs())
                  ins.push_back(&slot(in));
                return compileCompute(
                    c, Concat{std::move(ins), c.getDimAttr().getInt(),
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

  /// A compute op runs in the loop when its operands are per-iteration.
  LogicalResult compileCompute(Operation *op, Action action) {
    bool inLoop = llvm::any_of(op->getOperands(),
                               [&](Value v) { return isPerIteration(v); });
    if (inLoop)
      for (Value result : op->getResults())
        perIteration.insert(result);
    addStep(op, inLoop, std::move(action));
    return checkDomain(d, op);
  }

  LogicalResult compileElementwiseStep(Operation *op) {
    FailureOr<Elementwise<Domain>> ew = compileElementwise(d, op);
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
    T *tile = &slot(it.getResult());
    BoxCopy copy(tensor->getShape(), tile->getShape(), tile->getShape());
    TilePlacement placement =
        placeTile(tile->getShape(), it.getImap(), it.getFmap(),
                  [&](int64_t dim) { return copy.srcStride(dim); });
    perIteration.insert(it.getResult());
    addStep(it, /*inLoop=*/true,
            ReadTile{std::move(copy), placement, tensor, tile});
    return success();
  }

  LogicalResult compileSaver(tb::OutputSaverOp saver, tb::YieldOp yield) {
    const T *tile = &slot(saver.getInput());
    SmallVector<T *, 1> targets;
    for (auto [i, value] : llvm::enumerate(yield.getValues()))
      if (value == saver.getResult())
        targets.push_back(outputs[i]);
    BoxCopy copy(tile->getShape(), shapeOf(saver.getResult()),
                 tile->getShape());
    TilePlacement placement =
        placeTile(tile->getShape(), saver.getOmap(),
                  saver.getFmap().value_or(-1),
                  [&](int64_t dim) { return copy.dstStride(dim); });
    addStep(saver, isPerIteration(saver.getInput()),
            WriteTile{std::move(copy), placement, tile, std::move(targets)});
    return success();
  }

  LogicalResult compileAccum(tb::ForloopAccumOp acc) {
    const T *x = &slot(acc.getInput());
    T *r = &slot(acc.getResult());
    tb::AccumKind kind = acc.getKind();
    if (kind == tb::AccumKind::none)
      perIteration.insert(acc.getResult());
    if (kind == tb::AccumKind::sum_rescale)
      compileSumRescale(acc, x, r);
    else
      addStep(acc, true, Accumulate{kind, x, r});
    if (kind == tb::AccumKind::mean || kind == tb::AccumKind::rms)
      addStep(acc, false,
              FinishAccumulate{kind == tb::AccumKind::rms,
                               d.inverseCount(graph.getForloopRange()), r});
    return checkDomain(d, acc);
  }

  void compileSumRescale(tb::ForloopAccumOp acc, const T *x, T *r) {
    const T *s = &slot(acc.getScale());
    SumRescale step{x,
                    s,
                    r,
                    {},
                    {},
                    {},
                    BroadcastPlan(x->getShape(),
                                  SmallVector<SmallVector<int64_t, 4>>{
                                      SmallVector<int64_t, 4>(s->getShape())})};
    for (T *t : {&step.m, &step.alpha, &step.beta})
      t->resize(s->getShape());
    addStep(acc, true, std::move(step));
  }

  Domain &d;
  tb::BlockGraphOpInterface graph;
  ArrayRef<const T *> inputs;
  ArrayRef<T *> outputs;
  llvm::DenseMap<Value, unsigned> slotOf;
  std::vector<T> slots;
  llvm::DenseSet<Value> perIteration;
  std::vector<Step> loopSteps, postSteps;
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
    // Every value gets its entry up front, so references into the map stay
    // valid while ops run.
    for (auto [arg, input] : llvm::zip(body.getArguments(), inputs))
      values[arg] = input;
    for (Operation &op : body)
      for (Value result : op.getResults())
        values[result].resize(shapeOf(result));

    for (Operation &op : body) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        SmallVector<T> results;
        for (Value v : ret.getOperands())
          results.push_back(values[v]);
        return results;
      }
      if (failed(execute(op)) || failed(checkDomain(d, &op)))
        return failure();
    }
    return func.emitOpError("has no func.return");
  }

private:
  T &get(Value v) { return values.find(v)->second; }

  LogicalResult execute(Operation &op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
        .Case([&](tk::MatmulOp mm) {
          matmul(d, get(mm.getLhs()), get(mm.getRhs()), get(mm.getResult()));
          return success();
        })
        .Case([&](tk::ReduceOp r) {
          reduce(d, r.getKind(), get(r.getInput()), r.getDim(), 1,
                 get(r.getResult()));
          return success();
        })
        .Case([&](tk::RmsNormOp r) {
          rmsNorm(d, get(r.getInput()), d.constant(r.getEpsilon()),
                  get(r.getResult()));
          return success();
        })
        .Case([&](tk::ConcatOp c) {
          SmallVector<const T *> ins;
          for (Value in : c.getInputs())
            ins.push_back(&get(in));
          concatenate<S>(ins, c.getDim(), get(c.getResult()));
          return success();
        })
        .Case([&](tk::SplitOp s) {
          SmallVector<int64_t, 4> offsets(shapeOf(s.getInput()).size(), 0);
          SmallVector<int64_t, 4> zeros(offsets.size(), 0);
          for (Value out : s.getResults()) {
            copyBox(get(s.getInput()), offsets, get(out), zeros,
                    shapeOf(out));
            offsets[s.getDim()] += shapeOf(out)[s.getDim()];
          }
          return success();
        })
        .Case([&](tk::ReshapeOp r) {
          // Row-major data is unchanged; only the shape is new.
          T &out = get(r.getResult());
          out = get(r.getInput());
          out.resize(shapeOf(r.getResult()));
          return success();
        })
        .Case([&](tk::TransposeOp t) {
          transpose(get(t.getInput()), t.getPermutation(),
                    get(t.getResult()));
          return success();
        })
        .template Case<tk::UnaryOp, tk::BinaryOp>([&](Operation *ew) {
          FailureOr<Elementwise<Domain>> e = compileElementwise(d, ew);
          if (failed(e))
            return failure();
          SmallVector<const T *> ins;
          for (Value operand : ew->getOperands())
            ins.push_back(&get(operand));
          e->apply(d, ins, {&get(ew->getResult(0))});
          return success();
        })
        .Case([&](tk::FusedOp fused) {
          SmallVector<const T *> ins;
          for (Value operand : fused.getInputs())
            ins.push_back(&get(operand));
          SmallVector<T *> outs;
          for (Value result : fused.getResults())
            outs.push_back(&get(result));
          return BlockGraphRunner<Domain>(d, fused, ins, outs).run();
        })
        .Default([](Operation *other) {
          return other->emitOpError(
              "is not supported by the interpreter (it runs tk ops)");
        });
  }

  Domain &d;
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
