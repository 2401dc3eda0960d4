//===- ProgramModel.cpp - The input program as the search sees it ---------===//
#include "ProgramModel.h"

#include "Admissibility.h"
#include "TileOpt/Dialect/Common/DimRelations.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Superopt/Abstraction.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

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
  auto equate = [&](Value a, int64_t da, Value b, int64_t db) {
    join(a, da, b, db);
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
            .Case([&](tk::RmsNormOp r) {
              sameDims(r.getInput(), r);
              return true;
            })
            .Case([&](tk::ReduceOp r) {
              sameDims(r.getInput(), r);
              reducedSlots.insert(slot(r, static_cast<int64_t>(r.getDim())));
              return true;
            })
            .Case([&](tk::MatmulOp m) {
              equateMatmulDims(m.getLhs(), m.getRhs(), m, equate);
              return true;
            })
            // A kernel of its own whose dims relate to no operand's.
            .Case([&](tk::StructuredOp) { return true; })
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
            .Default([&](Operation *o) {
              // unary, binary, map: numpy broadcasting.
              if (!o->hasTrait<tk::Elementwise>())
                return false;
              for (Value operand : o->getOperands())
                equateBroadcastDims(operand, o->getResult(0), equate);
              return true;
            });
    if (known)
      for (Value r : op->getResults())
        slot(r, 0);
    if (!known) {
      op->emitRemark("the superoptimizer cannot model '")
          << op->getName() << "'" << kLeftAsItIs;
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
               "the superoptimizer needs a function of one block")
           << kLeftAsItIs;
  for (Value arg : program.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape())
      return program.emitRemark(
                 "the superoptimizer needs statically shaped tensor arguments")
             << kLeftAsItIs;
  }
  if (program.getNumResults() == 0)
    return program.emitRemark("the superoptimizer needs a function with "
                              "results")
           << kLeftAsItIs;
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
    info.arguments.push_back(valueInfo(arg));
    // An argument nothing reads enters no candidate: its type is free (a
    // torch partition may take a tensor only to hand it back untouched).
    if (arg.use_empty())
      continue;
    auto type = cast<RankedTensorType>(arg.getType());
    if (!info.elementType)
      info.elementType = type.getElementType();
    if (type.getElementType() != info.elementType)
      return program.emitRemark("the superoptimizer needs one element type, "
                                "got ")
             << info.elementType << " and " << type.getElementType()
             << kLeftAsItIs;
  }
  if (!info.elementType)
    return program.emitRemark("the superoptimizer needs tensor arguments")
           << kLeftAsItIs;
  // Candidates hold values of one element type (a map may cast inside).
  for (Operation &op : program.getBody().front())
    for (Value v : op.getResults())
      if (Type type = cast<ShapedType>(v.getType()).getElementType();
          type != info.elementType)
        return op.emitRemark("the superoptimizer needs one element type, got ")
               << info.elementType << " and " << type << kLeftAsItIs;
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
    if (isa<tk::MatmulOp>(op))
      for (Value operand : op->getOperands()) {
        info.matmulOperands.insert(exprs->lookup(operand));
        SmallVector<AxisRef, 4> operandAxes = axes.axesOf(operand);
        for (AxisRef a : ArrayRef(operandAxes).take_back(2))
          info.matrixAxes.insert(a.axis);
      }
    if (auto map = dyn_cast<tk::MapOp>(op)) {
      int64_t function = exprs->lookup(map.getResult())->getCount();
      auto *m = llvm::find_if(
          info.maps, [&](const auto &m) { return m.function == function; });
      if (m == info.maps.end())
        m = &info.maps.emplace_back(
            ProgramInfo::MapFunction{function, map, {}});
      SmallVector<const Expr *, 3> args = llvm::map_to_vector<3>(
          map.getInputs(), [&](Value v) { return exprs->lookup(v); });
      if (!llvm::is_contained(m->applications, args))
        m->applications.push_back(std::move(args));
    }
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
      if (unary.getKind() == UnaryKind::sigmoid &&
          !llvm::is_contained(info.ownUnaryKinds, UnaryKind::sigmoid))
        info.ownUnaryKinds.push_back(UnaryKind::sigmoid);
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
