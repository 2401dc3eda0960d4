//===- ScalarProgram.cpp - Straight-line scalar code, compiled ------------===//
#include "ScalarProgram.h"

#include "TileOpt/Dialect/Common/ElementwiseBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::interp;
using namespace mlir::tileopt::interp::detail;

Comparison interp::detail::decodeComparison(unsigned cmpfPredicate) {
  using P = arith::CmpFPredicate;
  Comparison c;
  switch (static_cast<P>(cmpfPredicate)) {
  case P::AlwaysFalse: break;
  case P::OEQ: c.equal = true; break;
  case P::OGT: c.greater = true; break;
  case P::OGE: c.greater = c.equal = true; break;
  case P::OLT: c.less = true; break;
  case P::OLE: c.less = c.equal = true; break;
  case P::ONE: c.less = c.greater = true; break;
  case P::ORD: c.less = c.equal = c.greater = true; break;
  case P::UEQ: c.unordered = c.equal = true; break;
  case P::UGT: c.unordered = c.greater = true; break;
  case P::UGE: c.unordered = c.greater = c.equal = true; break;
  case P::ULT: c.unordered = c.less = true; break;
  case P::ULE: c.unordered = c.less = c.equal = true; break;
  case P::UNE: c.unordered = c.less = c.greater = true; break;
  case P::UNO: c.unordered = true; break;
  case P::AlwaysTrue: c.unordered = c.less = c.equal = c.greater = true; break;
  }
  return c;
}

std::optional<ScalarInstr> interp::detail::decodeScalarOp(Operation *op) {
  auto plain = [](ScalarOpcode opcode) { return ScalarInstr{opcode}; };
  auto apply = [](ScalarFn fn) {
    ScalarInstr in{ScalarOpcode::Apply};
    in.fn = fn;
    return in;
  };
  using R = std::optional<ScalarInstr>;
  return llvm::TypeSwitch<Operation *, R>(op)
      .Case([&](arith::ConstantOp) { return plain(ScalarOpcode::Constant); })
      .Case([&](arith::AddFOp) { return plain(ScalarOpcode::Add); })
      .Case([&](arith::SubFOp) { return plain(ScalarOpcode::Sub); })
      .Case([&](arith::MulFOp) { return plain(ScalarOpcode::Mul); })
      .Case([&](arith::DivFOp) { return plain(ScalarOpcode::Div); })
      .Case([&](arith::NegFOp) { return plain(ScalarOpcode::Neg); })
      .Case([&](arith::MaximumFOp) { return plain(ScalarOpcode::Maximum); })
      .Case([&](arith::MinimumFOp) { return plain(ScalarOpcode::Minimum); })
      .Case([&](arith::MaxNumFOp) { return plain(ScalarOpcode::MaxNum); })
      .Case([&](arith::MinNumFOp) { return plain(ScalarOpcode::MinNum); })
      .Case([&](math::ExpOp) { return plain(ScalarOpcode::Exp); })
      .Case([&](math::SqrtOp) { return plain(ScalarOpcode::Sqrt); })
      .Case([&](math::RsqrtOp) { return plain(ScalarOpcode::Rsqrt); })
      .Case([&](math::ErfOp) { return plain(ScalarOpcode::Erf); })
      .Case([&](math::PowFOp) { return plain(ScalarOpcode::Pow); })
      .Case([&](math::TanhOp) { return apply(ScalarFn::Tanh); })
      .Case([&](math::LogOp) { return apply(ScalarFn::Log); })
      .Case([&](math::Log1pOp) { return apply(ScalarFn::Log1p); })
      .Case([&](math::Log2Op) { return apply(ScalarFn::Log2); })
      .Case([&](math::Exp2Op) { return apply(ScalarFn::Exp2); })
      .Case([&](math::ExpM1Op) { return apply(ScalarFn::Expm1); })
      .Case([&](math::AbsFOp) { return apply(ScalarFn::Abs); })
      .Case([&](math::SinOp) { return apply(ScalarFn::Sin); })
      .Case([&](math::CosOp) { return apply(ScalarFn::Cos); })
      .Case([&](math::FloorOp) { return apply(ScalarFn::Floor); })
      .Case([&](math::CeilOp) { return apply(ScalarFn::Ceil); })
      .Case([&](math::RoundOp) { return apply(ScalarFn::Round); })
      .Case([&](arith::CmpFOp cmp) {
        ScalarInstr in{ScalarOpcode::Compare};
        in.compare =
            decodeComparison(static_cast<unsigned>(cmp.getPredicate()));
        return in;
      })
      .Case([&](arith::SelectOp) { return plain(ScalarOpcode::Select); })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](Operation *) { return plain(ScalarOpcode::Cast); })
      .Default([](Operation *) { return R(); });
}

FailureOr<ScalarProgram> ScalarProgram::compile(Block &body,
                                                ValueRange results) {
  ScalarProgram program;
  program.numInputs = body.getNumArguments();
  llvm::DenseMap<Value, uint32_t> regs;
  for (BlockArgument arg : body.getArguments())
    regs[arg] = arg.getArgNumber();

  for (Operation &op : body) {
    // A th.graph body ends in th.yield; a scratch block has no terminator.
    if (op.hasTrait<OpTrait::IsTerminator>())
      break;
    std::optional<ScalarInstr> decoded = decodeScalarOp(&op);
    if (!decoded)
      return op.emitOpError("is not supported by the interpreter (it "
                            "evaluates float arith and math ops, float "
                            "comparisons, selects and float casts)");
    ScalarInstr instr = *decoded;
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      // i1 constants (a select's condition) are 0 or 1.
      if (auto value = dyn_cast<FloatAttr>(constant.getValue())) {
        program.constants.push_back(value.getValue());
      } else if (auto flag = dyn_cast<BoolAttr>(constant.getValue())) {
        program.constants.push_back(APFloat(flag.getValue() ? 1.0 : 0.0));
      } else {
        return op.emitOpError("is not a float or i1 scalar constant");
      }
      instr.lhs = program.constants.size() - 1;
    } else {
      for (auto [i, operand] : llvm::enumerate(op.getOperands())) {
        auto reg = regs.find(operand);
        if (reg == regs.end())
          return op.emitOpError("uses a value defined outside its region: "
                                "the interpreter evaluates self-contained "
                                "scalar code");
        (i == 0 ? instr.lhs : i == 1 ? instr.rhs : instr.third) = reg->second;
      }
    }
    regs[op.getResult(0)] = program.numInputs + program.code.size();
    program.code.push_back(instr);
  }
  for (Value result : results)
    program.outputs.push_back(regs.at(result));
  return program;
}

/// Builds the scalar form of one kind in a scratch block and compiles it.
static FailureOr<ScalarProgram>
compileKind(Operation *op, Type elementType, unsigned numInputs,
            function_ref<Value(OpBuilder &, ValueRange)> build) {
  MLIRContext *ctx = op->getContext();
  ctx->getOrLoadDialect<arith::ArithDialect>();
  ctx->getOrLoadDialect<math::MathDialect>();
  Block scratch;
  for (unsigned i = 0; i < numInputs; ++i)
    scratch.addArgument(elementType, op->getLoc());
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(&scratch);
  Value result = build(b, scratch.getArguments());
  return ScalarProgram::compile(scratch, result);
}

FailureOr<ScalarProgram>
ScalarProgram::forUnary(Operation *op, UnaryKind kind,
                        std::optional<APFloat> scalar, Type elementType) {
  return compileKind(op, elementType, 1, [&](OpBuilder &b, ValueRange args) {
    return buildUnary(b, op->getLoc(), kind, args[0], scalar);
  });
}

FailureOr<ScalarProgram> ScalarProgram::forBinary(Operation *op,
                                                  BinaryKind kind,
                                                  Type elementType) {
  return compileKind(op, elementType, 2, [&](OpBuilder &b, ValueRange args) {
    return buildBinary(b, op->getLoc(), kind, args[0], args[1]);
  });
}
