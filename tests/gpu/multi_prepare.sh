#!/bin/sh
# multi_prepare.sh OUTDIR [BUILD] — what tests/gpu/multi_run.sh needs on a machine with
# several NVIDIA GPUs and Open MPI but no LLVM: samples/multidevice and samples/mpi as built
# here (each with its bundle), the MPI sample's source, kcrt.h and libkcrt.a, so that the
# run can build it there with that machine's mpicc (its Open MPI must match its mpirun), and
# this machine's Open MPI libraries as a fallback for the binary built here.
set -eu
out=${1:?usage: multi_prepare.sh OUTDIR [BUILD]}
build=${2:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
cmake --build "$build" --target multidevice heat kcrt >/dev/null
rm -rf "$out"
mkdir -p "$out/mpilib"
cp "$build/samples/multidevice/multidevice" "$build/samples/multidevice/vecadd.kcb" "$out/"
cp "$build/samples/mpi/heat" "$build/samples/mpi/heat.kcb" "$out/"
cp "$root/samples/mpi/main.c" "$out/heat.c"
cp "$root/runtime/include/kcrt.h" "$build/runtime/libkcrt.a" "$out/"
cp "$root/tests/gpu/multi_run.sh" "$out/"
for l in $(ldd "$build/samples/mpi/heat" | awk '/=> \// {print $3}' |
           grep -E 'libmpi|libopen-|libhwloc|libevent|libudev'); do
  cp -L "$l" "$out/mpilib/"
done
du -sh "$out"
echo "prepared $out: run 'sh $out/multi_run.sh $out' on the GPU machine"
