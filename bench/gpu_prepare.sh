#!/bin/sh
# gpu_prepare.sh DIR [BUILD_DIR] — builds, here (LLVM, kcc, nvcc/ptxas; no GPU), everything
# bench/gpu_run.sh DIR needs on the GPU machine (a driver, a shell, a C library; no LLVM):
#   DIR/bin/kernel_time, start_time,  the harnesses (bench/*.c), linked to DIR/lib/libkcrt.so.0
#     launch_raw, lazy_enum(.sh)
#                                     through an $ORIGIN rpath; kcbinfo
#   DIR/lib/libkcrt.so.0              libkcrt; libOpenCL.so.1, an ICD loader in case the GPU
#                                     machine has none (used only through LD_LIBRARY_PATH
#                                     fallback)
#   DIR/bundles/kcc/NAME.kcb          kcc tests/kernels/NAME.k (or bench/kernels/NAME.k or
#                                     .cl) -arch=sm_$SM: PTX + cubin (ptxas)
#                                     + SPIR-V + OpenCL C
#   DIR/bundles/nvcc/NAME.kcb         nvcc -cubin -arch=sm_$SM -O3 bench/cuda/NAME.cu, wrapped
#                                     behind the kcc bundle's kernel table (bench/wrap_cubin.c);
#                                     for the texture twins of the image rows ($tex_twins, whose
#                                     kernels take a cudaTextureObject_t where kcc's take an
#                                     image2d_t), behind the table of kcc's own bundle of the .cu
#   DIR/cubin/vecadd.cubin            nvcc's vecadd cubin alone, for launch_raw's raw driver side
#   DIR/run.sh (= bench/gpu_run.sh), DIR/MANIFEST
# BUILD_DIR (default build-bench in the repository) is configured and built here (kcc, libkcrt).
# Environment: SM (default 90: H100 and H200), NVCC (default: PATH, then /usr/local/cuda/bin),
# CC (default cc), JOBS (default 2), VARIANT (LLVM options: every kernel also compiled with
# KCC_LLVM_OPTIONS=$VARIANT into DIR/bundles/variant, a fourth column of gpu_run.sh's CUDA
# table, for measuring a code-generation setting against the default).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR [BUILD_DIR]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
build=${2:-$root/build-bench}
sm=${SM:-90}
jobs=${JOBS:-2}
cc=${CC:-cc}
# bench/kernels/ and tests/kernels/ NAME.k, or a CUDA kernel bench/cuda/NAME.cu that kcc compiles itself
kernels="copy vecadd saxpy reduce transpose matmul histogram stencil blackscholes nbody scan conv"
kernels="$kernels bs_float2 transpose_tiled atomic_wrap bitcount dmath ddiv dreduce sprod"
# issue 30: bilinear resize and 5x5 Gaussian blur through images (.cl; nvcc: texture objects)
# and through plain buffers
kernels="$kernels resize_img resize_buf blur_img blur_buf"
tex_twins="resize_img blur_img"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "gpu_prepare.sh: nvcc not found (set NVCC)" >&2; exit 1; }

cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" -j "$jobs" --target kcc kcbinfo kcrt_shared

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/bundles/kcc" "$out/bundles/nvcc"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The harnesses find libkcrt next to them wherever DIR lands ($ORIGIN), so the GPU machine
# needs no install and no LD_LIBRARY_PATH for it. (The runtime tests link libkcrt statically;
# here the shared library is what an application would ship, so start-up includes loading it.)
cp -L "$build/runtime/libkcrt.so.0" "$out/lib/libkcrt.so.0"
flags="-std=c11 -O2 -g -Wall -Wextra -Werror"
# shellcheck disable=SC2086,SC2016 # $flags splits on purpose; $ORIGIN is for the linker
{
  $cc $flags -I"$root/runtime" "$root/bench/wrap_cubin.c" -o "$tmp/wrap_cubin"
  for p in kernel_time start_time launch_raw; do
    $cc $flags -I"$root/runtime/include" "$root/bench/$p.c" -L"$build/runtime" -lkcrt -lm -ldl \
      -Wl,-rpath,'$ORIGIN/../lib' -o "$out/bin/$p"
  done
  # issue 14's lazy enumeration on the GPU machine: tests/runtime/lazy_enum.sh's program
  $cc $flags -I"$root/runtime/include" "$root/tests/runtime/lazy_enum.c" -L"$build/runtime" \
    -lkcrt -ldl -Wl,-rpath,'$ORIGIN/../lib' -o "$out/bin/lazy_enum"
}
# Codegen probes (issue 14; bench/README.md): only where the toolkit's and OpenCL's headers are.
cuda_inc=$(dirname "$(dirname "$nvcc")")/include
if [ -f "$cuda_inc/cuda.h" ] && [ -d "$cuda_inc/../lib64/stubs" ]; then
  $cc $flags -I"$cuda_inc" "$root/bench/ptx_probe.c" -L"$cuda_inc/../lib64/stubs" -lcuda \
    -o "$out/bin/ptx_probe"
fi
if [ -f /usr/include/CL/cl.h ]; then
  $cc $flags "$root/bench/cl_binary.c" -lOpenCL -o "$out/bin/cl_binary" 2>/dev/null ||
    echo "gpu_prepare.sh: no libOpenCL to link bench/cl_binary.c: left out" >&2
fi
cp "$build/runtime/kcbinfo" "$out/bin/"
cp "$root/tests/runtime/lazy_enum.sh" "$out/bin/"

for k in $kernels; do
  src=$root/tests/kernels/$k.k
  [ -f "$src" ] || src=$root/bench/kernels/$k.k
  [ -f "$src" ] || src=$root/bench/kernels/$k.cl
  [ -f "$src" ] || src=$root/bench/cuda/$k.cu # CUDA kernels: the nvcc side is the same file
  "$build/kcc" "$src" -arch="sm_$sm" -o "$out/bundles/kcc/$k.kcb"
  "$out/bin/kcbinfo" "$out/bundles/kcc/$k.kcb" | grep -q "cubin *sm_$sm" || {
    echo "gpu_prepare.sh: kcc wrote no sm_$sm cubin for $k (ptxas not found? KCC_PTXAS?)" >&2
    exit 1
  }
  if [ -n "${VARIANT:-}" ]; then
    mkdir -p "$out/bundles/variant"
    KCC_LLVM_OPTIONS=$VARIANT "$build/kcc" "$src" -arch="sm_$sm" -o "$out/bundles/variant/$k.kcb"
    echo "$VARIANT" >"$out/bundles/variant/OPTIONS"
  fi
  "$nvcc" -cubin -arch="sm_$sm" -O3 "$root/bench/cuda/$k.cu" -o "$tmp/$k.cubin"
  table=$out/bundles/kcc/$k.kcb
  case " $tex_twins " in
    *" $k "*) # the signature is the .cu's (a texture object), not the .cl's (an image)
      table=$tmp/$k.cu.kcb
      # (its warnings, that texture objects have no OpenCL form, are expected)
      "$build/kcc" "$root/bench/cuda/$k.cu" -arch="sm_$sm" -o "$table" 2>"$tmp/$k.cu.err" ||
        { cat "$tmp/$k.cu.err" >&2; exit 1; } ;;
  esac
  "$tmp/wrap_cubin" "$table" "$tmp/$k.cubin" "$sm" "$out/bundles/nvcc/$k.kcb"
done
mkdir -p "$out/cubin"
cp "$tmp/vecadd.cubin" "$out/cubin/" # launch_raw's raw cuModuleLoadData side

for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
  if [ -e "$d/libOpenCL.so.1" ]; then cp -L "$d/libOpenCL.so.1" "$out/lib/"; break; fi
done
cp "$root/bench/gpu_run.sh" "$out/run.sh"
chmod +x "$out/run.sh"
{
  echo "prepared $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) ($(nproc) CPUs)"
  echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown) (plus uncommitted changes, if any)"
  echo "$("$build/kcc" --version | head -1); nvcc $("$nvcc" --version | sed -n 's/.*release \([^,]*\),.*/\1/p'); sm_$sm"
  echo "kernels: $kernels"
} >"$out/MANIFEST"
"$out/bin/kcbinfo" "$out/bundles/kcc/vecadd.kcb" >>"$out/MANIFEST"
"$out/bin/kcbinfo" "$out/bundles/nvcc/vecadd.kcb" >>"$out/MANIFEST"

size_kb=$(du -sk "$out" | cut -f1)
echo "prepared $out ($size_kb KiB)"
[ "$size_kb" -lt 20480 ] || echo "gpu_prepare.sh: warning: $out is over 20 MiB" >&2
echo "on the GPU machine, from the repository root: bench/gpu_run.sh $1   (or $1/run.sh $1)"
