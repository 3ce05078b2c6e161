#!/bin/sh
# run_spirv.sh KCBINFO LLVM-SPIRV PROGRAM BUNDLE.kcb — runs PROGRAM BUNDLE.kcb with libkcrt
# using the bundle's SPIR-V: extracted (kcbinfo --section spirv), translated to LLVM bitcode
# (llvm-spirv -r), which PoCL, having no clCreateProgramWithIL, takes as a program binary
# (KCC_OPENCL_SPIRV_BINARY, runtime/opencl.c). Skips (77) without llvm-spirv.
set -e
[ -n "$2" ] || { echo "llvm-spirv-15 not found, skipping"; exit 77; }
stem="$4.run$$"
"$1" "$4" --section spirv >"$stem.spv"
"$2" -r --spirv-target-env=CL1.2 "$stem.spv" -o "$stem.bc"
st=0
KCC_OPENCL_FORM=spirv KCC_OPENCL_SPIRV_BINARY="$stem.bc" "$3" "$4" || st=$?
rm -f "$stem.spv" "$stem.bc"
exit $st
