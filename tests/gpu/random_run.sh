#!/bin/sh
# random_run.sh DIR — runs the random kernels prepared by tests/gpu/random_prepare.sh DIR on
# this machine's NVIDIA GPU and compares every output element with the host reference:
#   cubin    the bundle through libkcrt, KCC_DEVICE=cuda (the sm_90/sm_80 cubin where the
#            bundle has one for this GPU, else the PTX JIT)
#   ptx      the same bundle with KCC_CUDA_FORM=ptx: kcc's PTX through the driver's JIT
#   cuda-c   kcc's CUDA C as built by nvcc (rk.fatbin), through the CUDA driver API
# Prints one line per batch and configuration, then the totals; exit status 0 when every
# kernel agreed on every configuration that ran. Mismatching batches are listed with their
# seeds: rerun them on a CPU machine with tests/random/rkdiff.py --seeds SEED --reduce.
set -u
[ $# -ge 1 ] || { echo "usage: $0 DIR (made by tests/gpu/random_prepare.sh)" >&2; exit 2; }
dir=$(cd "$1" && pwd)
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir/lib"
export XDG_CACHE_HOME="$(mktemp -d)"
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
pass_cubin=0 pass_ptx=0 pass_cu=0 total=0 bad=""
for d in "$dir"/batches/*; do
  seed=$(basename "$d")
  k=$(cat "$d/count")
  total=$((total + k))
  for cfg in cubin ptx cuda-c; do
    rm -f "$d/$cfg.out"
    case $cfg in
      cubin) KCC_DEVICE=cuda "$dir/bin/rk_run" kcb "$d/rk.kcb" 0 "$k" "$seed" "$d/$cfg.out" ;;
      ptx) KCC_DEVICE=cuda KCC_CUDA_FORM=ptx "$dir/bin/rk_run" kcb "$d/rk.kcb" 0 "$k" "$seed" \
             "$d/$cfg.out" ;;
      cuda-c) [ -e "$d/rk.fatbin" ] || continue
              "$dir/bin/rk_run" cuda "$d/rk.fatbin" 0 "$k" "$seed" "$d/$cfg.out" ;;
    esac
    rc=$?
    [ $rc -eq 77 ] && { echo "seed $seed $cfg: skipped (no device)"; continue; }
    res=$("$dir/bin/rk_cmp" "$d/rk.ref" "$d/$cfg.out" "$k")
    ok=$((k - $(printf '%s' "$res" | grep -c '^kernel')))
    [ -n "$res" ] && bad="$bad $seed/$cfg"
    case $cfg in
      cubin) pass_cubin=$((pass_cubin + ok)) ;;
      ptx) pass_ptx=$((pass_ptx + ok)) ;;
      cuda-c) pass_cu=$((pass_cu + ok)) ;;
    esac
    echo "seed $seed $cfg: $ok/$k agree (runner exit $rc)${res:+
$res}"
  done
done
echo "random_run: $total kernels; agreed with the host reference: cubin $pass_cubin, ptx $pass_ptx, cuda-c $pass_cu"
[ -z "$bad" ] || { echo "mismatches:$bad"; exit 1; }
