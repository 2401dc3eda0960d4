//===- Shrink.cpp - Reduced instances of kernel graphs --------------------===//
//
// Every dim of every shaped value is a slot. An op relates slots: the dims it
// requires equal (matmul's contraction dims, elementwise operands), or in a
// fixed ratio (a tensor dim and the tile dim an input iterator cuts from it:
// the ratio is the grid or for-loop division). Slots related this way form a
// class; a class shrinks by one factor — its extents divided by their gcd u,
// times a new unit v <= u — so every equality and every ratio, hence every
// partition, survives, and so do sums (concat) within a class. A few slots
// are pinned (the `to` size of a reduction) or must stay multiples of
// something (the dim it reduces).
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Verifier/Shrink.h"

#include "TileOpt/Dialect/Common/DimRelations.h"
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/TypeSwitch.h"
#include <numeric>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::verifier;

namespace {

class DimClasses {
public:
  /// Gives every dim of `v` (if shaped) a slot.
  void addValue(Value v) {
    auto shaped = dyn_cast<ShapedType>(v.getType());
    if (!shaped || firstSlot.count(v))
      return;
    firstSlot[v] = extents.size();
    for (int64_t extent : shaped.getShape()) {
      classes.insert(extents.size());
      extents.push_back(extent);
    }
  }

  /// Relates the slots of every op nested in `func`; reports an op it
  /// cannot see through.
  LogicalResult constrain(func::FuncOp func);
  /// Dims of `a` and `b` equal one by one (same rank).
  void unifyAll(Value a, Value b) {
    for (int64_t d = 0, e = rank(a); d < e; ++d)
      unify(a, d, b, d);
  }
  void unify(Value a, int64_t da, Value b, int64_t db) {
    classes.unionSets(slot(a, da), slot(b, db));
  }

  /// Picks the new unit of every class; then newExtent() answers.
  void solve(const ShrinkOptions &options);
  SmallVector<int64_t> newShape(Value v) {
    SmallVector<int64_t> shape;
    for (int64_t d = 0, e = rank(v); d < e; ++d)
      shape.push_back(newExtents[slot(v, d)]);
    return shape;
  }
  /// The extent every slot of extent `n` shrinks to, if they agree.
  FailureOr<int64_t> shrunkExtent(int64_t n) const;

private:
  unsigned slot(Value v, int64_t d) {
    assert(firstSlot.count(v) && "value without slots");
    return firstSlot.lookup(v) + d;
  }
  static int64_t rank(Value v) { return cast<ShapedType>(v.getType()).getRank(); }
  int64_t extent(Value v, int64_t d) { return extents[slot(v, d)]; }

  LogicalResult constrainOp(Operation *op);
  LogicalResult constrainReshape(tk::ReshapeOp op);
  /// The new extents of every class (leader -> its slots in `members`)
  /// for the pinned classes `pinnedClasses` (leaders); false if a product
  /// constraint does not hold, after pinning the classes of its slots.
  bool trySolve(const ShrinkOptions &options,
                const llvm::DenseMap<unsigned, SmallVector<unsigned>> &members,
                llvm::DenseSet<unsigned> &pinnedClasses);

  llvm::DenseMap<Value, unsigned> firstSlot;
  SmallVector<int64_t> extents, newExtents;
  llvm::EquivalenceClasses<unsigned> classes;
  /// Slots that keep their extent, and slots whose new extent must be a
  /// multiple of a number.
  SmallVector<unsigned> pinned;
  SmallVector<std::pair<unsigned, int64_t>> multiples;
  /// A reshape's merged (or split) dim and the dims it is made of, in
  /// order: the merged extent is the product of theirs.
  struct Product {
    unsigned whole;
    SmallVector<unsigned, 2> parts;
  };
  SmallVector<Product> products;
};

LogicalResult DimClasses::constrain(func::FuncOp func) {
  // All slots first: an op may relate values defined after it in walk
  // order (tb.yield and the results of its tk.fused).
  for (BlockArgument arg : func.getArguments())
    addValue(arg);
  func.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Value arg : region.getArguments())
        addValue(arg);
    for (Value result : op->getResults())
      addValue(result);
  });
  WalkResult walk = func.walk([&](Operation *op) {
    return failed(constrainOp(op)) ? WalkResult::interrupt()
                                   : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult DimClasses::constrainOp(Operation *op) {
  // unify() as the shared dim relations call it (DimRelations.h).
  auto unifier = [&](Value a, int64_t da, Value b, int64_t db) {
    unify(a, da, b, db);
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<tk::UnaryOp, tb::UnaryOp, tk::RmsNormOp, tb::RmsNormOp,
            tb::InputIteratorOp, tb::OutputSaverOp>([&](Operation *o) {
        // Same dims; for iterators and savers the ratio is the partition.
        unifyAll(o->getOperand(0), o->getResult(0));
        return success();
      })
      .Case<tk::BinaryOp, tb::BinaryOp, th::GraphOp, tk::MapOp>(
          [&](Operation *o) {
        for (Value result : o->getResults())
          for (Value operand : o->getOperands())
            equateBroadcastDims(operand, result, unifier);
        return success();
      })
      .Case([&](tb::ForloopAccumOp acc) {
        unifyAll(acc.getInput(), acc.getResult());
        if (Value scale = acc.getScale())
          equateBroadcastDims(scale, acc.getResult(), unifier);
        return success();
      })
      .Case<tk::MatmulOp, tb::MatmulOp>([&](Operation *o) {
        equateMatmulDims(o->getOperand(0), o->getOperand(1), o->getResult(0),
                         unifier);
        return success();
      })
      .Case<tk::ReduceOp, tb::ReduceOp>([&](auto r) {
        Value in = r.getInput(), out = r.getResult();
        int64_t dim = r.getDim();
        for (int64_t d = 0, e = rank(in); d < e; ++d)
          if (d != dim)
            unify(in, d, out, d);
        // The `to` size is part of the partition structure: it stays, and
        // the reduced dim stays divisible by it.
        int64_t to = extent(out, dim);
        pinned.push_back(slot(out, dim));
        multiples.push_back({slot(in, dim), to});
        return success();
      })
      .Case<tk::ConcatOp, tb::ConcatOp, tk::SplitOp>([&](Operation *o) {
        // The whole and its parts share every dim, the concatenated one
        // included: parts shrink in proportion, so their sizes still add up.
        bool split = isa<tk::SplitOp>(o);
        Value whole = split ? o->getOperand(0) : o->getResult(0);
        for (Value part : split ? ValueRange(o->getResults())
                                : ValueRange(o->getOperands()))
          unifyAll(part, whole);
        return success();
      })
      .Case([&](tk::TransposeOp t) {
        for (auto [i, p] : llvm::enumerate(t.getPermutation()))
          unify(t.getResult(), i, t.getInput(), p);
        return success();
      })
      .Case([&](tk::ReshapeOp r) { return constrainReshape(r); })
      .Case([&](tk::FusedOp fused) {
        for (auto [operand, arg] :
             llvm::zip(fused.getInputs(), fused.getBody().getArguments()))
          unifyAll(operand, arg);
        return success();
      })
      .Case([&](tb::YieldOp yield) {
        for (auto [value, result] :
             llvm::zip(yield.getValues(), yield->getParentOp()->getResults()))
          unifyAll(value, result);
        return success();
      })
      .Case<func::FuncOp, func::ReturnOp>([](Operation *) { return success(); })
      .Default([](Operation *other) -> LogicalResult {
        auto shaped = [](Type t) { return isa<ShapedType>(t); };
        if (llvm::none_of(other->getOperandTypes(), shaped) &&
            llvm::none_of(other->getResultTypes(), shaped))
          return success(); // scalar code of a thread graph
        return other->emitOpError(
            "cannot be shrunk: the verifier does not know how it relates the "
            "dims of its operands and results");
      });
}

/// A reshape relates its non-unit dims in groups of equal products, in
/// order: a dim of one side alone is the same dim of the other (unified);
/// one dim that is the product of several of the other side (merged heads
/// and rows, say) becomes a product constraint, which solve() keeps. A
/// group of several dims on both sides is refused.
LogicalResult DimClasses::constrainReshape(tk::ReshapeOp op) {
  Value input = op.getInput(), result = op.getResult();
  auto nonUnit = [&](Value v) {
    SmallVector<int64_t> dims;
    for (int64_t d = 0, e = rank(v); d < e; ++d)
      if (extent(v, d) != 1)
        dims.push_back(d);
    return dims;
  };
  SmallVector<int64_t> in = nonUnit(input), out = nonUnit(result);
  auto refuse = [&] {
    return op.emitOpError(
        "cannot be shrunk: it regroups dims other than by merging several "
        "into one or splitting one into several");
  };
  auto slots = [&](Value v, ArrayRef<int64_t> dims) {
    SmallVector<unsigned, 2> found;
    for (int64_t d : dims)
      found.push_back(slot(v, d));
    return found;
  };
  size_t i = 0, j = 0;
  while (i < in.size() && j < out.size()) {
    size_t inEnd = i + 1, outEnd = j + 1;
    int64_t inProduct = extent(input, in[i]),
            outProduct = extent(result, out[j]);
    while (inProduct != outProduct) {
      if (inProduct < outProduct && inEnd < in.size())
        inProduct *= extent(input, in[inEnd++]);
      else if (outProduct < inProduct && outEnd < out.size())
        outProduct *= extent(result, out[outEnd++]);
      else
        return refuse();
    }
    ArrayRef<int64_t> inGroup = ArrayRef(in).slice(i, inEnd - i),
                      outGroup = ArrayRef(out).slice(j, outEnd - j);
    if (inGroup.size() == 1 && outGroup.size() == 1)
      unify(input, inGroup[0], result, outGroup[0]);
    else if (outGroup.size() == 1)
      products.push_back({slot(result, outGroup[0]), slots(input, inGroup)});
    else if (inGroup.size() == 1)
      products.push_back({slot(input, inGroup[0]), slots(result, outGroup)});
    else
      return refuse();
    i = inEnd;
    j = outEnd;
  }
  if (i != in.size() || j != out.size())
    return refuse();
  return success();
}

void DimClasses::solve(const ShrinkOptions &options) {
  llvm::DenseMap<unsigned, SmallVector<unsigned>> members;
  for (unsigned s = 0; s < extents.size(); ++s)
    members[classes.getLeaderValue(s)].push_back(s);
  llvm::DenseSet<unsigned> pinnedClasses;
  for (unsigned s : pinned)
    pinnedClasses.insert(classes.getLeaderValue(s));
  // Each failed try pins more classes; with every class pinned, all hold.
  while (!trySolve(options, members, pinnedClasses)) {
  }
}

bool DimClasses::trySolve(
    const ShrinkOptions &options,
    const llvm::DenseMap<unsigned, SmallVector<unsigned>> &members,
    llvm::DenseSet<unsigned> &pinnedClasses) {
  // Whether every slot of class `leader` may take extents[s] * ratio, as a
  // fraction num / den: integral, at least minExtent where it shrinks, and
  // a multiple of what it must stay a multiple of.
  auto fits = [&](unsigned leader, int64_t num, int64_t den) {
    for (unsigned s : members.at(leader)) {
      if (extents[s] * num % den != 0)
        return false;
      int64_t shrunk = extents[s] * num / den;
      if (shrunk < std::min(extents[s], options.minExtent))
        return false;
    }
    for (auto [s, m] : multiples)
      if (classes.getLeaderValue(s) == leader &&
          (extents[s] * num / den) % m != 0)
        return false;
    return true;
  };
  auto scale = [&](unsigned leader, int64_t num, int64_t den) {
    for (unsigned s : members.at(leader))
      newExtents[s] = extents[s] * num / den;
  };

  newExtents = extents;
  for (auto &[leader, slots] : members) {
    int64_t unit = 0;
    for (unsigned s : slots)
      unit = std::gcd(unit, extents[s]);
    if (unit <= 1 || pinnedClasses.contains(leader))
      continue;
    int64_t v = 1;
    while (!fits(leader, v, unit))
      ++v; // v = unit always fits
    scale(leader, v, unit);
  }
  // A merged dim takes the product of its parts' new extents, in as many
  // rounds as merges nest; one that cannot (its class's ratio does not
  // allow it, or the class is pinned) keeps every slot it relates whole.
  for (size_t round = 0; round <= products.size(); ++round) {
    bool changed = false;
    for (const Product &p : products) {
      int64_t merged = 1;
      for (unsigned part : p.parts)
        merged *= newExtents[part];
      if (merged == newExtents[p.whole])
        continue;
      unsigned leader = classes.getLeaderValue(p.whole);
      if (pinnedClasses.contains(leader) ||
          !fits(leader, merged, extents[p.whole])) {
        pinnedClasses.insert(leader);
        for (unsigned part : p.parts)
          pinnedClasses.insert(classes.getLeaderValue(part));
        return false;
      }
      scale(leader, merged, extents[p.whole]);
      changed = true;
    }
    if (!changed)
      return true;
  }
  // Merges that feed each other without settling: keep them whole.
  for (const Product &p : products) {
    pinnedClasses.insert(classes.getLeaderValue(p.whole));
    for (unsigned part : p.parts)
      pinnedClasses.insert(classes.getLeaderValue(part));
  }
  return false;
}

FailureOr<int64_t> DimClasses::shrunkExtent(int64_t n) const {
  std::optional<int64_t> result;
  for (auto [before, after] : llvm::zip(extents, newExtents)) {
    if (before != n)
      continue;
    if (result && *result != after)
      return failure();
    result = after;
  }
  return result.value_or(n);
}

/// If `value` is 1/N for an integer N >= 2, N.
std::optional<int64_t> reciprocalOf(const APFloat &value) {
  double x = value.convertToDouble();
  if (!(x > 0) || x > 0.5)
    return std::nullopt;
  int64_t n = std::llround(1.0 / x);
  APFloat exact(1.0 / static_cast<double>(n));
  bool losesInfo;
  exact.convert(value.getSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  if (exact.bitwiseIsEqual(value))
    return n;
  return std::nullopt;
}

/// Rewrites a mean factor 1/N of `op` to 1/N' where N shrinks to N'.
FailureOr<FloatAttr> rescaleMeanFactor(Operation *op, FloatAttr attr,
                                       const DimClasses &dims) {
  std::optional<int64_t> n = reciprocalOf(attr.getValue());
  if (!n)
    return attr;
  FailureOr<int64_t> shrunk = dims.shrunkExtent(*n);
  if (failed(shrunk))
    return op->emitOpError("cannot be shrunk: its constant ")
           << attr.getValueAsDouble() << " = 1/" << *n
           << " may be the factor of a mean, but dims of extent " << *n
           << " shrink to different sizes";
  if (*shrunk == *n)
    return attr;
  return FloatAttr::get(attr.getType(), 1.0 / static_cast<double>(*shrunk));
}

LogicalResult rescaleConstants(func::FuncOp func, const DimClasses &dims) {
  WalkResult walk = func.walk([&](Operation *op) {
    FailureOr<FloatAttr> rescaled = failure();
    StringRef name;
    if (auto unary = dyn_cast<tk::UnaryOp>(op);
        unary && unary.getKind() == UnaryKind::mul_scalar) {
      name = unary.getScalarAttrName();
      rescaled = rescaleMeanFactor(op, unary.getScalarAttr(), dims);
    } else if (auto unary = dyn_cast<tb::UnaryOp>(op);
               unary && unary.getKind() == UnaryKind::mul_scalar) {
      name = unary.getScalarAttrName();
      rescaled = rescaleMeanFactor(op, unary.getScalarAttr(), dims);
    } else if (auto constant = dyn_cast<arith::ConstantOp>(op);
               constant && isa<FloatAttr>(constant.getValue()) &&
               isa<th::GraphOp, tk::MapOp>(op->getParentOp())) {
      name = "value";
      rescaled = rescaleMeanFactor(op, cast<FloatAttr>(constant.getValue()),
                                   dims);
    } else {
      return WalkResult::advance();
    }
    if (failed(rescaled))
      return WalkResult::interrupt();
    op->setAttr(name, *rescaled);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

} // namespace

FailureOr<SmallVector<func::FuncOp>>
verifier::shrink(ArrayRef<func::FuncOp> funcs, ModuleOp into,
                 const ShrinkOptions &options) {
  DimClasses dims;
  for (func::FuncOp func : funcs)
    if (failed(dims.constrain(func)))
      return failure();
  // The functions are compared on the same inputs and outputs.
  func::FuncOp first = funcs.front();
  auto results = [](func::FuncOp f) {
    return f.getBody().front().getTerminator()->getOperands();
  };
  for (func::FuncOp other : funcs.drop_front()) {
    for (auto [a, b] : llvm::zip(first.getArguments(), other.getArguments()))
      dims.unifyAll(a, b);
    for (auto [a, b] : llvm::zip(results(first), results(other)))
      dims.unifyAll(a, b);
  }
  dims.solve(options);

  SmallVector<func::FuncOp> shrunk;
  for (auto [i, original] : llvm::enumerate(funcs)) {
    func::FuncOp func = original;
    IRMapping mapping;
    func::FuncOp clone = func.clone(mapping);
    clone.setSymName((func.getSymName() + "__shrunk" + Twine(i)).str());
    into.push_back(clone);
    auto retype = [&](Value v) {
      if (auto shaped = dyn_cast<ShapedType>(v.getType()))
        mapping.lookup(v).setType(shaped.clone(dims.newShape(v)));
    };
    for (BlockArgument arg : func.getArguments())
      retype(arg);
    // A constant argument's values are of the full size; the verifier gives
    // every argument random values anyway (equal for every input is equal
    // for the constants), so the shrunk argument is an ordinary input.
    for (unsigned arg = 0, e = clone.getNumArguments(); arg < e; ++arg)
      clone.removeArgAttr(arg, TileOptDialect::ConstantAttrHelper::getNameStr());
    func.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Value arg : region.getArguments())
          retype(arg);
      for (Value result : op->getResults())
        retype(result);
    });
    clone.setType(FunctionType::get(
        func.getContext(), clone.getBody().getArgumentTypes(),
        clone.getBody().front().getTerminator()->getOperandTypes()));
    if (failed(rescaleConstants(clone, dims)))
      return failure();
    if (failed(mlir::verify(clone)))
      return func.emitOpError("does not shrink to a valid function (see the "
                              "errors above); the verifier needs the full size");
    shrunk.push_back(clone);
  }
  return shrunk;
}
