//===- TKToTileTest.cpp - µGraphs against their tile programs -------------===//
//
// tileopt-lower-ugraph must not change what a program computes. Each test
// lowers a function of tk ops (predefined kernels, and the block graphs the
// superoptimizer finds), runs the function with the kernel-graph
// interpreter and its tile program with the tile interpreter on the same
// seeded random inputs, in float64 and in float32, and compares every
// element of every result. A run with a deliberately broken tile program
// checks that the comparison is tight enough to notice.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Conversion/TKToTile/TKToTile.h"
#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Interpreter/Interpreter.h"
#include "TileOpt/Interpreter/TileInterpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::interp;

namespace {

/// Every element within `rtol` of the largest magnitude of the expected
/// result: both sides compute in the same precision and differ only in the
/// order of sums (tile.mma adds each K step to its accumulator, the
/// reference takes the whole dot product).
template <typename T>
::testing::AssertionResult sameTensor(const Tensor<T> &actual,
                                      const Tensor<T> &expected, double rtol) {
  if (actual.getShape() != expected.getShape())
    return ::testing::AssertionFailure() << "shapes differ";
  double scale = 0;
  for (T e : expected.values())
    scale = std::max(scale, std::fabs(double(e)));
  for (int64_t i = 0; i < actual.size(); ++i) {
    double a = actual[i], e = expected[i];
    if (!(std::fabs(a - e) <= rtol * scale))
      return ::testing::AssertionFailure()
             << "element " << i << ": tile program " << a << ", µGraph " << e
             << " (tolerance " << rtol * scale << ")";
  }
  return ::testing::AssertionSuccess();
}

class TKToTileTest : public ::testing::Test {
protected:
  TKToTileTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry.insert<func::FuncDialect, arith::ArithDialect, math::MathDialect,
                    scf::SCFDialect, linalg::LinalgDialect,
                    tensor::TensorDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `path` (relative to the source tree); with `import`, through
  /// tileopt-import-linalg.
  OwningOpRef<ModuleOp> load(StringRef path, bool import = false) {
    std::string file = std::string(TILEOPT_SOURCE_DIR) + "/" + path.str();
    OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(file, &context);
    EXPECT_TRUE(module) << file;
    if (module && import) {
      PassManager pm(&context);
      pm.addNestedPass<func::FuncOp>(createImportLinalg());
      EXPECT_TRUE(succeeded(pm.run(*module)));
    }
    return module;
  }

  /// `func` alone in a module, lowered.
  OwningOpRef<ModuleOp> lower(func::FuncOp func) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(func.getLoc());
    module->push_back(func.clone());
    PassManager pm(&context);
    pm.addPass(createLowerUGraph());
    EXPECT_TRUE(succeeded(pm.run(*module))) << func.getSymName().str();
    return module;
  }

  /// Runs `func` and its tile program `lowered` on the same random inputs
  /// in `Domain`; compares every result.
  template <typename Domain>
  ::testing::AssertionResult runBoth(func::FuncOp func, ModuleOp lowered,
                                     double rtol, uint64_t seed = 1) {
    Domain domain;
    SplitMix64 rng(seed);
    auto inputs = randomInputs(func, domain, rng);
    if (failed(inputs))
      return ::testing::AssertionFailure() << "no inputs";
    auto expected = interpret<Domain>(func, *inputs, domain);
    auto host = lowered.lookupSymbol<func::FuncOp>(func.getSymName());
    if (failed(expected) || !host)
      return ::testing::AssertionFailure() << "cannot run the µGraph";
    auto actual = interpretHost<Domain>(host, *inputs, domain);
    if (failed(actual))
      return ::testing::AssertionFailure() << "cannot run the tile program";
    for (auto [i, e] : llvm::enumerate(*expected)) {
      ::testing::AssertionResult same = sameTensor((*actual)[i], e, rtol);
      if (!same)
        return same << " in result #" << i << " of @" << func.getSymName().str()
                    << " (" << Domain::name.str() << ")";
    }
    return ::testing::AssertionSuccess();
  }

  /// Lowers every function of each of `files` (after tileopt-import-linalg
  /// with `import`) and compares it with its tile program in float64 and
  /// float32.
  void expectEquivalent(ArrayRef<StringRef> files, bool import = false) {
    for (StringRef file : files) {
      OwningOpRef<ModuleOp> module = load(file, import);
      if (!module)
        continue;
      EXPECT_FALSE(module->getOps<func::FuncOp>().empty()) << file.str();
      for (auto func : module->getOps<func::FuncOp>()) {
        OwningOpRef<ModuleOp> lowered = lower(func);
        EXPECT_TRUE(runBoth<F64Domain>(func, *lowered, 1e-10));
        EXPECT_TRUE(runBoth<F32Domain>(func, *lowered, 1e-4));
      }
    }
  }

  MLIRContext context;
};

// Rows that fit one m16 tile go on 4 warps side by side when the columns,
// padded to a power of two, are a multiple of 32; other rows take 2x2 warps
// and a multiple of 32. The padded rows are a power of two.
TEST(MmaPaddingTest, RowsFitOneTileWhenTheWarpsSitSideBySide) {
  EXPECT_EQ(mmaRowMultiple(8, 32), 16);
  EXPECT_EQ(mmaRowMultiple(8, 24), 16);
  EXPECT_EQ(mmaRowMultiple(8, 16), 32);
  EXPECT_EQ(mmaRowMultiple(16, 4096), 16);
  EXPECT_EQ(mmaRowMultiple(17, 32), 32);
  EXPECT_EQ(mmaRowMultiple(1, 8), 32);
  EXPECT_EQ(mmaPaddedRows(2, 32), 16);
  EXPECT_EQ(mmaPaddedRows(8, 16), 32);
  EXPECT_EQ(mmaPaddedRows(48, 32), 64);
  EXPECT_EQ(mmaPaddedRows(128, 128), 128);
}

TEST_F(TKToTileTest, PredefinedKernels) {
  expectEquivalent({"test/Conversion/TKToTile/Inputs/predefined.mlir"});
}

TEST_F(TKToTileTest, BlockGraphs) {
  expectEquivalent({"test/Conversion/TKToTile/Inputs/block-graphs.mlir",
                    "examples/ugraph/small/gated_mlp.mlir",
                    "examples/ugraph/small/gqa_decode_splitkv.mlir",
                    "examples/ugraph/small/mla_decode.mlir",
                    "examples/ugraph/small/ntrans.mlir",
                    "examples/ugraph/small/ntrans_one_kernel.mlir",
                    "examples/ugraph/small/qknorm_attention.mlir",
                    "examples/ugraph/small/qknorm_attention_b8.mlir",
                    "examples/ugraph/small/qknorm_attention_b8_one_kernel.mlir",
                    "examples/ugraph/small/rmsnorm_linear_b1.mlir",
                    "examples/ugraph/small/rmsnorm_linear.mlir"});
}

// The µGraphs the superoptimizer finds for the benchmark workloads, at
// their real sizes.
TEST_F(TKToTileTest, FoundUGraphs) {
  expectEquivalent(
      {"examples/ugraph/gated_mlp.mlir", "examples/ugraph/gqa_decode.mlir",
       "examples/ugraph/gqa_decode_splitkv.mlir", "examples/ugraph/lora.mlir",
       "examples/ugraph/ntrans.mlir", "examples/ugraph/ntrans_one_kernel.mlir",
       "examples/ugraph/qknorm_attention.mlir",
       "examples/ugraph/rmsnorm_linear_b1.mlir",
       "examples/ugraph/rmsnorm_linear.mlir"});
}

// The benchmark workloads as imported (predefined kernels only), at their
// real sizes: all but mla_decode, whose projections broadcast C over the
// heads (no tiling yet). qknorm_attention's rms_norm of K over the head dim
// reads K through a transpose and is read through one.
TEST_F(TKToTileTest, ImportedWorkloads) {
  expectEquivalent(
      {"examples/linalg/gated_mlp.mlir", "examples/linalg/rmsnorm_linear.mlir",
       "examples/linalg/gqa_decode.mlir", "examples/linalg/lora.mlir",
       "examples/linalg/ntrans.mlir", "examples/linalg/qknorm_attention.mlir"},
      /*import=*/true);
}

// The comparison notices a tile program that skips the last K step.
TEST_F(TKToTileTest, NoticesAMissingIteration) {
  OwningOpRef<ModuleOp> module = load("examples/ugraph/small/gated_mlp.mlir");
  auto func = module->lookupSymbol<func::FuncOp>("gated_mlp");
  OwningOpRef<ModuleOp> lowered = lower(func);
  lowered->walk([](scf::ForOp loop) {
    OpBuilder b(loop);
    loop.getUpperBoundMutable().assign(
        arith::ConstantIndexOp::create(b, loop.getLoc(), 3));
  });
  EXPECT_FALSE(runBoth<F64Domain>(func, *lowered, 1e-10));
}

} // namespace
