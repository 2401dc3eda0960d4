//===- Driver.cpp - The stages from any input to tile kernels -------------===//
#include "TileOpt/Driver/Driver.h"

#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/Dialect/TK/IR/TKOps.h"
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::driver;

namespace {

constexpr StringLiteral kNameAttr = TileOptDialect::NameAttrHelper::getNameStr();

struct StageInfo {
  Stage stage;
  StringLiteral name;
  /// What turns the previous stage into this one, for diagnostics.
  StringLiteral producedBy;
};

constexpr StageInfo kStages[] = {
    {Stage::Tosa, "tosa", "the input"},
    {Stage::Linalg, "linalg", "the upstream TOSA-to-linalg passes"},
    {Stage::TK, "tk", "tileopt-import-linalg"},
    {Stage::UGraph, "ugraph", "tileopt-superoptimize"},
    {Stage::Tile, "tile", "tileopt-lower-ugraph"},
    {Stage::GPU, "gpu", "tileopt-lower-tile"},
    {Stage::PTX, "ptx", "NVVM and LLVM's NVPTX backend"},
    {Stage::Artifact, "artifact", "ptxas"},
};

const StageInfo &infoOf(Stage stage) {
  return kStages[static_cast<int>(stage)];
}

/// The op the importer left in `module` to blame for it: at the tk stage
/// every function must be tk ops alone. Constants and empty tensors the
/// importer leaves only feed such an op (and the TOSA passes create them
/// without a location), so the first op that reads a value is named, else
/// the first left at all.
Operation *unimportedOp(ModuleOp module) {
  Operation *first = nullptr, *reader = nullptr;
  module.walk([&](func::FuncOp func) {
    for (Operation &op : func.getOps()) {
      if (isa<func::ReturnOp>(op) || isa<tk::TKDialect>(op.getDialect()))
        continue;
      if (!first)
        first = &op;
      if (op.getNumOperands() > 0 && !op.hasTrait<OpTrait::ConstantLike>()) {
        reader = &op;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return reader ? reader : first;
}

/// The source's locations: every op's, and, per function, where each kind
/// of computation sits (`matmul`, `unary`, ...: the op name past the
/// dialect, the same in tk and tb).
struct SourceLocations {
  DenseSet<Location> all;
  llvm::StringMap<llvm::StringMap<SmallVector<Location>>> byKind;
};

SourceLocations locationsOfSource(ModuleOp module) {
  SourceLocations result;
  module.walk([&](Operation *op) { result.all.insert(op->getLoc()); });
  module.walk([&](func::FuncOp func) {
    auto &kinds = result.byKind[func.getSymName()];
    func.walk([&](Operation *op) {
      if (isa<tk::TKDialect>(op->getDialect()))
        kinds[op->getName().stripDialect()].push_back(op->getLoc());
    });
  });
  return result;
}

/// Gives the ops the search built (without a location, or at a line of the
/// search cache's text) the source locations of the ops of their kind,
/// fused where there are several, else their function's; a graph-defined
/// kernel, those of the ops inside it. A later stage's error then points
/// into the source.
void restoreSourceLocations(ModuleOp module, const SourceLocations &source) {
  MLIRContext *context = module.getContext();
  module.walk([&](func::FuncOp func) {
    auto kinds = source.byKind.find(func.getSymName());
    func.walk([&](Operation *op) {
      if (source.all.contains(op->getLoc()))
        return;
      Location loc = func.getLoc();
      if (kinds != source.byKind.end()) {
        auto locs = kinds->second.find(op->getName().stripDialect());
        if (locs != kinds->second.end())
          loc = FusedLoc::get(context, locs->second);
      }
      op->setLoc(loc);
    });
    func.walk([&](tk::FusedOp fused) {
      llvm::SetVector<Location> inside;
      fused.getBody().walk([&](Operation *op) {
        if (op->getLoc() != func.getLoc())
          inside.insert(op->getLoc());
      });
      if (!inside.empty())
        fused->setLoc(FusedLoc::get(context, inside.getArrayRef()));
    });
  });
}

/// The warps of the µGraph's graph-defined kernels: the superoptimizer
/// chooses block sizes, and the code generator runs one size for all the
/// kernels of a module.
FailureOr<int64_t> warpsOfUGraph(ModuleOp module, int64_t requested) {
  if (requested > 0)
    return requested;
  std::optional<int64_t> threads;
  Operation *first = nullptr;
  WalkResult walk = module.walk([&](tk::FusedOp fused) {
    int64_t n = 1;
    for (int64_t d : fused.getBlockDims())
      n *= d;
    if (threads && *threads != n) {
      fused.emitError("this graph-defined kernel has blocks of ")
              .attachNote(first->getLoc())
          << "this one has " << *threads
          << " threads; the code generator runs one block size for all "
             "the kernels of a program: pass --num-warps";
      return WalkResult::interrupt();
    }
    threads = n;
    first = fused;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!threads)
    return 4;
  if (*threads % 32 != 0)
    return first->emitError("blocks of ")
           << *threads << " threads are not a whole number of warps";
  return *threads / 32;
}

LogicalResult runStage(ModuleOp module, Stage stage,
                       const CompileOptions &options) {
  MLIRContext *context = module.getContext();
  StageDiagnostics notes(context, stage);
  PassManager pm(context);
  switch (stage) {
  case Stage::Tosa:
    llvm_unreachable("TOSA is an input, not a stage to lower to");
  case Stage::Linalg: {
    // The stock pipeline a front end's TOSA goes through (mlir-opt
    // --tosa-to-linalg-pipeline), then the ops it leaves to the tensor and
    // arith conversions (reshapes, slices, constants).
    tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
    OpPassManager &funcs = pm.nest<func::FuncOp>();
    funcs.addPass(createTosaToTensorPass());
    funcs.addPass(createTosaToArithPass());
    pm.addPass(createCanonicalizerPass());
    break;
  }
  case Stage::TK:
    pm.addNestedPass<func::FuncOp>(createImportLinalg());
    break;
  case Stage::UGraph: {
    // The search prices and compiles its candidates for the chip the
    // artifact is for.
    SuperoptimizeOptions search = options.search;
    search.chip = options.chip;
    pm.addNestedPass<func::FuncOp>(createSuperoptimize(search));
    break;
  }
  case Stage::Tile:
    pm.addPass(createLowerUGraph());
    break;
  case Stage::GPU:
  case Stage::PTX:
  case Stage::Artifact:
    llvm_unreachable("compileArtifact's stages");
  }
  SourceLocations source;
  if (stage == Stage::UGraph)
    source = locationsOfSource(module);
  if (failed(pm.run(module)))
    return failure();
  if (stage == Stage::UGraph)
    restoreSourceLocations(module, source);
  if (stage == Stage::TK) {
    if (Operation *op = unimportedOp(module))
      return op->emitError("'")
             << op->getName()
             << "' was not imported into the kernel graph (the warnings "
                "above say why)";
  }
  return success();
}

} // namespace

StageDiagnostics::StageDiagnostics(MLIRContext *context, Stage stage)
    : handler(context, [stage](Diagnostic &diagnostic) {
        if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
          diagnostic.attachNote() << "in stage '" << infoOf(stage).name << "' ("
                                  << infoOf(stage).producedBy << ")";
        return failure();
      }) {}

StringRef driver::getStageName(Stage stage) { return infoOf(stage).name; }

std::optional<Stage> driver::parseStage(StringRef name) {
  for (const StageInfo &info : kStages)
    if (info.name == name)
      return info.stage;
  return std::nullopt;
}

FailureOr<Stage> driver::detectStage(ModuleOp module) {
  std::optional<Stage> earliest;
  auto see = [&](Stage stage) {
    if (!earliest || stage < *earliest)
      earliest = stage;
  };
  module.walk([&](Operation *op) {
    Dialect *dialect = op->getDialect();
    if (isa_and_nonnull<tosa::TosaDialect>(dialect))
      see(Stage::Tosa);
    else if (isa_and_nonnull<linalg::LinalgDialect>(dialect))
      see(Stage::Linalg);
    else if (isa<tk::FusedOp>(op))
      see(Stage::UGraph);
    else if (isa_and_nonnull<tk::TKDialect>(dialect))
      see(Stage::TK);
    else if (isa<tile::KernelOp, tile::LaunchOp>(op))
      see(Stage::Tile);
    else if (isa<gpu::GPUModuleOp>(op))
      see(Stage::GPU);
  });
  // A kernel graph of predefined kernels is a µGraph too, but the search
  // has not seen it; one with graph-defined kernels is someone's choice.
  if (!earliest)
    return module.emitError(
        "the input holds no TOSA, linalg, tk or tile ops: nothing to compile");
  if (*earliest == Stage::GPU)
    return module.emitError("the input is already a gpu.module: "
                            "tileopt-compile starts from tile kernels at "
                            "the latest");
  return *earliest;
}

std::string driver::defaultCacheDir() {
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("TILEOPT_CACHE_DIR"))
    return *dir;
  SmallString<128> path;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME")) {
    path = *xdg;
  } else {
    std::optional<std::string> home = llvm::sys::Process::GetEnv("HOME");
    if (!home)
      return "";
    path = *home;
    llvm::sys::path::append(path, ".cache");
  }
  llvm::sys::path::append(path, "tileopt");
  return std::string(path);
}

LogicalResult driver::lowerTo(ModuleOp module, Stage from, Stage to,
                              CompileOptions &options) {
  assert(to <= Stage::Tile && "compileArtifact lowers past the tile stage");
  for (int s = static_cast<int>(from) + 1; s <= static_cast<int>(to); ++s) {
    auto stage = static_cast<Stage>(s);
    if (stage == Stage::Tile) {
      FailureOr<int64_t> warps = warpsOfUGraph(module, options.numWarps);
      if (failed(warps))
        return failure();
      options.numWarps = *warps;
    }
    if (failed(runStage(module, stage, options)))
      return failure();
  }
  return success();
}

void driver::nameArgumentsFromSource(ModuleOp module,
                                     const AsmParserState &state) {
  llvm::Regex generated("^arg[0-9]+$");
  module.walk([&](func::FuncOp func) {
    if (func.isExternal())
      return;
    const AsmParserState::BlockDefinition *entry =
        state.getBlockDef(&func.front());
    if (!entry)
      return;
    for (auto [i, arg] : llvm::enumerate(entry->arguments)) {
      if (i >= func.getNumArguments() || func.getArgAttr(i, kNameAttr))
        continue;
      StringRef name(arg.loc.Start.getPointer(),
                     arg.loc.End.getPointer() -
                         arg.loc.Start.getPointer());
      name.consume_front("%");
      if (name.empty() || generated.match(name))
        continue;
      func.setArgAttr(i, kNameAttr, StringAttr::get(func.getContext(), name));
    }
  });
}

