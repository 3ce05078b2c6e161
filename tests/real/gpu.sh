#!/bin/sh
# gpu.sh — the corpus runners (tests/real/run) on a GPU machine, through the CUDA driver.
#
#   tests/real/gpu.sh prepare OUTDIR [BUILD_DIR]   here (kcc, LLVM, ptxas, and pip/apt-get for
#       the registry corpus unless BUILD_DIR/corpus has it): builds real_run, compiles every
#       runner kernel of tests/real/run/EXPECT (todo ones included; each a registry-corpus file,
#       tests/corpus) with -arch=sm_90,sm_80 into OUTDIR/bundles/ (a kernel kcc cannot compile
#       yet is listed in OUTDIR/MANIFEST and left out), copies the original sources (as
#       OUTDIR/opencl/NAME.cl), their build options (OUTDIR/opencl/OPTIONS), an OpenCL ICD
#       loader and this script; the same for the CUDA runners of run/cu_EXPECT (real_cu_run,
#       OUTDIR/cu_bundles/).
#   OUTDIR/gpu.sh run OUTDIR                       on the GPU machine (a shell, a C library,
#       the NVIDIA driver): every prepared kernel, kcc's bundle on the CUDA GPU (cubin, then
#       PTX through the JIT) against the host reference, and the original source on NVIDIA's
#       OpenCL driver when the machine has one (REAL_PATHS=kcc to skip it).
#
# Environment: RUN_LOG=FILE appends the output to FILE. Exit status 0 when nothing failed.
set -u
cmd=${1:-}
case $cmd in
prepare)
  [ $# -ge 2 ] || { echo "usage: $0 prepare OUTDIR [BUILD_DIR]" >&2; exit 2; }
  root=$(cd "$(dirname "$0")/../.." && pwd)
  out=$2
  build=${3:-$root/build-gpu}
  set -e
  mkdir -p "$build" "$out"
  build=$(cd "$build" && pwd)
  out=$(cd "$out" && pwd)
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build" -j "${JOBS:-2}" --target kcc real_run real_cu_run
  rm -rf "$out"
  mkdir -p "$out/bin" "$out/bundles" "$out/cu_bundles" "$out/opencl" "$out/lib"
  cp "$build/tests/real_run" "$build/tests/real_cu_run" "$out/bin/"
  # Each runner's kernel from the registry corpus (downloaded into BUILD_DIR/corpus if need be),
  # under its runner's name, with the build options the corpus gives it.
  : >"$out/opencl/OPTIONS"
  while read -r n _ key; do
    case $n in "" | \#*) continue ;; esac
    cp "$(bash "$root/tests/corpus/run.sh" --out "$build/corpus" --path "$key")" "$out/opencl/$n.cl"
    echo "$n $(bash "$root/tests/corpus/run.sh" --out "$build/corpus" --options "$key")" \
      >>"$out/opencl/OPTIONS"
  done <"$root/tests/real/run/EXPECT"
  cp "$0" "$out/gpu.sh"
  chmod +x "$out/gpu.sh"
  for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
    if [ -e "$d/libOpenCL.so.1" ]; then cp -L "$d/libOpenCL.so.1" "$out/lib/"; break; fi
  done
  set +e
  names=$(sed -n 's/^\([A-Za-z0-9_]*\)[[:space:]][[:space:]]*\(pass\|todo\).*/\1/p' \
    "$root/tests/real/run/EXPECT")
  {
    echo "prepared $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
    echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    "$build/kcc" --version | head -n 1
  } >"$out/MANIFEST"
  for n in $names; do
    opts=$(awk -v n="$n" '$1 == n { $1 = ""; print }' "$out/opencl/OPTIONS")
    # shellcheck disable=SC2086
    if (cd "$out/opencl" &&
        "$build/kcc" $opts -arch=sm_90,sm_80 "$n.cl" -o "$out/bundles/$n.kcb" 2>"$out/bundles/$n.log"); then
      echo "kernel $n" >>"$out/MANIFEST"
    else
      echo "not compiled: $n: $(head -n 1 "$out/bundles/$n.log")" >>"$out/MANIFEST"
      echo "original-only $n" >>"$out/MANIFEST"
      rm -f "$out/bundles/$n.kcb"
    fi
  done
  # The CUDA runners (run/cu_EXPECT, todo ones included): kcc's bundles of the corpus files.
  while read -r n _ key; do
    case $n in "" | \#*) continue ;; esac
    src=$(bash "$root/tests/corpus/run.sh" --out "$build/corpus" --path "$key")
    opts=$(bash "$root/tests/corpus/run.sh" --out "$build/corpus" --options "$key")
    # shellcheck disable=SC2086
    if "$build/kcc" $opts -arch=sm_90,sm_80 "$src" -o "$out/cu_bundles/$n.kcb" \
      2>"$out/cu_bundles/$n.log"; then
      echo "cuda kernel $n" >>"$out/MANIFEST"
    else
      echo "not compiled: $key: $(head -n 1 "$out/cu_bundles/$n.log")" >>"$out/MANIFEST"
      rm -f "$out/cu_bundles/$n.kcb"
    fi
  done <"$root/tests/real/run/cu_EXPECT"
  cat "$out/MANIFEST"
  echo "prepared $out: run '$out/gpu.sh run $out' on the GPU machine"
  ;;
run)
  [ $# -ge 2 ] || { echo "usage: $0 run DIR" >&2; exit 2; }
  dir=$(cd "$2" && pwd)
  log=${RUN_LOG:-/dev/null}
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  say() { echo "$*"; echo "$*" >>"$log"; }
  export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir/lib"
  # NVIDIA's OpenCL driver for the original sources (as tests/gpu/run.sh finds it).
  icd=""
  for f in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
           /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib64/libnvidia-opencl.so.1; do
    [ -e "$f" ] && { icd=$f; break; }
  done
  [ -n "$icd" ] || icd=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
  mkdir -p "$tmp/vendors"
  [ -n "$icd" ] && echo "$icd" >"$tmp/vendors/nvidia.icd"
  for f in /etc/OpenCL/vendors/*.icd; do [ -e "$f" ] && cp "$f" "$tmp/vendors/"; done
  export OCL_ICD_VENDORS="$tmp/vendors"
  export XDG_CACHE_HOME="$tmp/cache"
  # The original sources on NVIDIA's driver, unless told otherwise.
  export REAL_CL_DEVICE="${REAL_CL_DEVICE:-NVIDIA}"
  say "== kcc corpus runners, GPU run: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n)"
  command -v nvidia-smi >/dev/null &&
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | sed 's/^/   GPU: /'
  sed -n 's/^not compiled: /   not compiled: /p' "$dir/MANIFEST"
  pass=0 fail=0 skip=0 failed=""
  for form in cubin ptx; do
    say "== KCC_DEVICE=cuda KCC_CUDA_FORM=$form"
    for b in "$dir"/bundles/*.kcb; do
      [ -e "$b" ] || continue
      n=$(basename "$b" .kcb)
      opts=$(awk -v n="$n" '$1 == n { $1 = ""; print }' "$dir/opencl/OPTIONS")
      # shellcheck disable=SC2086
      KCC_DEVICE=cuda KCC_CUDA_FORM=$form timeout 300 "$dir/bin/real_run" "$n" "$b" \
        "$dir/opencl/$n.cl" $opts >"$tmp/out" 2>"$tmp/err"
      rc=$?
      line=$(grep -E '^(PASS|FAIL|SKIP)' "$tmp/out" | tail -n 1 | cut -c1-200)
      case $rc in
        0) pass=$((pass + 1)); say "  ok    $form/$n: ${line#PASS }" ;;
        77) skip=$((skip + 1)); say "  skip  $form/$n: ${line#SKIP }" ;;
        *) fail=$((fail + 1)); failed="$failed $form/$n"
           say "  FAIL  $form/$n (exit $rc): $line"
           sed 's/^/        /' "$tmp/err" | head -30 | tee -a "$log" ;;
      esac
    done
  done
  # The CUDA runners: kcc's bundles against the host references (no original path).
  for form in cubin ptx; do
    say "== CUDA runners, KCC_DEVICE=cuda KCC_CUDA_FORM=$form"
    for b in "$dir"/cu_bundles/*.kcb; do
      [ -e "$b" ] || continue
      n=$(basename "$b" .kcb)
      KCC_DEVICE=cuda KCC_CUDA_FORM=$form timeout 300 "$dir/bin/real_cu_run" "$n" "$b" \
        >"$tmp/out" 2>"$tmp/err"
      rc=$?
      line=$(grep -E '^(PASS|FAIL|SKIP)' "$tmp/out" | tail -n 1 | cut -c1-200)
      case $rc in
        0) pass=$((pass + 1)); say "  ok    cu/$form/$n: ${line#PASS }" ;;
        77) skip=$((skip + 1)); say "  skip  cu/$form/$n: ${line#SKIP }" ;;
        *) fail=$((fail + 1)); failed="$failed cu/$form/$n"
           say "  FAIL  cu/$form/$n (exit $rc): $line"
           sed 's/^/        /' "$tmp/err" | head -30 | tee -a "$log" ;;
      esac
    done
  done
  # Kernels kcc could not compile yet: their original source alone, on NVIDIA's OpenCL.
  names=$(sed -n 's/^original-only //p' "$dir/MANIFEST")
  [ -n "$names" ] && say "== original sources only (no bundle yet), REAL_CL_DEVICE=$REAL_CL_DEVICE"
  for n in $names; do
    opts=$(awk -v n="$n" '$1 == n { $1 = ""; print }' "$dir/opencl/OPTIONS")
    # shellcheck disable=SC2086
    REAL_PATHS=original timeout 300 "$dir/bin/real_run" "$n" /dev/null "$dir/opencl/$n.cl" \
      $opts >"$tmp/out" 2>"$tmp/err"
    rc=$?
    line=$(grep -E '^(PASS|FAIL|SKIP)' "$tmp/out" | tail -n 1 | cut -c1-200)
    case $rc in
      0) pass=$((pass + 1)); say "  ok    original/$n: ${line#PASS }" ;;
      77) skip=$((skip + 1)); say "  skip  original/$n: ${line#SKIP }" ;;
      *) fail=$((fail + 1)); failed="$failed original/$n"
         say "  FAIL  original/$n (exit $rc): $line"
         sed 's/^/        /' "$tmp/err" | head -30 | tee -a "$log" ;;
    esac
  done
  say "== summary: $pass passed, $fail failed, $skip skipped"
  [ -n "$failed" ] && say "   failed:$failed"
  [ $fail -eq 0 ]
  ;;
*)
  echo "usage: $0 prepare OUTDIR [BUILD_DIR] | $0 run DIR" >&2
  exit 2
  ;;
esac
