#!/bin/sh
# nanosleep.sh KCC SRC OUT — tests/cu/nanosleep.cu: the PTX has one nanosleep.u32 per call (2),
# the OpenCL C keeps the argument's side effect (next_delay is still called), and -arch=sm_60
# is refused with one diagnostic.
set -u
kcc=$1 src=$2 out=$3
"$kcc" "$src" --emit=ptx -arch=sm_90 -o "$out.ptx" || exit 1
n=$(grep -c 'nanosleep\.u32' "$out.ptx")
[ "$n" = 2 ] || { echo "FAIL: $n nanosleep.u32 in the PTX, not 2"; exit 1; }
"$kcc" "$src" --emit=cl -o "$out.cl" || exit 1
grep -q '(void)(ns = next_delay(ns, ' "$out.cl" ||
  { echo "FAIL: the OpenCL C lost the argument:"; grep -n 'next_delay' "$out.cl"; exit 1; }
if "$kcc" "$src" --emit=ptx -arch=sm_60 -o "$out.sm60.ptx" 2>"$out.err"; then
  echo "FAIL: sm_60 accepted"; exit 1
fi
[ "$(grep -c 'error:' "$out.err")" = 2 ] || { echo "FAIL: sm_60 said:"; cat "$out.err"; exit 1; }
first=$(head -n 1 "$out.err")
case $first in
  *"nanosleep.cu:19:5: error: __nanosleep needs sm_70 or newer (this is sm_60)") ;;
  *) echo "FAIL: sm_60 said: $first"; exit 1 ;;
esac
[ ! -e "$out.sm60.ptx" ] || { echo "FAIL: a PTX file was written for sm_60"; exit 1; }
echo "PASS: 2 nanosleep.u32, the OpenCL C keeps the argument, sm_60 refused"
