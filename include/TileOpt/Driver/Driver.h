//===- Driver.h - From any input stage to a GPU artifact --------*- C++ -*-===//
//
// tileopt-compile, the Python package and the tests all drive the same
// sequence of stages: TOSA through the stock upstream passes to linalg, the
// importer to a tk kernel graph, the superoptimizer to a µGraph, its
// lowering to tile kernels, the code generator to gpu.func, and NVVM and
// ptxas to PTX and a cubin. This library is that sequence, so that every
// front door runs one pipeline and a stage that refuses its input says so
// the same way everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_DRIVER_DRIVER_H
#define TILEOPT_DRIVER_DRIVER_H

#include "TileOpt/Conversion/Passes.h"
#include "TileOpt/Superopt/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

#include <optional>
#include <string>

namespace mlir {
class AsmParserState;
} // namespace mlir

namespace mlir::tileopt::driver {

/// The forms a program takes on its way to an artifact, in order. A module
/// is at the earliest stage whose ops it holds.
enum class Stage {
  Tosa,     // TOSA ops
  Linalg,   // linalg on tensors (any front end)
  TK,       // a tk kernel graph of predefined kernels
  UGraph,   // a µGraph: tk with graph-defined kernels (tk.fused)
  Tile,     // tile kernels and the host function that launches them
  GPU,      // gpu.module of gpu.func kernels
  PTX,      // PTX text
  Artifact, // cubin + manifest.json
};

StringRef getStageName(Stage stage);

/// While it lives, attaches to every error reported in `context` a note
/// that names `stage` and what produces it, then lets the error through to
/// the next handler.
class StageDiagnostics {
public:
  StageDiagnostics(MLIRContext *context, Stage stage);

private:
  ScopedDiagnosticHandler handler;
};

std::optional<Stage> parseStage(StringRef name);

/// The stage `module` is at, or an error at the first op no stage takes.
FailureOr<Stage> detectStage(ModuleOp module);

struct CompileOptions {
  /// Code generation, as tileopt-lower-tile and the cubin pipeline take it.
  /// numWarps 0: from the µGraph's block size (graph-defined kernels), else
  /// 4.
  std::string chip = "sm_90";
  std::string features = "+ptx80";
  int64_t numWarps = 0;
  int64_t registerBudget = PipelineTileLoadsOptions().registerBudget;
  bool swizzleStaging = true;
  std::string toolkit;
  /// The search (tileopt-superoptimize's options). Its cache-dir is the
  /// search cache; the driver fills it from defaultCacheDir() unless told
  /// not to. Its chip is `chip` above, whatever it says.
  SuperoptimizeOptions search;
};

/// $TILEOPT_CACHE_DIR, else $XDG_CACHE_HOME/tileopt, else ~/.cache/tileopt.
std::string defaultCacheDir();

/// Lowers `module`, at stage `from`, through every stage up to `to`
/// (Tile at most: the GPU code, PTX and the artifact are compileArtifact's).
/// A stage that cannot take its input reports an error at the op, with a
/// note naming the stage. Passing the tile stage, a `numWarps` of 0 becomes
/// the µGraph's block size.
LogicalResult lowerTo(ModuleOp module, Stage from, Stage to,
                      CompileOptions &options);

/// Names the arguments of `module`'s functions after the source's SSA names
/// (`%x: tensor<...>` gives "x"), as `tileopt.name` argument attributes,
/// where the source gave a name of its own (not `%arg<N>`) and the argument
/// has no name yet. The artifact's manifest then calls the buffers so.
void nameArgumentsFromSource(ModuleOp module, const AsmParserState &state);

/// What tileopt-compile writes: the manifest (docs/artifact-format.md), the
/// cubin it names, and the PTX for reading.
struct Artifact {
  std::string manifest;
  std::string cubin;
  std::string ptx;
  /// constants.bin, the values of the constant buffers; empty if none.
  std::string constants;
};

/// Compiles a module at the tile stage (tile kernels and one host function
/// of tile.launch ops) to an artifact. `sourceHash` goes to the manifest.
/// With `ptxOnly`, stops after the PTX (no ptxas; cubin and manifest are
/// left empty).
FailureOr<Artifact> compileArtifact(ModuleOp module,
                                    const CompileOptions &options,
                                    StringRef sourceHash, bool ptxOnly = false);

/// Lowers a module at the tile stage to gpu.func kernels
/// (tileopt-pipeline-tile-loads, tileopt-lower-tile), for reading.
LogicalResult lowerTileToGPU(ModuleOp module, const CompileOptions &options);

/// Writes `artifact` to directory `dir` as a whole or not at all: into a
/// temporary directory beside it, renamed over `dir` once complete, so that
/// no reader ever sees a half-written artifact.
LogicalResult writeArtifact(StringRef dir, const Artifact &artifact,
                            std::string &error);

} // namespace mlir::tileopt::driver

#endif // TILEOPT_DRIVER_DRIVER_H
