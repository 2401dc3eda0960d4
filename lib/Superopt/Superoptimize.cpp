//===- Superoptimize.cpp - The tileopt-superoptimize pass -----------------===//
#include "TileOpt/Superopt/Passes.h"

#include "TileOpt/Dialect/Common/ThreadDiagnostics.h"
#include "TileOpt/Superopt/Compilation.h"
#include "TileOpt/Superopt/Search.h"
#include "TileOpt/Target/Target.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/xxhash.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_SUPEROPTIMIZE
#include "TileOpt/Superopt/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::superopt;

namespace {

/// Run times measured on a GPU, as `bench/superopt/time_candidates.py`
/// writes them: {"gpu": "...", "times_us": {"<candidate key>": us, ...}}.
struct MeasuredTimes {
  std::string gpu;
  llvm::StringMap<double> secondsByKey;
  /// Of the file's text: a new measurement is a new cache entry.
  uint64_t hash = 0;
};

FailureOr<MeasuredTimes> readMeasuredTimes(StringRef path, Operation *op) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return op->emitError("cannot read the measured times ")
           << path << ": " << buffer.getError().message();
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return op->emitError("the measured times ")
           << path << " are not JSON: " << llvm::toString(json.takeError());
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Object *times =
      root ? root->getObject("times_us") : nullptr;
  if (!times)
    return op->emitError("the measured times ")
           << path << " have no \"times_us\" object";
  MeasuredTimes measured;
  measured.hash = llvm::xxh3_64bits((*buffer)->getBuffer());
  if (std::optional<StringRef> gpu = root->getString("gpu"))
    measured.gpu = gpu->str();
  for (const auto &[key, value] : *times) {
    std::optional<double> us = value.getAsNumber();
    if (!us || !(*us > 0))
      return op->emitError("the measured time of candidate ")
             << key.str() << " in " << path
             << " is not a positive number of microseconds";
    measured.secondsByKey[key.str()] = *us * 1e-6;
  }
  return measured;
}

struct SuperoptimizePass
    : public tileopt::impl::SuperoptimizeBase<SuperoptimizePass> {
  using SuperoptimizeBase::SuperoptimizeBase;

  LogicalResult initialize(MLIRContext *context) override {
    if (maxGridDims < 1 || maxGridDims > 3)
      return emitError(UnknownLoc::get(context),
                       "tileopt-superoptimize: max-grid-dims must be 1, 2 or "
                       "3, got ")
             << static_cast<unsigned>(maxGridDims);
    if (std::string why = target::whyNotAChip(chip); !why.empty())
      return emitError(UnknownLoc::get(context),
                       "tileopt-superoptimize: chip: ")
             << why;
    return success();
  }

  SearchOptions searchOptions() const {
    SearchOptions options;
    options.maxKernelOps = maxKernelOps;
    options.maxBlockOps = maxBlockOps;
    options.maxFusedKernels = maxFusedKernels;
    options.maxBlockOutputs = maxBlockOutputs;
    options.maxGridDims = maxGridDims;
    options.gridReductions = gridReductions;
    options.numThreads = threads;
    options.timeBudgetSeconds = timeBudget;
    options.graphBudget = graphBudget;
    options.blockGraphBudget = blockGraphBudget;
    options.seed = seed;
    options.target = *GpuTarget::forChip(chip);
    options.reassociate = reassociate;
    options.mergeBatchRows = mergeBatchRows;
    options.compileCandidates = compileCandidates;
    options.progress = progress;
    options.keep = std::max(unsigned(keep), unsigned(printTop));
    return options;
  }

  /// Where the search's answer for `func` is cached, and the digest of its
  /// whole key, which the entry starts with.
  struct CacheEntry {
    std::string path;
    std::string keyDigest;
  };

  /// `<cache-dir>/<xxh3 of the key>.mlir`, or none without a cache.
  std::optional<CacheEntry>
  cacheEntry(func::FuncOp func, const SearchOptions &options,
             const std::optional<MeasuredTimes> &measured) {
    if (cacheDir.empty())
      return std::nullopt;
    std::string key = canonicalText(func) + "\n" + options.fingerprint();
    if (measured)
      key += " measured=" + llvm::utohexstr(measured->hash);
    SmallString<128> path(cacheDir);
    llvm::sys::path::append(
        path, llvm::utohexstr(llvm::xxh3_64bits(key), /*LowerCase=*/true) +
                  ".mlir");
    return CacheEntry{
        std::string(path),
        llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(key)),
                    /*LowerCase=*/true)};
  }

  /// The first line of a cache entry: the file name is a 64-bit hash of the
  /// key, and an entry copied from another cache, or another key that
  /// hashes alike, would otherwise answer for a program it is not.
  static constexpr StringLiteral kCacheHeaderPrefix =
      "// tileopt search cache, key sha256 ";
  static std::string cacheHeader(const CacheEntry &entry) {
    return (kCacheHeaderPrefix + entry.keyDigest + "\n").str();
  }

  /// Replaces `func`'s body with the cached answer; false on a miss.
  bool answerFromCache(func::FuncOp func, const CacheEntry &entry) {
    auto buffer = llvm::MemoryBuffer::getFile(entry.path);
    if (!buffer)
      return false;
    StringRef text = (*buffer)->getBuffer();
    std::string header = cacheHeader(entry);
    StringRef firstLine = text.split('\n').first;
    if (firstLine.starts_with(kCacheHeaderPrefix) &&
        firstLine.size() + 1 == header.size() && !text.starts_with(header)) {
      func.emitRemark("the cache entry ")
          << entry.path
          << " was written for another program, search options or TileOpt "
             "version; searching again";
      return false;
    }
    // An entry cut short, garbage or without the header is a miss,
    // searched again and rewritten, not an error of the program compiled.
    OwningOpRef<ModuleOp> cached;
    if (text.consume_front(header)) {
      ThreadDiagnosticHandler quiet(func.getContext(),
                                    [](Diagnostic &) { return success(); });
      ParserConfig config(func.getContext());
      cached = parseSourceString<ModuleOp>(text, config);
      if (cached && failed(verify(*cached)))
        cached = nullptr;
    }
    auto best = cached ? cached->lookupSymbol<func::FuncOp>("program")
                       : func::FuncOp();
    if (!best || best.getFunctionType() != func.getFunctionType()) {
      func.emitRemark("the cache entry ")
          << entry.path << " is unreadable; searching again";
      return false;
    }
    func.getBody().takeBody(best.getBody());
    func.emitRemark("superoptimized µGraph read from the cache ") << entry.path;
    return true;
  }

  /// Writes `header`, then `func`, renamed `name`, as a module of its own to
  /// `path` (creating its directory). The file is written beside `path` and
  /// renamed onto it: a reader, another compile among them, sees the old
  /// file or the new one, never a part.
  static std::error_code writeFunction(StringRef path, func::FuncOp func,
                                       StringRef name, StringRef header = "") {
    if (std::error_code ec = llvm::sys::fs::create_directories(
            llvm::sys::path::parent_path(path)))
      return ec;
    OpBuilder b(func.getContext());
    OwningOpRef<ModuleOp> module = ModuleOp::create(func.getLoc());
    b.setInsertionPointToEnd(module->getBody());
    auto clone = cast<func::FuncOp>(b.clone(*func));
    clone.setSymName(name);
    // An interrupted compile (SIGINT, SIGTERM, a crash) removes the file:
    // it is registered before it exists, so no moment is left uncovered.
    int fd;
    SmallString<128> temporary;
    std::error_code ec;
    for (int attempt = 0; attempt < 128; ++attempt) {
      llvm::sys::fs::createUniquePath(path + ".%%%%%%%%.partial", temporary,
                                      /*MakeAbsolute=*/false);
      llvm::sys::RemoveFileOnSignal(temporary);
      ec = llvm::sys::fs::openFileForWrite(temporary, fd,
                                           llvm::sys::fs::CD_CreateNew);
      if (ec != std::errc::file_exists)
        break;
      llvm::sys::DontRemoveFileOnSignal(temporary);
    }
    llvm::scope_exit keepOnSignal(
        [&] { llvm::sys::DontRemoveFileOnSignal(temporary); });
    if (ec)
      return ec;
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << header;
    module->print(os, OpPrintingFlags().enableDebugInfo(false));
    os.close();
    ec = os.error();
    os.clear_error();
    if (!ec)
      ec = llvm::sys::fs::rename(temporary, path);
    if (ec)
      llvm::sys::fs::remove(temporary);
    return ec;
  }

  /// Caches `best` as the answer for `func`; a warning at `func` if it
  /// cannot (the compile goes on without).
  void store(const std::optional<CacheEntry> &entry, func::FuncOp func,
             func::FuncOp best) {
    if (!entry)
      return;
    if (std::error_code ec =
            writeFunction(entry->path, best, "program", cacheHeader(*entry)))
      func.emitWarning("cannot write the superoptimizer cache ")
          << entry->path << ": " << ec.message();
  }

  /// `<candidates-dir>/<function>/<rank>.mlir` for every ranked candidate,
  /// under the function's own name (so that its lowering's host function
  /// has it), and candidates.json, which lists them with their keys.
  void writeCandidates(func::FuncOp func, const SearchResult &result) {
    SmallString<128> dir(candidatesDir);
    llvm::sys::path::append(dir, func.getSymName());
    std::string listing;
    llvm::raw_string_ostream os(listing);
    llvm::json::OStream json(os, /*IndentSize=*/2);
    json.object([&] {
      json.attribute("function", func.getSymName());
      json.attributeArray("candidates", [&] {
        for (auto [rank, c] : llvm::enumerate(result.ranked)) {
          func::FuncOp candidate = c.function;
          std::string file = std::to_string(rank) + ".mlir";
          SmallString<128> path(dir);
          llvm::sys::path::append(path, file);
          if (std::error_code ec =
                  writeFunction(path, candidate, func.getSymName())) {
            func.emitWarning("cannot write the candidate ")
                << path << ": " << ec.message();
            return;
          }
          json.object([&] {
            json.attribute("rank", int64_t(rank));
            json.attribute("file", file);
            json.attribute("key", candidateKey(candidate));
            json.attribute("model_us", c.cost.seconds * 1e6);
            json.attribute("kernels", int64_t(c.cost.kernels.size()));
            json.attribute("input", c.isInput);
          });
        }
      });
    });
    SmallString<128> path(dir);
    llvm::sys::path::append(path, "candidates.json");
    std::error_code ec;
    llvm::raw_fd_ostream file(path, ec);
    if (!ec) {
      file << listing << "\n";
      file.close();
      ec = file.error();
      file.clear_error();
    }
    if (ec)
      func.emitWarning("cannot write ") << path << ": " << ec.message();
  }

  /// Re-ranks by `measured`; says which candidate the times chose and what
  /// the cost model's choice measured.
  void applyMeasurement(func::FuncOp func, SearchResult &result,
                        const MeasuredTimes &measured) {
    func::FuncOp modelChoice = result.ranked.front().function;
    unsigned count = rankByMeasurement(result, measured.secondsByKey);
    if (count == 0) {
      func.emitWarning("none of the ")
          << result.ranked.size()
          << " candidates has a measured time in " << measuredTimes
          << " (measured for another search?); ranked by the cost model";
      return;
    }
    const RankedCandidate &best = result.ranked.front();
    auto us = [](double seconds) {
      return llvm::formatv("{0:F2}", seconds * 1e6).str();
    };
    InFlightDiagnostic remark = func.emitRemark();
    remark << "ranked by measured time (" << count << " of "
           << result.ranked.size() << " candidates measured"
           << (measured.gpu.empty() ? "" : " on " + measured.gpu)
           << "): the fastest takes " << us(*best.measuredSeconds)
           << " us (cost model " << us(best.cost.seconds) << " us)";
    if (best.function == modelChoice)
      remark << " and is the cost model's choice too";
    else if (const RankedCandidate *c = llvm::find_if(
                 result.ranked,
                 [&](const RankedCandidate &c) {
                   return c.function == modelChoice;
                 });
             c->measuredSeconds)
      remark << "; the cost model's choice takes " << us(*c->measuredSeconds)
             << " us";
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SearchOptions options = searchOptions();
    std::optional<MeasuredTimes> measured;
    if (!measuredTimes.empty()) {
      FailureOr<MeasuredTimes> read = readMeasuredTimes(measuredTimes, func);
      if (failed(read))
        return signalPassFailure();
      measured = std::move(*read);
    }
    std::optional<CacheEntry> cache = cacheEntry(func, options, measured);
    // Writing the candidates needs the search: the cache holds only the
    // answer.
    if (cache && candidatesDir.empty() && answerFromCache(func, *cache))
      return;

    FailureOr<SearchResult> result = superoptimize(func, options);
    if (failed(result))
      return; // A remark says why; the function keeps its form.
    // Candidates left out because ptxas could not run say nothing of the
    // program: a later compile, with room on the disk, searches again.
    if (result->stats.notRun > 0 && cache) {
      func.emitWarning("ptxas could not check ")
          << result->stats.notRun << " candidate(s), left out ("
          << result->stats.whyNotRun << "); the answer is not cached";
      cache.reset();
    }
    if (!candidatesDir.empty())
      writeCandidates(func, *result);
    if (measured)
      applyMeasurement(func, *result, *measured);
    if (progress) {
      llvm::errs() << "[superopt] @" << func.getSymName() << ": ";
      result->stats.print(llvm::errs());
      llvm::errs() << "\n";
    }
    for (auto [i, candidate] : llvm::enumerate(result->ranked)) {
      if (i >= printTop)
        break;
      llvm::errs() << "// candidate " << i << " (" << candidateKey(
                                                      candidate.function)
                   << "): " << llvm::format("%.3f", candidate.cost.seconds * 1e6)
                   << " us";
      if (candidate.measuredSeconds)
        llvm::errs() << " (measured "
                     << llvm::format("%.3f", *candidate.measuredSeconds * 1e6)
                     << " us)";
      llvm::errs() << ", " << candidate.cost.kernels.size() << " kernel(s)\n";
      candidate.cost.print(llvm::errs());
      candidate.function.print(llvm::errs());
      llvm::errs() << "\n";
    }

    func::FuncOp best = result->ranked.front().function;
    if (result->ranked.front().isInput) {
      func.emitRemark(measured ? "the input program measured fastest; kept as "
                                 "it is ("
                               : "no cheaper equivalent µGraph found; kept as "
                                 "it is (")
          << result->stats.equivalent << " of " << result->stats.verified
          << " verified candidates were equivalent"
          << (result->stats.uncompiled > 0
                  ? ", " + std::to_string(result->stats.uncompiled) +
                        " left out as not compiled"
                  : std::string())
          << ")";
      store(cache, func, best);
      return;
    }
    store(cache, func, best);
    func.getBody().takeBody(best.getBody());
  }
};

} // namespace
