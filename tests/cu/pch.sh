#!/bin/sh
# pch.sh KCC BCANALYZER OUT — the precompiled CUDA prelude (frontend/pch.c): made once in an
# empty cache, its deferred-diagnostics list renamed to a record clang skips (llvm-bcanalyzer
# finds no DECLS_TO_CHECK_FOR_DEFERRED_DIAGS in it, and one record of code 1000), loaded by
# the next compile as it is (a file clang rejects is removed and made again: the file's inode
# and bytes stay), with the same PTX as a compile without the cache; and a deferred diagnostic
# of the input itself (tests/cu/bad/host_call.cu's) still reported with it.
set -u
kcc=$1 bca=$2 out=$3
src=$(dirname "$0")
rm -rf "$out" && mkdir -p "$out/cache" || exit 1
export XDG_CACHE_HOME="$out/cache"
"$kcc" "$src/group.cu" -arch=sm_90 -o "$out/a.ptx" || exit 1
set -- "$out"/cache/kcc/pch/*.pch
[ $# = 1 ] && [ -s "$1" ] || { echo "FAIL: not one precompiled prelude: $*"; exit 1; }
pch=$1
"$bca" -dump "$pch" >"$out/dump.txt" 2>&1 || { echo "FAIL: llvm-bcanalyzer:"; tail -3 "$out/dump.txt"; exit 1; }
if grep -q '<DECLS_TO_CHECK_FOR_DEFERRED_DIAGS' "$out/dump.txt"; then
  echo "FAIL: the deferred-diagnostics list is still in $pch"; exit 1
fi
n=$(grep -c '<UnknownCode1000 ' "$out/dump.txt")
[ "$n" = 1 ] || { echo "FAIL: $n records of code 1000, not 1"; exit 1; }
before=$(ls -i "$pch" && cksum <"$pch")
"$kcc" "$src/group.cu" -arch=sm_90 -o "$out/b.ptx" || exit 1
after=$(ls -i "$pch" && cksum <"$pch")
[ "$before" = "$after" ] || { echo "FAIL: the precompiled prelude was made again (rejected)"; exit 1; }
KCC_CACHE=0 "$kcc" "$src/group.cu" -arch=sm_90 -o "$out/c.ptx" || exit 1
cmp -s "$out/a.ptx" "$out/c.ptx" && cmp -s "$out/b.ptx" "$out/c.ptx" ||
  { echo "FAIL: the PTX differs with and without the precompiled prelude"; exit 1; }
if "$kcc" "$src/bad/host_call.cu" -o "$out/h.ptx" 2>"$out/h.err"; then
  echo "FAIL: host_call.cu compiled"; exit 1
fi
grep -q "host_call.cu:6:46: error: reference to __host__ function 'host_only'" "$out/h.err" ||
  { echo "FAIL: host_call.cu said:"; cat "$out/h.err"; exit 1; }
echo "PASS: the list renamed in place, the file loaded as it is, the same PTX, deferred errors kept"
