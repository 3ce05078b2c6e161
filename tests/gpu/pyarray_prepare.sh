#!/bin/sh
# [PYARRAY_TESTS='test_x.py ...'] pyarray_prepare.sh OUTDIR [BUILD] — what tests/gpu/pyarray_run.sh needs to run the Python
# package's array and expression-kernel tests (python/tests/test_array.py, test_expr.py) on a
# GPU machine without LLVM: the package with libkcrt, libkcc and _fastlaunch, the tests, and
# bench/python_arrays.py, and one compile cache that answers every compile they make (filled here by running them on this
# machine's device with KCC_TEST_CACHE; the bundles are the same for every device, and
# KCC_BOUNDS_CHECK=0 keeps the CPU device from asking for checked ones).
set -eu
out=${1:?usage: pyarray_prepare.sh OUTDIR [BUILD]}
build=$(cd "${2:-build}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
py=${KCC_PYTHON:-$build/venv/bin/python}
rm -rf "$out"
mkdir -p "$out/lib" "$out/cache" "$out/tests"
out=$(cd "$out" && pwd)
cp -a "$root/python/kcc" "$out/kcc"
cp -L "$build/libkcc.so.0" "$build/runtime/libkcrt.so.0" "$out/lib/"
[ -f "$build/_fastlaunch.abi3.so" ] && cp -L "$build/_fastlaunch.abi3.so" "$out/lib/"
# PYARRAY_TESTS: the test files to carry (default: all of these); the cache is filled for
# them alone.
tests=${PYARRAY_TESTS:-test_array.py test_expr.py test_views.py test_array_ops.py \
  test_reductions.py test_array_plans.py test_mempool.py}
cp "$root/python/tests/conftest.py" "$out/tests/"
for t in $tests; do cp "$root/python/tests/$t" "$out/tests/"; done
cp "$root/tests/gpu/pyarray_run.sh" "$root/bench/python_arrays.py" "$out/"
t=$(stat -c %Y "$out/lib/libkcc.so.0")
touch -d "@$t" "$out/lib/libkcc.so.0"
echo "$t" >"$out/libkcc.mtime"
(cd "$out" && KCC_TEST_CACHE="$out/cache" KCC_LIBDIR="$out/lib" PYTHONPATH="$out:$out/tests" \
  KCC_BOUNDS_CHECK=0 PYTHONDONTWRITEBYTECODE=1 "$py" -m pytest -q -p no:cacheprovider tests)
# bench/python_arrays.py's kernels (the same bundles at every size): compiled here, run there.
(cd "$out" && XDG_CACHE_HOME="$out/cache" KCC_LIBDIR="$out/lib" PYTHONPATH="$out" \
  KCC_BOUNDS_CHECK=0 PYTHONDONTWRITEBYTECODE=1 "$py" python_arrays.py --small --runs 3 >/dev/null)
# Only kcc's compile cache travels: PoCL's own cache and libkcrt's built programs are this
# machine's (and would take the directory past what a GPU call carries).
rm -rf "$out/cache/pocl" "$out/cache/kcc/pch" "$out"/cache/kcc/*.bin
du -sh "$out"
echo "prepared $out: run 'sh $out/pyarray_run.sh $out' on the GPU machine"
