//===- StructuredKernels.cpp - tk.structured as a generic tile kernel -----===//
//
// A tk.structured holds a linalg.generic that no tk op models (a
// convolution, a pooling window, padding, a payload that reads the
// iteration index or another tensor). Its kernel is the loop nest itself,
// one output element per lane of a 1-D tile of kLanes: a block takes
// kLanes consecutive elements of the result (row-major), each lane finds
// its parallel loops' indices from its element's position, the reduction
// loops (flattened into one) run as an scf.for, and every operand element
// is read with tile.gather at the offset its indexing map gives. The
// payload runs on tiles, op for op: arith and math ops on whole tiles,
// linalg.index as the loop's index tile, tensor.extract as a gather.
// Index values are i32 (views of fewer than 2^31 elements).
//
// It is correct for every generic the importer wraps, not fast: nothing is
// reused between lanes, which is what the superoptimizer's kernels are for.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Conversion/TKToTile/TKToTile.h"

#include "TileOpt/Dialect/Common/ElementwiseBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// Output elements per block: two per thread of a 128-thread block.
constexpr int64_t kLanes = 256;

/// An affine expression or map as text, for diagnostics.
template <typename T> std::string printed(T value) {
  std::string text;
  llvm::raw_string_ostream(text) << value;
  return text;
}

class StructuredKernelBuilder {
public:
  StructuredKernelBuilder(OpBuilder &b, tk::StructuredOp op,
                          linalg::GenericOp generic)
      : b(b), op(op), generic(generic), loc(op.getLoc()), i32(b.getI32Type()) {}

  FailureOr<LoweredKernel> build(StringRef name);

private:
  RankedTensorType laneTile(Type element) {
    return RankedTensorType::get({kLanes}, element);
  }
  /// The type a payload value of `type` has as a tile: index values are
  /// i32.
  RankedTensorType tileOf(Type type) {
    return laneTile(type.isIndex() ? Type(i32) : type);
  }
  Value splat(Value scalar) {
    return tile::SplatOp::create(b, loc, tileOf(scalar.getType()), scalar);
  }
  Value splatI32(int64_t value) {
    return splat(arith::ConstantIntOp::create(b, loc, value, 32));
  }
  /// The row-major offset of `coords` (i32 tiles) in a tensor of `shape`.
  Value offsetIn(ArrayRef<Value> coords, ArrayRef<int64_t> shape);
  /// `expr` of the loops' index tiles.
  FailureOr<Value> evaluate(AffineExpr expr);
  /// The tile of `value`'s elements for every lane: a gather through
  /// `map` for a view, a splat for a constant.
  FailureOr<Value> read(Value value, AffineMap map);
  /// The payload's ops, on tiles; returns the yielded tile.
  FailureOr<Value> runPayload(Value accumulator);
  FailureOr<Value> initialValue();
  /// The splat value of `value` if a constant or a fill of one defines it.
  Value splatValueOf(Value value);

  OpBuilder &b;
  tk::StructuredOp op;
  linalg::GenericOp generic;
  Location loc;
  Type i32;
  tile::KernelOp kernel;
  /// The view of each region argument of `op`.
  IRMapping views;
  /// The index tile of each loop.
  SmallVector<Value> loops;
};

Value StructuredKernelBuilder::offsetIn(ArrayRef<Value> coords,
                                        ArrayRef<int64_t> shape) {
  Value offset;
  for (auto [coord, size] : llvm::zip(coords, shape)) {
    offset = offset ? arith::AddIOp::create(
                          b, loc,
                          arith::MulIOp::create(b, loc, offset, splatI32(size)),
                          coord)
                    : coord;
  }
  return offset ? offset : splatI32(0);
}

FailureOr<Value> StructuredKernelBuilder::evaluate(AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return loops[dim.getPosition()];
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return splatI32(constant.getValue());
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return op.emitOpError("has an indexing map with ")
           << printed(expr) << "; the generic kernel takes no symbols";
  FailureOr<Value> lhs = evaluate(binary.getLHS());
  FailureOr<Value> rhs = evaluate(binary.getRHS());
  if (failed(lhs) || failed(rhs))
    return failure();
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return Value(arith::AddIOp::create(b, loc, *lhs, *rhs));
  case AffineExprKind::Mul:
    return Value(arith::MulIOp::create(b, loc, *lhs, *rhs));
  case AffineExprKind::FloorDiv:
  case AffineExprKind::Mod:
    // Loop indices and map constants are non-negative here, so the
    // truncating forms agree with the flooring ones.
    if (!isa<AffineConstantExpr>(binary.getRHS()) ||
        cast<AffineConstantExpr>(binary.getRHS()).getValue() <= 0)
      return op.emitOpError("has an indexing map with ")
             << printed(expr)
             << "; the generic kernel divides by positive constants";
    if (expr.getKind() == AffineExprKind::FloorDiv)
      return Value(arith::DivSIOp::create(b, loc, *lhs, *rhs));
    return Value(arith::RemSIOp::create(b, loc, *lhs, *rhs));
  default:
    return op.emitOpError("has an indexing map with ")
           << printed(expr) << ", which the generic kernel does not evaluate";
  }
}

Value StructuredKernelBuilder::splatValueOf(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    return splatValueOf(fill.getInputs().front());
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return {};
  if (auto dense = dyn_cast<SplatElementsAttr>(attr))
    attr = dense.getSplatValue<Attribute>();
  auto typed = dyn_cast<TypedAttr>(attr);
  if (!typed || !typed.getType().isIntOrIndexOrFloat())
    return {};
  if (typed.getType().isIndex())
    typed = b.getI32IntegerAttr(cast<IntegerAttr>(typed).getInt());
  return arith::ConstantOp::create(b, loc, typed);
}

FailureOr<Value> StructuredKernelBuilder::read(Value value, AffineMap map) {
  if (Value scalar = splatValueOf(value))
    return splat(scalar);
  Value view = views.lookupOrNull(value);
  if (!view)
    return op.emitOpError("reads a value its kernel has no view of");
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> coords;
  for (AffineExpr expr : map.getResults()) {
    FailureOr<Value> coord = evaluate(expr);
    if (failed(coord))
      return failure();
    coords.push_back(*coord);
  }
  return Value(tile::GatherOp::create(b, loc, laneTile(type.getElementType()),
                                      view, offsetIn(coords, type.getShape())));
}

FailureOr<Value> StructuredKernelBuilder::initialValue() {
  OpOperand *init = generic.getDpsInitOperand(0);
  Type element =
      cast<ShapedType>(generic.getResultTypes().front()).getElementType();
  // An empty init is never read by a payload linalg accepts, but the tile
  // must hold something.
  if (init->get().getDefiningOp<tensor::EmptyOp>())
    return splat(arith::ConstantOp::create(b, loc, b.getZeroAttr(element)));
  return read(init->get(), generic.getMatchingIndexingMap(init));
}

FailureOr<Value> StructuredKernelBuilder::runPayload(Value accumulator) {
  Block &payload = generic.getRegion().front();
  IRMapping tiles;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    Value arg = payload.getArgument(input->getOperandNumber());
    if (arg.use_empty())
      continue;
    Value scalar = input->get();
    if (!isa<ShapedType>(scalar.getType())) {
      Value constant = splatValueOf(scalar);
      if (!constant)
        return op.emitOpError("reads a scalar that is not a constant");
      tiles.map(arg, splat(constant));
      continue;
    }
    FailureOr<Value> tile =
        read(input->get(), generic.getMatchingIndexingMap(input));
    if (failed(tile))
      return failure();
    tiles.map(arg, *tile);
  }
  tiles.map(payload.getArguments().back(), accumulator);
  // A payload value as a tile: computed in the payload, or a constant of
  // the region around it (a pad's padding value), splat.
  auto tileOfValue = [&](Value value) -> Value {
    if (Value tile = tiles.lookupOrNull(value))
      return tile;
    if (Value scalar = splatValueOf(value))
      return splat(scalar);
    return {};
  };

  for (Operation &nested : payload) {
    SmallVector<Value> operands;
    for (Value operand : nested.getOperands()) {
      if (isa<RankedTensorType>(operand.getType()))
        continue;
      operands.push_back(tileOfValue(operand));
      if (!operands.back())
        return nested.emitOpError("reads a value the generic kernel cannot "
                                  "compute on tiles");
    }
    if (isa<linalg::YieldOp>(nested))
      return operands.front();
    if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
      tiles.map(index.getResult(), loops[index.getDim()]);
      continue;
    }
    if (auto extract = dyn_cast<tensor::ExtractOp>(nested)) {
      auto type = cast<RankedTensorType>(extract.getTensor().getType());
      Value view = views.lookupOrNull(extract.getTensor());
      if (!view)
        return extract.emitOpError("reads a tensor the kernel has no view of");
      ArrayRef<Value> coords = operands;
      tiles.map(extract.getResult(),
                tile::GatherOp::create(b, loc, laneTile(type.getElementType()),
                                       view,
                                       offsetIn(coords, type.getShape())));
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(nested)) {
      Value scalar = splatValueOf(constant.getResult());
      if (!scalar)
        return constant.emitOpError("is not a scalar the kernel can splat");
      tiles.map(constant.getResult(), splat(scalar));
      continue;
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(nested)) {
      // Index values are i32 tiles: a cast to or from index is one between
      // i32 and the other type.
      Value in = operands.front();
      RankedTensorType to = tileOf(nested.getResult(0).getType());
      unsigned from =
          cast<RankedTensorType>(in.getType()).getElementTypeBitWidth();
      unsigned width = to.getElementTypeBitWidth();
      bool isUnsigned = isa<arith::IndexCastUIOp>(nested);
      Value out = in;
      if (width > from)
        out = isUnsigned ? Value(arith::ExtUIOp::create(b, loc, to, in))
                         : Value(arith::ExtSIOp::create(b, loc, to, in));
      else if (width < from)
        out = arith::TruncIOp::create(b, loc, to, in);
      tiles.map(nested.getResult(0), out);
      continue;
    }
    // An arith or math op (the tk.structured verifier allows no other).
    SmallVector<Type> types = llvm::map_to_vector(
        nested.getResultTypes(), [&](Type t) -> Type { return tileOf(t); });
    OperationState state(loc, nested.getName(), operands, types,
                         nested.getAttrs());
    Operation *onTiles = b.create(state);
    tiles.map(nested.getResults(), onTiles->getResults());
  }
  return op.emitOpError("has a payload without linalg.yield");
}

FailureOr<LoweredKernel> StructuredKernelBuilder::build(StringRef name) {
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  AffineMap outputMap =
      generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  // Each lane is one element of the result, so the result's map must name
  // every parallel loop once and nothing else.
  if (!outputMap.isProjectedPermutation() ||
      llvm::any_of(outputMap.getResults(),
                   [&](AffineExpr e) {
                     return iterators[cast<AffineDimExpr>(e).getPosition()] !=
                            utils::IteratorType::parallel;
                   }) ||
      outputMap.getNumResults() !=
          static_cast<unsigned>(
              llvm::count(iterators, utils::IteratorType::parallel)))
    return op.emitOpError("writes its result through ")
           << printed(outputMap)
           << "; the generic kernel needs each parallel loop to "
           << "be one dim of the result";
  if (resultType.getRank() == 0)
    return op.emitOpError("has a rank-0 result; the generic kernel writes "
                          "tensors of rank 1 or more");
  for (Value value : llvm::concat<Value>(op.getInputs(), op->getResults()))
    if (cast<RankedTensorType>(value.getType()).getNumElements() >=
        (int64_t{1} << 31))
      return op.emitOpError("has a tensor of 2^31 elements or more; the "
                            "generic kernel addresses them with i32");

  SmallVector<Type> viewTypes;
  for (Value value : llvm::concat<Value>(op.getInputs(), op->getResults())) {
    auto type = cast<RankedTensorType>(value.getType());
    viewTypes.push_back(tile::TensorViewType::get(
        b.getContext(), type.getShape(), type.getElementType()));
  }
  kernel = tile::KernelOp::create(
      b, loc, name, b.getFunctionType(viewTypes, {}),
      /*sym_visibility=*/nullptr, /*arg_attrs=*/nullptr,
      /*res_attrs=*/nullptr, /*occupancy=*/nullptr, /*num_ctas=*/nullptr);
  Block *entry = kernel.addEntryBlock();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(entry);
  Block &region = op.getBody().front();
  views.map(region.getArguments(),
            entry->getArguments().take_front(region.getNumArguments()));
  Value resultView = entry->getArguments().back();

  // This lane's element of the result, and its coordinates.
  Value block = arith::IndexCastOp::create(
      b, loc, i32, tile::BlockIdOp::create(b, loc, tile::GridDim::x));
  Value element = arith::AddIOp::create(
      b, loc,
      splat(arith::MulIOp::create(
          b, loc, block, arith::ConstantIntOp::create(b, loc, kLanes, 32))),
      tile::IotaOp::create(b, loc, laneTile(i32)));
  ArrayRef<int64_t> shape = resultType.getShape();
  loops.assign(iterators.size(), Value());
  Value rest = element;
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    unsigned loop = cast<AffineDimExpr>(outputMap.getResult(d)).getPosition();
    if (d == 0) {
      loops[loop] = rest;
      break;
    }
    loops[loop] = arith::RemSIOp::create(b, loc, rest, splatI32(shape[d]));
    rest = arith::DivSIOp::create(b, loc, rest, splatI32(shape[d]));
  }
  FailureOr<Value> init = initialValue();
  if (failed(init)) {
    kernel.erase();
    return failure();
  }
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<unsigned> reductionLoops;
  int64_t reductionSize = 1;
  for (auto [loop, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction) {
      reductionLoops.push_back(loop);
      reductionSize *= ranges[loop];
    }

  FailureOr<Value> result = failure();
  if (reductionLoops.empty()) {
    result = runPayload(*init);
  } else {
    // The reduction loops, flattened into one in row-major order.
    auto forOp = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, 0),
        arith::ConstantIndexOp::create(b, loc, reductionSize),
        arith::ConstantIndexOp::create(b, loc, 1), ValueRange{*init});
    OpBuilder::InsertionGuard loopGuard(b);
    b.setInsertionPointToStart(forOp.getBody());
    Value step =
        arith::IndexCastOp::create(b, loc, i32, forOp.getInductionVar());
    for (unsigned loop : llvm::reverse(reductionLoops)) {
      Value size = arith::ConstantIntOp::create(b, loc, ranges[loop], 32);
      loops[loop] = splat(arith::RemSIOp::create(b, loc, step, size));
      step = arith::DivSIOp::create(b, loc, step, size);
    }
    FailureOr<Value> next = runPayload(forOp.getRegionIterArgs().front());
    if (succeeded(next)) {
      scf::YieldOp::create(b, loc, *next);
      result = forOp.getResult(0);
    }
  }
  if (failed(result)) {
    kernel.erase();
    return failure();
  }
  // Lanes past the result's end have offsets outside it: nothing is
  // written for them.
  tile::ScatterOp::create(b, loc, *result, resultView, element);
  tile::ReturnOp::create(b, loc);

  int64_t blocks = llvm::divideCeil(resultType.getNumElements(), kLanes);
  SmallVector<Value> reads(op.getInputs());
  return LoweredKernel{kernel, {blocks, 1, 1}, reads, {op.getResult()}};
}

} // namespace

tk::StructuredOp tileopt::elementwiseAsStructured(OpBuilder &b, Operation *op) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = resultType.getRank();
  auto structured = tk::StructuredOp::create(b, loc, resultType,
                                             ValueRange(op->getOperands()));
  SmallVector<Location> locs(op->getNumOperands(), loc);
  Block *body =
      b.createBlock(&structured.getBody(), {}, op->getOperandTypes(), locs);
  // numpy broadcasting: operands align with the result's trailing dims,
  // and a dim of size 1 where the result's is larger is read at 0.
  SmallVector<AffineMap> maps;
  for (Value operand : op->getOperands()) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(operand.getType()).getShape();
    SmallVector<AffineExpr> exprs;
    for (auto [d, size] : llvm::enumerate(shape)) {
      int64_t loop = rank - static_cast<int64_t>(shape.size()) + d;
      exprs.push_back(size == 1 && resultType.getDimSize(loop) != 1
                          ? b.getAffineConstantExpr(0)
                          : b.getAffineDimExpr(loop));
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, b.getContext()));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                       resultType.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, body->getArguments(), ValueRange{init},
      maps, iterators, [&](OpBuilder &nested, Location loc, ValueRange args) {
        Value result =
            llvm::TypeSwitch<Operation *, Value>(op)
                .Case([&](tk::UnaryOp unary) {
                  std::optional<APFloat> scalar;
                  if (FloatAttr attr = unary.getScalarAttr())
                    scalar = attr.getValue();
                  return buildUnary(nested, loc, unary.getKind(), args[0],
                                    scalar);
                })
                .Case([&](tk::BinaryOp binary) {
                  return buildBinary(nested, loc, binary.getKind(), args[0],
                                     args[1]);
                })
                .Case([&](tk::MapOp map) {
                  IRMapping mapping;
                  Block &code = map.getBody().front();
                  mapping.map(code.getArguments(),
                              args.take_front(code.getNumArguments()));
                  for (Operation &scalarOp : code.without_terminator())
                    nested.clone(scalarOp, mapping);
                  return mapping.lookup(code.getTerminator()->getOperand(0));
                });
        linalg::YieldOp::create(nested, loc, result);
      });
  tk::YieldOp::create(b, loc, generic.getResult(0));
  op->getResult(0).replaceAllUsesWith(structured.getResult());
  op->erase();
  return structured;
}

FailureOr<LoweredKernel>
tileopt::lowerStructured(OpBuilder &b, tk::StructuredOp op, StringRef name) {
  linalg::GenericOp generic = op.getGeneric();
  return StructuredKernelBuilder(b, op, generic).build(name);
}
