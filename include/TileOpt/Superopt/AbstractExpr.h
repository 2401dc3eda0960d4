//===- AbstractExpr.h - Abstract expressions for search pruning -*- C++ -*-===//
//
// Mirage prunes its search with abstract expressions: every tensor and tile
// of a candidate µGraph gets an index-free term describing what it computes
// (a matmul is "a sum over k of a product"), and a partial graph is dropped
// when one of its terms cannot be part of any program equal to the input
// under a set of axioms. Mirage decides that with Z3 (later an e-graph);
// TileOpt rewrites every term into a normal form as it is built, so that the
// axioms below hold by construction, and decides "may be a subexpression" by
// structural rules over normal forms. docs/superoptimizer.md lists the
// axioms and argues soundness; AbstractExprTest checks it by enumeration.
//
// Normal forms, built bottom-up and interned (two equal normal forms are one
// pointer):
//   input(i) | const(c)
//   add{t1..tn}          flat, unordered (sorted by interned id), n >= 2
//   mul{c; f1^e1..fn^en} flat, unordered, coefficient c, exponents in
//                        halves (sqrt is ^1/2, division ^-1), no factor is a
//                        mul, a const, or a sum with exponent 1
//   sum(n, body)         a sum of n terms; body is not a sum or an add, and
//                        holds the coefficient (c * sum(x) is sum(c * x))
//   max(n, body)         a max over n terms; body is not a max
//   fn(kind, args)       exp, silu, gelu, relu, erf, pow, concat, split
//   map(f, args)         f a scalar function the terms know nothing of but
//                        its identity (a tk.map's region, ExprContext::map)
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_SUPEROPT_ABSTRACTEXPR_H
#define TILEOPT_SUPEROPT_ABSTRACTEXPR_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <mutex>
#include <string>

namespace mlir::tileopt::superopt {

enum class ExprKind : uint8_t { Input, Const, Add, Mul, Sum, Max, Fn, Map };

/// Functions the normal form does not look into, beyond their arguments.
enum class FnKind : uint8_t { Exp, Silu, Gelu, Relu, Pow, Concat, Split };

/// An interned normal-form term. Compare by pointer.
class Expr {
public:
  ExprKind getKind() const { return kind; }
  /// input: the argument number; sum/max: the number of terms; fn: FnKind;
  /// split: the part number in the low bits (see ExprContext::split); map:
  /// the function (ExprContext::function).
  int64_t getCount() const { return count; }
  /// const: the value; mul: the coefficient.
  double getValue() const { return value; }
  ArrayRef<const Expr *> getOperands() const { return operands; }
  /// mul only: the exponent of each factor, in halves.
  ArrayRef<int16_t> getExponents() const { return exponents; }
  FnKind getFn() const { return static_cast<FnKind>(count); }
  /// Creation order, used to sort operands of commutative nodes.
  unsigned getId() const { return id; }

  void print(raw_ostream &os) const;
  std::string str() const;

private:
  friend class ExprContext;
  ExprKind kind;
  int64_t count = 0;
  double value = 0;
  ArrayRef<const Expr *> operands;
  ArrayRef<int16_t> exponents;
  unsigned id = 0;
};

/// Owns and interns terms. Building is thread-safe: search threads share one
/// context, and so one set of pointers.
class ExprContext {
public:
  ExprContext();
  ~ExprContext();

  const Expr *input(int64_t argument);
  const Expr *constant(double value);
  const Expr *add(ArrayRef<const Expr *> terms);
  const Expr *sub(const Expr *a, const Expr *b);
  const Expr *mul(ArrayRef<const Expr *> factors);
  const Expr *scale(const Expr *x, double factor);
  /// x^(halves/2): square is 4, sqrt 1, rsqrt -1, reciprocal -2.
  const Expr *power(const Expr *x, int halves);
  const Expr *div(const Expr *a, const Expr *b);
  const Expr *sum(int64_t n, const Expr *body);
  const Expr *mean(int64_t n, const Expr *body);
  const Expr *max(int64_t n, const Expr *body);
  const Expr *fn(FnKind kind, ArrayRef<const Expr *> args);
  /// exp, with exp(a + b) = exp(a) exp(b), exp(k a) = exp(a)^k for integer
  /// k, and the max-shift of a stable softmax dropped (see the .cpp).
  const Expr *exp(const Expr *x);
  /// a @ b contracted over k elements; concatenations along k split into
  /// one product per part (concat-then-matmul).
  const Expr *matmul(const Expr *a, const Expr *b, int64_t k);
  /// rms_norm over n elements: x / sqrt(mean(x^2) + epsilon).
  const Expr *rmsNorm(const Expr *x, int64_t n, double epsilon);
  /// Concatenation of parts along a dim whose part extents are `sizes`.
  const Expr *concat(ArrayRef<const Expr *> parts, ArrayRef<int64_t> sizes);
  /// Part `index` of `x` split into `numParts` parts.
  const Expr *split(const Expr *x, int64_t index, int64_t numParts);
  /// The number of the scalar function `structure` identifies (a tk.map's
  /// region written out, scalarCodeKey): equal structures, one number.
  int64_t function(StringRef structure);
  /// An uninterpreted elementwise function applied to `args`: no axiom
  /// looks into it, so it equals only itself on the same arguments.
  const Expr *map(int64_t function, ArrayRef<const Expr *> args);

  size_t size() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
  const Expr *intern(ExprKind kind, int64_t count, double value,
                     ArrayRef<const Expr *> operands,
                     ArrayRef<int16_t> exponents);
  const Expr *makeMul(double coefficient,
                      SmallVectorImpl<std::pair<const Expr *, int>> &factors);
};

/// Whether `a` and `b` differ at most in a constant factor.
bool equalUpToCoefficient(const Expr *a, const Expr *b);

/// Decides "may `e` be a subexpression of one of the targets" under the
/// axioms, generously: it answers false only when no rewriting of a target
/// by the axioms contains `e`. Not thread-safe (it memoizes): one per thread.
class SubexpressionOracle {
public:
  /// Whether argument `input` varies along every axis of extent `count` that
  /// the program sums over: a factor that holds it (and does not sum it
  /// away) cannot move out of a sum of `count` terms. Without it, any factor
  /// may.
  using PinnedFn = std::function<bool(int64_t input, int64_t count)>;

  explicit SubexpressionOracle(ArrayRef<const Expr *> targets,
                               PinnedFn pinned = nullptr)
      : targets(targets.begin(), targets.end()), pinned(std::move(pinned)) {}
  bool mayBeSubexpression(const Expr *e);
  bool isTarget(const Expr *e) const {
    return llvm::is_contained(targets, e);
  }
  ArrayRef<const Expr *> getTargets() const { return targets; }

private:
  bool within(const Expr *e, const Expr *t);
  /// `e`, a product, is (up to its coefficient) a part of the product `t`.
  bool partOfProduct(const Expr *e, const Expr *t);
  /// Whether `e` varies along a pinned axis of extent `count`: it holds a
  /// pinned argument that no reduction of `count` terms sums away.
  bool dependsOn(const Expr *e, int64_t count);
  SmallVector<const Expr *> targets;
  PinnedFn pinned;
  llvm::DenseMap<std::pair<const Expr *, const Expr *>, bool> memo;
};

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_SUPEROPT_ABSTRACTEXPR_H
