#!/bin/sh
# python_run.sh DIR — on the GPU machine, from what tests/gpu/python_prepare.sh made: the
# zero-copy interop checks (python_interop.py, with the machine's numpy), then issue 11's
# benchmark beside CuPy and numba (bench/python_launch.py) with numpy 2.2 first on the path
# so that numba-cuda imports. Exit status: the interop checks'.
set -u
dir=$(cd "${1:?usage: python_run.sh DIR}" && pwd)
touch -d "@$(cat "$dir/libkcc.mtime")" "$dir/lib/libkcc.so.0"
export KCC_LIBDIR="$dir/lib" XDG_CACHE_HOME="$dir/cache" KCC_DEVICE=cuda
export PYTHONPATH="$dir"
echo "== python interop"
python3 "$dir/python_interop.py" "$dir/vecadd.kcb"
st=$?
echo "== samples/python/interop.py"
python3 "$dir/interop.py" || st=1
np22=""
if ls "$dir"/wheels/numpy-*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-deps --target "$dir/np22" "$dir"/wheels/numpy-*.whl && np22="$dir/np22:"
fi
echo "== kcc.jit: numba programs with kcc.cuda and numba.cuda, compared element by element"
PYTHONPATH="$np22$dir" KCC_BOUNDS_CHECK=0 python3 "$dir/python_jit.py" --compare || st=1
echo "== kcc.jit benchmark beside numba.cuda and kcc's C kernels (bench/python_jit.py)"
PYTHONPATH="$np22$dir" KCC_BOUNDS_CHECK=0 python3 "$dir/bench_python_jit.py"
echo "== python launch benchmark (numpy: $(PYTHONPATH="$np22$dir" python3 -c 'import numpy; print(numpy.__version__)'))"
PYTHONPATH="$np22$dir" python3 "$dir/python_launch.py" --cache "$dir/cache"
exit $st
