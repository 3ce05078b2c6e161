#!/bin/sh
# py_heat.sh MPIEXEC HEAT PYTHON SRC BUILD — samples/python/mpi_heat.py (mpi4py) on 1 and 2
# ranks: each agrees point for point with numpy's single-process computation (--check), and
# both print the checksum the C sample (HEAT) prints for the same plate. PYTHON needs numpy and
# mpi4py (scripts/python-env.sh); without them the test is skipped (77), saying so.
set -u
mpiexec=$1 heat=$2 py=$3 src=$4 build=$5
if ! [ -x "$py" ] || ! "$py" -c "import numpy, mpi4py" 2>/dev/null; then
  echo "skipped: no Python with numpy and mpi4py at $py (scripts/python-env.sh $build/venv)"
  exit 77
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export KCC_LIBDIR="$build:$build/runtime" PYTHONPATH="$src/python" PYTHONDONTWRITEBYTECODE=1
fail() { echo "py_heat.sh: $*"; exit 1; }
c=$("$mpiexec" -np 1 "$heat" 96 70 40 2>&1) || { echo "$c"; fail "the C sample failed"; }
c=$(printf '%s\n' "$c" | grep '^checksum ')
for np in 1 2; do
  out=$("$mpiexec" -np $np --oversubscribe "$py" "$src/samples/python/mpi_heat.py" 96 70 40 \
        --check 2>&1) || { echo "$out"; fail "$np rank(s) failed"; }
  echo "$out"
  printf '%s\n' "$out" | grep -qx 'check: identical to the single-process computation' ||
    fail "$np rank(s) differ from numpy's computation"
  p=$(printf '%s\n' "$out" | grep '^checksum ')
  [ "$p" = "$c" ] || fail "$np rank(s): '$p', the C sample: '$c'"
done
printf '%s\n' "$out" | grep -qx 'heat: 96 x 70 plate, 40 steps, 2 ranks' || fail "2-rank header"
printf '%s\n' "$out" | grep -q '^  rank 0: .*, rows 1\.\.34, kernel ' || fail "rank 0's band"
printf '%s\n' "$out" | grep -q '^  rank 1: .*, rows 35\.\.68, kernel ' || fail "rank 1's band"
echo "py_heat.sh: 1 and 2 ranks identical to numpy and to the C sample ($c)"
