#!/usr/bin/env bash
# `make demo`: compile the vector-add sample's kernel with kcc and show what came out, then
# build and run the sample program (samples/vecadd, walked through in docs/getting-started.md)
# on the best device present — a CUDA GPU, else an OpenCL GPU, else PoCL on the CPU
# (KCC_DEVICE chooses another): it prints the device, checks the result against a CPU loop on
# random data, and times both.
set -euo pipefail
build=${1:-build}
kcc="$build/kcc"
src=samples/vecadd/vecadd.k
out="$build/demo"
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"

echo "== kcc $src -o $out/vecadd.ptx -arch=sm_90"
"$kcc" "$src" -o "$out/vecadd.ptx" -arch=sm_90
echo "PTX entry points:"
grep -E '^\.visible \.entry|^\.entry' "$out/vecadd.ptx" | sed 's/^/  /'
if command -v ptxas >/dev/null; then
  ptxas -arch=sm_90 "$out/vecadd.ptx" -o "$out/vecadd.cubin"
  echo "ptxas -arch=sm_90 accepted it ($(stat -c %s "$out/vecadd.cubin") bytes of cubin)"
else
  echo "(ptxas not on PATH: PTX not assembled)"
fi

echo
echo "== kcc $src -o $out/vecadd.h   (what samples/vecadd/main.c includes)"
"$kcc" "$src" -o "$out/vecadd.h"
grep -E '^static inline kcrt_status vecadd_k_launch' -A3 "$out/vecadd.h" | sed 's/^/  /'

echo
echo "== kcc --devices"
"$kcc" --devices
if "$kcc" --devices | grep -q '^0 devices'; then
  echo "No device to run on: install an OpenCL driver (Debian: pocl-opencl-icd runs kernels on"
  echo "the CPU) or the NVIDIA driver, then run 'make demo' again."
  exit 0
fi

echo
echo "== cmake --build $build --target vecadd && $build/samples/vecadd/vecadd"
cmake --build "$build" --target vecadd >/dev/null
"$build/samples/vecadd/vecadd"
