//===- SearchOptions.cpp - The options' part of the cache key -------------===//
#include "TileOpt/Superopt/SearchOptions.h"

#include "TileOpt/Superopt/Compilation.h"
#include "TileOpt/Version.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tileopt::superopt;

std::string SearchOptions::fingerprint() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tileopt=" TILEOPT_VERSION " kernel-ops=" << maxKernelOps
     << " block-ops=" << maxBlockOps << " block-budget=" << blockGraphBudget
     << " fused=" << maxFusedKernels << " block-inputs=" << maxBlockInputs
     << " block-outputs=" << maxBlockOutputs << " grid-dims=" << maxGridDims
     << " grid-reductions=" << gridReductions << " forloop=";
  llvm::interleave(forloopRanges, os, ",");
  os << " tiles=";
  llvm::interleave(tileExtents, os, ",");
  os << " threads-per-block=" << blockThreads << " seed=" << seed
     << " target=" << target.fingerprint() << " keep=" << keep
     << " reassociate=" << reassociate << " merge-batch-rows=" << mergeBatchRows
     << " compile-candidates=" << compileCandidates;
  // What the compile check refuses depends on the ptxas it runs.
  if (compileCandidates)
    os << " ptxas=" << compilationPtxas().value_or("none")
       << " max-spill=" << kMaxSpillStoreBytes;
  return text;
}
