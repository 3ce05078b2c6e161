#!/bin/sh
# fastmath.sh KCC SPIRV-DIS OUTDIR — tests/cu/fastmath.cu in every form: the kernel `fast`
# uses each fast intrinsic, `precise` the precise functions. Exit 1 on the first difference.
set -eu
kcc=$1 dis=$2 out=$3
src=$(dirname "$0")/fastmath.cu
mkdir -p "$out"
fail() { echo "fastmath: $*"; exit 1; }
"$kcc" "$src" --emit=kir -o "$out/f.kir"
# Ten approx builtins in `fast` (fdividef is approximate by itself), none in `precise`.
[ "$(grep -o 'builtin [a-z0-9]* approx' "$out/f.kir" | sort | uniq -c | awk '{print $3}' | tr '\n' ' ')" = \
  "cos exp exp10 log log10 log2 pow sin tan " ] || fail "approx builtins: $(grep -o 'builtin [a-z0-9]* approx' "$out/f.kir" | tr '\n' ' ')"
sed -n '/precise/,$p' "$out/f.kir" | grep -q approx && fail "precise calls marked approx"
"$kcc" "$src" -o "$out/f.cl"
for f in native_exp native_log native_sin native_cos native_tan native_exp10 native_log2 native_log10; do
  grep -q "$f(" "$out/f.cl" || fail "OpenCL C lacks $f"
done
sed -n '/precise/,$p' "$out/f.cl" | grep -q native_ && fail "OpenCL C: precise calls made native"
"$kcc" "$src" -o "$out/f.kcc.cu"
for f in __expf __logf __sinf __cosf __tanf __exp10f __log2f __log10f __powf; do
  grep -q "$f(" "$out/f.kcc.cu" || fail "CUDA C lacks $f"
done
"$kcc" "$src" -arch=sm_90 -o "$out/f.ptx"
# libdevice's fast functions are single approximate instructions; the precise sinf and cosf
# reduce their argument and use none of these.
fastptx=$(awk '/.entry fast/,/^}/' "$out/f.ptx")
preciseptx=$(awk '/.entry precise/,/^}/' "$out/f.ptx")
for i in sin.approx cos.approx lg2.approx ex2.approx div.approx; do
  printf '%s\n' "$fastptx" | grep -q "$i" || fail "PTX of fast lacks $i"
done
printf '%s\n' "$preciseptx" | grep -q 'sin.approx\|cos.approx' && fail "PTX of precise uses sin/cos.approx"
# Constants folded: one ex2.approx (for __powf(2, v)), no other approximation, nvcc's constants.
foldptx=$(awk '/.entry folded/,/^}/' "$out/f.ptx")
[ "$(printf '%s\n' "$foldptx" | grep -c 'approx')" = 1 ] || fail "PTX of folded: $(printf '%s\n' "$foldptx" | grep approx | tr '\n' ' ')"
for c in 0f40800000 0f402DF854 0f3EF57744 0f3EAAAAAB; do
  printf '%s\n' "$foldptx" | grep -q "$c" || fail "PTX of folded lacks the constant $c"
done
if [ -n "$dis" ]; then
  "$kcc" "$src" -o "$out/f.spv"
  "$dis" "$out/f.spv" -o "$out/f.spvasm"
  for f in native_exp native_log native_sin native_cos; do
    grep -q " $f " "$out/f.spvasm" || fail "SPIR-V lacks $f"
  done
fi
echo "fastmath: every form uses the fast versions for the intrinsics only"
