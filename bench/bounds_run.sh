#!/bin/sh
# bounds_run.sh DIR — the cost of `kcc -fbounds-check` on this machine's GPU (DIR made by
# bench/bounds_prepare.sh): bench/kernel_time with the checked bundles against the unchecked
# ones (ratio column: checked / unchecked kernel time, medians of timed launches), on
#   cuda     KCC_DEVICE=cuda, the cubins
#   opencl   KCC_DEVICE=opencl (NVIDIA's OpenCL driver through an ICD directory written here)
#   memcheck the unchecked cubins under compute-sanitizer --tool memcheck (when it is on PATH
#            or in /usr/local/cuda/bin), for comparison with NVIDIA's own checker: its kernel
#            times over the `cuda` unchecked column are its slowdown
# Environment: CONFIGS (default "cuda opencl memcheck"), SIZES ("" for the full sizes, or
# --small), OUT (the tables also go to $OUT/bounds_results.md). Prints markdown tables. Exit
# status 1 when any kernel computed a wrong result.
set -u
[ $# -ge 1 ] || { echo "usage: $0 DIR (made by bench/bounds_prepare.sh)" >&2; exit 2; }
dir=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results=/dev/null
[ -n "${OUT:-}" ] && mkdir -p "$OUT" && results=$OUT/bounds_results.md && : >"$results"
say() { echo "$*"; echo "$*" >>"$results"; }
icd=""
for f in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 \
         /usr/lib64/libnvidia-opencl.so.1; do
  [ -e "$f" ] && { icd=$f; break; }
done
mkdir -p "$tmp/vendors"
echo "${icd:-/usr/local/nvidia/lib64/libnvidia-opencl.so.1}" >"$tmp/vendors/nvidia.icd"
for f in /etc/OpenCL/vendors/*.icd; do [ -e "$f" ] && cp "$f" "$tmp/vendors/"; done
export OCL_ICD_VENDORS="$tmp/vendors" XDG_CACHE_HOME="$tmp/cache"
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir/lib"
kt=$dir/bin/kernel_time
b=$dir/bundles
wrong=0
say "# kcc -fbounds-check: checked / unchecked kernel time, $(date -u +%Y-%m-%d) on $(uname -n)"
[ -f "$dir/MANIFEST" ] && sed 's/^/    /' "$dir/MANIFEST"
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/    GPU: /'
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
# shellcheck disable=SC2086 # SIZES is empty or one option, split on purpose
for c in ${CONFIGS:-cuda opencl memcheck}; do
  say ""
  say "## $c"
  case $c in
    cuda) set -- env KCC_DEVICE=cuda "$kt" ${SIZES:-} --require-gpu \
            -f checked="$b/checked" -e KCC_CUDA_FORM=cubin \
            -f unchecked="$b/unchecked" -e KCC_CUDA_FORM=cubin -r unchecked ;;
    opencl) set -- env KCC_DEVICE=opencl "$kt" ${SIZES:-} --require-gpu \
              -f checked="$b/checked" -f unchecked="$b/unchecked" -r unchecked ;;
    memcheck)
      if [ -z "$sanitizer" ]; then say "compute-sanitizer not found: no memcheck comparison"; continue; fi
      set -- env KCC_DEVICE=cuda "$sanitizer" --tool memcheck --print-limit 1 "$kt" ${SIZES:-} \
        --require-gpu -n 4 -w 1 -f memcheck="$b/unchecked" -e KCC_CUDA_FORM=cubin ;;
    *) say "unknown configuration '$c'"; exit 2 ;;
  esac
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  cat "$tmp/out"; cat "$tmp/out" >>"$results"
  [ $rc -eq 1 ] && wrong=1 && say "(a kernel computed a wrong result: see below)"
  [ $rc -ne 0 ] && sed 's/^/    /' "$tmp/err" | tail -20
done
exit $wrong
