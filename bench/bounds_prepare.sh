#!/bin/sh
# bounds_prepare.sh DIR [BUILD_DIR] — builds here (kcc, ptxas; no GPU) what bench/bounds_run.sh
# DIR runs on the GPU machine: the checked/unchecked kernel-time comparison of
# `kcc -fbounds-check` (docs/bugs.md).
#   DIR/bin/kernel_time                 bench/kernel_time.c, libkcrt beside it ($ORIGIN rpath)
#   DIR/bundles/unchecked/NAME.kcb      kcc tests/kernels/NAME.k -arch=sm_$SM
#   DIR/bundles/checked/NAME.kcb        the same with -fbounds-check
# Environment: SM (default 90), CC (default cc), JOBS (default 2).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR [BUILD_DIR]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
build=${2:-$root/build-bench}
sm=${SM:-90}
cc=${CC:-cc}
kernels="vecadd saxpy reduce transpose matmul histogram stencil"
cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" -j "${JOBS:-2}" --target kcc kcbinfo kcrt_shared
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/bundles/unchecked" "$out/bundles/checked"
out=$(cd "$out" && pwd)
cp -L "$build/runtime/libkcrt.so.0" "$out/lib/libkcrt.so.0"
# shellcheck disable=SC2016 # $ORIGIN is for the linker
$cc -std=c11 -O2 -Wall -Wextra -Werror -I"$root/runtime/include" "$root/bench/kernel_time.c" \
  -L"$build/runtime" -lkcrt -lm -Wl,-rpath,'$ORIGIN/../lib' -o "$out/bin/kernel_time"
cp "$build/runtime/kcbinfo" "$out/bin/"
for k in $kernels; do
  "$build/kcc" "$root/tests/kernels/$k.k" -arch="sm_$sm" -o "$out/bundles/unchecked/$k.kcb"
  "$build/kcc" -fbounds-check "$root/tests/kernels/$k.k" -arch="sm_$sm" \
    -o "$out/bundles/checked/$k.kcb"
done
for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
  if [ -e "$d/libOpenCL.so.1" ]; then cp -L "$d/libOpenCL.so.1" "$out/lib/"; break; fi
done
cp "$root/bench/bounds_run.sh" "$out/run.sh"
chmod +x "$out/run.sh"
{
  echo "prepared $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
  echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "$("$build/kcc" --version | head -1); sm_$sm; kernels: $kernels"
} >"$out/MANIFEST"
echo "prepared $out: on the GPU machine run 'bench/bounds_run.sh $1' (or '$1/run.sh $1')"
