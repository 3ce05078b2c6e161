#!/bin/sh
# test_wheel.sh DIR — the wheel build_wheel.sh made (DIR/wheel/kcc-*.whl) as a user installs it
# (`make test-wheel`, CI): a fresh virtual environment, the wheel and the test dependencies from
# the package index, then, with no KCC_LIBDIR, no PYTHONPATH to a kcc checkout and an empty
# LD_LIBRARY_PATH: check_wheel.py (a compile with an empty cache, a run, libkcc's LLVM and
# libclang the wheel's own in /proc/self/maps), and the whole Python suite (python/tests)
# against the installed package, from a directory outside the checkout.
set -eu
dir=$(cd "${1:?usage: test_wheel.sh DIR}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
whl=$(ls "$dir"/wheel/kcc-*.whl | head -1)
venv=$dir/venv-test
rm -rf "$venv" "$dir/run"
mkdir -p "$dir/run"
python3 -m venv "$venv"
start=$(date +%s%N)
"$venv/bin/python" -m pip install -q "$whl"
ms=$((($(date +%s%N) - start) / 1000000))
echo "test_wheel.sh: installed $(basename "$whl") ($(du -m "$whl" | cut -f1) MB) in $ms ms" \
     "(numpy with it)"
"$venv/bin/python" -m pip install -q pytest mpi4py "dask[distributed]"
# The package must come from the venv, never from the checkout.
run() { (cd "$dir/run" && env -u KCC_LIBDIR -u PYTHONPATH LD_LIBRARY_PATH= "$@"); }
run "$venv/bin/python" -c "import kcc, sys; assert kcc.__file__.startswith('$venv'), kcc.__file__; print('import kcc:', kcc.__file__)"
run "$venv/bin/python" "$root/python/tools/check_wheel.py"
run env PYTHONPATH="$root/python/tests" PYTHONDONTWRITEBYTECODE=1 \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests"
