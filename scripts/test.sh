#!/usr/bin/env bash
# Installs what is missing, builds everything, and runs every test: the lit
# suite (check-tileopt), the GoogleTest unit tests and the Python tests
# (python-tests), through ctest. Exits
# non-zero on any failure, and when docs/ir no longer matches the ODS.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

install_missing_packages
configure_and_build all tileopt-doc
log "running the tests"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)"

if git -C "$TILEOPT_ROOT" rev-parse --git-dir >/dev/null 2>&1 &&
   ! git -C "$TILEOPT_ROOT" diff --quiet -- docs/ir; then
  log "docs/ir is out of date with the ODS: commit the regenerated files"
  git -C "$TILEOPT_ROOT" --no-pager diff --stat -- docs/ir
  exit 1
fi
