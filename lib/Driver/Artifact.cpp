//===- Artifact.cpp - Tile kernels to a cubin and its manifest ------------===//
//
// An artifact is what the runtime needs and nothing else: kernels.cubin,
// and manifest.json, which says how to launch its kernels on which buffers
// (docs/artifact-format.md); kernels.ptx rides along for reading. The
// launch sequence is read off the host function's tile.launch ops before the
// kernels are lowered, the kernels' block sizes and shared memory after.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Driver/Driver.h"

#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <climits>
#include <csignal>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::driver;

namespace {

constexpr StringLiteral kOutputAttr =
    TileOptDialect::OutputAttrHelper::getNameStr();
constexpr StringLiteral kScratchAttr =
    TileOptDialect::ScratchAttrHelper::getNameStr();
constexpr StringLiteral kNameAttr = TileOptDialect::NameAttrHelper::getNameStr();
constexpr StringLiteral kConstantAttr =
    TileOptDialect::ConstantAttrHelper::getNameStr();
constexpr StringLiteral kReferenceAttr =
    TileOptDialect::ReferenceAttrHelper::getNameStr();
constexpr StringLiteral kReferenceArgsAttr =
    TileOptDialect::ReferenceArgsAttrHelper::getNameStr();

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
  /// The contents of constants.bin: each constant buffer's elements at a
  /// 16-byte aligned offset.
  std::string constants;
};

/// Appends `values` to `file` at the next 16-byte aligned offset, as the
/// manifest's row-major, little-endian elements (MLIR stores dense elements
/// of these types so on the little-endian hosts it runs on); returns the
/// manifest's `data` of the buffer.
llvm::json::Object appendConstant(DenseElementsAttr values, std::string &file) {
  file.resize(llvm::alignTo(file.size(), 16), '\0');
  size_t offset = file.size();
  ArrayRef<char> raw = values.getRawData();
  for (int64_t copies = values.isSplat() ? values.getNumElements() : 1;
       copies > 0; --copies)
    file.append(raw.begin(), raw.end());
  return llvm::json::Object{{"file", "constants.bin"},
                            {"offset", int64_t(offset)},
                            {"bytes", int64_t(file.size() - offset)}};
}

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
    bool scratch = entry.getArgAttr(i, kScratchAttr) != nullptr;
    auto constant = entry.getArgAttrOfType<DenseElementsAttr>(i, kConstantAttr);
    llvm::json::Object buffer{{"name", name},
                              {"role", output     ? "output"
                                       : scratch  ? "scratch"
                                       : constant ? "constant"
                                                  : "input"},
                              {"dtype", dtype},
                              {"shape", std::move(shape)},
                              {"strides", std::move(strides)}};
    if (constant)
      buffer["data"] = appendConstant(constant, plan.constants);
    plan.buffers.push_back(std::move(buffer));
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

/// The ptxas that compiles the artifact's PTX (runPtxas), or an error that
/// says where it looked.
FailureOr<std::string> ptxasFor(ModuleOp module, StringRef toolkit) {
  if (std::optional<std::string> ptxas = findPtxas(toolkit))
    return *ptxas;
  return module.emitError("ptxas not found: looked in ")
         << toolkit << "/bin/ptxas and on PATH; install the CUDA toolkit, set "
         << "CUDA_HOME, or pass --cuda-toolkit";
}

/// `options` as the cubin pipeline takes them, producing `format`.
void setCubinOptions(TileToCubinOptions &result, const CompileOptions &options,
                     StringRef toolkit, StringRef format) {
  result.chip = options.chip;
  result.features = options.features;
  result.numWarps = options.numWarps > 0 ? options.numWarps : 4;
  result.registerBudget = options.registerBudget;
  result.swizzleStaging = options.swizzleStaging;
  result.toolkit = toolkit.str();
  result.format = format.str();
}

/// The manifest's entry of each kernel, from its gpu.func.
llvm::json::Array describeKernels(ModuleOp module, LaunchPlan &plan) {
  MLIRContext *ctx = module.getContext();
  llvm::json::Array kernels;
  for (auto [index, name] : llvm::enumerate(plan.kernels)) {
    auto func = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        module, SymbolRefAttr::get(ctx, "tileopt_kernels",
                                   FlatSymbolRefAttr::get(ctx, name)));
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
  return kernels;
}

} // namespace

FailureOr<Artifact> driver::compileArtifact(ModuleOp module,
                                            const CompileOptions &options,
                                            StringRef sourceHash,
                                            bool ptxOnly) {
  FailureOr<func::FuncOp> entry = findEntry(module);
  LaunchPlan plan;
  if (failed(entry) || failed(planBuffers(*entry, plan)) ||
      failed(planLaunches(module, *entry, plan)))
    return failure();
  std::string toolkit = findCudaToolkit(options.toolkit);
  // Found before the work, so that a missing ptxas is said at once.
  std::string ptxas;
  if (!ptxOnly) {
    FailureOr<std::string> found = ptxasFor(module, toolkit);
    if (failed(found))
      return failure();
    ptxas = std::move(*found);
  }

  MLIRContext *ctx = module.getContext();
  TileToCubinOptions toIsa;
  setCubinOptions(toIsa, options, toolkit, "isa");
  {
    StageDiagnostics notes(ctx, Stage::GPU);
    PassManager lower(ctx);
    buildTileLoweringPipeline(lower, toIsa);
    if (failed(lower.run(module)))
      return failure();
  }
  llvm::json::Array kernels = describeKernels(module, plan);

  // The PTX, kept for reading, then ptxas's cubin of it, which the runtime
  // loads: LLVM translates the kernels once.
  Artifact artifact;
  {
    StageDiagnostics notes(ctx, Stage::PTX);
    PassManager toPtx(ctx);
    buildGPUToBinaryPipeline(toPtx, toIsa);
    if (failed(toPtx.run(module)))
      return failure();
  }
  FailureOr<StringRef> ptx = binaryObjectOf(module);
  if (failed(ptx))
    return failure();
  artifact.ptx = ptx->str();
  if (ptxOnly)
    return artifact;

  StageDiagnostics notes(ctx, Stage::Artifact);
  PtxasError error;
  FailureOr<PtxasOutput> compiled =
      runPtxas(ptxas, artifact.ptx, options.chip, error);
  if (failed(compiled))
    return module.emitError(error.message);
  artifact.cubin = std::move(compiled->cubin);
  artifact.constants = std::move(plan.constants);

  llvm::json::Object manifest{
      {"format", "tileopt-artifact"},
      {"version", 1},
      {"source_hash", sourceHash.str()},
      {"target", llvm::json::Object{{"arch", options.chip}}},
      {"buffers", std::move(plan.buffers)},
      {"kernels", std::move(kernels)},
      {"launches", std::move(plan.launches)}};
  if (plan.reference.kind() != llvm::json::Value::Null)
    manifest["reference"] = std::move(plan.reference);
  if (plan.referenceArgs.kind() != llvm::json::Value::Null)
    manifest["reference_args"] = std::move(plan.referenceArgs);
  llvm::raw_string_ostream os(artifact.manifest);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  return artifact;
}

LogicalResult driver::lowerTileToGPU(ModuleOp module,
                                     const CompileOptions &options) {
  TileToCubinOptions toBin;
  setCubinOptions(toBin, options, findCudaToolkit(options.toolkit), "bin");
  StageDiagnostics notes(module.getContext(), Stage::GPU);
  PassManager lower(module.getContext());
  buildTileLoweringPipeline(lower, toBin);
  return lower.run(module);
}

// An interrupted compile (SIGHUP, SIGINT, SIGTERM) removes the artifact it
// was writing: LLVM's RemoveFileOnSignal removes files only, not the
// directory they are staged in.
namespace {

/// The files of an artifact (docs/artifact-format.md).
constexpr const char *kArtifactFiles[] = {"kernels.cubin", "kernels.ptx",
                                          "manifest.json", "constants.bin"};

/// What an interrupt does with the staging directory: nothing (Idle),
/// remove it and its files (Watched: it is being filled), or, while it is
/// renamed into place (Moving), let the rename end first.
enum StagingState : int { Idle, Watched, Moving };
std::atomic<int> stagingState{Idle};
/// The thread that renames the staging directory into place, while Moving.
std::atomic<long> movingThread{0};
/// The staging directory (one at a time) and its files' paths, for the
/// signal handler, while the state is not Idle.
char stagingDirectory[PATH_MAX];
char stagingFiles[std::size(kArtifactFiles)][PATH_MAX];

/// Signals that ask a compile to end (LLVM's "interrupt" signals, which
/// remove the files of RemoveFileOnSignal, less SIGUSR2).
constexpr int kInterrupts[] = {SIGHUP, SIGINT, SIGTERM};
struct sigaction previousActions[std::size(kInterrupts)];

/// The calling thread's id. Async-signal-safe (a system call).
long currentThread() { return syscall(SYS_gettid); }

/// Removes the staging directory and the artifact's files in it, those
/// that are there. Async-signal-safe.
void removeStaging() {
  for (const char *file : stagingFiles)
    unlink(file);
  rmdir(stagingDirectory);
}

/// Removes the staging directory being filled, if any, then hands the
/// signal to what handled it before: LLVM's handler, which removes the
/// files registered with RemoveFileOnSignal and ends the process as the
/// signal says, or the default action. While another thread renames the
/// staging directory into place, the handler waits for it, so that the
/// target ends whole; on that thread itself, it runs between two steps of
/// the rename and removes what is still staged (nothing, once renamed).
/// Async-signal-safe.
void onInterrupt(int signal) {
  int state = stagingState.load();
  if (state == Moving && movingThread.load() != currentThread()) {
    while (stagingState.load() == Moving) {
    }
  } else if (state == Moving ||
             (state == Watched &&
              stagingState.compare_exchange_strong(state, Idle))) {
    removeStaging();
  }
  for (auto [interrupt, previous] : llvm::zip(kInterrupts, previousActions))
    if (interrupt == signal)
      sigaction(signal, &previous, nullptr);
  raise(signal);
}

/// Installs onInterrupt, once, for each interrupt signal the process does
/// not ignore (under nohup, SIGHUP stays ignored).
void removeStagingOnInterrupt() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (auto [interrupt, previous] : llvm::zip(kInterrupts, previousActions)) {
      sigaction(interrupt, nullptr, &previous);
      if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN)
        continue;
      struct sigaction action = {};
      action.sa_handler = onInterrupt;
      sigemptyset(&action.sa_mask);
      sigaction(interrupt, &action, nullptr);
    }
  });
}

/// Copies `path` into a buffer of the signal handler.
bool copyPath(const Twine &path, char (&buffer)[PATH_MAX]) {
  SmallString<128> text;
  StringRef ref = path.toStringRef(text);
  if (ref.size() >= PATH_MAX)
    return false;
  llvm::copy(ref, buffer);
  buffer[ref.size()] = '\0';
  return true;
}

/// Has an interrupt remove the staging directory `dir` and the artifact's
/// files in it (whether they exist yet or not); false if it cannot (a path
/// too long).
bool watchStaging(StringRef dir) {
  if (!copyPath(dir, stagingDirectory))
    return false;
  for (auto [name, buffer] : llvm::zip(kArtifactFiles, stagingFiles))
    if (!copyPath(dir + "/" + name, buffer))
      return false;
  stagingState.store(Watched);
  return true;
}

/// Tells an interrupt that the staging directory is being renamed into
/// place by this thread; false if an interrupt took it first (and is
/// removing it, on another thread).
bool startMoving() {
  movingThread.store(currentThread());
  int watched = Watched;
  return stagingState.compare_exchange_strong(watched, Moving);
}

/// Takes the staging directory back from the signal handler.
void unwatchStaging() { stagingState.store(Idle); }

/// Creates a directory named after `model` (its `%` random) that an
/// interrupt removes until unwatchStaging: watched before it exists, so
/// that no moment is left where an interrupt would leave it behind.
std::error_code createWatchedDirectory(const Twine &model,
                                       SmallVectorImpl<char> &path) {
  std::error_code ec;
  for (int attempt = 0; attempt < 128; ++attempt) {
    llvm::sys::fs::createUniquePath(model, path, /*MakeAbsolute=*/false);
    if (!watchStaging(StringRef(path.data(), path.size())))
      return std::make_error_code(std::errc::filename_too_long);
    ec = llvm::sys::fs::create_directory(path, /*IgnoreExisting=*/false);
    if (ec != std::errc::file_exists)
      break;
    unwatchStaging();
  }
  if (ec)
    unwatchStaging();
  return ec;
}

} // namespace

LogicalResult driver::writeArtifact(StringRef dir, const Artifact &artifact,
                                    std::string &error) {
  // Absolute first: createUniqueDirectory puts a relative model under the
  // system temporary directory, not beside the target.
  SmallString<128> target(dir);
  if (std::error_code ec = llvm::sys::fs::make_absolute(target)) {
    error = ("cannot make " + dir + " absolute: " + ec.message()).str();
    return failure();
  }
  llvm::sys::path::remove_dots(target, /*remove_dot_dot=*/true);
  StringRef parent = llvm::sys::path::parent_path(target);
  if (!parent.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(parent)) {
      error = ("cannot create " + parent + ": " + ec.message()).str();
      return failure();
    }
  // A fresh directory beside the target (same file system: the rename is
  // atomic), filled, then renamed into place. An interrupt meanwhile
  // removes it.
  removeStagingOnInterrupt();
  SmallString<128> staging;
  if (std::error_code ec =
          createWatchedDirectory(target + ".partial-%%%%%%", staging)) {
    error = ("cannot create a directory beside " + target + ": " +
             ec.message())
                .str();
    return failure();
  }
  auto discard = [&](const Twine &why) {
    llvm::sys::fs::remove_directories(staging);
    unwatchStaging();
    error = why.str();
    return failure();
  };
  SmallVector<std::pair<StringRef, StringRef>> files = {
      {kArtifactFiles[0], artifact.cubin},
      {kArtifactFiles[1], artifact.ptx},
      {kArtifactFiles[2], artifact.manifest}};
  if (!artifact.constants.empty())
    files.push_back({kArtifactFiles[3], artifact.constants});
  for (auto [name, contents] : files) {
    SmallString<128> path(staging);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (!ec) {
      os << contents;
      os.close();
      ec = os.error();
      os.clear_error();
    }
    if (ec)
      return discard("cannot write " + path + ": " + ec.message());
  }
  if (llvm::sys::fs::exists(target) && !llvm::sys::fs::is_directory(target))
    return discard(target + " exists and is not a directory");
  // From here the directory is this compile's to move: an interrupt that
  // came first is removing it (on another thread) and ends the process. One
  // that comes later waits for the renames below on another thread, or, on
  // this one, removes what is still staged (an artifact moved aside then
  // stays aside, as target.old-*).
  if (!startMoving()) {
    error = "interrupted";
    return failure();
  }
  // An artifact already there is replaced whole: moved aside first, since
  // rename does not replace a non-empty directory, and removed once the new
  // one is in place. Another compile may be writing the same target at once
  // and put its artifact there between the two renames: then that one is
  // moved aside in turn, and the last compile to rename wins. Neither fails,
  // and what is at the target is one whole artifact (for a moment, none).
  SmallVector<SmallString<128>> movedAside;
  llvm::scope_exit removeMovedAside([&] {
    for (StringRef old : movedAside)
      llvm::sys::fs::remove_directories(old);
    unwatchStaging();
  });
  std::error_code ec;
  for (int attempt = 0; attempt < 100; ++attempt) {
    ec = llvm::sys::fs::rename(staging, target);
    if (ec != std::errc::directory_not_empty && ec != std::errc::file_exists)
      break;
    SmallString<128> old;
    if ((ec = llvm::sys::fs::createUniqueDirectory(target + ".old", old)))
      break;
    llvm::sys::fs::remove(old);
    ec = llvm::sys::fs::rename(target, old);
    if (!ec)
      movedAside.push_back(old);
    else if (ec != std::errc::no_such_file_or_directory)
      break; // else another compile moved it aside first
  }
  if (ec) {
    // Put back the artifact this compile moved aside, if nothing took its
    // place.
    if (!movedAside.empty() && !llvm::sys::fs::exists(target) &&
        !llvm::sys::fs::rename(movedAside.back(), target))
      movedAside.pop_back();
    return discard("cannot move the artifact into " + target + ": " +
                   ec.message());
  }
  return success();
}
