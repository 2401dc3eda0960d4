//===- Graphs.h - The search's own light µGraph representation --*- C++ -*-===//
//
// The search builds millions of partial graphs; building MLIR ops for each
// would dominate its time. It works on these plain structs instead and
// materializes only complete candidates as IR (Materialize.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_LIB_SUPEROPT_GRAPHS_H
#define TILEOPT_LIB_SUPEROPT_GRAPHS_H

#include "TileOpt/Dialect/Common/TileOptEnums.h"
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Superopt/AbstractExpr.h"

#include <array>
#include <memory>

namespace mlir::tileopt::superopt {

/// What a dim of a tensor or tile indexes: an axis of the input program (a
/// class of dims its ops equate), or one reduced to extent 1.
///
/// A kernel whose grid splits an axis the program reduces writes one partial
/// result per block along it (split-K, split-KV): such a dim also indexes
/// the `partials` chunks of axis `partialOf`, outermost (chunk c holds
/// elements c * extent / partials onwards). A kernel that reads it walks the
/// chunks with its for-loop and combines them with an accumulator.
struct AxisRef {
  int axis = -1;
  bool reduced = false;
  int partialOf = -1;
  int64_t partials = 1;
  bool operator==(const AxisRef &o) const {
    return axis == o.axis && reduced == o.reduced &&
           partialOf == o.partialOf && partials == o.partials;
  }
  bool operator!=(const AxisRef &o) const { return !(*this == o); }
};

/// A value's shape, axes and abstract expression.
struct ValueInfo {
  SmallVector<int64_t, 4> shape;
  SmallVector<AxisRef, 4> axes;
  const Expr *expr = nullptr;
  /// Partial results holding an exp shifted by a partial maximum
  /// (shiftedByPartialMax): the kernel combining them must rescale them.
  bool partialShift = false;
  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

/// Whether a value holds chunks of partial results (AxisRef::partialOf).
inline bool isPartial(const ValueInfo &v) {
  return llvm::any_of(v.axes, [](AxisRef a) { return a.partialOf >= 0; });
}

/// The ops both levels share: unary, binary, reduce, matmul, rms_norm, and
/// the program's own scalar functions (a tk.map; in a block graph, the
/// th.graph of its region).
enum class OpKind : uint8_t {
  Matmul,
  Unary,
  Binary,
  Reduce,
  RmsNorm,
  Accum,
  Map
};

struct OpDesc {
  OpKind kind;
  /// UnaryKind, BinaryKind, ReduceKind or tb::AccumKind; for an rms_norm,
  /// kAcrossGrid when it normalizes across the blocks of grid dim `dim`;
  /// for a map, its function (ExprContext::function, ProgramInfo::maps).
  int sub = 0;
  double scalar = 0;
  int64_t dim = 0;
  SmallVector<int, 2> operands;
};

/// OpDesc::sub of a grid-wide rms_norm (tb.rms_norm `across`).
constexpr int kAcrossGrid = 1;

struct BlockInput {
  int tensor; // the kernel input's index among the fused op's operands
  std::array<int64_t, 3> imap = {-1, -1, -1};
  int64_t fmap = -1;
};

struct BlockOutput {
  int tile;
  std::array<int64_t, 3> omap = {-1, -1, -1};
  int64_t fmap = -1;
  ValueInfo tensor;
};

/// A block graph: tiles 0..inputs-1 come from the input iterators, every op
/// defines the next tile.
struct BlockGraph {
  std::array<int64_t, 3> grid = {1, 1, 1};
  int64_t forloopRange = 1;
  SmallVector<BlockInput, 3> inputs;
  SmallVector<ValueInfo, 16> tiles;
  SmallVector<bool, 16> post; // after an accumulator
  SmallVector<OpDesc, 12> ops;
  SmallVector<BlockOutput, 2> outputs;
};

/// A kernel graph: tensors 0..arguments-1 are the program's arguments,
/// every op defines the next tensor(s).
/// Block graphs with the same outputs (their tensors' shapes, axes and
/// terms): the kernel-level search places them as one op, and the
/// candidates it completes stand for one graph per alternative.
using BlockGraphGroup = std::vector<BlockGraph>;

struct KernelOp {
  OpDesc op;                                   // a predefined kernel, or
  std::shared_ptr<const BlockGraphGroup> graphs; // a tk.fused
  SmallVector<int, 2> results;
};

struct KernelGraph {
  SmallVector<ValueInfo, 16> tensors;
  SmallVector<KernelOp, 8> ops;
  SmallVector<int, 2> outputs;
};

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_LIB_SUPEROPT_GRAPHS_H
