//===- PredefinedKernels.cpp - Tilings of the predefined kernels ----------===//
//
// A predefined kernel is written here as the block graph of its tiling, a
// tk.fused that computes the op's result, so that one lowering (block graph
// to tile kernel) serves predefined and graph-defined kernels alike, and
// the interpreter can check each tiling against the op it replaces. Tiles
// are the largest powers of two up to a target size that divide the dims
// (block graphs tile exactly):
//
// - matmul: 128 x 128 output tiles, K walked in steps of 64 (the bf16 GEMM
//   of examples/tile); a batch dim is the grid's z (and the tiles 64 x 128);
//   a grid of fewer than 128 blocks narrows its tiles, the wider dim first,
//   down to 32 (decode-size products, whose 128-column tiles left most of
//   the GPU idle);
// - unary and binary: tiles of up to 4096 elements, rows of up to 1024;
// - reduce: the reduced dim walked by the loop in chunks of up to 1024
//   (64 when it is not the last dim), each chunk reduced and the chunks
//   accumulated;
// - rms_norm: whole rows, a block of rows per program.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Conversion/TKToTile/TKToTile.h"

#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Target/Target.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// The threads of a predefined kernel's block.
constexpr int64_t kBlockThreads = 128;
/// Elements per tile of the elementwise and row kernels, and the widest row
/// chunk: 32 per thread of a 128-thread block.
constexpr int64_t kTileElements = 4096;
constexpr int64_t kRowChunk = 1024;
/// The matmul tile: M x N outputs, K per iteration.
constexpr int64_t kMatmulTileMN = 128;
/// With a batch dim, the output tile is re-dealt through shared memory to
/// get its batch dim back for the store (a word an element, within the 48
/// KiB of static shared memory): 64 x 128.
constexpr int64_t kBatchedMatmulTileM = 64;
constexpr int64_t kMatmulTileK = 64;
/// Matmul grids narrow their tiles until they have this many blocks (the
/// H200 has 132 SMs), down to kMinMatmulTile: 32 x 32 is what mma.sync
/// m16n8k16 takes on 2x2 warps, a 16-row tile on 1x4 needs 32 columns.
constexpr int64_t kMinMatmulBlocks = 128;
constexpr int64_t kMinMatmulTile = 32;
/// The smallest M, N or K tile.mma takes (mma.sync m16n8k16).
constexpr int64_t kMinMmaTile = target::kMmaSyncM;
/// A reduced dim other than the last is walked in chunks of this many.
constexpr int64_t kColumnChunk = 64;

/// The tilings map one to three dims onto the grid (x, y, z).
LogicalResult checkRank(Operation *op, int64_t rank) {
  if (rank >= 1 && rank <= 3)
    return success();
  return op->emitOpError("has rank ")
         << rank << "; its tiling takes 1 to 3 dims, one per grid dim";
}

/// A block graph of the form every tiling here takes: iterators over the
/// kernel's operands, one compute op, an accumulator, one saver.
struct TiledKernel {
  std::array<int64_t, 3> grid = {1, 1, 1};
  int64_t forloopRange = 1;
  struct Input {
    SmallVector<int64_t, 3> imap = {-1, -1, -1};
    int64_t fmap = -1;
  };
  SmallVector<Input> inputs;
  SmallVector<int64_t, 3> omap = {-1, -1, -1};
  tb::AccumKind accumulator = tb::AccumKind::none;

  /// The tile of a tensor of `shape` that a block reads or writes through
  /// `gridMap` (and `fmap`).
  SmallVector<int64_t> tileShape(ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> gridMap,
                                 int64_t fmap) const {
    SmallVector<int64_t> tile(shape);
    for (auto [gridDim, tensorDim] : llvm::enumerate(gridMap))
      if (tensorDim != -1)
        tile[tensorDim] /= grid[gridDim];
    if (fmap != -1)
      tile[fmap] /= forloopRange;
    return tile;
  }

  /// Builds the tk.fused of `op` at `b`: `compute` makes the per-iteration
  /// tile (of type `resultTile`) from the input tiles.
  tk::FusedOp
  build(OpBuilder &b, Operation *op,
        function_ref<Value(ArrayRef<Value> tiles, tb::TileType resultTile)>
            compute) const {
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    auto fused =
        tk::FusedOp::create(b, loc, TypeRange{resultType}, op->getOperands(),
                            b.getDenseI64ArrayAttr(grid),
                            b.getDenseI64ArrayAttr({kBlockThreads, 1, 1}),
                            b.getI64IntegerAttr(forloopRange));
    OpBuilder::InsertionGuard guard(b);
    SmallVector<Location> locs(op->getNumOperands(), loc);
    Block *body =
        b.createBlock(&fused.getBody(), {}, op->getOperandTypes(), locs);
    SmallVector<Value> tiles;
    for (auto [arg, input] : llvm::zip(body->getArguments(), inputs)) {
      auto tensor = cast<RankedTensorType>(arg.getType());
      tiles.push_back(tb::InputIteratorOp::create(
          b, loc,
          tb::TileType::get(
              tileShape(tensor.getShape(), input.imap, input.fmap),
              tensor.getElementType()),
          arg, b.getDenseI64ArrayAttr(input.imap),
          b.getI64IntegerAttr(input.fmap)));
    }
    auto resultTile =
        tb::TileType::get(tileShape(resultType.getShape(), omap, -1),
                          resultType.getElementType());
    Value computed = compute(tiles, resultTile);
    Value accumulated =
        tb::ForloopAccumOp::create(b, loc, resultTile, accumulator, computed,
                                   /*scale=*/Value());
    Value saved = tb::OutputSaverOp::create(b, loc, resultType, accumulated,
                                            b.getDenseI64ArrayAttr(omap),
                                            /*fmap=*/IntegerAttr());
    tb::YieldOp::create(b, loc, ValueRange{saved});
    return fused;
  }
};

FailureOr<tk::FusedOp> tileMatmul(OpBuilder &b, tk::MatmulOp mm) {
  ArrayRef<int64_t> lhs = mm.getLhs().getType().getShape();
  ArrayRef<int64_t> rhs = mm.getRhs().getType().getShape();
  int64_t rank = lhs.size();
  if (rank > 3)
    return mm.emitOpError("has ")
           << rank - 2
           << " batch dims; its tiling takes at most one (the "
              "grid's z)";
  if (lhs.drop_back(2) != rhs.drop_back(2))
    return mm.emitOpError("broadcasts a batch dim; its tiling needs equal "
                          "batch dims");
  int64_t m = lhs[rank - 2], k = lhs[rank - 1], n = rhs[rank - 1];
  int64_t batchDim = rank == 3 ? 0 : -1;
  TiledKernel tiling;
  // An M, N or K whose power-of-two tile would be smaller than an mma
  // tile takes, and that one tile can hold, is taken whole and padded to a
  // power of two (BlockGraphToTile.cpp): 7 rows in tiles of 1 would give
  // mma tiles of 1 row.
  auto wholeOrPowerOfTwoTile = [](int64_t size, int64_t cap) {
    int64_t tile = powerOfTwoTile(size, cap);
    return tile < kMinMmaTile && size <= cap ? size : tile;
  };
  int64_t tileM = wholeOrPowerOfTwoTile(m, rank == 3 ? kBatchedMatmulTileM
                                                     : kMatmulTileMN),
          tileN = wholeOrPowerOfTwoTile(n, kMatmulTileMN);
  int64_t batch = rank == 3 ? lhs[0] : 1;
  while ((n / tileN) * (m / tileM) * batch < kMinMatmulBlocks) {
    int64_t &wider = tileN >= tileM ? tileN : tileM;
    if (wider <= kMinMatmulTile || !llvm::isPowerOf2_64(wider))
      break;
    wider /= 2;
  }
  tiling.grid = {n / tileN, m / tileM, batch};
  tiling.forloopRange = k / wholeOrPowerOfTwoTile(k, kMatmulTileK);
  tiling.inputs = {{{-1, rank - 2, batchDim}, rank - 1},
                   {{rank - 1, -1, batchDim}, rank - 2}};
  tiling.omap = {rank - 1, rank - 2, batchDim};
  tiling.accumulator = tb::AccumKind::sum;
  return tiling.build(b, mm, [&](ArrayRef<Value> tiles, tb::TileType type) {
    return tb::MatmulOp::create(b, mm.getLoc(), type, tiles[0], tiles[1]);
  });
}

/// Elementwise kernels: x takes the last dim, y the one before, z the
/// first of three. An operand dim of size 1 is broadcast: every block
/// reads it whole.
FailureOr<tk::FusedOp> tileElementwise(OpBuilder &b, Operation *op) {
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  int64_t rank = shape.size();
  if (failed(checkRank(op, rank)))
    return failure();
  TiledKernel tiling;
  SmallVector<int64_t, 3> tile(rank, 1);
  tile[rank - 1] = powerOfTwoTile(shape[rank - 1], kRowChunk);
  if (rank >= 2)
    tile[rank - 2] =
        powerOfTwoTile(shape[rank - 2], kTileElements / tile[rank - 1]);
  for (int64_t g = 0; g < std::min<int64_t>(rank, 3); ++g) {
    int64_t dim = g < 2 ? rank - 1 - g : 0;
    tiling.omap[g] = dim;
    tiling.grid[g] = shape[dim] / tile[dim];
  }
  for (Value operand : op->getOperands()) {
    ArrayRef<int64_t> operandShape =
        cast<RankedTensorType>(operand.getType()).getShape();
    int64_t offset = rank - operandShape.size();
    TiledKernel::Input input;
    for (auto [g, dim] : llvm::enumerate(tiling.omap)) {
      int64_t operandDim = dim - offset;
      if (dim != -1 && operandDim >= 0 && operandShape[operandDim] != 1)
        input.imap[g] = operandDim;
    }
    tiling.inputs.push_back(input);
  }
  return tiling.build(b, op, [&](ArrayRef<Value> tiles, tb::TileType type) {
    if (auto map = dyn_cast<tk::MapOp>(op))
      return th::GraphOp::create(b, op->getLoc(), TypeRange{type}, tiles,
                                 map.getBody())
          .getResult(0);
    if (auto unary = dyn_cast<tk::UnaryOp>(op))
      return Value(tb::UnaryOp::create(b, op->getLoc(), type, unary.getKind(),
                                       tiles[0], unary.getScalarAttr()));
    return Value(tb::BinaryOp::create(b, op->getLoc(), type,
                                      cast<tk::BinaryOp>(op).getKind(),
                                      tiles[0], tiles[1]));
  });
}

/// The loop walks the reduced dim; x and y take the other dims, innermost
/// first.
FailureOr<tk::FusedOp> tileReduce(OpBuilder &b, tk::ReduceOp reduce) {
  ArrayRef<int64_t> shape = reduce.getInput().getType().getShape();
  int64_t rank = shape.size(), dim = reduce.getDim();
  if (failed(checkRank(reduce, rank)))
    return failure();
  int64_t chunk =
      powerOfTwoTile(shape[dim], dim == rank - 1 ? kRowChunk : kColumnChunk);
  TiledKernel tiling;
  tiling.forloopRange = shape[dim] / chunk;
  TiledKernel::Input input;
  input.fmap = dim;
  int64_t g = 0;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (d == dim)
      continue;
    int64_t tile = g == 0 ? powerOfTwoTile(shape[d], kTileElements / chunk) : 1;
    tiling.grid[g] = shape[d] / tile;
    input.imap[g] = tiling.omap[g] = d;
    ++g;
  }
  tiling.inputs = {input};
  switch (reduce.getKind()) {
  case ReduceKind::sum:
    tiling.accumulator = tb::AccumKind::sum;
    break;
  case ReduceKind::max:
    tiling.accumulator = tb::AccumKind::max;
    break;
  case ReduceKind::mean:
    // The mean of the chunks' means: the chunks are equal.
    tiling.accumulator = tb::AccumKind::mean;
    break;
  }
  return tiling.build(b, reduce, [&](ArrayRef<Value> tiles, tb::TileType type) {
    return tb::ReduceOp::create(b, reduce.getLoc(), type, reduce.getKind(),
                                tiles[0], reduce.getDim(),
                                /*to=*/IntegerAttr());
  });
}

/// A block normalizes whole rows: x takes the rows, y the first of three
/// dims.
FailureOr<tk::FusedOp> tileRmsNorm(OpBuilder &b, tk::RmsNormOp norm) {
  ArrayRef<int64_t> shape = norm.getInput().getType().getShape();
  int64_t rank = shape.size();
  if (failed(checkRank(norm, rank)))
    return failure();
  // A row that is not a power of two is normalized padded with zeros
  // (BlockGraphToTile.cpp).
  int64_t row = shape.back();
  TiledKernel tiling;
  TiledKernel::Input input;
  if (rank >= 2) {
    // A row counts as the power of two it is padded to.
    int64_t rowBudget = std::max<int64_t>(
        1, kTileElements / static_cast<int64_t>(llvm::PowerOf2Ceil(row)));
    int64_t rows = powerOfTwoTile(shape[rank - 2], rowBudget);
    tiling.grid[0] = shape[rank - 2] / rows;
    input.imap[0] = tiling.omap[0] = rank - 2;
  }
  if (rank == 3) {
    tiling.grid[1] = shape[0];
    input.imap[1] = tiling.omap[1] = 0;
  }
  tiling.inputs = {input};
  return tiling.build(b, norm, [&](ArrayRef<Value> tiles, tb::TileType type) {
    return tb::RmsNormOp::create(b, norm.getLoc(), type, tiles[0],
                                 norm.getEpsilonAttr(),
                                 /*across=*/IntegerAttr());
  });
}

} // namespace

int64_t tileopt::powerOfTwoTile(int64_t n, int64_t cap) {
  return std::min<int64_t>(cap, n & -n);
}

FailureOr<tk::FusedOp> tileopt::buildPredefinedTiling(OpBuilder &b,
                                                      Operation *op) {
  return llvm::TypeSwitch<Operation *, FailureOr<tk::FusedOp>>(op)
      .Case([&](tk::MatmulOp mm) { return tileMatmul(b, mm); })
      .Case<tk::UnaryOp, tk::BinaryOp, tk::MapOp>(
          [&](Operation *ew) { return tileElementwise(b, ew); })
      .Case([&](tk::ReduceOp reduce) { return tileReduce(b, reduce); })
      .Case([&](tk::RmsNormOp norm) { return tileRmsNorm(b, norm); })
      .Case<tk::ConcatOp, tk::SplitOp>(
          [](Operation *move) -> FailureOr<tk::FusedOp> {
            return move->emitOpError(
                "moves data between tensors; it has no tiling yet");
          })
      .Default([](Operation *other) -> FailureOr<tk::FusedOp> {
        return other->emitOpError("is not a predefined kernel");
      });
}

/// An elementwise op of rank > 3 as the same op on reshaped views of rank
/// <= 3, then reshaped back (the views cost nothing): dims of size 1 go,
/// and neighbouring dims merge where every operand either has both or
/// broadcasts along both. Returns the op to tile, which is `op` itself
/// when its rank is small enough.
static Operation *collapseElementwise(OpBuilder &b, Operation *op) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  ArrayRef<int64_t> shape = resultType.getShape();
  int64_t rank = shape.size();
  if (rank <= 3 || !isa<tk::UnaryOp, tk::BinaryOp, tk::MapOp>(op))
    return op;
  // Each operand aligned to the result: whether it has each result dim.
  auto has = [&](Value operand, int64_t d) {
    ArrayRef<int64_t> dims =
        cast<RankedTensorType>(operand.getType()).getShape();
    int64_t at = d - (rank - static_cast<int64_t>(dims.size()));
    return at >= 0 && dims[at] == shape[d];
  };
  // Groups of result dims, each merged into one.
  SmallVector<SmallVector<int64_t>> groups;
  for (int64_t d = 0; d < rank; ++d) {
    if (shape[d] == 1)
      continue;
    bool merges = !groups.empty() && llvm::all_of(op->getOperands(),
                                                  [&](Value operand) {
                                                    return has(operand, d) ==
                                                           has(operand,
                                                               groups.back()
                                                                   .back());
                                                  });
    if (merges)
      groups.back().push_back(d);
    else
      groups.push_back({d});
  }
  if (groups.empty() || groups.size() > 3)
    return op;
  auto collapsed = [&](Value operand) {
    SmallVector<int64_t> dims;
    for (ArrayRef<int64_t> group : groups) {
      int64_t size = 1;
      for (int64_t d : group)
        size *= has(operand, d) ? shape[d] : 1;
      dims.push_back(size);
    }
    return dims;
  };
  IRMapping mapping;
  for (Value operand : op->getOperands()) {
    auto type = cast<RankedTensorType>(operand.getType());
    mapping.map(operand,
                tk::ReshapeOp::create(b, op->getLoc(),
                                      type.clone(collapsed(operand)), operand));
  }
  Operation *small = b.clone(*op, mapping);
  SmallVector<int64_t> smallShape;
  for (ArrayRef<int64_t> group : groups) {
    int64_t size = 1;
    for (int64_t d : group)
      size *= shape[d];
    smallShape.push_back(size);
  }
  small->getResult(0).setType(resultType.clone(smallShape));
  Value back = tk::ReshapeOp::create(b, op->getLoc(), resultType,
                                     small->getResult(0));
  op->replaceAllUsesWith(ValueRange{back});
  op->erase();
  return small;
}

/// A reduction or rms_norm of rank > 3 as the same op on a reshaped view of
/// rank <= 3, then reshaped back: the dims before the reduced one merge,
/// and so do those after it (rms_norm reduces the last dim). Returns the op
/// to tile, which is `op` itself when its rank is small enough.
static Operation *collapseReduction(OpBuilder &b, Operation *op) {
  if (!isa<tk::ReduceOp, tk::RmsNormOp>(op))
    return op;
  Value input = op->getOperand(0);
  auto inputType = cast<RankedTensorType>(input.getType());
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = inputType.getRank();
  if (rank <= 3)
    return op;
  int64_t reduced = rank - 1;
  if (auto reduce = dyn_cast<tk::ReduceOp>(op))
    reduced = reduce.getDim();
  auto product = [](ArrayRef<int64_t> dims) {
    int64_t size = 1;
    for (int64_t d : dims)
      size *= d;
    return size;
  };
  // [before, reduced, after], without the empty groups.
  auto collapse = [&](ArrayRef<int64_t> shape, int64_t &dim) {
    SmallVector<int64_t> dims;
    if (reduced > 0)
      dims.push_back(product(shape.take_front(reduced)));
    dim = dims.size();
    dims.push_back(shape[reduced]);
    if (reduced + 1 < rank)
      dims.push_back(product(shape.drop_front(reduced + 1)));
    return dims;
  };
  int64_t dim = 0;
  SmallVector<int64_t> inputShape = collapse(inputType.getShape(), dim);
  SmallVector<int64_t> resultShape = collapse(resultType.getShape(), dim);
  Location loc = op->getLoc();
  Value view =
      tk::ReshapeOp::create(b, loc, inputType.clone(inputShape), input);
  Operation *small = b.clone(*op);
  small->setOperand(0, view);
  small->getResult(0).setType(resultType.clone(resultShape));
  if (auto reduce = dyn_cast<tk::ReduceOp>(small))
    reduce.setDim(dim);
  Value back = tk::ReshapeOp::create(b, loc, resultType, small->getResult(0));
  op->replaceAllUsesWith(ValueRange{back});
  op->erase();
  return small;
}

/// The widest row (padded to a power of two) that tileRmsNorm's block
/// normalizes as one tile: what the code generator lets its threads hold.
constexpr int64_t kMaxNormRow = target::kMaxFragmentElements * kBlockThreads;

/// An rms_norm of rows wider than kMaxNormRow as kernels that each walk the
/// row in chunks: the squares (in f32, as tileRmsNorm sums them), their mean
/// (a reduction over a loop), then x / sqrt(mean + epsilon). Returns those
/// three ops, the last one's result replacing the norm's; none when `op` is
/// not such a norm. (rand_15_194 normalizes a flattened 49152-element
/// tensor.)
static SmallVector<Operation *> splitWideRmsNorm(OpBuilder &b, Operation *op) {
  auto norm = dyn_cast<tk::RmsNormOp>(op);
  if (!norm)
    return {};
  auto type = cast<RankedTensorType>(norm.getType());
  if (static_cast<int64_t>(llvm::PowerOf2Ceil(type.getShape().back())) <=
      kMaxNormRow)
    return {};
  Location loc = norm.getLoc();
  Type f32 = b.getF32Type();
  auto widened = [&](Value scalar) {
    return scalar.getType() == f32
               ? scalar
               : arith::ExtFOp::create(b, loc, f32, scalar).getResult();
  };
  auto squares =
      tk::MapOp::create(b, loc, type.clone(f32), ValueRange{norm.getInput()});
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = b.createBlock(&squares.getBody());
    Value x = widened(body->addArgument(type.getElementType(), loc));
    tk::YieldOp::create(b, loc,
                        arith::MulFOp::create(b, loc, x, x).getResult());
  }
  SmallVector<int64_t> rowShape(type.getShape());
  rowShape.back() = 1;
  auto mean = tk::ReduceOp::create(b, loc, RankedTensorType::get(rowShape, f32),
                                   ReduceKind::mean, squares.getResult(),
                                   type.getRank() - 1);
  auto normalized = tk::MapOp::create(
      b, loc, type, ValueRange{norm.getInput(), mean.getResult()});
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = b.createBlock(&normalized.getBody());
    BlockArgument x = body->addArgument(type.getElementType(), loc);
    BlockArgument meanSquare = body->addArgument(f32, loc);
    Value epsilon = arith::ConstantOp::create(b, loc, norm.getEpsilonAttr());
    Value rms = math::SqrtOp::create(
        b, loc, arith::AddFOp::create(b, loc, meanSquare, epsilon));
    Value result = arith::DivFOp::create(b, loc, widened(x), rms);
    if (type.getElementType() != f32)
      result = arith::TruncFOp::create(b, loc, type.getElementType(), result);
    tk::YieldOp::create(b, loc, result);
  }
  norm.replaceAllUsesWith(normalized.getResult());
  norm.erase();
  return {squares, mean, normalized};
}

FailureOr<Operation *> tileopt::tilePredefinedKernel(OpBuilder &b,
                                                     Operation *op) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  op = collapseReduction(b, collapseElementwise(b, op));
  b.setInsertionPoint(op);
  if (SmallVector<Operation *> parts = splitWideRmsNorm(b, op);
      !parts.empty()) {
    FailureOr<Operation *> last = failure();
    for (Operation *part : parts)
      if (failed(last = tilePredefinedKernel(b, part)))
        return failure();
    return last;
  }
  if (op->hasTrait<tk::Elementwise>() &&
      cast<RankedTensorType>(op->getResult(0).getType()).getRank() > 3)
    return elementwiseAsStructured(b, op).getOperation();
  FailureOr<tk::FusedOp> fused = buildPredefinedTiling(b, op);
  if (failed(fused))
    return failure();
  op->replaceAllUsesWith(*fused);
  op->erase();
  return fused->getOperation();
}
