//===- tileopt-compile.cpp - Any stage in, a GPU artifact out -------------===//
//
// The main job in one command: TOSA (through the stock upstream passes),
// linalg on tensors, a tk kernel graph, a µGraph or tile kernels go through
// every stage they still need — import, search, lowering, code generation,
// ptxas — into an artifact directory: kernels.cubin (and kernels.ptx, for
// reading) plus manifest.json, which says how to launch them
// (docs/artifact-format.md). `--emit=STAGE` stops after a stage and prints
// it instead. The runtime needs nothing but the artifact: compile where
// LLVM/MLIR is, run on any machine with a GPU.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Driver/Driver.h"
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Target/Target.h"
#include "TileOpt/Tools/CommandLine.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::driver;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory compileCategory("Basic options");
cl::OptionCategory codegenCategory("Code generation options");
cl::OptionCategory searchCategory("Search options (tileopt-superoptimize)");

cl::opt<std::string> inputFile(cl::Positional,
                               cl::desc("<input: TOSA, linalg, tk, µGraph or "
                                        "tile .mlir; - for stdin>"),
                               cl::init("-"), cl::cat(compileCategory));
cl::opt<std::string>
    outputPath("o",
               cl::desc("Artifact directory; with --emit, the output file "
                        "(default: stdout)"),
               cl::value_desc("path"), cl::cat(compileCategory));
cl::opt<std::string> emit(
    "emit",
    cl::desc("Stop after a stage and print it: linalg, tk, ugraph, tile, "
             "gpu or ptx (default: artifact, a directory given by -o)"),
    cl::value_desc("stage"), cl::init("artifact"), cl::cat(compileCategory));

cl::opt<std::string> chip("chip", cl::desc("Target SM (sm_90a: wgmma, TMA)"),
                          cl::init("sm_90"), cl::cat(codegenCategory));
cl::opt<std::string> features("features", cl::desc("PTX features"),
                              cl::init("+ptx80"), cl::cat(codegenCategory));
cl::opt<int64_t> numWarps(
    "num-warps",
    cl::desc("Warps per block (default: the µGraph's block size, else 4)"),
    cl::init(0), cl::cat(codegenCategory));
cl::opt<int64_t> registerBudget(
    "register-budget",
    cl::desc("Registers per thread that a loop's prefetched tiles may take "
             "(tileopt-pipeline-tile-loads)"),
    cl::init(PipelineTileLoadsOptions().registerBudget),
    cl::cat(codegenCategory));
cl::opt<bool> swizzleStaging(
    "swizzle-staging",
    cl::desc("XOR-swizzle the cp.async stages of mma operands instead of "
             "padding their rows"),
    cl::init(true), cl::cat(codegenCategory));
cl::opt<std::string>
    cudaToolkit("cuda-toolkit",
                cl::desc("CUDA toolkit with ptxas and libdevice (default: "
                         "$CUDA_HOME, then /usr/local/cuda)"),
                cl::init(""), cl::cat(codegenCategory));

const SuperoptimizeOptions searchDefaults;
cl::opt<double> timeBudget("time-budget",
                           cl::desc("Seconds before the search stops"),
                           cl::init(searchDefaults.timeBudget),
                           cl::cat(searchCategory));
cl::opt<uint64_t>
    graphBudget("graph-budget",
                cl::desc("Partial graphs explored before the search stops"),
                cl::init(searchDefaults.graphBudget), cl::cat(searchCategory));
cl::opt<unsigned>
    threads("search-threads",
            cl::desc("Search threads (0: one per hardware thread)"),
            cl::init(searchDefaults.threads), cl::cat(searchCategory));
cl::opt<unsigned> maxKernelOps("max-kernel-ops",
                               cl::desc("Kernel launches in a candidate"),
                               cl::init(searchDefaults.maxKernelOps),
                               cl::cat(searchCategory));
cl::opt<unsigned>
    maxBlockOps("max-block-ops",
                cl::desc("Compute ops and accumulators in a block graph"),
                cl::init(searchDefaults.maxBlockOps), cl::cat(searchCategory));
cl::opt<bool> gridReductions(
    "grid-reductions",
    cl::desc("Let a fused kernel normalize rows its blocks share, through a "
             "grid-wide barrier"),
    cl::init(searchDefaults.gridReductions), cl::cat(searchCategory));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the verifier's random tests"),
                       cl::init(searchDefaults.seed), cl::cat(searchCategory));
cl::opt<bool> compileCandidates(
    "compile-candidates",
    cl::desc("Compile each candidate and leave out those the code generator "
             "refuses or whose kernels spill"),
    cl::init(searchDefaults.compileCandidates), cl::cat(searchCategory));
cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("Search cache (default: $TILEOPT_CACHE_DIR, else "
             "~/.cache/tileopt)"),
    cl::init(""), cl::cat(searchCategory));
cl::opt<bool> noCache("no-cache", cl::desc("Search without the cache"),
                      cl::init(false), cl::cat(searchCategory));
cl::opt<bool> progress(
    "progress",
    cl::desc("Print the search's progress (default: when stderr is a "
             "terminal)"),
    cl::cat(searchCategory));

CompileOptions optionsFromCommandLine() {
  CompileOptions options;
  options.chip = chip;
  options.features = features;
  options.numWarps = numWarps;
  options.registerBudget = registerBudget;
  options.swizzleStaging = swizzleStaging;
  options.toolkit = cudaToolkit;
  SuperoptimizeOptions &search = options.search;
  search.timeBudget = timeBudget;
  search.graphBudget = graphBudget;
  search.threads = threads;
  search.maxKernelOps = maxKernelOps;
  search.maxBlockOps = maxBlockOps;
  search.gridReductions = gridReductions;
  search.seed = seed;
  search.compileCandidates = compileCandidates;
  search.progress = progress.getNumOccurrences()
                        ? bool(progress)
                        : llvm::sys::Process::StandardErrIsDisplayed();
  if (!noCache)
    search.cacheDir = cacheDir.empty() ? defaultCacheDir() : cacheDir;
  return options;
}

std::string hashOf(StringRef text) {
  return llvm::toHex(
      llvm::SHA256::hash(ArrayRef<uint8_t>(
          reinterpret_cast<const uint8_t *>(text.data()), text.size())),
      /*LowerCase=*/true);
}

LogicalResult print(StringRef text) {
  std::string error;
  auto output = openOutputFile(
      outputPath.empty() ? std::string("-") : std::string(outputPath), &error);
  if (!output) {
    llvm::errs() << "tileopt-compile: " << error << "\n";
    return failure();
  }
  // A full disk is an error to report, not one for the stream's destructor
  // (which aborts on an unchecked one); the file is then removed.
  output->os() << text;
  output->os().flush();
  if (std::error_code ec = output->os().error()) {
    output->os().clear_error();
    llvm::errs() << "tileopt-compile: cannot write " << output->getFilename()
                 << ": " << ec.message() << "\n";
    return failure();
  }
  output->keep();
  return success();
}

LogicalResult compile(MLIRContext &ctx, llvm::SourceMgr &sourceMgr,
                      Stage target) {
  AsmParserState asmState;
  Block block;
  ParserConfig config(&ctx);
  if (failed(parseAsmSourceFile(sourceMgr, &block, config, &asmState)))
    return failure();
  OwningOpRef<ModuleOp> module =
      detail::constructContainerOpForParserIfNecessary<ModuleOp>(
          &block, &ctx, FileLineColLoc::get(&ctx, sourceMgr.getMemoryBuffer(
                                                      sourceMgr.getMainFileID())
                                                      ->getBufferIdentifier(),
                                            1, 1));
  if (!module || failed(verify(*module)))
    return failure();
  nameArgumentsFromSource(*module, asmState);

  FailureOr<Stage> stage = detectStage(*module);
  if (failed(stage))
    return failure();
  if (*stage > target)
    return module->emitError("the input is at stage '")
           << getStageName(*stage) << "', past --emit=" << getStageName(target);

  CompileOptions options = optionsFromCommandLine();
  if (failed(lowerTo(*module, *stage, std::min(target, Stage::Tile), options)))
    return failure();
  if (target <= Stage::Tile) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return print(text);
  }
  if (target == Stage::GPU) {
    if (failed(lowerTileToGPU(*module, options)))
      return failure();
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return print(text);
  }

  StringRef source =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  FailureOr<Artifact> artifact = compileArtifact(
      *module, options, hashOf(source), /*ptxOnly=*/target == Stage::PTX);
  if (failed(artifact))
    return failure();
  if (target == Stage::PTX)
    return print(artifact->ptx);
  std::string error;
  if (failed(writeArtifact(outputPath, *artifact, error))) {
    llvm::errs() << "tileopt-compile: " << error << "\n";
    return failure();
  }
  return success();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  hideLibraryOptions({&compileCategory, &codegenCategory, &searchCategory});
  addTileOptVersionPrinter();
  cl::ParseCommandLineOptions(
      argc, argv,
      "tileopt-compile: TOSA, linalg, tk, µGraph or tile MLIR -> a searched, "
      "fused, compiled GPU artifact\n\n"
      "  tileopt-compile prog.mlir -o prog.art       # the artifact\n"
      "  tileopt-compile prog.mlir --emit=ugraph     # the chosen µGraph\n");

  std::optional<Stage> target = parseStage(emit);
  if (!target || *target == Stage::Tosa) {
    llvm::errs() << "tileopt-compile: --emit=" << emit
                 << " is not a stage: linalg, tk, ugraph, tile, gpu, ptx or "
                    "artifact\n";
    return 1;
  }
  if (*target == Stage::Artifact && outputPath.empty()) {
    llvm::errs() << "tileopt-compile: an artifact needs a directory: -o DIR "
                    "(or --emit=STAGE to print a stage)\n";
    return 1;
  }

  // Checked before the search, which may take a minute: a chip without
  // facts aborts in LLVM's instruction selection, and upstream's
  // gpu-module-to-binary looks on PATH when the toolkit is missing.
  if (std::string why = target::whyNotAChip(chip); !why.empty()) {
    llvm::errs() << "tileopt-compile: error: --chip: " << why << "\n";
    return 1;
  }
  if (!cudaToolkit.empty() && !llvm::sys::fs::is_directory(cudaToolkit)) {
    llvm::errs() << "tileopt-compile: error: --cuda-toolkit: " << cudaToolkit
                 << " is not a directory\n";
    return 1;
  }

  DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  tileopt::registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  // Diagnostics name the op and its location; the whole module is noise.
  ctx.printOpOnDiagnostic(false);

  std::string error;
  auto input = openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "tileopt-compile: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  LogicalResult result = compile(ctx, sourceMgr, *target);
  // The search's statistics, with -stats (Debian's LLVM would only say at
  // exit that it has none).
  if (llvm::AreStatisticsEnabled())
    llvm::PrintStatistics(llvm::errs());
  return failed(result) ? 1 : 0;
}
