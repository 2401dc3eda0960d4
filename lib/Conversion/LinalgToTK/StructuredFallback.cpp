//===- StructuredFallback.cpp - What no tk op models, as tk.structured ----===//
#include "StructuredFallback.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// A value the region of a tk.structured rebuilds rather than takes as an
/// input: a scalar or splat constant, an empty tensor, a fill of those.
bool isRebuilt(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    return !dense || dense.isSplat();
  }
  if (auto empty = dyn_cast<tensor::EmptyOp>(def))
    return empty.getType().hasStaticShape();
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return fill.hasPureTensorSemantics() &&
           llvm::all_of(fill->getOperands(), isRebuilt);
  return false;
}

/// Whether a tk value can hold `type`: a static float tensor with no empty
/// dim.
bool isKernelGraphTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         isa<FloatType>(tensor.getElementType()) &&
         llvm::all_of(tensor.getShape(), [](int64_t d) { return d > 0; });
}

/// Checks that the generic kernel can compute `op`.
LogicalResult checkComputable(Operation *op, llvm::raw_ostream &why) {
  if (op->getNumResults() != 1 ||
      !isKernelGraphTensor(op->getResult(0).getType())) {
    why << "its result must be one static float tensor";
    return failure();
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    if (!getConstantIntValues(pad.getMixedLowPad())) {
      why << "it pads by amounts known only at run time";
      return failure();
    }
    Value padding = pad.getConstantPaddingValue();
    if (!padding || !isRebuilt(padding)) {
      why << "it pads with a value computed at run time";
      return failure();
    }
    return success();
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp) {
    why << "only linalg ops and tensor.pad get a generic kernel";
    return failure();
  }
  if (!linalgOp.hasPureTensorSemantics() || linalgOp.getNumDpsInits() != 1) {
    why << "it must work on tensors and have one init";
    return failure();
  }
  for (Operation &nested : *linalgOp.getBlock())
    if (!isa<arith::ArithDialect, math::MathDialect>(nested.getDialect()) &&
        !isa<linalg::IndexOp, linalg::YieldOp, tensor::ExtractOp>(nested)) {
      why << "its payload holds '" << nested.getName()
          << "'; the generic kernel runs arith and math ops, linalg.index "
             "and tensor.extract";
      return failure();
    }
  return success();
}

/// tensor.pad as a linalg.generic over its result: each element reads the
/// source where it lies inside it (a clamped index elsewhere, so that the
/// read stays in bounds) and the padding value outside.
Value padAsGeneric(OpBuilder &b, tensor::PadOp pad, const IRMapping &mapping) {
  Location loc = pad.getLoc();
  RankedTensorType type = pad.getResultType();
  Value source = mapping.lookup(pad.getSource());
  Value padding = mapping.lookup(pad.getConstantPaddingValue());
  ArrayRef<int64_t> sourceShape = pad.getSourceType().getShape();
  // Constants (checkComputable), as SSA values where tosa.pad's lowering
  // gives them.
  SmallVector<int64_t> low = *getConstantIntValues(pad.getMixedLowPad());
  int64_t rank = type.getRank();
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange) {
        Value zero = arith::ConstantIndexOp::create(nested, loc, 0);
        Value inside;
        SmallVector<Value> at;
        for (int64_t d = 0; d < rank; ++d) {
          Value index = linalg::IndexOp::create(nested, loc, d);
          Value shifted = arith::SubIOp::create(
              nested, loc, index,
              arith::ConstantIndexOp::create(nested, loc, low[d]));
          Value notBelow = arith::CmpIOp::create(
              nested, loc, arith::CmpIPredicate::sge, shifted, zero);
          Value notAbove = arith::CmpIOp::create(
              nested, loc, arith::CmpIPredicate::slt, shifted,
              arith::ConstantIndexOp::create(nested, loc, sourceShape[d]));
          Value inDim = arith::AndIOp::create(nested, loc, notBelow, notAbove);
          at.push_back(
              arith::SelectOp::create(nested, loc, inDim, shifted, zero));
          inside = inside ? arith::AndIOp::create(nested, loc, inside, inDim)
                          : inDim;
        }
        Value element = tensor::ExtractOp::create(nested, loc, source, at);
        if (inside)
          element =
              arith::SelectOp::create(nested, loc, inside, element, padding);
        linalg::YieldOp::create(nested, loc, element);
      });
  return generic.getResult(0);
}

} // namespace

FailureOr<tk::StructuredOp> tileopt::wrapAsStructured(Operation *op,
                                                      RewriterBase &rewriter,
                                                      llvm::raw_ostream &why) {
  if (failed(checkComputable(op, why)))
    return failure();
  // What the op reads: its operands and what its regions use from outside.
  llvm::SetVector<Value> captured(llvm::from_range, op->getOperands());
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  SmallVector<Value> inputs;
  for (Value value : captured) {
    if (isRebuilt(value))
      continue;
    if (!isKernelGraphTensor(value.getType())) {
      why << "it reads a value of type " << value.getType()
          << ", which no kernel graph value holds";
      return failure();
    }
    inputs.push_back(value);
  }

  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  auto structured = tk::StructuredOp::create(rewriter, loc, type, inputs);
  SmallVector<Location> locs(inputs.size(), loc);
  Block *body = rewriter.createBlock(&structured.getBody(), {},
                                     ValueRange(inputs).getTypes(), locs);
  IRMapping mapping;
  mapping.map(inputs, body->getArguments());
  std::function<void(Value)> rebuild = [&](Value value) {
    if (mapping.contains(value))
      return;
    Operation *def = value.getDefiningOp();
    for (Value operand : def->getOperands())
      rebuild(operand);
    rewriter.clone(*def, mapping);
  };
  for (Value value : captured)
    if (isRebuilt(value))
      rebuild(value);

  Value result;
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    result = padAsGeneric(rewriter, pad, mapping);
  } else {
    auto clone = cast<linalg::LinalgOp>(rewriter.clone(*op, mapping));
    if (auto generic = dyn_cast<linalg::GenericOp>(clone.getOperation())) {
      result = generic.getResult(0);
    } else {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, clone);
      if (failed(generalized)) {
        rewriter.eraseOp(structured);
        why << "upstream cannot write it as a linalg.generic";
        return failure();
      }
      result = generalized->getResult(0);
    }
  }
  tk::YieldOp::create(rewriter, loc, result);
  rewriter.replaceOp(op, structured.getResult());
  // The constants, empty tensors and fills the region rebuilt are dead
  // outside it now, unless something else reads them.
  std::function<void(Value)> eraseIfDead = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || !def->use_empty())
      return;
    SmallVector<Value> operands(def->getOperands());
    rewriter.eraseOp(def);
    llvm::for_each(operands, eraseIfDead);
  };
  for (Value value : captured)
    if (isRebuilt(value))
      eraseIfDead(value);
  return structured;
}
