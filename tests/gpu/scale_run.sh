#!/bin/sh
# scale_run.sh DIR — issue 28's measurements on a machine with two NVIDIA GPUs, from what
# tests/gpu/scale_prepare.sh made: the Python MPI heat solver (mpi4py, one GPU per rank chosen
# by kcc.select_device("local-rank")) checked on a small plate, then timed on a large one on
# 1 and 2 ranks; the Dask map (one worker per GPU) checked against numpy, then timed with 1
# and 2 workers; and the device each visibility variable gives. Exit 1 if a result is wrong.
set -u
dir=$(cd "${1:?usage: scale_run.sh DIR}" && pwd)
cd "$dir" || exit 1
touch -d "@$(cat "$dir/libkcc.mtime")" "$dir/lib/libkcc.so.0"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
export KCC_LIBDIR="$dir/lib" XDG_CACHE_HOME="$dir/cache" KCC_BOUNDS_CHECK=0
python3 -m pip install -q --no-index --find-links "$dir/wheels" --target "$dir/site" \
  mpi4py 'dask[distributed]' 2>&1 | tail -3
export PYTHONPATH="$dir:$dir/site"
st=0
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/   GPU /'
mpirun --version 2>&1 | head -1 | sed 's/^/   /'
python3 -c 'import sys, numpy, mpi4py, distributed; print("   Python", sys.version.split()[0],
  "numpy", numpy.__version__, "mpi4py", mpi4py.__version__, "distributed", distributed.__version__)'

echo "== devices the environment gives"
for e in "" "CUDA_VISIBLE_DEVICES=1" "ONEAPI_DEVICE_SELECTOR=cuda:1" \
         "KCC_DEVICE=local-rank OMPI_COMM_WORLD_LOCAL_RANK=1" \
         "KCC_DEVICE=local-rank SLURM_LOCALID=2"; do
  got=$(env $e python3 -c 'import kcc; d = kcc.get_device(); print(d.backend, d.backend_index, d.name, "of", len([x for x in kcc.devices() if x.backend == "cuda"]), "CUDA devices")' 2>&1)
  echo "   ${e:-(none)}: $got"
done

echo "== Dask's cuda family and kcc.mpi's choice"
python3 "$dir/scale_frames.py" || st=1

heat="python3 $dir/samples/python/mpi_heat.py"
echo "== mpi_heat.py: 512 x 512, 300 steps, 2 ranks, checked against numpy"
mpirun -np 2 --bind-to none $heat 512 512 300 --check | tee small.txt || st=1
grep -qx 'check: identical to the single-process computation' small.txt || st=1
echo "== mpi_heat.py: 16384 x 16384, 1000 steps, 1 rank then 2 ranks; then 32768 x 32768, 300"
mpirun -np 1 --bind-to none $heat 16384 16384 1000 | tee one.txt || st=1
mpirun -np 2 --bind-to none $heat 16384 16384 1000 | tee two.txt || st=1
mpirun -np 1 --bind-to none $heat 32768 32768 300 | tee one32.txt || st=1
mpirun -np 2 --bind-to none $heat 32768 32768 300 | tee two32.txt || st=1
for pair in "one two" "one32 two32"; do
  set -- $pair
  m1=$(sed -n 's/.*mean temperature //p' $1.txt) m2=$(sed -n 's/.*mean temperature //p' $2.txt)
  [ -n "$m1" ] && [ "$m1" = "$m2" ] && echo "mpi_heat: 1 and 2 ranks agree (mean $m1)" || {
    echo "mpi_heat: 1 and 2 ranks DIFFER: '$m1' vs '$m2'"; st=1; }
  a=$(sed -n "s/^time: kernels \([0-9.]*\) ms (slowest rank), wall \([0-9.]*\) ms/\1 \2/p" $1.txt)
  b=$(sed -n "s/^time: kernels \([0-9.]*\) ms (slowest rank), wall \([0-9.]*\) ms/\1 \2/p" $2.txt)
  [ -n "$a" ] && [ -n "$b" ] && echo "$a $b" | awk -v p="$(head -1 $1.txt)" '{
    printf "mpi_heat (%s): kernels %.1f ms on 1 GPU, %.1f on 2: %.2fx; wall %.1f ms, %.1f: %.2fx\n",
    p, $1, $3, $1 / $3, $2, $4, $2 / $4 }'
done

map="python3 $dir/samples/python/dask_map.py"
echo "== dask_map.py: 2^20 elements, 100 rounds, 2 workers, checked against numpy"
$map 1048576 8 100 --check | tee dsmall.txt || st=1
grep -qx 'check: identical to numpy' dsmall.txt || st=1
echo "== dask_map.py: 2^28 elements in 16 chunks, 200000 rounds, 1 worker then 2"
$map 268435456 16 200000 --workers 1 --seed 28 | tee d1.txt || st=1
$map 268435456 16 200000 --workers 2 --seed 28 | tee d2.txt || st=1
s1=$(grep '^sum of the hashes' d1.txt) s2=$(grep '^sum of the hashes' d2.txt)
[ -n "$s1" ] && [ "$s1" = "$s2" ] && echo "dask_map: 1 and 2 workers agree ($s1)" || {
  echo "dask_map: 1 and 2 workers DIFFER: '$s1' vs '$s2'"; st=1; }
t1=$(sed -n 's/^time: \([0-9.]*\) s.*/\1/p' d1.txt) t2=$(sed -n 's/^time: \([0-9.]*\) s.*/\1/p' d2.txt)
[ -n "$t1" ] && [ -n "$t2" ] && awk -v a="$t1" -v b="$t2" \
  'BEGIN { printf "dask_map: %.3f s with 1 worker, %.3f s with 2: speed-up %.2fx\n", a, b, a / b }'
echo "== done, status $st"
exit $st
