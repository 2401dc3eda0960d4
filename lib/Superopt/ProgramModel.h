//===- ProgramModel.h - The input program as the search sees it -*- C++ -*-===//
//
// The search compares what it builds with the program through this model
// alone: each value's shape, the axes its dims index (a class of dims the
// program's ops equate) and its abstract expression, plus the axes the
// program reduces and the scalars it uses (docs/superoptimizer.md, step 1).
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_SUPEROPT_PROGRAMMODEL_H
#define TILEOPT_LIB_SUPEROPT_PROGRAMMODEL_H

#include "Graphs.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tileopt::superopt {

/// What the enumeration knows of the input program.
struct ProgramInfo {
  SmallVector<ValueInfo, 4> arguments;
  SmallVector<ValueInfo, 2> outputs; // their exprs are the targets
  /// Every value of the program: what a prefix may compute, and what a
  /// graph-defined kernel may output besides the outputs.
  SmallVector<const Expr *> subterms;
  llvm::DenseSet<const Expr *> subtermSet;
  /// Axes the program reduces (sums, maxima, matmul contractions, rms_norm)
  /// and their extents.
  llvm::DenseMap<int, int64_t> reducedAxes;
  /// The operands of the program's matmuls.
  llvm::DenseSet<const Expr *> matmulOperands;
  /// The axes of the matrices the program's matmuls multiply (rows,
  /// contraction, columns); their other axes are batches.
  llvm::DenseSet<int> matrixAxes;
  /// For the oracle: whether an argument varies along every reduced axis of
  /// an extent.
  bool pinned(int64_t argument, int64_t extent) const {
    bool any = false;
    for (auto [axis, e] : reducedAxes) {
      if (e != extent)
        continue;
      any = true;
      if (!llvm::is_contained(arguments[argument].axes, AxisRef{axis, false}))
        return false;
    }
    return any;
  }
  /// Scalars of add_scalar / rms_norm epsilons and mul_scalar factors.
  SmallVector<double, 2> addends, factors;
  /// The program's scalar functions (tk.map), which the search applies
  /// only to the arguments the program applies them to: a map is an
  /// uninterpreted function, so its application is a subterm of the program
  /// exactly when the program applies it to the same terms.
  struct MapFunction {
    /// ExprContext::function of its region.
    int64_t function;
    /// A map of the program computing it: the region candidates clone.
    tk::MapOp op;
    /// The terms of its operands, per distinct application.
    SmallVector<SmallVector<const Expr *, 3>, 1> applications;
  };
  SmallVector<MapFunction, 1> maps;
  const MapFunction *findMap(int64_t function) const {
    const auto *it = llvm::find_if(
        maps, [&](const MapFunction &m) { return m.function == function; });
    return it == maps.end() ? nullptr : it;
  }
  /// Unary kinds proposed only where the program applies them (sigmoid):
  /// none of the rewrites the search knows makes them.
  SmallVector<UnaryKind, 1> ownUnaryKinds;
  /// Every exp of the program takes an argument shifted by a maximum (a
  /// numerically stable softmax): candidates must keep that shift. The
  /// abstract expressions forget it, and the verifier's exact arithmetic
  /// cannot see an overflow, so this is checked on the structure.
  bool stableExp = false;
  Type elementType;

  /// The pruning check of the search: may a value be part of the program?
  /// One per thread (the oracle memoizes); it refers to this ProgramInfo.
  SubexpressionOracle makeOracle() const {
    return SubexpressionOracle(
        subterms, [this](int64_t a, int64_t n) { return pinned(a, n); });
  }
};

/// Models `program` for the search: its values' abstract expressions, its
/// axes and scalars. Fails with a remark on a program it cannot model.
FailureOr<ProgramInfo> modelProgram(func::FuncOp program, ExprContext &ctx);

/// How every remark that refuses a program to the search ends: the Python
/// package turns the remarks that say so into warnings, since the program
/// then compiles unsearched, one kernel per op.
inline constexpr llvm::StringLiteral kLeftAsItIs =
    "; the function is left as it is";

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_PROGRAMMODEL_H
