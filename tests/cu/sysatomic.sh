#!/bin/sh
# sysatomic.sh KCC SRC OUT — tests/cu/sysatomic.cu: the PTX has one atom.sys per call (17, of
# the exact operation and type), __threadfence_system is membar.sys, and -arch=sm_50 is refused
# with one diagnostic.
set -u
kcc=$1 src=$2 out=$3
"$kcc" "$src" --emit=ptx -arch=sm_90 -o "$out.ptx" || exit 1
grep -o 'atom\.sys\.[a-z]*\.[a-z0-9]*' "$out.ptx" >"$out.ops"
want='atom.sys.add.u32 atom.sys.add.u32 atom.sys.exch.b32 atom.sys.min.s32 atom.sys.max.s32
atom.sys.and.b32 atom.sys.or.b32 atom.sys.xor.b32 atom.sys.cas.b32 atom.sys.inc.u32
atom.sys.dec.u32 atom.sys.min.u32 atom.sys.max.u64 atom.sys.min.s64 atom.sys.add.f32
atom.sys.exch.b32 atom.sys.add.f64'
got=$(tr '\n' ' ' <"$out.ops")
[ "$(echo $got)" = "$(echo $want)" ] || { echo "FAIL: atom.sys instructions: $got"; exit 1; }
fences=$(grep -o 'membar\.[a-z]*' "$out.ptx" | tr '\n' ' ')
[ "$fences" = "membar.sys membar.gl " ] || { echo "FAIL: fences: $fences"; exit 1; }
if "$kcc" "$src" --emit=ptx -arch=sm_50 -o "$out.sm50.ptx" 2>"$out.err"; then
  echo "FAIL: sm_50 accepted"; exit 1
fi
first=$(head -n 1 "$out.err")
case $first in
  *"sysatomic.cu:6:3: error: system-scope atomics need sm_60 or newer (this is sm_50)") ;;
  *) echo "FAIL: sm_50 said: $first"; exit 1 ;;
esac
[ ! -e "$out.sm50.ptx" ] || { echo "FAIL: a PTX file was written for sm_50"; exit 1; }
echo "PASS: 17 atom.sys, membar.sys; sm_50 refused"
