//===- CommandLine.h - What TileOpt's tools show in --help ------*- C++ -*-===//
//
// Every tool links libLLVM.so, whose static options (hundreds of AMDGPU,
// AArch64 and code generator flags) would fill --help before a user found
// TileOpt's own. The tools hide them, and name TileOpt's version in
// --version.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_TOOLS_COMMANDLINE_H
#define TILEOPT_TOOLS_COMMANDLINE_H

#include "llvm/Support/CommandLine.h"

namespace mlir::tileopt {

/// Hides from --help (not from --help-hidden) every option registered so
/// far that is in none of `keep`. Called first thing in main, that is
/// LLVM's own static options, while those a tool registers later (MLIR's,
/// the passes') stay visible.
void hideLibraryOptions(llvm::ArrayRef<const llvm::cl::OptionCategory *> keep);

/// Makes --version print "TileOpt version V" after LLVM's version, V being
/// TILEOPT_VERSION, the compiler's version that the search cache's keys
/// hold: the Python package reads it to tell its cached compiled graphs
/// from those of another compiler.
void addTileOptVersionPrinter();

} // namespace mlir::tileopt

#endif // TILEOPT_TOOLS_COMMANDLINE_H
