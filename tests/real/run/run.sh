#!/bin/sh
# run.sh KCC REAL_RUN NAME KERNEL.cl BUNDLE.kcb [BUILD-OPTIONS...] — builds the kernel's
# bundle with kcc (the same build options the original host program gives its OpenCL driver),
# then runs real_run on it and on the original source. Exit status: real_run's (77: skip).
kcc=$1 runner=$2 name=$3 kernel=$4 bundle=$5
shift 5
mkdir -p "$(dirname "$bundle")"
"$kcc" "$@" "$kernel" -o "$bundle" || { echo "kcc failed on $kernel"; exit 1; }
exec "$runner" "$name" "$bundle" "$kernel" "$@"
