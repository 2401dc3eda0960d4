//===- ReduceAcrossBlocksOpToGPU.cpp - Grid-wide tile reductions ----------===//
//
// tile.reduce_across_blocks: the blocks exchange their tiles through device
// memory (the partials arrays outlineTileKernels gives each op) and meet at
// a grid barrier; every block then combines the tiles of its group.
//
//===----------------------------------------------------------------------===//
#include "Utility.h"

#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

namespace {

/// The syncscope of LLVM atomics that the NVPTX backend emits as .gpu: what
/// blocks on different SMs synchronize at.
constexpr StringLiteral kDeviceScope = "device";

/// A pointer to element `index` (i64) of the device-memory global `symbol`
/// of `elementType` elements.
Value globalElement(OpBuilder &b, Location loc, FlatSymbolRefAttr symbol,
                    Type elementType, Value index) {
  auto pointer = LLVM::LLVMPointerType::get(b.getContext(), 1);
  Value base = LLVM::AddressOfOp::create(b, loc, pointer, symbol.getValue());
  return LLVM::GEPOp::create(b, loc, pointer, elementType, base,
                             ValueRange{index});
}

Value i64Index(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// Makes the first thread of every block wait until the first threads of
/// all `blocks` blocks have arrived: a generation-counting barrier on
/// `state` = {arrivals, generation}. A block reads the generation, then
/// arrives; the last to arrive resets the count and starts the next
/// generation, which the others wait for. The count is back at zero for the
/// next barrier of the launch, or the next launch. As cooperative groups'
/// grid sync does, the thread fences at device scope before arriving (its
/// block's writes, ordered before it by the block barrier, are then seen by
/// every block that sees the arrival) and after waiting.
void gridBarrier(OpBuilder &b, Location loc, FlatSymbolRefAttr state,
                 int64_t blocks) {
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, kDeviceScope);
  Type i32 = b.getI32Type();
  Value arrivals = globalElement(b, loc, state, i32, i64Constant(b, loc, 0));
  Value generation = globalElement(b, loc, state, i32, i64Constant(b, loc, 1));
  auto load = [&](Value at, LLVM::AtomicOrdering ordering) {
    return LLVM::LoadOp::create(b, loc, i32, at, /*alignment=*/4,
                                /*isVolatile=*/false, /*isNonTemporal=*/false,
                                /*isInvariant=*/false,
                                /*isInvariantGroup=*/false, ordering,
                                kDeviceScope);
  };
  Value seen = load(generation, LLVM::AtomicOrdering::acquire);
  Value arrived = LLVM::AtomicRMWOp::create(
      b, loc, LLVM::AtomicBinOp::add, arrivals,
      arith::ConstantIntOp::create(b, loc, 1, 32),
      LLVM::AtomicOrdering::monotonic, kDeviceScope, /*alignment=*/4);
  Value last = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, arrived,
      arith::ConstantIntOp::create(b, loc, blocks - 1, 32));
  auto ifLast = scf::IfOp::create(b, loc, TypeRange{}, last,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifLast.thenBlock());
  LLVM::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, 0, 32),
                        arrivals, /*alignment=*/4, /*isVolatile=*/false,
                        /*isNonTemporal=*/false, /*isInvariantGroup=*/false,
                        LLVM::AtomicOrdering::monotonic, kDeviceScope);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, kDeviceScope);
  LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, generation,
                            arith::ConstantIntOp::create(b, loc, 1, 32),
                            LLVM::AtomicOrdering::monotonic, kDeviceScope,
                            /*alignment=*/4);
  b.setInsertionPointToStart(ifLast.elseBlock());
  auto wait = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
  b.createBlock(&wait.getBefore());
  Value now = load(generation, LLVM::AtomicOrdering::acquire);
  scf::ConditionOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, now, seen),
      ValueRange{});
  b.createBlock(&wait.getAfter());
  NVVM::NanosleepOp::create(b, loc,
                            arith::ConstantIntOp::create(b, loc, 32, 32));
  scf::YieldOp::create(b, loc);
  b.setInsertionPointAfter(ifLast);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, kDeviceScope);
}

/// Calls `body(e)` for the elements e < n this thread owns: e = tid,
/// tid + numThreads, ...
void forOwnedElements(OpBuilder &b, Location loc, int64_t n, int64_t numThreads,
                      function_ref<void(Value)> body) {
  auto loop =
      scf::ForOp::create(b, loc, threadIdOf(b, loc), indexConstant(b, loc, n),
                         indexConstant(b, loc, numThreads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  body(loop.getInductionVar());
}

/// tile.reduce_across_blocks: the block's tile goes to shared memory by
/// position, then a word per element to its row of the partials array in
/// device memory (one row per block of the launch grid). After the grid
/// barrier, each element is combined over the rows of the blocks of its
/// group (relaxed loads at device scope, which L1 does not serve stale), in
/// a fixed order, and dealt back through shared memory.
struct ReduceAcrossBlocksLowering
    : public TilePattern<tile::ReduceAcrossBlocksOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::ReduceAcrossBlocksOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto partials = op->getAttrOfType<FlatSymbolRefAttr>(kPartialsAttr);
    auto barrier = op->getAttrOfType<FlatSymbolRefAttr>(kGridBarrierAttr);
    auto grid = op->getAttrOfType<DenseI64ArrayAttr>(kLaunchGridAttr);
    if (!partials || !barrier || !grid)
      return rewriter.notifyMatchFailure(op, "not prepared by outlining");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    FragmentLayout tile = layout(op.getType());
    Type elementType = op.getType().getElementType();
    Type wordType = exchangeWordType(elementType);
    int64_t n = tile.numElements;
    Value scratch = scratchOf(op);

    gpu::BarrierOp::create(b, loc);
    storeToScratch(b, loc, adaptor.getInput(), tile, scratch);
    gpu::BarrierOp::create(b, loc);

    SmallVector<Value, 3> block;
    for (gpu::Dimension d :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
      block.push_back(gpu::BlockIdOp::create(b, loc, d));
    // Block order: x fastest.
    SmallVector<int64_t, 3> order(llvm::reverse(grid.asArrayRef()));
    auto linearBlock = [&](ArrayRef<Value> coords) {
      return linearize(b, loc, SmallVector<Value>(llvm::reverse(coords)),
                       order);
    };
    auto partialAt = [&](Value blockIndex, Value element) {
      Value row =
          arith::MulIOp::create(b, loc, blockIndex, indexConstant(b, loc, n));
      return globalElement(b, loc, partials, wordType,
                           i64Index(b, loc, addIndex(b, loc, row, element)));
    };
    Value self = linearBlock(block);
    forOwnedElements(b, loc, n, numThreads, [&](Value e) {
      Value word = fromScratchWord(
          b, loc, memref::LoadOp::create(b, loc, scratch, e), wordType);
      LLVM::StoreOp::create(b, loc, word, partialAt(self, e));
    });
    gpu::BarrierOp::create(b, loc);
    int64_t blocks = grid[0] * grid[1] * grid[2];
    inFirstThread(b, loc, [&] { gridBarrier(b, loc, barrier, blocks); });
    gpu::BarrierOp::create(b, loc);

    // Each element is combined over the group's blocks in `slices` strided
    // slices, one thread each, so that their loads from device memory are
    // in flight side by side; the first thread of each element then
    // combines the slices in order.
    int64_t dim = static_cast<int64_t>(op.getDim());
    int64_t groupBlocks = grid[dim];
    int64_t slices =
        std::max<int64_t>(1, std::min(numThreads / n, groupBlocks));
    // Combines `body(i)` for i = first, first + step, ... < end.
    auto combineOver = [&](Value first, int64_t end, int64_t step,
                           function_ref<Value(Value)> body) {
      auto loop = scf::ForOp::create(
          b, loc, first, indexConstant(b, loc, end),
          indexConstant(b, loc, step),
          ValueRange{identityOf(b, loc, op.getKind(), wordType)});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      scf::YieldOp::create(b, loc,
                           combine(b, loc, op.getKind(),
                                   loop.getRegionIterArg(0),
                                   body(loop.getInductionVar())));
      return loop.getResult(0);
    };
    auto blockSlice = [&](Value e, Value slice) {
      return combineOver(slice, groupBlocks, slices, [&](Value j) {
        SmallVector<Value, 3> other(block);
        other[dim] = j;
        return LLVM::LoadOp::create(
            b, loc, wordType, partialAt(linearBlock(other), e),
            /*alignment=*/4, /*isVolatile=*/false, /*isNonTemporal=*/false,
            /*isInvariant=*/false, /*isInvariantGroup=*/false,
            LLVM::AtomicOrdering::monotonic, kDeviceScope);
      });
    };
    if (slices == 1) {
      forOwnedElements(b, loc, n, numThreads, [&](Value e) {
        memref::StoreOp::create(
            b, loc,
            toScratchWord(b, loc, blockSlice(e, indexConstant(b, loc, 0))),
            scratch, e);
      });
    } else {
      Value tid = threadIdOf(b, loc);
      Value nConst = indexConstant(b, loc, n);
      Value e = arith::RemUIOp::create(b, loc, tid, nConst);
      Value slice = arith::DivUIOp::create(b, loc, tid, nConst);
      auto inSlice = scf::IfOp::create(
          b, loc, TypeRange{},
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, slice,
                                indexConstant(b, loc, slices)),
          /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(inSlice.thenBlock());
        memref::StoreOp::create(
            b, loc, toScratchWord(b, loc, blockSlice(e, slice)), scratch,
            addIndex(b, loc, mulIndex(b, loc, slice, n), e));
      }
      gpu::BarrierOp::create(b, loc);
      auto first = scf::IfOp::create(
          b, loc, TypeRange{},
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, nConst),
          /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(first.thenBlock());
      // Only this thread reads or writes column `tid` now.
      Value total =
          combineOver(indexConstant(b, loc, 0), slices, 1, [&](Value s) {
            return fromScratchWord(
                b, loc,
                memref::LoadOp::create(
                    b, loc, scratch,
                    addIndex(b, loc, mulIndex(b, loc, s, n), tid)),
                wordType);
          });
      memref::StoreOp::create(b, loc, toScratchWord(b, loc, total), scratch,
                              tid);
    }
    gpu::BarrierOp::create(b, loc);
    rewriter.replaceOp(op, loadFromScratch(b, loc, tile, elementType, scratch,
                                           [](Value p) { return p; }));
    return success();
  }
};

} // namespace

void tileopt::populateReduceAcrossBlocksOpToGPUPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    int64_t numThreads) {
  patterns.add<ReduceAcrossBlocksLowering>(converter, patterns.getContext(),
                                           numThreads);
}
