#!/bin/sh
# real_run.sh KCC REAL_RUN REAL_DIR OUT_DIR CORPUS_OUT — the runnable registry-corpus kernels
# (tests/real/run/EXPECT `NAME pass KEY`) compiled with -fbounds-check and run by tests/real's
# runner against the original source on PoCL and the host reference: checked, a correct
# kernel computes exactly what it does unchecked, and no check fires. Exit 0 when all pass.
kcc=$1 runner=$2 real=$3 out=$4 corpus_out=$5
corpus=$(cd "$real/../corpus" && pwd)/run.sh
mkdir -p "$out"
pass=0 fail=0 skip=0
# shellcheck disable=SC2013 # names and keys are single words
for line in $(awk '$2 == "pass" {print $1 ":" $3}' "$real/run/EXPECT"); do
  name=${line%%:*} key=${line#*:}
  kernel=$(bash "$corpus" --out "$corpus_out" --path "$key") || { fail=$((fail + 1)); continue; }
  # shellcheck disable=SC2046 # the options split into words on purpose
  set -- $(bash "$corpus" --out "$corpus_out" --options "$key")
  if ! "$kcc" -fbounds-check "$@" "$kernel" -o "$out/$name.kcb" 2>"$out/$name.err"; then
    echo "FAIL $name: kcc -fbounds-check: $(head -c 300 "$out/$name.err")"
    fail=$((fail + 1))
    continue
  fi
  "$runner" "$name" "$out/$name.kcb" "$kernel" "$@" >"$out/$name.out" 2>&1
  rc=$?
  case $rc in
    0) pass=$((pass + 1)) ;;
    77) skip=$((skip + 1)) ;;
    *) fail=$((fail + 1)); echo "FAIL $name (exit $rc):"; tail -5 "$out/$name.out" ;;
  esac
done
echo "bounds.real: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
