//===- StructuredOp.cpp - tk.structured, loop by loop ---------------------===//
#include "StructuredOp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::interp;
using namespace mlir::tileopt::interp::detail;

namespace {

/// A payload value: a float (in T) or an integer, index or i1 (as int64_t).
template <typename T> struct Scalar {
  T f = 0;
  int64_t i = 0;
};

template <typename T> class StructuredRunner {
public:
  StructuredRunner(tk::StructuredOp op, ArrayRef<const Tensor<T> *> inputs)
      : op(op), generic(op.getGeneric()) {
    for (auto [arg, input] :
         llvm::zip(op.getBody().front().getArguments(), inputs))
      tensors[arg] = input;
  }

  LogicalResult run(Tensor<T> &result) {
    SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators =
        generic.getIteratorTypesArray();
    OpOperand *init = generic.getDpsInitOperand(0);
    AffineMap outputMap = generic.getMatchingIndexingMap(init);
    result = Tensor<T>(shapeOf(op.getResult()));
    // Every point of the iteration space in row-major order: the reduction
    // loops of one output element in the order the kernel takes them too.
    SmallVector<int64_t> loops(ranges.size(), 0);
    int64_t points = 1;
    for (int64_t range : ranges)
      points *= range;
    // Parallel loops outermost, so each output element's reduction runs in
    // one stretch.
    SmallVector<unsigned> order;
    for (auto [d, it] : llvm::enumerate(iterators))
      if (it == utils::IteratorType::parallel)
        order.push_back(d);
    for (auto [d, it] : llvm::enumerate(iterators))
      if (it != utils::IteratorType::parallel)
        order.push_back(d);
    for (int64_t point = 0; point < points; ++point) {
      int64_t rest = point;
      for (unsigned d : llvm::reverse(order)) {
        loops[d] = rest % ranges[d];
        rest /= ranges[d];
      }
      SmallVector<int64_t> at = outputMap.compose(loops);
      int64_t flat = flatIndex(result.getShape(), at);
      bool first = llvm::all_of(order, [&](unsigned d) {
        return iterators[d] == utils::IteratorType::parallel || loops[d] == 0;
      });
      Scalar<T> accumulator;
      if (first) {
        FailureOr<Scalar<T>> initial =
            read(init->get(), outputMap, loops, /*isInit=*/true);
        if (failed(initial))
          return failure();
        accumulator = *initial;
      } else {
        accumulator.f = result[flat];
      }
      FailureOr<Scalar<T>> next = iterate(loops, accumulator);
      if (failed(next))
        return failure();
      result[flat] = next->f;
    }
    return success();
  }

private:
  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<ShapedType>(v.getType()).getShape();
  }
  static int64_t flatIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> at) {
    int64_t flat = 0;
    for (auto [size, i] : llvm::zip(shape, at))
      flat = flat * size + i;
    return flat;
  }

  /// The constant `value` holds, if a constant or a fill of one defines it.
  static std::optional<Scalar<T>> constantOf(Value value) {
    if (auto fill = value.getDefiningOp<linalg::FillOp>())
      return constantOf(fill.getInputs().front());
    Attribute attr;
    if (!matchPattern(value, m_Constant(&attr)))
      return std::nullopt;
    if (auto splat = dyn_cast<SplatElementsAttr>(attr))
      attr = splat.getSplatValue<Attribute>();
    Scalar<T> s;
    if (auto f = dyn_cast<FloatAttr>(attr))
      s.f = static_cast<T>(f.getValueAsDouble());
    else if (auto i = dyn_cast<IntegerAttr>(attr))
      s.i = i.getType().isInteger(1) ? (i.getValue().isZero() ? 0 : 1)
                                     : i.getValue().getSExtValue();
    else
      return std::nullopt;
    return s;
  }

  /// The element of `value` (a tensor of the region, or a constant) that
  /// `map` picks at `loops`.
  FailureOr<Scalar<T>> read(Value value, AffineMap map, ArrayRef<int64_t> loops,
                            bool isInit = false) {
    if (std::optional<Scalar<T>> constant = constantOf(value))
      return *constant;
    // An empty init holds nothing a payload may read.
    if (isInit && value.getDefiningOp<tensor::EmptyOp>())
      return Scalar<T>();
    const Tensor<T> *tensor = tensors.lookup(value);
    if (!tensor)
      return op.emitOpError("reads a value the interpreter cannot evaluate");
    SmallVector<int64_t> at = map.compose(loops);
    for (auto [a, size] : llvm::zip(at, tensor->getShape()))
      if (a < 0 || a >= size)
        return op.emitOpError("reads outside an operand through ")
               << AffineMapAttr::get(map);
    Scalar<T> s;
    s.f = (*tensor)[flatIndex(tensor->getShape(), at)];
    return s;
  }

  /// One iteration of the payload at `loops`.
  FailureOr<Scalar<T>> iterate(ArrayRef<int64_t> loops, Scalar<T> accumulator) {
    Block &payload = generic.getRegion().front();
    llvm::DenseMap<Value, Scalar<T>> values;
    for (OpOperand *input : generic.getDpsInputOperands()) {
      Value arg = payload.getArgument(input->getOperandNumber());
      if (arg.use_empty())
        continue;
      FailureOr<Scalar<T>> v = failure();
      if (isa<ShapedType>(input->get().getType())) {
        v = read(input->get(), generic.getMatchingIndexingMap(input), loops);
      } else if (std::optional<Scalar<T>> constant = constantOf(input->get())) {
        v = *constant;
      } else {
        return op.emitOpError("reads a scalar that is not a constant");
      }
      if (failed(v))
        return failure();
      values[arg] = *v;
    }
    values[payload.getArguments().back()] = accumulator;
    auto get = [&](Value v) -> Scalar<T> {
      auto it = values.find(v);
      if (it != values.end())
        return it->second;
      return constantOf(v).value_or(Scalar<T>());
    };
    for (Operation &nested : payload) {
      if (auto yield = dyn_cast<linalg::YieldOp>(nested))
        return get(yield.getValues().front());
      FailureOr<Scalar<T>> r = evaluate(nested, loops, get);
      if (failed(r))
        return failure();
      values[nested.getResult(0)] = *r;
    }
    return op.emitOpError("has a payload without linalg.yield");
  }

  FailureOr<Scalar<T>> evaluate(Operation &nested, ArrayRef<int64_t> loops,
                                function_ref<Scalar<T>(Value)> get) {
    auto f = [&](unsigned i) { return get(nested.getOperand(i)).f; };
    auto i = [&](unsigned k) { return get(nested.getOperand(k)).i; };
    auto fl = [](T v) {
      Scalar<T> s;
      s.f = v;
      return s;
    };
    auto in = [](int64_t v) {
      Scalar<T> s;
      s.i = v;
      return s;
    };
    using R = FailureOr<Scalar<T>>;
    return llvm::TypeSwitch<Operation *, R>(&nested)
        .Case([&](arith::ConstantOp c) -> R {
          if (std::optional<Scalar<T>> s = constantOf(c.getResult()))
            return *s;
          return c.emitOpError("is a constant the interpreter cannot read");
        })
        .Case([&](linalg::IndexOp index) -> R {
          return in(loops[index.getDim()]);
        })
        .Case([&](tensor::ExtractOp extract) -> R {
          const Tensor<T> *tensor = tensors.lookup(extract.getTensor());
          if (!tensor)
            return extract.emitOpError("reads a tensor the interpreter does "
                                       "not hold");
          SmallVector<int64_t> at;
          for (Value index : extract.getIndices())
            at.push_back(get(index).i);
          for (auto [a, size] : llvm::zip(at, tensor->getShape()))
            if (a < 0 || a >= size)
              return extract.emitOpError("reads outside its tensor");
          return fl((*tensor)[flatIndex(tensor->getShape(), at)]);
        })
        .Case([&](arith::AddFOp) -> R { return fl(f(0) + f(1)); })
        .Case([&](arith::SubFOp) -> R { return fl(f(0) - f(1)); })
        .Case([&](arith::MulFOp) -> R { return fl(f(0) * f(1)); })
        .Case([&](arith::DivFOp) -> R { return fl(f(0) / f(1)); })
        .Case([&](arith::NegFOp) -> R { return fl(-f(0)); })
        .Case([&](arith::MaximumFOp) -> R {
          return fl(std::isnan(f(0)) || std::isnan(f(1))
                        ? NAN
                        : std::max(f(0), f(1)));
        })
        .Case([&](arith::MinimumFOp) -> R {
          return fl(std::isnan(f(0)) || std::isnan(f(1))
                        ? NAN
                        : std::min(f(0), f(1)));
        })
        .Case([&](arith::MaxNumFOp) -> R { return fl(std::fmax(f(0), f(1))); })
        .Case([&](arith::MinNumFOp) -> R { return fl(std::fmin(f(0), f(1))); })
        .Case([&](math::ExpOp) -> R { return fl(std::exp(f(0))); })
        .Case([&](math::LogOp) -> R { return fl(std::log(f(0))); })
        .Case([&](math::TanhOp) -> R { return fl(std::tanh(f(0))); })
        .Case([&](math::SqrtOp) -> R { return fl(std::sqrt(f(0))); })
        .Case([&](math::RsqrtOp) -> R { return fl(T(1) / std::sqrt(f(0))); })
        .Case([&](math::ErfOp) -> R { return fl(std::erf(f(0))); })
        .Case([&](math::PowFOp) -> R { return fl(std::pow(f(0), f(1))); })
        .Case([&](math::AbsFOp) -> R { return fl(std::fabs(f(0))); })
        .template Case<arith::ExtFOp, arith::TruncFOp>([&](Operation *) -> R {
          // Floats are computed in the domain's precision (as by the rest
          // of the interpreter, docs/interpreter.md).
          return fl(f(0));
        })
        .Case([&](arith::SIToFPOp) -> R { return fl(static_cast<T>(i(0))); })
        .Case([&](arith::FPToSIOp) -> R {
          return in(static_cast<int64_t>(f(0)));
        })
        .Case([&](arith::CmpFOp cmp) -> R {
          T a = f(0), b = f(1);
          bool unordered = std::isnan(a) || std::isnan(b);
          using P = arith::CmpFPredicate;
          bool holds = false;
          switch (cmp.getPredicate()) {
          case P::AlwaysFalse:
            holds = false;
            break;
          case P::OEQ:
            holds = !unordered && a == b;
            break;
          case P::OGT:
            holds = !unordered && a > b;
            break;
          case P::OGE:
            holds = !unordered && a >= b;
            break;
          case P::OLT:
            holds = !unordered && a < b;
            break;
          case P::OLE:
            holds = !unordered && a <= b;
            break;
          case P::ONE:
            holds = !unordered && a != b;
            break;
          case P::ORD:
            holds = !unordered;
            break;
          case P::UEQ:
            holds = unordered || a == b;
            break;
          case P::UGT:
            holds = unordered || a > b;
            break;
          case P::UGE:
            holds = unordered || a >= b;
            break;
          case P::ULT:
            holds = unordered || a < b;
            break;
          case P::ULE:
            holds = unordered || a <= b;
            break;
          case P::UNE:
            holds = unordered || a != b;
            break;
          case P::UNO:
            holds = unordered;
            break;
          case P::AlwaysTrue:
            holds = true;
            break;
          }
          return in(holds);
        })
        .Case([&](arith::CmpIOp cmp) -> R {
          int64_t a = i(0), b = i(1);
          using P = arith::CmpIPredicate;
          switch (cmp.getPredicate()) {
          case P::eq:
            return in(a == b);
          case P::ne:
            return in(a != b);
          case P::slt:
            return in(a < b);
          case P::sle:
            return in(a <= b);
          case P::sgt:
            return in(a > b);
          case P::sge:
            return in(a >= b);
          default:
            return cmp.emitOpError("compares unsigned; the interpreter "
                                   "compares signed integers");
          }
        })
        .Case([&](arith::SelectOp) -> R {
          return i(0) ? get(nested.getOperand(1)) : get(nested.getOperand(2));
        })
        .Case([&](arith::AddIOp) -> R { return in(i(0) + i(1)); })
        .Case([&](arith::SubIOp) -> R { return in(i(0) - i(1)); })
        .Case([&](arith::MulIOp) -> R { return in(i(0) * i(1)); })
        .Case([&](arith::DivSIOp) -> R {
          if (i(1) == 0)
            return nested.emitOpError("divides by zero");
          return in(i(0) / i(1));
        })
        .Case([&](arith::RemSIOp) -> R {
          if (i(1) == 0)
            return nested.emitOpError("divides by zero");
          return in(i(0) % i(1));
        })
        .Case([&](arith::AndIOp) -> R { return in(i(0) & i(1)); })
        .Case([&](arith::OrIOp) -> R { return in(i(0) | i(1)); })
        .Case([&](arith::XOrIOp) -> R { return in(i(0) ^ i(1)); })
        .Case([&](arith::MaxSIOp) -> R { return in(std::max(i(0), i(1))); })
        .Case([&](arith::MinSIOp) -> R { return in(std::min(i(0), i(1))); })
        .template Case<arith::IndexCastOp, arith::ExtSIOp>(
            [&](Operation *) -> R { return in(i(0)); })
        .Default([](Operation *other) -> R {
          return other->emitOpError(
              "is not evaluated by the interpreter in a tk.structured");
        });
  }

  tk::StructuredOp op;
  linalg::GenericOp generic;
  llvm::DenseMap<Value, const Tensor<T> *> tensors;
};

} // namespace

template <typename T>
LogicalResult interp::detail::runStructured(tk::StructuredOp op,
                                            ArrayRef<const Tensor<T> *> inputs,
                                            Tensor<T> &result) {
  return StructuredRunner<T>(op, inputs).run(result);
}

template LogicalResult interp::detail::runStructured<float>(
    tk::StructuredOp, ArrayRef<const Tensor<float> *>, Tensor<float> &);
template LogicalResult interp::detail::runStructured<double>(
    tk::StructuredOp, ArrayRef<const Tensor<double> *>, Tensor<double> &);
