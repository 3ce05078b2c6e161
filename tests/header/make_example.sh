#!/bin/sh
# make_example.sh MAKE SAMPLE_DIR PKG_CONFIG_DIR WORK_DIR [FLAGS] — samples/make-example as a user
# runs it: a copy of the directory, `make` with pkg-config pointed at the installed kcc, the
# program run; then `make` again does nothing, and editing saxpy_config.h (included by the
# kernel and by main.c) rebuilds saxpy.h through kcc's -MD dependency file. FLAGS are added to
# CFLAGS and LDFLAGS (the sanitizers, when kcc was built with them).
set -eu
make=$1 src=$2 pcdir=$3 work=$4 flags=${5:-}
rm -rf "$work"
cp -R "$src" "$work"
export PKG_CONFIG_PATH="$pcdir"
run_make() { "$make" -C "$work" CFLAGS="-O2 -Wall -Wextra -Werror $flags" LDFLAGS="$flags" "$@"; }
run_make >"$work/make1.log" 2>&1 || { cat "$work/make1.log"; exit 1; }
cat "$work/make1.log"
out=$("$work/saxpy") || { rc=$?; echo "$out"; [ $rc = 77 ] && exit 77; exit 1; }
echo "$out"
echo "$out" | grep -q "^saxpy, blocks of 256: OK$" || { echo "FAIL: unexpected output"; exit 1; }
head -n 3 "$work/saxpy.h.d"
run_make -q || { echo "FAIL: make is not up to date after a build"; exit 1; }
sleep 1 # coarse file times
echo '#define SAXPY_BLOCK 128' >"$work/saxpy_config.h"
run_make >"$work/make2.log" 2>&1 || { cat "$work/make2.log"; exit 1; }
grep -q "kcc.* saxpy.k -o saxpy.h" "$work/make2.log" ||
  { echo "FAIL: editing saxpy_config.h did not regenerate saxpy.h:"; cat "$work/make2.log"; exit 1; }
out=$("$work/saxpy")
echo "after the edit: $out"
echo "$out" | grep -q "^saxpy, blocks of 128: OK$" || { echo "FAIL: the edit did not take"; exit 1; }
echo "PASS: make-example"
