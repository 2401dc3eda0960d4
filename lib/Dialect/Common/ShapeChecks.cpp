//===- ShapeChecks.cpp - Shape rules shared by tk, tb and th --------------===//
#include "TileOpt/Dialect/Common/ShapeChecks.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

std::string tileopt::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(shape, os, "x");
  return s;
}

/// The last two dims of `c = a @ b`, once the batch dims are checked.
static LogicalResult verifyMatrixDims(Operation *op, ArrayRef<int64_t> sa,
                                      ArrayRef<int64_t> sb,
                                      ArrayRef<int64_t> sc) {
  if (sa.back() != sb[sb.size() - 2])
    return op->emitOpError("contraction dims differ: lhs has ")
           << sa.back() << " columns, rhs has " << sb[sb.size() - 2] << " rows";
  if (sc[sc.size() - 2] != sa[sa.size() - 2] || sc.back() != sb.back())
    return op->emitOpError("result must be ")
           << sa[sa.size() - 2] << "x" << sb.back()
           << " in its last two dims, got " << sc[sc.size() - 2] << "x"
           << sc.back();
  return success();
}

LogicalResult tileopt::verifyMatmulShapes(Operation *op, ShapedType a,
                                          ShapedType b, ShapedType c) {
  if (a.getRank() < 2 || a.getRank() != b.getRank() ||
      a.getRank() != c.getRank())
    return op->emitOpError("expects operands and result of one rank >= 2, got ")
           << a.getRank() << ", " << b.getRank() << " and " << c.getRank();
  ArrayRef<int64_t> sa = a.getShape(), sb = b.getShape(), sc = c.getShape();
  if (sa.drop_back(2) != sb.drop_back(2) || sa.drop_back(2) != sc.drop_back(2))
    return op->emitOpError("batch dims differ: ")
           << formatShape(sa.drop_back(2)) << ", " << formatShape(sb.drop_back(2))
           << " and " << formatShape(sc.drop_back(2));
  return verifyMatrixDims(op, sa, sb, sc);
}

LogicalResult tileopt::verifyBroadcastMatmulShapes(Operation *op, ShapedType a,
                                                   ShapedType b, ShapedType c) {
  if (a.getRank() < 2 || b.getRank() < 2)
    return op->emitOpError("expects operands of rank >= 2, got ")
           << a.getRank() << " and " << b.getRank();
  if (c.getRank() < 2)
    return op->emitOpError("expects a result of rank >= 2, got ")
           << c.getRank();
  ArrayRef<int64_t> sa = a.getShape(), sb = b.getShape(), sc = c.getShape();
  SmallVector<int64_t> batch;
  if (!OpTrait::util::getBroadcastedShape(sa.drop_back(2), sb.drop_back(2),
                                          batch))
    return op->emitOpError("batch dims ")
           << formatShape(sa.drop_back(2)) << " and "
           << formatShape(sb.drop_back(2)) << " do not broadcast";
  if (c.getRank() != static_cast<int64_t>(batch.size()) + 2 ||
      sc.drop_back(2) != ArrayRef<int64_t>(batch))
    return op->emitOpError("result must have the broadcast batch dims ")
           << formatShape(batch) << ", got " << formatShape(sc.drop_back(2));
  return verifyMatrixDims(op, sa, sb, sc);
}

LogicalResult tileopt::verifyBroadcastResult(Operation *op,
                                             ArrayRef<ShapedType> inputs,
                                             ShapedType result) {
  SmallVector<int64_t> shape(inputs.front().getShape());
  for (ShapedType input : inputs.drop_front()) {
    SmallVector<int64_t> next;
    if (!OpTrait::util::getBroadcastedShape(shape, input.getShape(), next))
      return op->emitOpError("shapes ")
             << formatShape(shape) << " and " << formatShape(input.getShape())
             << " do not broadcast";
    shape = std::move(next);
  }
  if (ArrayRef<int64_t>(shape) != result.getShape())
    return op->emitOpError("result shape must be the broadcast shape ")
           << formatShape(shape) << ", got " << formatShape(result.getShape());
  return success();
}

LogicalResult tileopt::verifyBroadcastsTo(Operation *op,
                                          ArrayRef<ShapedType> inputs,
                                          ShapedType result) {
  ArrayRef<int64_t> shape = result.getShape();
  for (auto [i, input] : llvm::enumerate(inputs)) {
    ArrayRef<int64_t> dims = input.getShape();
    int64_t offset = static_cast<int64_t>(shape.size()) -
                     static_cast<int64_t>(dims.size());
    bool broadcasts =
        offset >= 0 && llvm::all_of(llvm::enumerate(dims), [&](auto dim) {
          return dim.value() == 1 || dim.value() == shape[offset + dim.index()];
        });
    if (!broadcasts)
      return op->emitOpError("input #")
             << i << " of shape " << formatShape(dims)
             << " does not broadcast to the result shape "
             << formatShape(shape);
  }
  return success();
}

LogicalResult tileopt::verifySameElementType(Operation *op,
                                             ArrayRef<ShapedType> types) {
  Type expected = types.front().getElementType();
  for (ShapedType type : types.drop_front())
    if (type.getElementType() != expected)
      return op->emitOpError("element types differ: ")
             << expected << " and " << type.getElementType();
  return success();
}

LogicalResult tileopt::verifyDimIndex(Operation *op, int64_t dim, int64_t rank,
                                      StringRef what) {
  if (dim < 0 || dim >= rank)
    return op->emitOpError() << what << " " << dim << " is out of range for rank "
                             << rank;
  return success();
}

LogicalResult tileopt::verifyReduceShapes(Operation *op, ShapedType in,
                                          ShapedType out, int64_t dim,
                                          int64_t reducedSize) {
  if (failed(verifyDimIndex(op, dim, in.getRank(), "reduction dim")))
    return failure();
  if (reducedSize < 1 || in.getDimSize(dim) % reducedSize != 0)
    return op->emitOpError("cannot reduce dim ")
           << dim << " of size " << in.getDimSize(dim) << " to " << reducedSize
           << " elements: it must divide the size";
  SmallVector<int64_t> expected(in.getShape());
  expected[dim] = reducedSize;
  if (ArrayRef<int64_t>(expected) != out.getShape())
    return op->emitOpError("result shape must be ")
           << formatShape(expected) << ", got " << formatShape(out.getShape());
  return success();
}

LogicalResult tileopt::verifyConcatShapes(Operation *op,
                                          ArrayRef<ShapedType> parts,
                                          ShapedType whole, int64_t dim,
                                          StringRef partName,
                                          StringRef wholeName) {
  int64_t rank = whole.getRank();
  if (failed(verifyDimIndex(op, dim, rank, "dim")))
    return failure();
  for (auto [i, part] : llvm::enumerate(parts))
    if (part.getRank() != rank)
      return op->emitOpError() << partName << " #" << i << " has rank "
                               << part.getRank() << ", expected " << rank;
  SmallVector<int64_t> expected(parts.front().getShape());
  expected[dim] = 0;
  for (auto [i, part] : llvm::enumerate(parts)) {
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim && part.getDimSize(d) != expected[d])
        return op->emitOpError()
               << partName << " #" << i << " has size " << part.getDimSize(d)
               << " in dim " << d << ", expected " << expected[d];
    expected[dim] += part.getDimSize(dim);
  }
  if (ArrayRef<int64_t>(expected) != whole.getShape())
    return op->emitOpError()
           << wholeName << " shape must be " << formatShape(expected)
           << ", the " << partName << "s joined along dim " << dim << ", got "
           << formatShape(whole.getShape());
  return success();
}

LogicalResult tileopt::verifyPermutation(Operation *op, ShapedType in,
                                         ShapedType out,
                                         ArrayRef<int64_t> perm) {
  int64_t rank = in.getRank();
  if (static_cast<int64_t>(perm.size()) != rank)
    return op->emitOpError("permutation has ")
           << perm.size() << " entries for rank " << rank;
  SmallVector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return op->emitOpError("[") << llvm::make_range(perm.begin(), perm.end())
                                  << "] is not a permutation of 0.." << rank - 1;
    seen[p] = true;
  }
  SmallVector<int64_t> expected;
  for (int64_t p : perm)
    expected.push_back(in.getDimSize(p));
  if (ArrayRef<int64_t>(expected) != out.getShape())
    return op->emitOpError("result shape must be ")
           << formatShape(expected) << ", got " << formatShape(out.getShape());
  return success();
}

LogicalResult tileopt::verifyUnaryScalar(Operation *op, UnaryKind kind,
                                         std::optional<APFloat> scalar) {
  bool needsScalar =
      kind == UnaryKind::mul_scalar || kind == UnaryKind::add_scalar;
  if (needsScalar && !scalar)
    return op->emitOpError() << stringifyUnaryKind(kind) << " needs a scalar";
  if (!needsScalar && scalar)
    return op->emitOpError("only mul_scalar and add_scalar take a scalar, not ")
           << stringifyUnaryKind(kind);
  return success();
}

LogicalResult tileopt::verifyRmsNorm(Operation *op, ShapedType type,
                                     const APFloat &epsilon) {
  if (type.getRank() < 1)
    return op->emitOpError("normalizes over the last dim and needs rank >= 1");
  if (!epsilon.isFinite() || epsilon.isNegative())
    return op->emitOpError("epsilon must be finite and non-negative");
  return success();
}

LogicalResult tileopt::verifyFloatElements(Operation *op,
                                           ArrayRef<ShapedType> types) {
  for (ShapedType type : types)
    if (!isa<FloatType>(type.getElementType()))
      return op->emitOpError("expects floating-point elements, got ")
             << type.getElementType();
  return success();
}
