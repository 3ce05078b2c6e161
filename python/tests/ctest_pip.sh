#!/bin/sh
# ctest_pip.sh BUILD SRC — python.pip_install (tests/python.cmake): builds the package the way
# a user does, `pip install ./python` (scikit-build-core running the project's CMake; here
# without build isolation, with the venv's scikit-build-core, into a directory of the build
# tree), then imports the installed package with no KCC_LIBDIR and runs a kernel: the wheel
# carries libkcc, libkcrt and the launch path's extension module (kcc/_fastlaunch.abi3.so).
# Skipped (77) without BUILD/venv (scripts/python-env.sh).
build=$1 src=$2
py=${KCC_PYTHON:-$build/venv/bin/python}
if ! [ -x "$py" ] || ! "$py" -c "import numpy, scikit_build_core" 2>/dev/null; then
  echo "skipped: no Python with numpy and scikit-build-core at $py (run 'make deps')"
  exit 77
fi
out=$build/python-pip
rm -rf "$out/site"
mkdir -p "$out"
"$py" -m pip install -q --no-build-isolation --no-deps --target "$out/site" \
  -C build-dir="$out/build" "$src/python" >"$out/pip.log" 2>&1 || { cat "$out/pip.log"; exit 1; }
ls "$out/site/kcc"
# The type stubs travel with the package (PEP 561).
for f in py.typed __init__.pyi; do
  [ -f "$out/site/kcc/$f" ] || { echo "the installed package has no kcc/$f"; exit 1; }
done
unset KCC_LIBDIR
cd "$out" && PYTHONPATH="$out/site" XDG_CACHE_HOME="$out/cache" "$py" - <<'PY'
import os, numpy as np, kcc, kcc._native as n
m = kcc.compile("kernel void twice(float *p, int n) {"
                " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= 2.0f; }")
x = np.random.default_rng(5).standard_normal(1000, dtype=np.float32)
y = x.copy()
m.twice[4, 256](y, 1000)
assert np.array_equal(y, x * 2), "wrong result"
here = os.path.dirname(kcc.__file__)
for lib in (n._kcc, n._kcrt):
    assert os.path.dirname(lib._name) == here, lib._name
assert n.fast is not None and os.path.dirname(n.fast.__file__) == here, n.fast_error
print("installed kcc %s at %s: libraries %s, launches through %s; result equal" % (
      kcc.__version__, here, ", ".join(os.path.basename(l._name) for l in (n._kcc, n._kcrt)),
      os.path.basename(n.fast.__file__)))
PY
