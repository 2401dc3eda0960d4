//===- MmaStaging.h - Which mma loops the code generator stages -*- C++ -*-===//
//
// tileopt-lower-tile pipelines the multiplicands of some tile.mma loops
// through shared memory (a cp.async or TMA ring); tileopt-pipeline-tile-loads
// pipelines the hinted loads of other loops in registers. Both ask these
// questions, so that every hinted load is pipelined by exactly one of them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_TRANSFORMS_MMASTAGING_H
#define TILEOPT_TRANSFORMS_MMASTAGING_H

#include "TileOpt/Dialect/Tile/IR/TileOps.h"
#include "TileOpt/Target/Target.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir::tileopt {

/// Whether `op` takes or gives a tile (a ranked tensor).
bool hasTensorType(Operation *op);

/// The tile.loads in `loop`'s body that give a multiplicand of a tile.mma
/// in that body, each once, in body order.
SmallVector<tile::LoadOp> mmaMultiplicandLoads(scf::ForOp loop);

/// Why `loop` lacks the structure of a shared-memory pipeline, or "" if it
/// has it. Every tile.mma in its body multiplies tiles loaded in that body
/// for tile.mma ops alone (one load may feed several) into an accumulator
/// the loop carries from one tile.mma to the next and uses nowhere else;
/// the body holds no op with regions and nothing with side effects but
/// loads, so a load issued iterations early reads what it would have; and
/// the indices of the multiplicand loads are scalar arithmetic on the
/// induction variable, which the pipeline computes for later iterations.
/// (The code generator checks the loads' views, padding and alignment
/// besides.)
///
/// A multiplicand that other ops read too stays in registers: on the H200,
/// rmsnorm_linear_b1's loop, whose X tile is also squared and summed, took
/// 18.9 us with X in the ring and read back from it for the sum (commit
/// a1c0a54) against 16.4 us through registers, and executed twice the
/// instructions (2026-12-04, docs/performance.md).
std::string mmaStagingObstacle(scf::ForOp loop);

/// The most shared memory a block can have: the code generator plans
/// shared memory for sm_90 (227 KiB), whichever chip it compiles for.
constexpr int64_t kMaxSharedBytesPerBlock =
    target::kSm90.sharedMemoryPerBlock();

/// Why the code generator would refuse to stage the multiplicand loads of
/// `loop`, a loop with the structure (mmaStagingObstacle), for reasons that
/// do not depend on the thread count, or "": their views must come from
/// outside the loop, they pad with zeros (cp.async fills only zeros), share
/// one element type, and two stages of their tiles fit in shared memory.
/// (Whether every thread copies whole 16-byte chunks is checked by the code
/// generator alone.)
std::string mmaRingObstacle(scf::ForOp loop);

/// Whether the code generator pipelines `loop`'s multiplicand loads through
/// shared memory: the loop has the structure (mmaStagingObstacle), the ring
/// can hold its tiles (mmaRingObstacle), and one of those loads has a
/// latency hint of 2 or more.
bool isStagedMmaLoop(scf::ForOp loop);

} // namespace mlir::tileopt

#endif // TILEOPT_TRANSFORMS_MMASTAGING_H
