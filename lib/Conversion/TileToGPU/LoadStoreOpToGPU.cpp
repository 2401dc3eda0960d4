//===- LoadStoreOpToGPU.cpp - tile.load, store, gather and scatter --------===//
//
// Each thread loads and stores the chunks of its fragment: one 16-byte
// access per chunk (two for f32) under one bounds check when the view's
// rows are a whole number of chunks, element by element otherwise. Also
// the cp.async copies of a staged mma loop's tiles into shared memory,
// which address the view the same way. tile.gather and tile.scatter access
// each element at its own offset, under its own bounds check.
//
//===----------------------------------------------------------------------===//
#include "StagedMmaLoop.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

namespace {

/// The pointer and the sizes of a view, rebuilt from the kernel parameters
/// outlining bound it to.
struct ViewParams {
  Value pointer;
  /// The size of every dim as an index value (constants for static dims).
  SmallVector<Value> sizes;
};

FailureOr<ViewParams> viewParams(OpBuilder &b, Location loc, Value view) {
  auto cast = view.getDefiningOp<UnrealizedConversionCastOp>();
  if (!cast)
    return failure();
  auto type = llvm::cast<tile::TensorViewType>(view.getType());
  ViewParams params{cast.getInputs().front(), {}};
  ValueRange dynamic = cast.getInputs().drop_front();
  for (int64_t dim : type.getShape()) {
    if (!ShapedType::isDynamic(dim)) {
      params.sizes.push_back(indexConstant(b, loc, dim));
      continue;
    }
    params.sizes.push_back(
        arith::IndexCastOp::create(b, loc, b.getIndexType(), dynamic.front()));
    dynamic = dynamic.drop_front();
  }
  return params;
}

/// Addressing of one tile access (load or store) by the current thread.
class TileAccess {
public:
  TileAccess(OpBuilder &b, Location loc, tile::TensorViewType viewType,
             ViewParams params, ValueRange tileIndices,
             RankedTensorType tileType, const FragmentLayout &layout)
      : b(b), loc(loc), params(std::move(params)), tileType(tileType),
        layout(layout) {
    for (auto [index, size] : llvm::zip(tileIndices, tileType.getShape()))
      origin.push_back(
          arith::MulIOp::create(b, loc, index, indexConstant(b, loc, size)));
    chunksAligned = chunksAlignedIn(viewType, layout);
    int64_t width = layout.vectorWidth;
    int64_t elementBytes = tileType.getElementTypeBitWidth() / 8;
    pieceWidth =
        chunksAligned
            ? std::min<int64_t>(width, 16 / std::max<int64_t>(elementBytes, 1))
            : 1;
  }

  /// The row-major coordinates in the view of tile position `linear`.
  SmallVector<Value> viewCoords(Value linear) {
    SmallVector<Value> coords =
        delinearize(b, loc, linear, tileType.getShape());
    for (auto [coord, start] : llvm::zip(coords, origin))
      coord = arith::AddIOp::create(b, loc, coord, start);
    return coords;
  }

  /// Whether the `count` elements from `coords` along the last dim are in
  /// the view.
  Value inBounds(ArrayRef<Value> coords, int64_t count) {
    Value ok;
    for (auto [d, coord] : llvm::enumerate(coords)) {
      Value end = coord;
      if (d + 1 == coords.size() && count > 1)
        end = arith::AddIOp::create(b, loc, coord,
                                    indexConstant(b, loc, count - 1));
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           end, params.sizes[d]);
      ok = ok ? arith::AndIOp::create(b, loc, ok, inside) : inside;
    }
    return ok;
  }

  /// The address of the element at `coords`.
  Value address(ArrayRef<Value> coords) {
    Value offset = coords.front();
    for (size_t d = 1; d < coords.size(); ++d)
      offset = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, offset, params.sizes[d]),
          coords[d]);
    Value offset64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), offset);
    return LLVM::GEPOp::create(b, loc, params.pointer.getType(),
                               tileType.getElementType(), params.pointer,
                               ValueRange{offset64});
  }

  /// Calls `visit(address, offset, piece, bytes)` for each memory
  /// instruction of an access of `width` elements from `coords`: `piece`
  /// elements starting at element `offset`, `bytes`-aligned.
  void
  forEachPiece(ArrayRef<Value> coords, int64_t width,
               function_ref<void(Value, int64_t, int64_t, int64_t)> visit) {
    int64_t piece = std::min(pieceWidth, width);
    int64_t bytes = piece * tileType.getElementTypeBitWidth() / 8;
    for (int64_t offset = 0; offset < width; offset += piece) {
      SmallVector<Value> at(coords);
      at.back() = arith::AddIOp::create(b, loc, at.back(),
                                        indexConstant(b, loc, offset));
      visit(address(at), offset, piece, bytes);
    }
  }

  OpBuilder &b;
  Location loc;
  ViewParams params;
  RankedTensorType tileType;
  const FragmentLayout &layout;
  SmallVector<Value> origin;
  bool chunksAligned = false;
  /// Elements per load or store instruction.
  int64_t pieceWidth = 1;
};

/// The padding value of a load, as a scalar of `type`.
Value paddingValue(OpBuilder &b, Location loc, Type type,
                   std::optional<tile::PaddingMode> mode) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
  const llvm::fltSemantics &sem = floatType.getFloatSemantics();
  APFloat value = APFloat::getZero(sem);
  switch (mode.value_or(tile::PaddingMode::zero)) {
  case tile::PaddingMode::undetermined:
  case tile::PaddingMode::zero:
    break;
  case tile::PaddingMode::neg_zero:
    value = APFloat::getZero(sem, /*Negative=*/true);
    break;
  case tile::PaddingMode::nan:
    value = APFloat::getQNaN(sem);
    break;
  case tile::PaddingMode::pos_inf:
    value = APFloat::getInf(sem);
    break;
  case tile::PaddingMode::neg_inf:
    value = APFloat::getInf(sem, /*Negative=*/true);
    break;
  }
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// The addressing of `tileType` at tile `indices` of the kernel-argument view
/// `view` (as adapted by the conversion), or failure for any other view.
FailureOr<TileAccess> tileAccess(OpBuilder &b, Location loc, Value view,
                                 ValueRange indices, RankedTensorType tileType,
                                 const FragmentLayout &layout) {
  FailureOr<ViewParams> params = viewParams(b, loc, view);
  if (failed(params))
    return failure();
  return TileAccess(b, loc, cast<tile::TensorViewType>(view.getType()), *params,
                    indices, tileType, layout);
}

/// Calls `access(first, coords, width)` for every access the current thread
/// makes for its fragment: one per chunk (`width` = the chunk width) when
/// chunks are aligned and wholly inside or outside the view, else one per
/// element (`width` = 1). `first` is the fragment index of the first element,
/// `coords` its position in the view.
void forEachAccess(
    OpBuilder &b, TileAccess &access, Value tid,
    function_ref<void(int64_t, ArrayRef<Value>, int64_t)> visit) {
  const FragmentLayout &layout = access.layout;
  int64_t width = layout.vectorWidth;
  for (int64_t first = 0; first < layout.fragmentSize(); first += width) {
    SmallVector<Value> coords =
        access.viewCoords(layout.linearIndex(b, access.loc, tid, first));
    if (access.chunksAligned) {
      visit(first, coords, width);
      continue;
    }
    for (int64_t i = 0; i < width; ++i) {
      SmallVector<Value> at(coords);
      at.back() = arith::AddIOp::create(b, access.loc, at.back(),
                                        indexConstant(b, access.loc, i));
      visit(first + i, at, 1);
    }
  }
}

struct LoadLowering : public TilePattern<tile::LoadOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType tileType = op.getType();
    FragmentLayout out = layout(tileType);
    FailureOr<TileAccess> access = tileAccess(
        rewriter, loc, adaptor.getView(), adaptor.getIndices(), tileType, out);
    if (failed(access))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    Value pad =
        paddingValue(rewriter, loc, tileType.getElementType(), op.getPadding());
    SmallVector<Value> pieces;
    forEachAccess(rewriter, *access, threadIdOf(rewriter, loc),
                  [&](int64_t, ArrayRef<Value> coords, int64_t width) {
                    pieces.push_back(
                        loadChunk(rewriter, *access, coords, pad, width));
                  });
    // Element-wise accesses give one-element vectors: concatenating them in
    // order rebuilds the fragment either way.
    rewriter.replaceOp(op, concat(rewriter, loc, pieces));
    return success();
  }

  /// Loads `width` elements from `coords`, or `pad` where they are outside.
  static Value loadChunk(OpBuilder &b, TileAccess &access,
                         ArrayRef<Value> coords, Value pad, int64_t width) {
    Location loc = access.loc;
    auto chunkType = VectorType::get({width}, pad.getType());
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{chunkType},
                                  access.inBounds(coords, width),
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> pieces;
    access.forEachPiece(
        coords, width,
        [&](Value address, int64_t, int64_t piece, int64_t bytes) {
          pieces.push_back(LLVM::LoadOp::create(
              b, loc, VectorType::get({piece}, pad.getType()), address, bytes));
        });
    scf::YieldOp::create(b, loc, concat(b, loc, pieces));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(
        b, loc,
        ValueRange{vector::BroadcastOp::create(b, loc, chunkType, pad)});
    return ifOp.getResult(0);
  }
};

struct StoreLowering : public TilePattern<tile::StoreOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType tileType = op.getValue().getType();
    FragmentLayout in = layout(tileType);
    FailureOr<TileAccess> access = tileAccess(
        rewriter, loc, adaptor.getView(), adaptor.getIndices(), tileType, in);
    if (failed(access))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    Value fragment = adaptor.getValue();
    Value tid = threadIdOf(rewriter, loc);
    // Of a replicated tile, only the first copy is written.
    Value writer;
    if (in.replicated)
      writer =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, tid,
                                indexConstant(rewriter, loc, in.numElements));
    forEachAccess(rewriter, *access, tid,
                  [&](int64_t first, ArrayRef<Value> coords, int64_t width) {
                    storeChunk(
                        rewriter, *access, coords,
                        extractSlice(rewriter, loc, fragment, first, width),
                        width, writer);
                  });
    rewriter.eraseOp(op);
    return success();
  }

  static void storeChunk(OpBuilder &b, TileAccess &access,
                         ArrayRef<Value> coords, Value chunk, int64_t width,
                         Value writer) {
    Location loc = access.loc;
    Value condition = access.inBounds(coords, width);
    if (writer)
      condition = arith::AndIOp::create(b, loc, condition, writer);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, condition,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    access.forEachPiece(
        coords, width,
        [&](Value address, int64_t offset, int64_t piece, int64_t bytes) {
          LLVM::StoreOp::create(b, loc,
                                extractSlice(b, loc, chunk, offset, piece),
                                address, bytes);
        });
  }
};

/// Calls `visit(i, address, inside)` for each element i of the current
/// thread's fragment of a tile.gather or scatter with offsets `offsets` (the
/// adapted fragment): `inside` whether the offset lies in the view, and
/// `address` the element's address there, or the view's first element's
/// when it does not (an address that never faults).
void forEachElementAccess(OpBuilder &b, Location loc, const ViewParams &params,
                          Type elementType, Value offsets, int64_t fragmentSize,
                          function_ref<void(int64_t, Value, Value)> visit) {
  Value count = i64Constant(b, loc, 1);
  for (Value size : params.sizes)
    count = arith::MulIOp::create(
        b, loc, count,
        arith::IndexCastOp::create(b, loc, b.getI64Type(), size));
  for (int64_t i = 0; i < fragmentSize; ++i) {
    Value offset = extractElement(b, loc, offsets, i);
    if (!offset.getType().isInteger(64))
      offset = arith::ExtSIOp::create(b, loc, b.getI64Type(), offset);
    // Unsigned: a negative offset is outside too.
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, offset, count);
    Value safe =
        arith::SelectOp::create(b, loc, inside, offset, i64Constant(b, loc, 0));
    Value address =
        LLVM::GEPOp::create(b, loc, params.pointer.getType(), elementType,
                            params.pointer, ValueRange{safe});
    visit(i, address, inside);
  }
}

struct GatherLowering : public TilePattern<tile::GatherOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ViewParams> params = viewParams(rewriter, loc, adaptor.getView());
    if (failed(params))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    Type elementType = op.getType().getElementType();
    Value zero = paddingValue(rewriter, loc, elementType, std::nullopt);
    SmallVector<Value> elements;
    forEachElementAccess(
        rewriter, loc, *params, elementType, adaptor.getOffsets(),
        layout(op.getType()).fragmentSize(),
        [&](int64_t, Value address, Value inside) {
          Value loaded =
              LLVM::LoadOp::create(rewriter, loc, elementType, address);
          elements.push_back(
              arith::SelectOp::create(rewriter, loc, inside, loaded, zero));
        });
    rewriter.replaceOp(op, fromElements(rewriter, loc, elements));
    return success();
  }
};

struct ScatterLowering : public TilePattern<tile::ScatterOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ViewParams> params = viewParams(rewriter, loc, adaptor.getView());
    if (failed(params))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    RankedTensorType tileType = op.getValue().getType();
    FragmentLayout in = layout(tileType);
    // Of a replicated tile, only the first copy is written.
    Value writer;
    if (in.replicated)
      writer = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, threadIdOf(rewriter, loc),
          indexConstant(rewriter, loc, in.numElements));
    Value fragment = adaptor.getValue();
    forEachElementAccess(
        rewriter, loc, *params, tileType.getElementType(), adaptor.getOffsets(),
        in.fragmentSize(), [&](int64_t i, Value address, Value inside) {
          if (writer)
            inside = arith::AndIOp::create(rewriter, loc, inside, writer);
          auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, inside,
                                        /*withElseRegion=*/false);
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(ifOp.thenBlock());
          LLVM::StoreOp::create(rewriter, loc,
                                extractElement(rewriter, loc, fragment, i),
                                address);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tiletogpu::copyTileAsync(OpBuilder &b, Location loc, tile::LoadOp load,
                              const StagedOperand &staged, int64_t numThreads,
                              Value shared, Value tid, Value base,
                              const IRMapping &mapping) {
  RankedTensorType type = load.getType();
  FragmentLayout chunks = layoutOf(type);
  SmallVector<Value> indices = llvm::map_to_vector(
      load.getIndices(), [&](Value v) { return mapping.lookupOrDefault(v); });
  FailureOr<TileAccess> access =
      tileAccess(b, loc, load.getView(), indices, type, chunks);
  assert(succeeded(access) && "StagedMmaLoopLowering checked the views");
  Value whole = arith::ConstantIntOp::create(b, loc, 16, 32);
  Value nothing = arith::ConstantIntOp::create(b, loc, 0, 32);
  for (int64_t first = 0; first < chunks.fragmentSize();
       first += chunks.vectorWidth) {
    Value linear = chunks.linearIndex(b, loc, tid, first);
    SmallVector<Value> coords = access->viewCoords(linear);
    Value inside = access->inBounds(coords, chunks.vectorWidth);
    // Outside the view nothing is read, but the address stays valid.
    Value source = arith::SelectOp::create(
        b, loc, inside, access->address(coords), access->params.pointer);
    Value bytes = arith::SelectOp::create(b, loc, inside, whole, nothing);
    SmallVector<Value> at = delinearize(b, loc, linear, type.getShape());
    Value target = sharedAddress(
        b, loc, shared, type.getElementType(),
        addIndex(b, loc, base, staged.offset(b, loc, at[0], at[1])));
    NVVM::CpAsyncOp::create(b, loc, target, source, /*size=*/16,
                            NVVM::LoadCacheModifierKind::CG, bytes);
  }
}

void tileopt::populateLoadStoreOpToGPUPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               int64_t numThreads) {
  patterns.add<LoadLowering, StoreLowering, GatherLowering, ScatterLowering>(
      converter, patterns.getContext(), numThreads);
}
