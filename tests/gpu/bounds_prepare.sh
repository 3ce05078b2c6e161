#!/bin/sh
# bounds_prepare.sh OUTDIR [BUILD_DIR] — builds, on a machine with kcc (no GPU needed), what
# tests/gpu/bounds_run.sh OUTDIR runs on the GPU machine: kcc -fbounds-check's tests
# (tests/bounds/) on PTX/cubin and on NVIDIA's OpenCL.
#   OUTDIR/bin/rt_bounds, rt_launch_checks, rt_NAME   the test programs (libkcrt linked in)
#   OUTDIR/bundles/checked/NAME.kcb                   -fbounds-check -arch=sm_90,sm_80: oob.k
#                                                     and every corpus kernel with a runtime test
#   OUTDIR/bundles/plain/NAME.kcb                     the same without -fbounds-check
# Environment: JOBS (default 2).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUTDIR [BUILD_DIR]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
build=${2:-$root/build-gpu}
jobs=${JOBS:-2}

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
kernels=$(sed -n '/^set(KCRT_RUNTIME_KERNELS/,/)/p' "$root/tests/runtime.cmake" |
          sed 's/set(KCRT_RUNTIME_KERNELS//; s/)//' | tr -s ' \n' ' ')
targets="kcc kcbinfo rt_bounds rt_launch_checks"
for k in $kernels; do targets="$targets rt_$k"; done
# shellcheck disable=SC2086 # the target list splits on purpose
cmake --build "$build" -j "$jobs" --target $targets

rm -rf "$out"
mkdir -p "$out/bin" "$out/bundles/checked" "$out/bundles/plain" "$out/lib"
cp "$build/runtime/kcbinfo" "$build/tests/rt_bounds" "$build/tests/rt_launch_checks" "$out/bin/"
fail=0
"$build/kcc" -fbounds-check "$root/tests/bounds/oob.k" -arch=sm_90,sm_80 \
  -o "$out/bundles/checked/oob.kcb" || fail=1
for k in $kernels; do
  cp "$build/tests/rt_$k" "$out/bin/"
  "$build/kcc" -fbounds-check "$root/tests/kernels/$k.k" -arch=sm_90,sm_80 \
    -o "$out/bundles/checked/$k.kcb" || fail=1
  "$build/kcc" "$root/tests/kernels/$k.k" -arch=sm_90,sm_80 -o "$out/bundles/plain/$k.kcb" ||
    fail=1
done
cp "$root/tests/gpu/bounds_run.sh" "$out/run.sh"
chmod +x "$out/run.sh"
for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
  if [ -e "$d/libOpenCL.so.1" ]; then cp -L "$d/libOpenCL.so.1" "$out/lib/"; break; fi
done
{
  echo "prepared $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
  echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown) (plus uncommitted changes, if any)"
  "$build/kcc" --version
  echo "kernels: oob $kernels"
} >"$out/MANIFEST"
"$out/bin/kcbinfo" "$out/bundles/checked/oob.kcb" | head -12 >>"$out/MANIFEST"
du -sh "$out"
[ $fail -eq 0 ] || { echo "bounds_prepare.sh: kcc failed on some kernels (see above)" >&2; exit 1; }
echo "prepared $out: run 'tests/gpu/bounds_run.sh $out' (or '$out/run.sh $out') on the GPU machine"
