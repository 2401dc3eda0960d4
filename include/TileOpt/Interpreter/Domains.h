//===- Domains.h - Scalar domains of the reference interpreter --*- C++ -*-===//
//
// The interpreter is generic over the scalars it computes with. A domain is a
// class with a `Scalar` type and the primitive operations every tk/tb/th
// operator is made of (docs/interpreter.md lists them):
//
//   FloatDomain<double>, FloatDomain<float>
//       IEEE arithmetic: the numerical reference, and the verifier's check of
//       numerical stability.
//   FieldDomain
//       Z_p x Z_q with q | p - 1, as in Mirage's verifier: ring operations are
//       exact, exp(x) = w^(x mod q) mod p for a q-th root of unity w, so
//       algebraic identities hold exactly and random tests decide equivalence
//       with a known error bound.
//
// Every domain also has `dot`, matmul's inner loop, which a domain may
// compute faster than term by term (the field reduces a few terms at once).
//
// Operations a domain cannot model do not approximate: they record an error
// with `fail` and the interpreter reports it at the op that asked.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_INTERPRETER_DOMAINS_H
#define TILEOPT_INTERPRETER_DOMAINS_H

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>

namespace mlir::tileopt::interp {

/// SplitMix64, the random source of inputs and trials: the verifier draws
/// every input element of every trial, and a Mersenne Twister costs several
/// times more per draw. `mix` is its finalizer, a bijection of 64-bit words
/// that also keys the field's uninterpreted functions.
class SplitMix64 {
public:
  using result_type = uint64_t;
  static constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ull;
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return UINT64_MAX; }
  result_type operator()() { return mix(state += kGolden); }
  static uint64_t mix(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }

private:
  uint64_t state;
};

/// The error slot every domain shares: the first failure wins, the
/// interpreter takes it after each op and reports it at that op.
class DomainErrors {
public:
  void fail(const llvm::Twine &message) {
    if (!error)
      error = message.str();
  }
  std::optional<std::string> takeError() {
    std::optional<std::string> e = std::move(error);
    error.reset();
    return e;
  }
  bool failed() const { return error.has_value(); }

private:
  std::optional<std::string> error;
};

/// Scalar functions the interpreter evaluates but whose algebra nothing
/// relies on: the float domains compute them, the field domain treats each
/// as an uninterpreted function of its argument.
enum class ScalarFn : uint8_t {
  Tanh,
  Log,
  Log1p,
  Log2,
  Exp2,
  Expm1,
  Abs,
  Sin,
  Cos,
  Floor,
  Ceil,
  Round,
};

/// A float comparison as its outcomes: whether it holds when a < b, a == b,
/// a > b, and when an operand is NaN (arith.cmpf's predicates, decoded by
/// the scalar compiler).
struct Comparison {
  bool less = false, equal = false, greater = false, unordered = false;
};

//===----------------------------------------------------------------------===//
// Floating point
//===----------------------------------------------------------------------===//

template <typename T>
class FloatDomain : public DomainErrors {
public:
  using Scalar = T;
  static constexpr llvm::StringLiteral name =
      sizeof(T) == 8 ? llvm::StringLiteral("f64") : llvm::StringLiteral("f32");

  Scalar zero() const { return 0; }
  Scalar constant(const llvm::APFloat &value) {
    return static_cast<T>(value.convertToDouble());
  }
  /// sum_l a[l * aStride] * b[l * bStride], added in order from 0.
  Scalar dot(const T *a, int64_t aStride, const T *b, int64_t bStride,
             int64_t n) {
    T sum = 0;
    for (int64_t l = 0; l < n; ++l)
      sum += a[l * aStride] * b[l * bStride];
    return sum;
  }
  /// 1/n, the factor of a mean over n elements.
  Scalar inverseCount(int64_t n) { return T(1) / static_cast<T>(n); }

  Scalar add(Scalar a, Scalar b) { return a + b; }
  Scalar sub(Scalar a, Scalar b) { return a - b; }
  Scalar mul(Scalar a, Scalar b) { return a * b; }
  Scalar div(Scalar a, Scalar b) { return a / b; }
  Scalar neg(Scalar a) { return -a; }
  Scalar exp(Scalar a) { return std::exp(a); }
  Scalar sqrt(Scalar a) { return std::sqrt(a); }
  Scalar rsqrt(Scalar a) { return T(1) / std::sqrt(a); }
  Scalar erf(Scalar a) { return std::erf(a); }
  Scalar pow(Scalar a, Scalar b) { return std::pow(a, b); }
  /// arith.maximumf / minimumf: NaN-propagating.
  Scalar maximum(Scalar a, Scalar b) {
    return std::isnan(a) || std::isnan(b) ? NAN : std::fmax(a, b);
  }
  Scalar minimum(Scalar a, Scalar b) {
    return std::isnan(a) || std::isnan(b) ? NAN : std::fmin(a, b);
  }
  /// arith.maxnumf / minnumf: a NaN operand loses.
  Scalar maxnum(Scalar a, Scalar b) { return std::fmax(a, b); }
  Scalar minnum(Scalar a, Scalar b) { return std::fmin(a, b); }
  Scalar apply(ScalarFn fn, Scalar a) {
    switch (fn) {
    case ScalarFn::Tanh: return std::tanh(a);
    case ScalarFn::Log: return std::log(a);
    case ScalarFn::Log1p: return std::log1p(a);
    case ScalarFn::Log2: return std::log2(a);
    case ScalarFn::Exp2: return std::exp2(a);
    case ScalarFn::Expm1: return std::expm1(a);
    case ScalarFn::Abs: return std::fabs(a);
    case ScalarFn::Sin: return std::sin(a);
    case ScalarFn::Cos: return std::cos(a);
    case ScalarFn::Floor: return std::floor(a);
    case ScalarFn::Ceil: return std::ceil(a);
    case ScalarFn::Round: return std::round(a);
    }
    return a;
  }
  /// 1 where `c` holds, else 0 (an i1 is a scalar of the domain too).
  Scalar compare(Comparison c, Scalar a, Scalar b) {
    bool holds = std::isnan(a) || std::isnan(b) ? c.unordered
                 : a < b                        ? c.less
                 : a > b                        ? c.greater
                                                : c.equal;
    return holds ? 1 : 0;
  }
  Scalar select(Scalar condition, Scalar a, Scalar b) {
    return condition != 0 ? a : b;
  }

  /// Uniform in [-1, 1]: keeps exp and products of a few terms in range.
  Scalar random(SplitMix64 &rng) {
    return std::uniform_real_distribution<T>(-1, 1)(rng);
  }
};

using F64Domain = FloatDomain<double>;
using F32Domain = FloatDomain<float>;

//===----------------------------------------------------------------------===//
// Z_p x Z_q
//===----------------------------------------------------------------------===//

/// A value of the field domain: its residue mod p and, while no exp has been
/// applied on its path, its residue mod q (the exponent exp raises w to).
struct FieldElement {
  /// `q` of a value computed from an exp (or from an uninterpreted function
  /// of such a value): its residue mod q is not defined.
  static constexpr uint32_t kNoQ = UINT32_MAX;
  uint32_t p = 0;
  uint32_t q = 0;

  bool hasQ() const { return q != kNoQ; }
  /// Equal as values: the residues mod p agree, and the residues mod q too
  /// where both are defined.
  bool sameValue(FieldElement other) const {
    return p == other.p && (q == other.q || !hasQ() || !other.hasQ());
  }
  bool operator==(FieldElement other) const {
    return p == other.p && q == other.q;
  }
};

class FieldDomain : public DomainErrors {
public:
  using Scalar = FieldElement;
  static constexpr llvm::StringLiteral name = "field";
  /// p = 2q + 1 is a safe prime below 2^31, so products of two residues fit
  /// in 64 bits and q, the order of w, is as large as it can be.
  static constexpr uint64_t P = 2147483579;
  static constexpr uint64_t Q = 1073741789;
  /// 4 = 2^2 is a quadratic residue other than 1, so its order is exactly q.
  static constexpr uint64_t W = 4;

  /// `seed` keys the uninterpreted functions (sqrt, erf) and the random order
  /// that defines max: a fresh seed per trial draws fresh functions.
  explicit FieldDomain(uint64_t seed = 0) : seed(seed) {}

  Scalar zero() const { return {0, 0}; }
  /// A float constant is a dyadic rational m * 2^e: its image is exact.
  Scalar constant(const llvm::APFloat &value);
  Scalar inverseCount(int64_t n);

  /// Residues are reduced, so a sum needs at most one subtraction (cheaper
  /// than a division: additions fill the interpreter's inner loops).
  Scalar add(Scalar a, Scalar b) {
    return {reduceOnce(a.p + b.p, P),
            a.hasQ() && b.hasQ() ? reduceOnce(a.q + b.q, Q)
                                 : FieldElement::kNoQ};
  }
  Scalar neg(Scalar a) {
    return {uint32_t((P - a.p) % P),
            a.hasQ() ? uint32_t((Q - a.q) % Q) : FieldElement::kNoQ};
  }
  Scalar sub(Scalar a, Scalar b) { return add(a, neg(b)); }
  Scalar mul(Scalar a, Scalar b) {
    return {uint32_t(uint64_t(a.p) * b.p % P),
            a.hasQ() && b.hasQ() ? uint32_t(uint64_t(a.q) * b.q % Q)
                                 : FieldElement::kNoQ};
  }
  /// Multiplication by the inverse; a divisor 0 has none and is reported.
  Scalar div(Scalar a, Scalar b);
  /// sum_l a[l * aStride] * b[l * bStride]. Products of residues are below
  /// 2^62, so a reduced sum plus three of them fits in 64 bits: the sum is
  /// reduced once per three terms, with no overflow test per term. The
  /// terms are spelled out rather than looped over: GCC vectorizes such a
  /// loop, and its set-up dwarfs the two terms of the verifier's reduced
  /// instances (k = 2).
  Scalar dot(const Scalar *a, int64_t aStride, const Scalar *b, int64_t bStride,
             int64_t n) {
    uint64_t p = 0, q = 0;
    bool hasQ = true;
    auto term = [&](int64_t l) {
      Scalar x = a[l * aStride], y = b[l * bStride];
      p += uint64_t(x.p) * y.p;
      q += uint64_t(x.q) * y.q; // meaningless unless hasQ stays set
      hasQ &= x.hasQ() & y.hasQ();
    };
    int64_t l = 0;
    for (; l + 3 <= n; l += 3) {
      term(l);
      term(l + 1);
      term(l + 2);
      p %= P;
      q %= Q;
    }
    if (l < n)
      term(l++);
    if (l < n)
      term(l);
    return {uint32_t(p % P), hasQ ? uint32_t(q % Q) : FieldElement::kNoQ};
  }
  /// w^(a mod q): a homomorphism from (Z_q, +) to (Z_p^*, *), so
  /// exp(x + y) = exp(x) exp(y) holds exactly. Needs the residue mod q.
  Scalar exp(Scalar a);
  /// Uninterpreted: a random function of the value, keyed by the seed.
  Scalar sqrt(Scalar a) { return uninterpreted(a, kSqrtKey); }
  /// 1 / sqrt(a), with the same sqrt, so rsqrt and sqrt stay consistent.
  Scalar rsqrt(Scalar a) { return div(constantOne(), sqrt(a)); }
  Scalar erf(Scalar a) { return uninterpreted(a, kErfKey); }
  Scalar pow(Scalar, Scalar) {
    fail("pow has no model in the finite-field domain");
    return zero();
  }
  /// The larger under a random total order keyed by the seed: max stays
  /// associative, commutative and idempotent, and which operand wins is a
  /// coin flip, so replacing max by one operand is caught.
  Scalar maximum(Scalar a, Scalar b) { return rank(b) > rank(a) ? b : a; }
  Scalar minimum(Scalar a, Scalar b) { return rank(b) < rank(a) ? b : a; }
  Scalar maxnum(Scalar a, Scalar b) { return maximum(a, b); }
  Scalar minnum(Scalar a, Scalar b) { return minimum(a, b); }
  Scalar apply(ScalarFn fn, Scalar a) {
    return uninterpreted(a, kFnKey + static_cast<uint64_t>(fn));
  }
  /// Against the same random order as max: select(a > b, a, b) is max(a,
  /// b), as it is on floats. There is no NaN.
  Scalar compare(Comparison c, Scalar a, Scalar b) {
    uint64_t ra = rank(a), rb = rank(b);
    bool holds = a.p == b.p ? c.equal : ra < rb ? c.less : c.greater;
    return holds ? constantOne() : zero();
  }
  Scalar select(Scalar condition, Scalar a, Scalar b) {
    return condition.p != 0 ? a : b;
  }

  Scalar random(SplitMix64 &rng) {
    return {uint32_t(rng() % P), uint32_t(rng() % Q)};
  }

  /// a^e mod p, for exponents of any size.
  static uint64_t powModP(uint64_t a, uint64_t e);

private:
  static constexpr uint64_t kSqrtKey = 0x5157a7c3e1d2b4f1ull;
  static constexpr uint64_t kErfKey = 0x9e3779b97f4a7c15ull;
  static constexpr uint64_t kOrderKey = 0xc2b2ae3d27d4eb4full;
  static constexpr uint64_t kFnKey = 0x27d4eb2f165667c5ull;

  static Scalar constantOne() { return {1, 1}; }
  /// x mod m for x < 2m (both residues below 2^31: no overflow).
  static uint32_t reduceOnce(uint32_t x, uint64_t m) {
    return x >= m ? uint32_t(x - m) : x;
  }
  Scalar uninterpreted(Scalar a, uint64_t key);
  /// Position of `a` in the random order: a bijection of the residue mod p,
  /// so only values with equal residues tie (and then `a` wins).
  uint64_t rank(Scalar a) const;

  uint64_t seed;
  FieldElement lastDivisor = {1, 1}, lastInverse = {1, 1};
};

//===----------------------------------------------------------------------===//
// Degree bounds
//===----------------------------------------------------------------------===//

/// An upper bound on the degree of a value as a rational function of the
/// inputs: numerator and denominator degree. Results of exp, of the
/// uninterpreted functions (sqrt, erf) and of max count as fresh variables
/// of degree 1.
struct Degree {
  double num = 0, den = 0;
  bool operator==(Degree other) const {
    return num == other.num && den == other.den;
  }
};

/// Interpreting a function in this domain bounds the degrees the
/// Schwartz-Zippel argument of the verifier needs (docs/verifier.md): the
/// degree of every result, and of every argument of exp and of the
/// uninterpreted functions.
class DegreeDomain : public DomainErrors {
public:
  using Scalar = Degree;
  static constexpr llvm::StringLiteral name = "degree";

  Scalar zero() const { return {}; }
  Scalar constant(const llvm::APFloat &) { return {}; }
  Scalar inverseCount(int64_t) { return {}; }
  Scalar dot(const Scalar *a, int64_t aStride, const Scalar *b, int64_t bStride,
             int64_t n) {
    Degree sum;
    for (int64_t l = 0; l < n; ++l)
      sum = add(sum, mul(a[l * aStride], b[l * bStride]));
    return sum;
  }
  Scalar add(Scalar a, Scalar b) {
    if (a.den == 0 && b.den == 0)
      return {std::max(a.num, b.num), 0};
    return {std::max(a.num + b.den, b.num + a.den), a.den + b.den};
  }
  Scalar sub(Scalar a, Scalar b) { return add(a, b); }
  Scalar mul(Scalar a, Scalar b) { return {a.num + b.num, a.den + b.den}; }
  Scalar div(Scalar a, Scalar b) { return {a.num + b.den, a.den + b.num}; }
  Scalar neg(Scalar a) { return a; }
  Scalar exp(Scalar a) { return fresh(a); }
  Scalar sqrt(Scalar a) { return fresh(a); }
  Scalar rsqrt(Scalar a) { return div({}, fresh(a)); }
  Scalar erf(Scalar a) { return fresh(a); }
  Scalar pow(Scalar, Scalar) {
    fail("pow has no model in the finite-field domain");
    return {};
  }
  /// Either operand: bounded by both.
  Scalar maximum(Scalar a, Scalar b) {
    return {std::max(a.num, b.num), std::max(a.den, b.den)};
  }
  Scalar minimum(Scalar a, Scalar b) { return maximum(a, b); }
  Scalar maxnum(Scalar a, Scalar b) { return maximum(a, b); }
  Scalar minnum(Scalar a, Scalar b) { return maximum(a, b); }
  Scalar apply(ScalarFn, Scalar a) { return fresh(a); }
  /// A truth value is a constant; a selection, either operand.
  Scalar compare(Comparison, Scalar, Scalar) { return {}; }
  Scalar select(Scalar, Scalar a, Scalar b) { return maximum(a, b); }
  /// An input is a variable.
  Scalar random(SplitMix64 &) { return {1, 0}; }

  /// The largest degree of an argument of exp, sqrt or erf seen so far.
  double getMaxArgumentDegree() const { return maxArgumentDegree; }

private:
  Scalar fresh(Scalar argument) {
    maxArgumentDegree =
        std::max(maxArgumentDegree, argument.num + argument.den);
    return {1, 0};
  }
  double maxArgumentDegree = 0;
};

} // namespace mlir::tileopt::interp

#endif // TILEOPT_INTERPRETER_DOMAINS_H
