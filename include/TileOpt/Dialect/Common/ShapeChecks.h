//===- ShapeChecks.h - Shape rules shared by tk, tb and th ------*- C++ -*-===//
//
// The kernel graph and the block graph apply the same operators to different
// kinds of values (device tensors, shared-memory tiles). Their verifiers share
// these checks so that a rule, and the message that reports its violation, is
// written once. Every check emits an error at `op` and fails on violation.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_DIALECT_COMMON_SHAPECHECKS_H
#define TILEOPT_DIALECT_COMMON_SHAPECHECKS_H

#include "TileOpt/Dialect/Common/TileOptEnums.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Operation.h"

namespace mlir::tileopt {

/// Formats a shape for diagnostics: `8x4096`, or `scalar` for rank 0.
std::string formatShape(ArrayRef<int64_t> shape);

/// `c = a @ b` on the last two dims; leading (batch) dims must be equal.
LogicalResult verifyMatmulShapes(Operation *op, ShapedType a, ShapedType b,
                                 ShapedType c);

/// `c = a @ b` as numpy.matmul computes it: the batch dims of `a` and `b`
/// (all but the last two, missing ones counting as 1) broadcast to `c`'s.
LogicalResult verifyBroadcastMatmulShapes(Operation *op, ShapedType a,
                                          ShapedType b, ShapedType c);

/// `result` has the numpy broadcast of `inputs` as its shape.
LogicalResult verifyBroadcastResult(Operation *op, ArrayRef<ShapedType> inputs,
                                    ShapedType result);

/// Every input broadcasts (numpy rules) to the shape of `result`, which may
/// be larger than their broadcast: a region op computing per element
/// broadcasts its operands to its result.
LogicalResult verifyBroadcastsTo(Operation *op, ArrayRef<ShapedType> inputs,
                                 ShapedType result);

/// All of `types` have the element type of the first.
LogicalResult verifySameElementType(Operation *op, ArrayRef<ShapedType> types);

/// `dim` is a valid dimension index of a value of rank `rank`.
LogicalResult verifyDimIndex(Operation *op, int64_t dim, int64_t rank,
                             StringRef what);

/// `out` is `in` with dimension `dim` reduced to `reducedSize` elements;
/// `reducedSize` must divide the input's size along `dim`.
LogicalResult verifyReduceShapes(Operation *op, ShapedType in, ShapedType out,
                                 int64_t dim, int64_t reducedSize);

/// `whole` is the concatenation of `parts` along `dim`. `partName` and
/// `wholeName` name them in diagnostics ("operand"/"result" for a concat,
/// "result"/"input" for a split).
LogicalResult verifyConcatShapes(Operation *op, ArrayRef<ShapedType> parts,
                                 ShapedType whole, int64_t dim,
                                 StringRef partName, StringRef wholeName);

/// `out` is `in` with its dimensions permuted by `perm` (out[i] = in[perm[i]]).
LogicalResult verifyPermutation(Operation *op, ShapedType in, ShapedType out,
                                ArrayRef<int64_t> perm);

/// `mul_scalar` and `add_scalar` carry a scalar and no other unary kind does.
LogicalResult verifyUnaryScalar(Operation *op, UnaryKind kind,
                                std::optional<APFloat> scalar);

/// An rms_norm over the last dim of `type` with `epsilon`: rank >= 1 and
/// a finite, non-negative epsilon.
LogicalResult verifyRmsNorm(Operation *op, ShapedType type,
                            const APFloat &epsilon);

/// Operands and results are floating point (the graph operators are defined
/// on real numbers only).
LogicalResult verifyFloatElements(Operation *op, ArrayRef<ShapedType> types);

} // namespace mlir::tileopt

#endif // TILEOPT_DIALECT_COMMON_SHAPECHECKS_H
