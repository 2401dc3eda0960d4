//===- ThreadDiagnosticsTest.cpp - Diagnostic handlers of one thread ------===//
#include "TileOpt/Dialect/Common/ThreadDiagnostics.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mlir::tileopt;

namespace {

// While one thread drops the diagnostics of its own work, another thread's
// reach the handler registered before (a pass on another function, in a
// pass manager that runs functions in parallel).
TEST(ThreadDiagnosticHandler, TakesOnlyItsOwnThreadsDiagnostics) {
  MLIRContext context;
  std::vector<std::string> reported;
  ScopedDiagnosticHandler outer(&context, [&](Diagnostic &diagnostic) {
    reported.push_back(diagnostic.str());
    return success();
  });
  Location loc = UnknownLoc::get(&context);
  {
    std::vector<std::string> dropped;
    ThreadDiagnosticHandler quiet(&context, [&](Diagnostic &diagnostic) {
      dropped.push_back(diagnostic.str());
      return success();
    });
    emitError(loc, "on this thread");
    std::thread other([&] { emitError(loc, "on another thread"); });
    other.join();
    EXPECT_EQ(dropped, std::vector<std::string>{"on this thread"});
  }
  emitError(loc, "after");
  EXPECT_EQ(reported, (std::vector<std::string>{"on another thread", "after"}));
}

} // namespace
