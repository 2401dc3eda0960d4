//===- AssignLayouts.cpp - Layouts and pipelines of tile kernels ----------===//
//
// tileopt-assign-layouts: every tile of a tile.kernel gets the layout the
// code generator will hold it in, and the code generator's other decisions
// about the kernel are recorded as attributes, once, before any pass reads
// them (Passes.td says why).
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Transforms/Passes.h"

#include "TileOpt/Target/FragmentLayout.h"
#include "TileOpt/Target/Target.h"
#include "TileOpt/Transforms/MmaStaging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_ASSIGNLAYOUTS
#include "TileOpt/Transforms/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;

namespace {

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

/// Checks that every tile.mma of `kernel` takes what the tensor cores are
/// given here: rank-2 f16/bf16 operands into an f32 accumulator, whose
/// rows and columns the mma.sync warp grid divides (wgmma, where it is
/// chosen, takes those shapes too).
LogicalResult checkMmas(tile::KernelOp kernel, int64_t numThreads) {
  WalkResult walk = kernel.walk([&](tile::MmaOp mma) -> WalkResult {
    if (std::string limit = mmaTypeLimit(mma); !limit.empty())
      return mma.emitOpError(limit);
    RankedTensorType lhs = mma.getLhs().getType();
    // On the CUDA cores, each thread computes the elements it holds.
    if (!mma.runsOnTensorCores())
      return WalkResult::advance();
    ArrayRef<int64_t> acc = mma.getAcc().getType().getShape();
    auto [warpsM, warpsN] = FragmentLayout::mmaWarpGrid(acc, numThreads);
    if (acc[0] % (target::kMmaSyncM * warpsM) != 0 ||
        acc[1] % (target::kMmaSyncN * warpsN) != 0 ||
        lhs.getDimSize(1) % target::kMmaSyncK != 0)
      return mma.emitOpError("needs M a multiple of ")
             << target::kMmaSyncM * warpsM << ", N of "
             << target::kMmaSyncN * warpsN << " and K of " << target::kMmaSyncK
             << " for mma.sync m16n8k16 on " << warpsM << "x" << warpsN
             << " warps";
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Products whose dims no mma.sync instruction tiles, whatever the warps
/// (N not a multiple of 8 or K of 16, as a random program's 1x1 by 1x1
/// product padded to 32x1 by 1x16), run on the CUDA cores: their f16 or
/// bf16 operands are widened to f32, which changes no value (the products
/// accumulate in f32 either way). Each gets a remark, since a large one is
/// slow there. A product whose dims fit the instruction but not the warp
/// grid stays an error: the search picks other tiles or warps for it.
void widenUntiledMmas(tile::KernelOp kernel) {
  kernel.walk([&](tile::MmaOp mma) {
    RankedTensorType lhs = mma.getLhs().getType(), rhs = mma.getRhs().getType();
    Type element = lhs.getElementType();
    if (!element.isF16() && !element.isBF16())
      return;
    int64_t m = mma.getAcc().getType().getDimSize(0),
            n = mma.getAcc().getType().getDimSize(1), k = lhs.getDimSize(1);
    if (m % target::kMmaSyncM == 0 && n % target::kMmaSyncN == 0 &&
        k % target::kMmaSyncK == 0)
      return;
    OpBuilder b(mma);
    Type f32 = b.getF32Type();
    auto widen = [&](Value operand, RankedTensorType type) -> Value {
      return arith::ExtFOp::create(b, mma.getLoc(), type.clone(f32), operand);
    };
    mma.getLhsMutable().assign(widen(mma.getLhs(), lhs));
    mma.getRhsMutable().assign(widen(mma.getRhs(), rhs));
    mma.emitRemark("runs on the CUDA cores in f32: mma.sync takes M a "
                   "multiple of 16, N of 8 and K of 16, here ")
        << m << "x" << n << "x" << k;
  });
}

/// Whether the tile.mma ops of `kernel` run on wgmma: on a chip that has
/// it, when every one of them can (one accumulator layout serves the whole
/// kernel). Each that cannot gets a remark naming the limit; the kernel
/// then keeps mma.sync.
bool useWgmma(tile::KernelOp kernel, StringRef chip, int64_t numThreads) {
  const target::Chip *info = target::lookupChip(chip);
  if (!info || !info->wgmma)
    return false;
  bool all = true;
  kernel.walk([&](tile::MmaOp mma) {
    if (!mma.runsOnTensorCores())
      return;
    std::string limit = wgmmaLimit(mma, numThreads);
    if (limit.empty())
      return;
    mma.emitRemark("runs on mma.sync, not wgmma: ") << limit;
    all = false;
  });
  return all;
}

//===----------------------------------------------------------------------===//
// Accumulators
//===----------------------------------------------------------------------===//

/// Ops that re-deal a tile through shared memory from any layout into any
/// other (the code generator's relayout patterns): an accumulator may enter
/// or leave its layout through them.
bool isRelayout(Operation *op) {
  return isa<tile::BroadcastOp, tile::ReshapeOp, tile::PermuteOp>(op);
}

bool isElementwiseOnTiles(Operation *op) {
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         !isa<arith::ConstantOp>(op);
}

/// Whether `op` is a tile.reshape that only adds or drops leading unit dims
/// (how the lowering of block graphs restores a tile's rank for its store):
/// an mma.sync accumulator keeps its layout through it, which is the
/// layout of its matrix.
bool reshapesLeadingUnitDims(Operation *op) {
  auto reshape = dyn_cast<tile::ReshapeOp>(op);
  if (!reshape)
    return false;
  auto matrix = [](ArrayRef<int64_t> shape) {
    while (shape.size() > 2 && shape.front() == 1)
      shape = shape.drop_front();
    return shape;
  };
  ArrayRef<int64_t> in = reshape.getInput().getType().getShape();
  ArrayRef<int64_t> out = reshape.getType().getShape();
  return in.size() >= 2 && out.size() >= 2 && matrix(in).size() == 2 &&
         matrix(in) == matrix(out);
}

/// Whether `use` of an accumulator needs the tile in the blocked layout:
/// with wgmma, a tile.reduce combines along the rows of that layout and
/// tile.mma stages its multiplicands from it. An mma.sync accumulator is
/// reduced where it lies and staged as a multiplicand from where it lies
/// (each thread writes its pairs at their places).
bool needsBlockedLayout(OpOperand &use, bool wgmma) {
  if (isa<tile::ReduceOp>(use.getOwner()))
    return wgmma;
  auto mma = dyn_cast<tile::MmaOp>(use.getOwner());
  return wgmma && mma && &use != &mma.getAccMutable();
}

/// The tiles of a kernel that live in a tensor-core accumulator layout.
struct Accumulators {
  /// The accumulators and results of the tile.mma ops and everything tied
  /// to them: loop-carried values, elementwise ops on them, splat initial
  /// values, reshapes that only add or drop leading unit dims (mma.sync).
  llvm::SetVector<Value> values;
  /// Those that some use needs in the blocked layout (needsBlockedLayout).
  llvm::SetVector<Value> leaving;
  /// Those a tile.load gives (a partial result added to an mma's): loaded
  /// in the blocked layout, they enter the accumulator's.
  llvm::SetVector<Value> loaded;
};

/// Finds the accumulators of `kernel`; reports a producer or a use that
/// would need another layout.
FailureOr<Accumulators> findAccumulators(tile::KernelOp kernel, bool wgmma) {
  Accumulators found;
  SmallVector<Value> worklist;
  kernel.walk([&](tile::MmaOp mma) {
    if (!mma.runsOnTensorCores())
      return;
    worklist.push_back(mma.getAcc());
    worklist.push_back(mma.getResult());
  });
  auto tiedThroughLoop = [&](scf::ForOp loop, unsigned i) {
    worklist.push_back(loop.getInitArgs()[i]);
    worklist.push_back(loop.getRegionIterArgs()[i]);
    worklist.push_back(loop.getResult(i));
    worklist.push_back(loop.getBody()->getTerminator()->getOperand(i));
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!found.values.insert(value))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return kernel.emitOpError("an mma accumulator is a kernel argument");
      tiedThroughLoop(loop, arg.getArgNumber() - 1);
    } else {
      Operation *producer = value.getDefiningOp();
      if (auto loop = dyn_cast<scf::ForOp>(producer)) {
        tiedThroughLoop(loop, cast<OpResult>(value).getResultNumber());
      } else if (isElementwiseOnTiles(producer)) {
        llvm::append_range(worklist, producer->getOperands());
      } else if (auto constant = dyn_cast<arith::ConstantOp>(producer)) {
        if (!isa<SplatElementsAttr>(constant.getValue()))
          return producer->emitOpError("initializes an mma accumulator; only "
                                       "splat constants can");
      } else if (isa<tile::LoadOp>(producer)) {
        found.loaded.insert(value);
      } else if (!wgmma && reshapesLeadingUnitDims(producer)) {
        worklist.push_back(producer->getOperand(0));
      } else if (!isa<tile::MmaOp>(producer) && !isRelayout(producer)) {
        return producer->emitOpError(
            "produces an mma accumulator; only tile.mma, tile.load, splat "
            "constants, scf.for and elementwise ops can for now (and "
            "tile.broadcast, reshape and permute, through shared memory)");
      }
    }
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (needsBlockedLayout(use, wgmma)) {
        found.leaving.insert(value);
      } else if (isa<tile::ReduceOp>(user)) {
        // Reduced in the accumulator layout; the result is blocked.
      } else if (isa<tile::MmaOp>(user)) {
        // The accumulator of a tile.mma, in the worklist from the start, or
        // a multiplicand staged from the accumulator layout.
      } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
        tiedThroughLoop(loop, use.getOperandNumber() - 3);
      } else if (isa<scf::YieldOp>(user) &&
                 isa<scf::ForOp>(user->getParentOp())) {
        tiedThroughLoop(cast<scf::ForOp>(user->getParentOp()),
                        use.getOperandNumber());
      } else if (isElementwiseOnTiles(user)) {
        llvm::append_range(worklist, user->getResults());
        llvm::append_range(worklist, user->getOperands());
      } else if (!wgmma && reshapesLeadingUnitDims(user)) {
        worklist.push_back(user->getResult(0));
      } else if (!isa<tile::StoreOp>(user) && !isRelayout(user)) {
        return user->emitOpError(
            "uses an mma accumulator; only tile.store, elementwise ops and "
            "scf.for take them for now (and tile.broadcast, reshape, "
            "permute, tile.reduce and tile.mma multiplicands, through shared "
            "memory)");
      }
    }
  }
  return found;
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

/// The layouts of one kernel, on `numWarps` warps.
struct LayoutChoice {
  MLIRContext *ctx;
  int64_t numWarps;
  bool wgmma;

  /// Row-major chunks of the widest width the shape allows.
  Attribute blocked(ArrayRef<int64_t> shape) const {
    return tile::BlockedAttr::get(
        ctx, FragmentLayout::defaultVectorWidth(shape, 32 * numWarps),
        numWarps);
  }
  /// The accumulator layout of the tensor cores: wgmma's, or mma.sync's on
  /// the warp grid that suits the matrix.
  Attribute accumulator(ArrayRef<int64_t> shape) const {
    if (wgmma)
      return tile::WgmmaAttr::get(ctx, numWarps / 4);
    auto [warpsM, warpsN] =
        FragmentLayout::mmaWarpGrid(shape.take_back(2), 32 * numWarps);
    return tile::MmaSyncAttr::get(ctx, {warpsM, warpsN});
  }
  RankedTensorType laidOut(RankedTensorType type, bool isAccumulator) const {
    Attribute layout =
        isAccumulator ? accumulator(type.getShape()) : blocked(type.getShape());
    return RankedTensorType::get(type.getShape(), type.getElementType(),
                                 layout);
  }
  /// As laidOut, or null with an error at `loc` when the layout cannot take
  /// the tile (a blocked tile that the threads cannot share in whole chunks,
  /// as happens when the warps are not a power of two).
  RankedTensorType checkedLaidOut(Location loc, RankedTensorType type,
                                  bool isAccumulator) const {
    RankedTensorType laid = laidOut(type, isAccumulator);
    auto emitError = [&] {
      return mlir::emitError(loc, "cannot lay out ") << type << ": ";
    };
    if (failed(cast<VerifiableTensorEncoding>(laid.getEncoding())
                   .verifyEncoding(type.getShape(), type.getElementType(),
                                   emitError)))
      return {};
    return laid;
  }
};

/// Gives every tile of `kernel` its layout: the accumulator layout to
/// `accumulators.values`, the blocked one to every other tile (and to the
/// loads that give an accumulator); then a tile.convert_layout moves each
/// accumulator that leaves its layout into the blocked one for the uses
/// that need it, and each loaded one into the accumulator layout.
LogicalResult assignTileLayouts(tile::KernelOp kernel,
                                const Accumulators &accumulators,
                                const LayoutChoice &choice) {
  auto retype = [&](Value value) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return success();
    bool isAccumulator = accumulators.values.contains(value) &&
                         !accumulators.loaded.contains(value);
    RankedTensorType laid =
        choice.checkedLaidOut(value.getLoc(), type, isAccumulator);
    if (!laid)
      return failure();
    value.setType(laid);
    return success();
  };
  WalkResult walk = kernel.getBody().walk([&](Operation *op) -> WalkResult {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(retype(arg)))
            return WalkResult::interrupt();
    for (Value result : op->getResults())
      if (failed(retype(result)))
        return WalkResult::interrupt();
    // A constant's value has the type of its result.
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto type = dyn_cast<RankedTensorType>(constant.getType())) {
        auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (!elements)
          return op->emitOpError("has a tile value the layouts cannot be "
                                 "given to (only dense elements)");
        constant.setValueAttr(elements.reshape(type));
      }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  OpBuilder b(kernel.getContext());
  for (Value value : accumulators.leaving) {
    auto type = cast<RankedTensorType>(value.getType());
    b.setInsertionPointAfterValue(value);
    Value blocked = tile::ConvertLayoutOp::create(
        b, value.getLoc(), choice.laidOut(type, /*isAccumulator=*/false),
        value);
    value.replaceUsesWithIf(blocked, [&](OpOperand &use) {
      return needsBlockedLayout(use, choice.wgmma);
    });
  }
  for (Value value : accumulators.loaded) {
    auto type = cast<RankedTensorType>(value.getType());
    b.setInsertionPointAfterValue(value);
    auto entering = tile::ConvertLayoutOp::create(
        b, value.getLoc(), choice.laidOut(type, /*isAccumulator=*/true), value);
    value.replaceAllUsesExcept(entering, entering);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Decisions
//===----------------------------------------------------------------------===//

/// Records how each loop of `kernel` that multiplies hinted loads on the
/// tensor cores is pipelined (decideMmaPipeline); warns at the hint of one
/// that cannot be.
void recordMmaPipelines(tile::KernelOp kernel, bool wgmma, bool swizzle) {
  kernel.walk([&](scf::ForOp loop) {
    std::string why;
    tile::MmaPipelineAttr pipeline =
        decideMmaPipeline(loop, wgmma, swizzle, why);
    if (!pipeline)
      return;
    loop->setAttr(tile::TileDialect::MmaPipelineAttrHelper::getNameStr(),
                  pipeline);
    if (pipeline.isStaged())
      return;
    // At the first load with the longest hint.
    tile::LoadOp hinted;
    for (tile::LoadOp load : mmaMultiplicandLoads(loop))
      if (load.getLatency() &&
          (!hinted || *load.getLatency() > *hinted.getLatency()))
        hinted = load;
    hinted.emitWarning("latency hint not followed: ") << why;
  });
}

/// Remarks at each load of `kernel` whose `allow_tma` hint is not
/// followed, saying why.
void remarkUnusedTma(tile::KernelOp kernel, bool wgmma) {
  kernel.walk([&](tile::LoadOp load) {
    if (!load.getAllowTma())
      return;
    std::string why = "TMA copies only the operands of tile.mma ops "
                      "pipelined in an scf.for (a latency hint of 2 or more)";
    if (tile::MmaPipelineAttr pipeline = stagedPipelineAround(load)) {
      SmallVector<tile::LoadOp> staged =
          mmaMultiplicandLoads(cast<scf::ForOp>(load->getParentOp()));
      if (llvm::is_contained(staged, load)) {
        if (pipeline.getCopy() == tile::MmaCopy::tma)
          return;
        why = tmaLimit(staged, wgmma);
      }
    }
    load.emitRemark("allow_tma not followed, no TMA: ") << why;
  });
}

/// Marks each tile.mma of `kernel` that multiplies the left operand the
/// tile.mma just before it staged (tile::canReuseStagedLhs), so that it is
/// staged once: two products of one activation (a gated MLP's X W1 and
/// X W2) then store X once a step, not twice; on the H200 such a loop
/// waited on the shared-memory instruction queue 43% of the time. The
/// mmas of a loop pipelined through shared memory read both operands from
/// its ring and are not marked.
void markStagedLhs(tile::KernelOp kernel) {
  kernel.walk([](tile::MmaOp mma) {
    if (mma.runsOnTensorCores() && !stagedPipelineAround(mma) &&
        tile::canReuseStagedLhs(mma))
      mma->setAttr(tile::TileDialect::LhsStagedAttrHelper::getNameStr(),
                   UnitAttr::get(mma.getContext()));
  });
}

/// Whether a tile of `kernel` has a layout already.
bool hasLayouts(tile::KernelOp kernel) {
  WalkResult walk = kernel.getBody().walk([](Operation *op) {
    for (Type type : op->getResultTypes())
      if (tile::getLayout(type))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

struct AssignLayoutsPass
    : public tileopt::impl::AssignLayoutsBase<AssignLayoutsPass> {
  using AssignLayoutsBase::AssignLayoutsBase;

  void runOnOperation() override {
    if (numWarps < 1 || numWarps > 32) {
      getOperation()->emitError("num-warps must be in 1-32, got ")
          << int64_t(numWarps);
      return signalPassFailure();
    }
    // A chip without facts would reach LLVM's NVPTX instruction selection
    // with intrinsics it lacks (mma.sync on sm_70), which aborts.
    if (std::string why = target::whyNotAChip(chip); !why.empty()) {
      getOperation()->emitError(why);
      return signalPassFailure();
    }
    SmallVector<tile::KernelOp> kernels;
    getOperation()->walk([&](tile::KernelOp kernel) {
      if (!hasLayouts(kernel))
        kernels.push_back(kernel);
    });
    for (tile::KernelOp kernel : kernels)
      if (failed(assign(kernel)))
        return signalPassFailure();
  }

  LogicalResult assign(tile::KernelOp kernel) {
    int64_t numThreads = 32 * numWarps;
    widenUntiledMmas(kernel);
    if (failed(checkMmas(kernel, numThreads)))
      return failure();
    LayoutChoice choice{kernel.getContext(), numWarps,
                        useWgmma(kernel, chip, numThreads)};
    FailureOr<Accumulators> accumulators =
        findAccumulators(kernel, choice.wgmma);
    if (failed(accumulators) ||
        failed(assignTileLayouts(kernel, *accumulators, choice)))
      return failure();
    recordMmaPipelines(kernel, choice.wgmma, swizzleStaging);
    remarkUnusedTma(kernel, choice.wgmma);
    markStagedLhs(kernel);
    return success();
  }
};

} // namespace
