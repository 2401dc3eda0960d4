//===- MmaSync.cpp - Staged operands multiplied on mma.sync ---------------===//
//
// Each warp loads its parts of the staged operands with ldmatrix and runs
// mma.sync m16n8k16 on the m16n8 accumulator tiles it holds
// (FragmentLayout::mmaAccumulator).
//
//===----------------------------------------------------------------------===//
#include "Mma.h"

#include "TileOpt/Target/Target.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::tileopt;
using namespace mlir::tileopt::tiletogpu;

/// ldmatrix of `count` 8x8 matrices at `at` in `staging`, as the 32-bit
/// registers mma.sync takes: pairs of f16 as vector<2xf16>, of bf16 as i32.
static SmallVector<Value> loadMatrix(OpBuilder &b, Location loc, Value staging,
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

void tiletogpu::multiplyStagedMmaSync(OpBuilder &b, Location loc, Value staging,
                                      const StagedOperand &lhs, Value lhsBase,
                                      const StagedOperand &rhs, Value rhsBase,
                                      bool rhsTransposed, int64_t warpsM,
                                      int64_t warpsN,
                                      MutableArrayRef<Value> acc) {
  int64_t m = lhs.rows, k = lhs.cols, n = rhsTransposed ? rhs.rows : rhs.cols;
  auto constant = [&](int64_t v) { return indexConstant(b, loc, v); };
  auto add = [&](Value x, Value y) { return addIndex(b, loc, x, y); };
  int64_t tileRows = m / warpsM / 16, tileCols = n / warpsN / 8;
  Value tid = threadIdOf(b, loc);
  Value warp = arith::DivUIOp::create(b, loc, tid, constant(32));
  Value lane = arith::RemUIOp::create(b, loc, tid, constant(32));
  Value warpRow =
      mulIndex(b, loc, arith::DivUIOp::create(b, loc, warp, constant(warpsN)),
               m / warpsM);
  Value warpCol =
      mulIndex(b, loc, arith::RemUIOp::create(b, loc, warp, constant(warpsN)),
               n / warpsN);
  Value laneRow = arith::RemUIOp::create(b, loc, lane, constant(16));
  Value laneHalf =
      mulIndex(b, loc, arith::DivUIOp::create(b, loc, lane, constant(16)), 8);

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
            ArrayRef<int64_t>{target::kMmaSyncM, target::kMmaSyncN,
                              target::kMmaSyncK},
            std::nullopt, std::nullopt,
            std::array<NVVM::MMATypes, 2>{mmaType, mmaType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        for (int64_t i = 0; i < 4; ++i)
          c[i] =
              LLVM::ExtractValueOp::create(b, loc, mma, ArrayRef<int64_t>{i});
      }
  }
}
