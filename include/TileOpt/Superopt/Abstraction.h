//===- Abstraction.h - Abstract expressions of tk and tb values -*- C++ -*-===//
//
// What each tk and tb op means as an abstract expression (AbstractExpr.h).
// The search builds the terms of its tiles and tensors with the apply*
// functions as it enumerates; abstractValues gives the terms of every value
// of a function, for the input program and for testing.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_SUPEROPT_ABSTRACTION_H
#define TILEOPT_SUPEROPT_ABSTRACTION_H

#include "TileOpt/Dialect/Common/TileOptEnums.h"
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Superopt/AbstractExpr.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>

namespace mlir::tileopt::superopt {

const Expr *applyUnary(ExprContext &ctx, UnaryKind kind, const Expr *x,
                       std::optional<double> scalar);
const Expr *applyBinary(ExprContext &ctx, BinaryKind kind, const Expr *lhs,
                        const Expr *rhs);
/// A reduction of `n` elements into one.
const Expr *applyReduce(ExprContext &ctx, ReduceKind kind, const Expr *x,
                        int64_t n);
/// A for-loop accumulator over `forloopRange` iterations.
const Expr *applyAccum(ExprContext &ctx, tb::AccumKind kind, const Expr *x,
                       int64_t forloopRange);

/// The abstract expression of every tensor and tile of `func` (a function of
/// tk ops, tk.fused block graphs and th thread graphs); argument i is
/// input(i). Fails with a diagnostic at an op it cannot model.
FailureOr<llvm::DenseMap<Value, const Expr *>>
abstractValues(func::FuncOp func, ExprContext &ctx);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_SUPEROPT_ABSTRACTION_H
