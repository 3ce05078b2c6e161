#!/bin/sh
# build_kernel.sh FORM KCC TOOL KERNEL.k OUT — compiles a corpus kernel to OpenCL C (FORM=cl)
# or CUDA C (FORM=cuda) with kcc, then has the target's own compiler accept it: TOOL is
# clbuild (clBuildProgram on the first OpenCL device) or nvcc (-ptx -arch=sm_75). Exit 77
# (ctest's skip) when TOOL is empty or has no device.
form=$1 kcc=$2 tool=$3 kernel=$4 out=$5
if [ -z "$tool" ]; then
  echo "no $([ "$form" = cl ] && echo 'OpenCL device tool' || echo nvcc) here; skipped"
  exit 77
fi
"$kcc" "$kernel" --emit="$form" -o "$out" || exit 1
if [ "$form" = cl ]; then
  exec "$tool" "$out"
else
  exec "$tool" -ptx -arch=sm_75 "$out" -o "$out.ptx"
fi
