#!/bin/sh
# gpu_run.sh DIR — runs kcc's benchmarks, prepared here-and-there by bench/gpu_prepare.sh DIR,
# on this machine's devices. Needs only a shell, coreutils (timeout) and the drivers.
#
#   cuda    KCC_DEVICE=cuda: bench/kernel_time with kcc's cubin, kcc's PTX through the
#           driver's JIT, and nvcc's cubin; bench/start_time for the raw driver API (nvcc's
#           cubin without libkcrt: the baseline), kcc's cubin (cold, warm) and the PTX JIT
#           (cold, warm); bench/launch_raw (kcrt_launch against a raw
#           cuLaunchKernel in one process); tests/runtime/lazy_enum.sh default (the default
#           device is CUDA's GPU and libOpenCL is never loaded)
#   opencl  KCC_DEVICE=opencl (the first OpenCL GPU: NVIDIA's driver, reached through an ICD
#           vendors directory written here): kernel_time with kcc's OpenCL C and SPIR-V,
#           start_time for both (SPIR-V rows fail where the driver does not take it)
#   vulkan  KCC_DEVICE=vulkan (the GPU's Vulkan driver; the machine needs a Vulkan loader):
#           kernel_time with kcc's Vulkan SPIR-V, then each row's time over kcc's cubin from
#           the cuda configuration of the same run (list cuda first), and start_time
#   cpu     KCC_DEVICE=cpu (PoCL): the same at small sizes; for testing the scripts on a
#           machine without a GPU
#
# Environment: CONFIGS (default "cuda opencl"), BENCH_BUDGET (seconds for the whole run,
# default 300: every step's timeout is cut to what is left, and steps that no longer fit are
# skipped and say so), RUNS (start_time runs per row, default 11: device open varies by +-10 ms from run to run), OUT (when set, the tables go
# to $OUT/bench_results.md and the tools' stderr to $OUT/bench_log.txt as well as stdout).
# Exit status: 1 when a kernel computed a wrong result, 0 otherwise (missing devices and
# forms a driver refuses are reported in the tables, not as failures).
set -u
[ $# -ge 1 ] || { echo "usage: $0 DIR (made by bench/gpu_prepare.sh)" >&2; exit 2; }
dir=$(cd "$1" && pwd) || exit 2
[ -x "$dir/bin/kernel_time" ] || {
  echo "$dir: no bin/kernel_time (run bench/gpu_prepare.sh $1 first)" >&2
  exit 2
}
started=$(date +%s)
deadline=$((started + ${BENCH_BUDGET:-300}))
runs=${RUNS:-11}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
results=/dev/null log=$tmp/log.txt
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT" && results=$OUT/bench_results.md log=$OUT/bench_log.txt
  : >"$results"
  : >"$log"
fi
say() { echo "$*"; echo "$*" >>"$results"; }
wrong=0

# NVIDIA's OpenCL driver wherever this machine keeps it, plus the system's own ICDs (setting
# OCL_ICD_VENDORS replaces the system directory). The ICD loader shipped in DIR/lib comes last
# on the library path: the system's wins when there is one.
icd=""
for f in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 \
         /usr/lib64/libnvidia-opencl.so.1; do
  [ -e "$f" ] && { icd=$f; break; }
done
[ -n "$icd" ] || icd=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1/ {print $NF; exit}')
mkdir -p "$tmp/vendors"
[ -n "$icd" ] && echo "$icd" >"$tmp/vendors/nvidia.icd"
for f in /etc/OpenCL/vendors/*.icd; do [ -e "$f" ] && cp "$f" "$tmp/vendors/"; done
export OCL_ICD_VENDORS="$tmp/vendors"
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir/lib"
# kernel_time's own cache (PTX JIT, OpenCL builds) stays private to this run; start_time sets
# its own per run.
export XDG_CACHE_HOME="$tmp/cache" CUDA_CACHE_PATH="$tmp/cache/nv" POCL_CACHE_DIR="$tmp/cache/pocl"
unset KCC_DEVICE KCC_CUDA_FORM KCC_OPENCL_FORM KCC_CACHE KCC_LOG

# step CAP_SECONDS COMMAND... — runs it with stdout into the results and stderr into the log,
# killed at min(CAP, time left); sets $rc (77: no such device; 124: timed out; -1: skipped).
step() {
  cap=$1
  shift
  left=$((deadline - $(date +%s) - 5))
  if [ "$left" -lt 10 ]; then
    say "(skipped, the time budget BENCH_BUDGET is spent: $*)"
    rc=-1
    return
  fi
  [ "$cap" -gt "$left" ] && cap=$left
  echo "\$ $*" >>"$log"
  if command -v timeout >/dev/null 2>&1; then
    timeout -k 5 "$cap" "$@" >"$tmp/out" 2>"$tmp/err"
  else
    "$@" >"$tmp/out" 2>"$tmp/err"
  fi
  rc=$?
  cat "$tmp/out"
  cat "$tmp/out" >>"$results"
  cat "$tmp/err" >>"$log"
  case $rc in
    0 | 77) ;;
    124 | 137) say "" && say "**timed out after ${cap} s** (rows above are complete; stderr in the log)" ;;
    *) say "" && say "(exit status $rc; the end of its stderr:)"
       tail -n 6 "$tmp/err" | sed 's/^/    /' | tee -a "$results" ;;
  esac
}

b=$dir/bundles
kt=$dir/bin/kernel_time
st=$dir/bin/start_time
vec=$b/kcc/vecadd.kcb

say "# kcc benchmarks: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
say ""
[ -f "$dir/MANIFEST" ] && sed -n '1,4p' "$dir/MANIFEST" | sed 's/^/    /' | tee -a "$results"
if command -v nvidia-smi >/dev/null 2>&1; then
  timeout 20 nvidia-smi --query-gpu=name,driver_version,compute_cap,persistence_mode,clocks.max.sm,memory.total \
    --format=csv,noheader 2>/dev/null | sed 's/^/    GPU: /' | tee -a "$results"
fi
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)
say "    CPU: $(nproc) cores, $cpu; OpenCL ICDs: $(cat "$tmp"/vendors/*.icd 2>/dev/null | tr '\n' ' ')"

for c in ${CONFIGS:-cuda opencl}; do
  case $c in
    cuda)
      say ""
      say "## CUDA: kernel time (kcc cubin vs kcc PTX through the JIT vs nvcc cubin)"
      say ""
      # gpu_prepare.sh's VARIANT: the same kernels compiled with other LLVM options.
      # (A form's label ends at its first '=': the options are said here, not in the label.)
      set --
      if [ -f "$b/variant/OPTIONS" ]; then
        say "kcc variant: the same kernels compiled with KCC_LLVM_OPTIONS='$(cat "$b/variant/OPTIONS")'."
        say ""
        set -- -f "kcc variant=$b/variant" -e KCC_CUDA_FORM=cubin
      fi
      step 150 env KCC_DEVICE=cuda "$kt" \
        -f "kcc cubin=$b/kcc" -e KCC_CUDA_FORM=cubin \
        -f "kcc PTX-JIT=$b/kcc" -e KCC_CUDA_FORM=ptx "$@" \
        -f "nvcc=$b/nvcc" -e KCC_CUDA_FORM=cubin -r nvcc
      cp "$tmp/out" "$tmp/cuda_times.md"
      [ $rc -eq 1 ] && wrong=1
      [ $rc -eq 77 ] && continue
      say ""
      say "## CUDA: start time of vecadd, process start to first result (ms, median of $runs runs)"
      say ""
      # The baseline: the same vecadd (nvcc's cubin) through the raw driver API, no libkcrt.
      step 40 "$st" --header --timeout 30 -r "$runs" -m cold,warm -l "raw driver API (nvcc cubin)" \
        "$dir/cubin/vecadd.cubin"
      step 50 env KCC_DEVICE=cuda KCC_CUDA_FORM=cubin "$st" --timeout 30 -r "$runs" \
        -m cold,warm -l "CUDA cubin" "$vec"
      # No "kcc cache only" row: libkcrt leaves JIT'ed PTX to the driver's compute cache.
      step 70 env KCC_DEVICE=cuda KCC_CUDA_FORM=ptx "$st" --timeout 30 -r "$runs" \
        -m cold,warm -l "CUDA PTX-JIT" "$vec"
      if [ -x "$dir/bin/launch_raw" ]; then
        say ""
        say "## CUDA: launch cost, kcrt_launch vs raw cuLaunchKernel"
        say ""
        step 40 env KCC_CUDA_FORM=cubin "$dir/bin/launch_raw" "$vec" "$dir/cubin/vecadd.cubin"
      fi
      if [ -x "$dir/bin/lazy_enum" ]; then
        say ""
        say "## CUDA: lazy enumeration (default device: CUDA's GPU opens, OpenCL never loaded)"
        say ""
        step 30 sh "$dir/bin/lazy_enum.sh" "$dir/bin/lazy_enum" default
        [ $rc -eq 0 ] && say "lazy enumeration: ok (libOpenCL not mapped)" ||
          say "lazy enumeration: FAILED (rc $rc; output above)"
      fi
      ;;
    opencl | cpu)
      if [ "$c" = opencl ]; then
        sel=opencl size=--require-gpu name="OpenCL (first OpenCL GPU)"
      else
        sel=cpu size=--small name="OpenCL CPU device (PoCL), small sizes"
      fi
      say ""
      say "## $name: kernel time (kcc OpenCL C vs kcc SPIR-V)"
      say ""
      step 100 env KCC_DEVICE=$sel "$kt" $size \
        -f "kcc OpenCL C=$b/kcc" -e KCC_OPENCL_FORM=source \
        -f "kcc SPIR-V=$b/kcc" -e KCC_OPENCL_FORM=spirv
      [ $rc -eq 1 ] && wrong=1
      [ $rc -eq 77 ] && continue
      say ""
      say "## $name: start time of vecadd, process start to first result (ms, median of $runs runs)"
      say ""
      step 70 env KCC_DEVICE=$sel KCC_OPENCL_FORM=source "$st" --header --timeout 30 -r "$runs" \
        -m cold,kcc,warm -l "OpenCL C" "$vec"
      step 50 env KCC_DEVICE=$sel KCC_OPENCL_FORM=spirv "$st" --timeout 30 -r "$runs" \
        -m cold,kcc,warm -l "SPIR-V" "$vec"
      ;;
    vulkan)
      say ""
      say "## Vulkan (KCC_DEVICE=vulkan: the GPU's Vulkan driver): kernel time of kcc's Vulkan SPIR-V"
      say ""
      step 150 env KCC_DEVICE=vulkan "$kt" --require-gpu -f "kcc Vulkan=$b/kcc"
      cp "$tmp/out" "$tmp/vulkan_times.md"
      [ $rc -eq 1 ] && wrong=1
      [ $rc -eq 77 ] && continue
      # Vulkan against CUDA on the same GPU, row by row, from this run's two tables (the cuda
      # configuration must run first): kcc's Vulkan SPIR-V / kcc's cubin, and their geomean.
      if [ -s "$tmp/cuda_times.md" ]; then
        say ""
        say "## Vulkan vs CUDA on this GPU (kcc Vulkan ms / kcc cubin ms, the two tables above)"
        say ""
        awk -F'|' 'NR == FNR { if ($4 + 0 > 0) cu[$2] = $4 + 0; next }
          $4 + 0 > 0 && ($2 in cu) {
            if (!n++) { print "| kernel | kcc cubin ms | kcc Vulkan ms | Vulkan / cubin |"; print "|---|---:|---:|---:|" }
            r = ($4 + 0) / cu[$2]; lg += log(r)
            if (r > worst) { worst = r; wk = $2 }
            printf "|%s| %.3f | %.3f | %.2f |\n", $2, cu[$2], $4 + 0, r }
          END { if (n) printf "\ngeometric mean %.3f over %d kernels; worst %.2f (%s)\n", exp(lg / n), n, worst, wk }' \
          "$tmp/cuda_times.md" "$tmp/vulkan_times.md" | tee -a "$results"
      fi
      say ""
      say "## Vulkan: start time of vecadd, process start to first result (ms, median of $runs runs)"
      say ""
      step 70 env KCC_DEVICE=vulkan "$st" --header --timeout 30 -r "$runs" -m cold,kcc,warm \
        -l "Vulkan" "$vec"
      ;;
    *) say "unknown configuration '$c' (cuda, opencl, vulkan, cpu)"; exit 2 ;;
  esac
done
say ""
say "(done in $(($(date +%s) - started)) s${OUT:+; stderr of the tools: $log})"
exit $wrong
