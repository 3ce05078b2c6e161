#!/bin/sh
# static_compare.sh — what kcc and nvcc make of the same kernels, without a GPU: for each
# kernel of bench/kernel_time (tests/kernels/NAME.k or bench/kernels/NAME.k against
# bench/cuda/NAME.cu), ptxas's
# resource report (registers per thread, spills, shared memory) and the size of each
# kernel's SASS in the cubin (.text.NAME, in 16-byte sm_90 instruction slots, alignment
# padding included). Both cubins come from the same ptxas: kcc's PTX goes through ptxas with
# the options kcc's bundle writer uses (-arch only), nvcc's through nvcc -cubin -O3.
# Registers and code size are hints, not timings: bench/kernel_time on a GPU is the measure.
#
# usage: bench/static_compare.sh [-k PATH_TO_KCC] [-a sm_XX]
# Needs nvcc and ptxas (CUDA toolkit) and readelf (binutils).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
arch=sm_90
kcc=""
while [ $# -gt 0 ]; do
  case "$1" in
    -k) kcc=$2; shift 2 ;;
    -a) arch=$2; shift 2 ;;
    *) echo "usage: $0 [-k PATH_TO_KCC] [-a sm_XX]" >&2; exit 2 ;;
  esac
done
if [ -z "$kcc" ]; then
  for c in "$root/build/kcc" "$root"/build*/kcc; do
    [ -x "$c" ] && { kcc=$c; break; }
  done
fi
if [ -z "$kcc" ] || [ ! -x "$kcc" ]; then
  echo "kcc not found: build it or pass -k" >&2
  exit 2
fi
cuda=/usr/local/cuda/bin
nvcc=$(command -v nvcc || echo $cuda/nvcc)
ptxas=$(command -v ptxas || echo $cuda/ptxas)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# ptxas -v report -> lines "ENTRY REGS SMEM SPILL_BYTES"
resources() {
  awk '/Compiling entry function/ { e = $0; sub(/.*function .?/, "", e); sub(/.? for .*/, "", e) }
       /spill stores/ { sp = $5 + $9 }
       /Used [0-9]+ registers/ { r = $0; sub(/.*Used /, "", r); sub(/ registers.*/, "", r)
         s = 0; if ($0 ~ /bytes smem/) { s = $0; sub(/ bytes smem.*/, "", s); sub(/.*, /, "", s) }
         print e, r, s, sp }' "$1"
}
# .text.ENTRY section sizes of a cubin -> lines "ENTRY SLOTS"
sass_slots() {
  readelf -SW "$1" 2>/dev/null | awk '$2 ~ /^\.text\./ { n = $2; sub(/^\.text\./, "", n); print n, $6 }' |
    while read -r n hex; do echo "$n $((0x$hex / 16))"; done
}

echo "Registers per thread, spilled bytes and SASS instruction slots, kcc vs nvcc ($arch, $("$nvcc" --version | sed -n 's/.*release \([^,]*\),.*/CUDA \1/p') ptxas for both):"
echo
echo "| kernel | kcc regs | nvcc regs | kcc spills | nvcc spills | shared bytes (kcc/nvcc) | kcc SASS slots | nvcc SASS slots |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for k in copy vecadd saxpy reduce transpose matmul histogram stencil blackscholes nbody scan conv \
  bs_float2 transpose_tiled; do
  src=$root/tests/kernels/$k.k
  [ -f "$src" ] || src=$here/kernels/$k.k
  [ -f "$src" ] || src=$here/cuda/$k.cu
  "$kcc" "$src" -arch="$arch" -o "$tmp/$k.ptx"
  "$ptxas" -v -arch="$arch" "$tmp/$k.ptx" -o "$tmp/$k.kcc.cubin" 2>"$tmp/$k.kcc.v"
  "$nvcc" -cubin -arch="$arch" -O3 -Xptxas -v "$here/cuda/$k.cu" -o "$tmp/$k.nvcc.cubin" 2>"$tmp/$k.nvcc.v"
  resources "$tmp/$k.kcc.v" | sort >"$tmp/a"
  resources "$tmp/$k.nvcc.v" | sort >"$tmp/b"
  sass_slots "$tmp/$k.kcc.cubin" | sort >"$tmp/c"
  sass_slots "$tmp/$k.nvcc.cubin" | sort >"$tmp/d"
  join "$tmp/a" "$tmp/b" | join - "$tmp/c" | join - "$tmp/d" |
    awk '{ printf "| %s | %s | %s | %s | %s | %s / %s | %s | %s |\n", $1, $2, $5, $4, $7, $3, $6, $8, $9 }'
done
