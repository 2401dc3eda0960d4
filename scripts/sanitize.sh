#!/usr/bin/env bash
# The compiler built with AddressSanitizer and UndefinedBehaviorSanitizer
# (TILEOPT_SANITIZE, every report fatal) in build-asan/, then the tests run
# with those tools: a report fails the test that ran into it.
#
#   scripts/sanitize.sh           # the whole ctest suite (about an hour here)
#   scripts/sanitize.sh --quick   # the lit suite and the unit tests (CI)
#
# Leaks are not checked (detect_leaks=0): like LLVM's own tools, ours exit
# with objects alive (the MLIRContext of a failed run, option storage).
# The runtime stays uninstrumented: Python loads it with ctypes.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

quick=0
[[ ${1:-} == --quick ]] && quick=1
BUILD_DIR=${TILEOPT_ASAN_BUILD_DIR:-$TILEOPT_ROOT/build-asan}
EXTRA_CMAKE_ARGS=(-DTILEOPT_SANITIZE=ON)

install_missing_packages
configure_and_build all

export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The stock mlir-opt loads the sanitized TileOptPlugin.so in some tests:
# the sanitizer runtimes must be in the process before it.
LD_PRELOAD="$(g++ -print-file-name=libasan.so):$(g++ -print-file-name=libubsan.so)"
export LD_PRELOAD
log "running the tests with the sanitized tools"
if [[ $quick == 1 ]]; then
  # The lit suite (every tool on every test file) and the unit tests; the
  # Python, corpus and random-program suites run the same tools longer.
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)" \
    -E '^(python-tests|doc-commands|corpus-tests|random-programs|cache-robustness|fuzz-smoke)$'
else
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)"
fi
