#!/bin/sh
# pyarray_run.sh DIR — on a GPU machine, from what tests/gpu/pyarray_prepare.sh made: the
# Python package's array and expression-kernel tests on the first CUDA device, every compile
# answered by the carried cache (a miss would need libkcc's LLVM, which is not there); then
# bench/python_arrays.py, kcc's arrays beside CuPy's. The
# error test's bad kernel is compiled every time (errors are not cached): left out here.
set -u
dir=$(cd "${1:?usage: pyarray_run.sh DIR}" && pwd)
touch -d "@$(cat "$dir/libkcc.mtime")" "$dir/lib/libkcc.so.0"
cd "$dir" || exit 1
KCC_DEVICE=cuda KCC_TEST_CACHE="$dir/cache" KCC_LIBDIR="$dir/lib" PYTHONPATH="$dir:$dir/tests" \
  KCC_BOUNDS_CHECK=0 PYTHONDONTWRITEBYTECODE=1 python3 -m pytest -q -p no:cacheprovider tests \
  -W ignore::DeprecationWarning $( [ -f tests/test_expr.py ] &&
    echo --deselect tests/test_expr.py::test_elementwise_errors)
st=$?
echo "== kcc arrays beside CuPy (bench/python_arrays.py)"
KCC_DEVICE=cuda XDG_CACHE_HOME="$dir/cache" KCC_LIBDIR="$dir/lib" PYTHONPATH="$dir" \
  KCC_BOUNDS_CHECK=0 PYTHONDONTWRITEBYTECODE=1 python3 "$dir/python_arrays.py" || st=1
exit $st
