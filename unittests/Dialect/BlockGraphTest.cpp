//===- BlockGraphTest.cpp - Building block graphs through the C++ API -----===//
//
// The superoptimizer builds µGraphs through the op builders, not the parser.
// These tests build a fused kernel that way, read its launch shape back
// through BlockGraphOpInterface, and check that the structure verifier
// rejects graphs the builder API lets one construct.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/InitAllDialects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// X (8 x 256) @ W (256 x 512) as one kernel: grid (4, 1, 1) over the output
/// columns, 4 iterations over the contraction dim.
struct MatmulKernel {
  OwningOpRef<ModuleOp> module;
  tk::FusedOp fused;
  tb::MatmulOp matmul;
  tb::ForloopAccumOp accum;
  tb::OutputSaverOp saver;
};

class BlockGraphTest : public ::testing::Test {
protected:
  BlockGraphTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry.insert<func::FuncDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  MatmulKernel buildMatmulKernel() {
    MatmulKernel k;
    OpBuilder b(&context);
    Location loc = b.getUnknownLoc();
    Type f16 = b.getF16Type();
    auto xType = RankedTensorType::get({8, 256}, f16);
    auto wType = RankedTensorType::get({256, 512}, f16);
    auto yType = RankedTensorType::get({8, 512}, f16);
    k.module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(k.module->getBody());
    auto func = func::FuncOp::create(
        b, loc, "matmul", b.getFunctionType({xType, wType}, {yType}));
    Block *entry = func.addEntryBlock();
    b.setInsertionPointToEnd(entry);

    k.fused = tk::FusedOp::create(
        b, loc, TypeRange{yType}, entry->getArguments(),
        b.getDenseI64ArrayAttr({4, 1, 1}), b.getDenseI64ArrayAttr({128, 1, 1}),
        b.getI64IntegerAttr(4));
    Block *graph = b.createBlock(&k.fused.getBody(), {}, {xType, wType},
                                 {loc, loc});
    auto x = tb::InputIteratorOp::create(
        b, loc, tb::TileType::get({8, 64}, f16), graph->getArgument(0),
        b.getDenseI64ArrayAttr({-1, -1, -1}), b.getI64IntegerAttr(1));
    auto w = tb::InputIteratorOp::create(
        b, loc, tb::TileType::get({64, 128}, f16), graph->getArgument(1),
        b.getDenseI64ArrayAttr({1, -1, -1}), b.getI64IntegerAttr(0));
    auto tileType = tb::TileType::get({8, 128}, f16);
    k.matmul = tb::MatmulOp::create(b, loc, tileType, x, w);
    k.accum = tb::ForloopAccumOp::create(b, loc, tileType, tb::AccumKind::sum,
                                         k.matmul, /*scale=*/Value());
    k.saver = tb::OutputSaverOp::create(b, loc, yType, k.accum,
                                        b.getDenseI64ArrayAttr({1, -1, -1}),
                                        /*fmap=*/IntegerAttr());
    tb::YieldOp::create(b, loc, ValueRange{k.saver.getResult()});

    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(b, loc, k.fused.getResults());
    return k;
  }

  /// Verifies `op` and returns the diagnostics.
  std::string verifyErrors(Operation *op) {
    std::string text;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      text += diag.str() + "\n";
      return success();
    });
    (void)verify(op);
    return text;
  }

  MLIRContext context;
};

TEST_F(BlockGraphTest, BuiltKernelVerifies) {
  MatmulKernel k = buildMatmulKernel();
  EXPECT_EQ(verifyErrors(k.module.get()), "");
}

TEST_F(BlockGraphTest, LaunchShapeThroughTheInterface) {
  MatmulKernel k = buildMatmulKernel();
  auto graph = cast<tb::BlockGraphOpInterface>(k.fused.getOperation());
  EXPECT_EQ(graph.getGridDims(), ArrayRef<int64_t>({4, 1, 1}));
  EXPECT_EQ(graph.getBlockDims(), ArrayRef<int64_t>({128, 1, 1}));
  EXPECT_EQ(graph.getForloopRange(), 4);
  EXPECT_EQ(&graph.getBlockGraph(), &k.fused.getBody().front());
}

TEST_F(BlockGraphTest, SaverWithoutAccumulatorIsRejected) {
  MatmulKernel k = buildMatmulKernel();
  k.saver.getInputMutable().assign(k.matmul.getResult());
  k.accum.erase();
  std::string errors = verifyErrors(k.module.get());
  EXPECT_NE(errors.find("input is a per-iteration tile (not yet accumulated)"),
            std::string::npos)
      << errors;
}

TEST_F(BlockGraphTest, IteratorShapeFollowsTheGrid) {
  MatmulKernel k = buildMatmulKernel();
  // Four blocks along x split W's 512 columns into tiles of 128, not 256.
  auto w = k.matmul.getRhs().getDefiningOp<tb::InputIteratorOp>();
  w.getResult().setType(tb::TileType::get({64, 256}, OpBuilder(&context).getF16Type()));
  std::string errors = verifyErrors(k.module.get());
  EXPECT_NE(errors.find("tile shape must be 64x128, got 64x256"),
            std::string::npos)
      << errors;
}

} // namespace
