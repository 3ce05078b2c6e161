#!/bin/sh
# prepare.sh OUTDIR [BUILD_DIR] — builds, on a machine with LLVM (this one), everything the GPU
# run needs, into OUTDIR, so that tests/gpu/run.sh OUTDIR can run on a GPU machine that has a
# CUDA driver, a C library and a shell but no LLVM and no kcc:
#   OUTDIR/bin/        the runtime test programs (libkcrt linked in statically) and kcbinfo,
#                      with rt_intrinsics and rt_warp (tests/warp/, their kernels beside them)
#   OUTDIR/bundles/sm90/  every corpus kernel compiled with -arch=sm_90,sm_80 (cubins for both
#                      when ptxas is here, PTX for both, SPIR-V, OpenCL C)
#   OUTDIR/bundles/sm75/  the same with kcc's default -arch (sm_75): on an sm_90 GPU the cubin
#                      does not fit and the runtime must JIT the PTX
#   OUTDIR/lib/        an OpenCL ICD loader (libOpenCL.so.1) in case the GPU machine has none
#   OUTDIR/run.sh, OUTDIR/MANIFEST
# BUILD_DIR defaults to build-gpu in the repository; it is configured and built here.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUTDIR [BUILD_DIR]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
build=${2:-$root/build-gpu}
jobs=${JOBS:-2}

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# The kernel list is the runtime test list of tests/runtime.cmake.
kernels=$(sed -n '/^set(KCRT_RUNTIME_KERNELS/,/)/p' "$root/tests/runtime.cmake" |
          sed 's/set(KCRT_RUNTIME_KERNELS//; s/)//' | tr -s ' \n' ' ')
# Test programs whose kernels live beside them (tests/warp/NAME.k, tests/warp.cmake), and the
# runtime tests' own kernels (tests/runtime/NAME.k, .cu or .cl: KCRT_RUNTIME_OWN_KERNELS).
own="intrinsics warp"
rt_own=$(sed -n 's/^set(KCRT_RUNTIME_OWN_KERNELS \(.*\))$/\1/p' "$root/tests/runtime.cmake")
# The Vulkan back end's own programs (tests/vulkan/NAME.c on NAME.k or NAME.cl; vk_api on
# vecadd and cuda_asm, whose bundle has no Vulkan form), run by the vulkan configuration only.
vk_own="flow params frames divguard ieee divzero sharedptr spill vkprintf wrapatomic images mathfn"
targets="kcc kcbinfo rt_api vk_api"
for k in $vk_own; do targets="$targets vk_$k"; done
for k in $kernels $own $rt_own; do targets="$targets rt_$k"; done
# shellcheck disable=SC2086
cmake --build "$build" -j "$jobs" --target $targets

rm -rf "$out"
mkdir -p "$out/bin" "$out/bundles/sm90" "$out/bundles/sm75" "$out/lib"
cp "$build/runtime/kcbinfo" "$build/tests/rt_api" "$out/bin/"
fail=0
for k in $kernels; do
  cp "$build/tests/rt_$k" "$out/bin/"
  "$build/kcc" "$root/tests/kernels/$k.k" -arch=sm_90,sm_80 -o "$out/bundles/sm90/$k.kcb" || fail=1
  "$build/kcc" "$root/tests/kernels/$k.k" -o "$out/bundles/sm75/$k.kcb" || fail=1
done
for k in $own; do
  cp "$build/tests/rt_$k" "$out/bin/"
  "$build/kcc" "$root/tests/warp/$k.k" -arch=sm_90,sm_80 -o "$out/bundles/sm90/$k.kcb" || fail=1
  "$build/kcc" "$root/tests/warp/$k.k" -o "$out/bundles/sm75/$k.kcb" || fail=1
done
for k in $rt_own; do
  cp "$build/tests/rt_$k" "$out/bin/"
  src=""
  for e in k cu cl; do [ -e "$root/tests/runtime/$k.$e" ] && src="$root/tests/runtime/$k.$e"; done
  # A `// kcc-args: ...` line adds options (-cl-std=CL2.0), as in tests/runtime/make_bundle.sh.
  args=$(sed -n 's,^// kcc-args: ,,p' "$src")
  # shellcheck disable=SC2086
  "$build/kcc" $args "$src" -arch=sm_90,sm_80 -o "$out/bundles/sm90/$k.kcb" || fail=1
  # shellcheck disable=SC2086
  "$build/kcc" $args "$src" -o "$out/bundles/sm75/$k.kcb" || fail=1
done
mkdir -p "$out/vk"
cp "$build/tests/vk_api" "$out/vk/"
for k in $vk_own; do
  cp "$build/tests/vk_$k" "$out/vk/"
  src="$root/tests/vulkan/$k.k"
  [ -e "$src" ] || src="$root/tests/vulkan/$k.cl"
  [ -e "$src" ] || src="$root/tests/vulkan/$k.cu"
  args=$(sed -n 's,^// kcc-args: ,,p' "$src")
  # shellcheck disable=SC2086
  "$build/kcc" $args "$src" -o "$out/vk/$k.kcb" || fail=1
done
# The CUDA device-API kernels once more, for nvcc on the GPU machine (run.sh: nvcc-reference).
mkdir -p "$out/nvcc"
cp "$root/tests/gpu/cuda_api_nvcc.cu" "$root/tests/runtime/cuda_api.cu" \
   "$root/tests/runtime/cuda_api_ref.h" "$out/nvcc/"
cp "$root/tests/gpu/run.sh" "$out/run.sh"
chmod +x "$out/run.sh"
for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
  if [ -e "$d/libOpenCL.so.1" ]; then cp -L "$d/libOpenCL.so.1" "$out/lib/"; break; fi
done
{
  echo "prepared $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
  echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown) (plus uncommitted changes, if any)"
  "$build/kcc" --version
  echo "ptxas: $(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null || echo none)"
  echo "kernels: $kernels $own $rt_own"
} >"$out/MANIFEST"
"$out/bin/kcbinfo" "$out/bundles/sm90/vecadd.kcb" >>"$out/MANIFEST"
# Without their symbols the programs take a third of the room (a GPU call carries 64 MiB).
command -v strip >/dev/null && strip "$out"/bin/* "$out"/vk/vk_* 2>/dev/null
du -sh "$out"
[ $fail -eq 0 ] || { echo "prepare.sh: kcc failed on some kernels (see above)" >&2; exit 1; }
echo "prepared $out: run 'tests/gpu/run.sh $out' (or '$out/run.sh $out') on the GPU machine"
