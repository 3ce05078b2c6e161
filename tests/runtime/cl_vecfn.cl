// cl_vecfn.cl — OpenCL C's built-in functions on vectors, as OpenCL C 1.2 §6.12 gives them
// (run by tests/runtime/cl_vecfn.c against a host reference): explicit conversions with
// saturation and rounding modes on vectors, select with a vector mask, min/max/clamp with a
// scalar second argument, as_T of a vector expression, rotate, and the common functions
// (degrees, radians, recip) on vectors.
__kernel void vecfn(__global const float4 *f, __global const int4 *a, __global int4 *oi,
                    __global float4 *of, __global uchar4 *ou, __global short8 *os, int k,
                    float s) {
  int i = get_global_id(0);
  float4 x = f[i];
  int4 y = a[i];
  oi[6 * i + 0] = convert_int4_sat_rte(x * 1e7f);
  oi[6 * i + 1] = convert_int4_rtn(x) + convert_int4_rtp(x) + convert_int4(x);
  oi[6 * i + 2] = select(y, y + 1, y > k);
  oi[6 * i + 3] = max(y, k) - min(y, k);
  oi[6 * i + 4] = as_int4(x + x);
  oi[6 * i + 5] = rotate(y, y) ^ clamp(y, -k, k);
  of[4 * i + 0] = min(x, s) + max(x, -s) + clamp(x, -s, s);
  of[4 * i + 1] = convert_float4(y) + as_float4(y & (int4)0x3fffffff);
  of[4 * i + 2] = degrees(x) + radians(x);
  of[4 * i + 3] = native_recip(x) * 0.0f + select(x, -x, y < 0);
  ou[i] = convert_uchar4_sat(y);
  os[i] = convert_short8_sat((int8)(y, y * 3));
}

// Vectors through volatile pointers: each form reads and writes them whole (the CUDA C form
// element by element).
__kernel void volatile_vectors(volatile __global float4 *io, __global float4 *out, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  float4 v = io[i];
  io[i] = v * 2.0f;
  out[i] = io[i] + v;
}

// shuffle and shuffle2 (OpenCL C 1.2 §6.12.12): with masks computed at run time (any bits above
// the selecting ones ignored), with constant masks, on int, uchar and float vectors.
__kernel void shuffles(__global const int4 *a, __global const uchar8 *b, __global const uint8 *m,
                       __global int8 *oi, __global uchar16 *ou, __global float4 *of) {
  int i = get_global_id(0);
  int4 x = a[2 * i], y = a[2 * i + 1];
  uint8 mk = m[i];
  oi[3 * i + 0] = shuffle(x, mk);
  oi[3 * i + 1] = shuffle2(x, y, mk);
  oi[3 * i + 2] = shuffle2(x, y, (uint8)(7, 0, 6, 1, 13, 2, 4, 11));
  uchar8 u = b[i];
  ou[i] = shuffle2(u, u + (uchar)1, convert_uchar16(as_uchar16((uint4)(mk.s0123 * 2654435761u))));
  float4 f = convert_float4(x);
  of[i] = shuffle(f, (uint4)(3, 2, 1, 0)) + shuffle(f.xy, mk.s1357);
}

// Components of as_T results (OpenCL C 1.2 §6.2.4.2 and §6.1.7): written directly, and inside
// a macro body whose arguments are as_T expressions and vectors, as quantised-weight kernels
// write them (the access spelled in the macro, the vector passed in).
#define ACCUMULATE(t, b, s)                  \
  t.s0 += (float)(b.s0 & 0x000F) * s.s0;     \
  t.s1 += (float)((b.s1 >> 4) & 0x000F) * s.s1; \
  t.s0 += (float)(b.s7 >> 12) * s.hi;
__kernel void astype_parts(__global const uint4 *a, __global const float2 *sc, __global uint *ou,
                           __global float2 *of) {
  int i = get_global_id(0);
  uint4 r = a[i];
  ou[4 * i + 0] = as_ushort8(r).s0 + as_ushort8(r).s7;
  ou[4 * i + 1] = as_uchar16(r).sf;
  ou[4 * i + 2] = as_int2(as_ulong2(r).lo).y;
  ou[4 * i + 3] = as_ushort8(r).odd.s3;
  float2 t = 0.0f, s = sc[i];
  ACCUMULATE(t, as_ushort8(r), s);
  of[i] = t;
}
