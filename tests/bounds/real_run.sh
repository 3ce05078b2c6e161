#!/bin/sh
# real_run.sh KCC REAL_RUN REAL_DIR OUT_DIR — the real-world corpus's runnable kernels
# (tests/real/run/EXPECT `NAME pass`) compiled with -fbounds-check and run by tests/real's
# runner against the original source on PoCL and the host reference: checked, a correct
# kernel computes exactly what it does unchecked, and no check fires. Exit 0 when all pass.
kcc=$1 runner=$2 real=$3 out=$4
mkdir -p "$out"
pass=0 fail=0 skip=0
# shellcheck disable=SC2013 # names are single words
for name in $(awk '$2 == "pass" {print $1}' "$real/run/EXPECT"); do
  # shellcheck disable=SC2046 # the options split into words on purpose
  set -- $(awk -v n="$name" '$1 == n {$1 = ""; print}' "$real/opencl/OPTIONS")
  if ! "$kcc" -fbounds-check "$@" "$real/opencl/$name.cl" -o "$out/$name.kcb" 2>"$out/$name.err"; then
    echo "FAIL $name: kcc -fbounds-check: $(head -c 300 "$out/$name.err")"
    fail=$((fail + 1))
    continue
  fi
  "$runner" "$name" "$out/$name.kcb" "$real/opencl/$name.cl" "$@" >"$out/$name.out" 2>&1
  rc=$?
  case $rc in
    0) pass=$((pass + 1)) ;;
    77) skip=$((skip + 1)) ;;
    *) fail=$((fail + 1)); echo "FAIL $name (exit $rc):"; tail -5 "$out/$name.out" ;;
  esac
done
echo "bounds.real: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
