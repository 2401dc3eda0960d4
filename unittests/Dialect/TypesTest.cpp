//===- TypesTest.cpp - TileOpt types through their C++ API ----------------===//
//
// What IR tests cannot see: tb tiles behave as ShapedTypes for code written
// against that interface (the shared shape checks, later the search), and
// invalid parameters give diagnostics, not crashes, through getChecked.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Dialect/TB/IR/TBOps.h"
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "TileOpt/InitAllDialects.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tileopt;

namespace {

class TypesTest : public ::testing::Test {
protected:
  TypesTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Runs `fn` and returns the text of the diagnostics it emitted.
  std::string diagnosticsOf(function_ref<void()> fn) {
    std::string text;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      text += diag.str();
      return success();
    });
    fn();
    return text;
  }

  MLIRContext context;
};

TEST_F(TypesTest, TileIsAShapedType) {
  Type f16 = Float16Type::get(&context);
  auto tile = tb::TileType::get({16, 64}, f16);
  auto shaped = dyn_cast<ShapedType>(tile);
  ASSERT_TRUE(shaped);
  EXPECT_EQ(shaped.getRank(), 2);
  EXPECT_EQ(shaped.getNumElements(), 1024);
  EXPECT_EQ(shaped.getDimSize(1), 64);
  EXPECT_EQ(shaped.getElementType(), f16);

  Type f32 = Float32Type::get(&context);
  ShapedType cloned = shaped.clone({8, 8, 2}, f32);
  EXPECT_TRUE(isa<tb::TileType>(cloned));
  EXPECT_EQ(cloned.getShape(), ArrayRef<int64_t>({8, 8, 2}));
  EXPECT_EQ(cloned.getElementType(), f32);
  // Types are uniqued: the same parameters give the same type.
  EXPECT_EQ(tb::TileType::get({16, 64}, f16), tile);
}

TEST_F(TypesTest, InvalidTileIsADiagnostic) {
  Location loc = UnknownLoc::get(&context);
  Type f16 = Float16Type::get(&context);
  tb::TileType bad;
  std::string text = diagnosticsOf([&] {
    bad = tb::TileType::getChecked(loc, &context, ArrayRef<int64_t>{0, 4}, f16);
  });
  EXPECT_FALSE(bad);
  EXPECT_NE(text.find("tile dims must be positive, got 0"), std::string::npos)
      << text;

  text = diagnosticsOf([&] {
    bad = tb::TileType::getChecked(loc, &context, ArrayRef<int64_t>{4},
                                   Type(IndexType::get(&context)));
  });
  EXPECT_FALSE(bad);
  EXPECT_NE(text.find("integers or floats"), std::string::npos) << text;
}

TEST_F(TypesTest, TensorViewAllowsDynamicDims) {
  Location loc = UnknownLoc::get(&context);
  Type bf16 = BFloat16Type::get(&context);
  auto view = tile::TensorViewType::getChecked(
      loc, &context, ArrayRef<int64_t>{ShapedType::kDynamic, 4096}, bf16);
  ASSERT_TRUE(view);
  EXPECT_EQ(view.getRank(), 2);
  EXPECT_TRUE(ShapedType::isDynamic(view.getShape()[0]));

  tile::TensorViewType bad;
  std::string text = diagnosticsOf([&] {
    bad = tile::TensorViewType::getChecked(loc, &context,
                                           ArrayRef<int64_t>{}, bf16);
  });
  EXPECT_FALSE(bad);
  EXPECT_NE(text.find("at least one dimension"), std::string::npos) << text;
}

} // namespace
