//===- ScalarProgram.h - Straight-line scalar code, compiled ----*- C++ -*-===//
//
// The interpreter evaluates every elementwise computation through one
// evaluator: a th.graph region, and each UnaryKind / BinaryKind, which it
// first builds as scalar arith/math ops with ElementwiseBuilder. So a kind
// computes exactly what the fused code the compiler emits computes (same
// formula, same constants rounded to the same element type), and thread-graph
// fusion cannot change a verdict.
//
// The ops are compiled once into a flat instruction list over a register
// file; evaluating an element is then one pass over it, with no IR walks.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_INTERPRETER_SCALARPROGRAM_H
#define TILEOPT_LIB_INTERPRETER_SCALARPROGRAM_H

#include "TileOpt/Dialect/Common/TileOptEnums.h"
#include "TileOpt/Interpreter/Domains.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

namespace mlir::tileopt::interp::detail {

enum class ScalarOpcode : uint8_t {
  Constant,
  Add,
  Sub,
  Mul,
  Div,
  Neg,
  Exp,
  Sqrt,
  Rsqrt,
  Erf,
  Pow,
  Maximum,
  Minimum,
  MaxNum,
  MinNum,
  /// A ScalarFn of its operand (ScalarInstr::aux).
  Apply,
  /// arith.cmpf: 1 where the comparison decoded into ScalarInstr::compare
  /// holds, else 0.
  Compare,
  /// arith.select: the second operand where the first is not 0, else the
  /// third.
  Select,
  /// arith.extf / truncf: the value itself. The interpreter computes every
  /// float in the domain's precision, whatever type holds it.
  Cast,
};

struct ScalarInstr;

/// The instruction (without its registers) of an arith/math op the
/// interpreter evaluates on scalars (arith.constant included), if it
/// evaluates it: the one mapping from ops to opcodes, shared by scalar
/// programs and the tile interpreter.
std::optional<ScalarInstr> decodeScalarOp(Operation *op);

/// The outcomes of an arith.cmpf predicate.
Comparison decodeComparison(unsigned cmpfPredicate);

struct ScalarInstr {
  ScalarOpcode opcode;
  /// Operand registers; for Constant, `lhs` indexes the constant pool.
  uint32_t lhs = 0, rhs = 0, third = 0;
  /// Apply: the function.
  ScalarFn fn = ScalarFn::Tanh;
  /// Compare: its outcomes.
  Comparison compare;
};

/// Registers 0 .. numInputs-1 hold the inputs; instruction i writes register
/// numInputs + i.
class ScalarProgram {
public:
  /// Compiles the straight-line arith/math ops of `body` up to its
  /// terminator, if any (its arguments are the inputs), computing `results`. Reports an op it cannot evaluate at
  /// the op's location.
  static FailureOr<ScalarProgram> compile(Block &body, ValueRange results);

  /// `kind` applied to one scalar of `elementType`, as ElementwiseBuilder
  /// builds it; `op` gives the location and context.
  static FailureOr<ScalarProgram> forUnary(Operation *op, UnaryKind kind,
                                           std::optional<APFloat> scalar,
                                           Type elementType);
  static FailureOr<ScalarProgram> forBinary(Operation *op, BinaryKind kind,
                                            Type elementType);

  /// The constants mapped into `domain` (which may fail on them).
  template <typename Domain>
  SmallVector<typename Domain::Scalar> bindConstants(Domain &domain) const {
    SmallVector<typename Domain::Scalar> out;
    for (const APFloat &c : constants)
      out.push_back(domain.constant(c));
    return out;
  }

  /// Runs the code on `regs` (inputs already in place, sized numRegisters).
  template <typename Domain>
  void run(Domain &d, const typename Domain::Scalar *pool,
           typename Domain::Scalar *regs) const {
    typename Domain::Scalar *out = regs + numInputs;
    for (const ScalarInstr &in : code) {
      if (in.opcode == ScalarOpcode::Constant)
        *out = pool[in.lhs];
      else
        withOperation(d, in, [&](auto op) {
          *out = op(regs[in.lhs], regs[in.rhs], regs[in.third]);
        });
      ++out;
    }
  }

  /// A program of one instruction on its inputs (a tb.unary or tb.binary
  /// of most kinds): the caller may run it over whole arrays.
  bool isSingleInstruction() const {
    return code.size() == 1 && code.front().opcode != ScalarOpcode::Constant &&
           outputs.size() == 1 && outputs.front() == numInputs;
  }
  /// Runs a single-instruction program over `n` elements of `inputs`
  /// (arrays of the output's shape) into `out`. The opcode is dispatched
  /// once per array instead of once per element: on the reduced instances'
  /// small tiles that dispatch is most of the cost of an element.
  template <typename Domain>
  void runOnArrays(Domain &d,
                   ArrayRef<const typename Domain::Scalar *> inputs,
                   typename Domain::Scalar *out, int64_t n) const {
    assert(isSingleInstruction() && "not a single-instruction program");
    const ScalarInstr &in = code.front();
    const auto *a = inputs[in.lhs], *b = inputs[in.rhs],
               *c = inputs[in.third];
    withOperation(d, in, [&](auto op) {
      for (int64_t i = 0; i < n; ++i)
        out[i] = op(a[i], b[i], c[i]);
    });
  }

  unsigned getNumInputs() const { return numInputs; }
  unsigned getNumRegisters() const { return numInputs + code.size(); }
  ArrayRef<uint32_t> getOutputs() const { return outputs; }

  /// Calls `body(op)` with `op(a, b, c)` the domain's operation for `in`
  /// (ignoring the operands it does not take); the one place opcodes meet
  /// the domain.
  template <typename Domain, typename Body>
  static void withOperation(Domain &d, const ScalarInstr &in, Body body) {
    using S = typename Domain::Scalar;
    switch (in.opcode) {
    case ScalarOpcode::Constant: llvm_unreachable("constants read the pool");
    case ScalarOpcode::Add: return body([&](S a, S b, S) { return d.add(a, b); });
    case ScalarOpcode::Sub: return body([&](S a, S b, S) { return d.sub(a, b); });
    case ScalarOpcode::Mul: return body([&](S a, S b, S) { return d.mul(a, b); });
    case ScalarOpcode::Div: return body([&](S a, S b, S) { return d.div(a, b); });
    case ScalarOpcode::Neg: return body([&](S a, S, S) { return d.neg(a); });
    case ScalarOpcode::Exp: return body([&](S a, S, S) { return d.exp(a); });
    case ScalarOpcode::Sqrt: return body([&](S a, S, S) { return d.sqrt(a); });
    case ScalarOpcode::Rsqrt:
      return body([&](S a, S, S) { return d.rsqrt(a); });
    case ScalarOpcode::Erf: return body([&](S a, S, S) { return d.erf(a); });
    case ScalarOpcode::Pow: return body([&](S a, S b, S) { return d.pow(a, b); });
    case ScalarOpcode::Maximum:
      return body([&](S a, S b, S) { return d.maximum(a, b); });
    case ScalarOpcode::Minimum:
      return body([&](S a, S b, S) { return d.minimum(a, b); });
    case ScalarOpcode::MaxNum:
      return body([&](S a, S b, S) { return d.maxnum(a, b); });
    case ScalarOpcode::MinNum:
      return body([&](S a, S b, S) { return d.minnum(a, b); });
    case ScalarOpcode::Apply:
      return body([&, fn = in.fn](S a, S, S) { return d.apply(fn, a); });
    case ScalarOpcode::Compare:
      return body([&, c = in.compare](S a, S b, S) {
        return d.compare(c, a, b);
      });
    case ScalarOpcode::Select:
      return body([&](S c, S a, S b) { return d.select(c, a, b); });
    case ScalarOpcode::Cast: return body([](S a, S, S) { return a; });
    }
    llvm_unreachable("unknown opcode");
  }

private:
  unsigned numInputs = 0;
  SmallVector<ScalarInstr> code;
  SmallVector<APFloat> constants;
  SmallVector<uint32_t> outputs;
};

} // namespace mlir::tileopt::interp::detail

#endif // TILEOPT_LIB_INTERPRETER_SCALARPROGRAM_H
