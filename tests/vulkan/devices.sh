#!/bin/sh
# devices.sh KCC — how libkcrt lists and selects Vulkan devices, through `kcc --devices`
# (docs/runtime.md, "Vulkan"): a Vulkan CPU device (lavapipe) is listed, after OpenCL's
# devices, only when KCC_DEVICE asks for Vulkan, and otherwise is named in the Vulkan note;
# `vulkan`, `vk`, `vulkan:0` select it; `vulkan:9` selects nothing. Exit 77 when there is no
# Vulkan CPU device here (another machine may have a Vulkan GPU, listed whatever KCC_DEVICE).
set -u
kcc=$1
unset ONEAPI_DEVICE_SELECTOR HIP_VISIBLE_DEVICES
all=$(KCC_DEVICE=vulkan "$kcc" --devices 2>&1)
line=$(printf '%s\n' "$all" | grep -E '^\[[0-9]+\] vulkan:0  ' | head -n 1)
[ -n "$line" ] || { echo "SKIP: no Vulkan device"; printf '%s\n' "$all"; exit 77; }
printf '%s\n' "$all" | grep -A1 -E '^\[[0-9]+\] vulkan:0  ' | grep -q ' CPU, Vulkan 1\.' ||
  { echo "SKIP: vulkan:0 is not a CPU device"; exit 77; }
idx=$(printf '%s\n' "$line" | sed 's/^\[\([0-9]*\)\].*/\1/')
name=$(printf '%s\n' "$line" | sed 's/^\[[0-9]*\] vulkan:0  //')
fails=0
check() { # check WHAT COMMAND-OUTPUT PATTERN: the output must have a line matching PATTERN
  printf '%s\n' "$2" | grep -qF -- "$3" || {
    printf 'FAIL: %s: no line with "%s" in\n%s\n' "$1" "$3" "$2"
    fails=$((fails + 1))
  }
}
check "KCC_DEVICE=vulkan" "$all" "KCC_DEVICE='vulkan' selects [$idx]"
for sel in vk vulkan:0 VULKAN:0; do
  check "KCC_DEVICE=$sel" "$(KCC_DEVICE=$sel "$kcc" --devices 2>&1)" "KCC_DEVICE='$sel' selects [$idx]"
done
check "KCC_DEVICE=vulkan:9" "$(KCC_DEVICE=vulkan:9 "$kcc" --devices 2>&1)" \
  "KCC_DEVICE='vulkan:9' matches no device"
plain=$(env -u KCC_DEVICE "$kcc" --devices 2>&1)
if printf '%s\n' "$plain" | grep -q '] vulkan:'; then
  echo "FAIL: a Vulkan CPU device listed without KCC_DEVICE=vulkan:"
  printf '%s\n' "$plain"
  fails=$((fails + 1))
fi
check "the note without KCC_DEVICE" "$plain" \
  "Vulkan: 1 CPU device ($name) listed only for KCC_DEVICE=vulkan"
[ $fails -eq 0 ] && echo "PASS: Vulkan device [$idx] $name listed and selected as documented"
[ $fails -eq 0 ]
