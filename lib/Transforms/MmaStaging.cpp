//===- MmaStaging.cpp - Which tile.mma loops the code generator stages ----===//
#include "TileOpt/Transforms/MmaStaging.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tileopt;

bool tileopt::hasTensorType(Operation *op) {
  auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

SmallVector<tile::LoadOp> tileopt::mmaMultiplicandLoads(scf::ForOp loop) {
  llvm::SetVector<Operation *> loads;
  for (auto mma : loop.getBody()->getOps<tile::MmaOp>())
    for (Value operand : {mma.getLhs(), mma.getRhs()})
      if (auto load = operand.getDefiningOp<tile::LoadOp>())
        loads.insert(load);
  SmallVector<tile::LoadOp> inBodyOrder;
  for (auto load : loop.getBody()->getOps<tile::LoadOp>())
    if (loads.contains(load))
      inBodyOrder.push_back(load);
  return inBodyOrder;
}

/// Why the indices of `load` cannot be computed for a later iteration of
/// `loop`, or "": they must come from pure scalar ops on the induction
/// variable and values from outside the loop.
static std::string indexObstacle(scf::ForOp loop, tile::LoadOp load) {
  SmallVector<Value> worklist(load.getIndices());
  llvm::SmallPtrSet<Value, 8> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second || value == loop.getInductionVar() ||
        loop.isDefinedOutsideOfLoop(value))
      continue;
    Operation *producer = value.getDefiningOp();
    if (!producer || producer->getParentOp() != loop || !isPure(producer) ||
        producer->getNumRegions() > 0 || hasTensorType(producer))
      return "the indices of the loads must come from scalar arithmetic on "
             "the induction variable";
    llvm::append_range(worklist, producer->getOperands());
  }
  return "";
}

std::string tileopt::mmaStagingObstacle(scf::ForOp loop) {
  Block *body = loop.getBody();
  auto mmas = body->getOps<tile::MmaOp>();
  if (mmas.empty())
    return "the loop holds no tile.mma";
  for (tile::MmaOp mma : mmas) {
    if (!mma.runsOnTensorCores())
      return "the loop's products of f32 operands run on the CUDA cores, "
             "from the f32 scratch";
    auto lhsLoad = mma.getLhs().getDefiningOp<tile::LoadOp>();
    auto rhsLoad = mma.getRhs().getDefiningOp<tile::LoadOp>();
    if (!lhsLoad || !rhsLoad || lhsLoad->getParentOp() != loop ||
        rhsLoad->getParentOp() != loop)
      return "both operands of every tile.mma must be loaded in the scf.for "
             "around it";
    auto acc = dyn_cast<BlockArgument>(mma.getAcc());
    if (!acc || acc.getOwner() != body || acc == loop.getInductionVar() ||
        !acc.hasOneUse() || !mma->hasOneUse() ||
        body->getTerminator()->getOperand(acc.getArgNumber() - 1) !=
            mma.getResult())
      return "the loop must carry each accumulator from one tile.mma to the "
             "next, and use it nowhere else";
  }
  for (Operation &op : body->without_terminator()) {
    if (isa<tile::MmaOp>(op))
      continue;
    if (op.getNumRegions() > 0)
      return "the loop body may not hold ops with regions";
    if (!isPure(&op) && !isa<tile::LoadOp>(op))
      return "the loop body may hold only loads and pure ops";
  }
  for (tile::LoadOp load : mmaMultiplicandLoads(loop)) {
    if (!llvm::all_of(load->getUsers(),
                      [](Operation *user) { return isa<tile::MmaOp>(user); }))
      return "the loaded multiplicands must feed tile.mma ops alone";
    if (std::string why = indexObstacle(loop, load); !why.empty())
      return why;
  }
  return "";
}

std::string tileopt::mmaRingObstacle(scf::ForOp loop) {
  SmallVector<tile::LoadOp> loads = mmaMultiplicandLoads(loop);
  if (loads.empty())
    return "the loop holds no tile.mma";
  Type elementType = loads.front().getType().getElementType();
  int64_t stageBytes = 0;
  for (tile::LoadOp load : loads) {
    if (load.getType().getElementType() != elementType)
      return "the staged tiles must have one element type";
    if (!loop.isDefinedOutsideOfLoop(load.getView()))
      return "the views must come from outside the loop";
    std::optional<tile::PaddingMode> padding = load.getPadding();
    if (padding && *padding != tile::PaddingMode::zero &&
        *padding != tile::PaddingMode::undetermined)
      return "cp.async pads with zeros only";
    stageBytes += load.getType().getNumElements() *
                  load.getType().getElementTypeBitWidth() / 8;
  }
  if (2 * stageBytes > kMaxSharedBytesPerBlock)
    return "two stages of " + std::to_string(stageBytes) +
           " bytes do not fit in shared memory";
  return "";
}

std::string tileopt::mmaTypeLimit(tile::MmaOp mma) {
  RankedTensorType lhs = mma.getLhs().getType();
  Type operand = lhs.getElementType();
  if (lhs.getRank() == 2 &&
      (operand.isF16() || operand.isBF16() || operand.isF32()) &&
      mma.getAcc().getType().getElementType().isF32())
    return "";
  return "takes rank-2 f16 or bf16 operands (tensor cores) or f32 operands "
         "(CUDA cores), and an f32 accumulator, for now";
}

std::string tileopt::wgmmaLimit(tile::MmaOp mma, int64_t numThreads) {
  int64_t m = mma.getLhs().getType().getDimSize(0);
  int64_t k = mma.getLhs().getType().getDimSize(1);
  int64_t n = mma.getRhs().getType().getDimSize(1);
  if (mma.getRhsTransposed())
    return "the wgmma lowering reads the rhs N-major only, and this one is "
           "given transposed";
  if (numThreads % 128 != 0)
    return "wgmma needs whole warpgroups (a multiple of 4 warps)";
  int64_t groups = numThreads / 128;
  if (m % (64 * groups) != 0)
    return "wgmma needs M (" + std::to_string(m) + ") a multiple of " +
           std::to_string(64 * groups) + " (64 rows per warpgroup slice)";
  if (k % kStagingPanel != 0 || n % kStagingPanel != 0)
    return "wgmma needs K (" + std::to_string(k) + ") and N (" +
           std::to_string(n) +
           ") multiples of 64 (128-byte swizzled rows of bf16/f16)";
  if (n > target::kWgmmaMaxN)
    return "wgmma needs N (" + std::to_string(n) + ") of at most " +
           std::to_string(target::kWgmmaMaxN);
  return "";
}

/// Why a thread cannot copy whole 16-byte chunks of every tile `loads`
/// give, each lying wholly inside or outside its view, or "".
static std::string chunkObstacle(ArrayRef<tile::LoadOp> loads) {
  for (tile::LoadOp load : loads) {
    RankedTensorType type = load.getType();
    FragmentLayout chunks = tile::getFragmentLayout(type);
    if (!chunksAlignedIn(load.getView().getType(), chunks) ||
        chunks.vectorWidth * type.getElementTypeBitWidth() != 128)
      return "every 16-byte chunk of the tiles must lie wholly inside or "
             "outside the view, and each thread must copy whole chunks";
  }
  return "";
}

/// The bytes of one stage of `loads`' ring, staged as `staging`.
static int64_t stageBytes(ArrayRef<tile::LoadOp> loads,
                          tile::StagingLayout staging) {
  return layOutRingStage(loads, staging) *
         tile::LoadOp(loads.front()).getType().getElementTypeBitWidth() / 8;
}

tile::MmaPipelineAttr tileopt::decideMmaPipeline(scf::ForOp loop, bool wgmma,
                                                 bool swizzle,
                                                 std::string &why) {
  SmallVector<tile::LoadOp> loads = mmaMultiplicandLoads(loop);
  int64_t latency = 1;
  for (tile::LoadOp load : loads)
    if (load.getLatency())
      latency = std::max<int64_t>(latency, *load.getLatency());
  if (latency < 2 || !mmaStagingObstacle(loop).empty() ||
      !mmaRingObstacle(loop).empty())
    return {};
  MLIRContext *ctx = loop.getContext();
  auto none = tile::MmaPipelineAttr::get(ctx, tile::MmaCopy::none, 0,
                                         tile::StagingLayout::padded);
  why = chunkObstacle(loads);
  if (!why.empty())
    return none;
  tile::StagingLayout staging = wgmma     ? tile::StagingLayout::panels
                                : swizzle ? tile::StagingLayout::swizzled
                                          : tile::StagingLayout::padded;
  int64_t bytes = stageBytes(loads, staging);
  int64_t stages =
      std::min({latency, kMaxMmaStages, kMaxSharedBytesPerBlock / bytes});
  if (stages < 2) {
    why = "two stages of " + std::to_string(bytes) +
          " bytes do not fit in shared memory";
    return none;
  }
  tile::MmaCopy copy = tmaLimit(loads, wgmma).empty() ? tile::MmaCopy::tma
                                                      : tile::MmaCopy::cp_async;
  return tile::MmaPipelineAttr::get(ctx, copy, stages, staging);
}

std::string tileopt::mmaPipelineObstacle(scf::ForOp loop,
                                         tile::MmaPipelineAttr pipeline) {
  if (std::string why = mmaStagingObstacle(loop); !why.empty())
    return why;
  if (std::string why = mmaRingObstacle(loop); !why.empty())
    return why;
  SmallVector<tile::LoadOp> loads = mmaMultiplicandLoads(loop);
  if (std::string why = chunkObstacle(loads); !why.empty())
    return why;
  bool wgmma =
      llvm::all_of(loop.getBody()->getOps<tile::MmaOp>(), [](tile::MmaOp mma) {
        return isa_and_nonnull<tile::WgmmaAttr>(
            tile::getLayout(mma.getAcc().getType()));
      });
  if (wgmma != (pipeline.getStaging() == tile::StagingLayout::panels))
    return "wgmma reads its stages as panels, and only wgmma does";
  int64_t bytes = stageBytes(loads, pipeline.getStaging());
  if (pipeline.getStages() * bytes > kMaxSharedBytesPerBlock)
    return std::to_string(pipeline.getStages()) + " stages of " +
           std::to_string(bytes) + " bytes do not fit in shared memory";
  if (pipeline.getCopy() == tile::MmaCopy::tma)
    return tmaLimit(loads, wgmma);
  return "";
}

tile::MmaPipelineAttr tileopt::mmaPipelineOf(scf::ForOp loop) {
  return loop->getAttrOfType<tile::MmaPipelineAttr>(
      tile::TileDialect::MmaPipelineAttrHelper::getNameStr());
}

tile::MmaPipelineAttr tileopt::stagedPipelineAround(Operation *op) {
  auto loop = dyn_cast_or_null<scf::ForOp>(op->getParentOp());
  if (!loop)
    return {};
  tile::MmaPipelineAttr pipeline = mmaPipelineOf(loop);
  return pipeline && pipeline.isStaged() ? pipeline : nullptr;
}

int64_t tileopt::stagingRowStride(int64_t cols, tile::StagingLayout layout) {
  return layout == tile::StagingLayout::padded ? cols + kStagingChunk : cols;
}

int64_t tileopt::layOutRingStage(ArrayRef<tile::LoadOp> loads,
                                 tile::StagingLayout layout,
                                 SmallVectorImpl<int64_t> *offsets) {
  if (loads.empty())
    return 0;
  int64_t bits = tile::LoadOp(loads.front()).getType().getElementTypeBitWidth();
  int64_t alignment =
      (layout == tile::StagingLayout::panels ? 1024 : 16) * 8 / bits;
  int64_t offset = 0;
  for (tile::LoadOp load : loads) {
    RankedTensorType type = load.getType();
    if (offsets)
      offsets->push_back(offset);
    offset =
        llvm::alignTo(offset + type.getDimSize(0) *
                                   stagingRowStride(type.getDimSize(1), layout),
                      alignment);
  }
  return offset;
}

bool tileopt::chunksAlignedIn(tile::TensorViewType view,
                              const FragmentLayout &layout) {
  // The rows are the last dim; the first dim only counts them, unless it
  // is the row itself (a rank-1 view, whose last chunk may be partial).
  ArrayRef<int64_t> dims = view.getShape();
  if (dims.size() > 1)
    dims = dims.drop_front();
  return !layout.replicated && llvm::all_of(dims, [&](int64_t d) {
    return !ShapedType::isDynamic(d) && d % layout.vectorWidth == 0;
  });
}

std::string tileopt::tmaLimit(ArrayRef<tile::LoadOp> loads, bool wgmma) {
  if (!wgmma)
    return "TMA feeds the operands of wgmma only (chip sm_90a and a shape "
           "wgmma takes)";
  for (tile::LoadOp load : loads) {
    std::string which;
    // The tile's shape and element type, as the user wrote them.
    llvm::raw_string_ostream(which)
        << "the " << load.getType().dropEncoding() << " load";
    tile::TensorViewType view = load.getView().getType();
    if (view.getRank() != 2)
      return "TMA copies tiles of rank-2 views only; " + which +
             " reads a view of rank " + std::to_string(view.getRank());
    int64_t rowLength = view.getShape()[1];
    int64_t elementBytes = view.getElementType().getIntOrFloatBitWidth() / 8;
    if (ShapedType::isDynamic(rowLength) ||
        rowLength * elementBytes % target::kTmaStrideBytes != 0)
      return "a TMA tensor map needs rows of a static multiple of " +
             std::to_string(target::kTmaStrideBytes) + " bytes; " + which +
             " reads rows " +
             (ShapedType::isDynamic(rowLength)
                  ? std::string("of dynamic length")
                  : "of " + std::to_string(rowLength * elementBytes) +
                        " bytes");
    int64_t rows = load.getType().getDimSize(0);
    if (rows > target::kTmaMaxBoxDim)
      return "a TMA box has at most " + std::to_string(target::kTmaMaxBoxDim) +
             " rows; " + which + " has " + std::to_string(rows);
    if (!load.getAllowTma())
      return which + " has no allow_tma";
  }
  return "";
}
