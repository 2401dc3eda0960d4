//===- Proposals.cpp - Candidate ops in canonical order -------------------===//
#include "Proposals.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

void superopt::proposeComputeOps(const ProgramInfo &program,
                                 ArrayRef<ValueInfo> values,
                                 llvm::function_ref<bool(int, int)> meet,
                                 int newest, bool allowRmsNorm,
                                 SmallVectorImpl<Proposal> &out) {
  auto push = [&](OpKind kind, int sub, double scalar, int64_t dim,
                  SmallVector<int, 2> operands, int64_t scalarIndex) {
    int other =
        operands.size() > 1 ? std::min(operands[0], operands[1]) : operands[0];
    int64_t order = operands.size() > 1 && operands[0] > operands[1];
    out.push_back({OpDesc{kind, sub, scalar, dim, operands},
                   OpKey{newest, static_cast<int64_t>(kind), sub, other,
                         dim * 2 + order, scalarIndex}});
  };
  int t = newest;
  for (UnaryKind kind :
       {UnaryKind::exp, UnaryKind::silu, UnaryKind::gelu, UnaryKind::relu,
        UnaryKind::sqrt, UnaryKind::rsqrt, UnaryKind::square})
    push(OpKind::Unary, static_cast<int>(kind), 0, 0, {t}, 0);
  for (UnaryKind kind : program.ownUnaryKinds)
    push(OpKind::Unary, static_cast<int>(kind), 0, 0, {t}, 0);
  for (auto [i, c] : llvm::enumerate(program.addends))
    push(OpKind::Unary, static_cast<int>(UnaryKind::add_scalar), c, 0, {t},
         static_cast<int64_t>(i));
  for (auto [i, c] : llvm::enumerate(program.factors))
    push(OpKind::Unary, static_cast<int>(UnaryKind::mul_scalar), c, 0, {t},
         static_cast<int64_t>(i));
  if (allowRmsNorm)
    for (auto [i, c] : llvm::enumerate(program.addends))
      push(OpKind::RmsNorm, 0, c, 0, {t}, static_cast<int64_t>(i));
  for (int64_t d = 0; d < static_cast<int64_t>(values[t].shape.size()); ++d)
    for (ReduceKind kind : {ReduceKind::sum, ReduceKind::max, ReduceKind::mean})
      push(OpKind::Reduce, static_cast<int>(kind), 0, d, {t}, 0);
  for (int u = 0; u <= t; ++u) {
    if (!meet(u, t))
      continue;
    for (BinaryKind kind : {BinaryKind::add, BinaryKind::mul})
      push(OpKind::Binary, static_cast<int>(kind), 0, 0, {u, t}, 0);
    for (BinaryKind kind : {BinaryKind::sub, BinaryKind::div}) {
      if (u == t)
        continue;
      push(OpKind::Binary, static_cast<int>(kind), 0, 0, {u, t}, 0);
      push(OpKind::Binary, static_cast<int>(kind), 0, 0, {t, u}, 0);
    }
    push(OpKind::Matmul, 0, 0, 0, {u, t}, 0);
    if (u != t)
      push(OpKind::Matmul, 0, 0, 0, {t, u}, 0);
  }
}
