// kcc's <cuda_fp16.h>: every intrinsic it defines, in one kernel, through every form.
// (Warp shuffles of __half and __half2 are in test_driver's half_cuda: SPIR-V 1.0 has none.)
#include <cuda_fp16.h>

__device__ __half twice(__half h) { return h + h; }

__global__ void every(__half *p, half2 *q, float *f, int *n, unsigned short *u) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half x = p[i], y = p[i + 1], z = p[i + 2];
  half2 v = q[i], w = q[i + 1];
  x = __hadd(x, y) + __hsub(x, y) + __hmul(x, y) + __hdiv(x, y) + __hfma(x, y, z);
  x = __hneg(x) + __habs(y) + __hmax(x, y) + __hmin(x, y) + hrcp(z) + twice(z);
  x = x + hsqrt(y) + hrsqrt(y) + hexp(y) + hexp2(y) + hexp10(y) + hlog(y) + hlog2(y) +
      hlog10(y) + hsin(y) + hcos(y) + hfloor(y) + hceil(y) + htrunc(y) + hrint(y);
  v = __hadd2(v, w) + __hsub2(v, w) + __hmul2(v, w) + __h2div(v, w) + __hfma2(v, w, v);
  v = __hneg2(v) + __habs2(w) + __hmax2(v, w) + __hmin2(v, w) + h2sqrt(v) + h2exp(w) +
      h2log(w) + h2sin(w) + h2cos(w) + h2floor(w) + h2ceil(w) + h2trunc(w) + h2rint(w);
  v = v + __float2half2_rn(f[0]) + __floats2half2_rn(f[1], f[2]) + __halves2half2(x, y) +
      make_half2(y, x) + __half2half2(z) + __low2half2(v) + __high2half2(w) +
      __lows2half2(v, w) + __highs2half2(v, w) + __lowhigh2highlow(v) +
      __float22half2_rn(make_float2(f[3], f[4]));
  float2 g = __half22float2(v);
  f[i] = __half2float(x) + __low2float(v) + __high2float(w) + g.x + g.y;
  n[i] = __heq(x, y) + __hne(x, y) + __hlt(x, y) + __hle(x, y) + __hgt(x, y) + __hge(x, y) +
         __hequ(x, y) + __hneu(x, y) + __hltu(x, y) + __hleu(x, y) + __hgtu(x, y) +
         __hgeu(x, y) + __hisnan(x) + __hisinf(y) + __hbeq2(v, w) + __hbne2(v, w) +
         __hblt2(v, w) + __hble2(v, w) + __hbgt2(v, w) + __hbge2(v, w);
  n[i + 1] = __half2int_rn(x) + __half2int_rz(x) + __half2int_ru(x) + __half2int_rd(x) +
             (int)__half2uint_rn(y) + __half2short_rz(y) + __half2ushort_rn(y) +
             (int)__half2ll_rd(z) + (int)__half2ull_ru(z);
  u[i] = __half_as_ushort(x) + (unsigned short)__half_as_short(y);
  p[i] = __float2half(f[5]) + __float2half_rn(f[6]) + __float2half_rz(f[7]) +
         __float2half_ru(f[8]) + __float2half_rd(f[9]) + __double2half((double)f[10]) +
         __int2half_rn(n[2]) + __int2half_rz(n[3]) + __uint2half_ru((unsigned)n[4]) +
         __short2half_rd((short)n[5]) + __ushort2half_rn(u[1]) + __ll2half_rz(n[6]) +
         __ull2half_rn((unsigned long long)n[7]) + __ushort_as_half(u[2]) +
         __short_as_half((short)u[3]) + CUDART_INF_FP16 + CUDART_MAX_NORMAL_FP16 +
         CUDART_MIN_DENORM_FP16 + CUDART_ONE_FP16 + CUDART_ZERO_FP16;
  q[i] = v;
}
