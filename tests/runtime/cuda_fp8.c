/* cuda_fp8.c — runs tests/runtime/cuda_fp8.cu (kcc's <cuda_fp8.h>) through libkcrt and checks
 * every result against a host reference written from the formats' definitions, independently
 * of the header: decoding by the formula (sign, exponent, significand; e4m3's only NaN is
 * S.1111.111, e5m2 is IEEE-like), encoding by searching every fp8 value for the nearest (ties
 * to the even code), with the code past the largest finite one standing for overflow: that
 * gives __NV_SATFINITE's largest finite value, or __NV_NOSAT's NaN (e4m3) or infinity (e5m2),
 * as cuda_fp8.hpp defines them. Inputs: all 256 bytes; random and special floats, doubles,
 * halves, bfloat16s, integers, and floats at and beside every rounding boundary. */
#include "rt_common.h"

#include <fenv.h>
#include <math.h>

#define ND 10
#define NE 20

enum { E4M3, E5M2 };

static double fp8_value(unsigned c, int k) { /* NaN for NaN codes */
  double s = c & 0x80 ? -1 : 1;
  if (k == E4M3) {
    unsigned e = (c >> 3) & 15, m = c & 7;
    if ((c & 0x7f) == 0x7f) return NAN;
    return s * (e ? ldexp(1 + m / 8.0, (int)e - 7) : ldexp(m, -9));
  }
  unsigned e = (c >> 2) & 31, m = c & 3;
  if (e == 31) return m ? NAN : s * INFINITY;
  return s * (e ? ldexp(1 + m / 4.0, (int)e - 15) : ldexp(m, -16));
}

/* x (not NaN) to fp8: the nearest of codes 0..top, ties to the even code, where `top` (one
 * past the largest finite code) stands for overflow; x's sign kept, zeros included. */
static unsigned encode_ref(double x, int sat, int k) {
  unsigned s = signbit(x) ? 0x80 : 0, maxc = k == E4M3 ? 0x7e : 0x7b, top = maxc + 1;
  double a = fabs(x), topv = k == E4M3 ? 480.0 : 65536.0;
  unsigned best = 0;
  double bd = INFINITY;
  for (unsigned c = 0; c <= top; c++) {
    double v = c == top ? topv : fp8_value(c, k);
    /* beyond the code past the largest finite one, that code is the nearest (the distances
       in double would tie there, far out) */
    double dist = a >= topv ? (c == top ? 0 : INFINITY) : fabs(a - v);
    if (dist < bd || (dist == bd && !(c & 1))) bd = dist, best = c;
  }
  if (best == top) best = sat ? maxc : k == E4M3 ? 0x7f : 0x7c;
  return s | best;
}
static unsigned enc_f(float x, int sat, int k) {
  return isnan(x) ? 0x7f : encode_ref(x, sat, k);
}
static unsigned enc_d(double x, int sat, int k) {
  if (isnan(x)) {
    uint64_t u = rt_f64_bits(x);
    unsigned s = (unsigned)(u >> 63) << 7;
    return k == E4M3 ? s | 0x7f : s | 0x7e | (unsigned)((u >> 50) & 3);
  }
  return encode_ref(x, sat, k);
}
static float bf_value(uint16_t h) {
  return rt_f32_of_bits((uint32_t)h << 16);
}
static uint16_t bf_rn(float x) { /* float -> bfloat16, nearest even (exact here: test inputs) */
  uint32_t u = rt_f32_bits(x);
  if (isnan(x)) return 0x7fff;
  return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_fp8");
  /* decoding: every byte */
  kcrt_buffer *dd8 = rt_alloc(&rt, 256 * ND * 4);
  kcrt_arg dargs[] = {KCRT_ARG_BUFFER(dd8)};
  rt_launch(&rt, rt_kernel(&rt, "decode"), KCRT_DIM1(4), KCRT_DIM1(64), 0, dargs, 1);
  float *od = rt_xalloc(256 * ND * 4), *wd = rt_xalloc(256 * ND * 4);
  rt_download(&rt, dd8, od, 256 * ND * 4);
  for (unsigned c = 0; c < 256; c++) {
    float *w = wd + c * ND;
    double a = fp8_value(c, E4M3), b = fp8_value(c, E5M2);
    w[0] = (float)a;
    w[1] = (float)b;
    w[2] = isnan(a) ? 0x7fff : rt_f16_of_float((float)a, FE_TONEAREST);
    w[3] = isnan(b) ? 0x7fff : rt_f16_of_float((float)b, FE_TONEAREST);
    /* integers (no -0) */
    w[4] = isnan(a) ? 0 : (float)(int)trunc(a);
    w[5] = isnan(b) ? 0 : b > 255 ? 255 : b < 0 ? 0 : (float)(int)trunc(b);
    w[6] = isnan(a) ? 0 : a > 127 ? 127 : a < -128 ? -128 : (float)(int)trunc(a);
    w[7] = isnan(b) ? 0x7fff : bf_rn((float)b);
    w[8] = (float)a;
    w[9] = (float)b;
  }
  static const char *const dnames[ND] = {"float(e4m3)",
                                         "float(e5m2)",
                                         "__nv_cvt_fp8_to_halfraw e4m3",
                                         "__nv_cvt_fp8_to_halfraw e5m2",
                                         "(int)e4m3",
                                         "(unsigned char)e5m2",
                                         "(signed char)e4m3",
                                         "(__nv_bfloat16)e5m2",
                                         "(double)e4m3",
                                         "(__half)e5m2"};
  for (int j = 0; j < ND; j++) {
    uint32_t g[256], e[256];
    for (unsigned c = 0; c < 256; c++) {
      float x = od[c * ND + j], y = wd[c * ND + j];
      g[c] = isnan(x) ? 0x7fc00000u : rt_f32_bits(x),
      e[c] = isnan(y) ? 0x7fc00000u : rt_f32_bits(y);
    }
    rt_cmp_u32(&rt, dnames[j], g, e, 256);
  }

  /* encoding */
  enum { N = 1 << 14, B = 64 };
  float *f = rt_xalloc(N * 4);
  double *d = rt_xalloc(N * 8);
  uint16_t *h = rt_xalloc(N * 2), *bf = rt_xalloc(N * 2);
  int32_t *iv = rt_xalloc(N * 4);
  static const float fsp[] = {0.0f,     -0.0f,    448.0f,    464.0f,        -464.0f,  465.0f,
                              480.0f,   57344.0f, 61440.0f,  -61440.0f,     61439.0f, 65536.0f,
                              0x1p-10f, 0x1p-17f, -0x1p-10f, 0x1.0001p-10f, 0x1p-9f,  0x1p-16f,
                              3e38f,    1e-40f,   0x1.2p-7f, 0x1.3p-7f};
  for (size_t i = 0; i < N; i++) {
    int k = (int)(i % 2);
    unsigned c = rt_u32(&rt) & 0x7f;
    double v0 = fp8_value(c, k), v1 = fp8_value(c + 1, k);
    double mid = (isfinite(v0) && isfinite(v1)) ? (v0 + v1) / 2 : 1.5;
    float m = (float)mid * (rt_u32(&rt) & 1 ? -1.0f : 1.0f);
    switch (i % 5) {
    case 0: f[i] = rt_f32_of_bits(rt_u32(&rt)); break;
    case 1: f[i] = m; break; /* a tie */
    case 2: f[i] = nextafterf(m, rt_u32(&rt) & 1 ? INFINITY : -INFINITY); break;
    case 3: f[i] = ldexpf(rt_float(&rt, -2.0f, 2.0f), rt_int(&rt, -20, 17)); break;
    default: f[i] = (float)v0; break;
    }
    if (i < sizeof fsp / sizeof *fsp) f[i] = fsp[i];
    d[i] = i % 3 == 0   ? mid + mid * 0x1p-40 * rt_int(&rt, -1, 1)
           : i % 3 == 1 ? ldexp(rt_double(&rt, -2, 2), rt_int(&rt, -30, 20))
                        : rt_f64_of_bits(rt_u64(&rt));
    h[i] = rt_f16_rand(&rt);
    bf[i] = (uint16_t)rt_u32(&rt);
    if (i % 2) bf[i] = bf_rn(ldexpf(rt_float(&rt, -2.0f, 2.0f), rt_int(&rt, -20, 17)));
    iv[i] = rt_int(&rt, -70000, 70000);
  }
  f[30] = NAN, f[31] = -INFINITY, f[32] = INFINITY, f[33] = rt_f32_of_bits(0xff800001);
  d[40] = rt_f64_of_bits(0xfff4000000000000ull), d[41] = rt_f64_of_bits(0x7ffc000000000001ull);
  d[42] = INFINITY, d[43] = -1e300, d[44] = 1e-300, d[45] = 464.0, d[46] = 61440.0;
  d[47] = 464.0000000001, d[48] = 0x1p-10 * (1 + 0x1p-50);
  int n = N;
  kcrt_buffer *df = rt_upload(&rt, f, N * 4), *ddd = rt_upload(&rt, d, N * 8),
              *dh = rt_upload(&rt, h, N * 2), *dbf = rt_upload(&rt, bf, N * 2),
              *div = rt_upload(&rt, iv, N * 4), *dout = rt_alloc(&rt, N * NE);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(df),  KCRT_ARG_BUFFER(ddd), KCRT_ARG_BUFFER(dh),
                     KCRT_ARG_BUFFER(dbf), KCRT_ARG_BUFFER(div), KCRT_ARG_BUFFER(dout),
                     KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "encode"), KCRT_DIM1(N / B), KCRT_DIM1(B), 0, args, 7);
  uint8_t *o = rt_xalloc(N * NE), *w = rt_xalloc(N * NE);
  rt_download(&rt, dout, o, N * NE);
  for (size_t i = 0; i < N; i++) {
    float x = f[i], y = f[(i + 1) % N], hv = rt_f16_value(h[i]), bv = bf_value(bf[i]);
    uint8_t *r = w + i * NE;
    r[0] = (uint8_t)enc_f(x, 1, E4M3);
    r[1] = (uint8_t)enc_f(x, 0, E4M3);
    r[2] = (uint8_t)enc_f(x, 1, E5M2);
    r[3] = (uint8_t)enc_f(x, 0, E5M2);
    r[4] = (uint8_t)enc_d(d[i], 1, E4M3);
    r[5] = (uint8_t)enc_d(d[i], 0, E5M2);
    r[6] = (uint8_t)enc_f(hv, 1, E4M3);
    r[7] = (uint8_t)enc_f(hv, 0, E5M2);
    r[8] = (uint8_t)enc_f(bv, 1, E5M2);
    r[9] = (uint8_t)enc_f((float)iv[i], 1, E4M3);
    r[10] = (uint8_t)enc_f(x, 1, E4M3);
    r[11] = (uint8_t)enc_f(y, 1, E4M3);
    r[12] = (uint8_t)enc_f(y, 1, E5M2);
    r[13] = (uint8_t)enc_f(x, 1, E5M2);
    r[14] = (uint8_t)enc_f(-x, 1, E5M2);
    r[15] = (uint8_t)enc_f(-y, 1, E5M2);
    r[16] = (uint8_t)enc_f(bv, 0, E4M3);
    r[17] = (uint8_t)enc_f(bf_value(bf_rn(x)), 0, E4M3);
    r[18] = (uint8_t)enc_d(d[i], 1, E5M2);
    r[19] = (uint8_t)enc_f(x, 1, E4M3);
  }
  static const char *const enames[NE] = {
      "float e4m3 satfinite",   "float e4m3 nosat",       "float e5m2 satfinite",
      "float e5m2 nosat",       "double e4m3 satfinite",  "double e5m2 nosat",
      "__nv_fp8_e4m3(__half)",  "halfraw e5m2 nosat",     "__nv_fp8_e5m2(__nv_bfloat16)",
      "__nv_fp8_e4m3(int)",     "fp8x2_e4m3(float2) lo",  "fp8x2_e4m3(float2) hi",
      "fp8x4_e5m2(float4) [0]", "fp8x4_e5m2(float4) [1]", "fp8x4_e5m2(float4) [2]",
      "fp8x4_e5m2(float4) [3]", "bfloat16raw2 e4m3 lo",   "bfloat16raw2 e4m3 hi",
      "__nv_fp8_e5m2(double)",  "__nv_fp8_e4m3(float)"};
  for (int j = 0; j < NE; j++) {
    uint32_t *g = rt_xalloc(N * 4), *e = rt_xalloc(N * 4);
    for (size_t i = 0; i < N; i++) g[i] = o[i * NE + j], e[i] = w[i * NE + j];
    rt_cmp_u32(&rt, enames[j], g, e, N);
  }
  rt_xfree_all();
  return rt_finish(&rt, "256 bytes decoded %d ways, %d values encoded %d ways", ND, N, NE);
}
