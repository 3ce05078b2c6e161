#!/bin/sh
# ctest_run.sh BUILD SRC [pytest arguments] — python.pytest (tests/python.cmake): the Python
# package's tests against this build's libkcc and libkcrt (KCC_LIBDIR), on the default device.
# The interpreter: $KCC_PYTHON, else BUILD/venv (scripts/python-env.sh, run by `make deps`).
# Without one that has numpy and pytest the test is skipped (exit 77) and says why.
build=$1 src=$2
shift 2
py=${KCC_PYTHON:-$build/venv/bin/python}
if ! [ -x "$py" ] || ! "$py" -c "import numpy, pytest" 2>/dev/null; then
  echo "skipped: no Python with numpy and pytest at $py (run 'make deps', or" \
       "scripts/python-env.sh $build/venv, or set KCC_PYTHON)"
  exit 77
fi
export KCC_LIBDIR="$build:$build/runtime"
export PYTHONPATH="$src/python:$src/python/tests"
export PYTHONDONTWRITEBYTECODE=1
cd "$build" || exit 1
exec "$py" -m pytest -q -p no:cacheprovider "$@"
