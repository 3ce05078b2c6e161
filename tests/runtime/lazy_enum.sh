#!/bin/sh
# lazy_enum.sh PROGRAM cpu|opencl|default — runs tests/runtime/lazy_enum.c with KCC_LOG=1 and
# checks its exact output and the back ends its log says were enumerated (tests/lazy_enum.cmake).
set -u
prog=$1 sel=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset KCC_DEVICE
[ "$sel" = default ] || export KCC_DEVICE="$sel"
KCC_LOG=1 "$prog" >"$tmp/out" 2>"$tmp/err"
rc=$?
# Which back ends were enumerated, in order: "CUDA N", "OpenCL N".
sed -n 's/^kcrt: \(CUDA\|OpenCL\): \([0-9][0-9]*\) device(s).*/\1 \2/p' "$tmp/err" >"$tmp/enum"
fail() {
  echo "FAIL: $*"
  echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"
  exit 1
}
if [ "$sel" != default ]; then
  if [ $rc -ne 0 ] && grep -q '^OpenCL 0$' "$tmp/enum"; then
    echo "no OpenCL device: skipped"
    exit 77
  fi
  printf 'opened: opencl CPU\nlibcuda: not mapped\nlibOpenCL: mapped\n' >"$tmp/want"
  cmp -s "$tmp/out" "$tmp/want" || fail "KCC_DEVICE=$sel: output differs from $(cat "$tmp/want")"
  grep -q '^OpenCL [1-9]' "$tmp/enum" && [ "$(wc -l <"$tmp/enum")" -eq 1 ] ||
    fail "KCC_DEVICE=$sel: want OpenCL's enumeration alone, got: $(cat "$tmp/enum")"
  exit 0
fi
first=$(sed -n 1p "$tmp/enum")
case $first in
  "CUDA 0")
    [ "$(sed -n 2p "$tmp/enum")" = "OpenCL $(sed -n "s/^OpenCL //p" "$tmp/enum")" ] &&
      [ "$(wc -l <"$tmp/enum")" -eq 2 ] || fail "no CUDA GPU: want CUDA's line then OpenCL's"
    if [ $rc -ne 0 ]; then echo "no device: skipped"; exit 77; fi
    sed -n 1p "$tmp/out" | grep -q '^opened: opencl ' || fail "want an OpenCL device"
    ;;
  CUDA*)
    [ "$(wc -l <"$tmp/enum")" -eq 1 ] || fail "a CUDA GPU: OpenCL should not be enumerated"
    printf 'opened: cuda GPU\nlibcuda: mapped\nlibOpenCL: not mapped\n' >"$tmp/want"
    cmp -s "$tmp/out" "$tmp/want" || fail "output differs from $(cat "$tmp/want")"
    ;;
  *) fail "CUDA was not asked first" ;;
esac
exit 0
