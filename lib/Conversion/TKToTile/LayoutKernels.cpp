//===- LayoutKernels.cpp - Reshapes and transposes as copy kernels --------===//
//
// A layout change computes nothing, so it has no block graph: each block
// loads one tile of the input and stores it where the result's layout puts
// it.
//
// - transpose: the result's last two dims in tiles of up to 64 x 64 (grid
//   x and y), its other dims one element at a time (grid z, in row-major
//   order); the tile is loaded in the input's layout and permuted in the
//   block (tile.permute, through shared memory);
// - reshape: row-major chunks of up to 1024 elements that lie in one row
//   of both shapes; block i copies elements [i * chunk, (i + 1) * chunk),
//   which is tile i of either view read as rows of chunks;
// - concat and split: one kernel per part, copying it into or out of the
//   whole at its offset (copyPart).
//
// A reshape could be free, a second view of one buffer; the host functions
// bind one buffer per tensor, so it is a copy (docs/lowering.md).
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Conversion/TKToTile/TKToTile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// The tile of a transpose along each of the result's last two dims.
constexpr int64_t kTransposeTile = 64;
/// The most elements one block of a reshape copies.
constexpr int64_t kReshapeChunk = 1024;

/// Builds one layout kernel: a view of what it reads and one of what it
/// writes (of the op's first operand and result unless given), a body that
/// ends in tile.return.
struct LayoutKernelBuilder {
  LayoutKernelBuilder(OpBuilder &b, Operation *op, StringRef name)
      : LayoutKernelBuilder(
            b, op, name,
            cast<RankedTensorType>(op->getOperand(0).getType()).getShape(),
            cast<RankedTensorType>(op->getResult(0).getType()).getShape()) {}
  LayoutKernelBuilder(OpBuilder &b, Operation *op, StringRef name,
                      ArrayRef<int64_t> readShape, ArrayRef<int64_t> writeShape)
      : b(b) {
    loc = op->getLoc();
    Type elementType =
        cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
    SmallVector<Type> views;
    for (ArrayRef<int64_t> shape : {readShape, writeShape})
      views.push_back(
          tile::TensorViewType::get(b.getContext(), shape, elementType));
    kernel = tile::KernelOp::create(
        b, loc, name, b.getFunctionType(views, {}),
        /*sym_visibility=*/nullptr, /*arg_attrs=*/nullptr,
        /*res_attrs=*/nullptr, /*occupancy=*/nullptr, /*num_ctas=*/nullptr);
    Block *entry = kernel.addEntryBlock();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(entry);
    tile::ReturnOp::create(b, loc);
  }

  Value input() { return kernel.getBody().front().getArgument(0); }
  Value result() { return kernel.getBody().front().getArgument(1); }

  /// Sets `body` at the start of the kernel's body.
  void startBody(OpBuilder &body) {
    body.setInsertionPoint(kernel.getBody().front().getTerminator());
  }

  Value index(OpBuilder &body, int64_t value) {
    return arith::ConstantIndexOp::create(body, loc, value);
  }

  /// `linear` as coordinates of a row-major grid of `counts`.
  SmallVector<Value> unravel(OpBuilder &body, Value linear,
                             ArrayRef<int64_t> counts) {
    SmallVector<Value> coords(counts.size());
    for (int64_t d = counts.size() - 1; d > 0; --d) {
      if (counts[d] == 1) {
        coords[d] = index(body, 0);
        continue;
      }
      Value count = index(body, counts[d]);
      coords[d] = arith::RemSIOp::create(body, loc, linear, count);
      linear = arith::DivSIOp::create(body, loc, linear, count);
    }
    if (!counts.empty())
      coords[0] = linear;
    return coords;
  }

  /// Fails, erasing the kernel, when `grid` exceeds CUDA's limits. The
  /// kernel reads `read` and writes `written`.
  FailureOr<LoweredKernel> finish(Operation *op, std::array<int64_t, 3> grid,
                                  Value read, Value written) {
    if (grid[0] > (int64_t{1} << 31) - 1 || grid[1] > 65535 ||
        grid[2] > 65535) {
      kernel.erase();
      return op->emitOpError("needs a grid of [")
             << ArrayRef<int64_t>(grid)
             << "] blocks to copy, more than CUDA allows";
    }
    return LoweredKernel{kernel,
                         SmallVector<int64_t, 3>(grid.begin(), grid.end()),
                         {read},
                         {written}};
  }
  FailureOr<LoweredKernel> finish(Operation *op, std::array<int64_t, 3> grid) {
    return finish(op, grid, op->getOperand(0), op->getResult(0));
  }

  OpBuilder &b;
  Location loc = UnknownLoc::get(b.getContext());
  tile::KernelOp kernel;
};

FailureOr<LoweredKernel> lowerTranspose(OpBuilder &b, tk::TransposeOp op,
                                        StringRef name) {
  ArrayRef<int64_t> shape = op.getType().getShape();
  ArrayRef<int64_t> perm = op.getPermutation();
  int64_t rank = shape.size();
  Type elementType = op.getType().getElementType();
  // The result's tile, its count along each dim, and the input's tile.
  SmallVector<int64_t> resultTile(rank, 1), counts(shape), inputTile(rank, 1);
  for (int64_t d = std::max<int64_t>(0, rank - 2); d < rank; ++d)
    resultTile[d] = powerOfTwoTile(shape[d], kTransposeTile);
  for (int64_t d = 0; d < rank; ++d) {
    counts[d] /= resultTile[d];
    inputTile[perm[d]] = resultTile[d];
  }
  std::array<int64_t, 3> grid = {counts[rank - 1],
                                 rank >= 2 ? counts[rank - 2] : 1, 1};
  for (int64_t d = 0; d + 2 < rank; ++d)
    grid[2] *= counts[d];

  LayoutKernelBuilder kernel(b, op, name);
  OpBuilder body(b.getContext());
  kernel.startBody(body);
  Location loc = op.getLoc();
  // The result tile's coordinates, then the input tile's.
  SmallVector<Value> coords = kernel.unravel(
      body, tile::BlockIdOp::create(body, loc, tile::GridDim::z),
      ArrayRef<int64_t>(counts).drop_back(std::min<int64_t>(rank, 2)));
  if (rank >= 2)
    coords.push_back(tile::BlockIdOp::create(body, loc, tile::GridDim::y));
  coords.push_back(tile::BlockIdOp::create(body, loc, tile::GridDim::x));
  SmallVector<Value> inputCoords(rank);
  for (int64_t d = 0; d < rank; ++d)
    inputCoords[perm[d]] = coords[d];

  Value tile = tile::LoadOp::create(
      body, loc, RankedTensorType::get(inputTile, elementType), kernel.input(),
      inputCoords, /*latency=*/nullptr, /*allow_tma=*/nullptr,
      /*padding=*/nullptr);
  // Only the result's last two dims are tiled: the tile is a matrix whose
  // two dims swap when the permutation reverses their order.
  if (rank >= 2) {
    int64_t first = perm[rank - 2], second = perm[rank - 1];
    SmallVector<int64_t> matrix = {inputTile[std::min(first, second)],
                                   inputTile[std::max(first, second)]};
    tile = tile::ReshapeOp::create(
        body, loc, RankedTensorType::get(matrix, elementType), tile);
    if (first > second)
      tile = tile::PermuteOp::create(
          body, loc, RankedTensorType::get({matrix[1], matrix[0]}, elementType),
          tile, body.getDenseI64ArrayAttr({1, 0}));
  }
  tile = tile::ReshapeOp::create(
      body, loc, RankedTensorType::get(resultTile, elementType), tile);
  tile::StoreOp::create(body, loc, tile, kernel.result(), coords,
                        /*latency=*/nullptr, /*allow_tma=*/nullptr);
  return kernel.finish(op, grid);
}

FailureOr<LoweredKernel> lowerReshape(OpBuilder &b, tk::ReshapeOp op,
                                      StringRef name) {
  ArrayRef<int64_t> in = op.getInput().getType().getShape();
  ArrayRef<int64_t> out = op.getType().getShape();
  // The copy views both as rows of chunks of their last dim.
  if (in.empty() || out.empty())
    return op.emitOpError("reshapes a rank-0 tensor; the layout kernels copy "
                          "rows of the last dim, which it has not");
  Type elementType = op.getType().getElementType();
  int64_t chunk = std::min(powerOfTwoTile(in.back(), kReshapeChunk),
                           powerOfTwoTile(out.back(), kReshapeChunk));
  // Either view as rows of chunks: block i copies chunk i of both.
  auto chunkCounts = [&](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> counts(shape);
    counts.back() /= chunk;
    return counts;
  };
  auto chunkTile = [&](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> tile(shape.size(), 1);
    tile.back() = chunk;
    return RankedTensorType::get(tile, elementType);
  };

  LayoutKernelBuilder kernel(b, op, name);
  OpBuilder body(b.getContext());
  kernel.startBody(body);
  Location loc = op.getLoc();
  Value block = tile::BlockIdOp::create(body, loc, tile::GridDim::x);
  Value tile = tile::LoadOp::create(
      body, loc, chunkTile(in), kernel.input(),
      kernel.unravel(body, block, chunkCounts(in)), /*latency=*/nullptr,
      /*allow_tma=*/nullptr, /*padding=*/nullptr);
  tile = tile::ReshapeOp::create(body, loc, chunkTile(out), tile);
  tile::StoreOp::create(body, loc, tile, kernel.result(),
                        kernel.unravel(body, block, chunkCounts(out)),
                        /*latency=*/nullptr, /*allow_tma=*/nullptr);
  return kernel.finish(op, {op.getType().getNumElements() / chunk, 1, 1});
}

/// One part of a concatenation along `dim`, of shape `part`, at `offset`
/// along it in the whole, of shape `whole`: copied into the whole
/// (`intoWhole`, a concat) or out of it (a split). Both are viewed as
/// [outer, dim, inner] (the dims before `dim` merged, and those after): a
/// block copies a row of up to 1024 inner elements; when nothing follows
/// `dim`, rows of [outer, dim] in tiles that divide the part's offset.
FailureOr<LoweredKernel> copyPart(OpBuilder &b, Operation *op, StringRef name,
                                  ArrayRef<int64_t> whole,
                                  ArrayRef<int64_t> part, int64_t dim,
                                  int64_t offset, Value partValue,
                                  Value wholeValue, bool intoWhole) {
  auto product = [](ArrayRef<int64_t> dims) {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= d;
    return n;
  };
  int64_t outer = product(whole.take_front(dim));
  int64_t inner = product(whole.drop_front(dim + 1));
  bool rows = inner > 1;
  SmallVector<int64_t> partView = {outer, part[dim]};
  SmallVector<int64_t> wholeView = {outer, whole[dim]};
  SmallVector<int64_t> tileShape = {1, 1};
  int64_t tileExtent;
  if (rows) {
    partView.push_back(inner);
    wholeView.push_back(inner);
    tileExtent = powerOfTwoTile(inner, kReshapeChunk);
    tileShape.push_back(tileExtent);
  } else {
    tileExtent = powerOfTwoTile(std::gcd(part[dim], offset), kReshapeChunk);
    tileShape.back() = tileExtent;
  }
  LayoutKernelBuilder kernel(b, op, name, intoWhole ? partView : wholeView,
                             intoWhole ? wholeView : partView);
  OpBuilder body(b.getContext());
  kernel.startBody(body);
  Location loc = op->getLoc();
  Value x = tile::BlockIdOp::create(body, loc, tile::GridDim::x);
  Value y = tile::BlockIdOp::create(body, loc, tile::GridDim::y);
  Value z = tile::BlockIdOp::create(body, loc, tile::GridDim::z);
  // The part's tile coordinates, and the whole's: shifted along `dim`.
  SmallVector<Value> partCoords, wholeCoords;
  std::array<int64_t, 3> grid;
  Value shift = kernel.index(body, rows ? offset : offset / tileExtent);
  if (rows) {
    partCoords = {z, y, x};
    wholeCoords = {z, arith::AddIOp::create(body, loc, y, shift), x};
    grid = {inner / tileExtent, part[dim], outer};
  } else {
    partCoords = {y, x};
    wholeCoords = {y, arith::AddIOp::create(body, loc, x, shift)};
    grid = {part[dim] / tileExtent, outer, 1};
  }
  auto elementType =
      cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  Value tile = tile::LoadOp::create(
      body, loc, RankedTensorType::get(tileShape, elementType), kernel.input(),
      intoWhole ? partCoords : wholeCoords, /*latency=*/nullptr,
      /*allow_tma=*/nullptr, /*padding=*/nullptr);
  tile::StoreOp::create(body, loc, tile, kernel.result(),
                        intoWhole ? wholeCoords : partCoords,
                        /*latency=*/nullptr, /*allow_tma=*/nullptr);
  return kernel.finish(op, grid, intoWhole ? partValue : wholeValue,
                       intoWhole ? wholeValue : partValue);
}

/// A concatenation (the parts its inputs) or a split (its results): one
/// copy kernel per part.
FailureOr<SmallVector<LoweredKernel>>
lowerParts(OpBuilder &b, Operation *op, StringRef name, Value whole,
           ValueRange parts, int64_t dim, bool intoWhole) {
  SmallVector<LoweredKernel> kernels;
  ArrayRef<int64_t> wholeShape =
      cast<RankedTensorType>(whole.getType()).getShape();
  int64_t offset = 0;
  for (auto [i, part] : llvm::enumerate(parts)) {
    ArrayRef<int64_t> partShape =
        cast<RankedTensorType>(part.getType()).getShape();
    std::string kernelName =
        i == 0 ? name.str() : (name + "_" + Twine(i)).str();
    FailureOr<LoweredKernel> kernel =
        copyPart(b, op, kernelName, wholeShape, partShape, dim, offset, part,
                 whole, intoWhole);
    if (failed(kernel)) {
      for (LoweredKernel &lowered : kernels)
        lowered.kernel.erase();
      return failure();
    }
    kernels.push_back(std::move(*kernel));
    offset += partShape[dim];
  }
  return kernels;
}

} // namespace

FailureOr<SmallVector<LoweredKernel>>
tileopt::lowerLayoutChange(OpBuilder &b, Operation *op, StringRef name) {
  using Kernels = FailureOr<SmallVector<LoweredKernel>>;
  auto one = [](FailureOr<LoweredKernel> kernel) -> Kernels {
    if (failed(kernel))
      return failure();
    return SmallVector<LoweredKernel>{std::move(*kernel)};
  };
  return llvm::TypeSwitch<Operation *, Kernels>(op)
      .Case([&](tk::TransposeOp t) { return one(lowerTranspose(b, t, name)); })
      .Case([&](tk::ReshapeOp r) { return one(lowerReshape(b, r, name)); })
      .Case([&](tk::ConcatOp c) {
        return lowerParts(b, c, name, c.getResult(), c.getInputs(), c.getDim(),
                          /*intoWhole=*/true);
      })
      .Case([&](tk::SplitOp s) {
        return lowerParts(b, s, name, s.getInput(), s.getResults(), s.getDim(),
                          /*intoWhole=*/false);
      })
      .Default([](Operation *other) -> Kernels {
        return other->emitOpError("is not a layout change");
      });
}
