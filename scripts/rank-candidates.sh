#!/usr/bin/env bash
# Ranks the superoptimizer's candidates by their run time on a GPU rather
# than by its cost model (docs/superoptimizer.md, "Measured ranking"). The
# search and the compilation need this build (LLVM/MLIR), the timing a GPU;
# they may be two machines:
#
#   scripts/rank-candidates.sh search WORKLOAD [DIR]
#       searches examples/linalg/WORKLOAD.mlir (or WORKLOAD, a path), writes
#       its ranked candidates to DIR (default:
#       build/device-artifacts/candidates-NAME) and compiles each into an
#       artifact DIR/<rank>/ (a candidate the lowering or the code generator
#       refuses is left out, with its log in DIR/<rank>.log);
#   python3 bench/superopt/time_candidates.py DIR --out TIMES.json
#       on the GPU (scripts/device-run.sh candidates-NAME does it): times
#       every artifact on the same inputs, checks each against the input
#       program's, and writes the times keyed by candidate;
#   scripts/rank-candidates.sh choose WORKLOAD TIMES.json
#       runs the same search ranked by those times and prints the chosen
#       µGraph.
#
# The search runs on one thread so that both runs stop their budgets at the
# same graph and find the same candidates (docs/superoptimizer.md, "Threads
# and determinism"); times are matched to candidates by their keys, so a
# candidate that changed is never given another's time.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() {
  sed -n '2,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
  exit 2
}
[ $# -ge 2 ] || usage
command=$1
workload=$2
source_file=$workload
[ -f "$source_file" ] || source_file=$TILEOPT_ROOT/examples/linalg/$workload.mlir
[ -f "$source_file" ] || { echo "no workload $workload" >&2; exit 2; }
name=$(basename "$source_file" .mlir)
opt=$BUILD_DIR/bin/tileopt-opt

# Candidates verified and timed besides the input program ($KEEP, default 8).
keep=${KEEP:-8}

search() { # options of tileopt-superoptimize
  # One thread and no binding time budget: the graph budgets end the
  # searches, so the candidates do not depend on the machine's load.
  "$opt" "$source_file" --pass-pipeline="builtin.module(func.func(tileopt-import-linalg,tileopt-superoptimize{threads=1 time-budget=900 keep=$keep $1}))"
}

case $command in
  search)
    dir=${3:-${TILEOPT_DEVICE_ARTIFACTS:-$BUILD_DIR/device-artifacts}/candidates-$name}
    rm -rf "$dir"
    mkdir -p "$dir"
    log "searching $source_file"
    search "candidates-dir=$dir" > /dev/null
    # One function per workload file: its candidates are in one directory.
    found=("$dir"/*/candidates.json)
    [ ${#found[@]} -eq 1 ] || { echo "expected one function in $source_file" >&2; exit 1; }
    mv "$(dirname "${found[0]}")"/* "$dir/"
    rmdir "$(dirname "${found[0]}")"
    for candidate in "$dir"/[0-9]*.mlir; do
      rank=$(basename "$candidate" .mlir)
      # The code generator takes 16-row tiles on 2 warps only (mma.sync's M
      # per warp row), so a candidate it refuses on 4 warps is tried on 2.
      compiled=0
      for warps in 4 2; do
        if "$opt" "$candidate" --tileopt-lower-ugraph -o "$dir/$rank.tile.mlir" \
             > "$dir/$rank.log" 2>&1 &&
           "$BUILD_DIR/bin/tileopt-compile" "$dir/$rank.tile.mlir" -o "$dir/$rank" \
             --num-warps "$warps" >> "$dir/$rank.log" 2>&1; then
          compiled=1
          break
        fi
        rm -rf "${dir:?}/$rank"
      done
      rm -f "$dir/$rank.tile.mlir"
      if [ $compiled -eq 1 ]; then
        rm "$dir/$rank.log"
        log "candidate $rank: compiled ($warps warps)"
      else
        log "candidate $rank: not compiled, left out (see $dir/$rank.log)"
      fi
    done
    log "candidates in $dir"
    ;;
  choose)
    [ $# -eq 3 ] || usage
    search "measured-times=$3"
    ;;
  *) usage ;;
esac
