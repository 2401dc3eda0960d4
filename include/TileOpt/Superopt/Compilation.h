//===- Compilation.h - Whether a candidate compiles well -------*- C++ -*-===//
//
// The cost model prices a µGraph as if every kernel compiled; the code
// generator has limits the model does not mirror (a tile's fragment, static
// scratch), and ptxas spills what does not fit in 255 registers a thread,
// which the model cannot see at all. Both made the search's answer slower
// than the input program (gqa_decode at b=8, docs/performance.md). So the
// search compiles each candidate it would return, the way tileopt-compile
// does, and turns down those the code generator refuses or whose kernels
// spill.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_SUPEROPT_COMPILATION_H
#define TILEOPT_SUPEROPT_COMPILATION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::tileopt::superopt {

/// Spilled bytes a thread may store in a kernel with a loop that the search
/// returns. A few registers spilled cost little: gqa_decode at b=8 with 12
/// bytes was the fastest of its candidates on the H200, with 508 and 1668
/// the slowest (docs/performance.md). Spills where nothing loops are
/// stored and read back once: mla_decode's attention kernel, which spills
/// 432 bytes outside any loop, ran in 19.9 us, its next candidate without
/// spills in 33.8.
constexpr int64_t kMaxSpillStoreBytes = 64;

/// What CandidateCompiler says of a candidate.
struct CompileCheck {
  /// Why the candidate is left out; nothing when it compiles well.
  std::optional<std::string> refusal;
  /// ptxas could not judge it (PtxasError::notRun: a full disk, a ptxas
  /// that crashed or timed out): it is left out all the same, but the
  /// search's answer then says something of this machine's state, not only
  /// of the program.
  bool notRun = false;
};

/// Why candidates, functions of tk ops, would not compile to kernels worth
/// running: the first diagnostic of the lowering (tileopt-lower-ugraph, then
/// the tile-to-PTX pipeline of tileopt-compile, `blockThreads` threads a
/// block), or a kernel with a loop that ptxas (found as tileopt-compile
/// finds it) spills more than kMaxSpillStoreBytes in; nothing when one
/// compiles well. Without ptxas only the lowering is checked; a ptxas that
/// fails on the PTX refuses the candidate with its messages.
///
/// Compiling is most of a cold search's time (LLVM and ptxas, up to a second
/// a candidate), and candidates are independent, so a batch is compiled on
/// threads of the compiler's own, each with an MLIRContext of its own
/// without multithreading. Not in the search's context: a pass manager
/// there waits on that context's thread pool, whose workers may be the very
/// threads waiting for the compiles (the superoptimize pass runs on one),
/// which deadlocked. A candidate crosses over as text.
class CandidateCompiler {
public:
  /// Compiles with at most `numThreads` threads at once; the candidates'
  /// dialects are those registered in `searchContext`.
  CandidateCompiler(MLIRContext *searchContext, unsigned numThreads,
                    int64_t blockThreads, StringRef chip);
  ~CandidateCompiler();

  /// How many candidates check compiles at once.
  unsigned numThreads() const { return contexts.size(); }

  /// What the compilation says of each of `candidates`, in their order.
  SmallVector<CompileCheck> check(ArrayRef<func::FuncOp> candidates);

private:
  CompileCheck checkOne(MLIRContext &context, StringRef candidate) const;

  DialectRegistry registry;
  /// One a thread, made when a batch first needs it.
  SmallVector<std::unique_ptr<MLIRContext>> contexts;
  int64_t blockThreads;
  std::string chip;
  std::optional<std::string> ptxas;
};

/// The ptxas CandidateCompiler runs, found as tileopt-compile finds it, or
/// nothing (then only the lowering is checked).
std::optional<std::string> compilationPtxas();

} // namespace mlir::tileopt::superopt

#endif // TILEOPT_SUPEROPT_COMPILATION_H
