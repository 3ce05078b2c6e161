#!/bin/sh
# compile_split.sh — where kcc's CPU goes on the registry corpus's CUDA files, by stage: each
# file (EXPECT `pass`, matching REGEX) compiled with its corpus build options to KIR, to LLVM
# IR and to PTX, the least task-clock of RUNS runs each. The stages are the differences: front
# end (clang's parse, kcc's lowering and KIR passes; to .kir), LLVM's optimisation (.ll less
# .kir) and the NVPTX code generator (.ptx less .ll). Printing KIR or LLVM IR costs a little
# that the PTX compile does not pay, so the later columns are slight underestimates.
#
# The precompiled prelude is warm (one compile first, not counted), as in corpus_compile.sh.
#
# usage: bench/compile_split.sh [-n RUNS] [-k KCC] [-o CORPUS_OUT] [-a sm_XX] [-f REGEX]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runs=3 kcc=$root/build/kcc out=$root/build/corpus arch=sm_75 filter=.
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs=$2; shift 2 ;;
    -k) kcc=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -a) arch=$2; shift 2 ;;
    -f) filter=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
command -v perf >/dev/null || { echo "needs perf (linux-perf)" >&2; exit 2; }
[ -x "$kcc" ] || { echo "kcc not found at $kcc (-k)" >&2; exit 2; }
kcc=$(cd "$(dirname "$kcc")" && pwd)/$(basename "$kcc")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"

# The least task-clock (ms) of RUNS runs of a command: the least is the run the machine's other
# load disturbed least, which a mean on a shared machine is not.
least() {
  best=
  i=0
  while [ $i -lt "$runs" ]; do
    t=$(perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | grep task-clock | cut -d, -f1)
    [ -n "$t" ] || return 1
    best=$(echo "$t ${best:-$t}" | awk '{ print ($1 < $2 ? $1 : $2) }')
    i=$((i + 1))
  done
  echo "$best"
}

echo "| file | front end (ms) | LLVM opt (ms) | NVPTX codegen (ms) | total (ms) |"
echo "|---|---:|---:|---:|---:|"
sums="0 0 0 0"
n=0
for key in $(grep '\.cu pass$' "$root/tests/corpus/EXPECT" | cut -d' ' -f1 | grep -E -- "$filter"); do
  path=$(bash "$root/tests/corpus/run.sh" --out "$out" --path "$key") || continue
  opts=$(bash "$root/tests/corpus/run.sh" --out "$out" --options "$key")
  dir=$(dirname "$path") file=$(basename "$path")
  cd "$dir" || continue
  # shellcheck disable=SC2086 # the options are words
  if "$kcc" -arch="$arch" $opts "$file" -o "$tmp/k.ptx" >/dev/null 2>&1 &&
    k=$(least "$kcc" -arch="$arch" $opts "$file" -o "$tmp/k.kir") &&
    l=$(least "$kcc" -arch="$arch" $opts "$file" -o "$tmp/k.ll") &&
    p=$(least "$kcc" -arch="$arch" $opts "$file" -o "$tmp/k.ptx"); then
    echo "$key $k $l $p" | awk '{printf "| %s | %.1f | %.1f | %.1f | %.1f |\n", $1, $2, $3 - $2, $4 - $3, $4}'
    sums=$(echo "$sums $k $l $p" | awk '{printf "%.1f %.1f %.1f %.1f", $1+$5, $2+$6-$5, $3+$7-$6, $4+$7}')
    n=$((n + 1))
  fi
  cd "$root" || exit 2
done
# shellcheck disable=SC2086 # four numbers, split on purpose
set -- $sums
echo "| **sum of $n files** | $1 | $2 | $3 | $4 |"
