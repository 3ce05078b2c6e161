#!/bin/sh
# outoftree.sh KCC_BUILD_DIR PREFIX PROJECT_SRC WORK_DIR GENERATOR [FLAGS] — the installed kcc, used
# the way a user would: builds tests/header/outoftree (a copy, so the source tree is never
# written) against PREFIX only (CMAKE_PREFIX_PATH + find_package(kcc) + kcc_add_kernels), runs
# it, and checks the kernel header's dependencies: a second build does nothing, and editing
# a header the kernel includes regenerates the kernel's .h and changes the program's output.
# PREFIX was filled by the kcc_installed fixture (tests/header.cmake: cmake --install). FLAGS
# go to the project's compiler and linker (the sanitizers, when kcc was built with them).
set -eu
prefix=$2 src=$3 work=$4 gen=$5 flags=${6:-}
rm -rf "$work"
mkdir -p "$work"
cp -R "$src" "$work/project"
build=$work/build

cmake -S "$work/project" -B "$build" -G "$gen" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >"$work/configure.log"
# The package came from the prefix, not from kcc's build tree.
grep -q "^kcc_DIR:PATH=$prefix/" "$build/CMakeCache.txt" || {
  echo "FAIL: kcc_DIR is not under $prefix:"; grep '^kcc_DIR' "$build/CMakeCache.txt"; exit 1; }
cmake --build "$build" >"$work/build1.log" 2>&1 || { cat "$work/build1.log"; exit 1; }
grep -q "kcc: generating" "$work/build1.log" || { echo "FAIL: kcc did not run"; exit 1; }
for p in saxpy_static saxpy_shared; do
  out=$("$build/$p") || { rc=$?; [ $rc = 77 ] && { echo "SKIP: no device"; exit 77; }
    echo "FAIL: $p exited $rc: $out"; exit 1; }
  echo "$p: $out"
  echo "$out" | grep -q "OK, bias 0$" || { echo "FAIL: unexpected output"; exit 1; }
done
# libkcc through the package's kcc::libkcc.
out=$("$build/jit") || { echo "FAIL: jit: $out"; exit 1; }
echo "jit: $out"
# The shared one really uses the installed libkcrt.so.
if command -v ldd >/dev/null; then
  ldd "$build/saxpy_shared" | grep -q "$prefix/.*libkcrt\.so" || {
    echo "FAIL: saxpy_shared does not load $prefix's libkcrt:"; ldd "$build/saxpy_shared"; exit 1; }
  echo "saxpy_shared loads $(ldd "$build/saxpy_shared" | grep -o "$prefix/[^ ]*libkcrt[^ ]*")"
fi

# Nothing changed: nothing is regenerated.
cmake --build "$build" >"$work/build2.log" 2>&1
if grep -q "kcc: generating" "$work/build2.log"; then
  echo "FAIL: a second build ran kcc again:"; cat "$work/build2.log"; exit 1
fi
# An included header changed: both kernel headers are regenerated and the new bias shows.
sleep 1 # coarse file times
echo '#define SAXPY_BIAS 0.5f' >"$work/project/kernels/saxpy_bias.h"
cmake --build "$build" >"$work/build3.log" 2>&1 || { cat "$work/build3.log"; exit 1; }
n=$(grep -c "kcc: generating" "$work/build3.log" || true)
[ "$n" = 2 ] || { echo "FAIL: editing saxpy_bias.h regenerated $n headers, not 2:"
  cat "$work/build3.log"; exit 1; }
for p in saxpy_static saxpy_shared; do
  out=$("$build/$p")
  echo "$p after the edit: $out"
  echo "$out" | grep -q "OK, bias 0.5$" || { echo "FAIL: the edit did not reach $p"; exit 1; }
done
echo "PASS: out-of-tree build with $gen against $prefix"
