// cuda_fp8.cu — kcc's <cuda_fp8.h>, run by cuda_fp8.c: every fp8 byte decoded (both formats,
// to float, half, bfloat16, double and the integers), and random floats, doubles, halves,
// bfloat16s and integers encoded in both formats with both saturation modes, through the
// __nv_cvt_* functions, the constructors and the x2/x4 types.
#include <cuda_fp8.h>

#define ND 10 // decoded results per byte
#define NE 20 // encoded bytes per element

__global__ void decode(float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 256) return;
  __nv_fp8_e4m3 a;
  __nv_fp8_e5m2 b;
  a.__x = (__nv_fp8_storage_t)i;
  b.__x = (__nv_fp8_storage_t)i;
  float *r = o + i * ND;
  r[0] = float(a);
  r[1] = float(b);
  r[2] = (float)__nv_cvt_fp8_to_halfraw(a.__x, __NV_E4M3).x;
  r[3] = (float)__nv_cvt_fp8_to_halfraw(b.__x, __NV_E5M2).x;
  r[4] = (float)(int)a;
  r[5] = (float)(unsigned char)b;
  r[6] = (float)(signed char)a;
  r[7] = (float)__bfloat16_as_ushort((__nv_bfloat16)b);
  r[8] = (float)(double)a;
  r[9] = __half2float((__half)b);
}

__global__ void encode(const float *f, const double *d, const __half *h, const __nv_bfloat16 *bf,
                       const int *iv, unsigned char *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i], y = f[(i + 1) % n];
  unsigned char *r = o + i * NE;
  r[0] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
  r[1] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3);
  r[2] = __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
  r[3] = __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2);
  r[4] = __nv_cvt_double_to_fp8(d[i], __NV_SATFINITE, __NV_E4M3);
  r[5] = __nv_cvt_double_to_fp8(d[i], __NV_NOSAT, __NV_E5M2);
  r[6] = __nv_fp8_e4m3(h[i]).__x;
  __half_raw hr;
  hr.x = __half_as_ushort(h[i]);
  r[7] = __nv_cvt_halfraw_to_fp8(hr, __NV_NOSAT, __NV_E5M2);
  r[8] = __nv_fp8_e5m2(bf[i]).__x;
  r[9] = __nv_fp8_e4m3(iv[i]).__x;
  __nv_fp8x2_e4m3 p(make_float2(x, y));
  r[10] = (unsigned char)p.__x;
  r[11] = (unsigned char)(p.__x >> 8);
  __nv_fp8x4_e5m2 q(make_float4(y, x, -x, -y));
  r[12] = (unsigned char)q.__x;
  r[13] = (unsigned char)(q.__x >> 8);
  r[14] = (unsigned char)(q.__x >> 16);
  r[15] = (unsigned char)(q.__x >> 24);
  __nv_fp8x2_storage_t s = __nv_cvt_bfloat16raw2_to_fp8x2(
      (__nv_bfloat162_raw)__halves2bfloat162(bf[i], __float2bfloat16(x)), __NV_NOSAT, __NV_E4M3);
  r[16] = (unsigned char)s;
  r[17] = (unsigned char)(s >> 8);
  __nv_fp8_e5m2 e(d[i]);
  r[18] = e.__x;
  r[19] = __nv_fp8_e4m3(x).__x;
}
