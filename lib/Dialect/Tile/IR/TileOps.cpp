//===- TileOps.cpp - cuTile-style tile programs ---------------------------===//
#include "TileOpt/Dialect/Tile/IR/TileOps.h"

#include "TileOpt/Dialect/Common/ShapeChecks.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tile;

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult KernelOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError("returns nothing: a tile kernel writes its outputs "
                       "with tile.store");
  if (getBody().empty())
    return emitOpError("needs a body");
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<TensorViewType>(type) && !type.isIntOrIndexOrFloat())
      return emitOpError("argument #")
             << i << " has type " << type
             << "; kernel arguments are tensor views and scalars";
  if (IntegerAttr occupancy = getOccupancyAttr()) {
    int64_t blocks = occupancy.getInt();
    if (blocks < 1 || blocks > 32)
      return emitOpError("occupancy ")
             << blocks << " is outside 1-32 blocks per SM";
  }
  if (IntegerAttr numCtas = getNumCtasAttr()) {
    int64_t ctas = numCtas.getInt();
    if (ctas < 1 || ctas > 16 || !llvm::isPowerOf2_64(ctas))
      return emitOpError("num_ctas ") << ctas
                                      << " is not one of 1, 2, 4, 8, 16";
  }
  // arith, math and scf ops on tiles carry no tile trait of their own: the
  // kernel checks every tensor they produce.
  WalkResult walk = getBody().walk([](Operation *op) {
    return failed(verifyPowerOfTwoTiles(op)) ? WalkResult::interrupt()
                                             : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return verifyLayouts();
}

LogicalResult KernelOp::verifyLayouts() {
  // Every tile of the body is an op result or a block argument.
  Type plain, laidOut;
  LayoutAttrInterface first;
  WalkResult walk = getBody().walk([&](Operation *op) -> WalkResult {
    SmallVector<Type> types(op->getResultTypes());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(types, block.getArgumentTypes());
    for (Type type : types) {
      if (!isa<RankedTensorType>(type))
        continue;
      LayoutAttrInterface layout = getLayout(type);
      if (!layout) {
        plain = plain ? plain : type;
        continue;
      }
      if (!first) {
        first = layout;
        laidOut = type;
      } else if (layout.getNumWarps() != first.getNumWarps()) {
        return op->emitOpError("has a tile ")
               << type << " laid out over " << layout.getNumWarps()
               << " warps, where the kernel's tile " << laidOut << " has "
               << first.getNumWarps();
      }
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (plain && first)
    return emitOpError("has tiles with and without layouts (")
           << laidOut << " and " << plain
           << "): tileopt-assign-layouts gives every tile one";
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  ArrayRef<int64_t> grid = getGrid();
  if (grid.size() != 3 ||
      llvm::any_of(grid, [](int64_t blocks) { return blocks < 1; }))
    return emitOpError("grid needs three positive dims (x, y, z)");
  if (grid[1] > 65535 || grid[2] > 65535 || grid[0] > (int64_t{1} << 31) - 1)
    return emitOpError("grid exceeds the CUDA limits (2^31-1, 65535, 65535)");
  return success();
}

LogicalResult
LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel =
      symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError("'") << getKernel() << "' is not a tile.kernel";
  ArrayRef<Type> params = kernel.getArgumentTypes();
  if (params.size() != getArgs().size())
    return emitOpError("passes ")
           << getArgs().size() << " arguments to @" << getKernel()
           << ", which takes " << params.size();
  for (auto [i, param, arg] : llvm::enumerate(params, getArgs())) {
    auto view = dyn_cast<TensorViewType>(param);
    if (!view) {
      if (arg.getType() != param)
        return emitOpError("argument #")
               << i << " is " << arg.getType() << ", the kernel takes "
               << param;
      continue;
    }
    auto buffer = dyn_cast<MemRefType>(arg.getType());
    if (!buffer || !buffer.hasStaticShape() ||
        buffer.getElementType() != view.getElementType())
      return emitOpError("argument #")
             << i << " must be a static-shape memref of element type "
             << view.getElementType() << " for the view " << view << ", got "
             << arg.getType();
    // A static view binds any buffer of as many elements: the buffer
    // reinterpreted row-major, as a reshape that is a view binds it.
    if (!ShapedType::isDynamicShape(view.getShape())) {
      int64_t elements = ShapedType::getNumElements(view.getShape());
      if (buffer.getNumElements() == elements)
        continue;
      return emitOpError("argument #")
             << i << " has " << buffer.getNumElements()
             << " elements where the view " << view << " has " << elements;
    }
    if (buffer.getRank() != view.getRank())
      return emitOpError("argument #")
             << i << " must have rank " << view.getRank() << " for the view "
             << view << ", whose dynamic sizes it gives; got " << arg.getType();
    for (auto [d, viewDim, bufferDim] :
         llvm::enumerate(view.getShape(), buffer.getShape()))
      if (!ShapedType::isDynamic(viewDim) && viewDim != bufferDim)
        return emitOpError("argument #")
               << i << " has size " << bufferDim << " in dim " << d
               << " where the view has " << viewDim;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Checks a load or store of `tile` at `indices` of `view`.
static LogicalResult verifyAccess(Operation *op, TensorViewType view,
                                  RankedTensorType tile, size_t numIndices,
                                  IntegerAttr latency) {
  if (numIndices != static_cast<size_t>(view.getRank()))
    return op->emitOpError("needs ")
           << view.getRank() << " tile-space indices for a rank-"
           << view.getRank() << " view, got " << numIndices;
  if (tile.getRank() != view.getRank())
    return op->emitOpError("tile rank ")
           << tile.getRank() << " differs from the view rank "
           << view.getRank();
  if (tile.getElementType() != view.getElementType())
    return op->emitOpError("tile element type ")
           << tile.getElementType() << " differs from the view's "
           << view.getElementType();
  if (latency && (latency.getInt() < 1 || latency.getInt() > 10))
    return op->emitOpError("latency ")
           << latency.getInt() << " is outside 1-10";
  return success();
}

LogicalResult LoadOp::verify() {
  RankedTensorType tile = getResult().getType();
  if (failed(verifyAccess(*this, getView().getType(), tile,
                          getIndices().size(), getLatencyAttr())))
    return failure();
  std::optional<PaddingMode> padding = getPadding();
  bool needsFloat = padding && *padding != PaddingMode::undetermined &&
                    *padding != PaddingMode::zero;
  if (needsFloat && !isa<FloatType>(tile.getElementType()))
    return emitOpError("padding ")
           << stringifyPaddingMode(*padding) << " needs floating-point "
           << "elements, not " << tile.getElementType();
  return success();
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getView().getType(), getValue().getType(),
                      getIndices().size(), getLatencyAttr());
}

/// Checks the element type and the offsets of a tile.gather or scatter.
static LogicalResult verifyElementAccess(Operation *op, TensorViewType view,
                                         RankedTensorType tile,
                                         RankedTensorType offsets) {
  if (tile.getElementType() != view.getElementType())
    return op->emitOpError("accesses elements of ")
           << view.getElementType() << " as " << tile.getElementType();
  if (offsets.getShape() != tile.getShape())
    return op->emitOpError("has offsets of shape [")
           << offsets.getShape() << "] for a tile of shape [" << tile.getShape()
           << "]";
  if (!offsets.getElementType().isSignlessInteger(32) &&
      !offsets.getElementType().isSignlessInteger(64))
    return op->emitOpError("takes offsets of i32 or i64, not ")
           << offsets.getElementType();
  return success();
}

LogicalResult GatherOp::verify() {
  return verifyElementAccess(*this, getView().getType(), getResult().getType(),
                             getOffsets().getType());
}

LogicalResult ScatterOp::verify() {
  return verifyElementAccess(*this, getView().getType(), getValue().getType(),
                             getOffsets().getType());
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

static bool isFloat8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

/// Whether tensor cores multiply `lhs` by `rhs` elements into `acc`
/// elements. Only the two fp8 formats may be mixed (as wgmma allows).
static bool isSupportedMma(Type lhs, Type rhs, Type acc) {
  if (isFloat8(lhs) && isFloat8(rhs))
    return acc.isF16() || acc.isF32();
  if (lhs != rhs)
    return false;
  if (lhs.isF16())
    return acc.isF16() || acc.isF32();
  if (lhs.isBF16() || lhs.isF32())
    return acc.isF32();
  if (lhs.isSignlessInteger(8))
    return acc.isSignlessInteger(32);
  return false;
}

/// `type` with its last two dims swapped.
static RankedTensorType transposedMatrix(RankedTensorType type) {
  SmallVector<int64_t> shape(type.getShape());
  std::swap(shape[shape.size() - 2], shape.back());
  return type.clone(shape);
}

LogicalResult MmaOp::verify() {
  RankedTensorType lhs = getLhs().getType(), rhs = getRhs().getType(),
                   acc = getAcc().getType();
  if (lhs.getRank() > 3)
    return emitOpError("takes rank-2 tiles, or rank 3 with a batch dim; got "
                       "rank ")
           << lhs.getRank();
  if (getRhsTransposed()) {
    if (rhs.getRank() != 2)
      return emitOpError("takes a transposed rhs of rank 2 only, got rank ")
             << rhs.getRank();
    if (lhs.getShape().back() != rhs.getShape().back())
      return emitOpError("contraction dims differ: lhs has ")
             << lhs.getShape().back() << " columns, the transposed rhs ("
             << rhs.getDimSize(0) << "x" << rhs.getDimSize(1) << ", N x K) has "
             << rhs.getShape().back();
    rhs = transposedMatrix(rhs);
  }
  if (failed(verifyMatmulShapes(*this, lhs, rhs, acc)))
    return failure();
  Type lhsElement = lhs.getElementType(), rhsElement = rhs.getElementType();
  if (lhsElement != rhsElement && !(isFloat8(lhsElement) && isFloat8(rhsElement)))
    return emitOpError("operand element types differ: ")
           << lhsElement << " and " << rhsElement;
  if (!isSupportedMma(lhsElement, rhsElement, acc.getElementType()))
    return emitOpError("tensor cores do not multiply ")
           << lhsElement << " into a " << acc.getElementType()
           << " accumulator";
  LayoutAttrInterface layout = getLayout(acc);
  if (!layout)
    return success();
  bool tensorCoreLayout = isa<MmaSyncAttr, WgmmaAttr>(layout);
  if (runsOnTensorCores() && !tensorCoreLayout)
    return emitOpError("accumulates in ")
           << layout << "; an accumulator has the layout of the tensor cores "
           << "(#tile.mma_sync or #tile.wgmma)";
  if (!runsOnTensorCores() && tensorCoreLayout)
    return emitOpError("accumulates in ")
           << layout << "; a product of f32 operands runs on the CUDA cores, "
           << "with the accumulator laid out as #tile.blocked";
  return success();
}

bool MmaOp::runsOnTensorCores() {
  return !getLhs().getType().getElementType().isF32();
}

LogicalResult ReduceOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  int64_t dim = getDim();
  if (failed(verifyDimIndex(*this, dim, input.getRank(), "reduction dim")) ||
      failed(verifySameElementType(*this, {input, result})))
    return failure();
  SmallVector<int64_t> expected(input.getShape());
  expected.erase(expected.begin() + dim);
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result must drop dim ")
           << dim << " of the input, got " << result;
  return success();
}

LogicalResult ReduceAcrossBlocksOp::verify() {
  // Blocks exchange their tiles through device memory as f32 or i32 words
  // and combine them there.
  Type element = getInput().getType().getElementType();
  bool word = isa<FloatType>(element) ? element.getIntOrFloatBitWidth() <= 32
                                      : element.isSignlessInteger(32);
  if (!word)
    return emitOpError("combines floats of at most 32 bits or i32 across "
                       "blocks, got ")
           << element;
  return success();
}

LogicalResult ScanOp::verify() {
  return verifyDimIndex(*this, getDim(), getInput().getType().getRank(),
                        "scan dim");
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  if (failed(verifySameElementType(*this, {input, result})))
    return failure();
  if (input.getRank() != result.getRank())
    return emitOpError("keeps the rank: input has rank ")
           << input.getRank() << ", result " << result.getRank()
           << " (use tile.reshape to add unit dims)";
  for (auto [d, in, out] :
       llvm::enumerate(input.getShape(), result.getShape()))
    if (in != out && in != 1)
      return emitOpError("cannot broadcast dim ")
             << d << " of size " << in << " to " << out;
  return success();
}

LogicalResult SplatOp::verify() {
  if (getInput().getType() != getResult().getType().getElementType())
    return emitOpError("scalar type ")
           << getInput().getType() << " differs from the tile element type "
           << getResult().getType().getElementType();
  return success();
}

LogicalResult IotaOp::verify() {
  RankedTensorType type = getResult().getType();
  if (type.getRank() != 1 || !type.getElementType().isSignlessInteger())
    return emitOpError("produces a 1-D tile of signless integers, got ")
           << type;
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  if (width < 64 && type.getDimSize(0) - 1 > (int64_t{1} << (width - 1)) - 1)
    return emitOpError("cannot count to ")
           << type.getDimSize(0) - 1 << " in " << type.getElementType();
  return success();
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  if (failed(verifySameElementType(*this, {input, result})))
    return failure();
  if (input.getNumElements() != result.getNumElements())
    return emitOpError("cannot reshape ")
           << input.getNumElements() << " elements into "
           << result.getNumElements();
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  if (input.getShape() != result.getShape() ||
      input.getElementType() != result.getElementType())
    return emitOpError("keeps the shape and element type of the tile, got ")
           << input << " -> " << result;
  LayoutAttrInterface from = getLayout(input), to = getLayout(result);
  if (!from || !to)
    return emitOpError("converts between layouts: its input and result "
                       "need one each");
  if (from == to)
    return emitOpError("input and result have the same layout ")
           << from << "; there is nothing to convert";
  return success();
}

LogicalResult PermuteOp::verify() {
  RankedTensorType input = getInput().getType(), result = getResult().getType();
  if (failed(verifySameElementType(*this, {input, result})))
    return failure();
  return verifyPermutation(*this, input, result, getPermutation());
}

#define GET_OP_CLASSES
namespace {
/// mma(lhs, permute(x, [1, 0]), acc) -> mma(lhs, x, acc) {rhs_transposed}:
/// the tensor cores read x in its own layout (MmaOp's description).
struct FoldRhsTranspose : public OpRewritePattern<MmaOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MmaOp mma,
                                PatternRewriter &rewriter) const override {
    auto permute = mma.getRhs().getDefiningOp<PermuteOp>();
    if (mma.getRhsTransposed() || !permute ||
        permute.getPermutation() != ArrayRef<int64_t>{1, 0})
      return failure();
    rewriter.modifyOpInPlace(mma, [&] {
      mma.getRhsMutable().assign(permute.getInput());
      mma.setRhsTransposed(true);
    });
    return success();
  }
};
} // namespace

void MmaOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<FoldRhsTranspose>(context);
}

#include "TileOpt/Dialect/Tile/IR/TileOps.cpp.inc"
