//===- Target.cpp - What TileOpt knows of NVIDIA chips and GPUs -----------===//
#include "TileOpt/Target/Target.h"

using namespace mlir::tileopt;

const target::Chip *target::lookupChip(llvm::StringRef name) {
  for (const Chip *chip : {&kSm80, &kSm90, &kSm90a})
    if (chip->name == name)
      return chip;
  return nullptr;
}
