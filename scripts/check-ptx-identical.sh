#!/usr/bin/env bash
# Checks that a change to the compiler leaves the generated code alone: it
# compiles every program the code generator is known to take and compares
# what comes out byte for byte with what an earlier tree gave.
#
#   examples/tile/*.mlir             tileopt-compile, with the flags of the
#                                    file's `// tileopt-compile: FLAGS` line
#   examples/ugraph/*.mlir,          tileopt-opt --tileopt-lower-ugraph, then
#   examples/ugraph/small/*.mlir     tileopt-compile
#   bench/tile/checks/*.mlir         tileopt-compile
#
# (as scripts/prepare-device-run.sh compiles them for the GPU machine). Of
# each artifact it keeps kernels.ptx and manifest.json (tensor maps, dynamic
# shared memory, grid_sync); a program the compiler refuses is kept as its
# exit status and messages, so a refusal must stay the same refusal.
#
# Usage (build the tools first: ninja -C build tileopt-compile tileopt-opt):
#   scripts/check-ptx-identical.sh record DIR    baseline, from the old tree
#   scripts/check-ptx-identical.sh compare DIR   names what differs from DIR;
#                                                exits 1 if anything does
# Keep DIR outside the repository. TILEOPT_BUILD_DIR picks another build.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

root=$TILEOPT_ROOT
compile=$BUILD_DIR/bin/tileopt-compile
opt=$BUILD_DIR/bin/tileopt-opt

usage() {
  sed -n 's/^#   //p' "${BASH_SOURCE[0]}" >&2
  exit 2
}
[ $# -eq 2 ] || usage
mode=$1
dir=$2
case $mode in record | compare) ;; *) usage ;; esac
for tool in "$compile" "$opt"; do
  [ -x "$tool" ] || { echo "no $tool: build it first" >&2; exit 2; }
done

# Compiles `src` (with `flags`) into `out`/, keeping the PTX and the
# manifest, or the refusal in `out`/refused.
compile_into() {
  local src=$1 out=$2 lower=$3
  shift 3
  local artifact input=$src
  artifact=$(mktemp -d)
  mkdir -p "$out"
  if [ "$lower" = 1 ]; then
    input=$artifact/lowered.mlir
    if ! "$opt" "$src" --tileopt-lower-ugraph -o "$input" 2>"$artifact/err"; then
      { echo "tileopt-opt failed"; sed "s|$root/||g" "$artifact/err"; } >"$out/refused"
      rm -rf "$artifact"
      return
    fi
  fi
  if "$compile" "$input" -o "$artifact/out" "$@" 2>"$artifact/err"; then
    cp "$artifact/out/kernels.ptx" "$artifact/out/manifest.json" "$out/"
  else
    # Paths in the messages would differ between trees.
    { echo "tileopt-compile failed"; sed -e "s|$artifact/||g" -e "s|$root/||g" \
        "$artifact/err"; } >"$out/refused"
  fi
  rm -rf "$artifact"
}

# Compiles every program into `into`/<group>/<name>/.
compile_all() {
  local into=$1 src flags
  for src in "$root"/examples/tile/*.mlir; do
    read -r -a flags <<<"$(sed -n 's|^// tileopt-compile: ||p' "$src")"
    compile_into "$src" "$into/tile/$(basename "$src" .mlir)" 0 "${flags[@]}"
  done
  for src in "$root"/examples/ugraph/*.mlir; do
    compile_into "$src" "$into/ugraph/$(basename "$src" .mlir)" 1
  done
  for src in "$root"/examples/ugraph/small/*.mlir; do
    compile_into "$src" "$into/ugraph-small/$(basename "$src" .mlir)" 1
  done
  for src in "$root"/bench/tile/checks/*.mlir; do
    compile_into "$src" "$into/checks/$(basename "$src" .mlir)" 0
  done
}

if [ "$mode" = record ]; then
  rm -rf "$dir"
  mkdir -p "$dir"
  compile_all "$dir"
  echo "recorded $(find "$dir" -mindepth 2 -maxdepth 2 -type d | wc -l) programs" \
       "in $dir ($(find "$dir" -name refused | wc -l) refused)"
  exit 0
fi

[ -d "$dir" ] || { echo "no baseline in $dir: record one first" >&2; exit 2; }
now=$(mktemp -d)
trap 'rm -rf "$now"' EXIT
compile_all "$now"
differ=0
while read -r program; do
  if ! diff -rq "$dir/$program" "$now/$program" >/dev/null 2>&1; then
    echo "differs: $program"
    diff -rq "$dir/$program" "$now/$program" 2>&1 | sed 's/^/  /' || true
    differ=$((differ + 1))
  fi
done < <( (cd "$dir" && find . -mindepth 2 -maxdepth 2 -type d;
           cd "$now" && find . -mindepth 2 -maxdepth 2 -type d) |
         sed 's|^\./||' | sort -u)
total=$(find "$now" -mindepth 2 -maxdepth 2 -type d | wc -l)
if [ $differ -gt 0 ]; then
  echo "$differ of $total programs differ from $dir"
  exit 1
fi
echo "all $total programs identical to $dir"
