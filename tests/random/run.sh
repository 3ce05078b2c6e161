#!/usr/bin/env bash
# run.sh — the full random differential run on demand (docs/testing.md).
#   tests/random/run.sh BUILD SEEDS [KERNELS_PER_SEED] [JOBS] [extra rkdiff.py options]
#   e.g. tests/random/run.sh build 1-300 10 2 --reduce
# Runs niced; findings (and their reduced reproducers with --reduce) land in
# BUILD/tests/random/full/findings/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:?build directory}"
seeds="${2:?seed range, e.g. 1-300}"
k="${3:-10}"
jobs="${4:-2}"
shift $(( $# < 4 ? $# : 4 ))
export PATH="$PATH:/usr/local/cuda/bin"
exec nice -n 10 python3 "$here/rkdiff.py" --kcc "$build/kcc" --rk-run "$build/tests/rk_run" \
  --seeds "$seeds" -k "$k" -j "$jobs" --work "$build/tests/random/full" "$@"
