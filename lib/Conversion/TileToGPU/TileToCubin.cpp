//===- TileToCubin.cpp - The tile-to-cubin pipeline -----------------------===//
#include "TileOpt/Conversion/Passes.h"

#include "TileOpt/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

using namespace mlir;

std::string tileopt::findCudaToolkit(StringRef requested) {
  if (!requested.empty())
    return requested.str();
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("CUDA_HOME"))
    return *home;
  return "/usr/local/cuda";
}

FailureOr<StringRef> tileopt::binaryObjectOf(ModuleOp module) {
  for (auto binary : module.getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      return cast<gpu::ObjectAttr>(object).getObject().getValue();
  return module.emitError("the GPU pipeline produced no binary");
}

std::optional<std::string> tileopt::findPtxas(StringRef toolkit) {
  SmallString<128> inToolkit(toolkit);
  llvm::sys::path::append(inToolkit, "bin", "ptxas");
  if (llvm::sys::fs::can_execute(inToolkit))
    return inToolkit.str().str();
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  return std::nullopt;
}

FailureOr<tileopt::PtxasOutput> tileopt::runPtxas(StringRef ptxas,
                                                  StringRef ptx, StringRef chip,
                                                  PtxasError &error) {
  // ptxas reads and writes files: the PTX, the cubin, its report.
  SmallString<128> ptxFile, cubinFile, logFile;
  auto removeFiles = llvm::make_scope_exit([&] {
    for (StringRef file : {ptxFile.str(), cubinFile.str(), logFile.str()})
      if (!file.empty())
        llvm::sys::fs::remove(file);
  });
  auto notRun = [&](const Twine &why) {
    error = {why.str(), /*notRun=*/true};
    return failure();
  };
  int ptxFd = -1;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "tileopt-ptxas", "cubin", cubinFile))
    return notRun("cannot create temporary files for ptxas: " + ec.message());
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tileopt-ptxas", "log", logFile))
    return notRun("cannot create temporary files for ptxas: " + ec.message());
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "tileopt-ptxas", "ptx", ptxFd, ptxFile))
    return notRun("cannot create temporary files for ptxas: " + ec.message());
  {
    llvm::raw_fd_ostream os(ptxFd, /*shouldClose=*/true);
    os << ptx;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      return notRun("cannot write the PTX for ptxas: " + ec.message());
    }
  }
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef> args = {ptxas,   "-v", "-O3",    arch,
                                 ptxFile, "-o", cubinFile};
  std::optional<StringRef> redirects[] = {std::nullopt, logFile, logFile};
  std::string launchError;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/120,
                                         /*MemoryLimit=*/0, &launchError);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> log =
      llvm::MemoryBuffer::getFile(logFile);
  StringRef text = log ? (*log)->getBuffer() : StringRef();
  // A negative status: ptxas did not start, crashed or timed out.
  if (status < 0)
    return notRun("ptxas did not finish: " + launchError + " " + text.trim());
  if (status != 0) {
    error = {("ptxas failed: " + text.trim()).str(), /*notRun=*/false};
    return failure();
  }
  PtxasOutput output;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> cubin =
      llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!cubin)
    return notRun("cannot read ptxas's cubin: " + cubin.getError().message());
  output.cubin = (*cubin)->getBuffer().str();
  // Per kernel: "Compiling entry function 'NAME' ...", then "Used N
  // registers"; its spills follow "Function properties for NAME" (which
  // ptxas also prints for device functions, whose spills are left out).
  SmallVector<PtxasKernelReport> &reports = output.kernels;
  llvm::Regex entry("Compiling entry function '([^']+)'");
  llvm::Regex properties("Function properties for ([^ ]+)");
  llvm::Regex spills("([0-9]+) bytes spill stores");
  llvm::Regex registers("Used ([0-9]+) registers");
  PtxasKernelReport *current = nullptr;
  SmallVector<StringRef, 2> match;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    if (entry.match(line, &match)) {
      reports.push_back({match[1].str()});
      current = &reports.back();
    } else if (properties.match(line, &match)) {
      current = nullptr;
      for (PtxasKernelReport &report : reports)
        if (report.name == match[1])
          current = &report;
    } else if (current && spills.match(line, &match)) {
      match[1].getAsInteger(10, current->spillStoreBytes);
    } else if (!reports.empty() && registers.match(line, &match)) {
      match[1].getAsInteger(10, reports.back().registers);
    }
  }
  return output;
}

void tileopt::buildTileLoweringPipeline(OpPassManager &pm,
                                        const TileToCubinOptions &options) {
  // Tile-level folds first: a load the kernel repeats is loaded once, and
  // a transposed mma operand is read in its own layout (tile.mma's
  // rhs_transposed) instead of being permuted through shared memory.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Layouts, and which tile.mma loops the code generator pipelines, before
  // the passes that read them.
  AssignLayoutsOptions layouts;
  layouts.numWarps = options.numWarps;
  layouts.chip = options.chip;
  layouts.swizzleStaging = options.swizzleStaging;
  pm.addPass(createAssignLayouts(layouts));
  PipelineTileLoadsOptions pipelining;
  pipelining.numWarps = options.numWarps;
  pipelining.registerBudget = options.registerBudget;
  pm.addPass(createPipelineTileLoads(pipelining));
  LowerTileToGPUOptions lowering;
  lowering.numWarps = options.numWarps;
  pm.addPass(createLowerTileToGPU(lowering));
}

void tileopt::buildTileToCubinPipeline(OpPassManager &pm,
                                       const TileToCubinOptions &options) {
  buildTileLoweringPipeline(pm, options);
  buildGPUToBinaryPipeline(pm, options);
}

void tileopt::buildGPUToBinaryPipeline(OpPassManager &pm,
                                       const TileToCubinOptions &options) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));

  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertNVGPUToNVVMPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  // NVVM ops written as inline PTX (wgmma.mma_async) become llvm.inline_asm.
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = findCudaToolkit(options.toolkit);
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void tileopt::registerTileToCubinPipeline() {
  PassPipelineRegistration<TileToCubinOptions>(
      "tileopt-tile-to-cubin",
      "Lower tile kernels to a gpu.binary holding a cubin (or PTX with "
      "format=isa) through NVVM and ptxas",
      buildTileToCubinPipeline);
}
