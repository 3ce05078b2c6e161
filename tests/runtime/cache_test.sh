#!/bin/sh
# cache_test.sh PROGRAM BUNDLE — the on-disk cache seen from outside, with KCC_LOG=1:
#   1. an empty cache: the program builds and stores its compiled program;
#   2. a second run: a hit;
#   3. every entry damaged: the runtime says so, ignores it, rebuilds and stores again;
#   4. KCC_CACHE=0: the cache is not touched at all.
# Exit 77 (skip) when the program finds no device.
set -u
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export XDG_CACHE_HOME="$d" KCC_LOG=1
run() { # $1: log name
  "$PROG" "$BUNDLE" >"$d/$1.out" 2>"$d/$1.err"
  rc=$?
  [ $rc -eq 77 ] && exit 77
  [ $rc -eq 0 ] || { echo "run '$1' failed:"; cat "$d/$1.out" "$d/$1.err"; exit 1; }
}
expect() { # $1 log, $2 pattern, $3 what
  grep -q "$2" "$d/$1.err" || { echo "run '$1': expected $3; stderr was:"; cat "$d/$1.err"; exit 1; }
}
PROG=$1 BUNDLE=$2
run first;  expect first 'cache: stored' 'a store'
run second; expect second 'cache: hit' 'a hit'
for f in "$d"/kcc/*.bin; do printf 'garbage' >"$f"; done
run third;  expect third 'ignoring damaged entry' 'the damaged entry to be reported'
expect third 'cache: stored' 'the entry to be replaced'
run fourth; expect fourth 'cache: hit' 'a hit on the replaced entry'
KCC_CACHE=0 run fifth
if grep -q 'cache:' "$d/fifth.err"; then echo "KCC_CACHE=0 still used the cache:"; cat "$d/fifth.err"; exit 1; fi
echo "cache: store, hit, damaged entry replaced, KCC_CACHE=0 honoured"
