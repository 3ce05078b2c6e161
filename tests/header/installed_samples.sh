#!/bin/sh
# installed_samples.sh PREFIX WORK_DIR [FLAGS] — the samples as installed
# (<prefix>/share/doc/kcc/samples), configured as one project against PREFIX, built, and the
# vecadd sample run: what a user who only has the installed kcc gets.
set -eu
prefix=$1 work=$2 flags=${3:-}
rm -rf "$work"
cmake -S "$prefix/share/doc/kcc/samples" -B "$work" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Werror $flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  >"$work.configure.log" 2>&1 || { cat "$work.configure.log"; exit 1; }
cmake --build "$work" >"$work.build.log" 2>&1 || { cat "$work.build.log"; exit 1; }
for s in vecadd hello biggrid reduce matmul choose_device multidevice; do
  [ -x "$work/$(echo "$s" | sed 's/_/-/')/$s" ] || { echo "FAIL: $s was not built"; exit 1; }
done
out=$("$work/vecadd/vecadd" 100000) || { rc=$?; echo "$out"; [ $rc = 77 ] && exit 77; exit 1; }
echo "$out"
echo "$out" | grep -q "^check: OK, 100000 elements" || { echo "FAIL: vecadd"; exit 1; }
echo "PASS: the installed samples build against $prefix and run"
