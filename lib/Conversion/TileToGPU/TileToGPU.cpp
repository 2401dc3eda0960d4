//===- TileToGPU.cpp - Tile kernels to gpu.func with fragments ------------===//
//
// Two steps. Outlining moves every tile.kernel into a gpu.func of a
// gpu.module, with the kernel ABI (a pointer and the dynamic sizes per view)
// and one workgroup buffer for all scratch; each view is rebuilt from its
// parameters by an unrealized_conversion_cast that the memory patterns read.
// Then a dialect conversion turns tile tensors into per-thread fragments
// (FragmentLayout) and tile ops into the code that computes them.
//
//===----------------------------------------------------------------------===//
#include "TileOpt/Conversion/Passes.h"

#include "TileOpt/Conversion/TileToGPU/FragmentLayout.h"
#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "TileOpt/Transforms/MmaStaging.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tileopt {
#define GEN_PASS_DEF_LOWERTILETOGPU
#include "TileOpt/Conversion/Passes.h.inc"
} // namespace mlir::tileopt

using namespace mlir;
using namespace mlir::tileopt;
using tile::CombineKind;

namespace {

/// A fragment over this many elements per thread would spill registers.
constexpr int64_t kMaxFragmentSize = 256;
/// Static shared memory a kernel may use without opting in.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
/// Shared memory a block may opt in to on sm_90 (dynamic shared memory).
constexpr int64_t kMaxSharedBytes = kMaxSharedBytesPerBlock;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 64);
}

Value threadIdOf(OpBuilder &b, Location loc) {
  return gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
}

/// Splits row-major position `linear` into coordinates of `shape`.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<int64_t> shape) {
  SmallVector<Value> coords(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    Value size = indexConstant(b, loc, shape[d]);
    coords[d] = arith::RemUIOp::create(b, loc, linear, size);
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  return coords;
}

/// Row-major position of `coords` in `shape`.
Value linearize(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                ArrayRef<int64_t> shape) {
  Value linear = indexConstant(b, loc, 0);
  for (auto [coord, size] : llvm::zip(coords, shape))
    linear = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, linear, indexConstant(b, loc, size)),
        coord);
  return linear;
}

/// Element `i` of a 1-D vector.
Value extractElement(OpBuilder &b, Location loc, Value vec, int64_t i) {
  return vector::ExtractOp::create(b, loc, vec, ArrayRef<int64_t>{i});
}

/// Elements [start, start + size) of a 1-D vector.
Value extractSlice(OpBuilder &b, Location loc, Value vec, int64_t start,
                   int64_t size) {
  SmallVector<int64_t> mask = llvm::to_vector(llvm::seq(start, start + size));
  return vector::ShuffleOp::create(b, loc, vec, vec, mask);
}

/// The concatenation of 1-D vectors of one type (a power-of-two count).
Value concat(OpBuilder &b, Location loc, SmallVector<Value> parts) {
  while (parts.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i < parts.size(); i += 2) {
      int64_t n = cast<VectorType>(parts[i].getType()).getNumElements();
      SmallVector<int64_t> mask = llvm::to_vector(llvm::seq<int64_t>(0, 2 * n));
      next.push_back(
          vector::ShuffleOp::create(b, loc, parts[i], parts[i + 1], mask));
    }
    parts = std::move(next);
  }
  return parts.front();
}

/// A 1-D vector of `elements` (scalars of one type).
Value fromElements(OpBuilder &b, Location loc, ArrayRef<Value> elements) {
  auto type = VectorType::get({static_cast<int64_t>(elements.size())},
                              elements.front().getType());
  return vector::FromElementsOp::create(b, loc, type, elements);
}

/// Whether every chunk of a tile in `layout` is aligned to its width and
/// wholly inside or outside `view`: when every row of the view is a whole
/// number of chunks.
bool chunksAlignedIn(tile::TensorViewType view, const FragmentLayout &layout) {
  return !layout.replicated &&
         llvm::all_of(view.getShape().drop_front(), [&](int64_t d) {
           return !ShapedType::isDynamic(d) && d % layout.vectorWidth == 0;
         });
}

/// Whether shared memory (f32 words) can hold elements of `type`.
bool fitsScratchWord(Type type) {
  return type.isIntOrFloat() && type.getIntOrFloatBitWidth() <= 32;
}

/// A scalar of `type` as the f32 word it is kept in shared memory, and back;
/// lossless for every type fitsScratchWord accepts.
Value toScratchWord(OpBuilder &b, Location loc, Value v) {
  Type type = v.getType();
  Type f32 = b.getF32Type();
  if (type == f32)
    return v;
  if (isa<FloatType>(type))
    return arith::ExtFOp::create(b, loc, f32, v);
  Type i32 = b.getI32Type();
  if (type != i32)
    v = arith::ExtUIOp::create(b, loc, i32, v);
  return arith::BitcastOp::create(b, loc, f32, v);
}

Value fromScratchWord(OpBuilder &b, Location loc, Value word, Type type) {
  if (type == word.getType())
    return word;
  if (isa<FloatType>(type))
    return arith::TruncFOp::create(b, loc, type, word);
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), word);
  if (type == bits.getType())
    return bits;
  return arith::TruncIOp::create(b, loc, type, bits);
}

/// What blocks exchange an element of `type` as, and combine it in
/// (tile.reduce_across_blocks): f32 for floats, i32 itself.
Type exchangeWordType(Type type) {
  return isa<FloatType>(type) ? Type(Float32Type::get(type.getContext()))
                              : type;
}

/// `v` (a scalar or a vector) as `type`, of the same shape and kind with a
/// wider or narrower element: into and out of the accumulator type of
/// reductions and scans. Integers are signed.
Value convertAccumulator(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  Type from = getElementTypeOrSelf(v.getType()), to = getElementTypeOrSelf(type);
  bool widen = to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth();
  if (isa<FloatType>(to))
    return widen ? Value(arith::ExtFOp::create(b, loc, type, v))
                 : Value(arith::TruncFOp::create(b, loc, type, v));
  return widen ? Value(arith::ExtSIOp::create(b, loc, type, v))
               : Value(arith::TruncIOp::create(b, loc, type, v));
}

/// The encodings that mark, during the pass, the tile values that live in
/// the mma.sync or the wgmma accumulator layout (assignMmaLayouts). They
/// never leave the pass.
constexpr StringLiteral kMmaAccumulator = "tileopt.mma_accumulator";
constexpr StringLiteral kWgmmaAccumulator = "tileopt.wgmma_accumulator";
/// Marks, during the pass, a tile.load copied by TMA with the index of the
/// kernel parameter that holds its tensor map.
constexpr StringLiteral kTensorMapParam = "tileopt.tensor_map_param";

/// The layout of a tile type with `numThreads` threads.
FragmentLayout layoutOf(Type type, int64_t numThreads) {
  auto tensor = cast<RankedTensorType>(type);
  if (auto encoding = dyn_cast_or_null<StringAttr>(tensor.getEncoding())) {
    if (encoding.getValue() == kMmaAccumulator)
      return FragmentLayout::mmaAccumulator(tensor.getShape(), numThreads);
    if (encoding.getValue() == kWgmmaAccumulator)
      return FragmentLayout::wgmmaAccumulator(tensor.getShape(), numThreads);
  }
  return FragmentLayout::blocked(tensor.getShape(), numThreads);
}

/// Whether `mma` was given the wgmma accumulator layout (assignMmaLayouts).
bool isWgmma(tile::MmaOp mma) {
  auto encoding =
      dyn_cast_or_null<StringAttr>(mma.getAcc().getType().getEncoding());
  return encoding && encoding.getValue() == kWgmmaAccumulator;
}

Value addIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value mulIndex(OpBuilder &b, Location loc, Value x, int64_t y) {
  return arith::MulIOp::create(b, loc, x, indexConstant(b, loc, y));
}

/// How an f16/bf16 mma operand tile is laid out when staged in shared
/// memory. ldmatrix reads 8 rows of 16 bytes at once, and rows a multiple of
/// 128 bytes apart would all hit the same banks. For mma.sync, either each
/// row is padded by 16 bytes, or (swizzled) the rows stay packed and the
/// tile's 16-byte chunk q (row-major, 8 to a 128-byte line) moves to
/// q ^ key, key in 0-7 taken from the row (from the line for rows shorter
/// than a line): 8 consecutive rows at one column then use 8 different bank
/// groups, and 8 consecutive chunks (a line) stay in one line. This takes
/// rows of a power of two of chunks, as mma operands have (tile dims are
/// powers of two, K at least 16 and N at least 8).
///
/// wgmma reads its operands through matrix descriptors, which know one
/// such layout: the 128-byte swizzle, where the swizzle key is taken from
/// the address, bits 7-9 (the 128-byte line) into bits 4-6 (the chunk). A
/// tile is staged as column panels of 64 elements (one line per row), one
/// panel after the other, each swizzled like the mma.sync layout of a
/// 64-column tile; the stages start 1024-byte aligned, so that the key of
/// a line is its row modulo 8, as the hardware computes it.
enum class StagingLayout { Padded, Swizzled, Panels };

struct StagedOperand {
  /// Elements of a 16-byte chunk (and of the row padding).
  static constexpr int64_t kChunk = 8;
  /// Elements of a 128-byte line: the width of a Panels panel.
  static constexpr int64_t kPanel = 64;

  StagedOperand(RankedTensorType type, StagingLayout layout)
      : rows(type.getDimSize(0)), cols(type.getDimSize(1)), layout(layout) {}

  int64_t rowStride() const {
    return layout == StagingLayout::Padded ? cols + kChunk : cols;
  }
  int64_t numElements() const { return rows * rowStride(); }

  /// The offset of element (`row`, `col`) from the start of the tile.
  Value offset(OpBuilder &b, Location loc, Value row, Value col) const {
    if (layout == StagingLayout::Padded)
      return addIndex(b, loc, mulIndex(b, loc, row, rowStride()), col);
    auto constant = [&](int64_t v) { return indexConstant(b, loc, v); };
    if (layout == StagingLayout::Panels && cols > kPanel) {
      Value panel = arith::DivUIOp::create(b, loc, col, constant(kPanel));
      Value inPanel = arith::RemUIOp::create(b, loc, col, constant(kPanel));
      return addIndex(b, loc, mulIndex(b, loc, panel, rows * kPanel),
                      swizzledOffset(b, loc, row, inPanel, kPanel));
    }
    return swizzledOffset(b, loc, row, col, cols);
  }

  /// The offset of (`row`, `col`) in a packed, swizzled tile of `width`
  /// columns.
  static Value swizzledOffset(OpBuilder &b, Location loc, Value row, Value col,
                              int64_t width) {
    auto constant = [&](int64_t v) { return indexConstant(b, loc, v); };
    int64_t chunks = width / kChunk;
    Value chunk = addIndex(b, loc, mulIndex(b, loc, row, chunks),
                           arith::DivUIOp::create(b, loc, col, constant(kChunk)));
    Value line = chunks >= 8 ? row
                             : Value(arith::DivUIOp::create(
                                   b, loc, row, constant(8 / chunks)));
    Value key = arith::RemUIOp::create(b, loc, line, constant(8));
    Value moved = arith::XOrIOp::create(b, loc, chunk, key);
    return addIndex(b, loc, mulIndex(b, loc, moved, kChunk),
                    arith::RemUIOp::create(b, loc, col, constant(kChunk)));
  }

  int64_t rows, cols;
  StagingLayout layout;
};

/// The bytes of a shared-memory line: 32 banks of 4 bytes.
constexpr int64_t kSharedLineBytes = 128;

/// How `mma` stages its `operand` tile when it comes from registers: wgmma
/// needs panels. For mma.sync rows of a line or more are padded by 16
/// bytes, as the swizzle's index arithmetic made the 128 x 128 x 64 GEMM
/// spill on that path (620 us against 473 us padded on the H200). Shorter
/// rows are swizzled: padded to 80 bytes, the 16-byte stores of the 8
/// threads that share a store wavefront hit the same banks
/// (rmsnorm_linear_b1's 256x32 tiles: 5.2-way conflicts, 38% of its store
/// wavefronts, ncu), and the swizzle keeps them apart.
StagingLayout registerStagingLayout(tile::MmaOp mma,
                                    RankedTensorType operand) {
  if (isWgmma(mma))
    return StagingLayout::Panels;
  int64_t rowBytes =
      operand.getDimSize(1) * operand.getElementTypeBitWidth() / 8;
  return rowBytes < kSharedLineBytes ? StagingLayout::Swizzled
                                     : StagingLayout::Padded;
}

/// How the cp.async stages of `mma` are laid out.
StagingLayout pipelineStagingLayout(tile::MmaOp mma, bool swizzle) {
  if (isWgmma(mma))
    return StagingLayout::Panels;
  return swizzle ? StagingLayout::Swizzled : StagingLayout::Padded;
}

/// The f16/bf16 elements of shared memory `mma` stages its operands in when
/// they come from registers.
int64_t stagingElements(tile::MmaOp mma) {
  RankedTensorType lhs = mma.getLhs().getType(), rhs = mma.getRhs().getType();
  return StagedOperand(lhs, registerStagingLayout(mma, lhs)).numElements() +
         StagedOperand(rhs, registerStagingLayout(mma, rhs)).numElements();
}

/// How a tile.broadcast, reshape or permute moves its elements.
enum class Relayout {
  /// A one-element source: every thread holds it.
  Splat,
  /// A reshape between equal layouts moves nothing.
  InPlace,
  /// Every warp holds the whole source (a replicated tile of at most 32
  /// elements, lane l holding element l mod n): each element comes from
  /// the lane that holds it.
  Shuffles,
  /// Written to shared memory by source position, read by result position.
  Scratch,
};

Relayout relayoutOf(Operation *op, int64_t numThreads) {
  Type source = op->getOperand(0).getType();
  FragmentLayout in = layoutOf(source, numThreads);
  if (in.numElements == 1)
    return Relayout::Splat;
  if (isa<tile::ReshapeOp>(op) &&
      in == layoutOf(op->getResult(0).getType(), numThreads))
    return Relayout::InPlace;
  if (in.replicated && 32 % in.numElements == 0 &&
      fitsScratchWord(getElementTypeOrSelf(source)))
    return Relayout::Shuffles;
  return Relayout::Scratch;
}

/// The warps that hold parts of one row of a tile.reduce's input `in`,
/// each writing a scratch word for it (ReduceLowering): those side by side
/// along N of an mma accumulator, or those the row's chunks are dealt to
/// (of a replicated tile, only its first numElements threads count).
int64_t reduceWarpsPerRow(const FragmentLayout &in, int64_t numThreads) {
  if (in.kind == FragmentLayout::Kind::Mma)
    return FragmentLayout::mmaWarpGrid(in.shape, numThreads).second;
  int64_t threads = in.replicated ? in.numElements : numThreads;
  int64_t chunksPerRow = in.shape.back() / in.vectorWidth;
  int64_t lanes = std::min<int64_t>(chunksPerRow, 32);
  return std::min(chunksPerRow, threads) / lanes;
}

/// The f32 words of scratch `op` needs, 0 if none.
int64_t scratchWords(Operation *op, int64_t numThreads) {
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    FragmentLayout in = layoutOf(reduce.getInput().getType(), numThreads);
    int64_t rows = in.numElements / in.shape.back();
    return rows * reduceWarpsPerRow(in, numThreads);
  }
  if (auto scan = dyn_cast<tile::ScanOp>(op)) {
    FragmentLayout in = layoutOf(scan.getInput().getType(), numThreads);
    return in.numElements / in.vectorWidth;
  }
  // The tile, or the slices of its combination (ReduceAcrossBlocksLowering).
  if (auto combine = dyn_cast<tile::ReduceAcrossBlocksOp>(op))
    return std::max<int64_t>(combine.getType().getNumElements(), numThreads);
  if (isa<tile::BroadcastOp, tile::ReshapeOp, tile::PermuteOp>(op)) {
    if (relayoutOf(op, numThreads) != Relayout::Scratch)
      return 0;
    return layoutOf(op->getOperand(0).getType(), numThreads).numElements;
  }
  return 0;
}

/// Combines two scalars (or vectors) of the accumulation type.
Value combine(OpBuilder &b, Location loc, CombineKind kind, Value lhs,
              Value rhs) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
  switch (kind) {
  case CombineKind::sum:
    return isFloat ? Value(arith::AddFOp::create(b, loc, lhs, rhs))
                   : Value(arith::AddIOp::create(b, loc, lhs, rhs));
  case CombineKind::prod:
    return isFloat ? Value(arith::MulFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MulIOp::create(b, loc, lhs, rhs));
  case CombineKind::max:
    return isFloat ? Value(arith::MaximumFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
  case CombineKind::min:
    return isFloat ? Value(arith::MinimumFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
  }
  llvm_unreachable("unknown combine kind");
}

vector::CombiningKind vectorKind(CombineKind kind, bool isFloat) {
  switch (kind) {
  case CombineKind::sum:
    return vector::CombiningKind::ADD;
  case CombineKind::prod:
    return vector::CombiningKind::MUL;
  case CombineKind::max:
    return isFloat ? vector::CombiningKind::MAXIMUMF
                   : vector::CombiningKind::MAXSI;
  case CombineKind::min:
    return isFloat ? vector::CombiningKind::MINIMUMF
                   : vector::CombiningKind::MINSI;
  }
  llvm_unreachable("unknown combine kind");
}

/// The neutral element of `kind` for scalars of `type`.
Value identityOf(OpBuilder &b, Location loc, CombineKind kind, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    APFloat value = kind == CombineKind::sum    ? APFloat::getZero(sem)
                    : kind == CombineKind::prod ? APFloat::getOne(sem)
                    : APFloat::getInf(sem, /*Negative=*/kind == CombineKind::max);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = kind == CombineKind::sum    ? APInt::getZero(width)
                : kind == CombineKind::prod ? APInt(width, 1)
                : kind == CombineKind::max  ? APInt::getSignedMinValue(width)
                                            : APInt::getSignedMaxValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

/// The enclosing kernel's workgroup buffer of `elementType` elements: the
/// f32 scratch, or the f16/bf16 mma staging buffer (dynamic shared memory
/// when it is too large for static shared memory).
Value workgroupBuffer(Operation *op, Type elementType) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  auto hasElementType = [&](Value buffer) {
    return cast<MemRefType>(buffer.getType()).getElementType() == elementType;
  };
  for (BlockArgument buffer : func.getWorkgroupAttributions())
    if (hasElementType(buffer))
      return buffer;
  for (auto view : func.getBody().front().getOps<memref::ReinterpretCastOp>())
    if (hasElementType(view))
      return view;
  llvm_unreachable("outlining sized a buffer for every use");
}

Value scratchOf(Operation *op) {
  return workgroupBuffer(op, Float32Type::get(op->getContext()));
}

//===----------------------------------------------------------------------===//
// cp.async pipelines for tile.mma operands
//===----------------------------------------------------------------------===//

/// The deepest shared-memory pipeline: each stage costs a copy of both
/// operand tiles, and three copies in flight cover device memory latency.
constexpr int64_t kMaxStages = 4;
/// The suspend-time hint of mbarrier.try_wait, in nanoseconds (as upstream's
/// nvgpu tests use).
constexpr int64_t kTryWaitTicks = 10000000;

/// An scf.for whose tile.mma ops multiply tiles loaded in its body with a
/// latency hint (isStagedMmaLoop): those tiles are copied with cp.async (or
/// TMA) into a ring of `stages` shared-memory buffers, `stages - 1`
/// iterations ahead; ldmatrix (or wgmma) reads the multiplicands from there.
struct StagedMmaLoop {
  scf::ForOp loop;
  Value inductionVar;
  SmallVector<tile::MmaOp> mmas;
  /// The staged tiles' loads (mmaMultiplicandLoads), how each is laid out
  /// and at which element of a stage it starts.
  SmallVector<tile::LoadOp> loads;
  SmallVector<StagedOperand> tiles;
  SmallVector<int64_t> offsets;
  int64_t stageSize = 0;
  /// The ops of the body that compute the loads' indices from the
  /// induction variable (mmaStagingObstacle), in body order: the copies for
  /// a later iteration repeat them.
  SmallVector<Operation *> indexArithmetic;
  int64_t stages = 0;
  /// Whether the tiles come by TMA (tmaLimit) rather than cp.async.
  bool tma = false;

  /// The elements of one stage: the tiles one after the other, each
  /// starting aligned, and the next stage too.
  int64_t stageElements() const { return stageSize; }
  /// The elements the tiles of one stage fill (a stage may have gaps).
  int64_t tileElements() const {
    int64_t elements = 0;
    for (tile::LoadOp load : loads)
      elements += load.getType().getNumElements();
    return elements;
  }
  /// Which of `loads` gives `tile`.
  unsigned indexOf(Value tile) const {
    return llvm::find(loads, tile.getDefiningOp<tile::LoadOp>()) -
           loads.begin();
  }
  bool wgmma() const { return isWgmma(mmas.front()); }
};

/// The most elements along one dim of a TMA box.
constexpr int64_t kMaxTmaBoxDim = 256;
/// TMA tensor maps take global strides in multiples of 16 bytes.
constexpr int64_t kTmaStrideBytes = 16;

/// Why the tiles of `plan` cannot be copied by TMA (cp.async.bulk.tensor),
/// or "" if they can. The rule: every multiplicand load allows it
/// (`allow_tma`) and the tile.mma ops run on wgmma (sm_90a). There a TMA box
/// of 64 bf16/f16 columns with the 128-byte swizzle lands as one panel of
/// StagingLayout::Panels, the layout wgmma's descriptors read; so a tile of
/// C columns is C / 64 boxes of its rows. mma.sync reads its stages with
/// ldmatrix, in another layout, and keeps cp.async.
std::string tmaLimit(const StagedMmaLoop &plan) {
  if (!plan.wgmma())
    return "TMA feeds the operands of wgmma only (chip sm_90a and a shape "
           "wgmma takes)";
  for (tile::LoadOp load : plan.loads) {
    std::string which;
    llvm::raw_string_ostream(which) << "the " << load.getType() << " load";
    tile::TensorViewType view = load.getView().getType();
    if (view.getRank() != 2)
      return "TMA copies tiles of rank-2 views only; " + which +
             " reads a view of rank " + std::to_string(view.getRank());
    int64_t rowLength = view.getShape()[1];
    int64_t elementBytes = view.getElementType().getIntOrFloatBitWidth() / 8;
    if (ShapedType::isDynamic(rowLength) ||
        rowLength * elementBytes % kTmaStrideBytes != 0)
      return "a TMA tensor map needs rows of a static multiple of " +
             std::to_string(kTmaStrideBytes) + " bytes; " + which +
             " reads rows " +
             (ShapedType::isDynamic(rowLength)
                  ? std::string("of dynamic length")
                  : "of " + std::to_string(rowLength * elementBytes) +
                        " bytes");
    int64_t rows = load.getType().getDimSize(0);
    if (rows > kMaxTmaBoxDim)
      return "a TMA box has at most " + std::to_string(kMaxTmaBoxDim) +
             " rows; " + which + " has " + std::to_string(rows);
    if (!load.getAllowTma())
      return which + " has no allow_tma";
  }
  return "";
}

/// The shared-memory pipeline of `loop`, if a latency hint of 2 or more on
/// its multiplicand loads asks for one (isStagedMmaLoop) and the lowering
/// can build it. With `warn`, a hint that cannot be followed gets a warning
/// that says why; those loads are then lowered without any prefetching.
std::optional<StagedMmaLoop> stagedMmaLoop(scf::ForOp loop, int64_t numThreads,
                                           bool swizzle, bool warn) {
  SmallVector<tile::LoadOp> loads = mmaMultiplicandLoads(loop);
  tile::LoadOp hinted;
  int64_t latency = 1;
  for (tile::LoadOp load : loads)
    if (load.getLatency() && *load.getLatency() > latency) {
      hinted = load;
      latency = *load.getLatency();
    }
  if (!hinted)
    return std::nullopt;
  auto reject = [&](const Twine &why) -> std::optional<StagedMmaLoop> {
    if (warn)
      hinted.emitWarning("latency hint not followed: ") << why;
    return std::nullopt;
  };

  if (std::string why = mmaStagingObstacle(loop); !why.empty())
    return reject(why);
  StagedMmaLoop plan;
  plan.loop = loop;
  plan.inductionVar = loop.getInductionVar();
  plan.mmas = llvm::to_vector(loop.getBody()->getOps<tile::MmaOp>());
  StagingLayout layout = pipelineStagingLayout(plan.mmas.front(), swizzle);
  Type elementType = loads.front().getType().getElementType();
  // ldmatrix reads 16-byte rows; each wgmma panel starts a 1024-byte block.
  int64_t alignment = (plan.wgmma() ? 1024 : 16) * 8 /
                      static_cast<int64_t>(elementType.getIntOrFloatBitWidth());
  if (std::string why = mmaRingObstacle(loop); !why.empty())
    return reject(why);
  int64_t offset = 0;
  for (tile::LoadOp load : loads) {
    RankedTensorType type = load.getType();
    FragmentLayout chunks = layoutOf(type, numThreads);
    if (!chunksAlignedIn(load.getView().getType(), chunks) ||
        chunks.vectorWidth * type.getElementTypeBitWidth() != 128)
      return reject("every 16-byte chunk of the tiles must lie wholly inside "
                    "or outside the view, and each thread must copy whole "
                    "chunks");
    plan.loads.push_back(load);
    plan.tiles.emplace_back(type, layout);
    plan.offsets.push_back(offset);
    offset = llvm::alignTo(offset + plan.tiles.back().numElements(), alignment);
  }
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Value> worklist;
  for (tile::LoadOp load : loads)
    llvm::append_range(worklist, load.getIndices());
  while (!worklist.empty()) {
    Operation *producer = worklist.pop_back_val().getDefiningOp();
    if (producer && producer->getParentOp() == loop &&
        needed.insert(producer).second)
      llvm::append_range(worklist, producer->getOperands());
  }
  for (Operation &op : loop.getBody()->without_terminator())
    if (needed.contains(&op))
      plan.indexArithmetic.push_back(&op);
  plan.stageSize = offset;
  int64_t stageBytes = offset * elementType.getIntOrFloatBitWidth() / 8;
  plan.stages = std::min({latency, kMaxStages, kMaxSharedBytes / stageBytes});
  if (plan.stages < 2)
    return reject(Twine("two stages of ") + Twine(stageBytes) +
                  " bytes do not fit in shared memory");
  plan.tma = tmaLimit(plan).empty();
  return plan;
}

/// The pipeline of the scf.for around `op`, if it has one.
std::optional<StagedMmaLoop>
stagedMmaLoopAround(Operation *op, int64_t numThreads, bool swizzle) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!loop)
    return std::nullopt;
  return stagedMmaLoop(loop, numThreads, swizzle, /*warn=*/false);
}

/// Remarks at each load of `kernel` whose `allow_tma` hint the lowering does
/// not follow, saying why (after assignMmaLayouts: TMA needs wgmma).
void remarkUnusedTma(tile::KernelOp kernel, int64_t numThreads, bool swizzle) {
  kernel.walk([&](tile::LoadOp load) {
    if (!load.getAllowTma())
      return;
    std::string why = "TMA copies only the operands of tile.mma ops "
                      "pipelined in an scf.for (a latency hint of 2 or more)";
    if (std::optional<StagedMmaLoop> plan =
            stagedMmaLoopAround(load, numThreads, swizzle);
        plan && llvm::is_contained(plan->loads, load)) {
      if (plan->tma)
        return;
      why = tmaLimit(*plan);
    }
    load.emitRemark("allow_tma not followed, no TMA: ") << why;
  });
}

//===----------------------------------------------------------------------===//
// What the code generator takes
//===----------------------------------------------------------------------===//

/// tile.reduce and tile.scan combine along the last dim (`verb` names the
/// op in the message); a scan, of a tile that every thread holds a part of.
LogicalResult checkLastDimCombine(Operation *op, RankedTensorType input,
                                  int64_t dim, StringRef verb,
                                  int64_t numThreads) {
  if (dim != input.getRank() - 1)
    return op->emitOpError() << verb << "s dim " << dim
                             << "; the code generator " << verb
                             << "s the last dim only (permute first)";
  if (isa<tile::ScanOp>(op) && layoutOf(input, numThreads).replicated)
    return op->emitOpError("input has ")
           << input.getNumElements() << " elements, fewer than the "
           << numThreads << " threads of a block";
  return success();
}

/// Reports, at the op, the first thing in `kernel` the lowering cannot take.
LogicalResult checkSupported(tile::KernelOp kernel, int64_t numThreads,
                             bool swizzle) {
  WalkResult walk = kernel.walk([&](Operation *op) -> WalkResult {
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                              op->getResultTypes())) {
      if (auto tensor = dyn_cast<RankedTensorType>(type)) {
        FragmentLayout layout = layoutOf(tensor, numThreads);
        if (layout.fragmentSize() > kMaxFragmentSize)
          return op->emitOpError("tile ")
                 << tensor << " gives each of " << numThreads
                 << " threads " << layout.fragmentSize()
                 << " elements, over the limit of " << kMaxFragmentSize
                 << ": use a smaller tile or more warps";
      }
      if (auto view = dyn_cast<tile::TensorViewType>(type))
        if (view.getElementType().isInteger(1))
          return op->emitOpError("views of i1 are not supported: store "
                                 "booleans as i8");
    }
    if (auto mma = dyn_cast<tile::MmaOp>(op)) {
      RankedTensorType lhs = mma.getLhs().getType();
      Type operand = lhs.getElementType();
      if (lhs.getRank() != 2 || !(operand.isF16() || operand.isBF16()) ||
          !mma.getAcc().getType().getElementType().isF32())
        return op->emitOpError("on tensor cores takes rank-2 f16 or bf16 "
                               "operands and an f32 accumulator for now");
      ArrayRef<int64_t> acc = mma.getAcc().getType().getShape();
      auto [warpsM, warpsN] = FragmentLayout::mmaWarpGrid(acc, numThreads);
      if (acc[0] % (16 * warpsM) != 0 || acc[1] % (8 * warpsN) != 0 ||
          lhs.getDimSize(1) % 16 != 0)
        return op->emitOpError("needs M a multiple of ")
               << 16 * warpsM << ", N of " << 8 * warpsN
               << " and K of 16 for mma.sync m16n8k16 on " << warpsM << "x"
               << warpsN << " warps";
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      stagedMmaLoop(loop, numThreads, swizzle, /*warn=*/true);
    if (auto scan = dyn_cast<tile::ScanOp>(op))
      if (failed(checkLastDimCombine(op, scan.getInput().getType(),
                                     scan.getDimAttr().getInt(), "scan",
                                     numThreads)))
        return WalkResult::interrupt();
    if (auto reduce = dyn_cast<tile::ReduceOp>(op))
      if (failed(checkLastDimCombine(op, reduce.getInput().getType(),
                                     reduce.getDimAttr().getInt(), "reduce",
                                     numThreads)))
        return WalkResult::interrupt();
    if (scratchWords(op, numThreads) > 0)
      for (Type type : op->getOperandTypes())
        if (!fitsScratchWord(getElementTypeOrSelf(type)))
          return op->emitOpError("moves ")
                 << getElementTypeOrSelf(type)
                 << " elements through shared memory; only types of up to "
                    "32 bits are supported";
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (isa<RankedTensorType>(constant.getType()) &&
          !isa<SplatElementsAttr>(constant.getValue()))
        return op->emitOpError("tile constants must be splats");
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Accumulator layouts
//===----------------------------------------------------------------------===//

/// The chip whose tensor cores take wgmma (the `a` features of sm_90).
constexpr StringLiteral kWgmmaChip = "sm_90a";
/// The widest wgmma: m64n256k16.
constexpr int64_t kMaxWgmmaN = 256;

/// Why `mma` cannot run on wgmma with `numThreads` threads, or "" if it can:
/// each warpgroup multiplies its share of the rows in m64 slices by the
/// whole of B in one instruction, and both operands are staged in
/// 128-byte-swizzled panels (StagingLayout::Panels), whose rows are whole
/// 128-byte lines.
std::string wgmmaLimit(tile::MmaOp mma, int64_t numThreads) {
  int64_t m = mma.getLhs().getType().getDimSize(0);
  int64_t k = mma.getLhs().getType().getDimSize(1);
  int64_t n = mma.getRhs().getType().getDimSize(1);
  if (mma.getRhsTransposed())
    return "the wgmma lowering reads the rhs N-major only, and this one is "
           "given transposed";
  if (numThreads % 128 != 0)
    return "wgmma needs whole warpgroups (a multiple of 4 warps)";
  int64_t groups = numThreads / 128;
  if (m % (64 * groups) != 0)
    return "wgmma needs M (" + std::to_string(m) + ") a multiple of " +
           std::to_string(64 * groups) + " (64 rows per warpgroup slice)";
  if (k % StagedOperand::kPanel != 0 || n % StagedOperand::kPanel != 0)
    return "wgmma needs K (" + std::to_string(k) + ") and N (" +
           std::to_string(n) +
           ") multiples of 64 (128-byte swizzled rows of bf16/f16)";
  if (n > kMaxWgmmaN)
    return "wgmma needs N (" + std::to_string(n) + ") of at most " +
           std::to_string(kMaxWgmmaN);
  return "";
}

/// Whether the tile.mma ops of `kernel` run on wgmma: on sm_90a, when every
/// one of them can (one accumulator layout serves the whole kernel). Each
/// that cannot gets a remark naming the limit; the kernel then keeps
/// mma.sync.
bool useWgmma(tile::KernelOp kernel, StringRef chip, int64_t numThreads) {
  if (chip != kWgmmaChip)
    return false;
  bool all = true;
  kernel.walk([&](tile::MmaOp mma) {
    std::string limit = wgmmaLimit(mma, numThreads);
    if (limit.empty())
      return;
    mma.emitRemark("runs on mma.sync, not wgmma: ") << limit;
    all = false;
  });
  return all;
}

/// Ops that re-deal a tile through shared memory from any layout into any
/// other (RelayoutLowering): an accumulator may enter or leave its layout
/// through them.
bool isRelayout(Operation *op) {
  return isa<tile::BroadcastOp, tile::ReshapeOp, tile::PermuteOp>(op);
}

bool isElementwiseOnTiles(Operation *op) {
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         !isa<arith::ConstantOp>(op);
}

/// Marks a tile.mma whose left operand the tile.mma just before it in the
/// same block already staged: the same value, with only ops between them
/// that leave shared memory alone (tile loads into registers, elementwise
/// ops on fragments, index arithmetic and constants). Two products of one
/// activation (a gated MLP's X W1 and X W2) then store X once a step, not
/// twice: on the H200 such a loop waited on the shared-memory instruction
/// queue 43% of the time. MmaLowering leaves a marked mma's left operand
/// where its predecessor put it.
constexpr StringLiteral kLhsStagedAttr = "tileopt.lhs_staged";

void markRestagedLhs(tile::KernelOp kernel) {
  kernel.walk([](Block *block) {
    tile::MmaOp previous;
    for (Operation &op : *block) {
      if (auto mma = dyn_cast<tile::MmaOp>(op)) {
        if (previous && previous.getLhs() == mma.getLhs() &&
            registerStagingLayout(previous, previous.getLhs().getType()) ==
                registerStagingLayout(mma, mma.getLhs().getType()))
          mma->setAttr(kLhsStagedAttr, UnitAttr::get(mma.getContext()));
        previous = mma;
        continue;
      }
      bool keepsSharedMemory = isa<tile::LoadOp, arith::ConstantOp>(op) ||
                               isElementwiseOnTiles(&op) || !hasTensorType(&op);
      if (!keepsSharedMemory || op.getNumRegions() > 0)
        previous = nullptr;
    }
  });
}

/// Whether `op` is a tile.reshape that only adds or drops leading unit dims
/// (how the lowering of block graphs restores a tile's rank for its store):
/// an mma.sync accumulator keeps its layout through it, which is the
/// layout of its matrix.
bool reshapesLeadingUnitDims(Operation *op) {
  auto reshape = dyn_cast<tile::ReshapeOp>(op);
  if (!reshape)
    return false;
  auto matrix = [](ArrayRef<int64_t> shape) {
    while (shape.size() > 2 && shape.front() == 1)
      shape = shape.drop_front();
    return shape;
  };
  ArrayRef<int64_t> in = reshape.getInput().getType().getShape();
  ArrayRef<int64_t> out = reshape.getType().getShape();
  return in.size() >= 2 && out.size() >= 2 && matrix(in).size() == 2 &&
         matrix(in) == matrix(out);
}

/// Whether `use` of an mma accumulator needs the tile in the blocked layout:
/// with wgmma, a tile.reduce combines along the rows of that layout and
/// tile.mma stages its multiplicands from it. An mma.sync accumulator is
/// reduced where it lies (ReduceLowering) and staged as a multiplicand
/// from where it lies (forEachStagedChunk: each thread writes its pairs at
/// their places).
bool needsBlockedLayout(OpOperand &use, bool wgmma) {
  if (isa<tile::ReduceOp>(use.getOwner()))
    return wgmma;
  auto mma = dyn_cast<tile::MmaOp>(use.getOwner());
  return wgmma && mma && &use != &mma.getAccMutable();
}

/// Gives the accumulators and results of the tile.mma ops in `kernel`, and
/// everything tied to them (loop-carried values, elementwise ops on them,
/// splat initial values), the mma.sync accumulator layout, or the wgmma one
/// with `wgmma`: their types get the kMmaAccumulator or kWgmmaAccumulator
/// encoding. A wgmma accumulator that a tile.reduce or a tile.mma
/// multiplicand takes (needsBlockedLayout) is re-dealt into the blocked
/// layout for them by a tile.reshape to its own shape, through shared memory
/// (RelayoutLowering); a tile.load that gives an accumulator (a partial result
/// added to an mma's) loads in the blocked layout and is re-dealt the other
/// way. Reports a use that would need another layout.
LogicalResult assignMmaLayouts(tile::KernelOp kernel, bool wgmma) {
  llvm::SetVector<Value> accumulators, redealt, loaded;
  SmallVector<Value> worklist;
  kernel.walk([&](tile::MmaOp mma) {
    worklist.push_back(mma.getAcc());
    worklist.push_back(mma.getResult());
  });
  auto tiedThroughLoop = [&](scf::ForOp loop, unsigned i) {
    worklist.push_back(loop.getInitArgs()[i]);
    worklist.push_back(loop.getRegionIterArgs()[i]);
    worklist.push_back(loop.getResult(i));
    worklist.push_back(loop.getBody()->getTerminator()->getOperand(i));
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!accumulators.insert(value))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return kernel.emitOpError("an mma accumulator is a kernel argument");
      tiedThroughLoop(loop, arg.getArgNumber() - 1);
    } else {
      Operation *producer = value.getDefiningOp();
      if (auto loop = dyn_cast<scf::ForOp>(producer)) {
        tiedThroughLoop(loop, cast<OpResult>(value).getResultNumber());
      } else if (isElementwiseOnTiles(producer)) {
        llvm::append_range(worklist, producer->getOperands());
      } else if (auto constant = dyn_cast<arith::ConstantOp>(producer)) {
        if (!isa<SplatElementsAttr>(constant.getValue()))
          return producer->emitOpError("initializes an mma accumulator; only "
                                       "splat constants can");
      } else if (isa<tile::LoadOp>(producer)) {
        loaded.insert(value);
      } else if (!wgmma && reshapesLeadingUnitDims(producer)) {
        worklist.push_back(producer->getOperand(0));
      } else if (!isa<tile::MmaOp>(producer) && !isRelayout(producer)) {
        return producer->emitOpError(
            "produces an mma accumulator; only tile.mma, tile.load, splat "
            "constants, scf.for and elementwise ops can for now (and "
            "tile.broadcast, reshape and permute, through shared memory)");
      }
    }
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (needsBlockedLayout(use, wgmma)) {
        redealt.insert(value);
      } else if (isa<tile::ReduceOp>(user)) {
        // Reduced in the accumulator layout; the result is blocked.
      } else if (isa<tile::MmaOp>(user)) {
        // The accumulator of a tile.mma, in the worklist from the start, or
        // a multiplicand staged from the accumulator layout.
      } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
        tiedThroughLoop(loop, use.getOperandNumber() - 3);
      } else if (isa<scf::YieldOp>(user) &&
                 isa<scf::ForOp>(user->getParentOp())) {
        tiedThroughLoop(cast<scf::ForOp>(user->getParentOp()),
                        use.getOperandNumber());
      } else if (isElementwiseOnTiles(user)) {
        llvm::append_range(worklist, user->getResults());
        llvm::append_range(worklist, user->getOperands());
      } else if (!wgmma && reshapesLeadingUnitDims(user)) {
        worklist.push_back(user->getResult(0));
      } else if (!isa<tile::StoreOp>(user) && !isRelayout(user)) {
        return user->emitOpError(
            "uses an mma accumulator; only tile.store, elementwise ops and "
            "scf.for take them for now (and tile.broadcast, reshape, "
            "permute, tile.reduce and tile.mma multiplicands, through shared "
            "memory)");
      }
    }
  }
  for (Value value : accumulators) {
    auto type = cast<RankedTensorType>(value.getType());
    value.setType(RankedTensorType::get(
        type.getShape(), type.getElementType(),
        StringAttr::get(kernel.getContext(),
                        wgmma ? kWgmmaAccumulator : kMmaAccumulator)));
  }
  OpBuilder b(kernel.getContext());
  for (Value value : redealt) {
    auto type = cast<RankedTensorType>(value.getType());
    b.setInsertionPointAfterValue(value);
    Value blocked = tile::ReshapeOp::create(b, value.getLoc(),
                                            type.dropEncoding(), value);
    value.replaceUsesWithIf(blocked, [&](OpOperand &use) {
      return needsBlockedLayout(use, wgmma);
    });
  }
  for (Value value : loaded) {
    auto type = cast<RankedTensorType>(value.getType());
    value.setType(type.dropEncoding());
    b.setInsertionPointAfterValue(value);
    auto redeal = tile::ReshapeOp::create(b, value.getLoc(), type, value);
    value.replaceAllUsesExcept(redeal, redeal);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Outlining
//===----------------------------------------------------------------------===//

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
  if (auto global = gpuModule.lookupSymbol<memref::GlobalOp>(
          kDynamicSharedSymbol)) {
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
       b.getNamedAttr("box", b.getI64ArrayAttr({rows, StagedOperand::kPanel}))});
}

/// Moves `kernel` into `gpuModule` as a gpu.func with the kernel ABI.
FailureOr<gpu::GPUFuncOp> outlineKernel(tile::KernelOp kernel,
                                        gpu::GPUModuleOp gpuModule,
                                        int64_t numThreads, bool swizzle) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  int64_t words = 0, staging = 0, tmaStages = 0;
  SmallVector<tile::LoadOp> tmaLoads;
  Type stagingType;
  // ldmatrix reads 16-byte rows; wgmma's 128-byte swizzle is computed from
  // the address, which must start a 1024-byte block (StagingLayout::Panels).
  int64_t stagingAlignment = 16;
  kernel.walk([&](Operation *op) {
    words = std::max(words, scratchWords(op, numThreads));
  });
  WalkResult mixed = kernel.walk([&](tile::MmaOp mma) {
    Type type = mma.getLhs().getType().getElementType();
    if (stagingType && stagingType != type)
      return WalkResult::interrupt();
    stagingType = type;
    if (isWgmma(mma))
      stagingAlignment = 1024;
    std::optional<StagedMmaLoop> pipeline =
        stagedMmaLoopAround(mma, numThreads, swizzle);
    staging = std::max(staging, pipeline ? pipeline->stages *
                                               pipeline->stageElements()
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
    load->setAttr(kTensorMapParam,
                  IntegerAttr::get(IntegerType::get(ctx, 64),
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
    stagingBuffer = MemRefType::get({staging}, stagingType,
                                    MemRefLayoutAttrInterface(),
                                    workgroupMemory);
  int64_t sharedBytes = words * 4 + barrierBytes + staging * 2;
  bool dynamicStaging = sharedBytes > kMaxStaticSharedBytes;
  if (staging > 0 && !dynamicStaging)
    workgroup.push_back(stagingBuffer);
  if (sharedBytes > kMaxSharedBytes)
    return kernel.emitOpError("needs ")
           << sharedBytes << " bytes of shared memory, over the "
           << kMaxSharedBytes << " bytes a block can have; use smaller tiles "
           << "or a lower latency hint";

  OpBuilder b(gpuModule.getBody(), gpuModule.getBody()->end());
  auto func = gpu::GPUFuncOp::create(b, loc, kernel.getSymName(),
                                     b.getFunctionType(paramTypes, {}),
                                     workgroup);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  if (!tensorMaps.empty())
    func->setAttr(kTensorMapsAttr, b.getArrayAttr(tensorMaps));
  if (staging > 0 && !dynamicStaging)
    func.setWorkgroupAttributionAttr(workgroup.size() - 1,
                                     LLVM::LLVMDialect::getAlignAttrName(),
                                     b.getI64IntegerAttr(stagingAlignment));
  func.setKnownBlockSize(ArrayRef<int32_t>{static_cast<int32_t>(numThreads),
                                           1, 1});

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
      replacement = UnrealizedConversionCastOp::create(
                        b, arg.getLoc(), arg.getType(), params)
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

/// Attributes of a tile.reduce_across_blocks that outlining sets for its
/// lowering: the device-memory array its blocks exchange their tiles in,
/// the kernel's grid barrier, and the grid the kernel is launched on.
constexpr StringLiteral kPartialsAttr = "tileopt.partials";
constexpr StringLiteral kGridBarrierAttr = "tileopt.grid_barrier";
constexpr StringLiteral kLaunchGridAttr = "tileopt.launch_grid";

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
    Value address =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, arg);
    Value address64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
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
          b, loc,
          launch.getArgs()[cast<IntegerAttr>(map.get("view")).getInt()],
          llvm::map_to_vector(cast<ArrayAttr>(map.get("box")),
                              [](Attribute size) {
                                return cast<IntegerAttr>(size).getInt();
                              })));
  ArrayRef<int64_t> grid = launch.getGrid();
  gpu::KernelDim3 gridSize{indexConstant(b, loc, grid[0]),
                           indexConstant(b, loc, grid[1]),
                           indexConstant(b, loc, grid[2])};
  gpu::KernelDim3 blockSize{indexConstant(b, loc, numThreads),
                            indexConstant(b, loc, 1),
                            indexConstant(b, loc, 1)};
  Value dynamicSharedBytes;
  if (auto bytes = func->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttr))
    dynamicSharedBytes = arith::ConstantIntOp::create(b, loc, bytes.getInt(), 32);
  gpu::LaunchFuncOp::create(b, loc, func, gridSize, blockSize,
                            dynamicSharedBytes, args);
  launch.erase();
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

class FragmentTypeConverter : public TypeConverter {
public:
  explicit FragmentTypeConverter(int64_t numThreads) {
    addConversion([](Type type) { return type; });
    addConversion([numThreads](RankedTensorType type) -> Type {
      return layoutOf(type, numThreads).fragmentType(type.getElementType());
    });
  }
};

template <typename OpT>
struct TilePattern : public OpConversionPattern<OpT> {
  TilePattern(const TypeConverter &converter, MLIRContext *ctx,
              int64_t numThreads, PatternBenefit benefit = 1)
      : OpConversionPattern<OpT>(converter, ctx, benefit),
        numThreads(numThreads) {}

  FragmentLayout layout(Type type) const { return layoutOf(type, numThreads); }

  int64_t numThreads;
};

struct BlockIdLowering : public TilePattern<tile::BlockIdOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(tile::BlockIdOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::BlockIdOp>(
        op, static_cast<gpu::Dimension>(op.getDim()));
    return success();
  }
};

struct NumBlocksLowering : public TilePattern<tile::NumBlocksOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(tile::NumBlocksOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::GridDimOp>(
        op, static_cast<gpu::Dimension>(op.getDim()));
    return success();
  }
};

/// arith and math ops on tiles: the same op on the fragments, which share
/// one layout because the operands share one shape.
struct ElementwiseLowering : public ConversionPattern {
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      return rewriter.notifyMatchFailure(op, "not an arith or math op");
    SmallVector<Type> resultTypes;
    if (failed(typeConverter->convertTypes(op->getResultTypes(), resultTypes)))
      return rewriter.notifyMatchFailure(op, "result types do not convert");
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto splat = cast<SplatElementsAttr>(constant.getValue());
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, SplatElementsAttr::get(cast<ShapedType>(resultTypes.front()),
                                     splat.getSplatValue<Attribute>()));
      return success();
    }
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct SplatLowering : public TilePattern<tile::SplatOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, type,
                                                     adaptor.getInput());
    return success();
  }
};

struct IotaLowering : public TilePattern<tile::IotaOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(tile::IotaOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentLayout out = layout(op.getType());
    Type elementType = op.getType().getElementType();
    Value tid = threadIdOf(rewriter, loc);
    SmallVector<Value> elements;
    for (int64_t i = 0; i < out.fragmentSize(); ++i)
      elements.push_back(arith::IndexCastOp::create(
          rewriter, loc, elementType, out.linearIndex(rewriter, loc, tid, i)));
    rewriter.replaceOp(op, fromElements(rewriter, loc, elements));
    return success();
  }
};

/// The pointer and the sizes of a view, rebuilt from the kernel parameters
/// outlining bound it to.
struct ViewParams {
  Value pointer;
  /// The size of every dim as an index value (constants for static dims).
  SmallVector<Value> sizes;
};

FailureOr<ViewParams> viewParams(OpBuilder &b, Location loc, Value view) {
  auto cast = view.getDefiningOp<UnrealizedConversionCastOp>();
  if (!cast)
    return failure();
  auto type = llvm::cast<tile::TensorViewType>(view.getType());
  ViewParams params{cast.getInputs().front(), {}};
  ValueRange dynamic = cast.getInputs().drop_front();
  for (int64_t dim : type.getShape()) {
    if (!ShapedType::isDynamic(dim)) {
      params.sizes.push_back(indexConstant(b, loc, dim));
      continue;
    }
    params.sizes.push_back(arith::IndexCastOp::create(
        b, loc, b.getIndexType(), dynamic.front()));
    dynamic = dynamic.drop_front();
  }
  return params;
}

/// Addressing of one tile access (load or store) by the current thread.
class TileAccess {
public:
  TileAccess(OpBuilder &b, Location loc, tile::TensorViewType viewType,
             ViewParams params, ValueRange tileIndices,
             RankedTensorType tileType, const FragmentLayout &layout)
      : b(b), loc(loc), params(std::move(params)), tileType(tileType),
        layout(layout) {
    for (auto [index, size] : llvm::zip(tileIndices, tileType.getShape()))
      origin.push_back(
          arith::MulIOp::create(b, loc, index, indexConstant(b, loc, size)));
    chunksAligned = chunksAlignedIn(viewType, layout);
    int64_t width = layout.vectorWidth;
    int64_t elementBytes = tileType.getElementTypeBitWidth() / 8;
    pieceWidth = chunksAligned
                     ? std::min<int64_t>(width, 16 / std::max<int64_t>(
                                                     elementBytes, 1))
                     : 1;
  }

  /// The row-major coordinates in the view of tile position `linear`.
  SmallVector<Value> viewCoords(Value linear) {
    SmallVector<Value> coords =
        delinearize(b, loc, linear, tileType.getShape());
    for (auto [coord, start] : llvm::zip(coords, origin))
      coord = arith::AddIOp::create(b, loc, coord, start);
    return coords;
  }

  /// Whether the `count` elements from `coords` along the last dim are in
  /// the view.
  Value inBounds(ArrayRef<Value> coords, int64_t count) {
    Value ok;
    for (auto [d, coord] : llvm::enumerate(coords)) {
      Value end = coord;
      if (d + 1 == coords.size() && count > 1)
        end = arith::AddIOp::create(b, loc, coord,
                                    indexConstant(b, loc, count - 1));
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           end, params.sizes[d]);
      ok = ok ? arith::AndIOp::create(b, loc, ok, inside) : inside;
    }
    return ok;
  }

  /// The address of the element at `coords`.
  Value address(ArrayRef<Value> coords) {
    Value offset = coords.front();
    for (size_t d = 1; d < coords.size(); ++d)
      offset = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, offset, params.sizes[d]),
          coords[d]);
    Value offset64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), offset);
    return LLVM::GEPOp::create(b, loc, params.pointer.getType(),
                               tileType.getElementType(), params.pointer,
                               ValueRange{offset64});
  }

  /// Calls `visit(address, offset, piece, bytes)` for each memory
  /// instruction of an access of `width` elements from `coords`: `piece`
  /// elements starting at element `offset`, `bytes`-aligned.
  void forEachPiece(
      ArrayRef<Value> coords, int64_t width,
      function_ref<void(Value, int64_t, int64_t, int64_t)> visit) {
    int64_t piece = std::min(pieceWidth, width);
    int64_t bytes = piece * tileType.getElementTypeBitWidth() / 8;
    for (int64_t offset = 0; offset < width; offset += piece) {
      SmallVector<Value> at(coords);
      at.back() = arith::AddIOp::create(b, loc, at.back(),
                                        indexConstant(b, loc, offset));
      visit(address(at), offset, piece, bytes);
    }
  }

  OpBuilder &b;
  Location loc;
  ViewParams params;
  RankedTensorType tileType;
  const FragmentLayout &layout;
  SmallVector<Value> origin;
  bool chunksAligned = false;
  /// Elements per load or store instruction.
  int64_t pieceWidth = 1;
};

/// The padding value of a load, as a scalar of `type`.
Value paddingValue(OpBuilder &b, Location loc, Type type,
                   std::optional<tile::PaddingMode> mode) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
  const llvm::fltSemantics &sem = floatType.getFloatSemantics();
  APFloat value = APFloat::getZero(sem);
  switch (mode.value_or(tile::PaddingMode::zero)) {
  case tile::PaddingMode::undetermined:
  case tile::PaddingMode::zero:
    break;
  case tile::PaddingMode::neg_zero:
    value = APFloat::getZero(sem, /*Negative=*/true);
    break;
  case tile::PaddingMode::nan:
    value = APFloat::getQNaN(sem);
    break;
  case tile::PaddingMode::pos_inf:
    value = APFloat::getInf(sem);
    break;
  case tile::PaddingMode::neg_inf:
    value = APFloat::getInf(sem, /*Negative=*/true);
    break;
  }
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// The addressing of `tileType` at tile `indices` of the kernel-argument view
/// `view` (as adapted by the conversion), or failure for any other view.
FailureOr<TileAccess> tileAccess(OpBuilder &b, Location loc, Value view,
                                 ValueRange indices, RankedTensorType tileType,
                                 const FragmentLayout &layout) {
  FailureOr<ViewParams> params = viewParams(b, loc, view);
  if (failed(params))
    return failure();
  return TileAccess(b, loc, cast<tile::TensorViewType>(view.getType()),
                    *params, indices, tileType, layout);
}

/// Calls `access(first, coords, width)` for every access the current thread
/// makes for its fragment: one per chunk (`width` = the chunk width) when
/// chunks are aligned and wholly inside or outside the view, else one per
/// element (`width` = 1). `first` is the fragment index of the first element,
/// `coords` its position in the view.
void forEachAccess(
    OpBuilder &b, TileAccess &access, Value tid,
    function_ref<void(int64_t, ArrayRef<Value>, int64_t)> visit) {
  const FragmentLayout &layout = access.layout;
  int64_t width = layout.vectorWidth;
  for (int64_t first = 0; first < layout.fragmentSize(); first += width) {
    SmallVector<Value> coords =
        access.viewCoords(layout.linearIndex(b, access.loc, tid, first));
    if (access.chunksAligned) {
      visit(first, coords, width);
      continue;
    }
    for (int64_t i = 0; i < width; ++i) {
      SmallVector<Value> at(coords);
      at.back() = arith::AddIOp::create(b, access.loc, at.back(),
                                        indexConstant(b, access.loc, i));
      visit(first + i, at, 1);
    }
  }
}

struct LoadLowering : public TilePattern<tile::LoadOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType tileType = op.getType();
    FragmentLayout out = layout(tileType);
    FailureOr<TileAccess> access = tileAccess(
        rewriter, loc, adaptor.getView(), adaptor.getIndices(), tileType, out);
    if (failed(access))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    Value pad = paddingValue(rewriter, loc, tileType.getElementType(),
                             op.getPadding());
    SmallVector<Value> pieces;
    forEachAccess(rewriter, *access, threadIdOf(rewriter, loc),
                  [&](int64_t, ArrayRef<Value> coords, int64_t width) {
                    pieces.push_back(
                        loadChunk(rewriter, *access, coords, pad, width));
                  });
    // Element-wise accesses give one-element vectors: concatenating them in
    // order rebuilds the fragment either way.
    rewriter.replaceOp(op, concat(rewriter, loc, pieces));
    return success();
  }

  /// Loads `width` elements from `coords`, or `pad` where they are outside.
  static Value loadChunk(OpBuilder &b, TileAccess &access,
                         ArrayRef<Value> coords, Value pad, int64_t width) {
    Location loc = access.loc;
    auto chunkType = VectorType::get({width}, pad.getType());
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{chunkType},
                                  access.inBounds(coords, width),
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> pieces;
    access.forEachPiece(coords, width,
                        [&](Value address, int64_t, int64_t piece,
                            int64_t bytes) {
                          pieces.push_back(LLVM::LoadOp::create(
                              b, loc, VectorType::get({piece}, pad.getType()),
                              address, bytes));
                        });
    scf::YieldOp::create(b, loc, concat(b, loc, pieces));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(
        b, loc, ValueRange{vector::BroadcastOp::create(b, loc, chunkType, pad)});
    return ifOp.getResult(0);
  }
};

struct StoreLowering : public TilePattern<tile::StoreOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType tileType = op.getValue().getType();
    FragmentLayout in = layout(tileType);
    FailureOr<TileAccess> access = tileAccess(
        rewriter, loc, adaptor.getView(), adaptor.getIndices(), tileType, in);
    if (failed(access))
      return rewriter.notifyMatchFailure(op, "view is not a kernel argument");
    Value fragment = adaptor.getValue();
    Value tid = threadIdOf(rewriter, loc);
    // Of a replicated tile, only the first copy is written.
    Value writer;
    if (in.replicated)
      writer = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, tid,
          indexConstant(rewriter, loc, in.numElements));
    forEachAccess(rewriter, *access, tid,
                  [&](int64_t first, ArrayRef<Value> coords, int64_t width) {
                    storeChunk(rewriter, *access, coords,
                               extractSlice(rewriter, loc, fragment, first,
                                            width),
                               width, writer);
                  });
    rewriter.eraseOp(op);
    return success();
  }

  static void storeChunk(OpBuilder &b, TileAccess &access,
                         ArrayRef<Value> coords, Value chunk, int64_t width,
                         Value writer) {
    Location loc = access.loc;
    Value condition = access.inBounds(coords, width);
    if (writer)
      condition = arith::AndIOp::create(b, loc, condition, writer);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, condition,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    access.forEachPiece(coords, width,
                        [&](Value address, int64_t offset, int64_t piece,
                            int64_t bytes) {
                          LLVM::StoreOp::create(
                              b, loc, extractSlice(b, loc, chunk, offset, piece),
                              address, bytes);
                        });
  }
};

/// tile.reduce over the last dim: per-thread, then across the lanes that
/// share a row (butterfly shuffles), then across warps through shared
/// memory, from where every thread reads the rows its result fragment holds.
/// A replicated input (fewer elements than threads, thread t holding element
/// t mod N) is reduced by its first N threads, an element each: its rows
/// are whole powers of two of consecutive threads, and the copies in the
/// other threads shuffle among themselves and write nothing. An mma.sync
/// accumulator is reduced where it lies: each thread holds two rows of
/// every m16n8 tile, the four lanes of a quad share them, and the warps
/// side by side along N each write a word per row.
struct ReduceLowering : public TilePattern<tile::ReduceOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentLayout in = layout(op.getInput().getType());
    CombineKind kind = op.getKind();
    Type elementType = op.getType().getElementType();
    bool isFloat = isa<FloatType>(elementType);
    // Accumulate in 32 bits: f16/bf16 sums lose too much otherwise.
    Type accType =
        isFloat ? Type(rewriter.getF32Type()) : Type(rewriter.getI32Type());
    Value tid = threadIdOf(rewriter, loc);
    Value scratch = scratchOf(op);
    auto index = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
    auto accumulate = [&](Value acc, Value v) {
      return acc ? combine(rewriter, loc, kind, acc, v) : v;
    };
    // Combines `partial` over the lanes `offset`s apart, down to 1.
    auto shuffleDown = [&](Value partial, int64_t offset) {
      for (; offset >= 1; offset /= 2) {
        Value other = gpu::ShuffleOp::create(rewriter, loc, partial, offset,
                                             /*width=*/32,
                                             gpu::ShuffleMode::XOR)
                          .getShuffleResult();
        partial = combine(rewriter, loc, kind, partial, other);
      }
      return partial;
    };
    // The thread's elements [first, first + width) of the input, reduced.
    auto reduceSlice = [&](int64_t first, int64_t width) -> Value {
      Value slice = convertAccumulator(
          rewriter, loc,
          extractSlice(rewriter, loc, adaptor.getInput(), first, width),
          VectorType::get({width}, accType));
      return vector::ReductionOp::create(rewriter, loc,
                                         vectorKind(kind, isFloat), slice);
    };
    // Writes `partial` where `isWriter`, as the word of warp `warpInRow` of
    // the warps that share `row`.
    int64_t warpsPerRow = reduceWarpsPerRow(in, numThreads);
    auto writeRow = [&](Value partial, Value row, Value warpInRow,
                        Value isWriter) {
      Value word = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, row, index(warpsPerRow)),
          warpInRow);
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, isWriter,
                                    /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      memref::StoreOp::create(rewriter, loc,
                              toScratchWord(rewriter, loc, partial), scratch,
                              ValueRange{word});
    };

    gpu::BarrierOp::create(rewriter, loc);
    if (in.kind == FragmentLayout::Kind::Mma) {
      auto [warpsM, warpsN] = FragmentLayout::mmaWarpGrid(in.shape, numThreads);
      int64_t rowsPerWarp = in.shape[0] / warpsM;
      int64_t tilesN = in.shape[1] / warpsN / 8;
      Value warp = arith::DivUIOp::create(rewriter, loc, tid, index(32));
      Value lane = arith::RemUIOp::create(rewriter, loc, tid, index(32));
      Value firstRow = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(
              rewriter, loc,
              arith::DivUIOp::create(rewriter, loc, warp, index(warpsN)),
              index(rowsPerWarp)),
          arith::DivUIOp::create(rewriter, loc, lane, index(4)));
      Value warpInRow =
          arith::RemUIOp::create(rewriter, loc, warp, index(warpsN));
      Value isWriter = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(rewriter, loc, lane, index(4)), index(0));
      // Elements c0, c1 of tile t are in row lane / 4 of its m16 slice, c2,
      // c3 eight rows below; the warp's tiles are row-major, tilesN a row.
      for (int64_t tileRow = 0; tileRow < rowsPerWarp / 16; ++tileRow) {
        for (int64_t half = 0; half < 2; ++half) {
          Value partial;
          for (int64_t tileCol = 0; tileCol < tilesN; ++tileCol) {
            int64_t first = (tileRow * tilesN + tileCol) * 4 + half * 2;
            partial = accumulate(partial, reduceSlice(first, 2));
          }
          partial = shuffleDown(partial, 2);
          Value row = arith::AddIOp::create(rewriter, loc, firstRow,
                                            index(tileRow * 16 + half * 8));
          writeRow(partial, row, warpInRow, isWriter);
        }
      }
    } else {
      int64_t width = in.vectorWidth;
      int64_t threads = in.replicated ? in.numElements : numThreads;
      int64_t cols = in.shape.back();
      int64_t chunksPerRow = cols / width;
      int64_t slotsPerRow = std::max<int64_t>(chunksPerRow / threads, 1);
      int64_t lanes = std::min<int64_t>(chunksPerRow, 32);
      for (int64_t slot = 0; slot < in.chunksPerThread; slot += slotsPerRow) {
        // This thread's part of one row.
        Value partial;
        for (int64_t s = slot; s < slot + slotsPerRow; ++s)
          partial = accumulate(partial, reduceSlice(s * width, width));
        // ... combined over the lanes of the warp that hold the same row.
        partial = shuffleDown(partial, lanes / 2);
        // ... and written, one word per warp and row.
        Value row = chunksPerRow > threads
                        ? index(slot / slotsPerRow)
                        : Value(arith::DivUIOp::create(
                              rewriter, loc,
                              arith::AddIOp::create(rewriter, loc, tid,
                                                    index(slot * threads)),
                              index(chunksPerRow)));
        Value laneInGroup =
            arith::RemUIOp::create(rewriter, loc, tid, index(lanes));
        Value isWriter = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, laneInGroup, index(0));
        if (in.replicated)
          isWriter = arith::AndIOp::create(
              rewriter, loc, isWriter,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                    tid, index(threads)));
        Value warpInRow = arith::DivUIOp::create(
            rewriter, loc,
            arith::RemUIOp::create(rewriter, loc, tid,
                                   index(std::min(chunksPerRow, threads))),
            index(lanes));
        writeRow(partial, row, warpInRow, isWriter);
      }
    }
    gpu::BarrierOp::create(rewriter, loc);

    FragmentLayout out = layout(op.getType());
    SmallVector<Value> results;
    for (int64_t i = 0; i < out.fragmentSize(); ++i) {
      Value row = out.linearIndex(rewriter, loc, tid, i);
      Value base =
          arith::MulIOp::create(rewriter, loc, row, index(warpsPerRow));
      Value acc;
      for (int64_t w = 0; w < warpsPerRow; ++w) {
        Value at = arith::AddIOp::create(rewriter, loc, base, index(w));
        Value word = memref::LoadOp::create(rewriter, loc, scratch, at);
        acc = accumulate(acc, fromScratchWord(rewriter, loc, word, accType));
      }
      results.push_back(convertAccumulator(rewriter, loc, acc, elementType));
    }
    rewriter.replaceOp(op, fromElements(rewriter, loc, results));
    return success();
  }
};

/// tile.scan over the last dim: an inclusive scan inside each chunk, then a
/// segmented (per row) Hillis-Steele scan of the chunk totals in shared
/// memory, log2(chunks per row) steps, from which each chunk takes the
/// combination of the chunks before it (after it, with `reverse`).
struct ScanLowering : public TilePattern<tile::ScanOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FragmentLayout in = layout(op.getType());
    CombineKind kind = op.getKind();
    bool reverse = op.getReverse();
    Type elementType = op.getType().getElementType();
    bool isFloat = isa<FloatType>(elementType);
    Type accType = isFloat ? Type(rewriter.getF32Type())
                           : Type(rewriter.getI32Type());
    int64_t width = in.vectorWidth;
    int64_t chunksPerRow = in.shape.back() / width;
    Value tid = threadIdOf(rewriter, loc);
    Value scratch = scratchOf(op);
    Value identity = identityOf(rewriter, loc, kind, accType);
    auto constant = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
    // In scan order, `earlier` comes before `later`.
    auto combineInOrder = [&](Value earlier, Value later) {
      return reverse ? combine(rewriter, loc, kind, later, earlier)
                     : combine(rewriter, loc, kind, earlier, later);
    };
    auto widen = [&](Value v) {
      return convertAccumulator(rewriter, loc, v, accType);
    };

    // Inclusive scans inside the chunks.
    SmallVector<SmallVector<Value>> scanned(in.chunksPerThread);
    SmallVector<Value> chunkIds, totals;
    for (int64_t j = 0; j < in.chunksPerThread; ++j) {
      SmallVector<Value> elements;
      for (int64_t i = 0; i < width; ++i)
        elements.push_back(
            widen(extractElement(rewriter, loc, adaptor.getInput(),
                                 j * width + i)));
      scanned[j].resize(width);
      Value running;
      for (int64_t step = 0; step < width; ++step) {
        int64_t i = reverse ? width - 1 - step : step;
        running = running ? combineInOrder(running, elements[i]) : elements[i];
        scanned[j][i] = running;
      }
      totals.push_back(running);
      chunkIds.push_back(arith::AddIOp::create(rewriter, loc, tid,
                                               constant(j * numThreads)));
    }

    // Segmented scan of the chunk totals.
    gpu::BarrierOp::create(rewriter, loc);
    for (auto [id, total] : llvm::zip(chunkIds, totals))
      memref::StoreOp::create(rewriter, loc,
                              toScratchWord(rewriter, loc, total), scratch, id);
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> positions;
    for (Value id : chunkIds)
      positions.push_back(
          arith::RemUIOp::create(rewriter, loc, id, constant(chunksPerRow)));
    // The chunk `distance` away in scan order, in the same row, if any.
    auto neighbour = [&](Value id, Value position,
                         int64_t distance) -> std::pair<Value, Value> {
      Value exists =
          reverse ? arith::CmpIOp::create(
                        rewriter, loc, arith::CmpIPredicate::ult,
                        arith::AddIOp::create(rewriter, loc, position,
                                              constant(distance)),
                        constant(chunksPerRow))
                  : arith::CmpIOp::create(rewriter, loc,
                                          arith::CmpIPredicate::uge, position,
                                          constant(distance));
      Value other =
          reverse ? arith::AddIOp::create(rewriter, loc, id, constant(distance))
                        .getResult()
                  : arith::SubIOp::create(rewriter, loc, id, constant(distance))
                        .getResult();
      // Read a valid address either way; the select below drops it.
      Value at = arith::SelectOp::create(rewriter, loc, exists, other, id);
      Value word = memref::LoadOp::create(rewriter, loc, scratch, at);
      return {exists, fromScratchWord(rewriter, loc, word, accType)};
    };
    for (int64_t distance = 1; distance < chunksPerRow; distance *= 2) {
      SmallVector<Value> updated;
      for (auto [id, position] : llvm::zip(chunkIds, positions)) {
        Value mine = fromScratchWord(
            rewriter, loc, memref::LoadOp::create(rewriter, loc, scratch, id),
            accType);
        auto [exists, other] = neighbour(id, position, distance);
        updated.push_back(arith::SelectOp::create(
            rewriter, loc, exists, combineInOrder(other, mine), mine));
      }
      gpu::BarrierOp::create(rewriter, loc);
      for (auto [id, value] : llvm::zip(chunkIds, updated))
        memref::StoreOp::create(rewriter, loc,
                                toScratchWord(rewriter, loc, value), scratch,
                                id);
      gpu::BarrierOp::create(rewriter, loc);
    }

    // Each element: the chunks before its chunk, then its in-chunk scan.
    SmallVector<Value> results;
    for (int64_t j = 0; j < in.chunksPerThread; ++j) {
      auto [exists, before] = neighbour(chunkIds[j], positions[j], 1);
      Value carry = arith::SelectOp::create(rewriter, loc, exists, before,
                                            identity);
      for (Value element : scanned[j]) {
        results.push_back(convertAccumulator(
            rewriter, loc, combineInOrder(carry, element), elementType));
      }
    }
    rewriter.replaceOp(op, fromElements(rewriter, loc, results));
    return success();
  }
};

/// Writes each element of `fragment` (laid out as `layout`) as an f32 word
/// at its row-major position in `scratch`; of a replicated tile, only the
/// first numElements threads write.
void storeToScratch(OpBuilder &b, Location loc, Value fragment,
                    const FragmentLayout &layout, Value scratch) {
  Value tid = threadIdOf(b, loc);
  Value writer;
  if (layout.replicated)
    writer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                   indexConstant(b, loc, layout.numElements));
  for (int64_t i = 0; i < layout.fragmentSize(); ++i) {
    Value word = toScratchWord(b, loc, extractElement(b, loc, fragment, i));
    Value at = layout.linearIndex(b, loc, tid, i);
    if (!writer) {
      memref::StoreOp::create(b, loc, word, scratch, at);
      continue;
    }
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, writer,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::StoreOp::create(b, loc, word, scratch, at);
  }
}

/// The fragment of a tile laid out as `layout` whose element at each
/// row-major position p is the word at `sourceOf(p)` in `scratch`.
Value loadFromScratch(OpBuilder &b, Location loc, const FragmentLayout &layout,
                      Type elementType, Value scratch,
                      function_ref<Value(Value)> sourceOf) {
  Value tid = threadIdOf(b, loc);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < layout.fragmentSize(); ++i) {
    Value position = layout.linearIndex(b, loc, tid, i);
    Value word = memref::LoadOp::create(b, loc, scratch, sourceOf(position));
    elements.push_back(fromScratchWord(b, loc, word, elementType));
  }
  return fromElements(b, loc, elements);
}

/// Moves a tile between layouts through shared memory: each thread writes
/// its elements at their row-major position in the source, then reads, for
/// every element of its result fragment, the source position `sourceOf`
/// gives; or without memory, as relayoutOf says: a source that every warp
/// holds whole (the row maxima and sums of a decode step's 16 rows,
/// broadcast over their columns) moves by warp shuffles, with no barrier.
template <typename OpT>
struct RelayoutLowering : public TilePattern<OpT> {
  using TilePattern<OpT>::TilePattern;
  using OpAdaptor = typename TilePattern<OpT>::OpAdaptor;

  virtual Value sourceOf(OpBuilder &b, Location loc, OpT op,
                         Value resultPosition) const = 0;

  LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type sourceType = op.getInput().getType();
    FragmentLayout in = this->layout(sourceType);
    FragmentLayout out = this->layout(op.getType());
    Value fragment = adaptor.getInput();
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    Relayout how = relayoutOf(op, this->numThreads);
    if (how == Relayout::Splat) {
      rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
          op, resultType, extractElement(rewriter, loc, fragment, 0));
      return success();
    }
    if (how == Relayout::InPlace) {
      rewriter.replaceOp(op, fragment);
      return success();
    }
    Type elementType = getElementTypeOrSelf(sourceType);
    if (how == Relayout::Shuffles) {
      Value word = toScratchWord(rewriter, loc,
                                 extractElement(rewriter, loc, fragment, 0));
      Value tid = threadIdOf(rewriter, loc);
      Value width = arith::ConstantIntOp::create(rewriter, loc, 32, 32);
      SmallVector<Value> elements;
      for (int64_t i = 0; i < out.fragmentSize(); ++i) {
        Value source =
            sourceOf(rewriter, loc, op, out.linearIndex(rewriter, loc, tid, i));
        Value lane = arith::IndexCastUIOp::create(
            rewriter, loc, rewriter.getI32Type(), source);
        Value moved = gpu::ShuffleOp::create(rewriter, loc, word, lane, width,
                                             gpu::ShuffleMode::IDX)
                          .getShuffleResult();
        elements.push_back(fromScratchWord(rewriter, loc, moved, elementType));
      }
      rewriter.replaceOp(op, fromElements(rewriter, loc, elements));
      return success();
    }

    Value scratch = scratchOf(op);
    gpu::BarrierOp::create(rewriter, loc);
    storeToScratch(rewriter, loc, fragment, in, scratch);
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, loadFromScratch(rewriter, loc, out, elementType,
                                           scratch, [&](Value position) {
                                             return sourceOf(rewriter, loc, op,
                                                             position);
                                           }));
    return success();
  }
};

struct ReshapeLowering : public RelayoutLowering<tile::ReshapeOp> {
  using RelayoutLowering::RelayoutLowering;
  Value sourceOf(OpBuilder &, Location, tile::ReshapeOp,
                 Value position) const override {
    return position;
  }
};

struct BroadcastLowering : public RelayoutLowering<tile::BroadcastOp> {
  using RelayoutLowering::RelayoutLowering;
  Value sourceOf(OpBuilder &b, Location loc, tile::BroadcastOp op,
                 Value position) const override {
    ArrayRef<int64_t> source = op.getInput().getType().getShape();
    SmallVector<Value> coords =
        delinearize(b, loc, position, op.getType().getShape());
    for (auto [coord, size] : llvm::zip(coords, source))
      if (size == 1)
        coord = indexConstant(b, loc, 0);
    return linearize(b, loc, coords, source);
  }
};

struct PermuteLowering : public RelayoutLowering<tile::PermuteOp> {
  using RelayoutLowering::RelayoutLowering;
  Value sourceOf(OpBuilder &b, Location loc, tile::PermuteOp op,
                 Value position) const override {
    SmallVector<Value> coords =
        delinearize(b, loc, position, op.getType().getShape());
    SmallVector<Value> sourceCoords(coords.size());
    for (auto [i, p] : llvm::enumerate(op.getPermutation()))
      sourceCoords[p] = coords[i];
    return linearize(b, loc, sourceCoords,
                     op.getInput().getType().getShape());
  }
};

/// Runs what `body` builds in the first thread of the block alone.
void inFirstThread(OpBuilder &b, Location loc, function_ref<void()> body) {
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            threadIdOf(b, loc), indexConstant(b, loc, 0));
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, isFirst,
                                /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

/// The syncscope of LLVM atomics that the NVPTX backend emits as .gpu: what
/// blocks on different SMs synchronize at.
constexpr StringLiteral kDeviceScope = "device";

/// A pointer to element `index` (i64) of the device-memory global `symbol`
/// of `elementType` elements.
Value globalElement(OpBuilder &b, Location loc, FlatSymbolRefAttr symbol,
                    Type elementType, Value index) {
  auto pointer = LLVM::LLVMPointerType::get(b.getContext(), 1);
  Value base = LLVM::AddressOfOp::create(b, loc, pointer, symbol.getValue());
  return LLVM::GEPOp::create(b, loc, pointer, elementType, base,
                             ValueRange{index});
}

Value i64Index(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// Makes the first thread of every block wait until the first threads of
/// all `blocks` blocks have arrived: a generation-counting barrier on
/// `state` = {arrivals, generation}. A block reads the generation, then
/// arrives; the last to arrive resets the count and starts the next
/// generation, which the others wait for. The count is back at zero for the
/// next barrier of the launch, or the next launch. As cooperative groups'
/// grid sync does, the thread fences at device scope before arriving (its
/// block's writes, ordered before it by the block barrier, are then seen by
/// every block that sees the arrival) and after waiting.
void gridBarrier(OpBuilder &b, Location loc, FlatSymbolRefAttr state,
                 int64_t blocks) {
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, kDeviceScope);
  Type i32 = b.getI32Type();
  Value arrivals = globalElement(b, loc, state, i32, i64Constant(b, loc, 0));
  Value generation = globalElement(b, loc, state, i32, i64Constant(b, loc, 1));
  auto load = [&](Value at, LLVM::AtomicOrdering ordering) {
    return LLVM::LoadOp::create(b, loc, i32, at, /*alignment=*/4,
                                /*isVolatile=*/false, /*isNonTemporal=*/false,
                                /*isInvariant=*/false,
                                /*isInvariantGroup=*/false, ordering,
                                kDeviceScope);
  };
  Value seen = load(generation, LLVM::AtomicOrdering::acquire);
  Value arrived = LLVM::AtomicRMWOp::create(
      b, loc, LLVM::AtomicBinOp::add, arrivals,
      arith::ConstantIntOp::create(b, loc, 1, 32),
      LLVM::AtomicOrdering::monotonic, kDeviceScope, /*alignment=*/4);
  Value last = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, arrived,
      arith::ConstantIntOp::create(b, loc, blocks - 1, 32));
  auto ifLast = scf::IfOp::create(b, loc, TypeRange{}, last,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifLast.thenBlock());
  LLVM::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, 0, 32),
                        arrivals, /*alignment=*/4, /*isVolatile=*/false,
                        /*isNonTemporal=*/false, /*isInvariantGroup=*/false,
                        LLVM::AtomicOrdering::monotonic, kDeviceScope);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, kDeviceScope);
  LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, generation,
                            arith::ConstantIntOp::create(b, loc, 1, 32),
                            LLVM::AtomicOrdering::monotonic, kDeviceScope,
                            /*alignment=*/4);
  b.setInsertionPointToStart(ifLast.elseBlock());
  auto wait = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
  b.createBlock(&wait.getBefore());
  Value now = load(generation, LLVM::AtomicOrdering::acquire);
  scf::ConditionOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, now, seen),
      ValueRange{});
  b.createBlock(&wait.getAfter());
  NVVM::NanosleepOp::create(b, loc,
                            arith::ConstantIntOp::create(b, loc, 32, 32));
  scf::YieldOp::create(b, loc);
  b.setInsertionPointAfter(ifLast);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, kDeviceScope);
}

/// Calls `body(e)` for the elements e < n this thread owns: e = tid,
/// tid + numThreads, ...
void forOwnedElements(OpBuilder &b, Location loc, int64_t n, int64_t numThreads,
                      function_ref<void(Value)> body) {
  auto loop =
      scf::ForOp::create(b, loc, threadIdOf(b, loc), indexConstant(b, loc, n),
                         indexConstant(b, loc, numThreads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  body(loop.getInductionVar());
}

/// tile.reduce_across_blocks: the block's tile goes to shared memory by
/// position, then a word per element to its row of the partials array in
/// device memory (one row per block of the launch grid). After the grid
/// barrier, each element is combined over the rows of the blocks of its
/// group (relaxed loads at device scope, which L1 does not serve stale), in
/// a fixed order, and dealt back through shared memory.
struct ReduceAcrossBlocksLowering
    : public TilePattern<tile::ReduceAcrossBlocksOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::ReduceAcrossBlocksOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto partials = op->getAttrOfType<FlatSymbolRefAttr>(kPartialsAttr);
    auto barrier = op->getAttrOfType<FlatSymbolRefAttr>(kGridBarrierAttr);
    auto grid = op->getAttrOfType<DenseI64ArrayAttr>(kLaunchGridAttr);
    if (!partials || !barrier || !grid)
      return rewriter.notifyMatchFailure(op, "not prepared by outlining");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    FragmentLayout tile = layout(op.getType());
    Type elementType = op.getType().getElementType();
    Type wordType = exchangeWordType(elementType);
    int64_t n = tile.numElements;
    Value scratch = scratchOf(op);

    gpu::BarrierOp::create(b, loc);
    storeToScratch(b, loc, adaptor.getInput(), tile, scratch);
    gpu::BarrierOp::create(b, loc);

    SmallVector<Value, 3> block;
    for (gpu::Dimension d :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
      block.push_back(gpu::BlockIdOp::create(b, loc, d));
    // Block order: x fastest.
    SmallVector<int64_t, 3> order(llvm::reverse(grid.asArrayRef()));
    auto linearBlock = [&](ArrayRef<Value> coords) {
      return linearize(b, loc, SmallVector<Value>(llvm::reverse(coords)),
                       order);
    };
    auto partialAt = [&](Value blockIndex, Value element) {
      Value row =
          arith::MulIOp::create(b, loc, blockIndex, indexConstant(b, loc, n));
      return globalElement(b, loc, partials, wordType,
                           i64Index(b, loc, addIndex(b, loc, row, element)));
    };
    Value self = linearBlock(block);
    forOwnedElements(b, loc, n, numThreads, [&](Value e) {
      Value word = fromScratchWord(
          b, loc, memref::LoadOp::create(b, loc, scratch, e), wordType);
      LLVM::StoreOp::create(b, loc, word, partialAt(self, e));
    });
    gpu::BarrierOp::create(b, loc);
    int64_t blocks = grid[0] * grid[1] * grid[2];
    inFirstThread(b, loc, [&] { gridBarrier(b, loc, barrier, blocks); });
    gpu::BarrierOp::create(b, loc);

    // Each element is combined over the group's blocks in `slices` strided
    // slices, one thread each, so that their loads from device memory are
    // in flight side by side; the first thread of each element then
    // combines the slices in order.
    int64_t dim = static_cast<int64_t>(op.getDim());
    int64_t groupBlocks = grid[dim];
    int64_t slices =
        std::max<int64_t>(1, std::min(numThreads / n, groupBlocks));
    // Combines `body(i)` for i = first, first + step, ... < end.
    auto combineOver = [&](Value first, int64_t end, int64_t step,
                           function_ref<Value(Value)> body) {
      auto loop = scf::ForOp::create(
          b, loc, first, indexConstant(b, loc, end),
          indexConstant(b, loc, step),
          ValueRange{identityOf(b, loc, op.getKind(), wordType)});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      scf::YieldOp::create(b, loc,
                           combine(b, loc, op.getKind(),
                                   loop.getRegionIterArg(0),
                                   body(loop.getInductionVar())));
      return loop.getResult(0);
    };
    auto blockSlice = [&](Value e, Value slice) {
      return combineOver(slice, groupBlocks, slices, [&](Value j) {
        SmallVector<Value, 3> other(block);
        other[dim] = j;
        return LLVM::LoadOp::create(
            b, loc, wordType, partialAt(linearBlock(other), e),
            /*alignment=*/4, /*isVolatile=*/false, /*isNonTemporal=*/false,
            /*isInvariant=*/false, /*isInvariantGroup=*/false,
            LLVM::AtomicOrdering::monotonic, kDeviceScope);
      });
    };
    if (slices == 1) {
      forOwnedElements(b, loc, n, numThreads, [&](Value e) {
        memref::StoreOp::create(
            b, loc,
            toScratchWord(b, loc, blockSlice(e, indexConstant(b, loc, 0))),
            scratch, e);
      });
    } else {
      Value tid = threadIdOf(b, loc);
      Value nConst = indexConstant(b, loc, n);
      Value e = arith::RemUIOp::create(b, loc, tid, nConst);
      Value slice = arith::DivUIOp::create(b, loc, tid, nConst);
      auto inSlice = scf::IfOp::create(
          b, loc, TypeRange{},
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, slice,
                                indexConstant(b, loc, slices)),
          /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(inSlice.thenBlock());
        memref::StoreOp::create(
            b, loc, toScratchWord(b, loc, blockSlice(e, slice)), scratch,
            addIndex(b, loc, mulIndex(b, loc, slice, n), e));
      }
      gpu::BarrierOp::create(b, loc);
      auto first = scf::IfOp::create(
          b, loc, TypeRange{},
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, nConst),
          /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(first.thenBlock());
      // Only this thread reads or writes column `tid` now.
      Value total =
          combineOver(indexConstant(b, loc, 0), slices, 1, [&](Value s) {
            return fromScratchWord(
                b, loc,
                memref::LoadOp::create(
                    b, loc, scratch,
                    addIndex(b, loc, mulIndex(b, loc, s, n), tid)),
                wordType);
          });
      memref::StoreOp::create(b, loc, toScratchWord(b, loc, total), scratch,
                              tid);
    }
    gpu::BarrierOp::create(b, loc);
    rewriter.replaceOp(op, loadFromScratch(b, loc, tile, elementType, scratch,
                                           [](Value p) { return p; }));
    return success();
  }
};

/// ldmatrix of `count` 8x8 matrices at `at` in `staging`, as the 32-bit
/// registers mma.sync takes: pairs of f16 as vector<2xf16>, of bf16 as i32.
SmallVector<Value> loadMatrix(OpBuilder &b, Location loc, Value staging,
                              Value at, int64_t count, bool transpose) {
  Type elementType = cast<MemRefType>(staging.getType()).getElementType();
  auto type = VectorType::get({count, 2}, elementType);
  Value matrices = nvgpu::LdMatrixOp::create(
      b, loc, type, staging, ValueRange{at}, b.getBoolAttr(transpose),
      b.getI32IntegerAttr(count));
  SmallVector<Value> registers;
  for (int64_t i = 0; i < count; ++i) {
    Value pair =
        vector::ExtractOp::create(b, loc, matrices, ArrayRef<int64_t>{i});
    if (elementType.isF16()) {
      registers.push_back(pair);
      continue;
    }
    Value word = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()), pair);
    registers.push_back(extractElement(b, loc, word, 0));
  }
  return registers;
}

/// Multiplies the operands staged in `staging` at element offsets `lhsBase`
/// and `rhsBase` (laid out as `lhs` and `rhs` say) into `acc`, the scalars
/// of an mma accumulator fragment: each warp loads its parts with ldmatrix
/// (B transposed on the way, unless `rhsTransposed` says it is staged as
/// [N, K] already) and runs mma.sync m16n8k16 on the accumulator tiles it
/// holds.
void multiplyStagedMmaSync(OpBuilder &b, Location loc, Value staging,
                           const StagedOperand &lhs, Value lhsBase,
                           const StagedOperand &rhs, Value rhsBase,
                           bool rhsTransposed, int64_t numThreads,
                           MutableArrayRef<Value> acc) {
  int64_t m = lhs.rows, k = lhs.cols, n = rhsTransposed ? rhs.rows : rhs.cols;
  auto constant = [&](int64_t v) { return indexConstant(b, loc, v); };
  auto add = [&](Value x, Value y) { return addIndex(b, loc, x, y); };
  auto [warpsM, warpsN] = FragmentLayout::mmaWarpGrid({m, n}, numThreads);
  int64_t tileRows = m / warpsM / 16, tileCols = n / warpsN / 8;
  Value tid = threadIdOf(b, loc);
  Value warp = arith::DivUIOp::create(b, loc, tid, constant(32));
  Value lane = arith::RemUIOp::create(b, loc, tid, constant(32));
  Value warpRow = mulIndex(
      b, loc, arith::DivUIOp::create(b, loc, warp, constant(warpsN)),
      m / warpsM);
  Value warpCol = mulIndex(
      b, loc, arith::RemUIOp::create(b, loc, warp, constant(warpsN)),
      n / warpsN);
  Value laneRow = arith::RemUIOp::create(b, loc, lane, constant(16));
  Value laneHalf = mulIndex(
      b, loc, arith::DivUIOp::create(b, loc, lane, constant(16)), 8);

  Type elementType = cast<MemRefType>(staging.getType()).getElementType();
  auto mmaType =
      elementType.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, b.getF32Type()));
  for (int64_t kk = 0; kk < k / 16; ++kk) {
    // A: rows r..r+15, cols 16kk..16kk+15 as four 8x8 matrices; lane l
    // points at row l % 16, column half l / 16.
    SmallVector<SmallVector<Value>> aRegs, bRegs;
    for (int64_t mi = 0; mi < tileRows; ++mi) {
      Value row = add(warpRow, add(laneRow, constant(mi * 16)));
      Value col = add(laneHalf, constant(kk * 16));
      Value at = add(lhsBase, lhs.offset(b, loc, row, col));
      aRegs.push_back(loadMatrix(b, loc, staging, at, 4, false));
    }
    // B: rows 16kk..16kk+15, transposed into the column operand, two n8
    // tiles per ldmatrix.x4 (lanes 0-15 point at the rows of the first,
    // 16-31 at those of the second), one with .x2 if the warp has an odd
    // count.
    // Staged as [N, K], the same matrices are the rows of the n8 tiles:
    // lane l points at row l % 8 of matrix l / 8, matrices in the order
    // (n tile, k half) (0, 0), (0, 1), (1, 0), (1, 1); no .trans.
    for (int64_t nj = 0; nj < tileCols; nj += 2) {
      bool pair = nj + 1 < tileCols;
      Value at;
      if (rhsTransposed) {
        Value row = add(
            add(warpCol, constant(nj * 8)),
            add(laneHalf, arith::RemUIOp::create(b, loc, lane, constant(8))));
        Value half = arith::RemUIOp::create(
            b, loc, arith::DivUIOp::create(b, loc, lane, constant(8)),
            constant(2));
        Value col = add(mulIndex(b, loc, half, 8), constant(kk * 16));
        at = add(rhsBase, rhs.offset(b, loc, row, col));
      } else {
        Value row = add(laneRow, constant(kk * 16));
        Value col = add(warpCol, constant(nj * 8));
        if (pair)
          col = add(col, laneHalf);
        at = add(rhsBase, rhs.offset(b, loc, row, col));
      }
      SmallVector<Value> regs =
          loadMatrix(b, loc, staging, at, pair ? 4 : 2, !rhsTransposed);
      bRegs.push_back({regs[0], regs[1]});
      if (pair)
        bRegs.push_back({regs[2], regs[3]});
    }
    for (int64_t mi = 0; mi < tileRows; ++mi)
      for (int64_t nj = 0; nj < tileCols; ++nj) {
        MutableArrayRef<Value> c = acc.slice((mi * tileCols + nj) * 4, 4);
        auto mma = NVVM::MmaOp::create(
            b, loc, resultType, aRegs[mi], bRegs[nj], c,
            ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
            std::array<NVVM::MMATypes, 2>{mmaType, mmaType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        for (int64_t i = 0; i < 4; ++i)
          c[i] = LLVM::ExtractValueOp::create(b, loc, mma,
                                              ArrayRef<int64_t>{i});
      }
  }
}

/// A wgmma matrix descriptor for an operand at shared-memory byte address
/// `address` (i64) staged in 128-byte-swizzled panels (StagingLayout::Panels):
/// the start address, the leading and the stride byte offsets, each in
/// 16-byte units, and swizzle mode 1 (128 bytes) in bits 62-63. The stride
/// offset is always 1024 bytes, from one group of 8 rows (lines) to the
/// next.
Value wgmmaDescriptor(OpBuilder &b, Location loc, Value address,
                      int64_t leadingBytes) {
  constexpr int64_t kStrideBytes = 8 * 128;
  auto constant = [&](int64_t v) { return i64Constant(b, loc, v); };
  // Shared-memory addresses have 18 bits; the descriptor drops the 4 low
  // ones, which are zero.
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, address, constant(0x3ffff)),
      constant(4));
  int64_t fixed = (leadingBytes >> 4) << 16 | (kStrideBytes >> 4) << 32 |
                  int64_t{1} << 62;
  return arith::OrIOp::create(b, loc, start, constant(fixed));
}

/// Multiplies, as multiplyStaged does, operands staged in panels into the
/// scalars `acc` of a wgmma accumulator fragment: for every k16 step, each
/// warpgroup issues one wgmma.mma_async m64nNk16 per m64 slice of its rows,
/// both operands read from shared memory through descriptors (A K-major,
/// B N-major, as tile.mma's row-major operands are), commits them as one
/// group and waits until at most `pendingGroups` groups are in flight. With
/// 0 the staged operands are free once the threads meet at a barrier; with
/// 1 this group keeps reading them (and writing `acc`) while the caller
/// goes on, until the next multiply or a wait of its own.
void multiplyStagedWgmma(OpBuilder &b, Location loc, Value staging,
                         const StagedOperand &lhs, Value lhsBase,
                         const StagedOperand &rhs, Value rhsBase,
                         int64_t numThreads, MutableArrayRef<Value> acc,
                         int64_t pendingGroups) {
  int64_t m = lhs.rows, k = lhs.cols, n = rhs.cols;
  int64_t rowsPerGroup = m / (numThreads / 128), perSlice = n / 2;
  MLIRContext *ctx = b.getContext();
  Type elementType = cast<MemRefType>(staging.getType()).getElementType();
  int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  auto constant = [&](int64_t v) { return indexConstant(b, loc, v); };
  Value address = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, staging));
  auto descriptor = [&](Value elementOffset, int64_t leadingBytes) {
    Value bytes = arith::IndexCastOp::create(
        b, loc, b.getI64Type(), mulIndex(b, loc, elementOffset, elementBytes));
    return wgmmaDescriptor(b, loc, arith::AddIOp::create(b, loc, address, bytes),
                           leadingBytes);
  };
  Value groupRow = mulIndex(
      b, loc, arith::DivUIOp::create(b, loc, threadIdOf(b, loc), constant(128)),
      rowsPerGroup);

  Type f32 = b.getF32Type();
  auto sliceType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(perSlice, f32));
  SmallVector<Value> slices;
  for (int64_t s = 0; s < rowsPerGroup / 64; ++s) {
    Value slice = LLVM::PoisonOp::create(b, loc, sliceType);
    for (int64_t i = 0; i < perSlice; ++i)
      slice = LLVM::InsertValueOp::create(b, loc, slice, acc[s * perSlice + i],
                                          ArrayRef<int64_t>{i});
    slices.push_back(slice);
  }
  auto wgmmaType = elementType.isBF16() ? NVVM::WGMMATypes::bf16
                                        : NVVM::WGMMATypes::f16;
  // The accumulator registers were last written by other instructions.
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t kk = 0; kk < k / 16; ++kk) {
    // B's 16 rows from 16kk span every panel, one leading offset apart.
    Value b16 = descriptor(
        addIndex(b, loc, rhsBase,
                 rhs.offset(b, loc, constant(kk * 16), constant(0))),
        rhs.rows * StagedOperand::kPanel * elementBytes);
    for (auto [s, slice] : llvm::enumerate(slices)) {
      // A's 64 rows from the slice's first, 16 columns from 16kk: a start
      // 32kk bytes into the line (the line's swizzle key is 0 there).
      Value row = addIndex(b, loc, groupRow, constant(s * 64));
      Value a16 = descriptor(
          addIndex(b, loc, lhsBase,
                   lhs.offset(b, loc, row, constant(kk * 16))),
          /*leadingBytes=*/16);
      slice = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, sliceType, slice, a16, b16,
          NVVM::MMAShapeAttr::get(ctx, 64, n, 16), wgmmaType, wgmmaType,
          NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          NVVM::MMALayout::row, NVVM::MMALayout::row,
          /*satfinite=*/nullptr);
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pendingGroups);
  for (auto [s, slice] : llvm::enumerate(slices))
    for (int64_t i = 0; i < perSlice; ++i)
      acc[s * perSlice + i] =
          LLVM::ExtractValueOp::create(b, loc, slice, ArrayRef<int64_t>{i});
}

/// Multiplies staged operands into `acc` on the tensor cores `mma` was
/// given (assignMmaLayouts). mma.sync is done on return; wgmma may leave
/// `pendingWgmmaGroups` groups in flight (multiplyStagedWgmma).
void multiplyStaged(OpBuilder &b, Location loc, tile::MmaOp mma, Value staging,
                    const StagedOperand &lhs, Value lhsBase,
                    const StagedOperand &rhs, Value rhsBase,
                    int64_t numThreads, MutableArrayRef<Value> acc,
                    int64_t pendingWgmmaGroups = 0) {
  if (isWgmma(mma))
    return multiplyStagedWgmma(b, loc, staging, lhs, lhsBase, rhs, rhsBase,
                               numThreads, acc, pendingWgmmaGroups);
  multiplyStagedMmaSync(b, loc, staging, lhs, lhsBase, rhs, rhsBase,
                        mma.getRhsTransposed(), numThreads, acc);
}

/// Makes the operands this thread wrote into shared memory (with stores or
/// cp.async, the generic proxy) visible to wgmma (the async proxy), once
/// the barrier that follows has made them the whole block's.
void fenceForWgmma(OpBuilder &b, Location loc, tile::MmaOp mma) {
  if (isWgmma(mma))
    NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKind::async_shared,
                               NVVM::SharedSpaceAttr::get(
                                   b.getContext(), NVVM::SharedSpace::shared_cta));
}

/// The scalars of an mma accumulator fragment.
SmallVector<Value> fragmentElements(OpBuilder &b, Location loc, Value fragment) {
  SmallVector<Value> elements;
  for (int64_t i = 0, e = cast<VectorType>(fragment.getType()).getNumElements();
       i < e; ++i)
    elements.push_back(extractElement(b, loc, fragment, i));
  return elements;
}

/// Calls `fn` on each chunk of the current thread's fragment of a `type`
/// tile (blocked layout, `numThreads` threads) that is staged as `staged`
/// at element `base`: its first element in the fragment, its width, and its
/// element offset in the staging buffer.
void forEachStagedChunk(
    OpBuilder &b, Location loc, RankedTensorType type, int64_t numThreads,
    const StagedOperand &staged, Value base,
    function_ref<void(int64_t first, int64_t width, Value at)> fn) {
  FragmentLayout in = layoutOf(type, numThreads);
  Value tid = threadIdOf(b, loc);
  for (int64_t first = 0; first < in.fragmentSize(); first += in.vectorWidth) {
    SmallVector<Value> coords = delinearize(
        b, loc, in.linearIndex(b, loc, tid, first), type.getShape());
    fn(first, in.vectorWidth,
       addIndex(b, loc, base, staged.offset(b, loc, coords[0], coords[1])));
  }
}

/// tile.mma on tensor cores, with operands in registers: both are staged in
/// shared memory (padded or swizzled rows, or panels for wgmma:
/// registerStagingLayout) between two barriers and multiplied from there
/// (multiplyStaged). The left operand is not staged again when the mma
/// before it left it there (markRestagedLhs).
struct MmaLowering : public TilePattern<tile::MmaOp> {
  using TilePattern::TilePattern;

  LogicalResult
  matchAndRewrite(tile::MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType lhsType = op.getLhs().getType(),
                     rhsType = op.getRhs().getType();
    StagedOperand lhs(lhsType, registerStagingLayout(op, lhsType)),
        rhs(rhsType, registerStagingLayout(op, rhsType));
    Value staging = workgroupBuffer(op, lhsType.getElementType());

    gpu::BarrierOp::create(rewriter, loc);
    auto stage = [&](Value fragment, RankedTensorType type,
                     const StagedOperand &staged, int64_t base) {
      forEachStagedChunk(rewriter, loc, type, numThreads, staged,
                         indexConstant(rewriter, loc, base),
                         [&](int64_t first, int64_t width, Value at) {
                           vector::StoreOp::create(rewriter, loc,
                                                   extractSlice(rewriter, loc,
                                                                fragment, first,
                                                                width),
                                                   staging, ValueRange{at});
                         });
    };
    if (!op->hasAttr(kLhsStagedAttr))
      stage(adaptor.getLhs(), lhsType, lhs, 0);
    stage(adaptor.getRhs(), rhsType, rhs, lhs.numElements());
    fenceForWgmma(rewriter, loc, op);
    gpu::BarrierOp::create(rewriter, loc);

    SmallVector<Value> acc = fragmentElements(rewriter, loc, adaptor.getAcc());
    multiplyStaged(rewriter, loc, op, staging, lhs,
                   indexConstant(rewriter, loc, 0),
                   rhs, indexConstant(rewriter, loc, lhs.numElements()),
                   numThreads, acc);
    rewriter.replaceOp(op, fromElements(rewriter, loc, acc));
    return success();
  }

};

/// The stage after `stage` in a ring of `stages`.
Value nextInRing(OpBuilder &b, Location loc, Value stage, int64_t stages) {
  Value isLast = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, stage,
                                       indexConstant(b, loc, stages - 1));
  return arith::SelectOp::create(b, loc, isLast, indexConstant(b, loc, 0),
                                 addIndex(b, loc, stage, indexConstant(b, loc, 1)));
}

/// The stage before `stage` in a ring of `stages`.
Value previousInRing(OpBuilder &b, Location loc, Value stage, int64_t stages) {
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        stage, indexConstant(b, loc, 0));
  return arith::SelectOp::create(
      b, loc, isFirst, indexConstant(b, loc, stages - 1),
      arith::SubIOp::create(b, loc, stage, indexConstant(b, loc, 1)));
}

/// The address of element `offset` of the shared memory at `base` (a
/// pointer into address space 3 to elements of `elementType`).
Value sharedAddress(OpBuilder &b, Location loc, Value base, Type elementType,
                    Value offset) {
  Value offset64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), offset);
  return LLVM::GEPOp::create(b, loc, base.getType(), elementType, base,
                             ValueRange{offset64});
}

/// A pointer into shared memory (address space 3) to the start of the
/// workgroup buffer `buffer`, for the NVVM ops that take one.
Value sharedPointer(OpBuilder &b, Location loc, Value buffer) {
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), /*addressSpace=*/3),
      arith::IndexCastOp::create(
          b, loc, b.getI64Type(),
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer))
          .getResult());
}

/// An scf.for whose tile.mma ops multiply tiles it loads with a latency hint
/// (StagedMmaLoop), as a cp.async pipeline over a ring of shared-memory
/// stages, each holding every multiplicand tile of one iteration. Before the
/// loop, the copies for the first `stages - 1` iterations are issued, one
/// commit group each. Iteration k waits for its own group (cp.async.wait_group
/// stages - 2), then meets the other threads at the one barrier of the step:
/// after it, every copy into the stage of k has landed and every thread is done
/// reading the stage of k - 1. Into that stage go the copies for iteration k +
/// stages - 1, then the operands of k are multiplied straight from their stage.
/// Chunks outside the view are zero-filled (a source size of 0); copies for
/// iterations past the loop are skipped, but their (empty) groups still count.
///
/// For wgmma, each thread fences its landed copies for the async proxy
/// before the barrier, and the wgmma ops of k stay in flight while the next
/// step's copies are issued and awaited, so that the tensor cores never sit
/// idle between K steps. They still read the stage of k, and those of k - 1
/// the stage of k - 1: so the multiply of k waits for the group of k - 1
/// alone (wgmma.wait_group 1), and a second barrier after it frees the stage
/// of k - 1 for the copies of k + stages - 1. The last group is awaited
/// after the loop, before the accumulator is read.
///
/// With TMA (StagedMmaLoop::tma), the first thread alone issues the copies:
/// per stage, an mbarrier that expects the bytes of its tiles
/// (mbarrier.arrive.expect_tx) and one cp.async.bulk.tensor per 64-column
/// panel of each tile, which land 128-byte-swizzled and complete on that
/// mbarrier; boxes past the edge of a view are zero-filled. Iteration k
/// waits for the phase of its stage's mbarrier (the parity flips each time
/// the ring wraps) instead of a cp.async group and a barrier; the wgmma ops
/// overlap as above, and the one barrier of the step, after the multiply,
/// frees the stage of k - 1 for the copies of k + stages - 1. The async
/// proxy writes and reads the stages, so no proxy fence is needed in the
/// loop.
struct StagedMmaLoopLowering : public TilePattern<scf::ForOp> {
  StagedMmaLoopLowering(const TypeConverter &converter, MLIRContext *ctx,
                        int64_t numThreads, bool swizzle)
      // Ahead of the structural conversion of scf.for.
      : TilePattern(converter, ctx, numThreads, /*benefit=*/2),
        swizzle(swizzle) {}

  /// What a form of the pipeline adds to the loop's body: `prefix` runs
  /// before the body's own ops, `suffix` after them and gives the values
  /// the ring carries (`ring`) for the next iteration.
  using BodyHook = function_ref<SmallVector<Value>(Value iv, ValueRange ring)>;

  LogicalResult
  matchAndRewrite(scf::ForOp loop, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<StagedMmaLoop> plan =
        stagedMmaLoop(loop, numThreads, swizzle, /*warn=*/false);
    if (!plan)
      return rewriter.notifyMatchFailure(loop, "not a staged mma loop");
    for (tile::LoadOp load : plan->loads)
      if (!load.getView().getDefiningOp<UnrealizedConversionCastOp>())
        return rewriter.notifyMatchFailure(load, "view is not a kernel argument");

    Location loc = loop.getLoc();
    Value staging =
        workgroupBuffer(loop, plan->loads.front().getType().getElementType());
    // cp.async takes a shared-memory pointer, ldmatrix the buffer.
    Value shared = sharedPointer(rewriter, loc, staging);
    if (plan->tma) {
      lowerTmaPipeline(rewriter, adaptor, *plan, staging, shared);
      return success();
    }
    int64_t stages = plan->stages, stageElements = plan->stageElements();
    bool wgmma = plan->wgmma();
    Value tid = threadIdOf(rewriter, loc);
    Value upperBound = adaptor.getUpperBound(), step = adaptor.getStep();
    auto iterationAhead = [&](Value iv, int64_t distance) {
      return addIndex(rewriter, loc, iv, mulIndex(rewriter, loc, step, distance));
    };
    auto commit = [&] { NVVM::CpAsyncCommitGroupOp::create(rewriter, loc); };

    // Earlier users of the staging buffer must be done with it.
    gpu::BarrierOp::create(rewriter, loc);
    for (int64_t s = 0; s + 1 < stages; ++s) {
      copyStage(rewriter, loc, *plan, shared, tid, upperBound,
                iterationAhead(adaptor.getLowerBound(), s),
                indexConstant(rewriter, loc, s * stageElements));
      commit();
    }
    // Iteration iv refills the stage of iv - 1 with the tiles of
    // iv + stages - 1.
    auto refillPrevious = [&](Value iv, Value stage) {
      copyStage(rewriter, loc, *plan, shared, tid, upperBound,
                iterationAhead(iv, stages - 1),
                mulIndex(rewriter, loc,
                         previousInRing(rewriter, loc, stage, stages),
                         stageElements),
                /*barrier=*/Value(), /*stagedIv=*/iv);
      commit();
    };
    auto prefix = [&](Value iv, ValueRange ring) -> SmallVector<Value> {
      NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, stages - 2);
      fenceForWgmma(rewriter, loc, plan->mmas.front());
      gpu::BarrierOp::create(rewriter, loc);
      if (!wgmma)
        refillPrevious(iv, ring[0]);
      return {};
    };
    auto suffix = [&](Value iv, ValueRange ring) -> SmallVector<Value> {
      if (wgmma) {
        // Every thread's wgmma ops of k - 1 are done.
        gpu::BarrierOp::create(rewriter, loc);
        refillPrevious(iv, ring[0]);
      }
      return {nextInRing(rewriter, loc, ring[0], stages)};
    };
    scf::ForOp staged = buildStagedLoop(
        rewriter, adaptor, *plan, staging,
        ValueRange{indexConstant(rewriter, loc, 0)}, prefix, suffix);
    // No copy may be in flight when the kernel exits, and the accumulators
    // are read next.
    NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);
    if (wgmma)
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
    rewriter.replaceOp(loop,
                       staged.getResults().take_front(loop.getNumResults()));
    return success();
  }

  /// The pipelined form of `plan.loop`: a loop that carries the loop's own
  /// values and then `ringInits` (the ring's state: the stage of the
  /// iteration first). Its body runs `prefix`, then the loop's own body, in
  /// which each tile.mma multiplies its operands from the stage, then
  /// `suffix`.
  scf::ForOp buildStagedLoop(ConversionPatternRewriter &rewriter,
                             OpAdaptor adaptor, const StagedMmaLoop &plan,
                             Value staging, ValueRange ringInits,
                             BodyHook prefix, BodyHook suffix) const {
    scf::ForOp loop = plan.loop;
    Location loc = loop.getLoc();
    unsigned numCarried = loop.getNumRegionIterArgs();
    // Where each mma's accumulator is carried, before the body moves.
    SmallVector<unsigned> accumulatorPositions =
        llvm::map_to_vector(plan.mmas, [](tile::MmaOp mma) {
          return cast<BlockArgument>(mma.getAcc()).getArgNumber() - 1;
        });

    SmallVector<Value> inits(adaptor.getInitArgs());
    llvm::append_range(inits, ringInits);
    auto staged =
        scf::ForOp::create(rewriter, loc, adaptor.getLowerBound(),
                           adaptor.getUpperBound(), adaptor.getStep(), inits);
    Block *body = staged.getBody();
    Value iv = staged.getInductionVar();
    ValueRange carried = staged.getRegionIterArgs();
    ValueRange ring = carried.drop_front(numCarried);
    rewriter.setInsertionPointToStart(body);
    prefix(iv, ring);
    Value stageBase = mulIndex(rewriter, loc, ring[0], plan.stageElements());
    auto tileBase = [&](unsigned i) {
      return addIndex(rewriter, loc, stageBase,
                      indexConstant(rewriter, loc, plan.offsets[i]));
    };

    FailureOr<Block *> original =
        rewriter.convertRegionTypes(&loop.getRegion(), *getTypeConverter());
    assert(succeeded(original) && "the type converter takes every tile");
    rewriter.mergeBlocks(*original, body,
                         body->getArguments().take_front(1 + numCarried));
    // The suffix's copies read the staged loads, which are replaced next.
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> yields(yield.getOperands());
    llvm::append_range(yields, suffix(iv, ring));
    rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yields);
    for (auto [i, position] : llvm::enumerate(accumulatorPositions)) {
      tile::MmaOp mma = plan.mmas[i];
      rewriter.setInsertionPoint(mma);
      SmallVector<Value> acc =
          fragmentElements(rewriter, loc, carried[position]);
      unsigned lhs = plan.indexOf(mma.getLhs()),
               rhs = plan.indexOf(mma.getRhs());
      multiplyStaged(rewriter, mma.getLoc(), mma, staging, plan.tiles[lhs],
                     tileBase(lhs), plan.tiles[rhs], tileBase(rhs), numThreads,
                     acc, /*pendingWgmmaGroups=*/1);
      rewriter.replaceOp(mma, fromElements(rewriter, loc, acc));
    }
    // The multiplicands feed the mmas alone (mmaStagingObstacle).
    for (tile::LoadOp load : plan.loads)
      rewriter.eraseOp(load);
    rewriter.setInsertionPointAfter(staged);
    return staged;
  }

  /// Issues, unless iteration `iv` is past the loop, the copies of the
  /// staged tiles of that iteration into the stage at element `stageBase`:
  /// cp.async, or with TMA, TMA copies that complete on the mbarrier at
  /// `barrier`. Inside the pipelined loop, `stagedIv` is its induction
  /// variable.
  void copyStage(OpBuilder &b, Location loc, const StagedMmaLoop &plan,
                 Value shared, Value tid, Value upperBound, Value iv,
                 Value stageBase, Value barrier = Value(),
                 Value stagedIv = Value()) const {
    Value inLoop = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv,
                                         upperBound);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, inLoop,
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    // The index arithmetic of the loads, for iteration `iv`. In the
    // pipelined loop's body it reads that loop's induction variable.
    IRMapping mapping;
    mapping.map(plan.inductionVar, iv);
    if (stagedIv)
      mapping.map(stagedIv, iv);
    for (Operation *op : plan.indexArithmetic)
      b.clone(*op, mapping);
    auto tileBase = [&](unsigned i) {
      return addIndex(b, loc, stageBase,
                      indexConstant(b, loc, plan.offsets[i]));
    };
    if (!plan.tma) {
      for (auto [i, load] : llvm::enumerate(plan.loads))
        copyTile(b, loc, tile::LoadOp(load), plan.tiles[i], shared, tid,
                 tileBase(i), mapping);
      return;
    }
    tile::LoadOp first = plan.loads.front();
    Type elementType = first.getType().getElementType();
    int64_t stageBytes =
        plan.tileElements() * elementType.getIntOrFloatBitWidth() / 8;
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc, /*res=*/Type(), barrier,
        arith::ConstantIntOp::create(b, loc, stageBytes, 32),
        NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
    for (auto [i, load] : llvm::enumerate(plan.loads))
      copyTileByTma(b, loc, tile::LoadOp(load), shared, tileBase(i), barrier,
                    mapping);
  }

  /// The TMA copies of the tile `load` reads, at the indices `mapping`
  /// gives, into shared memory at element `base` after `shared`: one box of
  /// all its rows per 64-column panel (StagingLayout::Panels), completing
  /// on the mbarrier at `barrier`. Coordinates are innermost first.
  static void copyTileByTma(OpBuilder &b, Location loc, tile::LoadOp load,
                            Value shared, Value base, Value barrier,
                            const IRMapping &mapping) {
    RankedTensorType type = load.getType();
    int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
    Value row = mulIndex(b, loc, mapping.lookupOrDefault(load.getIndices()[0]),
                         rows);
    Value col = mulIndex(b, loc, mapping.lookupOrDefault(load.getIndices()[1]),
                         cols);
    auto i32 = [&](Value index) -> Value {
      return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
    };
    auto func = load->getParentOfType<gpu::GPUFuncOp>();
    Value tensorMap = func.getArgument(
        load->getAttrOfType<IntegerAttr>(kTensorMapParam).getInt());
    for (int64_t panel = 0; panel < cols / StagedOperand::kPanel; ++panel) {
      int64_t panelCol = panel * StagedOperand::kPanel;
      // The copy's destination is in the shared::cluster window, where the
      // block's own shared memory is too.
      Value target = LLVM::AddrSpaceCastOp::create(
          b, loc,
          LLVM::LLVMPointerType::get(
              b.getContext(),
              static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster)),
          sharedAddress(b, loc, shared, type.getElementType(),
                        addIndex(b, loc, base,
                                 indexConstant(b, loc, panelCol * rows))));
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          b, loc, target, tensorMap,
          ValueRange{i32(addIndex(b, loc, col, indexConstant(b, loc, panelCol))),
                     i32(row)},
          barrier, /*im2colOffsets=*/ValueRange(), /*multicastMask=*/Value(),
          /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE,
          /*isCTAOnly=*/false, /*group=*/nullptr, /*predicate=*/Value());
    }
  }

  /// The TMA form of the pipeline (see the comment of the pattern).
  void lowerTmaPipeline(ConversionPatternRewriter &rewriter, OpAdaptor adaptor,
                        const StagedMmaLoop &plan, Value staging,
                        Value shared) const {
    scf::ForOp loop = plan.loop;
    Location loc = loop.getLoc();
    int64_t stages = plan.stages, stageElements = plan.stageElements();
    Value barriers = sharedPointer(
        rewriter, loc, workgroupBuffer(loop, rewriter.getI64Type()));
    auto barrierOf = [&](Value stage) {
      return sharedAddress(rewriter, loc, barriers, rewriter.getI64Type(),
                           stage);
    };
    auto constant = [&](int64_t v) { return indexConstant(rewriter, loc, v); };
    Value upperBound = adaptor.getUpperBound(), step = adaptor.getStep();
    Value tid = threadIdOf(rewriter, loc);
    auto copyAhead = [&](Value iv, int64_t distance, Value stage,
                         Value stagedIv) {
      copyStage(
          rewriter, loc, plan, shared, tid, upperBound,
          addIndex(rewriter, loc, iv, mulIndex(rewriter, loc, step, distance)),
          mulIndex(rewriter, loc, stage, stageElements), barrierOf(stage),
          stagedIv);
    };

    // One arrival completes a phase: the issuing thread's expect_tx, with
    // the bytes of the copies. Every thread sees the initialised mbarriers
    // after the barrier, by which earlier users of the stages (through the
    // generic or the async proxy) are done with them too.
    inFirstThread(rewriter, loc, [&] {
      Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 32);
      for (int64_t s = 0; s < stages; ++s)
        NVVM::MBarrierInitOp::create(rewriter, loc, barrierOf(constant(s)),
                                     one, /*predicate=*/Value());
      NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    });
    fenceForWgmma(rewriter, loc, plan.mmas.front());
    gpu::BarrierOp::create(rewriter, loc);
    inFirstThread(rewriter, loc, [&] {
      for (int64_t s = 0; s + 1 < stages; ++s)
        copyAhead(adaptor.getLowerBound(), s, constant(s), Value());
    });

    // The ring's state: the stage, and the parity of its mbarrier's phase.
    auto prefix = [&](Value, ValueRange ring) -> SmallVector<Value> {
      NVVM::MBarrierTryWaitParityOp::create(
          rewriter, loc, barrierOf(ring[0]), ring[1],
          arith::ConstantIntOp::create(rewriter, loc, kTryWaitTicks, 32));
      return {};
    };
    auto suffix = [&](Value iv, ValueRange ring) -> SmallVector<Value> {
      Value stage = ring[0], phase = ring[1];
      // Every warpgroup's wgmma ops of k - 1 are done, and every thread's
      // reads of the stage of k - 1.
      gpu::BarrierOp::create(rewriter, loc);
      inFirstThread(rewriter, loc, [&] {
        copyAhead(iv, stages - 1, previousInRing(rewriter, loc, stage, stages),
                  iv);
      });
      Value wraps = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, stage, constant(stages - 1));
      Value nextPhase = arith::SelectOp::create(
          rewriter, loc, wraps,
          arith::XOrIOp::create(
              rewriter, loc, phase,
              arith::ConstantIntOp::create(rewriter, loc, 1, 32)),
          phase);
      return {nextInRing(rewriter, loc, stage, stages), nextPhase};
    };
    scf::ForOp staged = buildStagedLoop(
        rewriter, adaptor, plan, staging,
        ValueRange{constant(0),
                   arith::ConstantIntOp::create(rewriter, loc, 0, 32)},
        prefix, suffix);
    // The accumulators are read next. Every copy issued was awaited in the
    // loop; once every thread is past its last wait, the mbarriers are
    // invalidated, so that their memory may serve again.
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
    gpu::BarrierOp::create(rewriter, loc);
    inFirstThread(rewriter, loc, [&] {
      for (int64_t s = 0; s < stages; ++s)
        NVVM::MBarrierInvalOp::create(rewriter, loc, barrierOf(constant(s)));
    });
    rewriter.replaceOp(loop,
                       staged.getResults().take_front(loop.getNumResults()));
  }

  /// cp.async of the current thread's 16-byte chunks (those of its fragment
  /// in the blocked layout) of the tile `load` reads, at the indices
  /// `mapping` gives, into shared memory at element `base` after `shared`.
  void copyTile(OpBuilder &b, Location loc, tile::LoadOp load,
                const StagedOperand &staged, Value shared, Value tid,
                Value base, const IRMapping &mapping) const {
    RankedTensorType type = load.getType();
    FragmentLayout chunks = layout(type);
    SmallVector<Value> indices = llvm::map_to_vector(
        load.getIndices(), [&](Value v) { return mapping.lookupOrDefault(v); });
    FailureOr<TileAccess> access =
        tileAccess(b, loc, load.getView(), indices, type, chunks);
    assert(succeeded(access) && "matchAndRewrite checked the views");
    Value whole = arith::ConstantIntOp::create(b, loc, 16, 32);
    Value nothing = arith::ConstantIntOp::create(b, loc, 0, 32);
    for (int64_t first = 0; first < chunks.fragmentSize();
         first += chunks.vectorWidth) {
      Value linear = chunks.linearIndex(b, loc, tid, first);
      SmallVector<Value> coords = access->viewCoords(linear);
      Value inside = access->inBounds(coords, chunks.vectorWidth);
      // Outside the view nothing is read, but the address stays valid.
      Value source = arith::SelectOp::create(
          b, loc, inside, access->address(coords), access->params.pointer);
      Value bytes = arith::SelectOp::create(b, loc, inside, whole, nothing);
      SmallVector<Value> at = delinearize(b, loc, linear, type.getShape());
      Value target = sharedAddress(
          b, loc, shared, type.getElementType(),
          addIndex(b, loc, base, staged.offset(b, loc, at[0], at[1])));
      NVVM::CpAsyncOp::create(b, loc, target, source, /*size=*/16,
                              NVVM::LoadCacheModifierKind::CG, bytes);
    }
  }

  bool swizzle;
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct LowerTileToGPUPass
    : public tileopt::impl::LowerTileToGPUBase<LowerTileToGPUPass> {
  using LowerTileToGPUBase::LowerTileToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (numWarps < 1 || numWarps > 32) {
      module.emitError("num-warps must be in 1-32, got ") << numWarps;
      return signalPassFailure();
    }
    int64_t numThreads = numWarps * 32;
    SmallVector<tile::KernelOp> kernels(module.getOps<tile::KernelOp>());
    if (kernels.empty())
      return;
    for (tile::KernelOp kernel : kernels) {
      if (failed(checkSupported(kernel, numThreads, swizzleStaging)) ||
          failed(assignMmaLayouts(kernel,
                                  useWgmma(kernel, chip, numThreads))))
        return signalPassFailure();
      remarkUnusedTma(kernel, numThreads, swizzleStaging);
      markRestagedLhs(kernel);
    }

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
        return signalPassFailure();
      bool gridSync = !kernel.getOps<tile::ReduceAcrossBlocksOp>().empty();
      FailureOr<gpu::GPUFuncOp> func =
          outlineKernel(kernel, gpuModule, numThreads, swizzleStaging);
      if (failed(func))
        return signalPassFailure();
      if (gridSync)
        (*func)->setAttr(kGridSyncAttr, UnitAttr::get(ctx));
      for (tile::LaunchOp launch : launches.lookup(name))
        lowerLaunch(launch, params, *func, numThreads);
    }

    FragmentTypeConverter converter(numThreads);
    ConversionTarget target(*ctx);
    target.addLegalDialect<gpu::GPUDialect, LLVM::LLVMDialect,
                           NVVM::NVVMDialect, nvgpu::NVGPUDialect,
                           vector::VectorDialect, memref::MemRefDialect>();
    target.addIllegalDialect<tile::TileDialect>();
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [](Operation *op) { return !hasTensorType(op); });
    target.addLegalOp<UnrealizedConversionCastOp>();

    RewritePatternSet patterns(ctx);
    patterns.add<ElementwiseLowering>(converter, ctx);
    patterns.add<BlockIdLowering, NumBlocksLowering, SplatLowering,
                 IotaLowering, LoadLowering, StoreLowering, ReduceLowering,
                 ScanLowering, MmaLowering, ReshapeLowering, BroadcastLowering,
                 PermuteLowering, ReduceAcrossBlocksLowering>(converter, ctx,
                                                              numThreads);
    patterns.add<StagedMmaLoopLowering>(converter, ctx, numThreads,
                                        swizzleStaging);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(gpuModule, target, std::move(patterns))))
      return signalPassFailure();

    // The views were read through their casts; nothing uses them now.
    gpuModule.walk([](UnrealizedConversionCastOp cast) {
      if (cast.use_empty() &&
          isa<tile::TensorViewType>(cast.getResult(0).getType()))
        cast.erase();
    });
  }
};

} // namespace
