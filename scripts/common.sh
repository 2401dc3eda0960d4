# Shared by run-example.sh and test.sh: install what is missing, configure,
# build. Sourced, not run.
set -euo pipefail

TILEOPT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${TILEOPT_BUILD_DIR:-$TILEOPT_ROOT/build}
LLVM_PREFIX=/usr/lib/llvm-22

# Debian 12 packages the build and the tests need. mlir-22-tools is required
# by find_package(MLIR) even though libmlir-22-dev does not pull it in; NumPy
# and pytest run python/tests (the interpreter against NumPy).
PACKAGES=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          ninja-build cmake g++ ccache libgtest-dev python3
          python3-numpy python3-pytest)

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# TILEOPT_SKIP_BUILD=1 makes both steps below do nothing: the scripts then
# use the build that is there (the doc-command test runs them so, from
# ctest, which must not start a build of its own build directory).
install_missing_packages() {
  [ "${TILEOPT_SKIP_BUILD:-0}" = 1 ] && return 0
  local missing=()
  for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    "${missing[@]}" >/dev/null
}

# More cmake arguments of a first configure (scripts/sanitize.sh sets some).
EXTRA_CMAKE_ARGS=()

configure_and_build() {
  [ "${TILEOPT_SKIP_BUILD:-0}" = 1 ] && return 0
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    log "configuring $BUILD_DIR ${EXTRA_CMAKE_ARGS[*]}"
    cmake -G Ninja -S "$TILEOPT_ROOT" -B "$BUILD_DIR" \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR=$LLVM_PREFIX/lib/cmake/mlir \
      -DLLVM_EXTERNAL_LIT=$LLVM_PREFIX/bin/lit "${EXTRA_CMAKE_ARGS[@]}" >/dev/null
  fi
  log "building (ninja -j$(nproc))"
  ninja -C "$BUILD_DIR" "$@"
}
