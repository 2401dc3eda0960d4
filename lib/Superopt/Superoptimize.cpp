//===- Superoptimize.cpp - The tileopt-superoptimize pass -----------------===//
#include "TileOpt/Superopt/Passes.h"

#include "TileOpt/Superopt/Search.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_SUPEROPTIMIZE
#include "TileOpt/Superopt/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

/// The program as text with a fixed name: two functions that differ only in
/// their names share a cache entry.
std::string canonicalText(func::FuncOp func) {
  OpBuilder b(func.getContext());
  auto clone = cast<func::FuncOp>(b.clone(*func));
  clone.setSymName("program");
  std::string text;
  llvm::raw_string_ostream os(text);
  clone.print(os, OpPrintingFlags().printGenericOpForm().enableDebugInfo(
                      /*enable=*/false));
  clone.erase();
  return text;
}

struct SuperoptimizePass
    : public tileopt::impl::SuperoptimizeBase<SuperoptimizePass> {
  using SuperoptimizeBase::SuperoptimizeBase;

  SearchOptions searchOptions() const {
    SearchOptions options;
    options.maxKernelOps = maxKernelOps;
    options.maxBlockOps = maxBlockOps;
    options.maxFusedKernels = maxFusedKernels;
    options.maxBlockOutputs = maxBlockOutputs;
    options.numThreads = threads;
    options.timeBudgetSeconds = timeBudget;
    options.graphBudget = graphBudget;
    options.blockGraphBudget = blockGraphBudget;
    options.seed = seed;
    options.progress = progress;
    options.keep = std::max(5u, unsigned(printTop));
    return options;
  }

  /// `<cache-dir>/<hash>.mlir`, or empty without a cache.
  std::string cachePath(func::FuncOp func, const SearchOptions &options) {
    if (cacheDir.empty())
      return "";
    std::string key = canonicalText(func) + "\n" + options.fingerprint();
    SmallString<128> path(cacheDir);
    llvm::sys::path::append(
        path, llvm::utohexstr(llvm::xxh3_64bits(key), /*LowerCase=*/true) +
                  ".mlir");
    return std::string(path);
  }

  /// Replaces `func`'s body with the cached answer; false on a miss.
  bool answerFromCache(func::FuncOp func, StringRef path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      return false;
    ParserConfig config(func.getContext());
    OwningOpRef<ModuleOp> cached =
        parseSourceString<ModuleOp>((*buffer)->getBuffer(), config);
    if (!cached)
      return false;
    auto best = cached->lookupSymbol<func::FuncOp>("program");
    if (!best || best.getFunctionType() != func.getFunctionType())
      return false;
    func.getBody().takeBody(best.getBody());
    func.emitRemark("superoptimized µGraph read from the cache ") << path;
    return true;
  }

  void store(StringRef path, func::FuncOp best) {
    if (path.empty())
      return;
    if (std::error_code ec =
            llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path))) {
      best.emitWarning("cannot create the superoptimizer cache: ")
          << ec.message();
      return;
    }
    OpBuilder b(best.getContext());
    OwningOpRef<ModuleOp> module = ModuleOp::create(best.getLoc());
    b.setInsertionPointToEnd(module->getBody());
    auto clone = cast<func::FuncOp>(b.clone(*best));
    clone.setSymName("program");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      best.emitWarning("cannot write the superoptimizer cache: ")
          << ec.message();
      return;
    }
    module->print(os, OpPrintingFlags().enableDebugInfo(false));
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SearchOptions options = searchOptions();
    std::string path = cachePath(func, options);
    if (!path.empty() && answerFromCache(func, path))
      return;

    FailureOr<SearchResult> result = superoptimize(func, options);
    if (failed(result))
      return; // A remark says why; the function keeps its form.
    if (progress) {
      llvm::errs() << "[superopt] @" << func.getSymName() << ": ";
      result->stats.print(llvm::errs());
      llvm::errs() << "\n";
    }
    for (auto [i, candidate] : llvm::enumerate(result->ranked)) {
      if (i >= printTop)
        break;
      llvm::errs() << "// candidate " << i << ": "
                   << llvm::format("%.3f", candidate.cost.seconds * 1e6)
                   << " us, " << candidate.cost.kernels.size()
                   << " kernel(s)\n";
      candidate.cost.print(llvm::errs());
      candidate.function.print(llvm::errs());
      llvm::errs() << "\n";
    }

    func::FuncOp best = result->ranked.front().function;
    std::string inputName = (func.getSymName() + "_input").str();
    if (best.getSymName() == inputName) {
      func.emitRemark("no cheaper equivalent µGraph found; kept as it is (")
          << result->stats.equivalent << " of " << result->stats.verified
          << " verified candidates were equivalent)";
      store(path, best);
      return;
    }
    store(path, best);
    func.getBody().takeBody(best.getBody());
  }
};

} // namespace
