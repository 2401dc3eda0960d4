//===- ThreadDiagnostics.h - Diagnostic handlers of one thread --*- C++ -*-===//
//
// MLIR's diagnostic handlers belong to the context, which every thread
// shares. Code that silences or collects the diagnostics of its own work
// (the superoptimizer pricing and verifying candidates) must not take those
// of another thread: a pass manager runs a function pass on several
// functions at once, and their diagnostics would vanish.
//
//===----------------------------------------------------------------------===//
#ifndef TILEOPT_DIALECT_COMMON_THREADDIAGNOSTICS_H
#define TILEOPT_DIALECT_COMMON_THREADDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"

#include <thread>
#include <utility>

namespace mlir::tileopt {

/// A ScopedDiagnosticHandler that is given only the diagnostics emitted on
/// the thread that created it; those of other threads go on to the handlers
/// registered before it.
class ThreadDiagnosticHandler : public ScopedDiagnosticHandler {
public:
  template <typename HandlerFn>
  ThreadDiagnosticHandler(MLIRContext *context, HandlerFn &&handler)
      : ScopedDiagnosticHandler(
            context,
            [owner = std::this_thread::get_id(),
             handler = std::forward<HandlerFn>(handler)](
                Diagnostic &diagnostic) mutable -> LogicalResult {
              if (std::this_thread::get_id() != owner)
                return failure();
              return handler(diagnostic);
            }) {}
};

} // namespace mlir::tileopt

#endif // TILEOPT_DIALECT_COMMON_THREADDIAGNOSTICS_H
