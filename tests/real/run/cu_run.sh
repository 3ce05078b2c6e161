#!/bin/sh
# cu_run.sh KCC REAL_CU_RUN NAME KERNEL.cu BUNDLE.kcb [BUILD-OPTIONS...] — builds the CUDA
# kernel's bundle with kcc (in the kernel's directory, so that OPTIONS' -Iinclude/NAME
# resolves), then runs real_cu_run on it. Exit status: real_cu_run's (77: skip).
kcc=$1 runner=$2 name=$3 kernel=$4 bundle=$5
shift 5
case $kcc in /*) ;; */*) kcc=$(pwd)/$kcc ;; esac
case $runner in /*) ;; */*) runner=$(pwd)/$runner ;; esac
case $bundle in /*) ;; *) bundle=$(pwd)/$bundle ;; esac
mkdir -p "$(dirname "$bundle")"
cd "$(dirname "$kernel")" || exit 1
"$kcc" "$@" "$(basename "$kernel")" -o "$bundle" || { echo "kcc failed on $kernel"; exit 1; }
exec "$runner" "$name" "$bundle"
