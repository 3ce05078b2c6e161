#!/bin/sh
# compile_time.sh — how long kcc takes to turn vecadd.k into PTX, next to the other ways of
# getting PTX for the same kernel on this machine:
#   nvcc -ptx                                    (CUDA C++, NVIDIA's toolchain)
#   clang-19 -x cl -cl-std=CL1.2 --target=nvptx64-nvidia-cuda -S   (OpenCL C -> PTX)
#   clang-19 -x cuda --cuda-device-only -nocudalib -S              (CUDA -> PTX, LLVM NVPTX)
# Each tool runs N times (hyperfine when installed, else a shell loop timed with date +%s%N);
# the output is a markdown table of mean wall times and ratios to kcc. Tools that are missing
# or fail on this machine are listed as such, not timed.
#
# usage: bench/compile_time.sh [-n RUNS] [-k PATH_TO_KCC] [-a sm_XX]
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runs=20
arch=sm_90
kcc=""
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs=$2; shift 2 ;;
    -k) kcc=$2; shift 2 ;;
    -a) arch=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ -z "$kcc" ]; then
  for c in "$root/build/kcc" "$root"/build*/kcc; do
    if [ -x "$c" ]; then kcc=$c; break; fi
  done
fi
if [ -z "$kcc" ] || [ ! -x "$kcc" ]; then
  echo "kcc binary not found: build it or pass -k PATH" >&2
  exit 2
fi

kcc=$(cd "$(dirname "$kcc")" && pwd)/$(basename "$kcc") # the runs happen in a scratch dir

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cp "$root/tests/kernels/vecadd.k" "$tmp/vecadd.k"
cat >"$tmp/vecadd.cu" <<'EOF'
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
EOF
cat >"$tmp/vecadd.cl" <<'EOF'
kernel void vecadd(global const float *a, global const float *b, global float *c, int n) {
    int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
    if (i < n) c[i] = a[i] + b[i];
}
EOF
# clang's CUDA mode without the CUDA headers (CUDA 13 is newer than clang 19 supports):
# the attributes and builtin variables are all vecadd needs.
cat >"$tmp/cuda_min.h" <<'EOF'
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#include <__clang_cuda_builtin_vars.h>
EOF

nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
clang=$(command -v clang-19 || true)

# name|command (run inside $tmp)
{
  echo "kcc|'$kcc' vecadd.k -o kcc.ptx -arch=$arch"
  [ -n "$nvcc" ] && echo "nvcc -ptx|'$nvcc' -ptx -arch=$arch vecadd.cu -o nvcc.ptx"
  [ -n "$clang" ] && echo "clang-19 OpenCL C|'$clang' -x cl -cl-std=CL1.2 --target=nvptx64-nvidia-cuda -march=$arch -O3 -S vecadd.cl -o clcl.ptx"
  [ -n "$clang" ] && echo "clang-19 CUDA|'$clang' -x cuda --cuda-device-only -nocudalib -nocudainc --cuda-gpu-arch=$arch -Wno-unknown-cuda-version -include ./cuda_min.h -O3 -S vecadd.cu -o clcuda.ptx"
} >"$tmp/tools"

mean_ms() { # command -> mean milliseconds over $runs runs (after one warm-up run)
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup 1 --runs "$runs" --export-json "$tmp/h.json" "$1" >/dev/null 2>&1 || return 1
    sed -n 's/.*"mean": *\([0-9.eE+-]*\).*/\1/p' "$tmp/h.json" | head -1 | awk '{printf "%.1f", $1 * 1000}'
  else
    sh -c "$1" >/dev/null 2>&1 || return 1
    start=$(date +%s%N)
    i=0
    while [ $i -lt "$runs" ]; do
      sh -c "$1" >/dev/null 2>&1 || return 1
      i=$((i + 1))
    done
    end=$(date +%s%N)
    awk -v a="$start" -v b="$end" -v n="$runs" 'BEGIN {printf "%.1f", (b - a) / n / 1e6}'
  fi
}

cd "$tmp" || exit 1
echo "Compile time of vecadd to PTX ($arch), mean of $runs runs$(command -v hyperfine >/dev/null 2>&1 && echo ' (hyperfine)'):"
echo
echo "| tool | mean (ms) | vs kcc |"
echo "|---|---:|---:|"
base=""
while IFS='|' read -r name cmd; do
  if ms=$(mean_ms "$cmd"); then
    [ "$name" = kcc ] && base=$ms
    ratio=-
    [ -n "$base" ] && ratio=$(awk -v a="$ms" -v b="$base" 'BEGIN {printf "%.2fx", a / b}')
    echo "| $name | $ms | $ratio |"
  else
    echo "| $name | failed | - |"
  fi
done <"$tmp/tools"
echo
echo "Machine: $(nproc) CPUs, $(uname -sm); kcc $("$kcc" --version 2>/dev/null | head -1)"
