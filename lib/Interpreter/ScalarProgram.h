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
#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallVector.h"

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
};

struct ScalarInstr {
  ScalarOpcode opcode;
  /// Operand registers; for Constant, `lhs` indexes the constant pool.
  uint32_t lhs = 0, rhs = 0;
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
      auto a = regs[in.lhs], b = regs[in.rhs];
      switch (in.opcode) {
      case ScalarOpcode::Constant: *out = pool[in.lhs]; break;
      case ScalarOpcode::Add: *out = d.add(a, b); break;
      case ScalarOpcode::Sub: *out = d.sub(a, b); break;
      case ScalarOpcode::Mul: *out = d.mul(a, b); break;
      case ScalarOpcode::Div: *out = d.div(a, b); break;
      case ScalarOpcode::Neg: *out = d.neg(a); break;
      case ScalarOpcode::Exp: *out = d.exp(a); break;
      case ScalarOpcode::Sqrt: *out = d.sqrt(a); break;
      case ScalarOpcode::Rsqrt: *out = d.rsqrt(a); break;
      case ScalarOpcode::Erf: *out = d.erf(a); break;
      case ScalarOpcode::Pow: *out = d.pow(a, b); break;
      case ScalarOpcode::Maximum: *out = d.maximum(a, b); break;
      case ScalarOpcode::Minimum: *out = d.minimum(a, b); break;
      case ScalarOpcode::MaxNum: *out = d.maxnum(a, b); break;
      case ScalarOpcode::MinNum: *out = d.minnum(a, b); break;
      }
      ++out;
    }
  }

  unsigned getNumInputs() const { return numInputs; }
  unsigned getNumRegisters() const { return numInputs + code.size(); }
  ArrayRef<uint32_t> getOutputs() const { return outputs; }

private:
  unsigned numInputs = 0;
  SmallVector<ScalarInstr> code;
  SmallVector<APFloat> constants;
  SmallVector<uint32_t> outputs;
};

} // namespace mlir::tileopt::interp::detail

#endif // TILEOPT_LIB_INTERPRETER_SCALARPROGRAM_H
