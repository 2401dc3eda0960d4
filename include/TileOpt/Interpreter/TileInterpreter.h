//===- TileInterpreter.h - Reference semantics of tile programs -*- C++ -*-===//
//
// Runs tile.kernel programs on the CPU, in float32 or float64: every block of
// a grid, in order, each running the kernel body with its own block
// coordinates. It is the reference the code generator's GPU results are
// compared with, the way the kernel-graph interpreter is for tk/tb/th.
// docs/interpreter.md states the semantics op by op.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_INTERPRETER_TILEINTERPRETER_H
#define TILEOPT_INTERPRETER_TILEINTERPRETER_H

#include "TileOpt/Interpreter/Interpreter.h"

namespace mlir::tileopt::tile {
class KernelOp;
} // namespace mlir::tileopt::tile

namespace mlir::tileopt::interp {

/// Runs `kernel` once per block of `grid` (x, y, z extents), x fastest.
/// `buffers` holds one tensor per argument of the kernel, all of which must
/// be tensor views: the view's data, row-major, whose shape gives the
/// view's sizes (its `?` dims included). Loads read and stores write these
/// tensors in place. What the interpreter cannot run — a scalar argument, a
/// buffer that does not fit its view, an op it does not know — is a
/// diagnostic at the kernel or the op, and the call fails.
template <typename Domain>
LogicalResult interpretKernel(tile::KernelOp kernel, ArrayRef<int64_t> grid,
                              ArrayRef<TensorOf<Domain> *> buffers,
                              Domain &domain);

/// Whether `func` is a host function: its body launches tile kernels.
bool isTileHost(func::FuncOp func);

/// The buffers of a host function: its memref arguments, outputs (with the
/// unit attribute `tileopt.output`), constants (with `tileopt.constant`
/// values) and inputs, each with its static shape; scratch (with
/// `tileopt.scratch`) is in none of the lists.
struct HostBuffers {
  SmallVector<unsigned> inputs, outputs, constants;
  SmallVector<SmallVector<int64_t, 4>> shapes; // one per argument
  SmallVector<SmallVector<int64_t, 4>> inputShapes() const;
};
FailureOr<HostBuffers> getHostBuffers(func::FuncOp host);

/// Runs the tile.launch ops of `host` in order on `inputs` (one tensor per
/// input argument, in argument order; constant buffers hold their
/// `tileopt.constant` values) and returns the output arguments' final
/// contents. Outputs start as NaN, as tileopt-run poisons them on the
/// GPU: an element no block writes reads NaN.
template <typename Domain>
FailureOr<SmallVector<TensorOf<Domain>>>
interpretHost(func::FuncOp host, ArrayRef<TensorOf<Domain>> inputs,
              Domain &domain);

} // namespace mlir::tileopt::interp

#endif // TILEOPT_INTERPRETER_TILEINTERPRETER_H
