#!/bin/sh
# corpus_compile.sh — compile time on real CUDA files: every .cu file of the registry corpus
# (tests/corpus) that kcc compiles (EXPECT `pass`) and that `nvcc -ptx` compiles too, each to
# PTX for one target with the build options the corpus gives it, by kcc and by nvcc. Prints a
# row per file and the sums: CPU time (user + system, from perf's task-clock; wall time on a
# loaded machine measures the load) and wall time, and the ratio nvcc / kcc.
#
# kcc runs with its precompiled-prelude cache warm (one run first, not counted), as it is
# after the first compile on a machine; -c adds a row with KCC_CACHE=0 (every run parses the
# prelude).
#
# -b BASE adds a column for another kcc (the tree before a change), measured in the same run.
#
# usage: bench/corpus_compile.sh [-n RUNS] [-k KCC] [-b BASE_KCC] [-o CORPUS_OUT] [-a sm_XX] [-c]
#                                [-f REGEX]
#   CORPUS_OUT: tests/corpus/run.sh's --out (default BUILD/corpus, where ctest's corpus tests
#   put the downloaded packages; run those first).
#   REGEX: only the files whose corpus key matches (grep -E), e.g. 'pycuda|pyopencl' for the
#   21 files of the first measurement (bench/RESULTS.md).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runs=5 kcc=$root/build/kcc base= out=$root/build/corpus arch=sm_75 cold=0 filter=.
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs=$2; shift 2 ;;
    -k) kcc=$2; shift 2 ;;
    -b) base=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -a) arch=$2; shift 2 ;;
    -c) cold=1; shift ;;
    -f) filter=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
command -v perf >/dev/null || { echo "needs perf (linux-perf)" >&2; exit 2; }
command -v nvcc >/dev/null || { echo "needs nvcc on the PATH" >&2; exit 2; }
[ -x "$kcc" ] || { echo "kcc not found at $kcc (-k)" >&2; exit 2; }
kcc=$(cd "$(dirname "$kcc")" && pwd)/$(basename "$kcc")
if [ -n "$base" ]; then
  [ -x "$base" ] || { echo "base kcc not found at $base (-b)" >&2; exit 2; }
  base=$(cd "$(dirname "$base")" && pwd)/$(basename "$base")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache

# CPU and wall milliseconds of RUNS runs of a command (means), as "cpu wall".
measure() {
  perf stat -r "$runs" -x, -e task-clock "$@" 2>"$tmp/perf" >/dev/null || return 1
  cpu=$(grep task-clock "$tmp/perf" | cut -d, -f1)
  # perf -x prints no wall time: time the same runs again with date.
  t0=$(date +%s%N)
  i=0
  while [ $i -lt "$runs" ]; do "$@" >/dev/null 2>&1; i=$((i + 1)); done
  t1=$(date +%s%N)
  echo "$cpu $(((t1 - t0) / runs / 1000000))"
}

hb=$([ -n "$base" ] && echo ' base kcc CPU (ms) |')
hc=$([ $cold = 1 ] && echo ' kcc, no cache, CPU (ms) |')
echo "| file | kcc CPU (ms) | nvcc CPU (ms) | kcc wall (ms) | nvcc wall (ms) |$hb$hc"
echo "|---|---:|---:|---:|---:|$([ -n "$base" ] && echo '---:|')$([ $cold = 1 ] && echo '---:|')"
sums="0 0 0 0 0 0"
n=0
for key in $(grep '\.cu pass$' "$root/tests/corpus/EXPECT" | cut -d' ' -f1 | grep -E -- "$filter"); do
  path=$(bash "$root/tests/corpus/run.sh" --out "$out" --path "$key") || continue
  opts=$(bash "$root/tests/corpus/run.sh" --out "$out" --options "$key")
  dir=$(dirname "$path") file=$(basename "$path")
  cd "$dir" || continue
  # shellcheck disable=SC2086 # the options are words
  nvcc -ptx -arch="$arch" $opts "$file" -o "$tmp/n.ptx" >/dev/null 2>&1 || { cd "$root"; continue; }
  "$kcc" -arch="$arch" $opts "$file" -o "$tmp/k.ptx" >/dev/null 2>&1 || { cd "$root"; continue; }
  k=$(measure "$kcc" -arch="$arch" $opts "$file" -o "$tmp/k.ptx") || { cd "$root"; continue; }
  v=$(measure nvcc -ptx -arch="$arch" $opts "$file" -o "$tmp/n.ptx") || { cd "$root"; continue; }
  c=0 b=0
  [ $cold = 1 ] && c=$(KCC_CACHE=0 measure "$kcc" -arch="$arch" $opts "$file" -o "$tmp/k.ptx" | cut -d' ' -f1)
  if [ -n "$base" ]; then
    "$base" -arch="$arch" $opts "$file" -o "$tmp/b.ptx" >/dev/null 2>&1 # its cache warm
    b=$(measure "$base" -arch="$arch" $opts "$file" -o "$tmp/b.ptx" | cut -d' ' -f1) || b=0
  fi
  cd "$root"
  set -- $k $v
  echo "| $key | $1 | $3 | $2 | $4 |$([ -n "$base" ] && echo " $b |")$([ $cold = 1 ] && echo " $c |")"
  sums=$(echo "$sums $1 $3 $2 $4 $c $b" |
    awk '{printf "%.1f %.1f %.1f %.1f %.1f %.1f", $1+$7, $2+$8, $3+$9, $4+$10, $5+$11, $6+$12}')
  n=$((n + 1))
done
set -- $sums
echo "| **sum of $n files** | $1 | $2 | $3 | $4 |$([ -n "$base" ] && echo " $6 |")$([ $cold = 1 ] && echo " $5 |")"
echo
echo "nvcc / kcc: CPU $(echo "$2 $1" | awk '{printf "%.1f", $1/$2}')x, wall $(echo "$4 $3" | awk '{printf "%.1f", $1/$2}')x$([ $cold = 1 ] && echo "; without the prelude cache: CPU $(echo "$2 $5" | awk '{printf "%.1f", $1/$2}')x")$([ -n "$base" ] && echo "; base kcc: CPU $(echo "$2 $6" | awk '{printf "%.1f", $1/$2}')x")"
