#!/usr/bin/env bash
# TileOpt's main job on a bundled program: installs what is missing, builds,
# then compiles examples/linalg/gated_mlp.mlir (silu(X W1) * (X W2), linalg
# as a front end emits it) end to end with tileopt-compile, the search
# included. Prints the chosen µGraph, its kernels (from the artifact's
# manifest.json) and the artifact's path; on a machine with a GPU (nvidia-smi
# sees one, python3 has torch with CUDA) it then runs the artifact on torch
# tensors (scripts/run-artifact.py) and prints its time beside PyTorch's for
# the same function. Without a GPU it says that it skipped the run.
#
#   scripts/run-example.sh [PROGRAM.mlir] [-o ARTIFACT] [TILEOPT-COMPILE OPTIONS]
#       compile PROGRAM (TOSA, linalg, tk, µGraph or tile; default
#       examples/linalg/gated_mlp.mlir) to ARTIFACT (default
#       build/examples/NAME.art), passing the options (--opt=value form)
#       to tileopt-compile, e.g. --time-budget=10 or --no-cache;
#   scripts/run-example.sh --run-only ARTIFACT
#       run a compiled artifact on the GPU alone: no LLVM, no build of
#       TileOpt (the runtime library is built with CMake and the CUDA
#       toolkit if it is not there). Exits 77 without a GPU.
#
# Options of the run: --peer NAME (the bench/tile/bench.py workload to
# compare with; by default read off the kernels' names), --cuda-graph (time
# both sides replayed from CUDA graphs), --torch-compile (add torch.compile
# as a peer). $TILEOPT_PYTHON is the Python with torch (default python3).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() {
  sed -n '2,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
  exit "$1"
}

program=$TILEOPT_ROOT/examples/linalg/gated_mlp.mlir
program_given=0
artifact=""
run_only=""
compile_args=()
run_args=()
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) usage 0 ;;
    --run-only) [ $# -ge 2 ] || usage 2; run_only=$2; shift ;;
    --run-only=*) run_only=${1#*=} ;;
    -o) [ $# -ge 2 ] || usage 2; artifact=$2; shift ;;
    --peer) [ $# -ge 2 ] || usage 2; run_args+=(--peer "$2"); shift ;;
    --peer=* | --cuda-graph | --torch-compile) run_args+=("$1") ;;
    -*) compile_args+=("$1") ;;
    *)
      if [ $program_given -eq 0 ]; then
        program=$1
        program_given=1
      else
        compile_args+=("$1")
      fi
      ;;
  esac
  shift
done
PYTHON=${TILEOPT_PYTHON:-python3}

# Why the artifact cannot run here, or nothing if it can.
no_gpu_reason() {
  if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "no GPU here (nvidia-smi finds none)"
  elif ! "$PYTHON" -c 'import sys, torch, triton; sys.exit(not torch.cuda.is_available())' \
         >/dev/null 2>&1; then
    echo "a GPU, but $PYTHON has no torch with CUDA (and triton)"
  fi
}

# The runtime's shared library: one already built, else built from runtime/
# (CMake and the CUDA toolkit; no LLVM), as scripts/device-run.sh does.
runtime_library() {
  local candidate
  for candidate in "${TILEOPT_RUNTIME_LIB:-}" "$BUILD_DIR/lib/libtileopt_runtime.so" \
                   "$TILEOPT_ROOT/runtime/build/lib/libtileopt_runtime.so"; do
    if [ -n "$candidate" ] && [ -f "$candidate" ]; then
      echo "$candidate"
      return
    fi
  done
  local dir=${TILEOPT_RUNTIME_BUILD:-/tmp/tileopt-runtime}
  if [ ! -f "$dir/lib/libtileopt_runtime.so" ]; then
    log "building the runtime (runtime/ -> $dir)"
    local generator=()
    command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
    cmake "${generator[@]}" -S "$TILEOPT_ROOT/runtime" -B "$dir" \
      -DCMAKE_BUILD_TYPE=Release >"$dir.log" 2>&1 &&
      cmake --build "$dir" -j "$(nproc)" >>"$dir.log" 2>&1 ||
      { echo "the runtime did not build (see $dir.log)" >&2; return 1; }
  fi
  echo "$dir/lib/libtileopt_runtime.so"
}

# Runs the artifact on the GPU, or says why not: status 77 then.
run_on_gpu() {
  local reason
  reason=$(no_gpu_reason)
  if [ -n "$reason" ]; then
    log "$reason: skipped the run on the GPU"
    echo "To run it where the GPU is (no LLVM needed there):"
    echo "  scripts/run-example.sh --run-only ${1#"$TILEOPT_ROOT"/}"
    return 77
  fi
  local library
  library=$(runtime_library) || return 1
  log "running $1 on the GPU against PyTorch (scripts/run-artifact.py)"
  TILEOPT_RUNTIME_LIB=$library "$PYTHON" "$TILEOPT_ROOT/scripts/run-artifact.py" \
    "$1" "${run_args[@]}"
}

# The kernels of an artifact, in launch order, and its buffers.
print_kernels() {
  "$PYTHON" - "$1/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
dims = lambda d: "x".join(map(str, d))
print(f"{len(m['launches'])} launch(es) for {m['target']['arch']}:")
for launch in m["launches"]:
    k = m["kernels"][launch["kernel"]]
    shared = k.get("shared_memory", {})
    smem = shared.get("static", 0) + shared.get("dynamic", 0)
    print(f"  {k['name']:<28} grid {dims(launch['grid']):<10} "
          f"block {dims(k['block']):<9} shared memory {smem} B")
print("buffers:")
for b in m["buffers"]:
    print(f"  {b['name']:<10} {b['role']:<8} {b['dtype']:<5} {dims(b['shape'])}")
PY
}

if [ -n "$run_only" ]; then
  [ -f "$run_only/manifest.json" ] ||
    { echo "$run_only is no artifact (no manifest.json)" >&2; exit 2; }
  print_kernels "$run_only"
  run_on_gpu "$run_only"
  exit
fi

[ -f "$program" ] || { echo "no program $program" >&2; exit 2; }
name=$(basename "$program" .mlir)
artifact=$(realpath -m "${artifact:-$BUILD_DIR/examples/$name.art}")

install_missing_packages
configure_and_build tileopt-compile
compile=$BUILD_DIR/bin/tileopt-compile

log "tileopt-compile $program --emit=ugraph: the search, and the µGraph it chose"
SECONDS=0
"$compile" "$program" --emit=ugraph --progress "${compile_args[@]}"
searched=$SECONDS
log "tileopt-compile $program -o $artifact: lowering, code generation, ptxas"
SECONDS=0
"$compile" "$program" -o "$artifact" "${compile_args[@]}"
log "compiled in ${searched} s + ${SECONDS} s (the second compile reads the search's answer from its cache)"

print_kernels "$artifact"
echo "artifact: $artifact"
status=0
run_on_gpu "$artifact" || status=$?
# No GPU is no failure of the example: it says so above.
[ $status -eq 77 ] && status=0
exit $status
