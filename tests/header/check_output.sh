#!/bin/sh
# check_output.sh EXIT-STATUS REGEX... -- COMMAND ARGS... — runs COMMAND and passes when it
# exits with EXIT-STATUS and every REGEX (grep -E) matches a line of its output (stdout and
# stderr together). Prints the output either way. Exit 77 (a ctest skip) when the runtime
# found no device at all.
want=$1
shift
n=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  n=$((n + 1))
  eval "re_$n=\$1"
  shift
done
[ "${1:-}" = "--" ] || { echo "usage: check_output.sh STATUS REGEX... -- COMMAND..."; exit 2; }
shift
out=$("$@" 2>&1)
got=$?
printf '%s\n' "$out"
if printf '%s\n' "$out" | grep -q 'KCRT_ERROR_NO_DEVICE' && [ "$want" = 0 ]; then
  echo "SKIP: no device"; exit 77
fi
status=0
if [ "$got" != "$want" ]; then
  echo "FAIL: exit status $got, expected $want"; status=1
fi
i=1
while [ $i -le $n ]; do
  eval "re=\$re_$i"
  if ! printf '%s\n' "$out" | grep -Eq -- "$re"; then
    echo "FAIL: no line matches: $re"; status=1
  fi
  i=$((i + 1))
done
exit $status
