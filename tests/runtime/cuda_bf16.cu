// cuda_bf16.cu — kcc's <cuda_bf16.h> (CUDA's __nv_bfloat16 and __nv_bfloat162), run by
// cuda_bf16.c: the conversions in every rounding mode from float, double and the integer types
// and back, the arithmetic (fma rounded once), comparisons, min/max, the math functions, and
// the C++ operators and constructors on both types, for random and special values.
#include <cuda_bf16.h>

#define NO 52 // bfloat16 results per element
#define NI 22 // int results per element
#define NF 4  // float results per element
#define NL 2  // 64-bit results per element

__global__ void ops(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const __nv_bfloat16 *c,
                    const float *f, const double *d, const long long *l, __nv_bfloat16 *o,
                    int *oi, float *of, long long *ol, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 x = a[i], y = b[i], z = c[i];
  float g = f[i];
  long long lv = l[i];
  int iv = (int)lv;
  __nv_bfloat16 *r = o + i * NO;
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
  r[10] = __hmax_nan(x, y);
  r[11] = __hmin_nan(x, y);
  r[12] = __float2bfloat16(g);
  r[13] = __float2bfloat16_rz(g);
  r[14] = __float2bfloat16_rd(g);
  r[15] = __float2bfloat16_ru(g);
  r[16] = __double2bfloat16(d[i]);
  r[17] = __int2bfloat16_rn(iv);
  r[18] = __int2bfloat16_rz(iv);
  r[19] = __int2bfloat16_rd(iv);
  r[20] = __int2bfloat16_ru(iv);
  r[21] = __ll2bfloat16_rn(lv);
  r[22] = __ull2bfloat16_ru((unsigned long long)lv);
  r[23] = __uint2bfloat16_rd((unsigned int)iv);
  r[24] = __short2bfloat16_rn((short)iv);
  r[25] = __ushort2bfloat16_rz((unsigned short)iv);
  r[26] = hsqrt(x);
  r[27] = hfloor(x);
  r[28] = hceil(x);
  r[29] = htrunc(x);
  r[30] = hrint(x);
  r[31] = hexp(x);
  r[32] = hlog(x);
  r[33] = hsin(x);
  r[34] = hrcp(x);
  r[35] = __hadd_sat(x, y);
  r[36] = __hfma_sat(x, y, z);
  r[37] = __hfma_relu(x, y, z);
  __nv_bfloat162 v = __halves2bfloat162(x, y), w = make_bfloat162(z, x);
  __nv_bfloat162 s = __hfma2(v, w, __lowhigh2highlow(v));
  r[38] = __low2bfloat16(s);
  r[39] = __high2bfloat16(s);
  __nv_bfloat162 cm = __hcmadd(v, w, __lowhigh2highlow(v));
  r[40] = cm.x;
  r[41] = cm.y;
  __nv_bfloat162 p = v * w + v;
  r[42] = p.x;
  r[43] = p.y;
  __nv_bfloat16 t = x;
  t += y;
  t *= z;
  r[44] = t;
  __nv_bfloat16 h = g;
  r[45] = h;
  __nv_bfloat16 hi = iv;
  r[46] = hi;
  __nv_bfloat16 t2 = x;
  t2++;
  r[47] = t2;
  r[48] = -x;
  r[49] = h2sqrt(v).y;
  r[50] = __short_as_bfloat16((short)(__bfloat16_as_short(x) ^ (short)0x8000));
  r[51] = __high2bfloat16(__floats2bfloat162_rn(__bfloat162float(z), g));
  int *q = oi + i * NI;
  q[0] = __hlt(x, y);
  q[1] = __hneu(x, y);
  q[2] = __hisnan(x);
  q[3] = __hisinf(y);
  q[4] = __bfloat162int_rn(x);
  q[5] = __bfloat162int_rz(y);
  q[6] = __bfloat162int_rd(x);
  q[7] = __bfloat162int_ru(y);
  q[8] = __bfloat162short_rn(x);
  q[9] = __bfloat162ushort_rz(x);
  q[10] = (int)__bfloat162uint_rd(x);
  q[11] = (int)x;
  q[12] = __hbgeu2(v, w);
  q[13] = (int)__heq2_mask(v, w);
  q[14] = __hne(x, y);
  q[15] = __hequ(x, y);
  q[16] = x < y;
  q[17] = x != y;
  q[18] = __bfloat162char_rz(x);
  q[19] = __hge(x, y);
  q[20] = __hgtu(x, y);
  q[21] = __hble2(v, w);
  float *e = of + i * NF;
  e[0] = __bfloat162float(x);
  e[1] = y;
  e[2] = __high2float(v);
  e[3] = __bfloat1622float2(w).x;
  long long *u = ol + i * NL;
  u[0] = __hisnan(x) ? 0 : __bfloat162ll_rn(x);
  u[1] = __hisnan(y) ? 0 : (long long)__bfloat162ull_ru(y);
}

// atomicAdd of __nv_bfloat16 and __nv_bfloat162, in global and shared memory: each thread adds
// 1 (and 2 to the pair's high half) to one of 8 slots, so every sum is an exact integer in any
// order; old values are distinct per slot.
__global__ void atomics(__nv_bfloat16 *g, __nv_bfloat162 *g2, __nv_bfloat16 *sh_out,
                        __nv_bfloat16 *olds) {
  __shared__ __nv_bfloat16 s[8];
  int t = threadIdx.x;
  if (t < 8) s[t] = __float2bfloat16(0.0f);
  __syncthreads();
  __nv_bfloat16 one = 1.0f;
  olds[blockIdx.x * blockDim.x + t] = atomicAdd(&g[t % 8], one);
  atomicAdd(&s[t % 8], one);
  atomicAdd(&g2[t % 4], __floats2bfloat162_rn(1.0f, 2.0f));
  __syncthreads();
  if (t < 8) sh_out[blockIdx.x * 8 + t] = s[t];
}
