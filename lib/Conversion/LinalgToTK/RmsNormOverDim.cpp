//===- RmsNormOverDim.cpp - rms_norm over a dim other than the last -------===//
//
// Runs with the importer's kernel-graph idioms (after each linalg op became
// tk ops and sums scaled by 1/n became means). The last-dim form is
// RecogniseRmsNorm's, in LinalgToTK.cpp; this one only takes a mean over
// another dim.
//
//===----------------------------------------------------------------------===//
#include "RmsNormOverDim.h"

#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// `value` without the reshapes it was produced through (the import of
/// each linalg op drops and adds size-1 dims between ops).
Value skipReshapes(Value value) {
  while (auto reshape = value.getDefiningOp<tk::ReshapeOp>())
    value = reshape.getInput();
  return value;
}

/// The value of a splat float constant tensor (the importer's form of a
/// scalar no tk operator takes, such as an epsilon).
std::optional<double> splatConstant(Value tensor) {
  DenseElementsAttr attr;
  if (matchPattern(tensor, m_Constant(&attr)) && attr.isSplat() &&
      isa<FloatType>(attr.getElementType()))
    return attr.getSplatValue<APFloat>().convertToDouble();
  return std::nullopt;
}

struct RecogniseRmsNormOverDim : public OpRewritePattern<tk::BinaryOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tk::BinaryOp op,
                                PatternRewriter &rewriter) const override {
    BinaryKind kind = op.getKind();
    if (kind != BinaryKind::mul && kind != BinaryKind::div)
      return rewriter.notifyMatchFailure(op, "not a mul or div");
    UnaryKind root =
        kind == BinaryKind::mul ? UnaryKind::rsqrt : UnaryKind::sqrt;
    SmallVector<std::pair<Value, Value>, 2> candidates = {
        {op.getLhs(), op.getRhs()}};
    if (kind == BinaryKind::mul)
      candidates.push_back({op.getRhs(), op.getLhs()});
    for (auto [x, scale] : candidates) {
      if (x.getType() != op.getType())
        continue;
      std::optional<std::pair<int64_t, double>> norm =
          matchInverseRms(x, scale, root);
      if (!norm)
        continue;
      auto [dim, eps] = *norm;
      auto type = cast<RankedTensorType>(x.getType());
      int64_t rank = type.getRank();
      // d moved last, the other dims in their order; and back.
      SmallVector<int64_t> toLast, back(rank);
      for (int64_t i = 0; i < rank; ++i)
        if (i != dim)
          toLast.push_back(i);
      toLast.push_back(dim);
      for (int64_t i = 0; i < rank; ++i)
        back[toLast[i]] = i;
      SmallVector<int64_t> shape = llvm::map_to_vector(
          toLast, [&](int64_t i) { return type.getDimSize(i); });
      auto rowsType = RankedTensorType::get(shape, type.getElementType());
      Location loc = op.getLoc();
      Value rows = tk::TransposeOp::create(rewriter, loc, rowsType, x, toLast);
      Value normalized = tk::RmsNormOp::create(rewriter, loc, rowsType, rows,
                                               rewriter.getF32FloatAttr(eps));
      rewriter.replaceOpWithNewOp<tk::TransposeOp>(op, type, normalized, back);
      return success();
    }
    return rewriter.notifyMatchFailure(
        op, "not x and 1/rms(x) over a dim other than the last");
  }

  /// The dim and the epsilon, if `scale` is root(mean(x^2) + epsilon) over
  /// a dim of x other than the last, in the shape the mean gave it (the dim
  /// kept with size 1, so that it broadcasts along that dim of x).
  static std::optional<std::pair<int64_t, double>>
  matchInverseRms(Value x, Value scale, UnaryKind rootKind) {
    auto root = skipReshapes(scale).getDefiningOp<tk::UnaryOp>();
    if (!root || root.getKind() != rootKind)
      return std::nullopt;
    Value meanValue = skipReshapes(root.getInput());
    double eps = 0.0;
    if (auto add = meanValue.getDefiningOp<tk::BinaryOp>();
        add && add.getKind() == BinaryKind::add) {
      std::optional<double> c = splatConstant(add.getRhs());
      Value other = add.getLhs();
      if (!c) {
        c = splatConstant(add.getLhs());
        other = add.getRhs();
      }
      if (!c || *c < 0 || other.getType() != add.getType())
        return std::nullopt;
      eps = *c;
      meanValue = skipReshapes(other);
    }
    auto mean = meanValue.getDefiningOp<tk::ReduceOp>();
    auto xType = cast<RankedTensorType>(x.getType());
    if (!mean || mean.getKind() != ReduceKind::mean ||
        mean.getDim() + 1 >= static_cast<uint64_t>(xType.getRank()) ||
        mean.getType() != scale.getType())
      return std::nullopt;
    auto square = mean.getInput().getDefiningOp<tk::UnaryOp>();
    if (!square || square.getKind() != UnaryKind::square ||
        square.getInput() != x)
      return std::nullopt;
    return std::make_pair(static_cast<int64_t>(mean.getDim()), eps);
  }
};

} // namespace

void mlir::tileopt::populateRmsNormOverDimPatterns(
    RewritePatternSet &patterns) {
  patterns.add<RecogniseRmsNormOverDim>(patterns.getContext());
}
