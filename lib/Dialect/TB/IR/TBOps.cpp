//===- TBOps.cpp - Block graph operations ---------------------------------===//
#include "TileOpt/Dialect/TB/IR/TBOps.h"

#include "TileOpt/Dialect/Common/ShapeChecks.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tb;

static constexpr StringLiteral kGridDimNames[] = {"x", "y", "z"};

LogicalResult tb::verifyInBlockGraph(Operation *op) {
  if (!isa_and_nonnull<BlockGraphOpInterface>(op->getParentOp()))
    return op->emitOpError(
        "must be directly inside a block graph (the region of tk.fused)");
  return success();
}

/// The op holding `op`'s block graph; verifyInBlockGraph has run.
static BlockGraphOpInterface graphOf(Operation *op) {
  return cast<BlockGraphOpInterface>(op->getParentOp());
}

/// Checks a grid map (imap or omap): one entry per grid dim, each a tensor
/// dim of a rank-`rank` tensor or -1, no tensor dim mapped twice. Marks the
/// mapped dims in `mappedBy` (by the name of what maps them).
static LogicalResult verifyGridMap(Operation *op, StringRef mapName,
                                   ArrayRef<int64_t> map, int64_t rank,
                                   SmallVectorImpl<StringRef> &mappedBy) {
  if (map.size() != 3)
    return op->emitOpError() << mapName
                             << " needs one entry per grid dim (x, y, z), got "
                             << map.size();
  mappedBy.assign(rank, StringRef());
  for (auto [gridDim, tensorDim] : llvm::enumerate(map)) {
    if (tensorDim == -1)
      continue;
    if (tensorDim < -1 || tensorDim >= rank)
      return op->emitOpError()
             << mapName << " maps grid dim " << kGridDimNames[gridDim]
             << " to tensor dim " << tensorDim << ", out of range for rank "
             << rank;
    if (!mappedBy[tensorDim].empty())
      return op->emitOpError()
             << "tensor dim " << tensorDim << " is mapped by grid dims "
             << mappedBy[tensorDim] << " and " << kGridDimNames[gridDim];
    mappedBy[tensorDim] = kGridDimNames[gridDim];
  }
  return success();
}

/// Checks the for-loop map `fmap` against the tensor dims a grid map took.
static LogicalResult verifyForloopMap(Operation *op, int64_t fmap, int64_t rank,
                                      ArrayRef<StringRef> mappedBy) {
  if (fmap == -1)
    return success();
  if (fmap < -1 || fmap >= rank)
    return op->emitOpError() << "fmap " << fmap << " is out of range for rank "
                             << rank;
  if (!mappedBy[fmap].empty())
    return op->emitOpError() << "tensor dim " << fmap
                             << " is mapped both by grid dim " << mappedBy[fmap]
                             << " and by fmap";
  return success();
}

//===----------------------------------------------------------------------===//
// InputIteratorOp
//===----------------------------------------------------------------------===//

LogicalResult InputIteratorOp::verify() {
  BlockGraphOpInterface graph = graphOf(*this);
  auto arg = dyn_cast<BlockArgument>(getInput());
  if (!arg || arg.getOwner() != &graph.getBlockGraph())
    return emitOpError("input must be a kernel input of the enclosing block "
                       "graph (an argument of its region)");
  auto tensorType = cast<RankedTensorType>(getInput().getType());
  int64_t rank = tensorType.getRank();
  SmallVector<StringRef> mappedBy;
  int64_t fmap = getFmapAttr().getInt();
  if (failed(verifyGridMap(*this, "imap", getImap(), rank, mappedBy)) ||
      failed(verifyForloopMap(*this, fmap, rank, mappedBy)))
    return failure();

  SmallVector<int64_t> tile(tensorType.getShape());
  auto divide = [&](int64_t dim, int64_t parts,
                    const Twine &by) -> LogicalResult {
    if (tile[dim] % parts != 0)
      return emitOpError() << "tensor dim " << dim << " of size " << tile[dim]
                           << " is not divisible by " << by << " (" << parts
                           << ")";
    tile[dim] /= parts;
    return success();
  };
  for (auto [gridDim, tensorDim] : llvm::enumerate(getImap()))
    if (tensorDim != -1 &&
        failed(divide(tensorDim, graph.getGridDims()[gridDim],
                      Twine("grid dim ") + kGridDimNames[gridDim])))
      return failure();
  if (fmap != -1 &&
      failed(divide(fmap, graph.getForloopRange(), "the for-loop range")))
    return failure();

  TileType result = getResult().getType();
  if (result.getShape() != ArrayRef<int64_t>(tile))
    return emitOpError("tile shape must be ")
           << formatShape(tile) << ", got " << formatShape(result.getShape());
  if (result.getElementType() != tensorType.getElementType())
    return emitOpError("tile element type ")
           << result.getElementType() << " differs from the tensor's "
           << tensorType.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// ForloopAccumOp
//===----------------------------------------------------------------------===//

LogicalResult ForloopAccumOp::verify() {
  TileType input = getInput().getType();
  if (getResult().getType() != input)
    return emitOpError("result type must equal the input type ") << input;
  if (failed(verifyFloatElements(*this, {input})))
    return failure();
  bool rescales = getKind() == AccumKind::sum_rescale;
  if (rescales && !getScale())
    return emitOpError("sum_rescale needs a scale operand (the per-iteration "
                       "maximum it rescales by)");
  if (!rescales && getScale())
    return emitOpError("only sum_rescale takes a scale operand, not ")
           << stringifyAccumKind(getKind());
  if (TypedValue<TileType> scale = getScale()) {
    if (failed(verifyBroadcastResult(*this, {scale.getType(), input}, input)) ||
        failed(verifySameElementType(*this, {scale.getType(), input})))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// OutputSaverOp
//===----------------------------------------------------------------------===//

LogicalResult OutputSaverOp::verify() {
  BlockGraphOpInterface graph = graphOf(*this);
  auto tensorType = cast<RankedTensorType>(getResult().getType());
  int64_t rank = tensorType.getRank();
  TileType tile = getInput().getType();
  if (tile.getRank() != rank)
    return emitOpError("tile rank ")
           << tile.getRank() << " differs from the output rank " << rank;
  SmallVector<StringRef> mappedBy;
  int64_t fmap = getFmap().value_or(-1);
  if (failed(verifyGridMap(*this, "omap", getOmap(), rank, mappedBy)) ||
      failed(verifyForloopMap(*this, fmap, rank, mappedBy)))
    return failure();

  SmallVector<int64_t> expected(tile.getShape());
  for (auto [gridDim, tensorDim] : llvm::enumerate(getOmap())) {
    int64_t blocks = graph.getGridDims()[gridDim];
    if (tensorDim == -1) {
      if (blocks > 1)
        return emitOpError("grid dim ")
               << kGridDimNames[gridDim] << " has " << blocks
               << " blocks but omap does not map it: the blocks would "
                  "overwrite each other's output";
      continue;
    }
    expected[tensorDim] *= blocks;
  }
  if (fmap != -1)
    expected[fmap] *= graph.getForloopRange();
  if (tensorType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("output shape must be ")
           << formatShape(expected) << ", got "
           << formatShape(tensorType.getShape());
  if (tile.getElementType() != tensorType.getElementType())
    return emitOpError("output element type ")
           << tensorType.getElementType() << " differs from the tile's "
           << tile.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  auto graph = dyn_cast_or_null<BlockGraphOpInterface>((*this)->getParentOp());
  if (!graph)
    return emitOpError("must terminate a block graph");
  TypeRange expected = graph->getResultTypes();
  if (getValues().size() != expected.size())
    return emitOpError("yields ")
           << getValues().size() << " values but the enclosing op has "
           << expected.size() << " results";
  for (auto [i, value, type] : llvm::enumerate(getValues(), expected))
    if (value.getType() != type)
      return emitOpError("value #")
             << i << " has type " << value.getType()
             << " but the enclosing op's result is " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// Compute ops
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  SmallVector<ShapedType> types = {getLhs().getType(), getRhs().getType(),
                                   getResult().getType()};
  if (failed(verifySameElementType(*this, types)) ||
      failed(verifyFloatElements(*this, types)))
    return failure();
  return verifyMatmulShapes(*this, types[0], types[1], types[2]);
}

LogicalResult UnaryOp::verify() {
  std::optional<APFloat> scalar;
  if (FloatAttr attr = getScalarAttr())
    scalar = attr.getValue();
  if (failed(verifyUnaryScalar(*this, getKind(), scalar)))
    return failure();
  return verifyFloatElements(*this, {getResult().getType()});
}

LogicalResult BinaryOp::verify() {
  SmallVector<ShapedType> types = {getLhs().getType(), getRhs().getType(),
                                   getResult().getType()};
  if (failed(verifySameElementType(*this, types)) ||
      failed(verifyFloatElements(*this, types)))
    return failure();
  return verifyBroadcastResult(*this, {types[0], types[1]}, types[2]);
}

LogicalResult ReduceOp::verify() {
  SmallVector<ShapedType> types = {getInput().getType(), getResult().getType()};
  if (failed(verifySameElementType(*this, types)) ||
      failed(verifyFloatElements(*this, types)))
    return failure();
  return verifyReduceShapes(*this, types[0], types[1], getDim(),
                            getTo().value_or(1));
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  SmallVector<ShapedType> types;
  for (Value input : getInputs())
    types.push_back(cast<ShapedType>(input.getType()));
  ShapedType result = getResult().getType();
  types.push_back(result);
  if (failed(verifySameElementType(*this, types)))
    return failure();
  return verifyConcatShapes(*this, ArrayRef(types).drop_back(), result,
                            getDim(), "operand", "result");
}

LogicalResult RmsNormOp::verify() {
  TileType type = getResult().getType();
  if (failed(verifyRmsNorm(*this, type, getEpsilon())))
    return failure();
  if (std::optional<int64_t> across = getAcross()) {
    int64_t blocks = graphOf(*this).getGridDims()[*across];
    if (blocks < 2)
      return emitOpError("normalizes across grid dim ")
             << kGridDimNames[*across] << ", which has " << blocks
             << " block: drop `across`";
  }
  return verifyFloatElements(*this, {type});
}

#define GET_OP_CLASSES
#include "TileOpt/Dialect/TB/IR/TBOps.cpp.inc"
