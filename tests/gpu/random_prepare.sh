#!/bin/sh
# random_prepare.sh OUTDIR SEEDS [KERNELS_PER_SEED] [BUILD_DIR] — the GPU half of the random
# differential testing (tests/random/, docs/testing.md), prepared on a machine with kcc, clang-19,
# python3 and the CUDA toolkit (this one), for tests/gpu/random_run.sh OUTDIR on a GPU machine
# that has only a CUDA driver, a C library and a shell. For each seed of SEEDS (A-B):
#   OUTDIR/batches/SEED/rk.kcb     kcc -ffp-contract=off -arch=sm_90,sm_80: PTX for both, and
#                                  cubins where ptxas is on the PATH
#   OUTDIR/batches/SEED/rk.fatbin  kcc's CUDA C (-ffp-contract=off) built by nvcc for sm_80
#                                  and sm_90 (+ compute_90 PTX), when nvcc is on the PATH
#   OUTDIR/batches/SEED/rk.ref     the host reference's outputs (clang-19, UBSan + ASan)
#   OUTDIR/bin/rk_run, rk_cmp      the runner (libkcrt linked in) and the comparer
# 30 seeds of 10 kernels (the default) make the 300 kernels issue 16 asks of a GPU run.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OUTDIR SEEDS(A-B) [KERNELS_PER_SEED] [BUILD_DIR]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
seeds=$2
k=${3:-10}
build=${4:-$root/build}
export PATH="$PATH:/usr/local/cuda/bin"
lo=${seeds%-*}
hi=${seeds#*-}

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "${JOBS:-2}" --target kcc rk_run rk_cmp
rm -rf "$out"
mkdir -p "$out/bin" "$out/batches" "$out/lib"
cp "$build/tests/rk_run" "$build/tests/rk_cmp" "$out/bin/"
nvcc=$(command -v nvcc || true)
fail=0
seed=$lo
while [ "$seed" -le "$hi" ]; do
  d="$out/batches/$seed"
  mkdir -p "$d"
  python3 "$root/tests/random/rkgen.py" "$seed" -k "$k" -o "$d/rk"
  "$build/kcc" -w -ffp-contract=off -arch=sm_90,sm_80 "$d/rk.k" -o "$d/rk.kcb" || fail=1
  if [ -n "$nvcc" ]; then
    "$build/kcc" -w -ffp-contract=off "$d/rk.k" -o "$d/rk.cu" || fail=1
    "$nvcc" -w -fatbin -gencode arch=compute_80,code=sm_80 \
      -gencode arch=compute_90,code="[sm_90,compute_90]" "$d/rk.cu" -o "$d/rk.fatbin" || fail=1
  fi
  clang-19 -w -O0 -ffp-contract=off -fsanitize=undefined,address -fno-sanitize-recover=all \
    -I "$root/tests/random" "$d/rk_ref.c" -o "$d/rk_ref" -lm
  (cd "$d" && ./rk_ref "$seed" rk.ref) || fail=1
  echo "$k" >"$d/count"
  rm -f "$d/rk_ref"
  seed=$((seed + 1))
done
for l in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
  if [ -e "$l/libOpenCL.so.1" ]; then cp -L "$l/libOpenCL.so.1" "$out/lib/"; break; fi
done
cp "$root/tests/gpu/random_run.sh" "$out/run.sh"
chmod +x "$out/run.sh"
{
  echo "prepared $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n): seeds $seeds, $k kernels each"
  echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  "$build/kcc" --version
  echo "ptxas: $(command -v ptxas || echo none); nvcc: ${nvcc:-none}"
} >"$out/MANIFEST"
du -sh "$out"
[ $fail -eq 0 ] || { echo "random_prepare.sh: something failed (see above)" >&2; exit 1; }
echo "prepared $out: run '$out/run.sh $out' on the GPU machine"
