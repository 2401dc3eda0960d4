//===- Segments.cpp - The program cut where the search cannot go ----------===//
#include "Segments.h"

#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

/// Whether `op` computes values of another element type than it reads (a
/// tk.map that casts): a candidate holds values of one element type.
static bool changesElementType(Operation *op) {
  auto elementType = [](Value v) {
    return cast<ShapedType>(v.getType()).getElementType();
  };
  return llvm::any_of(op->getResults(), [&](Value result) {
    return llvm::any_of(op->getOperands(), [&](Value operand) {
      return elementType(operand) != elementType(result);
    });
  });
}

/// Whether the program is cut at `op`: a layout change, a structured op
/// (no search builds either), or a cast.
static bool isBoundary(Operation *op) {
  return op->hasTrait<tk::LayoutChange>() || isa<tk::StructuredOp>(op) ||
         changesElementType(op);
}

std::optional<ProgramSplit> superopt::splitProgram(func::FuncOp program,
                                                   ModuleOp scratch) {
  Block &body = program.getBody().front();
  if (body.getNumArguments() > 64)
    return std::nullopt;
  // The arguments each value depends on, and its level: the most
  // boundaries on a path from an argument to it.
  llvm::DenseMap<Value, uint64_t> reads;
  llvm::DenseMap<Value, unsigned> levelOf;
  // The values computed from a cast.
  llvm::DenseSet<Value> castFrom;
  for (BlockArgument arg : body.getArguments())
    reads[arg] = uint64_t(1) << arg.getArgNumber();
  struct Placed {
    Operation *op;
    unsigned level;
    bool kept;
  };
  SmallVector<Placed> placed;
  ProgramSplit split;
  unsigned levels = 0;
  bool anyKept = false;
  for (Operation &op : body.without_terminator()) {
    uint64_t mask = 0;
    unsigned level = 0;
    for (Value operand : op.getOperands()) {
      mask |= reads.lookup(operand);
      level = std::max(level, levelOf.lookup(operand));
    }
    bool boundary = isBoundary(&op);
    split.hasBoundary |= boundary;
    if (boundary)
      ++level;
    for (Value result : op.getResults()) {
      reads[result] = mask;
      levelOf[result] = level;
    }
    // What is computed from a cast (softmax of an upcast x) is the
    // program's work, which a segment's search fuses, not a weight's
    // preparation, even where it reads one argument alone.
    bool fromCast = changesElementType(&op) ||
                    llvm::any_of(op.getOperands(), [&](Value operand) {
                      return castFrom.contains(operand);
                    });
    if (fromCast)
      castFrom.insert(op.getResults().begin(), op.getResults().end());
    bool kept = boundary || (llvm::popcount(mask) == 1 && !fromCast);
    anyKept |= kept;
    placed.push_back({&op, level, kept});
    levels = std::max(levels, level + 1);
  }
  if (!anyKept)
    return std::nullopt;

  llvm::DenseMap<Operation *, unsigned> segmentOf;
  for (unsigned level = 0; level < levels; ++level) {
    for (const Placed &p : placed)
      if (p.kept && p.level == level && isBoundary(p.op))
        split.schedule.push_back({p.op});
    for (const Placed &p : placed)
      if (p.kept && p.level == level && !isBoundary(p.op))
        split.schedule.push_back({p.op});
    Segment segment;
    for (const Placed &p : placed)
      if (!p.kept && p.level == level)
        segment.ops.push_back(p.op);
    if (segment.ops.empty())
      continue;
    for (Operation *op : segment.ops)
      segmentOf[op] = split.segments.size();
    split.schedule.push_back({nullptr, unsigned(split.segments.size())});
    split.segments.push_back(std::move(segment));
  }
  if (split.segments.empty())
    return std::nullopt;

  // A segment reads the values its ops use that other steps compute (the
  // arguments first, in order), and returns those of its values that other
  // steps use or the program returns.
  Operation *ret = body.getTerminator();
  OpBuilder b(program.getContext());
  b.setInsertionPointToEnd(scratch.getBody());
  for (auto [index, segment] : llvm::enumerate(split.segments)) {
    auto inSegment = [&, index = index](Operation *op) {
      auto it = segmentOf.find(op);
      return it != segmentOf.end() && it->second == index;
    };
    llvm::SetVector<Value> arguments;
    for (BlockArgument arg : body.getArguments())
      if (llvm::any_of(arg.getUsers(), inSegment))
        arguments.insert(arg);
    for (Operation *op : segment.ops)
      for (Value operand : op->getOperands())
        if (!isa<BlockArgument>(operand) && !inSegment(operand.getDefiningOp()))
          arguments.insert(operand);
    segment.arguments = arguments.takeVector();
    for (Operation *op : segment.ops)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return user == ret || !inSegment(user);
            }))
          segment.results.push_back(result);

    SmallVector<Type> argumentTypes, resultTypes;
    for (Value v : segment.arguments)
      argumentTypes.push_back(v.getType());
    for (Value v : segment.results)
      resultTypes.push_back(v.getType());
    segment.function = func::FuncOp::create(
        b, program.getLoc(),
        (program.getSymName() + "_segment" + Twine(index)).str(),
        b.getFunctionType(argumentTypes, resultTypes));
    Block *segmentBody = segment.function.addEntryBlock();
    IRMapping mapping;
    mapping.map(segment.arguments, segmentBody->getArguments());
    OpBuilder inner = OpBuilder::atBlockEnd(segmentBody);
    for (Operation *op : segment.ops)
      inner.clone(*op, mapping);
    SmallVector<Value> returned;
    for (Value v : segment.results)
      returned.push_back(mapping.lookup(v));
    func::ReturnOp::create(inner, program.getLoc(), returned);
  }
  return split;
}

func::FuncOp superopt::splice(func::FuncOp program, const ProgramSplit &split,
                              ArrayRef<func::FuncOp> chosen, ModuleOp module,
                              StringRef name) {
  OpBuilder b(program.getContext());
  b.setInsertionPointToEnd(module.getBody());
  auto f = func::FuncOp::create(b, program.getLoc(), name,
                                program.getFunctionType());
  Block *body = f.addEntryBlock();
  IRMapping mapping;
  mapping.map(program.getArguments(), body->getArguments());
  b.setInsertionPointToEnd(body);
  for (const ProgramSplit::Step &step : split.schedule) {
    if (step.kept) {
      b.clone(*step.kept, mapping);
      continue;
    }
    const Segment &segment = split.segments[step.segment];
    func::FuncOp candidate = chosen[step.segment];
    if (!candidate) {
      for (Operation *op : segment.ops)
        b.clone(*op, mapping);
      continue;
    }
    IRMapping inner;
    for (auto [arg, value] :
         llvm::zip_equal(candidate.getArguments(), segment.arguments))
      inner.map(arg, mapping.lookup(value));
    Block &candidateBody = candidate.getBody().front();
    for (Operation &op : candidateBody.without_terminator())
      b.clone(op, inner);
    for (auto [value, computed] : llvm::zip_equal(
             segment.results, candidateBody.getTerminator()->getOperands()))
      mapping.map(value, inner.lookupOrDefault(computed));
  }
  b.clone(*program.getBody().front().getTerminator(), mapping);
  return f;
}
