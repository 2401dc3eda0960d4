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
using namespace mlir::tileopt::interp::detail;

std::optional<ScalarOpcode> interp::detail::getScalarOpcode(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<ScalarOpcode>>(op)
      .Case([](arith::ConstantOp) { return ScalarOpcode::Constant; })
      .Case([](arith::AddFOp) { return ScalarOpcode::Add; })
      .Case([](arith::SubFOp) { return ScalarOpcode::Sub; })
      .Case([](arith::MulFOp) { return ScalarOpcode::Mul; })
      .Case([](arith::DivFOp) { return ScalarOpcode::Div; })
      .Case([](arith::NegFOp) { return ScalarOpcode::Neg; })
      .Case([](arith::MaximumFOp) { return ScalarOpcode::Maximum; })
      .Case([](arith::MinimumFOp) { return ScalarOpcode::Minimum; })
      .Case([](arith::MaxNumFOp) { return ScalarOpcode::MaxNum; })
      .Case([](arith::MinNumFOp) { return ScalarOpcode::MinNum; })
      .Case([](math::ExpOp) { return ScalarOpcode::Exp; })
      .Case([](math::SqrtOp) { return ScalarOpcode::Sqrt; })
      .Case([](math::RsqrtOp) { return ScalarOpcode::Rsqrt; })
      .Case([](math::ErfOp) { return ScalarOpcode::Erf; })
      .Case([](math::PowFOp) { return ScalarOpcode::Pow; })
      .Default([](Operation *) { return std::nullopt; });
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
    std::optional<ScalarOpcode> opcode = getScalarOpcode(&op);
    if (!opcode)
      return op.emitOpError("is not supported by the interpreter (it "
                            "evaluates float arith and math ops)");
    ScalarInstr instr{*opcode};
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto value = dyn_cast<FloatAttr>(constant.getValue());
      if (!value)
        return op.emitOpError("is not a float scalar constant");
      instr.lhs = program.constants.size();
      program.constants.push_back(value.getValue());
    } else {
      for (auto [i, operand] : llvm::enumerate(op.getOperands())) {
        auto reg = regs.find(operand);
        if (reg == regs.end())
          return op.emitOpError("uses a value defined outside its region: "
                                "the interpreter evaluates self-contained "
                                "scalar code");
        (i == 0 ? instr.lhs : instr.rhs) = reg->second;
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
