#!/bin/sh
# textures.sh KCC SRC OUT — tests/cu/textures.cu: the PTX has exactly the texture and surface
# instructions its calls ask for (sorted, with their counts): tex.{1d,2d,3d}, the layered
# tex.a1d/a2d and level-of-detail tex.level.* forms (the pointer-result overloads are the same
# instructions), suld.b/sust.b of every geometry with the layered a1d/a2d, each with its size
# and boundary mode; ptxas takes it; a wrong texel type and a non-constant boundary mode of the
# new forms are refused with one diagnostic at the call.
set -u
kcc=$1 src=$2 out=$3
"$kcc" "$src" --emit=ptx -arch=sm_90 -o "$out.ptx" || exit 1
got=$(grep -oE '(tex|suld|sust)\.[a-z0-9.]*' "$out.ptx" | sort | uniq -c | awk '{print $1 "x" $2}' |
  tr '\n' ' ')
want='1xsuld.b.1d.b16.trap 2xsuld.b.1d.b32.trap 1xsuld.b.2d.b16.zero 1xsuld.b.2d.b32.clamp 1xsuld.b.2d.b32.zero
1xsuld.b.2d.v2.b32.trap 1xsuld.b.3d.b32.clamp 1xsuld.b.3d.b8.trap 1xsuld.b.3d.v4.b32.zero
1xsuld.b.a1d.b16.trap 1xsuld.b.a1d.b32.trap 1xsuld.b.a2d.b32.clamp 1xsuld.b.a2d.v2.b32.zero
1xsust.b.1d.b16.clamp 1xsust.b.1d.b32.zero 2xsust.b.2d.b16.zero 1xsust.b.2d.b32.trap 1xsust.b.2d.v2.b32.trap
1xsust.b.3d.b8.trap 1xsust.b.3d.v4.b32.trap 1xsust.b.a1d.b16.trap 1xsust.b.a1d.b32.zero
1xsust.b.a2d.b32.trap 1xsust.b.a2d.v2.b32.trap 2xtex.1d.v4.f32.f32 3xtex.1d.v4.f32.s32
2xtex.1d.v4.s32.s32 1xtex.1d.v4.u32.s32 3xtex.2d.v4.f32.f32 2xtex.3d.v4.f32.f32
1xtex.3d.v4.u32.f32 1xtex.a1d.v4.f32.f32 1xtex.a1d.v4.s32.f32 2xtex.a2d.v4.f32.f32
2xtex.level.1d.v4.f32.f32 2xtex.level.2d.v4.f32.f32 2xtex.level.3d.v4.f32.f32
2xtex.level.a1d.v4.f32.f32 2xtex.level.a2d.v4.f32.f32'
# shellcheck disable=SC2086,SC2116 # echo joins the lines into one list of words
[ "$(echo $got)" = "$(echo $want)" ] || { echo "FAIL: instructions: $got"; exit 1; }
# A layered read passes its layer first: tex.a2d's coordinates are {layer, x, y, y}.
grep -q 'tex\.a2d\.v4\.f32\.f32[^[]*\[%rd[0-9]*, {%r[0-9]*, %f[0-9]*, %f[0-9]*, %f[0-9]*}\]' \
  "$out.ptx" || { echo "FAIL: tex.a2d operands"; grep 'tex\.a2d' "$out.ptx"; exit 1; }
if command -v ptxas >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/ptxas ]; then
  p=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
  "$p" -arch=sm_90 "$out.ptx" -o "$out.cubin" || { echo "FAIL: ptxas"; exit 1; }
fi
# Wrong texel types and boundary modes, of the new forms too: one diagnostic each, at the call
# (the PTX back end checks them; no file is written).
bad() { # NAME LINE:COL MESSAGE, the source on stdin
  cat >"$out.$1.cu"
  if "$kcc" "$out.$1.cu" --emit=ptx -o "$out.$1.ptx" 2>"$out.$1.err"; then
    echo "FAIL: $1 accepted"; exit 1
  fi
  [ "$(grep -c 'error:' "$out.$1.err")" = 1 ] || { echo "FAIL: $1:"; cat "$out.$1.err"; exit 1; }
  [ "$(grep 'error:' "$out.$1.err")" = "$out.$1.cu:$2: error: $3" ] ||
    { echo "FAIL: $1 said:"; cat "$out.$1.err"; exit 1; }
  [ ! -e "$out.$1.ptx" ] || { echo "FAIL: $1 left a PTX file"; exit 1; }
}
bad texel 3:3 "tex2DLayeredLod<double>: the texel type must be a scalar of at most 32 bits or a \
CUDA vector type of one" <<'CU'
__global__ void k(cudaTextureObject_t t, double *o) {
  double d;
  tex2DLayeredLod(&d, t, 0.5f, 0.5f, 0, 1.0f);
  o[0] = d;
}
CU
bad mode 2:10 "surf1DLayeredread: the boundary mode must be a constant (cudaBoundaryModeZero, \
cudaBoundaryModeClamp or cudaBoundaryModeTrap)" <<'CU'
__global__ void k(cudaSurfaceObject_t s, float *o, int m) {
  o[0] = surf1DLayeredread<float>(s, 0, 1, (cudaSurfaceBoundaryMode)m);
}
CU
echo "PASS: $(echo "$want" | wc -w) kinds of texture and surface instructions; 2 refusals"
