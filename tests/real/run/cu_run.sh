#!/bin/sh
# cu_run.sh KCC REAL_CU_RUN CORPUS_OUT NAME CORPUS-KEY BUNDLE.kcb — finds the runner's CUDA
# kernel in the registry corpus (tests/corpus/run.sh --path: downloaded into CORPUS_OUT if need
# be), builds its bundle with kcc and the options the corpus gives it, then runs real_cu_run
# on it. Exit status: real_cu_run's (77: skip).
set -eu
kcc=$1 runner=$2 corpus_out=$3 name=$4 key=$5 bundle=$6
corpus=$(cd "$(dirname "$0")/../../corpus" && pwd)/run.sh
kernel=$(bash "$corpus" --out "$corpus_out" --path "$key")
opts=$(bash "$corpus" --out "$corpus_out" --options "$key")
mkdir -p "$(dirname "$bundle")"
# shellcheck disable=SC2086 # the options are words
"$kcc" $opts "$kernel" -o "$bundle" || { echo "kcc failed on $kernel"; exit 1; }
exec "$runner" "$name" "$bundle"
