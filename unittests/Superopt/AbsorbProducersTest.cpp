//===- AbsorbProducersTest.cpp - Kept producers into fused kernels --------===//
//
// The producers that can move into the kernels reading them, each subset of
// them moved (what the superoptimizer offers as candidates), and the
// verifier's verdict on every such form: QK-norm's rms_norm of Q over its
// rows and of K (stored as K^T) over its dim 1, read by one kernel of
// S = Qn Kn whose blocks hold whole rows of Q and whole columns of K.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Superopt/AbsorbProducers.h"
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Verifier/Verifier.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Parser/Parser.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

constexpr StringLiteral kPrograms = R"mlir(
// softmax-free QK-norm scores: rms_norm(Q) @ rms_norm(K), K normalized over
// its dim 1 (the importer's form: transposes around a tk.rms_norm).
func.func @ref(%q: tensor<2x32x16xf32>, %k: tensor<2x16x64xf32>) -> tensor<2x32x64xf32> {
  %qn = tk.rms_norm %q {epsilon = 9.765625e-4 : f32} : tensor<2x32x16xf32>
  %kt = tk.transpose %k [0, 2, 1] : tensor<2x16x64xf32> -> tensor<2x64x16xf32>
  %ktn = tk.rms_norm %kt {epsilon = 9.765625e-4 : f32} : tensor<2x64x16xf32>
  %kn = tk.transpose %ktn [0, 2, 1] : tensor<2x64x16xf32> -> tensor<2x16x64xf32>
  %s = tk.matmul %qn, %kn : tensor<2x32x16xf32>, tensor<2x16x64xf32> -> tensor<2x32x64xf32>
  return %s : tensor<2x32x64xf32>
}

// K normalized over its keys (the last dim) instead: another function.
func.func @keys(%q: tensor<2x32x16xf32>, %k: tensor<2x16x64xf32>) -> tensor<2x32x64xf32> {
  %qn = tk.rms_norm %q {epsilon = 9.765625e-4 : f32} : tensor<2x32x16xf32>
  %kn = tk.rms_norm %k {epsilon = 9.765625e-4 : f32} : tensor<2x16x64xf32>
  %s = tk.matmul %qn, %kn : tensor<2x32x16xf32>, tensor<2x16x64xf32> -> tensor<2x32x64xf32>
  return %s : tensor<2x32x64xf32>
}

// The norms kept as kernels, the product in 2 x 2 blocks of 16 rows of Q
// (whole rows of 16) and 32 columns of K (whole columns of 16).
func.func @spliced(%q: tensor<2x32x16xf32>, %k: tensor<2x16x64xf32>) -> tensor<2x32x64xf32> {
  %qn = tk.rms_norm %q {epsilon = 9.765625e-4 : f32} : tensor<2x32x16xf32>
  %kt = tk.transpose %k [0, 2, 1] : tensor<2x16x64xf32> -> tensor<2x64x16xf32>
  %ktn = tk.rms_norm %kt {epsilon = 9.765625e-4 : f32} : tensor<2x64x16xf32>
  %kn = tk.transpose %ktn [0, 2, 1] : tensor<2x64x16xf32> -> tensor<2x16x64xf32>
  %s = tk.fused grid [2, 2, 1] block [128, 1, 1] forloop 1
         (%a = %qn : tensor<2x32x16xf32>, %b = %kn : tensor<2x16x64xf32>) -> tensor<2x32x64xf32> {
    %qt = tb.input_iterator %a imap [1, -1, -1] fmap -1 : tensor<2x32x16xf32> -> !tb.tile<2x16x16xf32>
    %ktile = tb.input_iterator %b imap [-1, 2, -1] fmap -1 : tensor<2x16x64xf32> -> !tb.tile<2x16x32xf32>
    %st = tb.matmul %qt, %ktile : !tb.tile<2x16x16xf32>, !tb.tile<2x16x32xf32> -> !tb.tile<2x16x32xf32>
    %acc = tb.forloop_accum none %st : (!tb.tile<2x16x32xf32>) -> !tb.tile<2x16x32xf32>
    %out = tb.output_saver %acc omap [1, 2, -1] : !tb.tile<2x16x32xf32> -> tensor<2x32x64xf32>
    tb.yield %out : tensor<2x32x64xf32>
  }
  return %s : tensor<2x32x64xf32>
}
)mlir";

class AbsorbProducersTest : public ::testing::Test {
protected:
  AbsorbProducersTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry
        .insert<func::FuncDialect, arith::ArithDialect, math::MathDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(kPrograms, &context);
    EXPECT_TRUE(bool(module));
  }

  func::FuncOp lookup(StringRef name) {
    return module->lookupSymbol<func::FuncOp>(name);
  }

  /// A copy of @spliced, in the module, named `name`.
  func::FuncOp copyOfSpliced(StringRef name) {
    auto copy = cast<func::FuncOp>(lookup("spliced")->clone());
    copy.setSymName(name);
    module->push_back(copy);
    return copy;
  }

  template <typename OpT> static unsigned count(func::FuncOp f) {
    unsigned n = 0;
    f.walk([&](OpT) { ++n; });
    return n;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(AbsorbProducersTest, ListsTheProducersThatCanMove) {
  SmallVector<Operation *> producers = absorbableProducers(lookup("spliced"));
  ASSERT_EQ(producers.size(), 2u);
  // The rms_norm of Q, and the transpose that gives the normalized K back
  // its layout (the kernel reads its result).
  EXPECT_TRUE(isa<tk::RmsNormOp>(producers[0]));
  auto outer = dyn_cast<tk::TransposeOp>(producers[1]);
  ASSERT_TRUE(outer);
  EXPECT_TRUE(outer.getInput().getDefiningOp<tk::RmsNormOp>());
  // Nothing can move from a program without graph-defined kernels.
  EXPECT_TRUE(absorbableProducers(lookup("ref")).empty());
}

TEST_F(AbsorbProducersTest, EverySubsetMovesAndStaysEquivalent) {
  verifier::EquivalenceChecker checker(lookup("ref"));
  verifier::EquivalenceChecker wrongDim(lookup("keys"));
  // Which producers stay (by their index in absorbableProducers), and the
  // tk ops left: rms_norms and transposes.
  struct Case {
    std::vector<unsigned> staying;
    unsigned norms, transposes;
  } cases[] = {{{}, 0, 0}, {{0}, 1, 0}, {{1}, 1, 2}, {{0, 1}, 2, 2}};
  for (auto [i, c] : llvm::enumerate(cases)) {
    func::FuncOp f = copyOfSpliced(("subset" + Twine(i)).str());
    SmallVector<Operation *> producers = absorbableProducers(f);
    ASSERT_EQ(producers.size(), 2u);
    llvm::SmallPtrSet<Operation *, 2> staying;
    for (unsigned index : c.staying)
      staying.insert(producers[index]);
    bool moved =
        absorbProducers(f, [&](Operation *op) { return staying.contains(op); });
    EXPECT_EQ(moved, c.staying.size() < 2) << i;
    EXPECT_EQ(count<tk::RmsNormOp>(f), c.norms) << i;
    EXPECT_EQ(count<tk::TransposeOp>(f), c.transposes) << i;
    // K's norm inside the kernel: a mean over the tile's dim 1.
    bool kInside = !llvm::is_contained(c.staying, 1u);
    unsigned reductions = 0;
    f.walk([&](tb::ReduceOp r) {
      EXPECT_EQ(r.getDim(), 1u);
      ++reductions;
    });
    EXPECT_EQ(reductions, kInside ? 1u : 0u) << i;
    FailureOr<verifier::VerificationResult> verdict = checker.check(f);
    ASSERT_TRUE(succeeded(verdict)) << i;
    EXPECT_TRUE(verdict->equivalent) << i << ": " << verdict->explanation;
    // The near miss: K normalized over its keys is another function.
    FailureOr<verifier::VerificationResult> miss = wrongDim.check(f);
    ASSERT_TRUE(succeeded(miss)) << i;
    EXPECT_FALSE(miss->equivalent) << i;
  }
}

} // namespace
