#!/usr/bin/env bash
# `make demo`: compile the vector-add sample with kcc and show what came out. (The runtime
# turns this into a run on the best device present.)
set -euo pipefail
build=${1:-build}
kcc="$build/kcc"
src=samples/vecadd/vecadd.k
out="$build/demo"
mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"

echo "== kcc $src -o $out/vecadd.ptx -arch=sm_90"
"$kcc" "$src" -o "$out/vecadd.ptx" -arch=sm_90
echo "PTX entry points:"
grep -E '^\.visible \.entry|^\.entry' "$out/vecadd.ptx" | sed 's/^/  /'
if command -v ptxas >/dev/null; then
  ptxas -arch=sm_90 "$out/vecadd.ptx" -o "$out/vecadd.cubin"
  echo "ptxas -arch=sm_90 accepted it ($(stat -c %s "$out/vecadd.cubin") bytes of cubin)"
else
  echo "(ptxas not on PATH: PTX not assembled)"
fi
