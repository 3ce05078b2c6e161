#!/bin/sh
# run.sh PROGRAM ARGS... — runs a libkcrt test program on the Vulkan device (KCC_DEVICE=vulkan)
# with the Khronos validation layer, and fails on any message of the layer even when the
# program passed. Exit 77 (skip) when the program found no Vulkan device; without the layer
# installed the run still counts but says so.
KCC_DEVICE=vulkan
export KCC_DEVICE
layer=
for d in /usr/share/vulkan/explicit_layer.d /etc/vulkan/explicit_layer.d; do
  [ -f "$d/VkLayer_khronos_validation.json" ] && layer=VK_LAYER_KHRONOS_validation
done
if [ -n "$layer" ]; then
  VK_INSTANCE_LAYERS=$layer
  export VK_INSTANCE_LAYERS
else
  echo "run.sh: no Khronos validation layer installed: running without it"
fi
out=$("$@" 2>&1)
st=$?
printf '%s\n' "$out"
[ $st -eq 77 ] && exit 77
[ $st -eq 0 ] || exit $st
if printf '%s\n' "$out" | grep -q 'Validation Error\|Validation Warning\|Validation Performance\|VUID-'; then
  echo "run.sh: the validation layer reported the messages above"
  exit 1
fi
exit 0
