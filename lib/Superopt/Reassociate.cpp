//===- Reassociate.cpp - Matmul chains in their cheapest order ------------===//
//
// Every rewrite strictly lowers the flops of the function, so the greedy
// driver stops. Broadcast batch dims (tk.matmul follows numpy.matmul) are
// associative too: broadcast(broadcast(x, a), b) = broadcast(x, broadcast(a,
// b)), so a reordered chain has the shape of the original.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Superopt/Reassociate.h"

#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Superopt/Passes.h"
#include "mlir/Dialect/Traits.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_REASSOCIATEMATMULS
#include "TileOpt/Superopt/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

/// The type of `a @ b` (numpy.matmul), if their shapes allow it.
std::optional<RankedTensorType> productType(RankedTensorType a,
                                            RankedTensorType b) {
  ArrayRef<int64_t> sa = a.getShape(), sb = b.getShape();
  SmallVector<int64_t> shape;
  if (sa.size() < 2 || sb.size() < 2 || sa.back() != sb[sb.size() - 2] ||
      !OpTrait::util::getBroadcastedShape(sa.drop_back(2), sb.drop_back(2),
                                          shape))
    return std::nullopt;
  shape.append({sa[sa.size() - 2], sb.back()});
  return a.clone(shape);
}

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// `type` with its last two dims swapped.
RankedTensorType swappedType(RankedTensorType type) {
  SmallVector<int64_t> shape(type.getShape());
  std::swap(shape[shape.size() - 2], shape[shape.size() - 1]);
  return type.clone(shape);
}

/// Multiplies and adds of `a @ b`, whose result has type `result`.
double productFlops(RankedTensorType a, RankedTensorType result) {
  return 2.0 * static_cast<double>(result.getNumElements()) *
         static_cast<double>(a.getShape().back());
}
double productFlops(tk::MatmulOp op) {
  return productFlops(typeOf(op.getLhs()), op.getType());
}

/// `value` with its last two dims swapped; a transpose of a transpose
/// composes into one (or none).
Value transposeLastTwo(PatternRewriter &rewriter, Location loc, Value value) {
  RankedTensorType type = typeOf(value);
  int64_t rank = type.getRank();
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(perm[rank - 2], perm[rank - 1]);
  if (auto inner = value.getDefiningOp<tk::TransposeOp>()) {
    SmallVector<int64_t> composed = llvm::map_to_vector(
        perm, [&](int64_t p) { return inner.getPermutation()[p]; });
    if (llvm::equal(composed, llvm::seq<int64_t>(0, rank)))
      return inner.getInput();
    return tk::TransposeOp::create(rewriter, loc, swappedType(type),
                                   inner.getInput(), composed);
  }
  return tk::TransposeOp::create(rewriter, loc, swappedType(type), value, perm);
}

/// Whether `t` swaps the last two dims and keeps the others.
bool swapsLastTwo(tk::TransposeOp t) {
  ArrayRef<int64_t> perm = t.getPermutation();
  int64_t rank = perm.size();
  if (rank < 2)
    return false;
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (perm[d] != d)
      return false;
  return perm[rank - 2] == rank - 1 && perm[rank - 1] == rank - 2;
}

/// A chain of three factors to multiply in one order or the other. A factor
/// may be a transpose not built yet: its type is known, its value is made
/// only if the rewrite happens.
struct Factor {
  Value value;
  bool transpose = false;
  RankedTensorType type() const {
    return transpose ? swappedType(typeOf(value)) : typeOf(value);
  }
  Value build(PatternRewriter &rewriter, Location loc) const {
    return transpose ? transposeLastTwo(rewriter, loc, value) : value;
  }
};

/// Replaces `root` by `(x @ a) @ b` (`leftFirst`) or `x @ (a @ b)` when
/// that has `root`'s type and fewer flops than `flopsBefore`.
LogicalResult replaceByChain(PatternRewriter &rewriter, tk::MatmulOp root,
                             Factor x, Factor a, Factor b, bool leftFirst,
                             double flopsBefore) {
  RankedTensorType tx = x.type(), ta = a.type(), tb = b.type();
  std::optional<RankedTensorType> inner =
      leftFirst ? productType(tx, ta) : productType(ta, tb);
  if (!inner)
    return rewriter.notifyMatchFailure(root, "the factors do not reassociate");
  std::optional<RankedTensorType> outer =
      leftFirst ? productType(*inner, tb) : productType(tx, *inner);
  if (!outer || *outer != root.getType())
    return rewriter.notifyMatchFailure(root, "the product changes shape");
  double flopsAfter =
      leftFirst ? productFlops(tx, *inner) + productFlops(*inner, *outer)
                : productFlops(ta, *inner) + productFlops(tx, *outer);
  if (!(flopsAfter < flopsBefore))
    return rewriter.notifyMatchFailure(root, "the other order costs no less");
  Location loc = root.getLoc();
  Value vx = x.build(rewriter, loc), va = a.build(rewriter, loc),
        vb = b.build(rewriter, loc);
  Value result =
      leftFirst ? tk::MatmulOp::create(
                      rewriter, loc, *outer,
                      tk::MatmulOp::create(rewriter, loc, *inner, vx, va), vb)
                : tk::MatmulOp::create(
                      rewriter, loc, *outer, vx,
                      tk::MatmulOp::create(rewriter, loc, *inner, va, vb));
  rewriter.replaceOp(root, result);
  return success();
}

/// x @ (a @ b) -> (x @ a) @ b (`toLeft`), or (x @ a) @ b -> x @ (a @ b).
struct Reassociate : public OpRewritePattern<tk::MatmulOp> {
  Reassociate(MLIRContext *context, bool toLeft)
      : OpRewritePattern(context), toLeft(toLeft) {}
  LogicalResult matchAndRewrite(tk::MatmulOp root,
                                PatternRewriter &rewriter) const override {
    auto inner =
        (toLeft ? root.getRhs() : root.getLhs()).getDefiningOp<tk::MatmulOp>();
    if (!inner || !inner->hasOneUse())
      return failure();
    Factor x{toLeft ? root.getLhs() : inner.getLhs()};
    Factor a{toLeft ? inner.getLhs() : inner.getRhs()};
    Factor b{toLeft ? inner.getRhs() : root.getRhs()};
    return replaceByChain(rewriter, root, x, a, b, toLeft,
                          productFlops(inner) + productFlops(root));
  }
  bool toLeft;
};

/// x @ (a @ b)^T -> (x @ b^T) @ a^T: the scores of attention over keys
/// that are themselves a product (mla_decode's K = C Wk).
struct ReassociateThroughTranspose : public OpRewritePattern<tk::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tk::MatmulOp root,
                                PatternRewriter &rewriter) const override {
    auto transpose = root.getRhs().getDefiningOp<tk::TransposeOp>();
    if (!transpose || !transpose->hasOneUse() || !swapsLastTwo(transpose))
      return failure();
    auto inner = transpose.getInput().getDefiningOp<tk::MatmulOp>();
    if (!inner || !inner->hasOneUse())
      return failure();
    return replaceByChain(
        rewriter, root, {root.getLhs()}, {inner.getRhs(), /*transpose=*/true},
        {inner.getLhs(), /*transpose=*/true},
        /*leftFirst=*/true, productFlops(inner) + productFlops(root));
  }
};

struct ReassociateMatmulsPass
    : public tileopt::impl::ReassociateMatmulsBase<ReassociateMatmulsPass> {
  void runOnOperation() override { reassociateMatmuls(getOperation()); }
};

} // namespace

void superopt::populateReassociateMatmulPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<Reassociate>(context, /*toLeft=*/true);
  patterns.add<Reassociate>(context, /*toLeft=*/false);
  patterns.add<ReassociateThroughTranspose>(context);
}

bool superopt::reassociateMatmuls(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  populateReassociateMatmulPatterns(patterns);
  // Every rewrite lowers the flops; the driver also erases dead ops, which
  // is no reassociation.
  double before = matmulFlops(func);
  (void)applyPatternsGreedily(func, std::move(patterns));
  return matmulFlops(func) < before;
}

double superopt::matmulFlops(func::FuncOp func) {
  double flops = 0;
  func.walk([&](tk::MatmulOp op) { flops += productFlops(op); });
  return flops;
}
