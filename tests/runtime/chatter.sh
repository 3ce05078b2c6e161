#!/bin/sh
# chatter.sh KCC CLANG PROGRAM SOURCE BUNDLE — the OpenCL driver's build chatter stays off the
# program's stderr (issue 13: PoCL's "2 warnings generated." reached it raw), and KCC_LOG=1
# says when a first launch compiles for the device and when it loads from the cache:
#   0. the OpenCL C kcc writes for SOURCE draws warnings from clang (CLANG, when given), so
#      the check below is not vacuous;
#   1. a cold cache, the OpenCL C form forced: the program passes and its stderr is empty;
#   2. a cold cache with KCC_LOG=1: "kcrt: opencl: built cl_chatter.cl from OpenCL C in N ms",
#      and every stderr line is kcrt's;
#   3. again, warm: "loaded from the cache in N ms", and no build line.
# Exit 77 (skip) when the program finds no OpenCL device.
set -u
kcc=$1 clang=$2 prog=$3 src=$4 bundle=$5
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; for f in "$d"/*.err; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done; exit 1; }
if [ -n "$clang" ]; then
  "$kcc" "$src" --emit=cl -o "$d/gen.cl" || fail "kcc --emit=cl"
  "$clang" -x cl -cl-std=CL1.2 -fsyntax-only "$d/gen.cl" 2>"$d/clang.log" || fail "clang rejects the OpenCL C"
  grep -q "warnings\? generated" "$d/clang.log" || fail "the OpenCL C no longer draws a warning: pick another construct"
fi
export KCC_DEVICE=opencl KCC_OPENCL_FORM=source
unset KCC_LOG
# Under make test-asan, LeakSanitizer's table of the suppressions it used is not chatter; a
# leak report still is.
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"
run() { # NAME [VAR=VALUE...]
  name=$1; shift
  env XDG_CACHE_HOME="$d/cache-$name" "$@" "$prog" "$bundle" >"$d/$name.out" 2>"$d/$name.err"
  rc=$?
  [ $rc = 77 ] && { echo "no OpenCL device: skipped"; exit 77; }
  [ $rc = 0 ] || { cat "$d/$name.out"; fail "run '$name' exited $rc"; }
}
run quiet
[ -s "$d/quiet.err" ] && fail "stderr of a plain run is not empty"
run logged KCC_LOG=1
grep -q "^kcrt: opencl: built cl_chatter.cl from OpenCL C in [0-9.]* ms$" "$d/logged.err" ||
  fail "KCC_LOG=1: no 'built ... from OpenCL C in N ms' line for the cold first launch"
grep -v "^kcrt: " "$d/logged.err" >"$d/other" && fail "lines on stderr that are not kcrt's: $(cat "$d/other")"
mv "$d/logged.err" "$d/logged.err.first"
cp -R "$d/cache-logged" "$d/cache-warm"
run warm KCC_LOG=1
grep -q "^kcrt: opencl: cl_chatter.cl loaded from the cache in [0-9.]* ms$" "$d/warm.err" ||
  fail "KCC_LOG=1, warm cache: no 'loaded from the cache' line"
grep -q "built cl_chatter.cl" "$d/warm.err" && fail "a warm cache built the program again"
echo "PASS: no driver chatter on stderr; KCC_LOG names the cold build and the cache load"
