#!/bin/sh
# run.sh DIR — runs libkcrt's test programs, prepared by tests/gpu/prepare.sh DIR on a machine
# with kcc, on this machine's GPU(s). Needs only a shell, a C library and the drivers.
#
# Configurations (each runs every test program; a configuration whose device is absent is
# reported as skipped):
#   cuda-cubin      KCC_DEVICE=cuda, bundles built for sm_90,sm_80: the cubin loads directly
#   cuda-ptx-jit    the same bundles with KCC_CUDA_FORM=ptx: PTX through the driver's JIT, twice
#                   (the second pass from the driver's compute cache), each module's KCC_LOG
#                   line saying it was JIT compiled from PTX
#   cuda-sm75       bundles built for sm_75 only: on a newer GPU the runtime must refuse the
#                   cubin and JIT the PTX (on an sm_75 GPU the cubin fits)
#   opencl          KCC_DEVICE=opencl: NVIDIA's OpenCL driver (OpenCL C from the bundles),
#                   through an ICD vendors directory written here (OCL_ICD_VENDORS)
#   opencl-cpu      KCC_DEVICE=cpu: an OpenCL CPU driver (PoCL) if the machine has one
#   vulkan          KCC_DEVICE=vulkan: the GPU's Vulkan driver (NVIDIA's), for the programs
#                   whose bundle has the Vulkan form (kcbinfo lists a vkspirv section); the
#                   machine needs a Vulkan loader (libvulkan.so.1: Debian's libvulkan1, unpacked,
#                   and VK_DRIVER_FILES if the loader does not find the driver) and glvnd
#                   (libglvnd0, libglx0, libegl1...: NVIDIA's ICD library needs them; without,
#                   vkCreateInstance fails with VK_ERROR_INCOMPATIBLE_DRIVER)
#   nvcc-reference  tests/gpu/cuda_api_nvcc.cu built by this machine's nvcc: the host
#                   references rt_cuda_api checks kcc against agree with NVIDIA's own SIMD
#                   intrinsics and __dp4a (skipped without nvcc)
# rt_cl_images (OpenCL images) runs the same image tests on every configuration: on the CUDA
# ones through kcc's PTX (software sampling over surface objects, docs/design.md "Images on
# CUDA"), against the same host reference. rt_cuda_tex (a .cu file's texture and surface
# objects, made through the driver API) runs on the CUDA configurations; on the OpenCL ones it
# checks that the bundle is refused.
# Environment: RUN_LOG=FILE also appends everything to FILE; CONFIGS="cuda-cubin opencl"
# selects configurations. Exit status 0 when nothing failed.
set -u
[ $# -ge 1 ] || { echo "usage: $0 DIR (made by tests/gpu/prepare.sh)" >&2; exit 2; }
dir=$(cd "$1" && pwd)
log=${RUN_LOG:-/dev/null}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say() { echo "$*"; echo "$*" >>"$log"; }

export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir/lib"
# NVIDIA's OpenCL driver, wherever this machine keeps it.
icd=""
for f in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 \
         /usr/lib64/libnvidia-opencl.so.1; do
  [ -e "$f" ] && { icd=$f; break; }
done
[ -n "$icd" ] || icd=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
mkdir -p "$tmp/vendors"
echo "${icd:-/usr/local/nvidia/lib64/libnvidia-opencl.so.1}" >"$tmp/vendors/nvidia.icd"
# OCL_ICD_VENDORS replaces the system's vendors directory: keep its drivers visible too.
for f in /etc/OpenCL/vendors/*.icd; do [ -e "$f" ] && cp "$f" "$tmp/vendors/"; done
export OCL_ICD_VENDORS="$tmp/vendors"
# A private cache for the whole run (the ptx-jit configuration checks its hits).
export XDG_CACHE_HOME="$tmp/cache"

say "== kcc runtime GPU run: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
[ -f "$dir/MANIFEST" ] && sed 's/^/   /' "$dir/MANIFEST" | head -6
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | sed 's/^/   GPU: /'
say "   OpenCL ICDs: $(cat "$tmp"/vendors/*.icd | tr '\n' ' ')"
"$dir/bin/rt_api" "$dir/bundles/sm90/vecadd.kcb" "$dir/bundles/sm90/dynshared.kcb" --devices 2>&1 |
  sed -n '1,/^events:/p' | grep -v '^events:' | tee -a "$log"

tests=$(cd "$dir/bin" && ls rt_* | sed 's/^rt_//' | grep -v '^api$')
# TESTS="a b": only those programs (a rerun after a fix).
[ -n "${TESTS:-}" ] && tests=$TESTS
pass=0 fail=0 skip=0
failed=""

# run_one CONFIG NAME BUNDLE_DIR [ENV...]
run_one() {
  cfg=$1 name=$2 bdir=$3
  shift 3
  if [ "$name" = api ]; then
    set -- env "$@" "$dir/bin/rt_api" "$bdir/vecadd.kcb" "$bdir/dynshared.kcb"
  elif [ "$name" = vk_api ]; then # tests/vulkan's programs (prepare.sh's vk/)
    set -- env "$@" "$dir/vk/vk_api" "$bdir/vecadd.kcb" "$bdir/cuda_asm.kcb"
  elif [ "${name#vk_}" != "$name" ]; then
    set -- env "$@" "$dir/vk/$name" "$dir/vk/${name#vk_}.kcb"
  else
    set -- env "$@" "$dir/bin/rt_$name" "$bdir/$name.kcb"
  fi
  if command -v timeout >/dev/null; then set -- timeout 300 "$@"; fi
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  line=$(grep -E '^(PASS|FAIL|SKIP)' "$tmp/out" | tail -1 | cut -c1-200)
  case $rc in
    0) pass=$((pass + 1)); say "  ok    $cfg/$name: ${line#PASS }" ;;
    77) skip=$((skip + 1)); say "  skip  $cfg/$name: ${line#SKIP }" ;;
    *) fail=$((fail + 1)); failed="$failed $cfg/$name"
       say "  FAIL  $cfg/$name (exit $rc): $line"
       sed 's/^/        /' "$tmp/err" | head -40 | tee -a "$log"
       sed 's/^/        /' "$tmp/out" | head -10 | tee -a "$log" ;;
  esac
}

run_config() { # CONFIG BUNDLE_DIR ENV...
  cfg=$1 bdir=$2
  shift 2
  say "== $cfg"
  for t in $tests api; do run_one "$cfg" "$t" "$bdir" "$@"; done
}

configs=${CONFIGS:-cuda-cubin cuda-ptx-jit cuda-sm75 opencl opencl-cpu vulkan nvcc-reference}
for c in $configs; do
  case $c in
    cuda-cubin) run_config cuda-cubin "$dir/bundles/sm90" KCC_DEVICE=cuda KCC_CUDA_FORM=cubin ;;
    cuda-ptx-jit)
      run_config cuda-ptx-jit "$dir/bundles/sm90" KCC_DEVICE=cuda KCC_CUDA_FORM=ptx
      # Second pass (the driver's compute cache filled by the first): every module must still
      # come from the PTX, which KCC_LOG says.
      say "== cuda-ptx-jit (second pass)"
      for t in $tests; do
        run_one cuda-ptx-cached "$t" "$dir/bundles/sm90" KCC_DEVICE=cuda KCC_CUDA_FORM=ptx KCC_LOG=1
        # (A bundle without PTX, an OpenCL-only kernel's, loads nothing here to JIT.)
        if [ "$rc" -eq 0 ] && "$dir/bin/kcbinfo" "$dir/bundles/sm90/$t.kcb" 2>/dev/null |
             grep -q '^  ptx ' && ! grep -q 'JIT compiled from sm_[0-9]* PTX' "$tmp/err"; then
          fail=$((fail + 1)); failed="$failed cuda-ptx-cached/$t"
          say "  FAIL  cuda-ptx-cached/$t: KCC_LOG has no 'JIT compiled from PTX' line"
        fi
      done ;;
    cuda-sm75) run_config cuda-sm75 "$dir/bundles/sm75" KCC_DEVICE=cuda ;;
    opencl) run_config opencl "$dir/bundles/sm90" KCC_DEVICE=opencl ;;
    # One PoCL thread: docs/driver-bugs.md 11 (rt_intrinsics, rt_cl_wgfn), as under ctest.
    opencl-cpu) run_config opencl-cpu "$dir/bundles/sm90" KCC_DEVICE=cpu POCL_MAX_PTHREAD_COUNT=1 ;;
    vulkan)
      say "== vulkan"
      for t in $tests; do
        "$dir/bin/kcbinfo" "$dir/bundles/sm90/$t.kcb" 2>/dev/null | grep -q '^  vkspirv ' &&
          run_one vulkan "$t" "$dir/bundles/sm90" KCC_DEVICE=vulkan
      done
      # The Vulkan back end's own tests (tests/vulkan/: control flow, parameters, frames,
      # exact division and square root, signed zeros, shared pointers, spilled parameters,
      # printf, wrapping atomics, and the API with its batches).
      for p in "$dir"/vk/vk_*; do
        [ -x "$p" ] && run_one vulkan "${p##*/}" "$dir/bundles/sm90" KCC_DEVICE=vulkan
      done ;;
    nvcc-reference)
      say "== nvcc-reference"
      nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
      if [ ! -x "$nvcc" ]; then
        skip=$((skip + 1)); say "  SKIP  nvcc-reference: no nvcc"
      elif "$nvcc" -o "$tmp/cuda_api_nvcc" "$dir/nvcc/cuda_api_nvcc.cu" >"$tmp/err" 2>&1 &&
           "$tmp/cuda_api_nvcc" >"$tmp/out" 2>&1; then
        pass=$((pass + 1)); say "  ok    nvcc-reference: $(tail -n 1 "$tmp/out")"
      else
        fail=$((fail + 1)); failed="$failed nvcc-reference"
        say "  FAIL  nvcc-reference"; cat "$tmp/err" "$tmp/out" | head -20 | tee -a "$log"
      fi ;;
    *) say "unknown configuration '$c'"; exit 2 ;;
  esac
done

say "== summary: $pass passed, $fail failed, $skip skipped"
[ -n "$failed" ] && say "   failed:$failed"
[ $fail -eq 0 ]
