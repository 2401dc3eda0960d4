//===- BlockGraph.cpp - Structure of a block graph ------------------------===//
//
// A block graph is well formed when data flows kernel input -> input iterator
// -> (compute on one iteration's tiles) -> for-loop accumulator -> (compute on
// accumulated tiles) -> output saver -> yield, and never skips or repeats a
// stage. The check walks the graph once in order and gives every value the
// stage it has reached; an op whose operands are at the wrong stage, or at
// different stages, is the error. A tile the loop does not walk (an input
// iterator with fmap -1, and what is computed from such tiles alone) is the
// same in every iteration: it is at no stage yet and may meet tiles of any
// stage, as Mirage's loop-invariant inputs may be used after the loop (LoRA's
// B multiplies the accumulated X A).
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Dialect/TB/IR/TBOps.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::tileopt::tb;

namespace {
enum class Stage {
  /// A device tensor: an argument of the block graph.
  KernelInput,
  /// A tile the for-loop does not walk: the same in every iteration.
  Invariant,
  /// A tile of one for-loop iteration.
  Iteration,
  /// A tile combined over all iterations by a reducing accumulator.
  Reduced,
  /// Per-iteration tiles kept by a `none` accumulator.
  Kept,
  /// A device tensor written by an output saver.
  Saved,
};

StringRef describe(Stage stage) {
  switch (stage) {
  case Stage::KernelInput:
    return "a kernel input";
  case Stage::Invariant:
    return "a tile the for-loop does not walk";
  case Stage::Iteration:
    return "a per-iteration tile (not yet accumulated)";
  case Stage::Reduced:
    return "a tile reduced over the for-loop";
  case Stage::Kept:
    return "a tile kept per iteration by a `none` accumulator";
  case Stage::Saved:
    return "an output-saver result";
  }
  llvm_unreachable("unknown stage");
}
} // namespace

LogicalResult mlir::tileopt::tb::verifyBlockGraph(BlockGraphOpInterface op) {
  Block &body = op.getBlockGraph();
  llvm::DenseMap<Value, Stage> stages;
  for (BlockArgument arg : body.getArguments())
    stages[arg] = Stage::KernelInput;

  for (Operation &nested : body) {
    if (!nested.hasTrait<InBlockGraph>() && !isa<YieldOp>(nested))
      return nested.emitOpError(
          "is not a block-graph op: a block graph holds tb ops and th.graph");

    auto stageOf = [&](Value v) { return stages.lookup(v); };

    if (auto iterator = dyn_cast<InputIteratorOp>(nested)) {
      stages[iterator.getResult()] = iterator.getFmapAttr().getInt() == -1
                                         ? Stage::Invariant
                                         : Stage::Iteration;
      continue;
    }

    if (auto yield = dyn_cast<YieldOp>(nested)) {
      for (auto [i, value] : llvm::enumerate(yield.getValues()))
        if (stageOf(value) != Stage::Saved)
          return yield.emitOpError("value #")
                 << i << " is " << describe(stageOf(value))
                 << ": outputs leave a block graph through tb.output_saver";
      continue;
    }

    if (auto accum = dyn_cast<ForloopAccumOp>(nested)) {
      for (auto [i, operand] : llvm::enumerate(accum->getOperands()))
        if (stageOf(operand) != Stage::Iteration &&
            stageOf(operand) != Stage::Invariant)
          return accum.emitOpError("operand #")
                 << i << " is " << describe(stageOf(operand))
                 << ": a path from an input to an output crosses exactly one "
                    "tb.forloop_accum";
      stages[accum.getResult()] =
          accum.getKind() == AccumKind::none ? Stage::Kept : Stage::Reduced;
      continue;
    }

    if (auto saver = dyn_cast<OutputSaverOp>(nested)) {
      Stage input = stageOf(saver.getInput());
      if (input != Stage::Reduced && input != Stage::Kept)
        return saver.emitOpError("input is ")
               << describe(input)
               << ": a path from an input to an output crosses exactly one "
                  "tb.forloop_accum before its tb.output_saver";
      int64_t iterations = op.getForloopRange();
      if (input == Stage::Kept && iterations > 1 && !saver.getFmap())
        return saver.emitOpError("saves tiles kept per iteration over ")
               << iterations
               << " iterations and needs an fmap to lay them out";
      if (input == Stage::Reduced && saver.getFmap())
        return saver.emitOpError("has an fmap but its input is already "
                                 "reduced over the for-loop");
      stages[saver.getResult()] = Stage::Saved;
      continue;
    }

    // A compute op: all operands at one stage, which its results inherit;
    // invariant tiles join any stage. Its operands are tiles (ODS), so they
    // come from iterators, accumulators or other compute ops, never from
    // savers or kernel inputs.
    auto variant = llvm::find_if(nested.getOperands(), [&](Value operand) {
      return stageOf(operand) != Stage::Invariant;
    });
    Stage stage = variant == nested.operand_end() ? Stage::Invariant
                                                  : stageOf(*variant);
    for (auto [i, operand] : llvm::enumerate(nested.getOperands())) {
      Stage operandStage = stageOf(operand);
      if (operandStage != stage && operandStage != Stage::Invariant)
        return nested.emitOpError("mixes ")
               << describe(stage) << " with " << describe(operandStage)
               << " (operand #" << i
               << "): every path from an input the loop walks to an output "
                  "crosses exactly one tb.forloop_accum";
    }
    // Blocks wait for each other at a grid-wide rms_norm: once, outside the
    // loop (after a reducing accumulator, or on tiles the loop does not
    // walk), not once an iteration.
    if (auto norm = dyn_cast<RmsNormOp>(nested); norm && norm.getAcross() &&
                                                 stage != Stage::Reduced &&
                                                 stage != Stage::Invariant)
      return norm.emitOpError("normalizes ")
             << describe(stage)
             << " across blocks: a grid-wide rms_norm must come after a "
                "reducing tb.forloop_accum, or take tiles the loop does not "
                "walk";
    for (Value result : nested.getResults())
      stages[result] = stage;
  }

  // A saver writes a kernel output; one that is not yielded writes nothing.
  for (auto saver : body.getOps<OutputSaverOp>())
    if (!llvm::any_of(saver->getUsers(),
                      [](Operation *user) { return isa<YieldOp>(user); }))
      return saver.emitOpError("result is never yielded: it writes no kernel "
                               "output");
  return success();
}

unsigned mlir::tileopt::tb::countGridBarriers(BlockGraphOpInterface op) {
  return llvm::count_if(op.getBlockGraph().getOps<RmsNormOp>(),
                        [](RmsNormOp norm) { return norm.getAcross(); });
}
