#!/bin/sh
# consume.sh FILE... — puts each file kcc wrote through the tool that consumes it, so a test
# that makes kcc write something also proves the output is usable:
#   .ptx  ptxas -arch=<the file's .target>        (skipped without ptxas)
#   .spv  spirv-val --target-env opencl2.2        (spv1.2 for Int64Atomics: see spirv.cmake;
#         spv1.3 for a SPIR-V 1.3 module: GroupNonUniform subgroup operations)
#   .vk.spv  spirv-val --target-env vulkan1.2     (the Vulkan form)
#   .cl   clang-19 -x cl -cl-std=CL1.2 -fsyntax-only
#   .cu   nvcc -c -arch=sm_75                     (skipped without nvcc; with
#         CONSUME_NVCC_CUBIN=1, nvcc -cubin: the device half only, a third of the time, for
#         the registry corpus's hundreds of files, tests/corpus/run.sh)
#   .h    cc -std=c11 -Wall -Werror on a file that includes it (runtime/include for kcrt.h)
#   .kcb  its PTX, SPIR-V and OpenCL C are checked by the forms above; only read here
# Exit status: 0 every file passed (or its tool is missing), 1 a tool rejected one.
here=$(cd "$(dirname "$0")" && pwd)
find_tool() {
  for t in "$@"; do
    p=$(command -v "$t" 2>/dev/null) && { echo "$p"; return; }
    for d in "${CUDA_PATH:-}" "${CUDA_HOME:-}" /usr/local/cuda; do
      [ -n "$d" ] && [ -x "$d/bin/$t" ] && { echo "$d/bin/$t"; return; }
    done
  done
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "$@"; do
  case "$f" in
  *.ptx)
    tool=$(find_tool ptxas)
    [ -n "$tool" ] || continue
    arch=$(sed -n 's/^\.target \(sm_[0-9]*\).*/\1/p' "$f" | head -n 1)
    "$tool" -arch="${arch:-sm_75}" "$f" -o "$tmp/out.cubin" || status=1
    ;;
  *.vk.spv)
    tool=$(find_tool spirv-val)
    [ -n "$tool" ] || continue
    "$tool" --target-env vulkan1.2 "$f" || status=1
    ;;
  *.spv)
    tool=$(find_tool spirv-val)
    [ -n "$tool" ] || continue
    env=opencl2.2
    dis=$(find_tool spirv-dis)
    if [ -n "$dis" ] && "$dis" "$f" | grep -q 'OpCapability Int64Atomics'; then env=spv1.2; fi
    # GroupNonUniform subgroup operations: SPIR-V 1.3, beyond SPIRV-Tools' OpenCL environments.
    if [ -n "$dis" ] && "$dis" "$f" | grep -q '^; Version: 1.3'; then env=spv1.3; fi
    "$tool" --target-env $env "$f" || status=1
    ;;
  *.cl)
    tool=$(find_tool clang-19 clang)
    [ -n "$tool" ] || continue
    if grep -q "^#pragma OPENCL EXTENSION cl_khr_subgroups" "$f"; then
      # Warp operations: kcc writes OpenCL C 2.0 with the subgroup extensions.
      "$tool" -x cl -cl-std=CL2.0 --target=spir64 -fsyntax-only \
        -Xclang -cl-ext=+cl_khr_subgroups,+cl_khr_subgroup_ballot,+cl_khr_subgroup_shuffle \
        -Xclang -finclude-default-header "$f" || status=1
    elif grep -q "^/\* .*: OpenCL C 2.0 from kcc" "$f"; then
      # read_write images: kcc writes OpenCL C 2.0.
      "$tool" -x cl -cl-std=CL2.0 -fsyntax-only "$f" || status=1
    else
      "$tool" -x cl -cl-std=CL1.2 -fsyntax-only "$f" || status=1
    fi
    ;;
  *.cu)
    tool=$(find_tool nvcc)
    [ -n "$tool" ] || continue
    if [ "${CONSUME_NVCC_CUBIN:-0}" = 1 ]; then
      "$tool" -cubin -arch=sm_75 "$f" -o "$tmp/out.cubin" || status=1
    else
      "$tool" -c -arch=sm_75 "$f" -o "$tmp/out.o" || status=1
    fi
    ;;
  *.h)
    printf '#include "%s"\nint main(void) { return 0; }\n' "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" >"$tmp/main.c"
    ${CC:-cc} -std=c11 -Wall -Werror -I"$here/../runtime/include" -c "$tmp/main.c" \
      -o "$tmp/main.o" || status=1
    ;;
  *.kcb) [ -s "$f" ] || status=1 ;;
  *) echo "consume.sh: no consumer for $f"; status=1 ;;
  esac
  [ $status = 0 ] || { echo "consume.sh: $f was rejected"; exit 1; }
done
exit 0
