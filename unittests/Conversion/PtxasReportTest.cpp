//===- PtxasReportTest.cpp - runPtxas on PTX written here --------------===//
//
// The superoptimizer turns candidates down on what runPtxas reads from
// ptxas -v: each kernel's registers and spill stores. The PTX below is
// written to make ptxas report known numbers; without ptxas the tests skip.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Conversion/Passes.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// Runs runPtxas for sm_90 with the toolkit's ptxas; skips every test
/// where there is none.
class PtxasReport : public ::testing::Test {
protected:
  void SetUp() override {
    ptxas = findPtxas(findCudaToolkit(""));
    if (!ptxas)
      GTEST_SKIP() << "no ptxas";
  }

  FailureOr<SmallVector<PtxasKernelReport>> report(StringRef ptx) {
    FailureOr<PtxasOutput> output = runPtxas(*ptxas, ptx, "sm_90", error);
    if (failed(output))
      return failure();
    lastCubin = output->cubin;
    return output->kernels;
  }

  std::optional<std::string> ptxas;
  /// ptxas's messages when report fails.
  PtxasError error;
  /// The cubin of the last report that succeeded.
  std::string lastCubin;
};

constexpr const char *kHeader =
    ".version 8.0\n.target sm_90\n.address_size 64\n";

/// A kernel @`name` that stores the f32 constant `bits` (PTX's 0f form):
/// ptxas gives it a few registers and spills nothing.
std::string storeKernel(StringRef name, StringRef bits) {
  return (".visible .entry " + name +
          "(.param .u64 out) {\n"
          "  .reg .b64 %rd<3>;\n  .reg .f32 %f<2>;\n"
          "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n"
          "  mov.f32 %f1, " +
          bits + ";\n  st.global.f32 [%rd2], %f1;\n  ret;\n}\n")
      .str();
}

TEST_F(PtxasReport, ReadsEveryKernelsRegistersAndSpills) {
  FailureOr<SmallVector<PtxasKernelReport>> reports =
      report(kHeader + storeKernel("store_one", "0f3F800000") +
             storeKernel("also_store_one", "0f3F800000"));
  ASSERT_TRUE(succeeded(reports)) << error.message;
  ASSERT_EQ(reports->size(), 2u);
  llvm::SmallVector<std::string> names = {(*reports)[0].name,
                                          (*reports)[1].name};
  llvm::sort(names);
  EXPECT_EQ(names[0], "also_store_one");
  EXPECT_EQ(names[1], "store_one");
  for (const PtxasKernelReport &report : *reports) {
    EXPECT_GT(report.registers, 0);
    EXPECT_LT(report.registers, 32);
    EXPECT_EQ(report.spillStoreBytes, 0);
  }
  // The cubin comes back too: an ELF image whose symbols are the kernels.
  StringRef cubin = lastCubin;
  EXPECT_TRUE(cubin.starts_with("\x7f"
                                "ELF"));
  EXPECT_TRUE(cubin.contains("also_store_one"));
  EXPECT_TRUE(cubin.contains("store_one"));
}

/// A kernel that loads `live` floats, then stores them in reverse order,
/// so that all are live at once, in at most 24 registers (.maxnreg; ptxas gives
/// no fewer): ptxas must spill most of them.
std::string spillingKernel(int live) {
  std::string ptx = std::string(kHeader) +
                    ".visible .entry spill(.param .u64 buffer) .maxnreg 24 {\n"
                    "  .reg .b64 %rd<3>;\n  .reg .f32 %f<" +
                    std::to_string(live) +
                    ">;\n  ld.param.u64 %rd1, [buffer];\n"
                    "  cvta.to.global.u64 %rd2, %rd1;\n";
  for (int i = 0; i < live; ++i)
    ptx += "  ld.volatile.global.f32 %f" + std::to_string(i) + ", [%rd2+" +
           std::to_string(4 * i) + "];\n";
  for (int i = live - 1; i >= 0; --i)
    ptx += "  st.volatile.global.f32 [%rd2+" + std::to_string(4 * (live + i)) +
           "], %f" + std::to_string(i) + ";\n";
  return ptx + "  ret;\n}\n";
}

TEST_F(PtxasReport, ReadsSpills) {
  FailureOr<SmallVector<PtxasKernelReport>> reports =
      report(spillingKernel(64));
  ASSERT_TRUE(succeeded(reports)) << error.message;
  ASSERT_EQ(reports->size(), 1u);
  EXPECT_EQ((*reports)[0].name, "spill");
  EXPECT_LE((*reports)[0].registers, 24);
  // At least the 40 floats beyond the 24 registers, 4 bytes each.
  EXPECT_GE((*reports)[0].spillStoreBytes, 4 * 40);
}

TEST_F(PtxasReport, FailsWithPtxasMessagesOnBadPtx) {
  FailureOr<SmallVector<PtxasKernelReport>> reports =
      report(std::string(kHeader) + "not ptx\n");
  EXPECT_TRUE(failed(reports));
  EXPECT_NE(error.message.find("ptxas failed"), std::string::npos)
      << error.message;
  EXPECT_NE(error.message.find("syntax error"), std::string::npos)
      << error.message;
  // ptxas judged the PTX: the candidate is refused for what it is.
  EXPECT_FALSE(error.notRun);
}

// Temporary files that cannot be written (a full disk, here a TMPDIR that
// does not exist): ptxas never sees the PTX, and the failure says so, since
// the superoptimizer must not remember the candidate as refused.
TEST_F(PtxasReport, FailsAsNotRunWithoutTemporaryFiles) {
  const char *saved = std::getenv("TMPDIR");
  std::string restore = saved ? saved : "";
  ::setenv("TMPDIR", "/nonexistent/tileopt-ptxas-test", /*overwrite=*/1);
  FailureOr<SmallVector<PtxasKernelReport>> reports =
      report(kHeader + storeKernel("store_one", "0f3F800000"));
  if (saved)
    ::setenv("TMPDIR", restore.c_str(), /*overwrite=*/1);
  else
    ::unsetenv("TMPDIR");
  EXPECT_TRUE(failed(reports));
  EXPECT_TRUE(error.notRun);
  EXPECT_NE(error.message.find("cannot create temporary files"),
            std::string::npos)
      << error.message;
}

} // namespace
