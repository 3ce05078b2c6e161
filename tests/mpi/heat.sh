#!/bin/sh
# heat.sh MPIEXEC HEAT — samples/mpi on 1 and on 2 ranks (oversubscribed: CI has 2 cores and
# PoCL): both must agree point for point with the single-process computation (--check) and
# print the same checksum, and the 2-rank run must list both ranks with their row bands.
set -u
mpiexec=$1 heat=$2
# Root (CI's containers) needs Open MPI's consent; oversubscribing needs to be allowed.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out1=$("$mpiexec" -np 1 "$heat" 96 70 40 --check 2>&1) || { echo "$out1"; exit 1; }
out2=$("$mpiexec" -np 2 --oversubscribe "$heat" 96 70 40 --check 2>&1) || { echo "$out2"; exit 1; }
echo "$out1"
echo "$out2"
fail() { echo "heat.sh: $*"; exit 1; }
for o in "$out1" "$out2"; do
  printf '%s\n' "$o" | grep -qx 'check: identical to the single-process computation' ||
    fail "a run differs from the single-process computation"
done
c1=$(printf '%s\n' "$out1" | grep '^checksum ')
c2=$(printf '%s\n' "$out2" | grep '^checksum ')
[ -n "$c1" ] && [ "$c1" = "$c2" ] || fail "checksums differ: '$c1' and '$c2'"
printf '%s\n' "$out2" | grep -qx 'heat: 96 x 70 plate, 40 steps, 2 ranks' || fail "2-rank header"
printf '%s\n' "$out2" | grep -q '^  rank 0: .*, rows 1\.\.34, kernel ' || fail "rank 0's band"
printf '%s\n' "$out2" | grep -q '^  rank 1: .*, rows 35\.\.68, kernel ' || fail "rank 1's band"
echo "heat.sh: 1 and 2 ranks identical ($c1)"
