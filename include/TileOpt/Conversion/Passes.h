//===- Passes.h - Conversions into and out of TileOpt -----------*- C++ -*-===//
#ifndef TILEOPT_CONVERSION_PASSES_H
#define TILEOPT_CONVERSION_PASSES_H

#include "TileOpt/Dialect/TH/IR/THOps.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "TileOpt/Dialect/TileOpt/IR/TileOptDialect.h"
#include "TileOpt/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tileopt {

#define GEN_PASS_DECL
#include "TileOpt/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TileOpt/Conversion/Passes.h.inc"

/// Options of the tile-to-cubin pipeline.
struct TileToCubinOptions : public PassPipelineOptions<TileToCubinOptions> {
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("Target SM"),
                                        llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX features (sm_90a needs +ptx80)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary emits: bin (cubin), isa "
                     "(PTX), llvm, offloading"),
      llvm::cl::init("bin")};
  PassOptions::Option<int64_t> numWarps{
      *this, "num-warps", llvm::cl::desc("Warps per thread block"),
      llvm::cl::init(4)};
  PassOptions::Option<int64_t> registerBudget{
      *this, "register-budget",
      llvm::cl::desc("Registers per thread a loop's tiles in flight may take "
                     "(tileopt-pipeline-tile-loads)"),
      llvm::cl::init(PipelineTileLoadsOptions().registerBudget)};
  PassOptions::Option<bool> swizzleStaging{
      *this, "swizzle-staging",
      llvm::cl::desc("XOR-swizzle the cp.async stages of mma operands "
                     "instead of padding their rows"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit (ptxas, libdevice); default: CUDA_HOME, "
                     "then /usr/local/cuda"),
      llvm::cl::init("")};
};

/// The attributes tileopt-lower-tile puts on a kernel (gpu.func) for the
/// artifact's manifest: the bytes of dynamic shared memory a launch passes,
/// the TMA tensor maps it takes, and whether its blocks wait for each other.
/// The tileopt dialect owns and verifies them (TileOptDialect.td says what
/// each holds); these are their names.
constexpr StringLiteral kDynamicSharedMemoryAttr =
    TileOptDialect::DynamicSharedMemoryAttrHelper::getNameStr();
constexpr StringLiteral kTensorMapsAttr =
    TileOptDialect::TensorMapsAttrHelper::getNameStr();
constexpr StringLiteral kGridSyncAttr =
    TileOptDialect::GridSyncAttrHelper::getNameStr();

/// The tile-level half: tileopt-assign-layouts, tileopt-pipeline-tile-loads,
/// tileopt-lower-tile.
void buildTileLoweringPipeline(OpPassManager &pm,
                               const TileToCubinOptions &options);

/// tile -> gpu -> NVVM -> PTX -> cubin: buildTileLoweringPipeline, then
/// buildGPUToBinaryPipeline.
void buildTileToCubinPipeline(OpPassManager &pm,
                              const TileToCubinOptions &options);

/// The upstream half: gpu.module -> NVVM -> gpu.binary (cubin, or PTX with
/// format=isa) through ptxas.
void buildGPUToBinaryPipeline(OpPassManager &pm,
                              const TileToCubinOptions &options);

/// Registers `tileopt-tile-to-cubin`.
void registerTileToCubinPipeline();

/// The CUDA toolkit to use: `requested` if set, else $CUDA_HOME, else
/// /usr/local/cuda.
std::string findCudaToolkit(StringRef requested);

/// The ptxas gpu-module-to-binary runs: `toolkit`/bin/ptxas, else the one on
/// PATH; nothing when neither exists.
std::optional<std::string> findPtxas(StringRef toolkit);

/// The object (cubin or PTX) gpu-module-to-binary produced in `module`, or
/// an error at it when there is none.
FailureOr<StringRef> binaryObjectOf(ModuleOp module);

/// What ptxas reports of one kernel it compiled.
struct PtxasKernelReport {
  std::string name;
  int64_t registers = 0;
  /// Bytes a thread stores to local memory for registers it ran out of.
  int64_t spillStoreBytes = 0;
};

/// Why runPtxas failed.
struct PtxasError {
  std::string message;
  /// ptxas did not judge the PTX: its temporary files could not be written
  /// (a full disk), or it could not be started, crashed or ran out of time.
  /// A fact about this machine, not about the PTX.
  bool notRun = false;
};

/// What ptxas made of some PTX.
struct PtxasOutput {
  std::string cubin;
  /// Its report of each kernel, in the order it compiled them.
  SmallVector<PtxasKernelReport> kernels;
};

/// Compiles `ptx` for `chip` with `ptxas` -v -O3 (the flags
/// gpu-module-to-binary gives it: the same cubin) and returns the cubin and
/// ptxas's report of each kernel, or fails with ptxas's messages in
/// `error`. The artifact takes the cubin from here, so that the PTX it
/// keeps for reading is translated by LLVM once; the superoptimizer turns
/// down candidates whose kernels spill, which ptxas says only in the report.
FailureOr<PtxasOutput> runPtxas(StringRef ptxas, StringRef ptx, StringRef chip,
                                PtxasError &error);

} // namespace mlir::tileopt

#endif // TILEOPT_CONVERSION_PASSES_H
