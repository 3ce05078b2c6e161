#!/bin/sh
# devices.sh KCC — the devices a scheduler's or launcher's environment gives a process
# (runtime/schedenv.c, docs/runtime.md "Devices a scheduler assigns"), seen through
# `kcc --devices` on two PoCL devices told apart by name: POCL_DEVICES="basic pthread" lists
# basic-... as opencl:0 and pthread-... as opencl:1 (the CUDA and Vulkan back ends' notes, which
# depend on the machine, are left out).
set -u
kcc=$1
export POCL_DEVICES="basic pthread"
unset KCC_DEVICE ONEAPI_DEVICE_SELECTOR HIP_VISIBLE_DEVICES OMPI_COMM_WORLD_LOCAL_RANK \
  MPI_LOCALRANKID MV2_COMM_WORLD_LOCAL_RANK SLURM_LOCALID PALS_LOCAL_RANKID FLUX_TASK_LOCAL_ID
fails=0
# expect "ENV..." "EXPECTED" — the device lines ([i] ..., the count, the notes) of
# `env ENV kcc --devices`, names shortened to their PoCL device kind: PoCL names a device
# kind-llvmcpu-cpumodel, the model being words one space apart ("Intel(R) Xeon(R) ...",
# "AMD EPYC ..."), and kcc --devices puts two spaces before "(default)".
expect() {
  got=$(env $1 "$kcc" --devices 2>&1 | grep -v '^    ' | grep -v '^CUDA:' | grep -v '^Vulkan:' |
        sed -E 's/(basic|pthread)-[^ ]*( [^ ]+)*/\1/')
  if [ "$got" != "$2" ]; then
    printf 'FAIL: %s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$got"
    fails=$((fails + 1))
  fi
}
both='2 devices
[0] opencl:0  basic  (default)
[1] opencl:1  pthread'
expect "" "$both"
# ONEAPI_DEVICE_SELECTOR, as oneAPI's SYCL runtime reads it.
expect "ONEAPI_DEVICE_SELECTOR=opencl:1" '1 device
[0] opencl:0  pthread  (default)
OpenCL: ONEAPI_DEVICE_SELECTOR='"'opencl:1'"' hides 1'
expect "ONEAPI_DEVICE_SELECTOR=opencl:0,1" "$both"
expect "ONEAPI_DEVICE_SELECTOR=!opencl:0" '1 device
[0] opencl:0  pthread  (default)
OpenCL: ONEAPI_DEVICE_SELECTOR='"'!opencl:0'"' hides 1'
expect "ONEAPI_DEVICE_SELECTOR=*:cpu" "$both"
expect "ONEAPI_DEVICE_SELECTOR=*:*;!*:1" '1 device
[0] opencl:0  basic  (default)
OpenCL: ONEAPI_DEVICE_SELECTOR='"'*:*;!*:1'"' hides 1'
expect "ONEAPI_DEVICE_SELECTOR=opencl:gpu;opencl:1.0" '1 device
[0] opencl:0  pthread  (default)
OpenCL: ONEAPI_DEVICE_SELECTOR='"'opencl:gpu;opencl:1.0'"' hides 1'
expect "ONEAPI_DEVICE_SELECTOR=OPENCL:CPU" "$both"
# Backends kcrt reaches other vendors' devices through: no Intel or AMD GPU here.
expect "ONEAPI_DEVICE_SELECTOR=level_zero:0" '0 devices
OpenCL: 2 devices, all hidden: ONEAPI_DEVICE_SELECTOR='"'level_zero:0'"' hides 2'
expect "ONEAPI_DEVICE_SELECTOR=hip:*" '0 devices
OpenCL: 2 devices, all hidden: ONEAPI_DEVICE_SELECTOR='"'hip:*'"' hides 2'
expect "ONEAPI_DEVICE_SELECTOR=bogus" '0 devices
OpenCL: 2 devices, all hidden: ONEAPI_DEVICE_SELECTOR='"'bogus'"' hides 2'
expect "ONEAPI_DEVICE_SELECTOR=" "$both"
# HIP_VISIBLE_DEVICES counts AMD's GPUs only: the CPUs stay.
expect "HIP_VISIBLE_DEVICES=" "$both"
expect "HIP_VISIBLE_DEVICES=1" "$both"
# KCC_DEVICE=local-rank: the node-local rank modulo the candidates (both CPUs: no GPU here).
expect "KCC_DEVICE=local-rank" "$both
KCC_DEVICE='local-rank' selects [0]: no launcher set a local rank, so rank 0 of 2 candidates"
for v in OMPI_COMM_WORLD_LOCAL_RANK MPI_LOCALRANKID MV2_COMM_WORLD_LOCAL_RANK SLURM_LOCALID \
         PALS_LOCAL_RANKID FLUX_TASK_LOCAL_ID; do
  expect "KCC_DEVICE=local-rank $v=3" "$both
KCC_DEVICE='local-rank' selects [1]: local rank 3 ($v) of 2 candidates"
done
# Open MPI's variable is read first; one that is not a number is passed over.
expect "KCC_DEVICE=LOCAL-RANK SLURM_LOCALID=1 OMPI_COMM_WORLD_LOCAL_RANK=4" "$both
KCC_DEVICE='LOCAL-RANK' selects [0]: local rank 4 (OMPI_COMM_WORLD_LOCAL_RANK) of 2 candidates"
expect "KCC_DEVICE=local-rank OMPI_COMM_WORLD_LOCAL_RANK=x SLURM_LOCALID=1" "$both
KCC_DEVICE='local-rank' selects [1]: local rank 1 (SLURM_LOCALID) of 2 candidates"
# The visibility variables apply first: the rank counts the visible devices.
expect "KCC_DEVICE=local-rank SLURM_LOCALID=1 ONEAPI_DEVICE_SELECTOR=opencl:1" '1 device
[0] opencl:0  pthread  (default)
OpenCL: ONEAPI_DEVICE_SELECTOR='"'opencl:1'"' hides 1
KCC_DEVICE='"'local-rank'"' selects [0]: local rank 1 (SLURM_LOCALID) of 1 candidate'
[ $fails = 0 ] && echo "devices.sh: all cases as expected"
exit $fails
