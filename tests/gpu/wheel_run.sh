#!/bin/sh
# wheel_run.sh DIR [LOGDIR] — on a GPU machine, run from the checkout's root, with what
# tests/gpu/wheel_prepare.sh made: the self-contained wheel installed into a fresh virtual
# environment of the machine's own Python (its numpy, CuPy and pytest seen through
# --system-site-packages; kcc itself from the wheel alone), then, with no KCC_LIBDIR, no
# PYTHONPATH to the checkout's package, an empty LD_LIBRARY_PATH and an empty compile cache:
#   1. python/tools/check_wheel.py: a compile in process, a run, libkcc's LLVM and libclang the
#      wheel's own (/proc/self/maps);
#   2. the samples' programs (samples/python), each compiling its kernels there;
#   3. the whole Python suite (python/tests) against the installed package (with pytest-xdist
#      where the machine has it);
#   4. bench/python_launch.py (import, first launch of a cached kernel in a new process, launch
#      cost; CuPy's beside) and bench/python_arrays.py (kcc's arrays beside CuPy's).
# Logs go to LOGDIR (default DIR). Exit status: non-zero when a check, a sample or a test failed.
set -u
dir=$(cd "${1:?usage: wheel_run.sh DIR [LOGDIR]}" && pwd)
logs=${2:-$dir}
root=$(pwd)
work=${TMPDIR:-/tmp}/kcc-wheel-run
rm -rf "$work"
mkdir -p "$work/run" "$work/cache" "$logs"
xzf=$(ls "$dir"/kcc-*.whl.xz | head -1)
whl="$work/$(basename "$xzf" .xz)"
st=0
python3 -c "import lzma, shutil, sys
with lzma.open(sys.argv[1]) as i, open(sys.argv[2], 'wb') as o: shutil.copyfileobj(i, o)" "$xzf" "$whl" ||
  exit 1
echo "== wheel $(basename "$whl"): $(du -m "$whl" | cut -f1) MB stored (the built wheel's SHA-256: $(cat "${xzf%.xz}.sha256"))"
python3 -m venv --system-site-packages "$work/venv" || exit 1
py="$work/venv/bin/python"
# The machine's python3 may itself be a virtual environment (the GPU image's is: numpy, CuPy and
# pytest live there, not under its base Python); --system-site-packages sees only the base, so
# the new environment gets that one's site-packages too, after its own (kcc stays the wheel's).
python3 -c "import site, sys; sys.prefix != sys.base_prefix and print('\n'.join(site.getsitepackages()))" \
  >"$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/_machine_site.pth"
t0=$(date +%s%N)
"$py" -m pip install -q --no-index --no-deps --no-cache-dir "$whl" || exit 1
echo "pip install: $((($(date +%s%N) - t0) / 1000000)) ms"
# A machine whose Python lacks them (a check of this script off the GPU machine) names them here,
# from the package index: KCC_WHEEL_RUN_DEPS="numpy pytest".
[ -z "${KCC_WHEEL_RUN_DEPS:-}" ] || "$py" -m pip install -q $KCC_WHEEL_RUN_DEPS || exit 1
# Everything below sees the installed package only: never the checkout's, never a system LLVM.
run() { (cd "$work/run" && env -u KCC_LIBDIR -u PYTHONPATH -u KCC_DEVICE LD_LIBRARY_PATH= \
  XDG_CACHE_HOME="$work/cache" PYTHONDONTWRITEBYTECODE=1 "$@"); }
run "$py" -c "import kcc; assert kcc.__file__.startswith('$work/venv'), kcc.__file__; print('import kcc:', kcc.__file__, kcc.get_device().name)" ||
  exit 1
echo "== check_wheel.py"
run "$py" "$root/python/tools/check_wheel.py" || st=1
echo "== samples/python"
for s in hello vecadd multiply_them grid2d biggrid select_device numba_hello numba_increment \
  numba_vecadd numba_monte_carlo_pi interop; do
  if run timeout 120 "$py" "$root/samples/python/$s.py" >"$logs/sample-$s.log" 2>&1; then
    echo "sample $s: passed ($(wc -l <"$logs/sample-$s.log") lines)"
  else
    echo "sample $s: FAILED"
    tail -5 "$logs/sample-$s.log"
    st=1
  fi
done
echo "== python/tests"
# pytest-xdist where the machine has it (the GPU image does): the suite compiles hundreds of
# kernels, each on one core.
par=""
run "$py" -c "import xdist" 2>/dev/null && par="-n 8"
run env PYTHONPATH="$root/python/tests" timeout 480 "$py" -m pytest -q -p no:cacheprovider $par \
  -W ignore::DeprecationWarning "$root/python/tests" >"$logs/pytest.log" 2>&1
pst=$?
[ $pst -eq 124 ] && echo "python/tests: stopped after 480 s"
[ $pst -eq 0 ] || st=1
grep -E "passed|failed|error" "$logs/pytest.log" | tail -3
grep -E "^(FAILED|ERROR)" "$logs/pytest.log" | head -20
echo "== bench/python_launch.py (from the wheel)"
run timeout 200 "$py" "$root/bench/python_launch.py" --quick >"$logs/python_launch.log" 2>&1
tail -25 "$logs/python_launch.log"
echo "== bench/python_arrays.py (from the wheel)"
run env KCC_BOUNDS_CHECK=0 timeout 200 "$py" "$root/bench/python_arrays.py" \
  >"$logs/python_arrays.log" 2>&1
tail -30 "$logs/python_arrays.log"
exit $st
