//===- Segments.h - The program cut where the search cannot go --*- C++ -*-===//
//
// The search builds no layout changes and fuses nothing into a structured
// op (tk.structured), and ops that read one argument alone gain nothing
// from fusion: such ops are kept as kernels of their own and
// the rest of the program is cut between them into segments, each searched
// as a program of its own and spliced back (docs/superoptimizer.md, step
// 11).
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_SUPEROPT_SEGMENTS_H
#define TILEOPT_LIB_SUPEROPT_SEGMENTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir::tileopt::superopt {

/// A part of the program searched as a program of its own.
struct Segment {
  SmallVector<Operation *> ops;
  /// The part as a function: its arguments are `arguments`, its results
  /// `results`, values of the program.
  func::FuncOp function;
  SmallVector<Value> arguments, results;
};

/// The program cut where the search cannot go (docs/superoptimizer.md,
/// step 11). Kept ops stay kernels of their own: the boundaries (layout
/// changes, which the search does not build, structured ops, into which
/// it fuses nothing, and casts, since a candidate holds values of one
/// element type) and the ops
/// whose values depend on one argument alone (qknorm_attention's
/// rms_norm(Q) and rms_norm(K), a weight's transpose). The other ops are
/// cut into segments at the boundaries: an op belongs to the segment of the
/// most boundaries on a path from an argument to it.
struct ProgramSplit {
  /// Kept ops and segments in an order that runs them: for each segment,
  /// the boundaries that lead to it, the other kept ops of its level,
  /// then the segment.
  struct Step {
    Operation *kept = nullptr;
    unsigned segment = 0;
  };
  SmallVector<Step> schedule;
  SmallVector<Segment> segments;
  /// Whether the program has a boundary: then no search takes it whole.
  bool hasBoundary = false;
};

/// Splits `program`, building the segments' functions in `scratch`;
/// nothing when there is no op to keep or nothing to search.
std::optional<ProgramSplit> splitProgram(func::FuncOp program,
                                         ModuleOp scratch);

/// The program with each segment computed by `chosen[i]`, a µGraph of the
/// segment's function (or, when null, as the program computes it), as
/// `name` in `module`.
func::FuncOp splice(func::FuncOp program, const ProgramSplit &split,
                    ArrayRef<func::FuncOp> chosen, ModuleOp module,
                    StringRef name);

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_SEGMENTS_H
