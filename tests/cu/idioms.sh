#!/bin/sh
# idioms.sh KCC SOURCE OUTDIR — Kernighan's bit-count loops of tests/runtime/cuda_idioms.cu
# (the pc_* kernels) are one population count in PTX (popc, no loop left) and in OpenCL C
# (popcount); the look-alikes (not_*) keep their loops; at -O0 nothing is rewritten. The st_*
# loops (a constant stride other than 1) are unrolled unless the source says not to.
# tests/runtime/cuda_idioms.c checks the results on a device.
set -eu
kcc=$1 src=$2 out=$3
mkdir -p "$out"
fail() { echo "idioms: $*"; exit 1; }
"$kcc" "$src" -arch=sm_90 -o "$out/i.ptx"
"$kcc" "$src" -o "$out/i.cl"
"$kcc" "$src" -O0 --emit=kir -o "$out/i0.kir"
for k in pc_while pc_for_char pc_signed pc_long pc_hinted not_do not_extra; do
  body=$(awk "/.entry $k\\(/,/^}/" "$out/i.ptx")
  [ -n "$body" ] || fail "no kernel $k in the PTX"
  popc=$(printf '%s\n' "$body" | grep -c 'popc\.b' || true)
  # A loop is a branch back to a label already passed.
  loops=$(printf '%s\n' "$body" | awk '/^\$L__BB[0-9_]*:/ { seen[substr($1, 1, length($1) - 1)] = 1 }
    /bra/ { t = $NF; sub(/;$/, "", t); if (t in seen) n++ } END { print n + 0 }')
  clfn=$(awk "/kernel void $k\\(/,/^}/" "$out/i.cl" | grep -c 'popcount(' || true)
  case $k in
  pc_*) [ "$popc" = 1 ] && [ "$clfn" = 1 ] || fail "$k: $popc popc in PTX, $clfn popcount in OpenCL C" ;;
  *) [ "$popc" = 0 ] && [ "$clfn" = 0 ] || fail "$k: rewritten ($popc popc, $clfn popcount)" ;;
  esac
  case $k in
  pc_*) [ "$loops" = 0 ] || fail "$k: the PTX still loops" ;;
  *) [ "$loops" -ge 1 ] || fail "$k: no loop left in the PTX" ;;
  esac
done
grep -q popcount "$out/i0.kir" && fail "-O0 rewrote a loop"
# Strided loops toward a run-time bound: 4 copies of the body or more (the remainder's too), one
# where the source says #pragma unroll 1.
for k in st_up st_down st_kept; do
  loads=$(awk "/.entry $k\\(/,/^}/" "$out/i.ptx" | grep -c 'ld\.global' || true)
  case $k in
  st_kept) [ "$loads" = 1 ] || fail "$k: $loads loads, want 1 (#pragma unroll 1)" ;;
  *) [ "$loads" -ge 4 ] || fail "$k: $loads loads, want 4 or more (unrolled)" ;;
  esac
done
# kcc's dialect: the same loops with the scalar as the condition.
"$kcc" "$(dirname "$0")/idioms.k" -arch=sm_90 -o "$out/k.ptx"
[ "$(grep -c 'popc\.b' "$out/k.ptx")" = 2 ] || fail "idioms.k: $(grep -c 'popc\.b' "$out/k.ptx") popc, want 2"
echo "idioms: 7 loops are one popcount (5 in PTX and OpenCL C, 2 of kcc's dialect), 2 look-alikes kept, none at -O0; 2 strided loops unrolled, 1 kept"
