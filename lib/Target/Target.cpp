//===- Target.cpp - What TileOpt knows of NVIDIA chips and GPUs -----------===//
#include "TileOpt/Target/Target.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::tileopt;

llvm::ArrayRef<const target::Chip *> target::knownChips() {
  static const Chip *const chips[] = {&kSm80, &kSm90, &kSm90a};
  return chips;
}

const target::Chip *target::lookupChip(llvm::StringRef name) {
  for (const Chip *chip : knownChips())
    if (chip->name == name)
      return chip;
  return nullptr;
}

std::string target::whyNotAChip(llvm::StringRef name) {
  if (lookupChip(name))
    return "";
  std::string why = ("unknown chip '" + name + "': TileOpt targets ").str();
  llvm::ListSeparator separator;
  for (const Chip *known : knownChips())
    (why += separator) += known->name;
  return why;
}
