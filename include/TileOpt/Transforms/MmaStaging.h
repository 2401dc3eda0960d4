//===- MmaStaging.h - Which tile.mma loops the code generator stages -*- C++ -*-===//
//
// tileopt-lower-tile pipelines the multiplicands of some tile.mma loops
// through shared memory (a cp.async or TMA ring); tileopt-pipeline-tile-loads
// pipelines the other hinted loads in registers. Both ask this one question,
// so that every hinted load is pipelined by exactly one of them.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_TRANSFORMS_MMASTAGING_H
#define TILEOPT_TRANSFORMS_MMASTAGING_H

#include "TileOpt/Dialect/Tile/IR/TileOps.h"

#include <string>

namespace mlir::tileopt {

/// Whether `op` takes or gives a tile (a ranked tensor).
bool hasTensorType(Operation *op);

/// Why the loop around `mma` lacks the structure of a shared-memory
/// pipeline, or "" if it has it: both multiplicands loaded in the scf.for
/// around the mma, each for it alone; the loop carrying the accumulator
/// alone, from one tile.mma to the next; nothing else in the body but
/// scalar index arithmetic. (The code generator checks the loads' views,
/// padding and alignment besides.)
std::string mmaStagingObstacle(tile::MmaOp mma);

} // namespace mlir::tileopt

#endif // TILEOPT_TRANSFORMS_MMASTAGING_H
