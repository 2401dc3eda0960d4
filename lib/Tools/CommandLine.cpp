//===- CommandLine.cpp - What TileOpt's tools show in --help --------------===//
#include "TileOpt/Tools/CommandLine.h"
#include "TileOpt/Version.h"

#include "llvm/ADT/STLExtras.h"

void mlir::tileopt::hideLibraryOptions(
    llvm::ArrayRef<const llvm::cl::OptionCategory *> keep) {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    bool kept = llvm::any_of(option->Categories, [&](auto *category) {
      return llvm::is_contained(keep, category) ||
             (category == &llvm::cl::getGeneralCategory() &&
              llvm::is_contained({"help", "help-list", "version"},
                                 entry.first));
    });
    if (!kept && option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

void mlir::tileopt::addTileOptVersionPrinter() {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "TileOpt version " TILEOPT_VERSION "\n";
  });
}
