//===- Abstraction.cpp - Abstract expressions of tk and tb values ---------===//
#include "TileOpt/Superopt/Abstraction.h"

#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

const Expr *superopt::applyUnary(ExprContext &ctx, UnaryKind kind,
                                 const Expr *x, std::optional<double> scalar) {
  switch (kind) {
  case UnaryKind::exp:
    return ctx.exp(x);
  case UnaryKind::silu:
    return ctx.fn(FnKind::Silu, {x});
  case UnaryKind::gelu:
    return ctx.fn(FnKind::Gelu, {x});
  case UnaryKind::relu:
    return ctx.fn(FnKind::Relu, {x});
  case UnaryKind::sigmoid:
    // 1 / (1 + exp(-x)): the importer makes x * sigmoid(x) a silu first.
    return ctx.power(ctx.add({ctx.constant(1), ctx.exp(ctx.scale(x, -1))}),
                     -2);
  case UnaryKind::sqrt:
    return ctx.power(x, 1);
  case UnaryKind::rsqrt:
    return ctx.power(x, -1);
  case UnaryKind::square:
    return ctx.power(x, 4);
  case UnaryKind::neg:
    return ctx.scale(x, -1);
  case UnaryKind::mul_scalar:
    return ctx.scale(x, *scalar);
  case UnaryKind::add_scalar:
    return ctx.add({x, ctx.constant(*scalar)});
  }
  llvm_unreachable("unknown unary kind");
}

const Expr *superopt::applyBinary(ExprContext &ctx, BinaryKind kind,
                                  const Expr *lhs, const Expr *rhs) {
  switch (kind) {
  case BinaryKind::add:
    return ctx.add({lhs, rhs});
  case BinaryKind::sub:
    return ctx.sub(lhs, rhs);
  case BinaryKind::mul:
    return ctx.mul({lhs, rhs});
  case BinaryKind::div:
    return ctx.div(lhs, rhs);
  case BinaryKind::pow:
    return ctx.fn(FnKind::Pow, {lhs, rhs});
  }
  llvm_unreachable("unknown binary kind");
}

const Expr *superopt::applyReduce(ExprContext &ctx, ReduceKind kind,
                                  const Expr *x, int64_t n) {
  switch (kind) {
  case ReduceKind::sum:
    return ctx.sum(n, x);
  case ReduceKind::max:
    return ctx.max(n, x);
  case ReduceKind::mean:
    return ctx.mean(n, x);
  }
  llvm_unreachable("unknown reduce kind");
}

// sum_rescale adds partial results computed against different running
// maxima, rescaled to the final one: with the max-shift forgotten (see
// ExprContext::exp) it is a sum.
const Expr *superopt::applyAccum(ExprContext &ctx, tb::AccumKind kind,
                                 const Expr *x, int64_t forloopRange) {
  switch (kind) {
  case tb::AccumKind::none:
    return x;
  case tb::AccumKind::sum:
  case tb::AccumKind::sum_rescale:
    return ctx.sum(forloopRange, x);
  case tb::AccumKind::mean:
    return ctx.mean(forloopRange, x);
  case tb::AccumKind::rms:
    return ctx.power(ctx.mean(forloopRange, ctx.power(x, 4)), 1);
  case tb::AccumKind::max:
    return ctx.max(forloopRange, x);
  }
  llvm_unreachable("unknown accumulator kind");
}

/// The extent of `v` along `dim`; a negative dim counts from the last.
static int64_t dimSize(Value v, int64_t dim) {
  auto type = cast<ShapedType>(v.getType());
  return type.getDimSize(dim < 0 ? type.getRank() + dim : dim);
}

/// What identifies the scalar code that computes result `result` of a tk.map
/// or th.graph region: the arguments' types, each op's name, operands (by
/// number), attributes and result types, and the value yielded. Names,
/// locations and the terminator (tk.yield or th.yield) are left out, so that
/// a map and the thread graph cloned from it are one function.
static std::string scalarCodeKey(Block &body, unsigned result) {
  std::string key;
  llvm::raw_string_ostream os(key);
  llvm::DenseMap<Value, unsigned> numbers;
  auto define = [&](Value v) { numbers.try_emplace(v, numbers.size()); };
  auto use = [&](Value v) { os << '%' << numbers.lookup(v); };
  for (BlockArgument arg : body.getArguments()) {
    define(arg);
    os << arg.getType() << ';';
  }
  for (Operation &op : body.without_terminator()) {
    os << op.getName() << '(';
    llvm::interleaveComma(op.getOperands(), os, use);
    os << ')' << op.getAttrDictionary() << ':';
    llvm::interleaveComma(op.getResultTypes(), os);
    os << ';';
    for (Value r : op.getResults())
      define(r);
  }
  os << "yield ";
  use(body.getTerminator()->getOperand(result));
  return key;
}

FailureOr<llvm::DenseMap<Value, const Expr *>>
superopt::abstractValues(func::FuncOp func, ExprContext &ctx) {
  llvm::DenseMap<Value, const Expr *> exprs;
  for (auto [i, arg] : llvm::enumerate(func.getArguments()))
    exprs[arg] = ctx.input(static_cast<int64_t>(i));
  int64_t forloopRange = 1;
  ArrayRef<int64_t> grid;

  WalkResult walk = func.walk<WalkOrder::PreOrder>([&](Operation *op)
                                                       -> WalkResult {
    if (op == func.getOperation())
      return WalkResult::advance();
    auto in = [&](unsigned i) { return exprs.lookup(op->getOperand(i)); };
    auto unaryScalar = [](std::optional<APFloat> s) -> std::optional<double> {
      if (!s)
        return std::nullopt;
      return s->convertToDouble();
    };
    if (auto fused = dyn_cast<tk::FusedOp>(op)) {
      for (auto [arg, input] : llvm::zip_equal(
               fused.getBody().front().getArguments(), fused.getInputs()))
        exprs[arg] = exprs.lookup(input);
      forloopRange = fused.getForloopRange();
      grid = fused.getGridDims();
      return WalkResult::advance();
    }
    // Scalar code is an uninterpreted function of its operands, element by
    // element: pruning assumes nothing else of it, and a map and the thread
    // graph cloned from it are the same function.
    // What no tk op models is one too, of whole tensors: two structured ops
    // are the same function when their regions are equal.
    if (auto structured = dyn_cast<tk::StructuredOp>(op)) {
      SmallVector<const Expr *> args;
      for (Value operand : structured.getInputs())
        args.push_back(exprs.lookup(operand));
      std::string key = "structured ";
      llvm::raw_string_ostream os(key);
      structured.getBody().front().walk([&](Operation *nested) {
        os << nested->getName() << nested->getAttrDictionary() << ':';
        llvm::interleaveComma(nested->getResultTypes(), os);
        os << ';';
      });
      exprs[structured.getResult()] = ctx.map(ctx.function(key), args);
      return WalkResult::skip();
    }
    if (isa<tk::MapOp, th::GraphOp>(op)) {
      SmallVector<const Expr *> args;
      for (Value operand : op->getOperands())
        args.push_back(exprs.lookup(operand));
      Block &body = op->getRegion(0).front();
      for (auto [i, result] : llvm::enumerate(op->getResults()))
        exprs[result] = ctx.map(ctx.function(scalarCodeKey(body, i)), args);
      return WalkResult::skip();
    }
    const Expr *e =
        TypeSwitch<Operation *, const Expr *>(op)
            // tk and tb share these ops' meaning (and accessors).
            .Case<tk::MatmulOp, tb::MatmulOp>([&](auto m) {
              return ctx.matmul(in(0), in(1), dimSize(m.getLhs(), -1));
            })
            .Case<tk::UnaryOp, tb::UnaryOp>([&](auto u) {
              return applyUnary(ctx, u.getKind(), in(0),
                                unaryScalar(u.getScalar()));
            })
            .Case<tk::BinaryOp, tb::BinaryOp>([&](auto b) {
              return applyBinary(ctx, b.getKind(), in(0), in(1));
            })
            .Case([&](tk::ReduceOp r) {
              return applyReduce(ctx, r.getKind(), in(0),
                                 dimSize(r.getInput(), r.getDim()));
            })
            .Case([&](tb::ReduceOp r) {
              int64_t to = r.getTo().value_or(1);
              return applyReduce(ctx, r.getKind(), in(0),
                                 dimSize(r.getInput(), r.getDim()) / to);
            })
            .Case([&](tk::RmsNormOp r) {
              return ctx.rmsNorm(in(0), dimSize(r.getInput(), -1),
                                 r.getEpsilon().convertToDouble());
            })
            .Case([&](tb::RmsNormOp r) {
              // Across a grid dim, a row is the blocks' parts of it.
              int64_t blocks = r.getAcross() ? grid[*r.getAcross()] : 1;
              return ctx.rmsNorm(in(0), dimSize(r.getInput(), -1) * blocks,
                                 r.getEpsilon().convertToDouble());
            })
            .Case<tk::ReshapeOp, tk::TransposeOp>(
                [&](Operation *) { return in(0); })
            .Case([&](tb::InputIteratorOp) { return in(0); })
            .Case([&](tb::ForloopAccumOp a) {
              return applyAccum(ctx, a.getKind(), in(0), forloopRange);
            })
            .Case([&](tb::OutputSaverOp) { return in(0); })
            .Case<tk::ConcatOp, tb::ConcatOp>([&](Operation *c) {
              int64_t dim = c->getAttrOfType<IntegerAttr>("dim").getInt();
              SmallVector<const Expr *> parts;
              SmallVector<int64_t> sizes;
              for (Value operand : c->getOperands()) {
                parts.push_back(exprs.lookup(operand));
                sizes.push_back(dimSize(operand, dim));
              }
              return ctx.concat(parts, sizes);
            })
            .Default([](Operation *) { return nullptr; });
    if (isa<tk::SplitOp>(op)) {
      for (auto [i, result] : llvm::enumerate(op->getResults()))
        exprs[result] = ctx.split(in(0), static_cast<int64_t>(i),
                                  op->getNumResults());
      return WalkResult::advance();
    }
    if (auto yield = dyn_cast<tb::YieldOp>(op)) {
      // A fused kernel's results are its savers' tensors.
      for (auto [result, saved] :
           llvm::zip_equal(op->getParentOp()->getResults(), yield.getValues()))
        exprs[result] = exprs.lookup(saved);
      return WalkResult::advance();
    }
    if (isa<func::ReturnOp>(op))
      return WalkResult::advance();
    if (!e) {
      op->emitRemark("the superoptimizer cannot model '")
          << op->getName() << "'";
      return WalkResult::interrupt();
    }
    exprs[op->getResult(0)] = e;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return exprs;
}
