// cuda_fp16.cu — kcc's <cuda_fp16.h> (CUDA's half API on KIR's half), run by cuda_fp16.c:
// the intrinsics, the operators on __half and __half2, the conversions with each rounding
// mode, comparisons and the math functions, on random halves.
#include <cuda_fp16.h>

#define NO 24 // half results per element
#define NI 6  // int results per element

__global__ void ops(const __half *a, const __half *b, const __half *c, const float *f,
                    __half *o, int *oi, float *of, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = a[i], y = b[i], z = c[i];
  __half *r = o + i * NO;
  r[0] = __hadd(x, y);
  r[1] = __hsub(x, y);
  r[2] = __hmul(x, y);
  r[3] = __hdiv(x, y);
  r[4] = __hfma(x, y, z);
  r[5] = x * y + z;
  r[6] = __hneg(x);
  r[7] = __habs(x);
  r[8] = __hmax(x, y);
  r[9] = __hmin(x, y);
  r[10] = __float2half(f[i]);
  r[11] = __float2half_rz(f[i]);
  r[12] = __float2half_ru(f[i]);
  r[13] = __float2half_rd(f[i]);
  r[14] = __int2half_rn(i - n / 2);
  r[15] = hsqrt(x);
  r[16] = hfloor(x);
  r[17] = hexp(x);
  half2 v = __halves2half2(x, y), w = __floats2half2_rn(__half2float(z), 2.0f);
  half2 s = __hfma2(v, w, __lowhigh2highlow(v));
  r[18] = __low2half(s);
  r[19] = __high2half(s);
  half2 p = __hmul2(v, w) + v;
  r[20] = p.x;
  r[21] = p.y;
  __half t = x;
  t += y;
  t *= z;
  r[22] = t;
  r[23] = __ushort_as_half((unsigned short)(__half_as_ushort(x) ^ 0x8000u));
  int *q = oi + i * NI;
  q[0] = __hlt(x, y);
  q[1] = __hneu(x, y);
  q[2] = __hisnan(x);
  q[3] = __hisinf(y);
  q[4] = __half2int_rn(x);
  q[5] = __half2int_rz(y);
  float2 g = __half22float2(v);
  of[i * 2] = g.x + __high2float(v);
  of[i * 2 + 1] = __half2float(x) * 0.5f;
}
