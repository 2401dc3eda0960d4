//===- Admissibility.cpp - Which ops the search may add -------------------===//
#include "Admissibility.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

bool superopt::shiftedByMax(const Expr *e) {
  if (e->getKind() != ExprKind::Add)
    return false;
  return llvm::any_of(e->getOperands(), [](const Expr *term) {
    return term->getKind() == ExprKind::Mul && term->getValue() < 0 &&
           term->getOperands().size() == 1 &&
           term->getOperands()[0]->getKind() == ExprKind::Max;
  });
}

bool superopt::shiftsByPartialMax(ExprContext &ctx, const ProgramInfo &program,
                                  const BlockGraph &g, const OpDesc &op,
                                  ArrayRef<bool> shifted) {
  // A maximum the program computes is over the whole axis; any other one
  // the oracle admitted is a part of one.
  auto partial = [&](const Expr *max) {
    return !program.subtermSet.contains(max);
  };
  if (op.kind == OpKind::Accum &&
      static_cast<tb::AccumKind>(op.sub) == tb::AccumKind::sum_rescale)
    // Rescaled to the running maximum of the scales.
    return partial(ctx.max(g.forloopRange, g.tiles[op.operands[1]].expr));
  if (llvm::any_of(op.operands, [&](int o) { return shifted[o]; }))
    return true;
  // exp(x - m), m a partial maximum (read off the argument's term: the
  // shift is there before exp forgets it).
  const Expr *arg = g.tiles[op.operands[0]].expr;
  if (op.kind != OpKind::Unary ||
      static_cast<UnaryKind>(op.sub) != UnaryKind::exp ||
      arg->getKind() != ExprKind::Add)
    return false;
  return llvm::any_of(arg->getOperands(), [&](const Expr *term) {
    return term->getKind() == ExprKind::Mul && term->getValue() < 0 &&
           term->getOperands().size() == 1 &&
           term->getOperands()[0]->getKind() == ExprKind::Max &&
           partial(term->getOperands()[0]);
  });
}

SmallVector<bool, 16> superopt::shiftedByPartialMax(ExprContext &ctx,
                                                    const ProgramInfo &program,
                                                    const BlockGraph &g) {
  SmallVector<bool, 16> shifted;
  for (size_t i = 0; i < g.inputs.size(); ++i)
    shifted.push_back(g.tiles[i].partialShift);
  for (const OpDesc &op : g.ops)
    shifted.push_back(shiftsByPartialMax(ctx, program, g, op, shifted));
  return shifted;
}

bool superopt::combinesShiftsConsistently(ArrayRef<bool> shifted, int tile,
                                          tb::AccumKind kind) {
  if (kind != tb::AccumKind::sum && kind != tb::AccumKind::mean &&
      kind != tb::AccumKind::rms)
    return true;
  return !shifted[tile];
}

bool superopt::admissible(const ProgramInfo &program, const OpDesc &op,
                          ArrayRef<const ValueInfo *> operands,
                          const ValueInfo &result, ArrayRef<ValueInfo> existing,
                          ArrayRef<bool> existingPost, bool post) {
  std::optional<AxisRef> reduced;
  if (op.kind == OpKind::Reduce)
    reduced = operands[0]->axes[op.dim];
  else if (op.kind == OpKind::Matmul || op.kind == OpKind::RmsNorm)
    reduced = operands[0]->axes.back();
  if (reduced && !program.reducedAxes.contains(reduced->axis))
    return false;
  if (result.expr->getKind() == ExprKind::Const)
    return false;
  if (program.stableExp && op.kind == OpKind::Unary &&
      static_cast<UnaryKind>(op.sub) == UnaryKind::exp &&
      !shiftedByMax(operands[0]->expr))
    return false;
  // A value equal to another up to a constant factor adds nothing, unless
  // the factor is the point: a scaling by one of the program's factors, or
  // a value the program computes (-max(x) when max(x) is there already).
  bool scaling = op.kind == OpKind::Unary &&
                 static_cast<UnaryKind>(op.sub) == UnaryKind::mul_scalar;
  if (scaling)
    return true;
  bool programValue = program.subtermSet.contains(result.expr);
  for (auto [i, v] : llvm::enumerate(existing))
    if ((existingPost.empty() || existingPost[i] == post) &&
        v.shape == result.shape && equalUpToCoefficient(v.expr, result.expr) &&
        (v.expr == result.expr || !programValue))
      return false;
  return true;
}
