//===- Utility.cpp - What the tile-to-GPU patterns share ------------------===//
#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;
using tile::CombineKind;

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

Value tiletogpu::indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value tiletogpu::i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 64);
}

Value tiletogpu::addIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value tiletogpu::mulIndex(OpBuilder &b, Location loc, Value x, int64_t y) {
  return arith::MulIOp::create(b, loc, x, indexConstant(b, loc, y));
}

Value tiletogpu::threadIdOf(OpBuilder &b, Location loc) {
  return gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
}

SmallVector<Value> tiletogpu::delinearize(OpBuilder &b, Location loc,
                                          Value linear,
                                          ArrayRef<int64_t> shape) {
  SmallVector<Value> coords(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    Value size = indexConstant(b, loc, shape[d]);
    coords[d] = arith::RemUIOp::create(b, loc, linear, size);
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  return coords;
}

Value tiletogpu::linearize(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                           ArrayRef<int64_t> shape) {
  Value linear = indexConstant(b, loc, 0);
  for (auto [coord, size] : llvm::zip(coords, shape))
    linear = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, linear, indexConstant(b, loc, size)),
        coord);
  return linear;
}

Value tiletogpu::extractElement(OpBuilder &b, Location loc, Value vec,
                                int64_t i) {
  return vector::ExtractOp::create(b, loc, vec, ArrayRef<int64_t>{i});
}

Value tiletogpu::extractSlice(OpBuilder &b, Location loc, Value vec,
                              int64_t start, int64_t size) {
  SmallVector<int64_t> mask = llvm::to_vector(llvm::seq(start, start + size));
  return vector::ShuffleOp::create(b, loc, vec, vec, mask);
}

Value tiletogpu::concat(OpBuilder &b, Location loc, SmallVector<Value> parts) {
  while (parts.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i < parts.size(); i += 2) {
      int64_t n = cast<VectorType>(parts[i].getType()).getNumElements();
      SmallVector<int64_t> mask = llvm::to_vector(llvm::seq<int64_t>(0, 2 * n));
      next.push_back(
          vector::ShuffleOp::create(b, loc, parts[i], parts[i + 1], mask));
    }
    parts = std::move(next);
  }
  return parts.front();
}

Value tiletogpu::fromElements(OpBuilder &b, Location loc,
                              ArrayRef<Value> elements) {
  auto type = VectorType::get({static_cast<int64_t>(elements.size())},
                              elements.front().getType());
  return vector::FromElementsOp::create(b, loc, type, elements);
}

void tiletogpu::inFirstThread(OpBuilder &b, Location loc,
                              function_ref<void()> body) {
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            threadIdOf(b, loc), indexConstant(b, loc, 0));
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, isFirst,
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

//===----------------------------------------------------------------------===//
// Layouts during the conversion
//===----------------------------------------------------------------------===//

FragmentLayout tiletogpu::layoutOf(Type type) {
  return tile::getFragmentLayout(cast<RankedTensorType>(type));
}

bool tiletogpu::isWgmma(tile::MmaOp mma) {
  return isa_and_nonnull<tile::WgmmaAttr>(
      tile::getLayout(mma.getAcc().getType()));
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

bool tiletogpu::fitsScratchWord(Type type) {
  return type.isIntOrFloat() && type.getIntOrFloatBitWidth() <= 32;
}

Value tiletogpu::toScratchWord(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  Type f32 = b.getF32Type();
  if (type == f32)
    return v;
  if (isa<FloatType>(type))
    return arith::ExtFOp::create(b, loc, f32, v);
  Type i32 = b.getI32Type();
  if (type != i32)
    v = arith::ExtUIOp::create(b, loc, i32, v);
  return arith::BitcastOp::create(b, loc, f32, v);
}

Value tiletogpu::fromScratchWord(OpBuilder &b, Location loc, Value word,
                                 Type type) {
  if (type == word.getType())
    return word;
  if (isa<FloatType>(type))
    return arith::TruncFOp::create(b, loc, type, word);
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), word);
  if (type == bits.getType())
    return bits;
  return arith::TruncIOp::create(b, loc, type, bits);
}

Type tiletogpu::exchangeWordType(Type type) {
  return isa<FloatType>(type) ? Type(Float32Type::get(type.getContext()))
                              : type;
}

Relayout tiletogpu::relayoutOf(Operation *op) {
  Type source = op->getOperand(0).getType();
  FragmentLayout in = layoutOf(source);
  if (in.numElements == 1)
    return Relayout::Splat;
  if (isa<tile::ReshapeOp>(op) && in == layoutOf(op->getResult(0).getType()))
    return Relayout::InPlace;
  if (in.replicated && 32 % in.numElements == 0 &&
      fitsScratchWord(getElementTypeOrSelf(source)))
    return Relayout::Shuffles;
  return Relayout::Scratch;
}

int64_t tiletogpu::reduceWarpsPerRow(const FragmentLayout &in,
                                     int64_t numThreads) {
  if (in.kind == FragmentLayout::Kind::Mma)
    return in.warpsN;
  int64_t threads = in.replicated ? in.numElements : numThreads;
  int64_t chunksPerRow = in.shape.back() / in.vectorWidth;
  int64_t lanes = std::min<int64_t>(chunksPerRow, 32);
  return std::min(chunksPerRow, threads) / lanes;
}

int64_t tiletogpu::scratchWords(Operation *op, int64_t numThreads) {
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    FragmentLayout in = layoutOf(reduce.getInput().getType());
    int64_t rows = in.numElements / in.shape.back();
    return rows * reduceWarpsPerRow(in, numThreads);
  }
  if (auto scan = dyn_cast<tile::ScanOp>(op)) {
    FragmentLayout in = layoutOf(scan.getInput().getType());
    return in.numElements / in.vectorWidth;
  }
  // The tile, or the slices of its combination (ReduceAcrossBlocksLowering).
  if (auto combine = dyn_cast<tile::ReduceAcrossBlocksOp>(op))
    return std::max<int64_t>(combine.getType().getNumElements(), numThreads);
  // Both multiplicands of a product on the CUDA cores (MmaOpToGPU.cpp).
  if (auto mma = dyn_cast<tile::MmaOp>(op); mma && !mma.runsOnTensorCores())
    return mma.getLhs().getType().getNumElements() +
           mma.getRhs().getType().getNumElements();
  if (isa<tile::BroadcastOp, tile::ReshapeOp, tile::PermuteOp,
          tile::ConvertLayoutOp>(op)) {
    if (relayoutOf(op) != Relayout::Scratch)
      return 0;
    return layoutOf(op->getOperand(0).getType()).numElements;
  }
  return 0;
}

Value tiletogpu::workgroupBuffer(Operation *op, Type elementType) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  auto hasElementType = [&](Value buffer) {
    return cast<MemRefType>(buffer.getType()).getElementType() == elementType;
  };
  for (BlockArgument buffer : func.getWorkgroupAttributions())
    if (hasElementType(buffer))
      return buffer;
  for (auto view : func.getBody().front().getOps<memref::ReinterpretCastOp>())
    if (hasElementType(view))
      return view;
  llvm_unreachable("outlining sized a buffer for every use");
}

Value tiletogpu::scratchOf(Operation *op) {
  return workgroupBuffer(op, Float32Type::get(op->getContext()));
}

void tiletogpu::storeToScratch(OpBuilder &b, Location loc, Value fragment,
                               const FragmentLayout &layout, Value scratch,
                               int64_t offset) {
  Value tid = threadIdOf(b, loc);
  Value writer;
  if (layout.replicated)
    writer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                   indexConstant(b, loc, layout.numElements));
  for (int64_t i = 0; i < layout.fragmentSize(); ++i) {
    Value word = toScratchWord(b, loc, extractElement(b, loc, fragment, i));
    Value at = layout.linearIndex(b, loc, tid, i);
    if (offset != 0)
      at = addIndex(b, loc, at, indexConstant(b, loc, offset));
    if (!writer) {
      memref::StoreOp::create(b, loc, word, scratch, at);
      continue;
    }
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, writer,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::StoreOp::create(b, loc, word, scratch, at);
  }
}

Value tiletogpu::loadFromScratch(OpBuilder &b, Location loc,
                                 const FragmentLayout &layout, Type elementType,
                                 Value scratch,
                                 function_ref<Value(Value)> sourceOf) {
  Value tid = threadIdOf(b, loc);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < layout.fragmentSize(); ++i) {
    Value position = layout.linearIndex(b, loc, tid, i);
    Value word = memref::LoadOp::create(b, loc, scratch, sourceOf(position));
    elements.push_back(fromScratchWord(b, loc, word, elementType));
  }
  return fromElements(b, loc, elements);
}

Value tiletogpu::sharedAddress(OpBuilder &b, Location loc, Value base,
                               Type elementType, Value offset) {
  Value offset64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), offset);
  return LLVM::GEPOp::create(b, loc, base.getType(), elementType, base,
                             ValueRange{offset64});
}

Value tiletogpu::sharedPointer(OpBuilder &b, Location loc, Value buffer) {
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), /*addressSpace=*/3),
      arith::IndexCastOp::create(
          b, loc, b.getI64Type(),
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer))
          .getResult());
}

//===----------------------------------------------------------------------===//
// Combining (reductions and scans)
//===----------------------------------------------------------------------===//

Value tiletogpu::convertAccumulator(OpBuilder &b, Location loc, Value v,
                                    Type type) {
  if (v.getType() == type)
    return v;
  Type from = getElementTypeOrSelf(v.getType()),
       to = getElementTypeOrSelf(type);
  bool widen = to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth();
  if (isa<FloatType>(to))
    return widen ? Value(arith::ExtFOp::create(b, loc, type, v))
                 : Value(arith::TruncFOp::create(b, loc, type, v));
  return widen ? Value(arith::ExtSIOp::create(b, loc, type, v))
               : Value(arith::TruncIOp::create(b, loc, type, v));
}

Value tiletogpu::combine(OpBuilder &b, Location loc, CombineKind kind,
                         Value lhs, Value rhs) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
  switch (kind) {
  case CombineKind::sum:
    return isFloat ? Value(arith::AddFOp::create(b, loc, lhs, rhs))
                   : Value(arith::AddIOp::create(b, loc, lhs, rhs));
  case CombineKind::prod:
    return isFloat ? Value(arith::MulFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MulIOp::create(b, loc, lhs, rhs));
  case CombineKind::max:
    return isFloat ? Value(arith::MaximumFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
  case CombineKind::min:
    return isFloat ? Value(arith::MinimumFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
  }
  llvm_unreachable("unknown combine kind");
}

Value tiletogpu::identityOf(OpBuilder &b, Location loc, CombineKind kind,
                            Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    APFloat value =
        kind == CombineKind::sum ? APFloat::getZero(sem)
        : kind == CombineKind::prod
            ? APFloat::getOne(sem)
            : APFloat::getInf(sem, /*Negative=*/kind == CombineKind::max);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = kind == CombineKind::sum    ? APInt::getZero(width)
                : kind == CombineKind::prod ? APInt(width, 1)
                : kind == CombineKind::max  ? APInt::getSignedMinValue(width)
                                            : APInt::getSignedMaxValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}
