//===- BlockGraphToTile.cpp - A tb block graph as a tile kernel -----------===//
//
// A block graph says what one block computes in every iteration of the
// kernel's for-loop and what it keeps across them; a tile kernel says the
// same with an explicit scf.for. Each tb value becomes one tile:
//
// - values that do not change between iterations (tiles an input iterator
//   reads with fmap -1, and what is computed from them alone) are computed
//   once, before the loop;
// - per-iteration values are computed in the loop body;
// - each reducing accumulator is a value the loop carries (two for
//   sum_rescale: the sum and the running maximum), and what follows it is
//   computed after the loop.
//
// Tiles of 16-bit floats are computed on in f32 (as the hand-written tile
// kernels do) and rounded back to the tensor's type where they are stored
// or multiplied on tensor cores; constants keep the precision of the block
// graph's element type, so the tile program computes exactly what the
// block graph means (docs/lowering.md).
//
// A dim that every block reads and writes whole (no grid dim with more
// than one block and no loop walks it) may be computed padded: the load
// reads zeros past the tensor's end and the store drops what lies there.
// Such dims are padded to a power of two, and to what mma.sync needs of M,
// N and K on the tile code generator's default 4 warps. A reduction or a
// product's K may run along one only where what it combines is zero in
// the padding (loaded, or computed from loaded values by ops that keep
// zeros) and adds up: sums, means and rms_norms (which divide by the
// unpadded count), and products of a K over 1 whose operands are both zero
// there; a row of 1536 is normalized as 2048 (TileDims).
//
// Leading unit dims of a tile are dropped down to rank 2 ([1, 64, 64] is
// computed as [64, 64]): numpy broadcasting aligns trailing dims, so the
// elementwise ops do not see the difference, and the tile code generator
// multiplies rank-2 tiles only.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Conversion/TKToTile/TKToTile.h"

#include "TileOpt/Dialect/Common/DimRelations.h"
#include "TileOpt/Dialect/Common/ElementwiseBuilder.h"
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Target/Target.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// The latency hint on the tiles a loop walks: for tile.mma operands three
/// cp.async stages, as examples/tile/gemm.mlir measured best; for the other
/// loads two iterations ahead in registers (tileopt-pipeline-tile-loads,
/// within its register budget), without which a loop that does little per
/// tile (a split-KV combine) waits a DRAM round trip per iteration. 8
/// measured no better for the combines (docs/performance.md).
constexpr int32_t kLoopLoadLatency = 3;

/// The shape a tb tile is computed in: its shape without leading unit dims,
/// down to rank 2.
SmallVector<int64_t> computedShape(ArrayRef<int64_t> shape) {
  while (shape.size() > 2 && shape.front() == 1)
    shape = shape.drop_front();
  return SmallVector<int64_t>(shape);
}

/// The float type arithmetic on tiles of `type` is done in: f32 for 16-bit
/// floats, the type itself otherwise.
FloatType arithmeticType(FloatType type) {
  if (type.getWidth() < 32)
    return Float32Type::get(type.getContext());
  return type;
}

/// Where a tb value is computed.
enum class Stage {
  /// Once, before the loop: the same in every iteration.
  Invariant,
  /// In the loop body.
  PerIteration,
  /// After the loop, from accumulated values.
  Accumulated,
};

/// How each tile dim of a block graph is computed. Tile dims that the
/// graph's ops equate (operands and results of elementwise ops and
/// accumulators, the M, N and batch dims of a product, the dims a
/// reduction keeps) form one axis. An axis whose dims are all whole in
/// memory is free, and padded, unless something combines its elements in
/// a way that the padding would change (zeroPast). An axis with a product's
/// batch dim along which nothing is reduced or contracted is split over a grid
/// dim the block graph leaves unused (one batch element per block: the tile
/// code generator multiplies rank-2 tiles), whether or not blocks or
/// iterations also take parts of it: a split-KV kernel lays its chunks out
/// along the batch dim.
class TileDims {
public:
  explicit TileDims(tk::FusedOp fused);

  /// The shape `tbValue` is computed in, at its own rank.
  SmallVector<int64_t> paddedShape(Value tbValue) const;

  /// The grid dim that walks the elements of dim `dim` of `tbValue`, if its
  /// axis is split.
  std::optional<int64_t> splitGridDim(Value tbValue, int64_t dim) const {
    if (splitAxis && axisOf(tbValue, dim) == *splitAxis)
      return splitGrid;
    return std::nullopt;
  }
  /// The split axis's extent in the block graph's tiles.
  int64_t splitExtent() const { return grid[splitGrid]; }

  /// The kernel's grid: the block graph's, with the split axis's blocks.
  SmallVector<int64_t> grid;

private:
  using Dim = std::pair<Value, unsigned>;
  void fixMapped(Value tile, ArrayRef<int64_t> gridMap, int64_t fmap,
                 tk::FusedOp fused);
  void fixBroadcastDims(Operation &op);
  /// Marks the axis of `tile`'s dim `dim` as one whose elements meet: not
  /// split, and not padded unless `paddable` (the padding adds nothing).
  void combine(Value tile, int64_t dim, bool paddable) {
    if (!paddable)
      fixed.insert(axisOf(tile, dim));
    combined.insert(axisOf(tile, dim));
  }
  /// Whether `tile`'s elements past the end of dim `dim` would be zeros if
  /// that dim were padded: loads read zeros there, and the ops that map
  /// zeros to zeros keep them.
  bool zeroPast(Value tile, int64_t dim) const;
  Dim axisOf(Value v, int64_t dim) const {
    return axes.getLeaderValue({v, static_cast<unsigned>(dim)});
  }

  void splitBatchAxis(tk::FusedOp fused);

  llvm::EquivalenceClasses<Dim> axes;
  /// Leaders of the axes that are not free, of those along which elements
  /// meet, and the multiple each free axis must be padded to.
  DenseSet<Dim> fixed, combined;
  DenseMap<Dim, int64_t> multiples;
  /// The axis split over the grid, and the grid dim that splits it.
  std::optional<Dim> splitAxis;
  int64_t splitGrid = -1;
};

class BlockGraphLowering {
public:
  /// `inputViews[i]` is the view argument input `i` of `fused` reads.
  BlockGraphLowering(tk::FusedOp fused, tile::KernelOp kernel,
                     ArrayRef<unsigned> inputViews)
      : fused(fused), kernel(kernel), inputViews(inputViews), dims(fused),
        b(kernel.getContext()) {}

  LogicalResult run();
  ArrayRef<int64_t> grid() const { return dims.grid; }

private:
  // Checks before anything is built.
  LogicalResult checkTile(Operation *op, Value tbValue);
  LogicalResult checkSupported();

  // Building blocks.
  Value blockId(int64_t gridDim);
  Value indexConstant(int64_t value);
  Value splat(ArrayRef<int64_t> shape, Type elementType, double value);
  SmallVector<Value> tileIndices(Value tile, ArrayRef<int64_t> gridMap,
                                 int64_t fmap);
  Value as(Value tbValue, Type elementType);
  Value arithmetic(Value tbValue) {
    return as(tbValue, arithmeticType(elementTypeOf(tbValue)));
  }
  Value broadcastTo(Value tile, ArrayRef<int64_t> shape);
  Value reshape(Value tile, ArrayRef<int64_t> shape);
  Value reduceDim(Value tile, int64_t dim, tile::CombineKind kind);
  Value divideBy(Value tile, int64_t count);
  Value multiply(Value lhs, Value rhs, Value acc);

  static FloatType elementTypeOf(Value tbValue) {
    return cast<FloatType>(
        cast<ShapedType>(tbValue.getType()).getElementType());
  }
  RankedTensorType tileTypeOf(Value tbValue) {
    return RankedTensorType::get(computedShape(dims.paddedShape(tbValue)),
                                 arithmeticType(elementTypeOf(tbValue)));
  }

  // The ops.
  void placeFor(Stage stage);
  void lower(Operation *op);
  void lowerIterator(tb::InputIteratorOp it);
  void lowerSaver(tb::OutputSaverOp saver);
  void lowerMatmul(tb::MatmulOp mm);
  void lowerReduce(tb::ReduceOp reduce);
  void lowerRmsNorm(tb::RmsNormOp norm);
  void lowerThreadGraph(th::GraphOp graph);
  void lowerAccumulator(tb::ForloopAccumOp acc);
  /// How sum_rescale accumulators rescale in one iteration: the factor of
  /// the sums so far, exp(m - m'), and of the new terms, exp(s - m').
  struct Rescaling {
    Value oldFactor, newFactor;
  };
  const Rescaling &rescale(Value scale);

  tk::FusedOp fused;
  tile::KernelOp kernel;
  ArrayRef<unsigned> inputViews;
  TileDims dims;
  OpBuilder b;
  Location loc = fused.getLoc();
  Block *entry = nullptr;
  scf::ForOp loop;
  tile::ReturnOp ret;
  /// The tile of each tb value, and its conversions to other element types.
  DenseMap<Value, Value> tiles;
  DenseMap<std::pair<Value, Type>, Value> converted;
  DenseMap<Value, Stage> stages;
  /// The loop-carried value of each reducing accumulator and of the
  /// running maximum of each sum_rescale scale, and what the loop yields
  /// for each.
  DenseMap<Operation *, unsigned> carried;
  DenseMap<Value, unsigned> carriedMaximum;
  DenseMap<Value, Rescaling> rescalings;
  SmallVector<Value> yielded;
  std::array<Value, 3> blockIds;
  DenseMap<int64_t, Value> indexConstants;
};

} // namespace

//===----------------------------------------------------------------------===//
// Padding
//===----------------------------------------------------------------------===//

/// What mma.sync m16n8k16 on the tile code generator's default 4 warps
/// needs: on 2x2 warps, M a multiple of kMmaRowsOnSquareWarps and N of
/// kMmaColumns; on 1x4 warps (FragmentLayout::mmaWarpGrid), M a multiple of
/// kMmaTileRows and N of kMmaColumnsSideBySide.
static constexpr int64_t kMmaTileRows = target::kMmaSyncM,
                         kMmaRowsOnSquareWarps = 2 * target::kMmaSyncM,
                         kMmaColumns = 2 * target::kMmaSyncN,
                         kMmaColumnsSideBySide = 4 * target::kMmaSyncN,
                         kMmaDepth = target::kMmaSyncK;

int64_t tileopt::mmaRowMultiple(int64_t rows, int64_t columns) {
  bool sideBySide = rows <= kMmaTileRows &&
                    llvm::PowerOf2Ceil(columns) % kMmaColumnsSideBySide == 0;
  return sideBySide ? kMmaTileRows : kMmaRowsOnSquareWarps;
}

int64_t tileopt::mmaPaddedRows(int64_t rows, int64_t columns) {
  return std::max<int64_t>(llvm::PowerOf2Ceil(rows),
                           mmaRowMultiple(rows, columns));
}

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

/// Fixes the dims of `tile` that blocks or iterations take parts of.
void TileDims::fixMapped(Value tile, ArrayRef<int64_t> gridMap, int64_t fmap,
                         tk::FusedOp fused) {
  for (auto [gridDim, tensorDim] : llvm::enumerate(gridMap))
    if (tensorDim != -1 && fused.getGridDims()[gridDim] > 1)
      fixed.insert(axisOf(tile, tensorDim));
  if (fmap != -1 && fused.getForloopRange() > 1)
    fixed.insert(axisOf(tile, fmap));
}

/// Fixes the size-1 dims that elementwise `op` broadcasts against larger
/// ones: a padded one would be combined row by row, its padding read as
/// rows of their own, where every row must see its one element (a 1-row
/// product, padded to the 16 rows mma.sync needs, added to a 32-row tile
/// gave rows 1-31 the padding's 0 / 0: seed 17's program 2509).
void TileDims::fixBroadcastDims(Operation &op) {
  for (Value result : op.getResults()) {
    ArrayRef<int64_t> resultShape = shapeOf(result);
    for (Value operand : op.getOperands()) {
      ArrayRef<int64_t> shape = shapeOf(operand);
      int64_t offset = resultShape.size() - shape.size();
      for (auto [dim, size] : llvm::enumerate(shape))
        if (size == 1 && resultShape[offset + dim] > 1)
          fixed.insert(axisOf(operand, dim));
    }
  }
}

/// Whether `operand` of an elementwise op whose result is `result` has
/// `result`'s dim `dim` (numpy broadcasting aligns trailing dims; a size-1
/// dim broadcast against a larger one does not have it).
static std::optional<int64_t> operandDim(Value operand, Value result,
                                         int64_t dim) {
  ArrayRef<int64_t> shape = shapeOf(operand);
  int64_t at = dim - (shapeOf(result).size() - shape.size());
  if (at < 0 || shape[at] != shapeOf(result)[dim])
    return std::nullopt;
  return at;
}

static bool mapsZeroToZero(UnaryKind kind) {
  switch (kind) {
  case UnaryKind::silu:
  case UnaryKind::gelu:
  case UnaryKind::relu:
  case UnaryKind::sqrt:
  case UnaryKind::square:
  case UnaryKind::neg:
  case UnaryKind::mul_scalar:
    return true;
  case UnaryKind::exp:
  case UnaryKind::rsqrt:
  case UnaryKind::add_scalar:
  case UnaryKind::sigmoid:
    return false;
  }
  llvm_unreachable("unknown unary kind");
}

bool TileDims::zeroPast(Value tile, int64_t dim) const {
  Operation *def = tile.getDefiningOp();
  if (!def)
    return false;
  auto operandZeroPast = [&](Value operand) {
    std::optional<int64_t> at = operandDim(operand, tile, dim);
    return at && zeroPast(operand, *at);
  };
  return llvm::TypeSwitch<Operation *, bool>(def)
      .Case([](tb::InputIteratorOp) { return true; })
      .Case([&](tb::UnaryOp op) {
        return mapsZeroToZero(op.getKind()) && zeroPast(op.getInput(), dim);
      })
      .Case([&](tb::BinaryOp op) {
        Value lhs = op.getLhs(), rhs = op.getRhs();
        bool lhsHas = operandDim(lhs, tile, dim).has_value();
        bool rhsHas = operandDim(rhs, tile, dim).has_value();
        switch (op.getKind()) {
        case BinaryKind::add:
        case BinaryKind::sub:
          return operandZeroPast(lhs) && operandZeroPast(rhs);
        case BinaryKind::mul:
          // Zero times a value broadcast along the dim is zero.
          return (lhsHas || rhsHas) && (!lhsHas || operandZeroPast(lhs)) &&
                 (!rhsHas || operandZeroPast(rhs));
        case BinaryKind::div:
          return operandZeroPast(lhs) && !rhsHas;
        case BinaryKind::pow:
          return false;
        }
        llvm_unreachable("unknown binary kind");
      })
      .Case([&](tb::MatmulOp op) {
        int64_t rank = shapeOf(tile).size();
        if (dim == rank - 2)
          return zeroPast(op.getLhs(), dim);
        if (dim == rank - 1)
          return zeroPast(op.getRhs(), dim);
        return false;
      })
      .Case([&](tb::ReduceOp op) {
        return dim != op.getDimAttr().getInt() && zeroPast(op.getInput(), dim);
      })
      .Case([&](tb::RmsNormOp op) {
        // A padded row of zeros normalizes to 0 / sqrt(epsilon): zero only
        // with an epsilon. Along the row, each zero is scaled.
        bool alongRow = dim == static_cast<int64_t>(shapeOf(tile).size()) - 1;
        return (alongRow || op.getEpsilon().convertToDouble() > 0) &&
               zeroPast(op.getInput(), dim);
      })
      .Case([&](tb::ForloopAccumOp op) { return zeroPast(op.getInput(), dim); })
      .Default([](Operation *) { return false; });
}

TileDims::TileDims(tk::FusedOp fused) {
  Block &graph = fused.getBody().front();
  for (Operation &op : graph.without_terminator())
    for (Value v : llvm::concat<Value>(op.getOperands(), op.getResults()))
      if (isa<tb::TileType>(v.getType()))
        for (unsigned d = 0, e = shapeOf(v).size(); d < e; ++d)
          axes.insert({v, d});
  // Equate dims first: an axis's leader changes while sets merge. A size-1
  // dim broadcast against a larger one is another axis (DimRelations.h).
  auto equate = [&](Value a, int64_t da, Value b, int64_t db) {
    axes.unionSets({a, static_cast<unsigned>(da)},
                   {b, static_cast<unsigned>(db)});
  };
  for (Operation &op : graph.without_terminator()) {
    if (auto mm = dyn_cast<tb::MatmulOp>(op)) {
      equateMatmulDims(mm.getLhs(), mm.getRhs(), mm.getResult(), equate);
    } else if (auto reduce = dyn_cast<tb::ReduceOp>(op)) {
      for (unsigned d = 0, e = shapeOf(reduce.getInput()).size(); d < e; ++d)
        if (d != reduce.getDimAttr().getInt())
          axes.unionSets({reduce.getInput(), d}, {reduce.getResult(), d});
    } else if (isa<tb::UnaryOp, tb::BinaryOp, tb::RmsNormOp, th::GraphOp,
                   tb::ForloopAccumOp>(op)) {
      for (Value result : op.getResults())
        for (Value operand : op.getOperands())
          equateBroadcastDims(operand, result, equate);
    }
  }
  for (Operation &op : graph.without_terminator()) {
    if (isa<tb::BinaryOp, th::GraphOp>(op))
      fixBroadcastDims(op);
    if (auto it = dyn_cast<tb::InputIteratorOp>(op)) {
      fixMapped(it.getResult(), it.getImap(), it.getFmapAttr().getInt(), fused);
    } else if (auto saver = dyn_cast<tb::OutputSaverOp>(op)) {
      fixMapped(saver.getInput(), saver.getOmap(),
                saver.getFmapAttr() ? saver.getFmapAttr().getInt() : -1, fused);
    } else if (auto mm = dyn_cast<tb::MatmulOp>(op)) {
      // Padding K adds the products of what the padding holds. A K of 1
      // stays: a dim of 1 broadcasts wherever else the tile is used.
      int64_t rank = shapeOf(mm.getResult()).size();
      combine(mm.getLhs(), rank - 1,
              shapeOf(mm.getLhs())[rank - 1] > 1 &&
                  zeroPast(mm.getLhs(), rank - 1) &&
                  zeroPast(mm.getRhs(), rank - 2));
      int64_t &depth = multiples[axisOf(mm.getLhs(), rank - 1)];
      depth = std::max(depth, kMmaDepth);
      int64_t &columns = multiples[axisOf(mm.getRhs(), rank - 1)];
      columns = std::max(columns, kMmaColumns);
    } else if (auto reduce = dyn_cast<tb::ReduceOp>(op)) {
      // A maximum would see the padding, and groups would shift over it.
      int64_t dim = reduce.getDimAttr().getInt();
      combine(reduce.getInput(), dim,
              reduce.getKind() != ReduceKind::max && !reduce.getToAttr() &&
                  zeroPast(reduce.getInput(), dim));
    } else if (auto norm = dyn_cast<tb::RmsNormOp>(op)) {
      int64_t last = shapeOf(norm.getInput()).size() - 1;
      combine(norm.getInput(), last, zeroPast(norm.getInput(), last));
    } else if (isa<tb::ConcatOp>(op)) {
      for (Value v : llvm::concat<Value>(op.getOperands(), op.getResults()))
        for (int64_t d = 0, e = shapeOf(v).size(); d < e; ++d)
          combine(v, d, /*paddable=*/false);
    }
  }
  // M that cannot be padded to a multiple of 32 (blocks take parts of it)
  // puts the warps side by side, 1x4, which needs N a multiple of 32. Then,
  // with every N's multiple known, a free M takes the multiple its
  // products' N allow (mmaRowMultiple), the most any of them needs.
  auto matmuls = graph.getOps<tb::MatmulOp>();
  for (auto mm : matmuls) {
    int64_t rank = shapeOf(mm.getResult()).size();
    if (fixed.contains(axisOf(mm.getLhs(), rank - 2)) &&
        shapeOf(mm.getLhs())[rank - 2] % kMmaRowsOnSquareWarps) {
      int64_t &columns = multiples[axisOf(mm.getRhs(), rank - 1)];
      columns = std::max(columns, kMmaColumnsSideBySide);
    }
  }
  for (auto mm : matmuls) {
    int64_t rank = shapeOf(mm.getResult()).size();
    Dim rows = axisOf(mm.getLhs(), rank - 2);
    if (fixed.contains(rows))
      continue;
    int64_t &multiple = multiples[rows];
    multiple =
        std::max(multiple, mmaRowMultiple(shapeOf(mm.getLhs())[rank - 2],
                                          paddedShape(mm.getRhs())[rank - 1]));
  }
  splitBatchAxis(fused);
}

/// Splits the first axis with a product's batch dim of more than one
/// element, along which no elements meet, over the last grid dim that has
/// one block and that no iterator or saver maps.
void TileDims::splitBatchAxis(tk::FusedOp fused) {
  grid.assign(fused.getGridDims().begin(), fused.getGridDims().end());
  Block &graph = fused.getBody().front();
  for (int64_t g = grid.size() - 1; g >= 0 && splitGrid == -1; --g) {
    bool unused = grid[g] == 1;
    for (Operation &op : graph) {
      ArrayRef<int64_t> map;
      if (auto it = dyn_cast<tb::InputIteratorOp>(op))
        map = it.getImap();
      if (auto saver = dyn_cast<tb::OutputSaverOp>(op))
        map = saver.getOmap();
      unused &= map.empty() || map[g] == -1;
    }
    if (unused)
      splitGrid = g;
  }
  if (splitGrid == -1)
    return;
  for (auto mm : graph.getOps<tb::MatmulOp>()) {
    ArrayRef<int64_t> shape = shapeOf(mm.getResult());
    for (int64_t d = 0, e = shape.size() - 2; d < e; ++d) {
      Dim axis = axisOf(mm.getResult(), d);
      if (shape[d] == 1 || combined.contains(axis))
        continue;
      splitAxis = axis;
      grid[splitGrid] = shape[d];
      return;
    }
  }
}

/// A dim of the split axis is one element per block; a free dim is padded
/// to a power of two, and to the multiple a product needs; other dims keep
/// their size.
SmallVector<int64_t> TileDims::paddedShape(Value tbValue) const {
  SmallVector<int64_t> shape(shapeOf(tbValue));
  for (auto [dim, size] : llvm::enumerate(shape)) {
    Dim axis = axisOf(tbValue, dim);
    if (axis == splitAxis) {
      size = 1;
      continue;
    }
    if (fixed.contains(axis))
      continue;
    int64_t padded = llvm::PowerOf2Ceil(size);
    if (int64_t multiple = multiples.lookup(axis);
        multiple && padded % multiple != 0)
      padded = std::max(padded, multiple);
    size = padded;
  }
  return shape;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

LogicalResult BlockGraphLowering::checkTile(Operation *op, Value tbValue) {
  auto type = dyn_cast<tb::TileType>(tbValue.getType());
  if (!type)
    return success();
  if (!isa<FloatType>(type.getElementType()))
    return op->emitOpError("has tiles of ")
           << type.getElementType()
           << "; the lowering to tile programs takes float tiles";
  for (auto [dim, size] : llvm::enumerate(dims.paddedShape(tbValue)))
    if (!llvm::isPowerOf2_64(size))
      return op->emitOpError("has tile ")
             << type << " whose dim " << dim << " (" << size
             << ") is not a power of two; tile programs need power-of-two "
                "tiles (only dims that blocks take whole can be padded)";
  return success();
}

LogicalResult BlockGraphLowering::checkSupported() {
  for (Operation &op : fused.getBody().front().without_terminator()) {
    for (Value v : llvm::concat<Value>(op.getOperands(), op.getResults()))
      if (failed(checkTile(&op, v)))
        return failure();
    if (isa<tb::ConcatOp>(op))
      return op.emitOpError("has no tile form yet: tile programs have no "
                            "concatenation of tiles");
    if (!isa<tb::InputIteratorOp, tb::OutputSaverOp, tb::ForloopAccumOp,
             tb::MatmulOp, tb::UnaryOp, tb::BinaryOp, tb::ReduceOp,
             tb::RmsNormOp, th::GraphOp>(op))
      return op.emitOpError("has no tile form");
    if (auto graph = dyn_cast<th::GraphOp>(op)) {
      for (Operation &scalar : graph.getBody().front().without_terminator()) {
        bool elementwise =
            scalar.hasTrait<OpTrait::Elementwise>() &&
            isa<arith::ArithDialect, math::MathDialect>(scalar.getDialect());
        if (!elementwise && !isa<arith::ConstantOp>(scalar))
          return scalar.emitOpError(
              "in a thread graph has no elementwise tile form (arith and "
              "math elementwise ops and constants have)");
      }
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

Value BlockGraphLowering::blockId(int64_t gridDim) {
  Value &id = blockIds[gridDim];
  if (!id) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(entry);
    id = tile::BlockIdOp::create(b, loc, static_cast<tile::GridDim>(gridDim));
  }
  return id;
}

Value BlockGraphLowering::indexConstant(int64_t value) {
  Value &c = indexConstants[value];
  if (!c) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(entry);
    c = arith::ConstantIndexOp::create(b, loc, value);
  }
  return c;
}

Value BlockGraphLowering::splat(ArrayRef<int64_t> shape, Type elementType,
                                double value) {
  // Constants are built once, at the top of the kernel.
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(entry);
  auto type = RankedTensorType::get(shape, elementType);
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getFloatAttr(elementType, value)));
}

/// The tile-space index of a block's (and iteration's) `tile`: grid dim g
/// moves along tensor dim gridMap[g], the loop along `fmap`, one tile per
/// step, and the splitting grid dim along the split axis; the other dims
/// are whole (index 0).
SmallVector<Value> BlockGraphLowering::tileIndices(Value tile,
                                                   ArrayRef<int64_t> gridMap,
                                                   int64_t fmap) {
  int64_t rank = shapeOf(tile).size();
  SmallVector<Value> indices(rank, indexConstant(0));
  for (auto [gridDim, tensorDim] : llvm::enumerate(gridMap))
    if (tensorDim != -1)
      indices[tensorDim] = blockId(gridDim);
  if (fmap != -1)
    indices[fmap] = loop.getInductionVar();
  // A split dim's tiles hold one element: a block's element of the tile
  // that the grid or the loop picks.
  for (int64_t dim = 0; dim < rank; ++dim)
    if (std::optional<int64_t> gridDim = dims.splitGridDim(tile, dim)) {
      Value element = blockId(*gridDim);
      if (matchPattern(indices[dim], m_Zero()))
        indices[dim] = element;
      else
        indices[dim] = arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc, indices[dim],
                                  indexConstant(dims.splitExtent())),
            element);
    }
  return indices;
}

/// The tile of `tbValue` with elements of `elementType`, converted right
/// after its definition (so that it dominates every use) and only once.
Value BlockGraphLowering::as(Value tbValue, Type elementType) {
  Value tile = tiles.lookup(tbValue);
  auto type = cast<RankedTensorType>(tile.getType());
  if (type.getElementType() == elementType)
    return tile;
  Value &conversion = converted[{tbValue, elementType}];
  if (!conversion) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(tile);
    auto target = type.clone(elementType);
    if (cast<FloatType>(elementType).getWidth() >
        cast<FloatType>(type.getElementType()).getWidth())
      conversion = arith::ExtFOp::create(b, loc, target, tile);
    else
      conversion = arith::TruncFOp::create(b, loc, target, tile);
  }
  return conversion;
}

Value BlockGraphLowering::reshape(Value tile, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(tile.getType());
  if (type.getShape() == shape)
    return tile;
  return tile::ReshapeOp::create(b, loc, type.clone(shape), tile);
}

/// `tile` broadcast (numpy rules: trailing dims aligned) to `shape`.
Value BlockGraphLowering::broadcastTo(Value tile, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(tile.getType());
  SmallVector<int64_t> aligned(shape.size() - type.getRank(), 1);
  llvm::append_range(aligned, type.getShape());
  tile = reshape(tile, aligned);
  if (ArrayRef<int64_t>(aligned) == shape)
    return tile;
  return tile::BroadcastOp::create(b, loc, type.clone(shape), tile);
}

/// Combines `tile` along `dim`, which the result drops (a vector keeps one
/// element). The tile code generator reduces the last dim only, so another
/// dim is permuted there first.
Value BlockGraphLowering::reduceDim(Value tile, int64_t dim,
                                    tile::CombineKind kind) {
  auto type = cast<RankedTensorType>(tile.getType());
  // A vector is reduced as one row, into a tile of one element: the code
  // generator takes no rank-0 tiles.
  if (type.getRank() == 1) {
    tile = reshape(tile, {1, type.getDimSize(0)});
    type = cast<RankedTensorType>(tile.getType());
    dim = 1;
  }
  int64_t last = type.getRank() - 1;
  if (dim != last) {
    SmallVector<int64_t> permutation;
    for (int64_t d = 0; d <= last; ++d)
      if (d != dim)
        permutation.push_back(d);
    permutation.push_back(dim);
    SmallVector<int64_t> permuted;
    for (int64_t d : permutation)
      permuted.push_back(type.getDimSize(d));
    tile = tile::PermuteOp::create(b, loc, type.clone(permuted), tile,
                                   b.getDenseI64ArrayAttr(permutation));
    type = cast<RankedTensorType>(tile.getType());
  }
  return tile::ReduceOp::create(b, loc, type.clone(type.getShape().drop_back()),
                                kind, tile, last);
}

/// `tile / count`: a division rather than a product with 1/count, which
/// the tile's float type would round where the block graph's 1/n is exact
/// or rounded differently.
Value BlockGraphLowering::divideBy(Value tile, int64_t count) {
  if (count == 1)
    return tile;
  auto type = cast<RankedTensorType>(tile.getType());
  return arith::DivFOp::create(b, loc, tile,
                               splat(type.getShape(), type.getElementType(),
                                     static_cast<double>(count)));
}

/// `acc + lhs @ rhs` on tensor cores, lhs and rhs the tb values, acc a
/// tile of their product's shape.
Value BlockGraphLowering::multiply(Value lhs, Value rhs, Value acc) {
  // tile.mma takes the operands in their storage type.
  return tile::MmaOp::create(b, loc, as(lhs, elementTypeOf(lhs)),
                             as(rhs, elementTypeOf(rhs)), acc);
}

//===----------------------------------------------------------------------===//
// The ops
//===----------------------------------------------------------------------===//

void BlockGraphLowering::placeFor(Stage stage) {
  switch (stage) {
  case Stage::Invariant:
    b.setInsertionPoint(loop);
    return;
  case Stage::PerIteration:
    b.setInsertionPointToEnd(loop.getBody());
    return;
  case Stage::Accumulated:
    b.setInsertionPoint(ret);
    return;
  }
}

void BlockGraphLowering::lowerIterator(tb::InputIteratorOp it) {
  auto input = cast<BlockArgument>(it.getInput());
  Value view = entry->getArgument(inputViews[input.getArgNumber()]);
  tb::TileType type = it.getResult().getType();
  SmallVector<Value> indices =
      tileIndices(it.getResult(), it.getImap(), it.getFmapAttr().getInt());
  IntegerAttr latency;
  if (it.getFmapAttr().getInt() != -1)
    latency = b.getI32IntegerAttr(kLoopLoadLatency);
  SmallVector<int64_t> shape = dims.paddedShape(it.getResult());
  tile::PaddingModeAttr zeros;
  if (llvm::any_of(llvm::zip(shape, type.getShape()), [](auto sizes) {
        return std::get<0>(sizes) > std::get<1>(sizes);
      }))
    zeros = tile::PaddingModeAttr::get(b.getContext(), tile::PaddingMode::zero);
  auto tileType = RankedTensorType::get(shape, type.getElementType());
  Value tile;
  if (tk::TransposeOp transpose =
          transposeReadThrough(fused.getInputs()[input.getArgNumber()])) {
    // Dim i of the transposed tile is dim permutation[i] of the source's.
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    SmallVector<int64_t> sourceShape(shape.size());
    SmallVector<Value> sourceIndices(indices.size());
    for (auto [i, p] : llvm::enumerate(permutation)) {
      sourceShape[p] = shape[i];
      sourceIndices[p] = indices[i];
    }
    Value source = tile::LoadOp::create(
        b, loc, tileType.clone(sourceShape), view, sourceIndices, latency,
        /*allow_tma=*/nullptr, zeros);
    // Permuted after the leading unit dims it keeps in place are dropped,
    // so that a tile.mma sees the permute of its operand itself (and reads
    // the source's layout: tile.mma's rhs_transposed).
    SmallVector<int64_t> computed = computedShape(sourceShape);
    int64_t dropped = sourceShape.size() - computed.size();
    if (llvm::equal(ArrayRef(permutation).take_front(dropped),
                    llvm::seq<int64_t>(0, dropped))) {
      SmallVector<int64_t> kept, permuted;
      for (int64_t p : ArrayRef(permutation).drop_front(dropped)) {
        kept.push_back(p - dropped);
        permuted.push_back(computed[p - dropped]);
      }
      tile = tile::PermuteOp::create(b, loc, tileType.clone(permuted),
                                     reshape(source, computed),
                                     b.getDenseI64ArrayAttr(kept));
    } else {
      tile = tile::PermuteOp::create(b, loc, tileType, source,
                                     b.getDenseI64ArrayAttr(permutation));
    }
  } else {
    tile = tile::LoadOp::create(b, loc, tileType, view, indices, latency,
                                /*allow_tma=*/nullptr, zeros);
  }
  tiles[it.getResult()] = reshape(tile, computedShape(shape));
}

void BlockGraphLowering::lowerSaver(tb::OutputSaverOp saver) {
  auto type = cast<RankedTensorType>(saver.getResult().getType());
  Value tile = as(saver.getInput(), type.getElementType());
  tile = reshape(tile, dims.paddedShape(saver.getInput()));
  SmallVector<Value> indices =
      tileIndices(saver.getInput(), saver.getOmap(),
                  saver.getFmapAttr() ? saver.getFmapAttr().getInt() : -1);
  auto yield = cast<tb::YieldOp>(fused.getBody().front().getTerminator());
  unsigned numReads = entry->getNumArguments() - yield.getValues().size();
  for (auto [i, value] : llvm::enumerate(yield.getValues()))
    if (value == saver.getResult())
      tile::StoreOp::create(b, loc, tile, entry->getArgument(numReads + i),
                            indices, /*latency=*/nullptr,
                            /*allow_tma=*/nullptr);
}

void BlockGraphLowering::lowerMatmul(tb::MatmulOp mm) {
  if (isFusedIntoAccumulator(mm))
    return;
  RankedTensorType type = tileTypeOf(mm.getResult());
  Value zero = splat(type.getShape(), type.getElementType(), 0.0);
  tiles[mm.getResult()] = multiply(mm.getLhs(), mm.getRhs(), zero);
}

void BlockGraphLowering::lowerReduce(tb::ReduceOp reduce) {
  SmallVector<int64_t> shape = dims.paddedShape(reduce.getInput());
  RankedTensorType resultType = tileTypeOf(reduce.getResult());
  Value input = arithmetic(reduce.getInput());
  int64_t dropped = shape.size() - computedShape(shape).size();
  int64_t dim = reduce.getDimAttr().getInt();
  // A dropped dim has size 1: reducing it changes nothing.
  if (dim < dropped) {
    tiles[reduce.getResult()] = input;
    return;
  }
  int64_t to = reduce.getToAttr() ? reduce.getToAttr().getInt() : 1;
  int64_t group = shape[dim] / to;
  tile::CombineKind kind = reduce.getKind() == ReduceKind::max
                               ? tile::CombineKind::max
                               : tile::CombineKind::sum;
  int64_t at = dim - dropped;
  // Reducing to `to` groups: dim splits into [to, group], the group dim is
  // reduced.
  if (to > 1) {
    SmallVector<int64_t> grouped(computedShape(shape));
    grouped[at] = group;
    grouped.insert(grouped.begin() + at, to);
    input = reshape(input, grouped);
    ++at;
  }
  Value reduced = reduceDim(input, at, kind);
  // The mean of the unpadded elements: the padding holds zeros.
  if (reduce.getKind() == ReduceKind::mean)
    reduced = divideBy(reduced, shapeOf(reduce.getInput())[dim] / to);
  tiles[reduce.getResult()] = reshape(reduced, resultType.getShape());
}

void BlockGraphLowering::lowerRmsNorm(tb::RmsNormOp norm) {
  RankedTensorType type = tileTypeOf(norm.getResult());
  ArrayRef<int64_t> shape = type.getShape();
  Value x = arithmetic(norm.getInput());
  Value squares = arith::MulFOp::create(b, loc, x, x);
  Value sum = reduceDim(squares, shape.size() - 1, tile::CombineKind::sum);
  auto rowType = cast<RankedTensorType>(sum.getType());
  // Across a grid dim, each block holds a part of every row: the blocks add
  // up their sums.
  int64_t count = shapeOf(norm.getInput()).back();
  if (std::optional<int64_t> across = norm.getAcross()) {
    sum = tile::ReduceAcrossBlocksOp::create(
        b, loc, rowType, tile::CombineKind::sum, sum,
        static_cast<tile::GridDim>(*across));
    count *= fused.getGridDims()[*across];
  }
  // The mean of the unpadded elements: the padding holds zeros.
  Value mean = divideBy(sum, count);
  Value epsilon = splat(rowType.getShape(), rowType.getElementType(),
                        norm.getEpsilon().convertToDouble());
  Value rms = math::SqrtOp::create(
      b, loc, arith::AddFOp::create(b, loc, mean, epsilon));
  SmallVector<int64_t> keptShape(shape.drop_back());
  keptShape.push_back(1);
  tiles[norm.getResult()] = arith::DivFOp::create(
      b, loc, x, broadcastTo(reshape(rms, keptShape), shape));
}

/// Each scalar op of the region applied to whole tiles: arith and math ops
/// are elementwise on tensors. Floats are computed in the arithmetic type;
/// constants become splats of their value.
void BlockGraphLowering::lowerThreadGraph(th::GraphOp graph) {
  Block &body = graph.getBody().front();
  RankedTensorType resultType = tileTypeOf(graph.getResult(0));
  ArrayRef<int64_t> shape = resultType.getShape();
  auto tileOf = [&](Type scalar) -> Type {
    if (auto f = dyn_cast<FloatType>(scalar))
      scalar = arithmeticType(f);
    return RankedTensorType::get(shape, scalar);
  };
  IRMapping mapping;
  for (auto [arg, input] : llvm::zip(body.getArguments(), graph.getInputs()))
    mapping.map(arg, broadcastTo(arithmetic(input), shape));
  for (Operation &scalar : body.without_terminator()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(scalar)) {
      auto type = cast<RankedTensorType>(tileOf(constant.getType()));
      Attribute value = constant.getValue();
      if (auto f = dyn_cast<FloatAttr>(value))
        value = b.getFloatAttr(type.getElementType(), f.getValueAsDouble());
      mapping.map(constant.getResult(),
                  arith::ConstantOp::create(
                      b, loc, DenseElementsAttr::get(type, value)));
      continue;
    }
    // A cast between float types computed in one arithmetic type is the
    // value itself, rounded where it narrows to a 16-bit type (as storing
    // it would round it).
    if (isa<arith::ExtFOp, arith::TruncFOp>(scalar)) {
      Value in = mapping.lookup(scalar.getOperand(0));
      Type resultTile = tileOf(scalar.getResult(0).getType());
      if (in.getType() == resultTile) {
        auto to = cast<FloatType>(scalar.getResult(0).getType());
        if (isa<arith::TruncFOp>(scalar) && to != arithmeticType(to))
          in = arith::ExtFOp::create(
              b, loc, resultTile,
              arith::TruncFOp::create(b, loc, RankedTensorType::get(shape, to),
                                      in)
                  .getResult());
        mapping.map(scalar.getResult(0), in);
        continue;
      }
    }
    OperationState state(scalar.getLoc(), scalar.getName());
    for (Value operand : scalar.getOperands())
      state.addOperands(mapping.lookup(operand));
    for (Type type : scalar.getResultTypes())
      state.addTypes(tileOf(type));
    state.addAttributes(scalar.getAttrs());
    Operation *onTiles = b.create(state);
    mapping.map(scalar.getResults(), onTiles->getResults());
  }
  for (auto [result, yielded] :
       llvm::zip(graph.getResults(), body.getTerminator()->getOperands()))
    tiles[result] = mapping.lookup(yielded);
}

/// The rescaling by the running maximum of `scale` in this iteration,
/// built once for all the sum_rescale accumulators that share the scale
/// (FlashAttention's numerator and denominator), which also share the
/// loop-carried maximum.
const BlockGraphLowering::Rescaling &BlockGraphLowering::rescale(Value scale) {
  Rescaling &rescaling = rescalings[scale];
  if (rescaling.oldFactor)
    return rescaling;
  unsigned index = carriedMaximum.lookup(scale);
  Value maximum = loop.getRegionIterArgs()[index];
  Value s = arithmetic(scale);
  Value next = arith::MaximumFOp::create(b, loc, maximum, s);
  rescaling.oldFactor =
      math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, maximum, next));
  rescaling.newFactor =
      math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, s, next));
  yielded[index] = next;
  return rescaling;
}

/// The in-loop update of a reducing accumulator, and its value after the
/// loop. The loop starts from the identity of the combination (0, or -inf
/// for maxima), so the first iteration gives the block graph's x_0 exactly.
void BlockGraphLowering::lowerAccumulator(tb::ForloopAccumOp acc) {
  if (acc.getKind() == tb::AccumKind::none) {
    tiles[acc.getResult()] = tiles.lookup(acc.getInput());
    return;
  }
  unsigned index = carried.lookup(acc);
  Value sum = loop.getRegionIterArgs()[index];
  b.setInsertionPointToEnd(loop.getBody());
  Value next;
  auto matmul = acc.getInput().getDefiningOp<tb::MatmulOp>();
  if (matmul && isFusedIntoAccumulator(matmul)) {
    next = multiply(matmul.getLhs(), matmul.getRhs(), sum);
  } else {
    Value x = arithmetic(acc.getInput());
    switch (acc.getKind()) {
    case tb::AccumKind::sum:
    case tb::AccumKind::mean:
      next = arith::AddFOp::create(b, loc, sum, x);
      break;
    case tb::AccumKind::rms:
      next = arith::AddFOp::create(b, loc, sum,
                                   arith::MulFOp::create(b, loc, x, x));
      break;
    case tb::AccumKind::max:
      next = arith::MaximumFOp::create(b, loc, sum, x);
      break;
    case tb::AccumKind::sum_rescale: {
      // Online softmax: with m the running maximum of the scale s, the sum
      // is rescaled by exp(m - m') and x added with exp(s - m').
      ArrayRef<int64_t> shape = tileTypeOf(acc.getResult()).getShape();
      const Rescaling &rescaling = rescale(acc.getScale());
      Value rescaled = arith::MulFOp::create(
          b, loc, sum, broadcastTo(rescaling.oldFactor, shape));
      Value added = arith::MulFOp::create(
          b, loc, x, broadcastTo(rescaling.newFactor, shape));
      next = arith::AddFOp::create(b, loc, rescaled, added);
      break;
    }
    case tb::AccumKind::none:
      llvm_unreachable("not carried");
    }
  }
  yielded[index] = next;

  b.setInsertionPoint(ret);
  Value result = loop.getResult(index);
  int64_t iterations = fused.getForloopRange();
  if (acc.getKind() == tb::AccumKind::mean)
    result = divideBy(result, iterations);
  if (acc.getKind() == tb::AccumKind::rms)
    result = math::SqrtOp::create(b, loc, divideBy(result, iterations));
  tiles[acc.getResult()] = result;
}

void BlockGraphLowering::lower(Operation *op) {
  // The stage of the op: after the loop if an operand is accumulated, in
  // the loop if an operand changes between iterations.
  Stage stage = Stage::Invariant;
  for (Value operand : op->getOperands())
    stage = std::max(stage, stages.lookup(operand));
  if (auto it = dyn_cast<tb::InputIteratorOp>(op))
    stage = it.getFmapAttr().getInt() == -1 ? Stage::Invariant
                                            : Stage::PerIteration;
  if (auto acc = dyn_cast<tb::ForloopAccumOp>(op))
    stage = acc.getKind() == tb::AccumKind::none ? Stage::PerIteration
                                                 : Stage::Accumulated;
  for (Value result : op->getResults())
    stages[result] = stage;
  placeFor(stage);

  llvm::TypeSwitch<Operation *>(op)
      .Case([&](tb::InputIteratorOp it) { lowerIterator(it); })
      .Case([&](tb::OutputSaverOp saver) { lowerSaver(saver); })
      .Case([&](tb::ForloopAccumOp acc) { lowerAccumulator(acc); })
      .Case([&](tb::MatmulOp mm) { lowerMatmul(mm); })
      .Case([&](tb::UnaryOp unary) {
        std::optional<APFloat> scalar;
        if (FloatAttr attr = unary.getScalarAttr())
          scalar = attr.getValue();
        tiles[unary.getResult()] =
            buildUnary(b, loc, unary.getKind(), arithmetic(unary.getInput()),
                       scalar, elementTypeOf(unary.getResult()));
      })
      .Case([&](tb::BinaryOp binary) {
        ArrayRef<int64_t> shape = tileTypeOf(binary.getResult()).getShape();
        tiles[binary.getResult()] =
            buildBinary(b, loc, binary.getKind(),
                        broadcastTo(arithmetic(binary.getLhs()), shape),
                        broadcastTo(arithmetic(binary.getRhs()), shape));
      })
      .Case([&](tb::ReduceOp reduce) { lowerReduce(reduce); })
      .Case([&](tb::RmsNormOp norm) { lowerRmsNorm(norm); })
      .Case([&](th::GraphOp graph) { lowerThreadGraph(graph); });
}

LogicalResult BlockGraphLowering::run() {
  if (failed(checkSupported()))
    return failure();
  entry = kernel.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  ret = tile::ReturnOp::create(b, loc);

  // The loop carries each reducing accumulator from the identity of its
  // combination.
  b.setInsertionPoint(ret);
  SmallVector<Value> inits;
  for (auto acc : fused.getBody().front().getOps<tb::ForloopAccumOp>()) {
    if (acc.getKind() == tb::AccumKind::none)
      continue;
    carried[acc] = inits.size();
    RankedTensorType type = tileTypeOf(acc.getResult());
    double identity = acc.getKind() == tb::AccumKind::max
                          ? -std::numeric_limits<double>::infinity()
                          : 0.0;
    inits.push_back(splat(type.getShape(), type.getElementType(), identity));
    Value scale = acc.getScale();
    if (acc.getKind() == tb::AccumKind::sum_rescale &&
        carriedMaximum.try_emplace(scale, inits.size()).second) {
      RankedTensorType type = tileTypeOf(scale);
      inits.push_back(splat(type.getShape(), type.getElementType(),
                            -std::numeric_limits<double>::infinity()));
    }
  }
  yielded.assign(inits.size(), Value());
  loop = scf::ForOp::create(b, loc, indexConstant(0),
                            indexConstant(fused.getForloopRange()),
                            indexConstant(1), inits);
  // scf.for gets a yield when it carries nothing; the loop's yield is
  // written once every update is known.
  if (loop.getBody()->mightHaveTerminator())
    loop.getBody()->getTerminator()->erase();

  for (Operation &op : fused.getBody().front().without_terminator())
    lower(&op);
  b.setInsertionPointToEnd(loop.getBody());
  scf::YieldOp::create(b, loc, yielded);
  return success();
}

tk::TransposeOp tileopt::transposeReadThrough(Value input) {
  return input.getDefiningOp<tk::TransposeOp>();
}

bool tileopt::isFusedIntoAccumulator(tb::MatmulOp matmul) {
  if (!matmul->hasOneUse())
    return false;
  auto acc = dyn_cast<tb::ForloopAccumOp>(*matmul->user_begin());
  return acc && (acc.getKind() == tb::AccumKind::sum ||
                 acc.getKind() == tb::AccumKind::mean);
}

FailureOr<LoweredKernel>
tileopt::lowerBlockGraph(OpBuilder &b, tk::FusedOp fused, StringRef name) {
  SmallVector<Value> reads;
  SmallVector<unsigned> inputViews;
  for (Value input : fused.getInputs()) {
    if (tk::TransposeOp transpose = transposeReadThrough(input))
      input = transpose.getInput();
    auto *it = llvm::find(reads, input);
    inputViews.push_back(it - reads.begin());
    if (it == reads.end())
      reads.push_back(input);
  }
  SmallVector<Type> views;
  for (Type type : llvm::concat<const Type>(ValueRange(reads).getTypes(),
                                            fused.getResultTypes())) {
    auto tensor = cast<RankedTensorType>(type);
    views.push_back(tile::TensorViewType::get(b.getContext(), tensor.getShape(),
                                              tensor.getElementType()));
  }
  auto kernel = tile::KernelOp::create(
      b, fused.getLoc(), name, b.getFunctionType(views, {}),
      /*sym_visibility=*/nullptr, /*arg_attrs=*/nullptr,
      /*res_attrs=*/nullptr, /*occupancy=*/nullptr, /*num_ctas=*/nullptr);
  BlockGraphLowering lowering(fused, kernel, inputViews);
  if (failed(lowering.run())) {
    kernel.erase();
    return failure();
  }
  return LoweredKernel{kernel, SmallVector<int64_t, 3>(lowering.grid()),
                       std::move(reads),
                       SmallVector<Value>(fused->getResults())};
}
