// cl_fp16.cl — half as a value type (cl_khr_fp16), run by tests/runtime/cl_fp16.c: scalar
// arithmetic, compound assignment, ++/--, conversions from and to float, double and int,
// comparisons, the math and common built-ins, a half kernel argument, a constant table, a
// device function; vectors (vloadN/vstoreN on half *, operators, select, masks, as_halfN,
// convert_halfN, dot, swizzles, __local memory); structs and private arrays of half.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define NH 35 // half results per element (scalar)
#define NI 8  // int results per element

typedef struct {
  half h;
  float f;
  half2 v;
} Mixed;

__constant half ctab[4] = {0.5h, -1.25h, 65504.0h, 0x1p-24h};

half poly(half x, half y) {
  half r = x;
  r *= y;
  r -= (half)1;
  return r;
}

__kernel void scalar(__global const half *a, __global const half *b, __global const half *c,
                     __global const float *f, __global const int *k, __global const double *d,
                     __global half *oh, __global int *oi, __global float *of, half s, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  half x = a[i], y = b[i], z = c[i];
  __global half *o = oh + i * NH;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = sqrt(x);
  o[5] = fma(x, y, z);
  o[6] = -x;
  o[7] = fabs(x);
  o[8] = fmin(x, y);
  o[9] = fmax(x, y);
  o[10] = floor(x);
  o[11] = ceil(x);
  o[12] = rint(x);
  o[13] = trunc(x);
  o[14] = copysign(x, y);
  o[15] = x * y + z;
  o[16] = mad(x, y, z);
  o[17] = (half)f[i];
  o[18] = (half)k[i];
  o[19] = convert_half(d[i]);
  o[20] = x * s;
  half t = x;
  t += y;
  t *= z;
  o[21] = t;
  half u = x;
  u++;
  o[22] = u;
  o[23] = u--;
  o[24] = u;
  o[25] = poly(x, y);
  o[26] = ctab[i & 3] * x;
  o[27] = clamp(x, (half)-1, (half)1);
  o[28] = exp(x);
  o[29] = log(fabs(x));
  o[30] = sin(x);
  o[31] = pow(fabs(x), y);
  o[32] = convert_half_rtz(f[i]);
  o[33] = convert_half_rtp(f[i]);
  o[34] = convert_half_rtn(k[i] * 1000);
  __global int *p = oi + i * NI;
  p[0] = x < y;
  p[1] = x == y;
  p[2] = x >= y;
  p[3] = isnan(x);
  p[4] = isinf(y);
  p[5] = convert_int_sat_rte(x);
  p[6] = convert_int_sat(x);
  p[7] = as_short(x) + 65536 * ((x != x) + 2 * !z);
  of[i * 2] = (float)x;
  of[i * 2 + 1] = x + 0.5f;
}

__kernel void vector(__global const half *a, __global const half *b, __global half4 *o4,
                     __global half *o8, __global float4 *of4, __global short4 *om,
                     __global half *ol, __local half *tmp, uint n) {
  size_t i = get_global_id(0), l = get_local_id(0);
  if (i >= n) return;
  half4 x = vload4(i, a), y = vload4(i, b);
  o4[i * 6] = x + y;
  o4[i * 6 + 1] = x * y - x;
  o4[i * 6 + 2] = select(x, y, x < y);
  o4[i * 6 + 3] = as_half4(as_ushort4(x) ^ (ushort4)0x8000);
  o4[i * 6 + 4] = convert_half4(convert_float4(x) * 3.0f);
  o4[i * 6 + 5] = (half4)(x.yx, dot(x, y), y.w * (half)2);
  if (i % 2 == 0) {
    half8 v = vload8(i / 2, a);
    vstore8(v * (half8)2 + v.s76543210, i / 2, o8);
  }
  of4[i] = vload_half4(i, a) + convert_float4(y);
  om[i] = isnan(x) | (x > y);
  tmp[l] = x.x + y.y;
  barrier(CLK_LOCAL_MEM_FENCE);
  ol[i] = tmp[l ^ 1] - tmp[l];
}

__kernel void structs(__global Mixed *m, __global half *out, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  Mixed v = m[i];
  v.h = v.h * v.v.x + v.v.y;
  v.v = v.v.yx;
  v.f = (float)v.h;
  m[i] = v;
  half arr[4] = {v.h, v.v.x, 1.0h, -0.0h};
  half sum = 0;
  for (int j = 0; j < 4; j++) sum += arr[j];
  out[i] = sum;
}
