#!/bin/sh
# bounds_run.sh DIR — kcc -fbounds-check on this machine's GPU, prepared by
# tests/gpu/bounds_prepare.sh DIR. For each configuration:
#   rt_bounds oob.kcb            every class of bad access reported with its exact message
#                                (the same messages as on PoCL: tests/bounds/bounds.c)
#   rt_launch_checks oob.kcb     extern shared with 0 bytes, portable limits, fp64 (and again
#                                with KCC_PORTABLE=1)
#   rt_NAME checked/NAME.kcb     each corpus kernel compiled with -fbounds-check: the same
#                                exact results as unchecked (the runtime tests' references)
# Configurations: cuda-cubin (KCC_CUDA_FORM=cubin), cuda-ptx (the PTX through the JIT),
# opencl (NVIDIA's OpenCL driver: the bundle's OpenCL C). CONFIGS selects; RUN_LOG=FILE
# appends everything to FILE. Exit status 0 when nothing failed.
set -u
[ $# -ge 1 ] || { echo "usage: $0 DIR (made by tests/gpu/bounds_prepare.sh)" >&2; exit 2; }
dir=$(cd "$1" && pwd)
log=${RUN_LOG:-/dev/null}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say() { echo "$*"; echo "$*" >>"$log"; }

export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir/lib"
icd=""
for f in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 \
         /usr/lib64/libnvidia-opencl.so.1; do
  [ -e "$f" ] && { icd=$f; break; }
done
[ -n "$icd" ] || icd=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
mkdir -p "$tmp/vendors"
echo "${icd:-/usr/local/nvidia/lib64/libnvidia-opencl.so.1}" >"$tmp/vendors/nvidia.icd"
for f in /etc/OpenCL/vendors/*.icd; do [ -e "$f" ] && cp "$f" "$tmp/vendors/"; done
export OCL_ICD_VENDORS="$tmp/vendors"
export XDG_CACHE_HOME="$tmp/cache"

say "== kcc -fbounds-check GPU run: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
[ -f "$dir/MANIFEST" ] && sed 's/^/   /' "$dir/MANIFEST" | head -4
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | sed 's/^/   GPU: /'
pass=0 fail=0 skip=0 failed=""

run_one() { # CONFIG LABEL PROGRAM BUNDLE [ENV...]
  cfg=$1 label=$2 prog=$3 bundle=$4
  shift 4
  set -- env "$@" "$dir/bin/$prog" "$bundle"
  if command -v timeout >/dev/null; then set -- timeout 300 "$@"; fi
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  line=$(grep -E '^(PASS|FAIL|SKIP)' "$tmp/out" | tail -1 | cut -c1-200)
  case $rc in
    0) pass=$((pass + 1)); say "  ok    $cfg/$label: ${line#PASS }" ;;
    77) skip=$((skip + 1)); say "  skip  $cfg/$label: ${line#SKIP }" ;;
    *) fail=$((fail + 1)); failed="$failed $cfg/$label"
       say "  FAIL  $cfg/$label (exit $rc): $line"
       sed 's/^/        /' "$tmp/out" | head -30 | tee -a "$log"
       sed 's/^/        /' "$tmp/err" | head -20 | tee -a "$log" ;;
  esac
}

run_config() { # CONFIG ENV...
  cfg=$1
  shift
  say "== $cfg"
  b=$dir/bundles/checked
  run_one "$cfg" bounds rt_bounds "$b/oob.kcb" "$@"
  run_one "$cfg" launch_checks rt_launch_checks "$b/oob.kcb" "$@"
  run_one "$cfg" launch_checks.portable rt_launch_checks "$b/oob.kcb" "$@" KCC_PORTABLE=1
  for p in "$dir"/bin/rt_*; do
    name=${p##*/rt_}
    case $name in bounds | launch_checks) continue ;; esac
    run_one "$cfg" "checked/$name" "rt_$name" "$b/$name.kcb" "$@"
  done
}

for c in ${CONFIGS:-cuda-cubin cuda-ptx opencl}; do
  case $c in
    cuda-cubin) run_config cuda-cubin KCC_DEVICE=cuda KCC_CUDA_FORM=cubin ;;
    cuda-ptx) run_config cuda-ptx KCC_DEVICE=cuda KCC_CUDA_FORM=ptx ;;
    opencl) run_config opencl KCC_DEVICE=opencl ;;
    *) say "unknown configuration '$c'"; exit 2 ;;
  esac
done
say "== summary: $pass passed, $fail failed, $skip skipped"
[ -n "$failed" ] && say "   failed:$failed"
[ $fail -eq 0 ]
