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
  struct Step {
    Operation *op;
    std::function<void(const Launch &)> run;
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
  LogicalResult runSteps(ArrayRef<Step> steps, const Launch &launch) {
    for (const Step &step : steps) {
      step.run(launch);
      if (d.failed())
        return checkDomain(d, step.op);
    }
    return success();
  }

  T &slot(Value v) { return slots[slotOf.lookup(v)]; }

  /// A value is per-iteration from its input iterator until a reducing
  /// accumulator; a `none` accumulator keeps it so.
  bool isPerIteration(Value v) { return perIteration.contains(v); }

  static bool first(const Launch &l) { return l.iteration == 0; }

  void addStep(Operation *op, bool inLoop,
               std::function<void(const Launch &)> fn) {
    (inLoop ? loopSteps : postSteps).push_back({op, std::move(fn)});
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
                const T *a = &slot(mm.getLhs()), *b = &slot(mm.getRhs());
                T *c = &slot(mm.getResult());
                return compileCompute(
                    mm, [=](const Launch &) { matmul(d, *a, *b, *c); });
              })
              .Case([&](tb::ReduceOp r) {
                const T *in = &slot(r.getInput());
                T *out = &slot(r.getResult());
                ReduceKind kind = r.getKind();
                int64_t dim = r.getDim(), to = r.getTo().value_or(1);
                return compileCompute(r, [=](const Launch &) {
                  reduce(d, kind, *in, dim, to, *out);
                });
              })
              .Case([&](tb::RmsNormOp r) {
                const T *in = &slot(r.getInput());
                T *out = &slot(r.getResult());
                S epsilon = d.constant(r.getEpsilon());
                return compileCompute(r, [=](const Launch &) {
                  rmsNorm(d, *in, epsilon, *out);
                });
              })
              .Case([&](tb::ConcatOp c) {
                SmallVector<const T *> ins;
                for (Value in : c.getInputs())
                  ins.push_back(&slot(in));
                T *out = &slot(c.getResult());
                int64_t dim = c.getDim();
                return compileCompute(
                    c, [=](const Launch &) { concatenate<S>(ins, dim, *out); });
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
  LogicalResult compileCompute(Operation *op,
                               std::function<void(const Launch &)> fn) {
    bool inLoop = llvm::any_of(op->getOperands(),
                               [&](Value v) { return isPerIteration(v); });
    if (inLoop)
      for (Value result : op->getResults())
        perIteration.insert(result);
    addStep(op, inLoop, std::move(fn));
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
    auto shared = std::make_shared<Elementwise<Domain>>(std::move(*ew));
    return compileCompute(op, [this, shared, ins, outs](const Launch &) {
      shared->apply(d, ins, outs);
    });
  }

  /// Where this block's (and iteration's) tile sits in a tensor, as a
  /// flat offset: grid dim g moves along tensor dim map[g], the iterations
  /// along `fmap`, each by one tile. Returned as the offset step per block
  /// index along x, y, z and per iteration.
  static std::array<int64_t, 4> tileSteps(ArrayRef<int64_t> tileShape,
                                          ArrayRef<int64_t> map, int64_t fmap,
                                          function_ref<int64_t(int64_t)> stride) {
    std::array<int64_t, 4> steps = {0, 0, 0, 0};
    for (auto [g, dim] : llvm::enumerate(map))
      if (dim != -1)
        steps[g] = tileShape[dim] * stride(dim);
    if (fmap != -1)
      steps[3] = tileShape[fmap] * stride(fmap);
    return steps;
  }
  static int64_t tileOffset(const std::array<int64_t, 4> &steps,
                            const Launch &l) {
    return steps[0] * l.block[0] + steps[1] * l.block[1] +
           steps[2] * l.block[2] + steps[3] * l.iteration;
  }

  LogicalResult compileIterator(tb::InputIteratorOp it) {
    const T *tensor = inputs[cast<BlockArgument>(it.getInput()).getArgNumber()];
    T *tile = &slot(it.getResult());
    auto copy = std::make_shared<BoxCopy>(tensor->getShape(), tile->getShape(),
                                          tile->getShape());
    std::array<int64_t, 4> steps =
        tileSteps(tile->getShape(), it.getImap(), it.getFmap(),
                  [&](int64_t dim) { return copy->srcStride(dim); });
    perIteration.insert(it.getResult());
    addStep(it, /*inLoop=*/true, [=](const Launch &launch) {
      copy->run(*tensor, tileOffset(steps, launch), *tile, 0);
    });
    return success();
  }

  LogicalResult compileSaver(tb::OutputSaverOp saver, tb::YieldOp yield) {
    const T *tile = &slot(saver.getInput());
    SmallVector<T *> targets;
    for (auto [i, value] : llvm::enumerate(yield.getValues()))
      if (value == saver.getResult())
        targets.push_back(outputs[i]);
    auto copy = std::make_shared<BoxCopy>(
        tile->getShape(), shapeOf(saver.getResult()), tile->getShape());
    std::array<int64_t, 4> steps =
        tileSteps(tile->getShape(), saver.getOmap(),
                  saver.getFmap().value_or(-1),
                  [&](int64_t dim) { return copy->dstStride(dim); });
    addStep(saver, isPerIteration(saver.getInput()),
            [=](const Launch &launch) {
              for (T *target : targets)
                copy->run(*tile, 0, *target, tileOffset(steps, launch));
            });
    return success();
  }

  LogicalResult compileAccum(tb::ForloopAccumOp acc) {
    const T *x = &slot(acc.getInput());
    T *r = &slot(acc.getResult());
    int64_t iterations = graph.getForloopRange();
    S inverseCount = d.inverseCount(iterations);
    auto elementwise = [r, x](auto fn) {
      for (int64_t i = 0, e = r->size(); i < e; ++i)
        (*r)[i] = fn((*r)[i], (*x)[i]);
    };
    // Same shapes: only the values move (a Tensor assignment would copy the
    // shape too, every iteration).
    auto assign = [r, x] { llvm::copy(x->values(), r->values().begin()); };

    switch (acc.getKind()) {
    case tb::AccumKind::none:
      perIteration.insert(acc.getResult());
      addStep(acc, true, [=](const Launch &) { assign(); });
      break;
    case tb::AccumKind::sum:
    case tb::AccumKind::mean:
      addStep(acc, true, [=](const Launch &l) {
        if (first(l))
          assign();
        else
          elementwise([&](S a, S b) { return d.add(a, b); });
      });
      break;
    case tb::AccumKind::rms:
      addStep(acc, true, [=](const Launch &l) {
        elementwise([&](S a, S b) {
          return first(l) ? d.mul(b, b) : d.add(a, d.mul(b, b));
        });
      });
      break;
    case tb::AccumKind::max:
      addStep(acc, true, [=](const Launch &l) {
        if (first(l))
          assign();
        else
          elementwise([&](S a, S b) { return d.maximum(a, b); });
      });
      break;
    case tb::AccumKind::sum_rescale:
      compileSumRescale(acc, x, r);
      break;
    }

    if (acc.getKind() == tb::AccumKind::mean)
      addStep(acc, false, [=](const Launch &) {
        elementwise([&](S a, S) { return d.mul(a, inverseCount); });
      });
    if (acc.getKind() == tb::AccumKind::rms)
      addStep(acc, false, [=](const Launch &) {
        elementwise([&](S a, S) { return d.sqrt(d.mul(a, inverseCount)); });
      });
    return checkDomain(d, acc);
  }

  /// sum_i exp(s_i - M) x_i with M = max_i s_i, computed online as
  /// FlashAttention does: with m the running maximum, each iteration
  /// rescales the sum by exp(m - m') and adds exp(s_i - m') x_i. The
  /// factors telescope to the definition exactly in a field (exp is a
  /// homomorphism there) and up to rounding in floating point.
  void compileSumRescale(tb::ForloopAccumOp acc, const T *x, T *r) {
    const T *s = &slot(acc.getScale());
    // Running maximum and the two factors, in the scale's shape.
    auto state = std::make_shared<std::array<T, 3>>();
    for (T &t : *state)
      t.resize(s->getShape());
    auto plan = std::make_shared<BroadcastPlan>(
        x->getShape(), SmallVector<SmallVector<int64_t, 4>>{
                           SmallVector<int64_t, 4>(s->getShape())});
    addStep(acc, true, [=](const Launch &l) {
      auto &[m, alpha, beta] = *state;
      for (int64_t i = 0, e = s->size(); i < e; ++i) {
        S next = first(l) ? (*s)[i] : d.maximum(m[i], (*s)[i]);
        alpha[i] = first(l) ? d.zero() : d.exp(d.sub(m[i], next));
        beta[i] = d.exp(d.sub((*s)[i], next));
        m[i] = next;
      }
      plan->run([&](int64_t o, const int64_t *in) {
        S added = d.mul((*x)[o], beta[in[0]]);
        (*r)[o] = first(l) ? added : d.add(d.mul((*r)[o], alpha[in[0]]), added);
      });
    });
  }
  Domain &d;
  tb::BlockGraphOpInterface graph;
  ArrayRef<const T *> inputs;
  ArrayRef<T *> outputs;
  llvm::DenseMap<Value, unsigned> slotOf;
  std::vector<T> slots;
  llvm::DenseSet<Value> perIteration;
  SmallVector<Step> loopSteps, postSteps;
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
