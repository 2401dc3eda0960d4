//===- tileopt-compile.cpp - MLIR in, GPU artifact out --------------------===//
//
// Compiles tile kernels and the host function that launches them into an
// artifact directory: kernels.cubin (and kernels.ptx, for reading) plus
// manifest.json, which says how to launch them (docs/artifact-format.md).
// The runtime needs nothing else: compile where LLVM/MLIR is, run on any
// machine with a GPU.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "TileOpt/InitAllDialects.h"
#include "TileOpt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::tileopt;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"));
static cl::opt<std::string> outputDir("o", cl::desc("Artifact directory"),
                                      cl::value_desc("dir"), cl::Required);
static cl::opt<std::string> chip("chip", cl::desc("Target SM"),
                                 cl::init("sm_90"));
static cl::opt<std::string> features("features", cl::desc("PTX features"),
                                     cl::init("+ptx80"));
static cl::opt<int64_t> numWarps("num-warps", cl::desc("Warps per block"),
                                 cl::init(4));
static cl::opt<int64_t> registerBudget(
    "register-budget",
    cl::desc("Registers per thread that a loop's prefetched tiles may take "
             "(tileopt-pipeline-tile-loads)"),
    cl::init(PipelineTileLoadsOptions().registerBudget));
static cl::opt<bool> swizzleStaging(
    "swizzle-staging",
    cl::desc("XOR-swizzle the cp.async stages of mma operands instead of "
             "padding their rows"),
    cl::init(true));
static cl::opt<std::string>
    cudaToolkit("cuda-toolkit",
                cl::desc("CUDA toolkit with ptxas and libdevice (default: "
                         "$CUDA_HOME, then /usr/local/cuda)"),
                cl::init(""));

namespace {

constexpr StringLiteral kOutputAttr = "tileopt.output";
constexpr StringLiteral kNameAttr = "tileopt.name";
constexpr StringLiteral kReferenceAttr = "tileopt.reference";
constexpr StringLiteral kReferenceArgsAttr = "tileopt.reference_args";

/// The manifest's name for an element type, or "" if it has none.
std::string dtypeName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (type.isSignlessInteger(8))
    return "i8";
  if (type.isSignlessInteger(32))
    return "i32";
  if (type.isSignlessInteger(64) || type.isIndex())
    return "i64";
  return "";
}

/// What the compiler learns from the host function before lowering.
struct LaunchPlan {
  llvm::json::Array buffers;
  llvm::json::Array launches;
  /// For each launch, the buffer bound to each kernel argument (-1 for
  /// scalars): what a tensor map of a view describes.
  SmallVector<SmallVector<int64_t>> launchBuffers;
  /// Kernel names in order of first launch.
  SmallVector<std::string> kernels;
  llvm::json::Array kernelParams;
  llvm::json::Value reference = nullptr;
  llvm::json::Value referenceArgs = nullptr;
};

FailureOr<func::FuncOp> findEntry(ModuleOp module) {
  func::FuncOp entry;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.getOps<tile::LaunchOp>().empty())
      continue;
    if (entry)
      return func.emitError("a second host function with tile.launch (the "
                            "first is @")
             << entry.getSymName() << "): an artifact has one launch sequence";
    entry = func;
  }
  if (!entry) {
    // Point at a kernel that nothing launches, if there is one.
    Operation *at = module;
    for (auto kernel : module.getOps<tile::KernelOp>()) {
      at = kernel;
      break;
    }
    return at->emitError("no func.func launches a kernel with tile.launch: "
                         "nothing says how to run the kernels");
  }
  return entry;
}

LogicalResult planBuffers(func::FuncOp entry, LaunchPlan &plan) {
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
      return entry.emitError("argument #")
             << i << " is " << arg.getType()
             << "; host-function arguments are device buffers: static-shape "
                "row-major memrefs";
    std::string dtype = dtypeName(type.getElementType());
    if (dtype.empty())
      return entry.emitError("argument #")
             << i << " has elements of type " << type.getElementType()
             << ", which artifacts do not carry";
    llvm::json::Array shape, strides;
    int64_t stride = 1;
    SmallVector<int64_t> rowMajor(type.getRank());
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      rowMajor[d] = stride;
      stride *= type.getDimSize(d);
    }
    for (int64_t d = 0; d < type.getRank(); ++d) {
      shape.push_back(type.getDimSize(d));
      strides.push_back(rowMajor[d]);
    }
    std::string name = "arg" + std::to_string(i);
    if (auto attr = entry.getArgAttrOfType<StringAttr>(i, kNameAttr))
      name = attr.str();
    bool output = entry.getArgAttr(i, kOutputAttr) != nullptr;
    plan.buffers.push_back(llvm::json::Object{
        {"name", name},
        {"role", output ? "output" : "input"},
        {"dtype", dtype},
        {"shape", std::move(shape)},
        {"strides", std::move(strides)}});
  }
  return success();
}

/// A launch argument that binds a kernel scalar: a constant of the host
/// function, written as {"<dtype>": value}.
FailureOr<llvm::json::Value> scalarArg(tile::LaunchOp launch, Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  std::string dtype = dtypeName(value.getType());
  if (!constant || dtype.empty() || dtype == "bf16" || dtype == "f16" ||
      dtype == "i8")
    return launch.emitError("scalar arguments must be arith.constant values "
                            "of type f32, f64, i32, i64 or index");
  if (auto f = dyn_cast<FloatAttr>(constant.getValue()))
    return llvm::json::Value(
        llvm::json::Object{{dtype, f.getValueAsDouble()}});
  auto i = cast<IntegerAttr>(constant.getValue());
  return llvm::json::Value(llvm::json::Object{{dtype, i.getInt()}});
}

LogicalResult planLaunches(ModuleOp module, func::FuncOp entry,
                           LaunchPlan &plan) {
  llvm::StringMap<int64_t> kernelIndex;
  WalkResult walk = entry.walk([&](tile::LaunchOp launch) -> WalkResult {
    auto kernel = SymbolTable::lookupNearestSymbolFrom<tile::KernelOp>(
        launch, launch.getKernelAttr());
    auto [it, inserted] =
        kernelIndex.try_emplace(launch.getKernel(), plan.kernels.size());
    if (inserted) {
      plan.kernels.push_back(launch.getKernel().str());
      llvm::json::Array params;
      for (Type type : kernel.getArgumentTypes()) {
        if (auto view = dyn_cast<tile::TensorViewType>(type)) {
          params.push_back("ptr");
          for (int64_t dim : view.getShape())
            if (ShapedType::isDynamic(dim))
              params.push_back("i64");
          continue;
        }
        params.push_back(dtypeName(type));
      }
      plan.kernelParams.push_back(std::move(params));
    }
    llvm::json::Array args;
    SmallVector<int64_t> &buffers = plan.launchBuffers.emplace_back();
    for (auto [param, arg] :
         llvm::zip(kernel.getArgumentTypes(), launch.getArgs())) {
      auto view = dyn_cast<tile::TensorViewType>(param);
      buffers.push_back(-1);
      if (!view) {
        FailureOr<llvm::json::Value> scalar = scalarArg(launch, arg);
        if (failed(scalar))
          return WalkResult::interrupt();
        args.push_back(std::move(*scalar));
        continue;
      }
      auto buffer = dyn_cast<BlockArgument>(arg);
      if (!buffer || buffer.getOwner() != &entry.front())
        return launch.emitError("views must be bound to arguments of the "
                                "host function (the artifact's buffers)");
      int64_t index = buffer.getArgNumber();
      buffers.back() = index;
      args.push_back(llvm::json::Object{{"buffer", index}});
      for (auto [d, dim] : llvm::enumerate(view.getShape()))
        if (ShapedType::isDynamic(dim))
          args.push_back(
              llvm::json::Object{{"buffer", index}, {"dim", int64_t(d)}});
    }
    ArrayRef<int64_t> grid = launch.getGrid();
    plan.launches.push_back(llvm::json::Object{
        {"kernel", it->second},
        {"grid", llvm::json::Array{grid[0], grid[1], grid[2]}},
        {"args", std::move(args)}});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (auto reference = entry->getAttrOfType<StringAttr>(kReferenceAttr))
    plan.reference = reference.str();
  if (auto args = entry->getAttrOfType<DictionaryAttr>(kReferenceArgsAttr)) {
    llvm::json::Object object;
    for (NamedAttribute arg : args)
      if (auto f = dyn_cast<FloatAttr>(arg.getValue()))
        object[arg.getName().str()] = f.getValueAsDouble();
    plan.referenceArgs = std::move(object);
  }
  return success();
}

/// Adds the tensor-map parameters the lowering gave kernel `index`
/// (`maps`, kTensorMapsAttr) to its params and to each of its launches: a
/// "ptr" each, bound to {"tensor_map": {"buffer", "box", "swizzle"}}.
void planTensorMaps(int64_t index, ArrayAttr maps, LaunchPlan &plan) {
  llvm::json::Array &params = *plan.kernelParams[index].getAsArray();
  for (size_t i = 0; i < maps.size(); ++i)
    params.push_back("ptr");
  for (auto [launch, buffers] : llvm::zip(plan.launches, plan.launchBuffers)) {
    llvm::json::Object &object = *launch.getAsObject();
    if (*object.getInteger("kernel") != index)
      continue;
    llvm::json::Array &args = *object.getArray("args");
    for (auto map : maps.getAsRange<DictionaryAttr>()) {
      llvm::json::Array box;
      for (auto size : cast<ArrayAttr>(map.get("box")).getAsRange<IntegerAttr>())
        box.push_back(size.getInt());
      int64_t view = cast<IntegerAttr>(map.get("view")).getInt();
      args.push_back(llvm::json::Object{
          {"tensor_map", llvm::json::Object{{"buffer", buffers[view]},
                                            {"box", std::move(box)},
                                            {"swizzle", 128}}}});
    }
  }
}

/// Finds ptxas where gpu-module-to-binary will look, or says where it
/// looked.
LogicalResult checkPtxas(ModuleOp module, StringRef toolkit) {
  if (findPtxas(toolkit))
    return success();
  return module.emitError("ptxas not found: looked in ")
         << toolkit << "/bin/ptxas and on PATH; install the CUDA toolkit, set "
         << "CUDA_HOME, or pass --cuda-toolkit";
}

LogicalResult writeFile(StringRef dir, StringRef name, StringRef contents) {
  SmallString<128> path(dir);
  llvm::sys::path::append(path, name);
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "tileopt-compile: " << error << "\n";
    return failure();
  }
  file->os() << contents;
  file->keep();
  return success();
}

LogicalResult compile(MLIRContext &ctx, llvm::SourceMgr &sourceMgr) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return failure();
  StringRef source =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  std::string sourceHash = llvm::toHex(llvm::SHA256::hash(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(source.data()),
                        source.size())),
      /*LowerCase=*/true);

  FailureOr<func::FuncOp> entry = findEntry(*module);
  LaunchPlan plan;
  if (failed(entry) || failed(planBuffers(*entry, plan)) ||
      failed(planLaunches(*module, *entry, plan)))
    return failure();
  std::string toolkit = findCudaToolkit(cudaToolkit);
  if (failed(checkPtxas(*module, toolkit)))
    return failure();

  auto setOptions = [&](TileToCubinOptions &options, StringRef format) {
    options.chip = chip;
    options.features = features;
    options.numWarps = numWarps;
    options.registerBudget = registerBudget;
    options.swizzleStaging = swizzleStaging;
    options.toolkit = toolkit;
    options.format = format.str();
  };

  PassManager lower(&ctx);
  TileToCubinOptions lowerOptions;
  setOptions(lowerOptions, "bin");
  buildTileLoweringPipeline(lower, lowerOptions);
  if (failed(lower.run(*module)))
    return failure();

  llvm::json::Array kernels;
  for (auto [index, name] : llvm::enumerate(plan.kernels)) {
    auto func = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        *module, SymbolRefAttr::get(&ctx, "tileopt_kernels",
                                    FlatSymbolRefAttr::get(&ctx, name)));
    int64_t sharedBytes = 0;
    for (BlockArgument buffer : func.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(buffer.getType());
      sharedBytes +=
          type.getNumElements() * type.getElementTypeBitWidth() / 8;
    }
    int64_t dynamicBytes = 0;
    if (auto bytes = func->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttr))
      dynamicBytes = bytes.getInt();
    if (auto maps = func->getAttrOfType<ArrayAttr>(kTensorMapsAttr))
      planTensorMaps(index, maps, plan);
    std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
    llvm::json::Object kernel{
        {"name", name},
        {"cubin", "kernels.cubin"},
        {"symbol", name},
        {"block", llvm::json::Array{(*block)[0], (*block)[1], (*block)[2]}},
        {"shared_memory", llvm::json::Object{{"static", sharedBytes},
                                             {"dynamic", dynamicBytes}}},
        {"params", std::move(*plan.kernelParams[index].getAsArray())}};
    if (func->hasAttr(kGridSyncAttr))
      kernel["grid_sync"] = true;
    kernels.push_back(std::move(kernel));
  }

  // PTX for reading, then the cubin the runtime loads.
  OwningOpRef<ModuleOp> forPtx = module->clone();
  TileToCubinOptions ptxOptions, cubinOptions;
  setOptions(ptxOptions, "isa");
  setOptions(cubinOptions, "bin");
  PassManager toPtx(&ctx), toCubin(&ctx);
  buildGPUToBinaryPipeline(toPtx, ptxOptions);
  buildGPUToBinaryPipeline(toCubin, cubinOptions);
  if (failed(toPtx.run(*forPtx)) || failed(toCubin.run(*module)))
    return failure();
  FailureOr<StringRef> ptx = binaryObjectOf(*forPtx);
  FailureOr<StringRef> cubin = binaryObjectOf(*module);
  if (failed(ptx) || failed(cubin))
    return failure();

  llvm::json::Object manifest{
      {"format", "tileopt-artifact"},
      {"version", 1},
      {"source_hash", sourceHash},
      {"target", llvm::json::Object{{"arch", std::string(chip)}}},
      {"buffers", std::move(plan.buffers)},
      {"kernels", std::move(kernels)},
      {"launches", std::move(plan.launches)}};
  if (plan.reference.kind() != llvm::json::Value::Null)
    manifest["reference"] = std::move(plan.reference);
  if (plan.referenceArgs.kind() != llvm::json::Value::Null)
    manifest["reference_args"] = std::move(plan.referenceArgs);

  if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
    llvm::errs() << "tileopt-compile: cannot create " << outputDir << ": "
                 << ec.message() << "\n";
    return failure();
  }
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  return success(succeeded(writeFile(outputDir, "kernels.cubin", *cubin)) &&
                 succeeded(writeFile(outputDir, "kernels.ptx", *ptx)) &&
                 succeeded(writeFile(outputDir, "manifest.json", json)));
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tileopt-compile: tile kernels + host launches -> artifact directory\n");

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
  return failed(compile(ctx, sourceMgr)) ? 1 : 0;
}
