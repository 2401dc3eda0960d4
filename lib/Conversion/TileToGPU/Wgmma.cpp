//===- Wgmma.cpp - Staged operands multiplied on wgmma (sm_90a) -----------===//
//
// Each warpgroup multiplies its rows in m64 slices with wgmma.mma_async,
// both operands read through matrix descriptors from 128-byte-swizzled
// panels (StagingLayout::panels), the accumulator in the wgmma layout
// (FragmentLayout::wgmmaAccumulator).
//
//===----------------------------------------------------------------------===//
#include "Mma.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

/// A wgmma matrix descriptor for an operand at shared-memory byte address
/// `address` (i64) staged in 128-byte-swizzled panels (StagingLayout::panels):
/// the start address, the leading and the stride byte offsets, each in
/// 16-byte units, and swizzle mode 1 (128 bytes) in bits 62-63. The stride
/// offset is always 1024 bytes, from one group of 8 rows (lines) to the
/// next.
static Value wgmmaDescriptor(OpBuilder &b, Location loc, Value address,
                             int64_t leadingBytes) {
  constexpr int64_t kStrideBytes = 8 * 128;
  auto constant = [&](int64_t v) { return i64Constant(b, loc, v); };
  // Shared-memory addresses have 18 bits; the descriptor drops the 4 low
  // ones, which are zero.
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, address, constant(0x3ffff)),
      constant(4));
  int64_t fixed =
      (leadingBytes >> 4) << 16 | (kStrideBytes >> 4) << 32 | int64_t{1} << 62;
  return arith::OrIOp::create(b, loc, start, constant(fixed));
}

void tiletogpu::multiplyStagedWgmma(OpBuilder &b, Location loc, Value staging,
                                    const StagedOperand &lhs, Value lhsBase,
                                    const StagedOperand &rhs, Value rhsBase,
                                    int64_t numThreads,
                                    MutableArrayRef<Value> acc,
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
    return wgmmaDescriptor(
        b, loc, arith::AddIOp::create(b, loc, address, bytes), leadingBytes);
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
  auto wgmmaType =
      elementType.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  // The accumulator registers were last written by other instructions.
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t kk = 0; kk < k / 16; ++kk) {
    // B's 16 rows from 16kk span every panel, one leading offset apart.
    Value b16 =
        descriptor(addIndex(b, loc, rhsBase,
                            rhs.offset(b, loc, constant(kk * 16), constant(0))),
                   rhs.rows * StagedOperand::kPanel * elementBytes);
    for (auto [s, slice] : llvm::enumerate(slices)) {
      // A's 64 rows from the slice's first, 16 columns from 16kk: a start
      // 32kk bytes into the line (the line's swizzle key is 0 there).
      Value row = addIndex(b, loc, groupRow, constant(s * 64));
      Value a16 = descriptor(
          addIndex(b, loc, lhsBase, lhs.offset(b, loc, row, constant(kk * 16))),
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

void tiletogpu::fenceForWgmma(OpBuilder &b, Location loc, tile::MmaOp mma) {
  if (isWgmma(mma))
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
}
