//===- SearchStatisticsTest.cpp - The search's counts as statistics -------===//
//
// superoptimize() adds the counts of every function it searches to llvm
// statistics under DEBUG_TYPE "tileopt-superoptimize" (what `-stats`
// prints): after one search they have grown by its SearchStatistics.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Superopt/Search.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringMap.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

// A matmul and an exp of its product: one kernel of both is the fusion.
constexpr StringLiteral kProgram = R"mlir(
func.func @matmul_exp(%x: tensor<16x64xf16>, %w: tensor<64x32xf16>) -> tensor<16x32xf16> {
  %p = tk.matmul %x, %w : tensor<16x64xf16>, tensor<64x32xf16> -> tensor<16x32xf16>
  %e = tk.unary exp %p : tensor<16x32xf16>
  return %e : tensor<16x32xf16>
}
)mlir";

/// The search's statistics by name. A statistic is listed once it has
/// counted something while statistics were enabled; an unlisted one is 0.
llvm::StringMap<uint64_t> searchStatistics() {
  llvm::StringMap<uint64_t> values;
  for (auto [name, value] : llvm::GetStatistics())
    values[name] = value;
  return values;
}

TEST(SearchStatisticsTest, SearchCountsAreStatistics) {
  llvm::EnableStatistics(/*DoPrintOnExit=*/false);
  DialectRegistry registry;
  registerAllDialects(registry);
  registry.insert<func::FuncDialect, arith::ArithDialect, math::MathDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  auto program = cast<func::FuncOp>(module->getBody()->front());

  SearchOptions options;
  options.numThreads = 1;
  options.compileCandidates = false;
  llvm::StringMap<uint64_t> before = searchStatistics();
  FailureOr<SearchResult> result = superoptimize(program, options);
  ASSERT_TRUE(succeeded(result));
  llvm::StringMap<uint64_t> after = searchStatistics();
  auto grown = [&](StringRef name) {
    return after.lookup(name) - before.lookup(name);
  };

  const SearchStatistics &stats = result->stats;
  EXPECT_GT(stats.explored, 0u);
  EXPECT_GT(stats.verified, 0u);
  EXPECT_EQ(grown("NumFunctionsSearched"), 1u);
  EXPECT_EQ(grown("NumExplored"), stats.explored);
  EXPECT_EQ(grown("NumPruned"), stats.pruned);
  EXPECT_EQ(grown("NumComplete"), stats.complete);
  EXPECT_EQ(grown("NumVerified"), stats.verified);
  EXPECT_EQ(grown("NumEquivalent"), stats.equivalent);
  EXPECT_EQ(grown("NumNotCompiled"), stats.uncompiled);
  EXPECT_EQ(grown("NumBudgetExhausted"), stats.budgetExhausted ? 1u : 0u);
}

} // namespace
