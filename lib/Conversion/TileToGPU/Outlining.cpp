//===- Outlining.cpp - tile.kernel to gpu.func, tile.launch to launch_func
//-===//
//
// Every tile.kernel moves into a gpu.func of one gpu.module with the kernel
// ABI: a global pointer per view and an i64 per dynamic dim, then a tensor
// map per TMA-copied operand. Its shared memory is sized here for the
// largest use of any op (one f32 scratch buffer, the mma staging buffer,
// dynamic beyond 48 KiB, and an mbarrier per TMA stage), and what a
// tile.reduce_across_blocks exchanges through device memory is allocated.
// Every tile.launch becomes a gpu.launch_func that passes its buffers so.
//
//===----------------------------------------------------------------------===//
#include "StagedMmaLoop.h"

#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/Conversion/TileToGPU/TileToGPU.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

namespace {

/// Kernel parameters for one tile.kernel argument.
SmallVector<Type> abiTypes(Type argType, MLIRContext *ctx) {
  auto view = dyn_cast<tile::TensorViewType>(argType);
  if (!view)
    return {argType};
  SmallVector<Type> types = {
      LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1)};
  for (int64_t dim : view.getShape())
    if (ShapedType::isDynamic(dim))
      types.push_back(IntegerType::get(ctx, 64));
  return types;
}

/// The symbol of dynamic shared memory in the gpu.module.
constexpr StringLiteral kDynamicSharedSymbol = "tileopt_dynamic_shared";

/// The type of the external, zero-length memref.global that stands for the
/// dynamic shared memory of a kernel in `gpuModule`, declared there if it
/// is not yet, `alignment`-byte aligned. NVPTX places an external
/// zero-length shared array after the static shared memory
/// (gpu.dynamic_shared_memory lowers to an internal one, which NVPTX makes a
/// one-byte static variable instead).
MemRefType dynamicSharedMemory(gpu::GPUModuleOp gpuModule, Type elementType,
                               int64_t alignment) {
  MLIRContext *ctx = gpuModule.getContext();
  auto type = MemRefType::get(
      {0}, elementType, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  if (auto global =
          gpuModule.lookupSymbol<memref::GlobalOp>(kDynamicSharedSymbol)) {
    if (global.getAlignment().value_or(0) < static_cast<uint64_t>(alignment))
      global.setAlignment(alignment);
    return type;
  }
  OpBuilder b = OpBuilder::atBlockBegin(gpuModule.getBody());
  memref::GlobalOp::create(b, gpuModule.getLoc(), kDynamicSharedSymbol,
                           /*sym_visibility=*/b.getStringAttr("public"), type,
                           /*initial_value=*/Attribute(), /*constant=*/false,
                           b.getI64IntegerAttr(alignment));
  return type;
}

/// The kTensorMapsAttr entry of a tile.load copied by TMA: the kernel
/// argument it reads (the view) and its box, all of the tile's rows by one
/// 128-byte-swizzled panel of columns (tmaLimit).
DictionaryAttr tensorMapOf(tile::LoadOp load) {
  MLIRContext *ctx = load.getContext();
  Builder b(ctx);
  auto view = cast<BlockArgument>(load.getView());
  int64_t rows = load.getType().getDimSize(0);
  return b.getDictionaryAttr(
      {b.getNamedAttr("view", b.getI64IntegerAttr(view.getArgNumber())),
       b.getNamedAttr("box",
                      b.getI64ArrayAttr({rows, StagedOperand::kPanel}))});
}

/// Moves `kernel` into `gpuModule` as a gpu.func with the kernel ABI.
FailureOr<gpu::GPUFuncOp> outlineKernel(tile::KernelOp kernel,
                                        gpu::GPUModuleOp gpuModule,
                                        int64_t numThreads) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  int64_t words = 0, staging = 0, tmaStages = 0;
  SmallVector<tile::LoadOp> tmaLoads;
  Type stagingType;
  // ldmatrix reads 16-byte rows; wgmma's 128-byte swizzle is computed from
  // the address, which must start a 1024-byte block (StagingLayout::panels).
  int64_t stagingAlignment = 16;
  kernel.walk([&](Operation *op) {
    words = std::max(words, scratchWords(op, numThreads));
  });
  WalkResult mixed = kernel.walk([&](tile::MmaOp mma) {
    // Products on the CUDA cores take the f32 scratch (scratchWords).
    if (!mma.runsOnTensorCores())
      return WalkResult::advance();
    Type type = mma.getLhs().getType().getElementType();
    if (stagingType && stagingType != type)
      return WalkResult::interrupt();
    stagingType = type;
    if (isWgmma(mma))
      stagingAlignment = 1024;
    std::optional<StagedMmaLoop> pipeline = stagedMmaLoopAround(mma);
    staging = std::max(staging,
                       pipeline ? pipeline->stages * pipeline->stageElements()
                                : stagingElements(mma));
    // Once per loop: at its first mma.
    if (pipeline && pipeline->tma && pipeline->mmas.front() == mma) {
      tmaStages = std::max(tmaStages, pipeline->stages);
      llvm::append_range(tmaLoads, pipeline->loads);
    }
    return WalkResult::advance();
  });
  if (mixed.wasInterrupted())
    return kernel.emitOpError("mixes f16 and bf16 tile.mma operands");
  if (words * 4 > kMaxStaticSharedBytes)
    return kernel.emitOpError("needs ")
           << words * 4 << " bytes of shared memory for its scratch, over "
           << "the " << kMaxStaticSharedBytes << " bytes of static shared "
           << "memory; use smaller tiles";

  SmallVector<Type> paramTypes;
  for (Type type : kernel.getArgumentTypes())
    llvm::append_range(paramTypes, abiTypes(type, ctx));
  SmallVector<Attribute> tensorMaps;
  for (tile::LoadOp load : tmaLoads) {
    load->setAttr(kTensorMapParam, IntegerAttr::get(IntegerType::get(ctx, 64),
                                                    paramTypes.size()));
    paramTypes.push_back(LLVM::LLVMPointerType::get(ctx));
    tensorMaps.push_back(tensorMapOf(load));
  }
  SmallVector<Type> workgroup;
  auto workgroupMemory =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  if (words > 0)
    workgroup.push_back(MemRefType::get({words}, Float32Type::get(ctx),
                                        MemRefLayoutAttrInterface(),
                                        workgroupMemory));
  // One mbarrier (8 bytes) per TMA stage, in memory of their own: other
  // uses of shared memory would have to invalidate them first.
  int64_t barrierBytes = 8 * tmaStages;
  if (tmaStages > 0)
    workgroup.push_back(MemRefType::get({tmaStages}, IntegerType::get(ctx, 64),
                                        MemRefLayoutAttrInterface(),
                                        workgroupMemory));
  // Staging that does not fit beside the scratch in static shared memory
  // goes to dynamic shared memory, which the kernel opts in to.
  MemRefType stagingBuffer;
  if (staging > 0)
    stagingBuffer = MemRefType::get(
        {staging}, stagingType, MemRefLayoutAttrInterface(), workgroupMemory);
  int64_t sharedBytes = words * 4 + barrierBytes + staging * 2;
  bool dynamicStaging = sharedBytes > kMaxStaticSharedBytes;
  if (staging > 0 && !dynamicStaging)
    workgroup.push_back(stagingBuffer);
  if (sharedBytes > kMaxSharedBytesPerBlock)
    return kernel.emitOpError("needs ")
           << sharedBytes << " bytes of shared memory, over the "
           << kMaxSharedBytesPerBlock
           << " bytes a block can have; use smaller tiles "
           << "or a lower latency hint";

  OpBuilder b(gpuModule.getBody(), gpuModule.getBody()->end());
  auto func =
      gpu::GPUFuncOp::create(b, loc, kernel.getSymName(),
                             b.getFunctionType(paramTypes, {}), workgroup);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  if (!tensorMaps.empty())
    func->setAttr(kTensorMapsAttr, b.getArrayAttr(tensorMaps));
  if (staging > 0 && !dynamicStaging)
    func.setWorkgroupAttributionAttr(workgroup.size() - 1,
                                     LLVM::LLVMDialect::getAlignAttrName(),
                                     b.getI64IntegerAttr(stagingAlignment));
  func.setKnownBlockSize(
      ArrayRef<int32_t>{static_cast<int32_t>(numThreads), 1, 1});

  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  if (staging > 0 && dynamicStaging) {
    Value base = memref::GetGlobalOp::create(
        b, loc, dynamicSharedMemory(gpuModule, stagingType, stagingAlignment),
        kDynamicSharedSymbol);
    memref::ReinterpretCastOp::create(b, loc, stagingBuffer, base,
                                      /*offset=*/0, /*sizes=*/{staging},
                                      /*strides=*/{1});
    func->setAttr(kDynamicSharedMemoryAttr, b.getI64IntegerAttr(staging * 2));
  }
  Block &oldEntry = kernel.getBody().front();
  unsigned param = 0;
  for (BlockArgument arg : oldEntry.getArguments()) {
    size_t count = abiTypes(arg.getType(), ctx).size();
    ValueRange params = entry.getArguments().slice(param, count);
    param += count;
    Value replacement = params.front();
    if (isa<tile::TensorViewType>(arg.getType()))
      replacement = UnrealizedConversionCastOp::create(b, arg.getLoc(),
                                                       arg.getType(), params)
                        .getResult(0);
    arg.replaceAllUsesWith(replacement);
  }
  entry.getOperations().splice(entry.end(), oldEntry.getOperations());
  Operation *terminator = entry.getTerminator();
  b.setInsertionPoint(terminator);
  gpu::ReturnOp::create(b, terminator->getLoc());
  terminator->erase();
  kernel.erase();
  return func;
}

/// A zero-initialized global of `type` in device memory, in `gpuModule`.
void createDeviceGlobal(gpu::GPUModuleOp gpuModule, StringRef name, Type type) {
  OpBuilder b(gpuModule.getBody(), gpuModule.getBody()->begin());
  Location loc = gpuModule.getLoc();
  auto global = LLVM::GlobalOp::create(
      b, loc, type, /*isConstant=*/false, LLVM::Linkage::Internal, name,
      /*value=*/Attribute(), /*alignment=*/16, /*addrSpace=*/1);
  Block *init = b.createBlock(&global.getInitializerRegion());
  b.setInsertionPointToStart(init);
  LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, type));
}

/// Gives each tile.reduce_across_blocks of `kernel` its partials array (a
/// word per element and block of the launch grid) and the kernel one grid
/// barrier (an arrival count and a generation), as device-memory globals.
/// The blocks must all be resident at once: the superoptimizer only builds
/// such kernels with at most one block per SM of its target.
LogicalResult
prepareCrossBlockCombines(tile::KernelOp kernel,
                          MutableArrayRef<tile::LaunchOp> launches,
                          gpu::GPUModuleOp gpuModule) {
  auto combines = llvm::to_vector(kernel.getOps<tile::ReduceAcrossBlocksOp>());
  if (combines.empty())
    return success();
  if (launches.empty())
    return combines.front().emitOpError(
               "needs the grid its kernel is launched on: no tile.launch of @")
           << kernel.getSymName() << " in the module";
  ArrayRef<int64_t> grid = launches.front().getGrid();
  for (tile::LaunchOp launch : launches.drop_front())
    if (launch.getGrid() != grid)
      return launch.emitOpError("launches @")
             << kernel.getSymName()
             << " on another grid than its first launch; its "
                "tile.reduce_across_blocks sizes device memory for one grid";
  MLIRContext *ctx = kernel.getContext();
  int64_t blocks = grid[0] * grid[1] * grid[2];
  std::string barrier = (kernel.getSymName() + "_grid_barrier").str();
  createDeviceGlobal(gpuModule, barrier,
                     LLVM::LLVMArrayType::get(IntegerType::get(ctx, 32), 2));
  for (auto [i, combine] : llvm::enumerate(combines)) {
    std::string partials = (kernel.getSymName() + "_partials" + Twine(i)).str();
    createDeviceGlobal(gpuModule, partials,
                       LLVM::LLVMArrayType::get(
                           exchangeWordType(combine.getType().getElementType()),
                           blocks * combine.getType().getNumElements()));
    combine->setAttr(kPartialsAttr, FlatSymbolRefAttr::get(ctx, partials));
    combine->setAttr(kGridBarrierAttr, FlatSymbolRefAttr::get(ctx, barrier));
    combine->setAttr(kLaunchGridAttr, DenseI64ArrayAttr::get(ctx, grid));
  }
  return success();
}

/// The host side of a tensor-map parameter: upstream's TMA descriptor of
/// `buffer` with `box` (nvgpu.tma.create.descriptor, 128-byte swizzle, zero
/// fill), which lowers to a device pointer to the CUtensorMap: the
/// !llvm.ptr the kernel takes. The runtime builds the same map from the
/// artifact's manifest (docs/artifact-format.md).
Value hostTensorMap(OpBuilder &b, Location loc, Value buffer,
                    ArrayRef<int64_t> box) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<MemRefType>(buffer.getType());
  Value unranked = memref::CastOp::create(
      b, loc,
      UnrankedMemRefType::get(type.getElementType(), type.getMemorySpace()),
      buffer);
  auto boxType = MemRefType::get(
      box, type.getElementType(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  auto descriptorType = nvgpu::TensorMapDescriptorType::get(
      ctx, boxType, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  SmallVector<Value> boxSizes = llvm::map_to_vector(
      box, [&](int64_t size) { return indexConstant(b, loc, size); });
  Value descriptor = nvgpu::TmaCreateDescriptorOp::create(
      b, loc, descriptorType, unranked, boxSizes);
  return UnrealizedConversionCastOp::create(
             b, loc, LLVM::LLVMPointerType::get(ctx), descriptor)
      .getResult(0);
}

/// Rewrites a host-side tile.launch of a kernel now outlined as `func` into
/// a gpu.launch_func that passes each buffer as its aligned pointer and the
/// sizes of the view's dynamic dims, as the kernel ABI wants.
void lowerLaunch(tile::LaunchOp launch, ArrayRef<Type> kernelParams,
                 gpu::GPUFuncOp func, int64_t numThreads) {
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> args;
  for (auto [param, arg] : llvm::zip(kernelParams, launch.getArgs())) {
    auto view = dyn_cast<tile::TensorViewType>(param);
    if (!view) {
      args.push_back(arg);
      continue;
    }
    Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, arg);
    Value address64 =
        arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
    args.push_back(LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1),
        address64));
    auto buffer = cast<MemRefType>(arg.getType());
    for (auto [d, dim] : llvm::enumerate(view.getShape()))
      if (ShapedType::isDynamic(dim))
        args.push_back(i64Constant(b, loc, buffer.getDimSize(d)));
  }
  if (auto maps = func->getAttrOfType<ArrayAttr>(kTensorMapsAttr))
    for (auto map : maps.getAsRange<DictionaryAttr>())
      args.push_back(hostTensorMap(
          b, loc, launch.getArgs()[cast<IntegerAttr>(map.get("view")).getInt()],
          llvm::map_to_vector(cast<ArrayAttr>(map.get("box")),
                              [](Attribute size) {
                                return cast<IntegerAttr>(size).getInt();
                              })));
  ArrayRef<int64_t> grid = launch.getGrid();
  gpu::KernelDim3 gridSize{indexConstant(b, loc, grid[0]),
                           indexConstant(b, loc, grid[1]),
                           indexConstant(b, loc, grid[2])};
  gpu::KernelDim3 blockSize{indexConstant(b, loc, numThreads),
                            indexConstant(b, loc, 1), indexConstant(b, loc, 1)};
  Value dynamicSharedBytes;
  if (auto bytes = func->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttr))
    dynamicSharedBytes =
        arith::ConstantIntOp::create(b, loc, bytes.getInt(), 32);
  gpu::LaunchFuncOp::create(b, loc, func, gridSize, blockSize,
                            dynamicSharedBytes, args);
  launch.erase();
}

} // namespace

FailureOr<gpu::GPUModuleOp> tileopt::outlineTileKernels(ModuleOp module,
                                                        int64_t numThreads) {
  MLIRContext *ctx = module.getContext();
  SmallVector<tile::KernelOp> kernels(module.getOps<tile::KernelOp>());
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(ctx));
  OpBuilder b(module.getBody(), module.getBody()->end());
  auto gpuModule =
      gpu::GPUModuleOp::create(b, module.getLoc(), "tileopt_kernels");
  llvm::StringMap<SmallVector<tile::LaunchOp>> launches;
  module.walk([&](tile::LaunchOp launch) {
    launches[launch.getKernel()].push_back(launch);
  });
  for (tile::KernelOp kernel : kernels) {
    SmallVector<Type> params(kernel.getArgumentTypes());
    StringRef name = kernel.getSymName();
    if (failed(prepareCrossBlockCombines(kernel, launches[name], gpuModule)))
      return failure();
    bool gridSync = !kernel.getOps<tile::ReduceAcrossBlocksOp>().empty();
    FailureOr<gpu::GPUFuncOp> func =
        outlineKernel(kernel, gpuModule, numThreads);
    if (failed(func))
      return failure();
    if (gridSync)
      (*func)->setAttr(kGridSyncAttr, UnitAttr::get(ctx));
    for (tile::LaunchOp launch : launches.lookup(name))
      lowerLaunch(launch, params, *func, numThreads);
  }
  return gpuModule;
}
