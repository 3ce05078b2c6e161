#!/bin/sh
# python_prepare.sh OUTDIR [BUILD] — what tests/gpu/python_run.sh needs on a GPU machine that
# has Python, CuPy, PyTorch and numba-cuda but no LLVM and no compiler: the kcc package
# (python/kcc), libkcrt and libkcc, the launch path's extension module (_fastlaunch.abi3.so:
# CPython's stable ABI, so the build made here loads in the GPU machine's Python 3.12; without
# one the package launches through ctypes, and the benchmark says so), a vecadd bundle, the benchmark and interop scripts, a kcc compile cache filled
# here for the benchmark's kernels (the GPU machine cannot compile: the cache answers, as it
# would a second process), and numpy 2.2 as a wheel for numba-cuda, which does not import with
# numpy 2.5 (pip download from the package index; skipped when there is none).
set -eu
out=${1:?usage: python_prepare.sh OUTDIR [BUILD]}
build=${2:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
py=${KCC_PYTHON:-$build/venv/bin/python}  # one with numpy (make deps makes it)
[ -x "$py" ] || py=python3
rm -rf "$out"
mkdir -p "$out/lib" "$out/cache" "$out/wheels"
cp -a "$root/python/kcc" "$out/kcc"
# Plain files under the sonames the package loads (a carried copy may lose symbolic links).
cp -L "$build/libkcc.so.0" "$build/runtime/libkcrt.so.0" "$out/lib/"
# Found through KCC_LIBDIR, like the libraries.
if [ -f "$build/_fastlaunch.abi3.so" ]; then
  cp -L "$build/_fastlaunch.abi3.so" "$out/lib/"
else
  echo "python_prepare.sh: no $build/_fastlaunch.abi3.so (python3-dev missing?): launches will go through ctypes"
fi
"$build/kcc" "$root/tests/kernels/vecadd.k" -arch=sm_90,sm_80 -o "$out/vecadd.kcb"
cp "$root/bench/python_launch.py" "$root/tests/gpu/python_interop.py" "$root/tests/gpu/python_run.sh" \
  "$root/samples/python/interop.py" "$root/tests/gpu/python_jit.py" "$out/"
cp "$root/bench/python_jit.py" "$out/bench_python_jit.py"
# The benchmark's compiles, answered here into the cache the GPU run uses. The cache key holds
# libkcc's size and mtime: python_run.sh gives the carried copy this mtime back.
# Whole seconds: `touch -d @SECONDS` there cannot give back nanoseconds. KCC_BOUNDS_CHECK=0:
# compiled here for the CPU device, kcc.compile would add -fbounds-check (docs/python.md), and
# the GPU's unchecked compile would miss the cache.
t=$(stat -c %Y "$out/lib/libkcc.so.0")
touch -d "@$t" "$out/lib/libkcc.so.0"
echo "$t" >"$out/libkcc.mtime"
XDG_CACHE_HOME="$out/cache" KCC_LIBDIR="$out/lib" PYTHONPATH="$out" KCC_DEVICE=cpu KCC_BOUNDS_CHECK=0 \
  python3 -c "
import sys; sys.argv = ['x']
import kcc
src = open('$root/bench/python_launch.py').read()
start = src.index('VECADD_KCC = \"\"\"') + len('VECADD_KCC = \"\"\"')
kcc.compile(src[start:src.index('\"\"\"', start)])
print('cache filled:', kcc.stats())"
# The interop sample's kernel too (it compiles from source).
XDG_CACHE_HOME="$out/cache" KCC_LIBDIR="$out/lib" PYTHONPATH="$out" KCC_DEVICE=cpu KCC_BOUNDS_CHECK=0 \
  "$py" "$out/interop.py" >/dev/null
# kcc.jit's programs (issue 25): translated and compiled here into the same cache (the warp
# program compiles, then cannot load on PoCL's CPU device: that is expected here).
XDG_CACHE_HOME="$out/cache" KCC_LIBDIR="$out/lib" PYTHONPATH="$out" KCC_DEVICE=cpu KCC_BOUNDS_CHECK=0 \
  "$py" "$out/python_jit.py" --impl kcc "$out/jit-prepare.npz" >/dev/null && rm -f "$out/jit-prepare.npz"
XDG_CACHE_HOME="$out/cache" KCC_LIBDIR="$out/lib" PYTHONPATH="$out" KCC_DEVICE=cpu KCC_BOUNDS_CHECK=0 \
  "$py" "$out/bench_python_jit.py" --quick >/dev/null
python3 -m pip download -q --only-binary=:all: --python-version 3.12 \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 -d "$out/wheels" \
  'numpy==2.2.6' || echo "python_prepare.sh: no numpy 2.2 wheel (numba rows will be skipped)"
du -sh "$out"
