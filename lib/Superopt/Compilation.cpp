//===- Compilation.cpp - Whether a candidate compiles to good kernels -----===//
#include "TileOpt/Superopt/Compilation.h"

#include "TileOpt/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"

#include <thread>

using namespace mlir;
using namespace mlir::tileopt;

namespace {

/// Sets `options` to tileopt-compile's, for `blockThreads` threads a block
/// on `chip`, to PTX.
void setCompilationOptions(TileToCubinOptions &options, int64_t blockThreads,
                           StringRef chip) {
  options.chip = chip.str();
  options.numWarps = blockThreads / 32;
  options.format = "isa";
}

/// The first half of the compilation, µGraph to gpu.func; the second,
/// gpu.func to PTX, is buildGPUToBinaryPipeline.
void buildToGPU(OpPassManager &pm, const TileToCubinOptions &options) {
  pm.addPass(createLowerUGraph());
  buildTileLoweringPipeline(pm, options);
}

} // namespace

std::optional<std::string> superopt::compilationPtxas() {
  // The compilation names no toolkit: CUDA_HOME, then /usr/local/cuda.
  return findPtxas(findCudaToolkit(/*requested=*/""));
}

superopt::CandidateCompiler::CandidateCompiler(MLIRContext *searchContext,
                                               unsigned numThreads,
                                               int64_t blockThreads,
                                               StringRef chip)
    : contexts(std::max(1u, numThreads)), blockThreads(blockThreads),
      chip(chip.str()), ptxas(compilationPtxas()) {
  searchContext->getDialectRegistry().appendTo(registry);
  // The dialects of the lowering's passes.
  TileToCubinOptions options;
  setCompilationOptions(options, blockThreads, chip);
  OpPassManager toGPU(ModuleOp::getOperationName()),
      toPtx(ModuleOp::getOperationName());
  buildToGPU(toGPU, options);
  buildGPUToBinaryPipeline(toPtx, options);
  toGPU.getDependentDialects(registry);
  toPtx.getDependentDialects(registry);
}

superopt::CandidateCompiler::~CandidateCompiler() = default;

SmallVector<superopt::CompileCheck>
superopt::CandidateCompiler::check(ArrayRef<func::FuncOp> candidates) {
  // Printed here: the search's context is this thread's to read.
  SmallVector<std::string> texts;
  for (func::FuncOp candidate : candidates) {
    llvm::raw_string_ostream os(texts.emplace_back());
    candidate->print(os, OpPrintingFlags().printGenericOpForm());
  }
  SmallVector<CompileCheck> checks(candidates.size());
  for (size_t first = 0; first < texts.size(); first += contexts.size()) {
    size_t count = std::min(contexts.size(), texts.size() - first);
    auto compile = [&](size_t slot) {
      std::unique_ptr<MLIRContext> &context = contexts[slot];
      if (!context)
        context = std::make_unique<MLIRContext>(
            registry, MLIRContext::Threading::DISABLED);
      checks[first + slot] = checkOne(*context, texts[first + slot]);
    };
    // The last of the batch on this thread, which would only wait.
    SmallVector<std::thread> threads;
    for (size_t slot = 0; slot + 1 < count; ++slot)
      threads.emplace_back(compile, slot);
    compile(count - 1);
    for (std::thread &t : threads)
      t.join();
  }
  return checks;
}

superopt::CompileCheck
superopt::CandidateCompiler::checkOne(MLIRContext &context,
                                      StringRef candidate) const {
  // The first error says why; nothing reaches the user.
  std::optional<std::string> firstError;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() == DiagnosticSeverity::Error && !firstError)
      firstError = diagnostic.str();
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(candidate, ParserConfig(&context));
  if (!module)
    return {"the candidate does not parse back: " +
            firstError.value_or("no diagnostic")};

  TileToCubinOptions options;
  setCompilationOptions(options, blockThreads, chip);
  PassManager toGPU(&context, ModuleOp::getOperationName());
  buildToGPU(toGPU, options);
  if (failed(toGPU.run(*module)))
    return {firstError.value_or("the lowering failed")};
  // A register spilled in a loop is stored and read back at every step;
  // one spilled where nothing loops, once. Any scf.for counts, a loop of
  // the block graph's or one the lowering made.
  llvm::StringSet<> looping;
  module->walk([&](gpu::GPUFuncOp kernel) {
    if (kernel.walk([](scf::ForOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      looping.insert(kernel.getName());
  });
  PassManager toPtx(&context, ModuleOp::getOperationName());
  buildGPUToBinaryPipeline(toPtx, options);
  if (failed(toPtx.run(*module)))
    return {firstError.value_or("the lowering to PTX failed")};

  if (!ptxas)
    return {};
  FailureOr<StringRef> ptx = binaryObjectOf(*module);
  if (failed(ptx))
    return {firstError.value_or("the lowering produced no PTX")};
  PtxasError error;
  FailureOr<PtxasOutput> compiled = runPtxas(*ptxas, *ptx, chip, error);
  if (failed(compiled))
    return {error.message, error.notRun};
  for (const PtxasKernelReport &report : compiled->kernels)
    if (looping.contains(report.name) &&
        report.spillStoreBytes > kMaxSpillStoreBytes)
      return {"ptxas spills " + std::to_string(report.spillStoreBytes) +
              " bytes a thread in the loop of kernel " + report.name + " (" +
              std::to_string(report.registers) + " registers)"};
  return {};
}
