//===- TKToTile.h - µGraphs to tile programs --------------------*- C++ -*-===//
//
// The step from the superoptimizer's µGraphs (tk kernel graphs whose fused
// kernels hold tb block graphs) to tile programs, which the tile code
// generator compiles. The pass tileopt-lower-ugraph is these functions
// applied to every function of tk ops in a module; docs/lowering.md says
// what each op becomes.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_CONVERSION_TKTOTILE_TKTOTILE_H
#define TILEOPT_CONVERSION_TKTOTILE_TKTOTILE_H

#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tileopt {

/// Rewrites a predefined kernel (tk.matmul, unary, binary, reduce,
/// rms_norm) as the tk.fused whose block graph is its tiling: the op's
/// result, computed by blocks of tiles, so that one lowering serves both
/// kinds of kernel; an elementwise op of more dims than the tilings take,
/// even merged, as a tk.structured (elementwiseAsStructured). Returns the
/// op that replaces it. Fails with a diagnostic at the op when it has no
/// tiling (shapes no power-of-two tile divides). Layout changes compute
/// nothing: lowerLayoutChange copies them.
FailureOr<Operation *> tilePredefinedKernel(OpBuilder &b, Operation *op);

/// The tk.fused of tilePredefinedKernel, built at `b`'s insertion point (or
/// detached, without one) and leaving `op` as it is: the cost model prices
/// a predefined kernel by the tiling it will be lowered with.
FailureOr<tk::FusedOp> buildPredefinedTiling(OpBuilder &b, Operation *op);

/// A tile kernel and the grid it runs over.
struct LoweredKernel {
  tile::KernelOp kernel;
  SmallVector<int64_t, 3> grid;
  /// The tensors the kernel reads, one per view argument before those it
  /// writes.
  SmallVector<Value> reads;
  /// The tensors it writes, one per view argument after those it reads:
  /// the op's results, unless it takes several kernels (a split's parts).
  SmallVector<Value> writes;
};

/// The transpose that produces `input`, a graph-defined kernel's input, if
/// one does: the kernel reads the transpose's source instead, loading each
/// tile in the source's layout and permuting it in the block, so that the
/// transpose needs no kernel of its own unless something else reads it.
tk::TransposeOp transposeReadThrough(Value input);

/// Whether `matmul`'s one use is a sum or mean accumulator: then tile.mma
/// accumulates it itself, in the tile the loop carries, which is what lets
/// the tile code generator stage its operands through cp.async.
bool isFusedIntoAccumulator(tb::MatmulOp matmul);

/// Builds, at `b`'s insertion point, the tile kernel @`name` that runs the
/// block graph of `fused`: its arguments are one view per tensor it reads
/// (each input of `fused`, or the source of one transposeReadThrough reads
/// through; a tensor read twice has one view) and then one per result. Its grid is the block graph's, unless a batch
/// dim the block graph keeps whole is split over a grid dim it leaves
/// unused. Fails with a diagnostic at the block-graph op that has no tile
/// form (and leaves no kernel).
FailureOr<LoweredKernel> lowerBlockGraph(OpBuilder &b, tk::FusedOp fused,
                                         StringRef name);

/// Builds, at `b`'s insertion point, the tile kernels @`name`, @`name`_1,
/// ... that copy the inputs of `op`, a layout change (tk.reshape,
/// transpose, concat, split), into its results: one kernel for a reshape or
/// a transpose (a view of the input and one of the result), one per part
/// for a concat or a split (its part and the whole, at the part's offset).
/// Fails with a diagnostic at `op` when a grid exceeds CUDA's.
FailureOr<SmallVector<LoweredKernel>>
lowerLayoutChange(OpBuilder &b, Operation *op, StringRef name);

/// Builds, at `b`'s insertion point, the tile kernel @`name` that computes
/// `op`, a structured op no tk op models, as its loop nest: one result
/// element per lane, each operand element gathered through its indexing
/// map (StructuredKernels.cpp). Its arguments are a view per input of `op`,
/// then one of the result. Fails with a diagnostic at `op` (and leaves no
/// kernel) when the result's map is not the parallel loops or a tensor
/// has 2^31 elements or more.
FailureOr<LoweredKernel> lowerStructured(OpBuilder &b, tk::StructuredOp op,
                                         StringRef name);

/// Replaces `op`, a tk.unary, binary or map, with the tk.structured that
/// computes it (a generic of its payload, operands read through their
/// broadcasting maps): the kernel of an elementwise op whose dims do not
/// merge into the 3 of the tilings.
tk::StructuredOp elementwiseAsStructured(OpBuilder &b, Operation *op);

/// The largest power of two at most `cap` that divides `n`: the tile extent
/// the predefined tilings and the layout kernels take along a dim of `n`.
int64_t powerOfTwoTile(int64_t n, int64_t cap);

/// The multiple a block graph's lowering pads the `rows` of a product of
/// `columns` columns to when blocks do not split them. mma.sync m16n8k16 on
/// 2x2 warps (4, the tile code generator's default) takes multiples of 32
/// rows; rows that fit one m16 tile go on 1x4 warps instead when the
/// columns, padded to a power of two, are a multiple of 32
/// (FragmentLayout::mmaWarpGrid), so a decode step's 8 rows are padded to
/// 16, not 32, and no warp multiplies padding only.
int64_t mmaRowMultiple(int64_t rows, int64_t columns);

/// The rows such a product is computed in: a power of two, at least
/// mmaRowMultiple. The cost model counts tiles padded so.
int64_t mmaPaddedRows(int64_t rows, int64_t columns);

/// Replaces `func`, a function of tk ops, by tile kernels and a host
/// function of the same name that launches them on memref buffers: the
/// function's arguments (inputs), then its results and the tensors passed
/// between kernels (outputs, `tileopt.output`), in that order. Fails with
/// a diagnostic, leaving `func` as it was, when an op cannot be lowered.
LogicalResult lowerKernelGraph(func::FuncOp func);

} // namespace mlir::tileopt

#endif // TILEOPT_CONVERSION_TKTOTILE_TKTOTILE_H
