//===- AbstractExpr.cpp - Normal forms and the subexpression check ---------===//
#include "TileOpt/Superopt/AbstractExpr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static StringRef fnName(FnKind kind) {
  switch (kind) {
  case FnKind::Exp:
    return "exp";
  case FnKind::Silu:
    return "silu";
  case FnKind::Gelu:
    return "gelu";
  case FnKind::Relu:
    return "relu";
  case FnKind::Pow:
    return "pow";
  case FnKind::Concat:
    return "concat";
  case FnKind::Split:
    return "split";
  }
  llvm_unreachable("unknown fn kind");
}

void Expr::print(raw_ostream &os) const {
  // raw_ostream prints a double as %e; terms read better with 0.5 and 2.
  auto number = [&](double v) { os << llvm::format("%g", v); };
  auto list = [&](StringRef sep) {
    llvm::interleave(
        operands, os, [&](const Expr *e) { e->print(os); }, sep);
  };
  switch (kind) {
  case ExprKind::Input:
    os << "in" << count;
    return;
  case ExprKind::Const:
    number(value);
    return;
  case ExprKind::Add:
    os << "(";
    list(" + ");
    os << ")";
    return;
  case ExprKind::Mul:
    os << "(";
    if (value != 1) {
      number(value);
      os << " * ";
    }
    for (auto [i, e] : llvm::enumerate(operands)) {
      if (i)
        os << " * ";
      e->print(os);
      if (exponents[i] != 2) {
        os << "^";
        number(exponents[i] / 2.0);
      }
    }
    os << ")";
    return;
  case ExprKind::Sum:
    os << "sum" << count << "(";
    list(", ");
    os << ")";
    return;
  case ExprKind::Max:
    os << "max" << count << "(";
    list(", ");
    os << ")";
    return;
  case ExprKind::Fn:
    os << fnName(getFn()) << "(";
    list(", ");
    os << ")";
    return;
  case ExprKind::Map:
    os << "map" << count << "(";
    list(", ");
    os << ")";
    return;
  }
}

std::string Expr::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Interning
//===----------------------------------------------------------------------===//

struct ExprContext::Impl {
  std::mutex mutex;
  llvm::BumpPtrAllocator allocator;
  llvm::StringMap<const Expr *> interned;
  unsigned nextId = 0;
  llvm::StringMap<int64_t> functions;
};

ExprContext::ExprContext() : impl(std::make_unique<Impl>()) {}
ExprContext::~ExprContext() = default;

size_t ExprContext::size() const {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->interned.size();
}

/// Rounds to float precision: the constants of the IR are f32 attributes,
/// and 1/4096 reached as 1/64 * 1/64 must meet 1/4096 written once.
static double roundConstant(double value) {
  return static_cast<double>(static_cast<float>(value));
}

const Expr *ExprContext::intern(ExprKind kind, int64_t count, double value,
                                ArrayRef<const Expr *> operands,
                                ArrayRef<int16_t> exponents) {
  value = roundConstant(value);
  SmallString<64> key;
  auto append = [&](const void *data, size_t size) {
    key.append(static_cast<const char *>(data),
               static_cast<const char *>(data) + size);
  };
  append(&kind, sizeof(kind));
  append(&count, sizeof(count));
  append(&value, sizeof(value));
  for (const Expr *e : operands)
    append(&e->id, sizeof(e->id));
  append(exponents.data(), exponents.size() * sizeof(int16_t));

  std::lock_guard<std::mutex> lock(impl->mutex);
  auto [it, inserted] = impl->interned.try_emplace(key, nullptr);
  if (!inserted)
    return it->second;
  auto *e = new (impl->allocator.Allocate<Expr>()) Expr();
  e->kind = kind;
  e->count = count;
  e->value = value;
  e->operands = ArrayRef<const Expr *>(operands).copy(impl->allocator);
  e->exponents = ArrayRef<int16_t>(exponents).copy(impl->allocator);
  e->id = impl->nextId++;
  it->second = e;
  return e;
}

//===----------------------------------------------------------------------===//
// Constructors: the axioms hold by construction
//===----------------------------------------------------------------------===//

const Expr *ExprContext::input(int64_t argument) {
  return intern(ExprKind::Input, argument, 0, {}, {});
}

const Expr *ExprContext::constant(double value) {
  return intern(ExprKind::Const, 0, value, {}, {});
}

/// Splits `e` into coefficient x base: 3 * (x * y) is (3, x * y), and
/// sum(3 * x) is (3, sum(x)), so that like terms meet in an add.
static std::pair<double, const Expr *> splitCoefficient(ExprContext &ctx,
                                                        const Expr *e) {
  if (e->getKind() == ExprKind::Const)
    return {e->getValue(), ctx.constant(1)};
  if (e->getKind() == ExprKind::Mul && e->getValue() != 1)
    return {e->getValue(), ctx.scale(e, 1 / e->getValue())};
  if (e->getKind() == ExprKind::Sum) {
    auto [c, body] = splitCoefficient(ctx, e->getOperands()[0]);
    if (c != 1)
      return {c, ctx.sum(e->getCount(), body)};
  }
  return {1, e};
}

// Axioms: + is associative and commutative; c*x + d*x = (c+d)*x.
const Expr *ExprContext::add(ArrayRef<const Expr *> terms) {
  SmallVector<std::pair<const Expr *, double>> merged;
  std::function<void(const Expr *)> collect = [&](const Expr *t) {
    if (t->getKind() == ExprKind::Add) {
      for (const Expr *inner : t->getOperands())
        collect(inner);
      return;
    }
    auto [coefficient, base] = splitCoefficient(*this, t);
    for (auto &entry : merged)
      if (entry.first == base) {
        entry.second += coefficient;
        return;
      }
    merged.push_back({base, coefficient});
  };
  for (const Expr *t : terms)
    collect(t);
  SmallVector<const Expr *> result;
  for (auto [base, coefficient] : merged)
    if (coefficient != 0)
      result.push_back(scale(base, coefficient));
  if (result.empty())
    return constant(0);
  if (result.size() == 1)
    return result.front();
  llvm::sort(result, [](const Expr *a, const Expr *b) {
    return a->getId() < b->getId();
  });
  return intern(ExprKind::Add, 0, 0, result, {});
}

const Expr *ExprContext::sub(const Expr *a, const Expr *b) {
  return add({a, scale(b, -1)});
}

// Axioms: * is associative and commutative; x^a x^b = x^(a+b); a sum with
// exponent 1 takes the other factors inside it (c * sum(x) = sum(c * x),
// distributivity over a reduction); a product distributes over an add with
// exponent 1.
const Expr *
ExprContext::makeMul(double coefficient,
                     SmallVectorImpl<std::pair<const Expr *, int>> &factors) {
  // Merge equal bases.
  SmallVector<std::pair<const Expr *, int>> merged;
  for (auto [base, halves] : factors) {
    auto *it = llvm::find_if(merged, [&](auto &m) { return m.first == base; });
    if (it != merged.end())
      it->second += halves;
    else
      merged.push_back({base, halves});
  }
  llvm::erase_if(merged, [](auto &m) { return m.second == 0; });

  // Pull the first plain sum out, or distribute over the first plain add.
  for (auto [i, factor] : llvm::enumerate(merged)) {
    auto [base, halves] = factor;
    if (halves != 2)
      continue;
    if (base->getKind() != ExprKind::Sum && base->getKind() != ExprKind::Add)
      continue;
    SmallVector<std::pair<const Expr *, int>> rest(merged);
    rest.erase(rest.begin() + i);
    auto timesRest = [&](const Expr *x) {
      SmallVector<std::pair<const Expr *, int>> all(rest);
      all.push_back({x, 2});
      SmallVector<const Expr *> flat;
      double c = coefficient;
      SmallVector<std::pair<const Expr *, int>> expanded;
      for (auto [b, h] : all) {
        if (h == 2 && b->getKind() == ExprKind::Mul) {
          c *= b->getValue();
          for (auto [j, inner] : llvm::enumerate(b->getOperands()))
            expanded.push_back({inner, b->getExponents()[j]});
        } else if (b->getKind() == ExprKind::Const && h == 2) {
          c *= b->getValue();
        } else {
          expanded.push_back({b, h});
        }
      }
      return makeMul(c, expanded);
    };
    if (base->getKind() == ExprKind::Sum)
      return sum(base->getCount(), timesRest(base->getOperands()[0]));
    SmallVector<const Expr *> terms;
    for (const Expr *term : base->getOperands())
      terms.push_back(timesRest(term));
    return add(terms);
  }

  if (merged.empty())
    return constant(coefficient);
  if (merged.size() == 1 && merged[0].second == 2 && coefficient == 1)
    return merged[0].first;
  llvm::sort(merged, [](auto &a, auto &b) {
    return a.first->getId() < b.first->getId();
  });
  SmallVector<const Expr *> bases;
  SmallVector<int16_t> exponents;
  for (auto [base, halves] : merged) {
    bases.push_back(base);
    exponents.push_back(static_cast<int16_t>(halves));
  }
  return intern(ExprKind::Mul, 0, coefficient, bases, exponents);
}

/// Adds `e`^(halves/2) to a product being built.
static void appendFactor(const Expr *e, int halves, double &coefficient,
                         SmallVectorImpl<std::pair<const Expr *, int>> &out) {
  if (e->getKind() == ExprKind::Const && halves == 2) {
    coefficient *= e->getValue();
    return;
  }
  if (e->getKind() == ExprKind::Mul && halves % 2 == 0) {
    coefficient *= std::pow(e->getValue(), halves / 2);
    for (auto [i, inner] : llvm::enumerate(e->getOperands()))
      out.push_back({inner, e->getExponents()[i] * halves / 2});
    return;
  }
  out.push_back({e, halves});
}

const Expr *ExprContext::mul(ArrayRef<const Expr *> factors) {
  double coefficient = 1;
  SmallVector<std::pair<const Expr *, int>> collected;
  for (const Expr *f : factors)
    appendFactor(f, 2, coefficient, collected);
  return makeMul(coefficient, collected);
}

const Expr *ExprContext::scale(const Expr *x, double factor) {
  if (factor == 1)
    return x;
  if (factor == 0)
    return constant(0);
  if (x->getKind() == ExprKind::Const)
    return constant(x->getValue() * factor);
  if (x->getKind() == ExprKind::Add) {
    SmallVector<const Expr *> terms;
    for (const Expr *t : x->getOperands())
      terms.push_back(scale(t, factor));
    return add(terms);
  }
  double coefficient = factor;
  SmallVector<std::pair<const Expr *, int>> collected;
  appendFactor(x, 2, coefficient, collected);
  return makeMul(coefficient, collected);
}

const Expr *ExprContext::power(const Expr *x, int halves) {
  if (x->getKind() == ExprKind::Const)
    return constant(std::pow(x->getValue(), halves / 2.0));
  double coefficient = 1;
  SmallVector<std::pair<const Expr *, int>> collected;
  if (x->getKind() == ExprKind::Mul) {
    // (c * prod f^e)^k = c^k * prod f^(e k) while the exponents stay in
    // halves; otherwise the product is one base.
    bool exact = llvm::all_of(x->getExponents(), [&](int16_t e) {
      return (e * halves) % 2 == 0;
    });
    if (exact) {
      coefficient = std::pow(x->getValue(), halves / 2.0);
      for (auto [i, inner] : llvm::enumerate(x->getOperands()))
        collected.push_back({inner, x->getExponents()[i] * halves / 2});
      return makeMul(coefficient, collected);
    }
  }
  collected.push_back({x, halves});
  return makeMul(coefficient, collected);
}

const Expr *ExprContext::div(const Expr *a, const Expr *b) {
  return mul({a, power(b, -2)});
}

// Axioms: sum(n, sum(m, x)) = sum(nm, x) (sum splitting); a sum is linear.
// Coefficients live inside sums: c * sum(x) is sum(c * x).
const Expr *ExprContext::sum(int64_t n, const Expr *body) {
  if (n == 1)
    return body;
  switch (body->getKind()) {
  case ExprKind::Const:
    return constant(body->getValue() * static_cast<double>(n));
  case ExprKind::Sum:
    return sum(n * body->getCount(), body->getOperands()[0]);
  case ExprKind::Add: {
    SmallVector<const Expr *> terms;
    for (const Expr *t : body->getOperands())
      terms.push_back(sum(n, t));
    return add(terms);
  }
  default:
    break;
  }
  return intern(ExprKind::Sum, n, 0, {body}, {});
}

const Expr *ExprContext::mean(int64_t n, const Expr *body) {
  return scale(sum(n, body), 1.0 / static_cast<double>(n));
}

// Axiom: max(n, max(m, x)) = max(nm, x).
const Expr *ExprContext::max(int64_t n, const Expr *body) {
  if (n == 1)
    return body;
  if (body->getKind() == ExprKind::Max)
    return max(n * body->getCount(), body->getOperands()[0]);
  return intern(ExprKind::Max, n, 0, {body}, {});
}

const Expr *ExprContext::fn(FnKind kind, ArrayRef<const Expr *> args) {
  return intern(ExprKind::Fn, static_cast<int64_t>(kind), 0, args, {});
}

// Axioms: exp(a + b) = exp(a) exp(b); exp(k a) = exp(a)^k for integer k;
// exp(c - max(...)) = exp(c) exp(max(...))^-1, and exp of a max is 1: the
// shift by a maximum that makes softmax stable always cancels between the
// numerator and the normalizing sum, in the input program and in every
// candidate (online softmax rescales by exp(m_i - m), which cancels the same
// way), so the terms forget it. This makes the abstraction coarser, never
// finer, which keeps pruning sound; the verifier still sees every max.
const Expr *ExprContext::exp(const Expr *x) {
  if (x->getKind() == ExprKind::Add) {
    SmallVector<const Expr *> factors;
    for (const Expr *t : x->getOperands())
      factors.push_back(exp(t));
    return mul(factors);
  }
  if (x->getKind() == ExprKind::Const && x->getValue() == 0)
    return constant(1);
  auto [coefficient, base] = splitCoefficient(*this, x);
  if (base->getKind() == ExprKind::Max)
    return constant(1);
  double whole;
  if (coefficient != 1 && std::modf(coefficient, &whole) == 0 &&
      std::abs(whole) < 8)
    return power(exp(base), static_cast<int>(2 * whole));
  return fn(FnKind::Exp, {x});
}

// Axiom (concat-then-matmul): [a1 a2] @ [b1; b2] = a1 @ b1 + a2 @ b2.
const Expr *ExprContext::matmul(const Expr *a, const Expr *b, int64_t k) {
  auto concatParts = [](const Expr *e) -> ArrayRef<const Expr *> {
    if (e->getKind() == ExprKind::Fn && e->getFn() == FnKind::Concat)
      return e->getOperands();
    return {};
  };
  ArrayRef<const Expr *> aParts = concatParts(a), bParts = concatParts(b);
  if (!aParts.empty() && aParts.size() == bParts.size()) {
    // Operands alternate part, extent (see concat()).
    bool sameSplit = true;
    for (size_t i = 1; i < aParts.size(); i += 2)
      sameSplit &= aParts[i] == bParts[i];
    if (sameSplit) {
      SmallVector<const Expr *> terms;
      for (size_t i = 0; i < aParts.size(); i += 2)
        terms.push_back(sum(static_cast<int64_t>(aParts[i + 1]->getValue()),
                            mul({aParts[i], bParts[i]})));
      return add(terms);
    }
  }
  return sum(k, mul({a, b}));
}

const Expr *ExprContext::rmsNorm(const Expr *x, int64_t n, double epsilon) {
  const Expr *meanSquare = mean(n, power(x, 4));
  return mul({x, power(add({meanSquare, constant(epsilon)}), -1)});
}

// A concat is opaque except to a matmul over the concatenated dim. Its
// operands alternate part and extent, so that only concatenations with the
// same split meet in concat-then-matmul.
const Expr *ExprContext::concat(ArrayRef<const Expr *> parts,
                                ArrayRef<int64_t> sizes) {
  SmallVector<const Expr *> operands;
  for (auto [part, size] : llvm::zip_equal(parts, sizes)) {
    operands.push_back(part);
    operands.push_back(constant(static_cast<double>(size)));
  }
  return fn(FnKind::Concat, operands);
}

const Expr *ExprContext::split(const Expr *x, int64_t index,
                               int64_t numParts) {
  return fn(FnKind::Split,
            {x, constant(static_cast<double>(index)),
             constant(static_cast<double>(numParts))});
}

int64_t ExprContext::function(StringRef structure) {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->functions.try_emplace(structure, impl->functions.size())
      .first->second;
}

// Nothing is known of a map but that it is a function of its arguments,
// element by element: it meets only itself (the interning), and the oracle
// finds a map in a target only as a subterm.
const Expr *ExprContext::map(int64_t function, ArrayRef<const Expr *> args) {
  return intern(ExprKind::Map, function, 0, args, {});
}

//===----------------------------------------------------------------------===//
// The subexpression check
//===----------------------------------------------------------------------===//

/// A coefficient times one factor is that factor: coefficients never prune,
/// as a scaled term can be scaled back. (Products of several factors are
/// compared ignoring their coefficients in partOfProduct.)
static const Expr *withoutCoefficient(const Expr *e) {
  if (e->getKind() == ExprKind::Mul && e->getOperands().size() == 1 &&
      e->getExponents()[0] == 2)
    return e->getOperands()[0];
  return e;
}

bool SubexpressionOracle::mayBeSubexpression(const Expr *e) {
  if (e->getKind() == ExprKind::Const)
    return true;
  return llvm::any_of(targets, [&](const Expr *t) { return within(e, t); });
}

/// Whether the product `e` is, up to its coefficient, a part of the product
/// `t`: every factor of `e` is a factor of `t` with the same exponent, or
/// the opposite of a negative one (x / sqrt(v) holds sqrt(v) as well as
/// v^-1/2). Partial powers (sqrt(x) of a plain x) and reciprocals of
/// numerator factors are no part: no axiom makes them.
bool SubexpressionOracle::partOfProduct(const Expr *e, const Expr *t) {
  ArrayRef<const Expr *> tBases = t->getOperands();
  for (auto [i, base] : llvm::enumerate(e->getOperands())) {
    int halves = e->getExponents()[i];
    auto *it = llvm::find(tBases, base);
    if (it == tBases.end())
      return false;
    int tHalves = t->getExponents()[it - tBases.begin()];
    if (halves != tHalves && !(tHalves < 0 && halves == -tHalves))
      return false;
  }
  return true;
}

/// Whether `e` matches `t` up to coefficients, or (with `split`) is a part
/// of it by sum or max splitting.
static bool sameTerm(const Expr *e, const Expr *t, bool split) {
  e = withoutCoefficient(e);
  t = withoutCoefficient(t);
  if (e == t)
    return true;
  if (e->getKind() == ExprKind::Mul && t->getKind() == ExprKind::Mul)
    return e->getOperands() == t->getOperands() &&
           e->getExponents() == t->getExponents();
  auto countsMatch = [&] {
    return split ? t->getCount() % e->getCount() == 0
                 : t->getCount() == e->getCount();
  };
  if (e->getKind() == ExprKind::Sum && t->getKind() == ExprKind::Sum)
    return countsMatch() &&
           sameTerm(e->getOperands()[0], t->getOperands()[0], split);
  // Max splitting inside a sum of terms: online softmax subtracts the
  // maximum of its tile, x - max(m, x), where the program subtracts the
  // maximum of the row, x - max(n, x). A max is not linear: only equal
  // bodies meet.
  if (e->getKind() == ExprKind::Max && t->getKind() == ExprKind::Max)
    return countsMatch() && e->getOperands()[0] == t->getOperands()[0];
  return false;
}

/// The sign of a term's coefficient (inside a sum for a sum).
static double sign(const Expr *e) {
  switch (e->getKind()) {
  case ExprKind::Const:
  case ExprKind::Mul:
    return e->getValue() < 0 ? -1 : 1;
  case ExprKind::Sum:
    return sign(e->getOperands()[0]);
  default:
    return 1;
  }
}

bool superopt::equalUpToCoefficient(const Expr *a, const Expr *b) {
  return sameTerm(a, b, /*split=*/false);
}

bool SubexpressionOracle::dependsOn(const Expr *e, int64_t count) {
  switch (e->getKind()) {
  case ExprKind::Input:
    return pinned(e->getCount(), count);
  case ExprKind::Const:
    return false;
  case ExprKind::Sum:
  case ExprKind::Max:
    // A reduction over the axis no longer varies along it.
    if (e->getCount() == count)
      return false;
    [[fallthrough]];
  default:
    return llvm::any_of(e->getOperands(),
                        [&](const Expr *o) { return dependsOn(o, count); });
  }
}

bool SubexpressionOracle::within(const Expr *e, const Expr *t) {
  e = withoutCoefficient(e);
  if (e == t)
    return true;
  auto key = std::make_pair(e, t);
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  memo[key] = false; // Terms are acyclic; this only guards re-entry.

  bool result = false;
  // Descend: a subexpression of an operand is a subexpression.
  for (const Expr *operand : t->getOperands())
    if (operand->getKind() != ExprKind::Const && within(e, operand)) {
      result = true;
      break;
    }
  if (!result && e->getKind() == t->getKind()) {
    switch (e->getKind()) {
    case ExprKind::Sum:
    case ExprKind::Max: {
      // Sum (max) splitting: a sum of m terms is part of a sum of n when m
      // divides n and the body is the same or a part of the product (the
      // other factors may not depend on the summed index and move out).
      const Expr *eBody = withoutCoefficient(e->getOperands()[0]);
      const Expr *tBody = withoutCoefficient(t->getOperands()[0]);
      // Factors that vary along the summed axis cannot move out.
      auto keepsPinned = [&] {
        if (!pinned || e->getKind() != ExprKind::Sum)
          return true;
        ArrayRef<const Expr *> kept =
            eBody->getKind() == ExprKind::Mul ? eBody->getOperands()
                                              : ArrayRef(eBody);
        return llvm::all_of(tBody->getOperands(), [&](const Expr *f) {
          return !dependsOn(f, t->getCount()) || llvm::is_contained(kept, f);
        });
      };
      result = t->getCount() % e->getCount() == 0 &&
               (eBody == tBody ||
                (tBody->getKind() == ExprKind::Mul &&
                 (eBody->getKind() == ExprKind::Mul
                      ? partOfProduct(eBody, tBody)
                      : llvm::is_contained(tBody->getOperands(), eBody)) &&
                 keepsPinned()));
      break;
    }
    case ExprKind::Mul:
      result = partOfProduct(e, t);
      break;
    case ExprKind::Add:
      // A partial sum of the terms, with their signs (or all flipped): no
      // axiom turns x - m into x + m.
      for (double flip : {1.0, -1.0}) {
        result = llvm::all_of(e->getOperands(), [&](const Expr *term) {
          return llvm::any_of(t->getOperands(), [&](const Expr *tTerm) {
            return sign(term) * flip == sign(tTerm) &&
                   sameTerm(term, tTerm, /*split=*/true);
          });
        });
        if (result)
          break;
      }
      break;
    case ExprKind::Fn:
      // exp(a) is part of exp(b) when a is a partial sum of b or some of its
      // terms (exp(a + c) = exp(a) exp(c)); other functions only of equal
      // arguments, which the interning has already compared.
      if (e->getFn() == FnKind::Exp && t->getFn() == FnKind::Exp) {
        const Expr *a = e->getOperands()[0], *b = t->getOperands()[0];
        ArrayRef<const Expr *> bTerms =
            b->getKind() == ExprKind::Add ? b->getOperands() : ArrayRef(b);
        ArrayRef<const Expr *> aTerms =
            a->getKind() == ExprKind::Add ? a->getOperands() : ArrayRef(a);
        result = llvm::all_of(aTerms, [&](const Expr *term) {
          return llvm::any_of(bTerms, [&](const Expr *bTerm) {
            return sameTerm(term, bTerm, /*split=*/true);
          });
        });
      }
      break;
    default:
      break;
    }
  }
  memo[key] = result;
  return result;
}
