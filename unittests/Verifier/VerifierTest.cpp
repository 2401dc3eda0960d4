//===- VerifierTest.cpp - Equivalence verdicts and reduced instances ------===//
//
// The verifier on the graphs of test/Interpreter/equivalence.mlir and the
// bundled example: planted bugs it must catch, true equivalences it must
// accept with the requested bound, and what shrinking does to the shapes.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Verifier/Verifier.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::verifier;

namespace {

class VerifierTest : public ::testing::Test {
protected:
  VerifierTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registry.insert<func::FuncDialect, arith::ArithDialect, math::MathDialect>();
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseFiles({"test/Interpreter/equivalence.mlir",
                         "examples/ugraph/rmsnorm_linear.mlir",
                         "test/Interpreter/rmsnorm-linear.mlir"});
  }

  /// One module holding the functions of all `paths` (under the source dir).
  OwningOpRef<ModuleOp> parseFiles(ArrayRef<StringRef> paths) {
    std::string text;
    for (StringRef path : paths) {
      auto buffer = llvm::MemoryBuffer::getFile(
          (Twine(TILEOPT_SOURCE_DIR) + "/" + path).str());
      EXPECT_TRUE(bool(buffer)) << path.str();
      text += (*buffer)->getBuffer().str() + "\n";
    }
    return parseSourceString<ModuleOp>(text, &context);
  }

  func::FuncOp lookup(StringRef name) {
    auto func = module->lookupSymbol<func::FuncOp>(name);
    EXPECT_TRUE(func) << name.str();
    return func;
  }

  VerificationResult check(StringRef a, StringRef b,
                           VerifierOptions options = {}) {
    FailureOr<VerificationResult> result =
        checkEquivalence(lookup(a), lookup(b), options);
    EXPECT_TRUE(succeeded(result)) << a.str() << " vs " << b.str();
    return succeeded(result) ? *result : VerificationResult();
  }

  /// `a` and `b` shrunk together into a scratch module the test keeps.
  FailureOr<SmallVector<func::FuncOp>> shrinkPair(StringRef a, StringRef b) {
    scratch = ModuleOp::create(UnknownLoc::get(&context));
    return shrink({lookup(a), lookup(b)}, *scratch);
  }

  static ArrayRef<int64_t> shapeOf(Type type) {
    return cast<ShapedType>(type).getShape();
  }

  /// Runs `fn` and returns the diagnostics it emitted.
  std::string diagnosticsOf(function_ref<void()> fn) {
    std::string text;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
      text += d.str() + "\n";
      return success();
    });
    fn();
    return text;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  OwningOpRef<ModuleOp> scratch;
};

TEST_F(VerifierTest, CatchesPlantedBugs) {
  for (auto [bad, reference] :
       {std::pair{"grid_2d_wrong_imap", "matmul_16x32x16"},
        std::pair{"attention_no_rescale", "attention_reference"},
        std::pair{"swapped_operands", "square_matmul"},
        std::pair{"scale_by_column_sums", "scale_by_row_sums"},
        std::pair{"rmsnorm_linear_early_div", "reference"}}) {
    // Several seeds: catching a bug must not depend on a lucky draw.
    for (uint64_t seed = 0; seed < 4; ++seed) {
      VerifierOptions options;
      options.seed = seed;
      VerificationResult result = check(bad, reference, options);
      EXPECT_FALSE(result.equivalent) << bad << " seed " << seed;
      EXPECT_NE(result.explanation.find("field trial"), std::string::npos)
          << result.explanation;
    }
  }
}

TEST_F(VerifierTest, AcceptsTrueEquivalencesWithTheTargetBound) {
  for (auto [a, b] : {std::pair{"mm_left", "mm_right"},
                      std::pair{"split_k", "matmul_8x64x32"},
                      std::pair{"grid_2d", "matmul_16x32x16"},
                      std::pair{"attention_online", "attention_reference"},
                      std::pair{"rmsnorm_linear", "reference"}}) {
    VerifierOptions options;
    options.targetBound = 1e-12;
    VerificationResult result = check(a, b, options);
    EXPECT_TRUE(result.equivalent) << a << ": " << result.explanation;
    EXPECT_LE(result.falseAcceptBound, 1e-12) << a;
    EXPECT_GE(result.fieldTrials, 1u);
  }
}

TEST_F(VerifierTest, PreparedCheckerGivesTheVerdictsOfFreshChecks) {
  // Per reference, the candidates the search could send it: planted bugs
  // and true equivalences, in an order where each checker is reused (kept
  // reference runs are hit) and sees more than one candidate.
  struct Case {
    const char *reference;
    std::vector<const char *> candidates;
  };
  for (const Case &c :
       {Case{"matmul_16x32x16", {"grid_2d", "grid_2d_wrong_imap", "grid_2d"}},
        Case{"attention_reference",
             {"attention_online", "attention_no_rescale", "attention_online"}},
        Case{"square_matmul", {"swapped_operands", "swapped_operands"}},
        Case{"scale_by_row_sums", {"scale_by_column_sums"}},
        Case{"reference",
             {"rmsnorm_linear", "rmsnorm_linear_early_div", "rmsnorm_linear"}},
        Case{"mm_right", {"mm_left"}},
        Case{"matmul_8x64x32", {"split_k", "split_k"}}}) {
    for (uint64_t seed = 0; seed < 2; ++seed) {
      VerifierOptions options;
      options.seed = seed;
      EquivalenceChecker checker(lookup(c.reference), options);
      for (const char *candidate : c.candidates) {
        FailureOr<VerificationResult> kept = checker.check(lookup(candidate));
        VerificationResult fresh = check(c.reference, candidate, options);
        ASSERT_TRUE(succeeded(kept)) << candidate;
        EXPECT_EQ(kept->equivalent, fresh.equivalent) << candidate;
        EXPECT_EQ(kept->falseAcceptBound, fresh.falseAcceptBound) << candidate;
        EXPECT_EQ(kept->trialBound, fresh.trialBound) << candidate;
        EXPECT_EQ(kept->fieldTrials, fresh.fieldTrials) << candidate;
        EXPECT_EQ(kept->explanation, fresh.explanation) << candidate;
      }
      // Candidates of one partition share the reference's kept runs.
      EXPECT_EQ(checker.getNumReducedReferences(), 1u) << c.reference;
    }
  }
}

TEST_F(VerifierTest, PreparedCheckerKeepsOneEntryPerReducedReference) {
  // Two candidates that shrink the reference differently: the second must
  // not reuse the first one's runs.
  module = parseSourceString<ModuleOp>(R"(
    func.func @ref(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
      %y = tk.unary square %x : tensor<8x64xf32>
      return %y : tensor<8x64xf32>
    }
    func.func @blocks_of_32(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
      %y = tk.fused grid [2, 1, 1] block [32, 1, 1] forloop 1
             (%a = %x : tensor<8x64xf32>) -> tensor<8x64xf32> {
        %t = tb.input_iterator %a imap [1, -1, -1] fmap -1
               : tensor<8x64xf32> -> !tb.tile<8x32xf32>
        %q = tb.unary square %t : !tb.tile<8x32xf32>
        %s = tb.forloop_accum sum %q
               : (!tb.tile<8x32xf32>) -> !tb.tile<8x32xf32>
        %o = tb.output_saver %s omap [1, -1, -1]
               : !tb.tile<8x32xf32> -> tensor<8x64xf32>
        tb.yield %o : tensor<8x64xf32>
      }
      return %y : tensor<8x64xf32>
    }
    func.func @blocks_of_4(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
      %y = tk.fused grid [16, 1, 1] block [32, 1, 1] forloop 1
             (%a = %x : tensor<8x64xf32>) -> tensor<8x64xf32> {
        %t = tb.input_iterator %a imap [1, -1, -1] fmap -1
               : tensor<8x64xf32> -> !tb.tile<8x4xf32>
        %q = tb.unary square %t : !tb.tile<8x4xf32>
        %s = tb.forloop_accum sum %q
               : (!tb.tile<8x4xf32>) -> !tb.tile<8x4xf32>
        %o = tb.output_saver %s omap [1, -1, -1]
               : !tb.tile<8x4xf32> -> tensor<8x64xf32>
        tb.yield %o : tensor<8x64xf32>
      }
      return %y : tensor<8x64xf32>
    })", &context);
  ASSERT_TRUE(module);
  EquivalenceChecker checker(lookup("ref"));
  for (const char *candidate : {"blocks_of_32", "blocks_of_4", "blocks_of_32"}) {
    FailureOr<VerificationResult> result = checker.check(lookup(candidate));
    ASSERT_TRUE(succeeded(result)) << candidate;
    EXPECT_TRUE(result->equivalent) << candidate << ": " << result->explanation;
  }
  // 64 columns shrink to 2 x 2 and to 16 x 2: two reduced references.
  EXPECT_EQ(checker.getNumReducedReferences(), 2u);
}

TEST_F(VerifierTest, FullSizeAgreesWithReducedInstances) {
  VerifierOptions options;
  options.shrink = false;
  EXPECT_TRUE(check("split_k", "matmul_8x64x32", options).equivalent);
  EXPECT_FALSE(check("grid_2d_wrong_imap", "matmul_16x32x16", options).equivalent);
}

TEST_F(VerifierTest, ShrinkKeepsThePartitionAndRescalesTheMean) {
  FailureOr<SmallVector<func::FuncOp>> shrunk =
      shrinkPair("rmsnorm_linear", "reference");
  ASSERT_TRUE(succeeded(shrunk));
  func::FuncOp fused = (*shrunk)[0];
  // Rows 16 -> 2; hidden 64 iterations x 64 -> 64 x 2; columns 48 blocks x
  // 128 -> 48 x 2.
  EXPECT_EQ(shapeOf(fused.getArgumentTypes()[0]), ArrayRef<int64_t>({2, 128}));
  EXPECT_EQ(shapeOf(fused.getArgumentTypes()[1]), ArrayRef<int64_t>({128, 96}));
  EXPECT_EQ(shapeOf((*shrunk)[1].getResultTypes()[0]),
            ArrayRef<int64_t>({2, 96}));
  auto kernel = *fused.getOps<tk::FusedOp>().begin();
  EXPECT_EQ(kernel.getGridDims(), ArrayRef<int64_t>({48, 1, 1}));
  EXPECT_EQ(kernel.getForloopRange(), 64);
  // mul_scalar(1/4096) was the mean over the hidden dim, now 128 wide.
  bool sawMean = false;
  kernel.walk([&](tb::UnaryOp unary) {
    if (unary.getKind() == UnaryKind::mul_scalar) {
      EXPECT_EQ(unary.getScalarAttr().getValueAsDouble(), 1.0 / 128);
      sawMean = true;
    }
  });
  EXPECT_TRUE(sawMean);
}

TEST_F(VerifierTest, MergedDimsShrinkToTheProductOfTheirParts) {
  // 16 heads of 8 rows as 128 rows (mla_decode's merge-batch-rows).
  module = parseSourceString<ModuleOp>(R"(
    func.func @rows(%x: tensor<16x8x32xf32>) -> tensor<128x32xf32> {
      %r = tk.reshape %x : tensor<16x8x32xf32> -> tensor<128x32xf32>
      %e = tk.unary exp %r : tensor<128x32xf32>
      return %e : tensor<128x32xf32>
    }
    func.func @heads(%x: tensor<16x8x32xf32>) -> tensor<128x32xf32> {
      %e = tk.unary exp %x : tensor<16x8x32xf32>
      %r = tk.reshape %e : tensor<16x8x32xf32> -> tensor<128x32xf32>
      return %r : tensor<128x32xf32>
    }
    func.func @swapped(%x: tensor<16x8x32xf32>) -> tensor<128x32xf32> {
      %t = tk.transpose %x [1, 0, 2] : tensor<16x8x32xf32> -> tensor<8x16x32xf32>
      %r = tk.reshape %t : tensor<8x16x32xf32> -> tensor<128x32xf32>
      %e = tk.unary exp %r : tensor<128x32xf32>
      return %e : tensor<128x32xf32>
    })",
                                       &context);
  ASSERT_TRUE(module);
  FailureOr<SmallVector<func::FuncOp>> shrunk = shrinkPair("rows", "heads");
  ASSERT_TRUE(succeeded(shrunk));
  // Heads 16 -> 2, rows 8 -> 2, so the merged 128 -> 4.
  EXPECT_EQ(shapeOf((*shrunk)[0].getArgumentTypes()[0]),
            ArrayRef<int64_t>({2, 2, 2}));
  EXPECT_EQ(shapeOf((*shrunk)[0].getResultTypes()[0]),
            ArrayRef<int64_t>({4, 2}));
  EXPECT_TRUE(check("heads", "rows").equivalent);
  EXPECT_FALSE(check("swapped", "rows").equivalent);
}

TEST_F(VerifierTest, KeepsMergedDimsWholeWhenTheirPartitionForbids) {
  // The merged rows are split into 8 blocks of 16: 4 rows, the product of
  // 2 heads and 2 rows, cannot hold 8 blocks, so heads, rows and the
  // merged dim keep their extents (the columns still shrink).
  module = parseSourceString<ModuleOp>(R"(
    func.func @ref(%x: tensor<16x8x32xf32>) -> tensor<128x32xf32> {
      %r = tk.reshape %x : tensor<16x8x32xf32> -> tensor<128x32xf32>
      %e = tk.unary exp %r : tensor<128x32xf32>
      return %e : tensor<128x32xf32>
    }
    func.func @blocks(%x: tensor<16x8x32xf32>) -> tensor<128x32xf32> {
      %r = tk.reshape %x : tensor<16x8x32xf32> -> tensor<128x32xf32>
      %y = tk.fused grid [8, 1, 1] block [128, 1, 1] forloop 1 (%xi = %r : tensor<128x32xf32>) -> tensor<128x32xf32> {
        %a = tb.input_iterator %xi imap [0, -1, -1] fmap -1 : tensor<128x32xf32> -> !tb.tile<16x32xf32>
        %e = tb.unary exp %a : !tb.tile<16x32xf32>
        %n = tb.forloop_accum none %e : (!tb.tile<16x32xf32>) -> !tb.tile<16x32xf32>
        %o = tb.output_saver %n omap [0, -1, -1] : !tb.tile<16x32xf32> -> tensor<128x32xf32>
        tb.yield %o : tensor<128x32xf32>
      }
      return %y : tensor<128x32xf32>
    })",
                                       &context);
  ASSERT_TRUE(module);
  FailureOr<SmallVector<func::FuncOp>> shrunk = shrinkPair("blocks", "ref");
  ASSERT_TRUE(succeeded(shrunk));
  EXPECT_EQ(shapeOf((*shrunk)[0].getArgumentTypes()[0]),
            ArrayRef<int64_t>({16, 8, 2}));
  EXPECT_TRUE(check("blocks", "ref").equivalent);
}

TEST_F(VerifierTest, RefusesWhatItCannotShrink) {
  // 4 x 8 regrouped as 8 x 4: neither a merge nor a split.
  module = parseSourceString<ModuleOp>(R"(
    func.func @a(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
      %y = tk.reshape %x : tensor<4x8xf32> -> tensor<8x4xf32>
      return %y : tensor<8x4xf32>
    })",
                                       &context);
  std::string errors = diagnosticsOf([&] {
    EXPECT_TRUE(failed(checkEquivalence(lookup("a"), lookup("a"))));
  });
  EXPECT_NE(errors.find("cannot be shrunk: it regroups dims"),
            std::string::npos)
      << errors;
  // At full size the same pair is decided.
  VerifierOptions options;
  options.shrink = false;
  EXPECT_TRUE(check("a", "a", options).equivalent);
}

TEST_F(VerifierTest, RefusesReducedInstancesTooLargeToTest) {
  // Shrinking keeps the partition: 512 x 512 blocks and 256 loop steps keep
  // M and N at 1024 and K at 512 (tiles of 2), 2^29 multiply-adds a trial.
  module = parseSourceString<ModuleOp>(R"(
    func.func @a(%x: tensor<65536x16384xf16>, %w: tensor<16384x65536xf16>) -> tensor<65536x65536xf16> {
      %y = tk.fused grid [512, 512, 1] block [128, 1, 1] forloop 256 (%xi = %x : tensor<65536x16384xf16>, %wi = %w : tensor<16384x65536xf16>) -> tensor<65536x65536xf16> {
        %a = tb.input_iterator %xi imap [0, -1, -1] fmap 1 : tensor<65536x16384xf16> -> !tb.tile<128x64xf16>
        %b = tb.input_iterator %wi imap [-1, 1, -1] fmap 0 : tensor<16384x65536xf16> -> !tb.tile<64x128xf16>
        %c = tb.matmul %a, %b : !tb.tile<128x64xf16>, !tb.tile<64x128xf16> -> !tb.tile<128x128xf16>
        %d = tb.forloop_accum sum %c : (!tb.tile<128x128xf16>) -> !tb.tile<128x128xf16>
        %e = tb.output_saver %d omap [0, 1, -1] : !tb.tile<128x128xf16> -> tensor<65536x65536xf16>
        tb.yield %e : tensor<65536x65536xf16>
      }
      return %y : tensor<65536x65536xf16>
    })", &context);
  ASSERT_TRUE(module);
  func::FuncOp a = lookup("a");
  // The tiles' elements (the matmul's times K), times the blocks and loop
  // steps, and the kernel's result.
  int64_t perStep = 128 * 64 + 64 * 128 + 128 * 128 * 64 + 128 * 128;
  EXPECT_EQ(estimatedWork(a),
            perStep * int64_t(512) * 512 * 256 + int64_t(65536) * 65536);
  std::string errors = diagnosticsOf(
      [&] { EXPECT_TRUE(failed(checkEquivalence(a, a))); });
  EXPECT_NE(errors.find("more than the verifier's limit"), std::string::npos)
      << errors;
}

TEST_F(VerifierTest, RefusesNonTensorArguments) {
  module = parseSourceString<ModuleOp>(R"(
    func.func @a(%x: tensor<8x16xf32>, %s: f32) -> tensor<8x16xf32> {
      %0 = tk.unary exp %x : tensor<8x16xf32>
      return %0 : tensor<8x16xf32>
    })", &context);
  ASSERT_TRUE(module);
  std::string errors = diagnosticsOf([&] {
    EXPECT_TRUE(failed(checkEquivalence(lookup("a"), lookup("a"))));
  });
  EXPECT_NE(errors.find("takes or returns 'f32': the verifier compares "
                        "functions of statically shaped tensors only"),
            std::string::npos)
      << errors;
}

TEST_F(VerifierTest, RefusesMismatchedSignatures) {
  std::string errors = diagnosticsOf([&] {
    EXPECT_TRUE(failed(checkEquivalence(lookup("split_k"), lookup("mm_left"))));
  });
  EXPECT_NE(errors.find("only functions of one signature can be equivalent"),
            std::string::npos)
      << errors;
}

} // namespace
