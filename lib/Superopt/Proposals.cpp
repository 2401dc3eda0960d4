//===- Proposals.cpp - Candidate ops in canonical order -------------------===//
#include "Proposals.h"

#include <functional>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

/// Operand numbers of a map take this many bits each of its key.
constexpr unsigned kMapOperandBits = 10;

/// Appends the applications of map `function` to values whose terms are
/// `args` (the only ones whose result can be a value of the program: a map
/// is uninterpreted), one of them `newest`, all meeting each other.
static void proposeMaps(int64_t function, ArrayRef<const Expr *> args,
                        ArrayRef<ValueInfo> values,
                        llvm::function_ref<bool(int, int)> meet, int newest,
                        SmallVectorImpl<Proposal> &out) {
  // The operands are numbered in the key, kMapOperandBits each.
  if (args.size() * kMapOperandBits > 62 || newest >= (1 << kMapOperandBits))
    return;
  SmallVector<int, 2> operands;
  std::function<void(size_t)> choose = [&](size_t position) {
    if (position == args.size()) {
      if (!llvm::is_contained(operands, newest))
        return;
      int64_t code = 0;
      for (auto [i, o] : llvm::enumerate(operands))
        code |= int64_t(o) << (kMapOperandBits * i);
      out.push_back(
          {OpDesc{OpKind::Map, static_cast<int>(function), 0, 0, operands},
           OpKey{newest, static_cast<int64_t>(OpKind::Map), function, code, 0,
                 0}});
      return;
    }
    for (int o = 0; o <= newest; ++o) {
      if (values[o].expr != args[position] ||
          !llvm::all_of(operands, [&](int u) { return meet(u, o); }))
        continue;
      operands.push_back(o);
      choose(position + 1);
      operands.pop_back();
    }
  };
  choose(0);
}

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
  for (const ProgramInfo::MapFunction &map : program.maps)
    for (ArrayRef<const Expr *> args : map.applications)
      proposeMaps(map.function, args, values, meet, t, out);
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
