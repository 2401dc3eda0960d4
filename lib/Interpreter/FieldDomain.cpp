//===- FieldDomain.cpp - Z_p x Z_q arithmetic -----------------------------===//
#include "TileOpt/Interpreter/Domains.h"

#include "llvm/ADT/SmallString.h"

#include <array>
#include <utility>
#include <vector>

using namespace mlir::tileopt::interp;

namespace {
constexpr uint64_t P = FieldDomain::P;
constexpr uint64_t Q = FieldDomain::Q;

uint64_t powMod(uint64_t a, uint64_t e, uint64_t m) {
  uint64_t result = 1;
  a %= m;
  for (; e; e >>= 1, a = a * a % m)
    if (e & 1)
      result = result * a % m;
  return result;
}

/// a^-1 mod m for a prime m and a not divisible by m, by the extended
/// Euclidean algorithm: about 20 divisions of 32-bit words, several times
/// cheaper than Fermat's a^(m-2) (some 45 dependent 64-bit modular
/// products). Every field division of a trial takes one per component.
uint32_t inverseMod(uint64_t a, uint64_t m) {
  int64_t t = 0, nextT = 1;
  uint32_t r = uint32_t(m), nextR = uint32_t(a % m);
  while (nextR != 0) {
    uint32_t quotient = r / nextR;
    t = std::exchange(nextT, t - int64_t(quotient) * nextT);
    r = std::exchange(nextR, r - quotient * nextR);
  }
  return uint32_t(t < 0 ? t + int64_t(m) : t);
}

/// w^e for e < q in two table lookups: e = hi * 2^15 + lo. exp is on the
/// verifier's hot path (online softmax takes several per element).
class ExpTable {
public:
  static constexpr unsigned kBits = 15;
  ExpTable() : lo(1u << kBits), hi(1u << kBits) {
    uint64_t step = powMod(FieldDomain::W, 1u << kBits, P);
    for (uint64_t i = 0, l = 1, h = 1; i < (1u << kBits);
         ++i, l = l * FieldDomain::W % P, h = h * step % P) {
      lo[i] = l;
      hi[i] = h;
    }
  }
  uint32_t operator()(uint64_t e) const {
    return uint64_t(lo[e & ((1u << kBits) - 1)]) * hi[e >> kBits] % P;
  }

private:
  static_assert(Q < (uint64_t(1) << (2 * kBits)), "exponents must fit");
  std::vector<uint32_t> lo, hi;
};
} // namespace

uint64_t FieldDomain::powModP(uint64_t a, uint64_t e) { return powMod(a, e, P); }

FieldElement FieldDomain::constant(const llvm::APFloat &value) {
  bool losesInfo = false;
  llvm::APFloat asDouble = value;
  asDouble.convert(llvm::APFloat::IEEEdouble(),
                   llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  double d = asDouble.convertToDouble();
  if (!std::isfinite(d) || losesInfo) {
    llvm::SmallString<16> text;
    value.toString(text);
    fail("the constant " + text +
         " has no exact image in the finite-field domain");
    return zero();
  }
  // d = m * 2^(e - 53) with |m| < 2^53 an integer.
  int e;
  double frac = std::frexp(d, &e);
  int64_t m = static_cast<int64_t>(std::ldexp(frac, 53));
  int64_t shift = e - 53;
  auto image = [&](uint64_t mod) {
    uint64_t r = uint64_t(m < 0 ? -m : m) % mod;
    uint64_t two = shift >= 0 ? 2 : (mod + 1) / 2; // 2 or 1/2
    r = r * powMod(two, shift >= 0 ? shift : -shift, mod) % mod;
    return uint32_t(m < 0 ? (mod - r) % mod : r);
  };
  return {image(P), image(Q)};
}

FieldElement FieldDomain::inverseCount(int64_t n) {
  if (n <= 0 || n % Q == 0) {
    fail("the count " + llvm::Twine(n) + " has no inverse in the field domain");
    return zero();
  }
  return {inverseMod(n, P), inverseMod(n, Q)};
}

FieldElement FieldDomain::div(FieldElement a, FieldElement b) {
  if (b.p == 0 || (a.hasQ() && b.hasQ() && b.q == 0)) {
    fail("division by zero in the finite-field domain (a divisor is 0 mod " +
         llvm::Twine(b.p == 0 ? P : Q) + ")");
    return zero();
  }
  // A tile is often divided by one broadcast value (a row's sum or rms):
  // remember the last inverse.
  if (!(b == lastDivisor)) {
    lastDivisor = b;
    lastInverse = {inverseMod(b.p, P),
                   b.hasQ() ? inverseMod(b.q, Q) : FieldElement::kNoQ};
  }
  return mul(a, lastInverse);
}

FieldElement FieldDomain::exp(FieldElement a) {
  static const ExpTable table;
  if (!a.hasQ()) {
    fail("exp of a value that already depends on an exp: the finite-field "
         "domain models at most one exp on a path");
    return zero();
  }
  return {table(a.q), FieldElement::kNoQ};
}

FieldElement FieldDomain::uninterpreted(FieldElement a, uint64_t key) {
  uint64_t k = SplitMix64::mix(seed ^ key);
  return {uint32_t(SplitMix64::mix(a.p ^ k) % P),
          a.hasQ() ? uint32_t(SplitMix64::mix(a.q ^ ~k) % Q) : FieldElement::kNoQ};
}

uint64_t FieldDomain::rank(FieldElement a) const {
  return SplitMix64::mix(a.p ^ SplitMix64::mix(seed ^ kOrderKey));
}
