// half as a value type (cl_khr_fp16): variables, parameters, literals, arithmetic and
// comparisons on scalars and vectors, conversions, as_halfN, math built-ins, structs,
// constant tables and vloadN/vstoreN on half * beside vload_half/vstore_half.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef struct {
  half a;
  half2 b;
  float c;
} S;

__constant half tbl[4] = {1.0h, 0.5h, -2.0h, HALF_MAX};

half sq(half x) { return x * x; }

__kernel void k(__global half *a, __global half4 *v, __global float *o, __global S *s, half p,
                __global int *ii, __local half *lh) {
  int i = get_global_id(0);
  half x = a[i];
  half4 y = v[i];
  y += (half4)(1.0h, 2.0h, x, p);
  y = y * x - y / 3.0h;
  half4 z = vload4(i, a);
  vstore4(z + y, i + 1, a);
  float4 f = convert_float4(y);
  half4 w = convert_half4(f * 2.0f);
  short4 m = y < w;
  w = select(w, y, m);
  w = as_half4(as_ushort4(w) ^ (ushort4)0x8000);
  x = sqrt(x) + fabs(x) + fmax(x, p) + fma(x, p, x) + exp(x) + sin(x);
  x += tbl[i & 3];
  x++;
  --x;
  lh[get_local_id(0)] = x;
  s[i].a = x;
  s[i].b = w.lo;
  s[i].c = (float)s[i].a;
  o[i] = f.x + w.y + x + sq(x) + (x > p ? 1.0f : 0.0f) + (float)isnan(x) + dot(y, w) + length(y);
  ii[i] = convert_int_sat_rte(x) + (int)x + as_short(x) + any(isnan(y));
  half8 h8 = select((half8)0, (half8)1.0h, vload8(0, a) > (half8)0);
  vstore_half4_rtz(convert_float4(y), i, a);
  printf("%f %v4hf %.2v2hf\n", x, y, w.hi);
  vstore8(h8, 1, a);
  a[i] = (half)i + convert_half((double)i) + min(x, p) + clamp(x, 0.0h, 1.0h) + mix(x, p, 0.5h) +
         lh[0];
}
