#!/bin/sh
# diag.sh KCC [EXPECTED] — the exact diagnostics of CUDA intrinsics and warp-level operations
# where a form cannot express them (tests/warp/diag/*.k): every case's stderr and exit status,
# compared with tests/warp/diag.expected (or, given a second argument, written there).
set -u
kcc=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here/diag" || exit 1
{
  for c in "clock.k --emit=cl" "clock.k --emit=spirv" "clock.k --emit=bundle" "clock.k --emit=bundle -Werror" \
           "width.k --emit=ptx" \
           "syncwarp.k --emit=cl" "syncwarp.k --emit=spirv" "syncwarp.k --emit=vkspv"; do
    echo "\$ kcc $c"
    # shellcheck disable=SC2086
    "$kcc" $c -o "$tmp/out" 2>&1
    echo "exit $?"
  done
} >"$tmp/got"
if [ $# -ge 2 ]; then cp "$tmp/got" "$2"; exit 0; fi
diff -u "$here/diag.expected" "$tmp/got"
