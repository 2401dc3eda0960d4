//===- Materialize.cpp - Candidates as tk / tb IR -------------------------===//
#include "Materialize.h"

#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

/// The tk or tb op of a compute OpDesc. tk and tb ops have the same builders
/// except for tb.reduce's optional `to`; a map is a tk.map on tensors and
/// a th.graph on tiles, each with the region of the program's map.
template <typename MatmulT, typename UnaryT, typename BinaryT,
          typename ReduceT, typename RmsNormT>
Value buildCompute(OpBuilder &b, Location loc, const OpDesc &op,
                   ArrayRef<Value> operands, Type type,
                   const ProgramInfo &program) {
  switch (op.kind) {
  case OpKind::Map: {
    tk::MapOp source = program.findMap(op.sub)->op;
    Region &scalarCode = source.getBody();
    if constexpr (std::is_same_v<UnaryT, tb::UnaryOp>)
      return th::GraphOp::create(b, loc, TypeRange{type}, operands, scalarCode)
          .getResult(0);
    auto map = tk::MapOp::create(b, loc, type, operands);
    IRMapping mapping;
    scalarCode.cloneInto(&map.getBody(), mapping);
    return map;
  }
  case OpKind::Matmul:
    return MatmulT::create(b, loc, type, operands[0], operands[1]);
  case OpKind::Unary: {
    auto kind = static_cast<UnaryKind>(op.sub);
    FloatAttr scalar;
    if (kind == UnaryKind::mul_scalar || kind == UnaryKind::add_scalar)
      scalar = b.getF32FloatAttr(static_cast<float>(op.scalar));
    return UnaryT::create(b, loc, type, kind, operands[0], scalar);
  }
  case OpKind::Binary:
    return BinaryT::create(b, loc, type, static_cast<BinaryKind>(op.sub),
                           operands[0], operands[1]);
  case OpKind::Reduce:
    if constexpr (std::is_same_v<ReduceT, tb::ReduceOp>)
      return ReduceT::create(b, loc, type, static_cast<ReduceKind>(op.sub),
                             operands[0], op.dim, IntegerAttr());
    else
      return ReduceT::create(b, loc, type, static_cast<ReduceKind>(op.sub),
                             operands[0], op.dim);
  case OpKind::RmsNorm: {
    FloatAttr epsilon = b.getF32FloatAttr(static_cast<float>(op.scalar));
    if constexpr (std::is_same_v<RmsNormT, tb::RmsNormOp>)
      return RmsNormT::create(
          b, loc, type, operands[0], epsilon,
          op.sub == kAcrossGrid ? b.getI64IntegerAttr(op.dim) : IntegerAttr());
    else
      return RmsNormT::create(b, loc, type, operands[0], epsilon);
  }
  case OpKind::Accum:
    break;
  }
  llvm_unreachable("not a compute op");
}

RankedTensorType tensorType(const ValueInfo &v, Type elementType) {
  return RankedTensorType::get(v.shape, elementType);
}

tk::FusedOp buildFused(OpBuilder &b, Location loc, const BlockGraph &g,
                       ArrayRef<Value> tensors, const ProgramInfo &program,
                       int64_t blockThreads) {
  Type elementType = program.elementType;
  SmallVector<Value> inputs;
  SmallVector<Type> inputTypes;
  SmallVector<Location> locs;
  for (const BlockInput &in : g.inputs) {
    inputs.push_back(tensors[in.tensor]);
    inputTypes.push_back(tensors[in.tensor].getType());
    locs.push_back(loc);
  }
  SmallVector<Type> resultTypes;
  for (const BlockOutput &out : g.outputs)
    resultTypes.push_back(tensorType(out.tensor, elementType));
  auto fused = tk::FusedOp::create(
      b, loc, resultTypes, inputs, b.getDenseI64ArrayAttr(g.grid),
      b.getDenseI64ArrayAttr({blockThreads, 1, 1}),
      b.getI64IntegerAttr(g.forloopRange));
  OpBuilder::InsertionGuard guard(b);
  Block *body = b.createBlock(&fused.getBody(), {}, inputTypes, locs);
  auto tileType = [&](const ValueInfo &v) {
    return tb::TileType::get(v.shape, elementType);
  };

  SmallVector<Value, 16> tiles;
  for (auto [i, in] : llvm::enumerate(g.inputs))
    tiles.push_back(tb::InputIteratorOp::create(
        b, loc, tileType(g.tiles[i]), body->getArgument(i),
        b.getDenseI64ArrayAttr(in.imap), b.getI64IntegerAttr(in.fmap)));
  for (auto [i, op] : llvm::enumerate(g.ops)) {
    const ValueInfo &result = g.tiles[g.inputs.size() + i];
    SmallVector<Value, 2> operands;
    for (int o : op.operands)
      operands.push_back(tiles[o]);
    if (op.kind == OpKind::Accum) {
      Value scale = operands.size() > 1 ? operands[1] : Value();
      tiles.push_back(tb::ForloopAccumOp::create(
          b, loc, tileType(result), static_cast<tb::AccumKind>(op.sub),
          operands[0], scale));
      continue;
    }
    tiles.push_back(buildCompute<tb::MatmulOp, tb::UnaryOp, tb::BinaryOp,
                                 tb::ReduceOp, tb::RmsNormOp>(
        b, loc, op, operands, tileType(result), program));
  }
  SmallVector<Value> saved;
  for (const BlockOutput &out : g.outputs)
    saved.push_back(tb::OutputSaverOp::create(
        b, loc, tensorType(out.tensor, elementType), tiles[out.tile],
        b.getDenseI64ArrayAttr(out.omap),
        out.fmap >= 0 ? b.getI64IntegerAttr(out.fmap) : IntegerAttr()));
  tb::YieldOp::create(b, loc, saved);
  return fused;
}

} // namespace

func::FuncOp superopt::materialize(ModuleOp into, StringRef name,
                                   FunctionType type, const KernelGraph &graph,
                                   ArrayRef<size_t> choices,
                                   const ProgramInfo &program,
                                   int64_t blockThreads) {
  OpBuilder b(into.getContext());
  Location loc = b.getUnknownLoc();
  b.setInsertionPointToEnd(into.getBody());
  auto func = func::FuncOp::create(b, loc, name, type);
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToEnd(entry);

  SmallVector<Value, 16> tensors(entry->getArguments());
  size_t fusedIndex = 0;
  for (const KernelOp &op : graph.ops) {
    if (op.graphs) {
      const BlockGraph &g = (*op.graphs)[choices[fusedIndex++]];
      tk::FusedOp fused = buildFused(b, loc, g, tensors, program, blockThreads);
      tensors.append(fused.getResults().begin(), fused.getResults().end());
      continue;
    }
    SmallVector<Value, 2> operands;
    for (int o : op.op.operands)
      operands.push_back(tensors[o]);
    tensors.push_back(buildCompute<tk::MatmulOp, tk::UnaryOp, tk::BinaryOp,
                                   tk::ReduceOp, tk::RmsNormOp>(
        b, loc, op.op, operands,
        tensorType(graph.tensors[op.results.front()], program.elementType),
        program));
  }
  SmallVector<Value> results;
  for (int o : graph.outputs)
    results.push_back(tensors[o]);
  func::ReturnOp::create(b, loc, results);
  return func;
}
