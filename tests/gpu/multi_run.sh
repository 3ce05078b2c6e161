#!/bin/sh
# multi_run.sh DIR — issue 15's measurements on a machine with two (or more) NVIDIA GPUs, from
# what tests/gpu/multi_prepare.sh made: the multidevice vector add of 2^30 floats on one GPU
# and on every GPU, and the MPI heat solver on a 16384 x 16384 plate (2000 steps) on 1 and 2
# ranks, one GPU each; a small plate on 2 ranks checked point for point against the host.
# Speed-ups are kernel time (host transfers excluded). Exit 1 if a result is wrong.
set -u
dir=$(cd "${1:?usage: multi_run.sh DIR}" && pwd)
cd "$dir" || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# NVLink multicast stays off on shared hosts (the machine's rules): nothing here uses it.
export NCCL_NVLS_ENABLE=0
st=0
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader | sed 's/^/   GPU /'
nvidia-smi topo -m 2>/dev/null | head -4 | sed 's/^/   /'
mpirun --version 2>&1 | head -1 | sed 's/^/   /'

echo "== multidevice: vector add of 2^30 floats"
CUDA_VISIBLE_DEVICES=0 ./multidevice 1073741824 || st=1
./multidevice 1073741824 || st=1

# The heat sample built here with the machine's mpicc (its libmpi matches its mpirun); the
# carried binary with the carried libraries otherwise.
heat=./heat
if command -v mpicc >/dev/null && mpicc -O2 -std=c11 heat.c -I. libkcrt.a -ldl -lpthread -lm \
     -o heat.local 2>mpicc.log; then
  heat=./heat.local
  echo "== heat: built with $(command -v mpicc)"
else
  echo "== heat: the carried binary ($(head -3 mpicc.log 2>/dev/null | tr '\n' ' '))"
  export LD_LIBRARY_PATH="$dir/mpilib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
echo "== heat: 512 x 512, 300 steps, 2 ranks, checked against the host"
mpirun -np 2 --bind-to none "$heat" 512 512 300 --check | tee small.txt || st=1
grep -qx 'check: identical to the single-process computation' small.txt || st=1
echo "== heat: 16384 x 16384, 2000 steps, 1 rank then 2 ranks"
mpirun -np 1 --bind-to none "$heat" 16384 16384 2000 | tee one.txt || st=1
mpirun -np 2 --bind-to none "$heat" 16384 16384 2000 | tee two.txt || st=1
c1=$(grep '^checksum' one.txt) c2=$(grep '^checksum' two.txt)
[ -n "$c1" ] && [ "$c1" = "$c2" ] && echo "heat: 1 and 2 ranks identical ($c1)" || {
  echo "heat: 1 and 2 ranks DIFFER: '$c1' vs '$c2'"; st=1; }
k1=$(sed -n 's/^time: kernels \([0-9.]*\) ms.*/\1/p' one.txt)
k2=$(sed -n 's/^time: kernels \([0-9.]*\) ms.*/\1/p' two.txt)
[ -n "$k1" ] && [ -n "$k2" ] && awk -v a="$k1" -v b="$k2" \
  'BEGIN { printf "heat: kernel time %.1f ms on 1 GPU, %.1f ms on 2: speed-up %.2fx\n", a, b, a / b }'
echo "== done, status $st"
exit $st
