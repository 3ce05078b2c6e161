#!/bin/sh
# scale_prepare.sh OUTDIR [BUILD] — what tests/gpu/scale_run.sh needs on a machine with two
# NVIDIA GPUs, Open MPI and Python 3.12 but no LLVM and no network: the kcc package with
# libkcrt, libkcc and _fastlaunch (as tests/gpu/python_prepare.sh carries them), the samples
# mpi_heat.py and dask_map.py (and samples/mpi/heat.k, which mpi_heat.py compiles), a kcc
# compile cache filled here with their kernels (the GPU machine cannot compile: the cache
# answers, as it would a second process), and wheels of mpi4py and dask[distributed] for
# Python 3.12 (pip download from the package index).
set -eu
out=${1:?usage: scale_prepare.sh OUTDIR [BUILD]}
build=${2:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
py=${KCC_PYTHON:-$build/venv/bin/python}  # with numpy, mpi4py and distributed (make deps)
rm -rf "$out"
mkdir -p "$out/lib" "$out/cache" "$out/wheels" "$out/samples/python" "$out/samples/mpi"
cp -a "$root/python/kcc" "$out/kcc"
cp -L "$build/libkcc.so.0" "$build/runtime/libkcrt.so.0" "$out/lib/"
[ -f "$build/_fastlaunch.abi3.so" ] && cp -L "$build/_fastlaunch.abi3.so" "$out/lib/"
cp "$root/samples/python/mpi_heat.py" "$root/samples/python/dask_map.py" "$out/samples/python/"
cp "$root/samples/mpi/heat.k" "$out/samples/mpi/"
cp "$root/tests/gpu/scale_run.sh" "$root/tests/gpu/scale_frames.py" "$out/"
# The cache key holds libkcc's size and mtime: scale_run.sh gives the carried copy this mtime
# back (whole seconds). KCC_BOUNDS_CHECK=0: compiled here for the CPU device, kcc.compile would
# add -fbounds-check, and the GPU's unchecked compile would miss the cache.
t=$(stat -c %Y "$out/lib/libkcc.so.0")
touch -d "@$t" "$out/lib/libkcc.so.0"
echo "$t" >"$out/libkcc.mtime"
XDG_CACHE_HOME="$out/cache" KCC_LIBDIR="$out/lib" PYTHONPATH="$out:$out/samples/python" \
  KCC_DEVICE=cpu KCC_BOUNDS_CHECK=0 "$py" -c "
import kcc, dask_map, mpi_heat
kcc.compile(dask_map.KERNEL)
kcc.compile(open(mpi_heat.KERNEL).read(), options=['-ffp-contract=off'], name='heat.k')
print('cache filled:', kcc.stats())"
"$py" -m pip download -q --only-binary=:all: --python-version 3.12 \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux_2_28_x86_64 -d "$out/wheels" mpi4py 'dask[distributed]'
du -sh "$out"
echo "prepared $out: run 'sh $out/scale_run.sh $out' on the GPU machine"
