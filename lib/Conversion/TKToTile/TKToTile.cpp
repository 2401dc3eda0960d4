//===- TKToTile.cpp - Kernel graphs as tile kernels and launches ----------===//
//
// A kernel graph is a sequence of launches over tensors in device memory,
// which is what a tile host function is once the tensors are buffers: every
// tk op becomes a tile kernel (predefined ones through the block graph of
// their tiling, layout changes as copies, structured ops as their loop
// nest), and the function launches them,
// in order, on memref buffers.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Conversion/TKToTile/TKToTile.h"

#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_LOWERUGRAPH
#include "TileOpt/Conversion/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// The host function's buffers: one per tensor of the kernel graph.
struct Buffers {
  SmallVector<Type> types;
  SmallVector<DictionaryAttr> attrs;
  DenseMap<Value, unsigned> ofTensor;

  /// Names are unique: a generated one that a source name took gets a
  /// suffix.
  llvm::StringSet<> names;

  /// What the program does with a buffer (the tileopt attribute it gets).
  enum class Role { Input, Output, Scratch };

  /// `constant`: the values the program fixes for an input buffer, if it
  /// does (a `tileopt.constant` argument of the kernel graph).
  void add(OpBuilder &b, Value tensor, StringRef requested, Role role,
           Attribute constant = {}) {
    std::string name = requested.str();
    for (int suffix = 1; !names.insert(name).second; ++suffix)
      name = (requested + "_" + Twine(suffix)).str();
    auto type = cast<RankedTensorType>(tensor.getType());
    ofTensor[tensor] = types.size();
    types.push_back(MemRefType::get(type.getShape(), type.getElementType()));
    SmallVector<NamedAttribute> named = {b.getNamedAttr(
        TileOptDialect::NameAttrHelper::getNameStr(), b.getStringAttr(name))};
    if (role == Role::Output)
      named.push_back(b.getNamedAttr(
          TileOptDialect::OutputAttrHelper::getNameStr(), b.getUnitAttr()));
    if (role == Role::Scratch)
      named.push_back(b.getNamedAttr(
          TileOptDialect::ScratchAttrHelper::getNameStr(), b.getUnitAttr()));
    if (constant)
      named.push_back(b.getNamedAttr(
          TileOptDialect::ConstantAttrHelper::getNameStr(), constant));
    attrs.push_back(b.getDictionaryAttr(named));
  }
};

/// Checks that `func` is a kernel graph the lowering takes: one block of tk
/// ops.
LogicalResult checkKernelGraph(func::FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("has ")
           << func.getBody().getBlocks().size()
           << " blocks; a kernel graph is one block of tk ops";
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    if (!isa<RankedTensorType>(type))
      return func.emitOpError("argument #")
             << i << " is " << type << "; kernel graphs take tensors";
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp>(op))
      continue;
    if (!isa<tk::TKDialect>(op.getDialect()))
      return op.emitOpError("is not a tk op; tileopt-lower-ugraph lowers "
                            "functions of tk ops");
  }
  return success();
}

/// Gives each result of `graph` a value that a kernel computes and no other
/// result is: the host function only writes what its kernels compute, into
/// a buffer per result. A returned argument, and a value returned a second
/// time (`return %x, %x`, as front ends may emit), become copies: a tk.map
/// that yields its operand, an elementwise kernel like any other.
void copyReturnedArgumentsAndDuplicates(func::FuncOp graph) {
  auto ret = cast<func::ReturnOp>(graph.getBody().front().getTerminator());
  OpBuilder b(ret);
  llvm::SmallDenseSet<Value> returned;
  for (OpOperand &result : ret->getOpOperands()) {
    Value v = result.get();
    if (!isa<BlockArgument>(v) && returned.insert(v).second)
      continue;
    result.set(tk::createIdentityMap(
        b, v.getLoc(), v, cast<RankedTensorType>(v.getType()).getShape()));
  }
}

/// Lowers the kernel graph `graph` (a clone of the function being
/// lowered): its ops become kernels before `func` in the module, and a
/// host function replaces `func`.
LogicalResult lowerClone(func::FuncOp func, func::FuncOp graph) {
  OpBuilder b(func);
  copyReturnedArgumentsAndDuplicates(graph);
  Block &body = graph.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
    if (!isa<tk::FusedOp, tk::StructuredOp>(op) &&
        !op.hasTrait<tk::LayoutChange>() &&
        failed(tilePredefinedKernel(b, &op)))
      return failure();

  Buffers buffers;
  // Buffers keep the names the source gave its arguments and results.
  auto nameOf = [](DictionaryAttr attrs, const Twine &fallback) {
    if (auto name = attrs ? attrs.getAs<StringAttr>(
                            TileOptDialect::NameAttrHelper::getNameStr()) : nullptr)
      return name.str();
    return fallback.str();
  };
  for (auto [i, arg] : llvm::enumerate(body.getArguments()))
    buffers.add(
        b, arg, nameOf(func.getArgAttrDict(i), "in" + Twine(i)),
        Buffers::Role::Input,
        func.getArgAttr(i, TileOptDialect::ConstantAttrHelper::getNameStr()));
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [i, result] : llvm::enumerate(ret.getOperands()))
    buffers.add(b, result, nameOf(func.getResultAttrDict(i), "out" + Twine(i)),
                Buffers::Role::Output);
  // A returned reshape of a value nothing else reads: the kernel that
  // computes the value writes it into the result's buffer.
  for (auto reshape : body.getOps<tk::ReshapeOp>())
    if (reshape.writesResultBuffer())
      buffers.ofTensor[reshape.getInput()] =
          buffers.ofTensor.lookup(reshape.getResult());
  unsigned intermediates = 0;
  // A free layout change is no kernel: a transpose its readers read
  // through (transposeReadThrough) has no buffer either, and a reshape that
  // is a view has its input's (tile.launch binds a static view to any
  // buffer of as many elements).
  for (Operation &op : body.without_terminator()) {
    if (tk::isFreeLayoutChange(&op)) {
      auto reshape = dyn_cast<tk::ReshapeOp>(op);
      if (reshape && !reshape.writesResultBuffer())
        buffers.ofTensor[reshape.getResult()] =
            buffers.ofTensor.lookup(reshape.getInput());
      continue;
    }
    for (Value result : op.getResults())
      if (!buffers.ofTensor.count(result))
        buffers.add(b, result, "tmp" + std::to_string(intermediates++),
                    Buffers::Role::Scratch);
  }

  // Kernels first, so that a failure leaves nothing behind.
  SymbolTable symbols(func->getParentOp());
  SmallVector<std::pair<Operation *, LoweredKernel>> kernels;
  auto eraseKernels = [&] {
    for (auto &[op, lowered] : kernels)
      lowered.kernel.erase();
  };
  unsigned numKernels = 0;
  for (Operation &op : body.without_terminator()) {
    if (tk::isFreeLayoutChange(&op))
      continue;
    std::string name = (func.getSymName() + "_k" + Twine(numKernels++)).str();
    FailureOr<SmallVector<LoweredKernel>> lowered = failure();
    if (auto fused = dyn_cast<tk::FusedOp>(op)) {
      FailureOr<LoweredKernel> kernel = lowerBlockGraph(b, fused, name);
      if (succeeded(kernel))
        lowered = SmallVector<LoweredKernel>{std::move(*kernel)};
    } else if (auto structured = dyn_cast<tk::StructuredOp>(op)) {
      FailureOr<LoweredKernel> kernel = lowerStructured(b, structured, name);
      if (succeeded(kernel))
        lowered = SmallVector<LoweredKernel>{std::move(*kernel)};
    } else {
      lowered = lowerLayoutChange(b, &op, name);
    }
    if (failed(lowered)) {
      eraseKernels();
      return failure();
    }
    for (LoweredKernel &kernel : *lowered) {
      symbols.insert(kernel.kernel, b.getInsertionPoint());
      kernels.emplace_back(&op, std::move(kernel));
    }
  }

  // Every tensor a kernel binds has a buffer: a kernel that reads a free
  // layout change's result must read through it (or the change is not
  // free), else it would bind another tensor's buffer.
  for (auto &[op, lowered] : kernels)
    for (Value tensor : llvm::concat<Value>(lowered.reads, lowered.writes))
      if (!buffers.ofTensor.count(tensor)) {
        InFlightDiagnostic diag =
            op->emitOpError("reads or writes a tensor that has no buffer");
        eraseKernels();
        return diag;
      }
  auto host = func::FuncOp::create(b, func.getLoc(), func.getSymName(),
                                   b.getFunctionType(buffers.types, {}));
  host.setAllArgAttrs(buffers.attrs);
  Block *entry = host.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  for (auto &[op, lowered] : kernels) {
    SmallVector<Value> args;
    for (Value tensor : llvm::concat<Value>(lowered.reads, lowered.writes))
      args.push_back(entry->getArgument(buffers.ofTensor.lookup(tensor)));
    tile::LaunchOp::create(b, op->getLoc(), lowered.kernel.getSymName(),
                           lowered.grid, args);
  }
  func::ReturnOp::create(b, func.getLoc());
  func.erase();
  return success();
}

struct LowerUGraphPass
    : public tileopt::impl::LowerUGraphBase<LowerUGraphPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> graphs;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (llvm::any_of(func.getBody().getOps(), [](Operation &op) {
            return isa<tk::TKDialect>(op.getDialect());
          }))
        graphs.push_back(func);
    for (func::FuncOp func : graphs)
      if (failed(lowerKernelGraph(func)))
        return signalPassFailure();
  }
};

} // namespace

LogicalResult tileopt::lowerKernelGraph(func::FuncOp func) {
  if (failed(checkKernelGraph(func)))
    return failure();
  // The lowering rewrites a clone, so that a failure leaves the function as
  // it was.
  func::FuncOp graph = func.clone();
  LogicalResult lowered = lowerClone(func, graph);
  graph.erase();
  return lowered;
}
