/* cl_fp16.c — runs tests/runtime/cl_fp16.cl (half as a value type) through libkcrt on random
 * inputs (every kind of half: normal, subnormal, zero, infinity, NaN, and small values where
 * the math functions are interesting) and compares every element with a host reference that
 * rounds as OpenCL C's half does: each operation on halves computed exactly (in float, or in
 * long double for fma) and rounded to half by GCC's _Float16 conversions. Bit for bit, NaNs
 * equal to any NaN, except exp/log/sin/pow (within one half ulp: the float functions of the
 * device and of the host libm may differ by a float ulp) and fmin/fmax of two zeros (either
 * zero). */
#include "rt_common.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NH 35
#define NI 8

static uint16_t H(float x) { /* float to half, to nearest even */
  return rt_f16_of_float(x, FE_TONEAREST);
}
static uint16_t Hm(float x, int mode) {
  return rt_f16_of_float(x, mode);
}
static float F(uint16_t h) {
  return rt_f16_value(h);
}

typedef struct {
  const char *name;
  int tol; /* rt_cmp_f16's */
} Col;

static void cmp_halves(Rt *rt, const Col *col, const uint16_t *got, const uint16_t *want, size_t n,
                       size_t stride) {
  rt_cmp_f16(rt, col->name, got, want, n, stride, col->tol);
}

typedef struct {
  uint16_t h;
  float f;
  uint16_t v[2] __attribute__((aligned(4)));
} Mixed;

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_fp16");
  enum { N = 1 << 14, B = 64 };

  /* ---- scalars */
  uint16_t *a = rt_xalloc(N * 2), *b = rt_xalloc(N * 2), *c = rt_xalloc(N * 2);
  float *f = rt_xalloc(N * 4);
  int32_t *k = rt_xalloc(N * 4);
  double *d = rt_xalloc(N * 8);
  for (size_t i = 0; i < N; i++) {
    a[i] = rt_f16_rand(&rt), b[i] = rt_f16_rand(&rt), c[i] = rt_f16_rand(&rt);
    /* floats and doubles near halves' rounding boundaries, ints around half's range */
    uint16_t m = (uint16_t)(rt_u32(&rt) & 0x7bff);
    double mid = ((double)F(m) + (double)F((uint16_t)(m + 1))) / 2 * (i & 1 ? -1 : 1);
    f[i] = i % 3 == 0 ? rt_f32_of_bits(rt_u32(&rt))
                      : (float)mid * (1 + (rt_int(&rt, -2, 2)) * 0x1p-23f);
    d[i] = i % 3 == 0 ? rt_double(&rt, -70000, 70000) : mid * (1 + rt_int(&rt, -2, 2) * 0x1p-45);
    k[i] = i % 2 ? rt_int(&rt, -70000, 70000) : rt_int(&rt, -2048, 2048);
  }
  uint16_t s = H(-1.5f);
  uint32_t n = N;
  kcrt_buffer *da = rt_upload(&rt, a, N * 2), *db = rt_upload(&rt, b, N * 2),
              *dc = rt_upload(&rt, c, N * 2), *df = rt_upload(&rt, f, N * 4),
              *dk = rt_upload(&rt, k, N * 4), *dd = rt_upload(&rt, d, N * 8),
              *doh = rt_alloc(&rt, N * NH * 2), *doi = rt_alloc(&rt, N * NI * 4),
              *dof = rt_alloc(&rt, N * 2 * 4);
  kcrt_arg sa[] = {KCRT_ARG_BUFFER(da),  KCRT_ARG_BUFFER(db),  KCRT_ARG_BUFFER(dc),
                   KCRT_ARG_BUFFER(df),  KCRT_ARG_BUFFER(dk),  KCRT_ARG_BUFFER(dd),
                   KCRT_ARG_BUFFER(doh), KCRT_ARG_BUFFER(doi), KCRT_ARG_BUFFER(dof),
                   KCRT_ARG_VALUE(s),    KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "scalar"), KCRT_DIM1(N / B), KCRT_DIM1(B), 0, sa, 11);
  uint16_t *oh = rt_xalloc(N * NH * 2), *wh = rt_xalloc(N * NH * 2);
  int32_t *oi = rt_xalloc(N * NI * 4), *wi = rt_xalloc(N * NI * 4);
  float *of = rt_xalloc(N * 2 * 4), *wf = rt_xalloc(N * 2 * 4);
  rt_download(&rt, doh, oh, N * NH * 2);
  rt_download(&rt, doi, oi, N * NI * 4);
  rt_download(&rt, dof, of, N * 2 * 4);
  static const uint16_t ctab[4] = {0x3800, 0xbd00, 0x7bff, 0x0001};
  for (size_t i = 0; i < N; i++) {
    float x = F(a[i]), y = F(b[i]), z = F(c[i]);
    uint16_t *w = wh + i * NH;
    w[0] = H(x + y);
    w[1] = H(x - y);
    w[2] = H(x * y);
    w[3] = H(x / y);
    w[4] = H(sqrtf(x));
    w[5] = rt_f16_of_long_double(fmal(x, y, z));
    w[6] = a[i] ^ 0x8000;
    w[7] = a[i] & 0x7fff;
    w[8] = H(fminf(x, y));
    w[9] = H(fmaxf(x, y));
    w[10] = H(floorf(x));
    w[11] = H(ceilf(x));
    w[12] = H(rintf(x));
    w[13] = H(truncf(x));
    w[14] = H(copysignf(x, y));
    w[15] = H(F(H(x * y)) + z);
    w[16] = w[15];
    w[17] = H(f[i]);
    w[18] = H((float)k[i]);
    w[19] = rt_f16_of_double(d[i]);
    w[20] = H(x * F(s));
    w[21] = H(F(H(x + y)) * z);
    w[22] = w[23] = H(x + 1);
    w[24] = H(F(w[22]) - 1);
    w[25] = H(F(H(x * y)) - 1);
    w[26] = H(F(ctab[i & 3]) * x);
    w[27] = H(fminf(fmaxf(x, -1), 1));
    w[28] = H(expf(x));
    w[29] = H(logf(fabsf(x)));
    w[30] = H(sinf(x));
    w[31] = H(powf(fabsf(x), y));
    w[32] = Hm(f[i], FE_TOWARDZERO);
    w[33] = Hm(f[i], FE_UPWARD);
    w[34] = Hm((float)(k[i] * 1000), FE_DOWNWARD);
    int32_t *p = wi + i * NI;
    p[0] = x < y;
    p[1] = x == y;
    p[2] = x >= y;
    p[3] = isnan(x) != 0;
    p[4] = isinf(y) != 0;
    p[5] = isnan(x) ? 0 : isinf(x) ? (x > 0 ? INT32_MAX : INT32_MIN) : (int32_t)rintf(x);
    p[6] = isnan(x) ? 0 : isinf(x) ? (x > 0 ? INT32_MAX : INT32_MIN) : (int32_t)truncf(x);
    p[7] = (int16_t)a[i] + 65536 * ((x != x) + 2 * (z == 0));
    wf[i * 2] = x;
    wf[i * 2 + 1] = x + 0.5f;
  }
  static const Col cols[NH] = {{"x + y", 0},
                               {"x - y", 0},
                               {"x * y", 0},
                               {"x / y", 0},
                               {"sqrt", 0},
                               {"fma", 0},
                               {"-x", 0},
                               {"fabs", 0},
                               {"fmin", 2},
                               {"fmax", 2},
                               {"floor", 0},
                               {"ceil", 0},
                               {"rint", 0},
                               {"trunc", 0},
                               {"copysign", 0},
                               {"x * y + z", 0},
                               {"mad", 0},
                               {"(half)float", 0},
                               {"(half)int", 0},
                               {"convert_half(double)", 0},
                               {"x * half arg", 0},
                               {"+= *=", 0},
                               {"++", 0},
                               {"post --", 0},
                               {"--", 0},
                               {"device function", 0},
                               {"constant table", 0},
                               {"clamp", 0},
                               {"exp", 1},
                               {"log", 1},
                               {"sin", 1},
                               {"pow", 1},
                               {"convert_half_rtz(float)", 0},
                               {"convert_half_rtp(float)", 0},
                               {"convert_half_rtn(int)", 0}};
  for (int j = 0; j < NH; j++) cmp_halves(&rt, &cols[j], oh + j, wh + j, N, NH);
  static const char *const icols[NI] = {"<",
                                        "==",
                                        ">=",
                                        "isnan",
                                        "isinf",
                                        "convert_int_sat_rte",
                                        "convert_int_sat",
                                        "as_short, !=, !"};
  for (int j = 0; j < NI; j++) {
    int32_t *g = rt_xalloc(N * 4), *w = rt_xalloc(N * 4);
    for (size_t i = 0; i < N; i++) g[i] = oi[i * NI + j], w[i] = wi[i * NI + j];
    rt_cmp_i32(&rt, icols[j], g, w, N);
  }
  {
    uint32_t *g = rt_xalloc(N * 2 * 4), *w = rt_xalloc(N * 2 * 4);
    for (size_t i = 0; i < N * 2; i++)
      g[i] = isnan(of[i]) ? 0x7fc00000u : rt_f32_bits(of[i]),
      w[i] = isnan(wf[i]) ? 0x7fc00000u : rt_f32_bits(wf[i]);
    rt_cmp_u32(&rt, "(float)half, half + float", g, w, N * 2);
  }

  /* ---- vectors: N/4 work-items of half4 */
  enum { NV = N / 4 };
  kcrt_buffer *do4 = rt_alloc(&rt, NV * 6 * 8), *do8 = rt_alloc(&rt, N * 2),
              *dof4 = rt_alloc(&rt, NV * 16), *dom = rt_alloc(&rt, NV * 8),
              *dol = rt_alloc(&rt, NV * 2);
  n = NV;
  kcrt_arg va[] = {KCRT_ARG_BUFFER(da),  KCRT_ARG_BUFFER(db),   KCRT_ARG_BUFFER(do4),
                   KCRT_ARG_BUFFER(do8), KCRT_ARG_BUFFER(dof4), KCRT_ARG_BUFFER(dom),
                   KCRT_ARG_BUFFER(dol), kcrt_local(B * 2),     KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "vector"), KCRT_DIM1(NV / B), KCRT_DIM1(B), 0, va, 9);
  uint16_t *o4 = rt_xalloc(NV * 6 * 8), *o8 = rt_xalloc(N * 2), *ol = rt_xalloc(NV * 2);
  float *of4 = rt_xalloc(NV * 16);
  int16_t *om = rt_xalloc(NV * 8);
  rt_download(&rt, do4, o4, NV * 6 * 8);
  rt_download(&rt, do8, o8, N * 2);
  rt_download(&rt, dof4, of4, NV * 16);
  rt_download(&rt, dom, om, NV * 8);
  rt_download(&rt, dol, ol, NV * 2);
  uint16_t *w4 = rt_xalloc(NV * 6 * 8), *w8 = rt_xalloc(N * 2), *wl = rt_xalloc(NV * 2);
  float *wf4 = rt_xalloc(NV * 16);
  int16_t *wm = rt_xalloc(NV * 8);
  uint16_t *tmp = rt_xalloc(NV * 2);
  for (size_t i = 0; i < NV; i++) {
    const uint16_t *x = a + i * 4, *y = b + i * 4;
    uint16_t *w = w4 + i * 24;
    for (int j = 0; j < 4; j++) {
      float xj = F(x[j]), yj = F(y[j]);
      w[j] = H(xj + yj);
      w[4 + j] = H(F(H(xj * yj)) - xj);
      w[8 + j] = xj < yj ? y[j] : x[j];
      w[12 + j] = x[j] ^ 0x8000;
      w[16 + j] = H(xj * 3.0f);
      wf4[i * 4 + j] = xj + yj;
      wm[i * 4 + j] = (int16_t)(isnan(xj) || xj > yj ? -1 : 0);
    }
    uint16_t dot = H(F(x[0]) * F(y[0]));
    for (int j = 1; j < 4; j++) dot = H(F(dot) + F(H(F(x[j]) * F(y[j]))));
    w[20] = x[1], w[21] = x[0], w[22] = dot, w[23] = H(F(y[3]) * 2);
    tmp[i] = H(F(x[0]) + F(y[1]));
  }
  for (size_t i = 0; i < NV; i++) wl[i] = H(F(tmp[i ^ 1]) - F(tmp[i]));
  for (size_t v = 0; v < N / 8; v++)
    for (int j = 0; j < 8; j++) w8[v * 8 + j] = H(F(H(F(a[v * 8 + j]) * 2)) + F(a[v * 8 + 7 - j]));
  static const Col vcols[6] = {{"half4 +", 0},
                               {"half4 * -", 0},
                               {"select(half4, <)", 0},
                               {"as_half4(as_ushort4 ^)", 0},
                               {"convert_half4(float4)", 0},
                               {"(half4)(.yx, dot, .w * 2)", 0}};
  for (int j = 0; j < 6; j++) cmp_halves(&rt, &vcols[j], o4 + j * 4, w4 + j * 4, NV, 24);
  for (int j = 0; j < 6; j++) /* the other three components of each */
    for (int c2 = 1; c2 < 4; c2++)
      cmp_halves(&rt, &vcols[j], o4 + j * 4 + c2, w4 + j * 4 + c2, NV, 24);
  static const Col c8 = {"half8 vload8 * + swizzle vstore8", 0}, cl = {"__local half", 0};
  cmp_halves(&rt, &c8, o8, w8, N, 1);
  cmp_halves(&rt, &cl, ol, wl, NV, 1);
  {
    uint32_t *g = rt_xalloc(NV * 16), *w = rt_xalloc(NV * 16);
    for (size_t i = 0; i < NV * 4; i++)
      g[i] = isnan(of4[i]) ? 0x7fc00000u : rt_f32_bits(of4[i]),
      w[i] = isnan(wf4[i]) ? 0x7fc00000u : rt_f32_bits(wf4[i]);
    rt_cmp_u32(&rt, "vload_half4 + convert_float4(half4)", g, w, NV * 4);
    int32_t *gm = rt_xalloc(NV * 16), *wm32 = rt_xalloc(NV * 16);
    for (size_t i = 0; i < NV * 4; i++) gm[i] = om[i], wm32[i] = wm[i];
    rt_cmp_i32(&rt, "isnan(half4) | (half4 > half4)", gm, wm32, NV * 4);
  }

  /* ---- structs and private arrays */
  Mixed *m = rt_xalloc(N * sizeof(Mixed)), *wm2 = rt_xalloc(N * sizeof(Mixed));
  for (size_t i = 0; i < N; i++) {
    m[i] = (Mixed){a[i], 0, {b[i], c[i]}};
    uint16_t h = H(F(H(F(a[i]) * F(b[i]))) + F(c[i]));
    wm2[i] = (Mixed){h, F(h), {c[i], b[i]}};
  }
  uint16_t *os = rt_xalloc(N * 2), *ws = rt_xalloc(N * 2);
  for (size_t i = 0; i < N; i++) {
    uint16_t t = H(0.0f + F(wm2[i].h));
    t = H(F(t) + F(wm2[i].v[0]));
    t = H(F(t) + 1.0f);
    ws[i] = H(F(t) + -0.0f);
  }
  kcrt_buffer *dm = rt_upload(&rt, m, N * sizeof(Mixed)), *dos = rt_alloc(&rt, N * 2);
  n = N;
  kcrt_arg ma[] = {KCRT_ARG_BUFFER(dm), KCRT_ARG_BUFFER(dos), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "structs"), KCRT_DIM1(N / B), KCRT_DIM1(B), 0, ma, 3);
  rt_download(&rt, dm, m, N * sizeof(Mixed));
  rt_download(&rt, dos, os, N * 2);
  {
    uint32_t *g = rt_xalloc(N * 16), *w = rt_xalloc(N * 16);
    for (size_t i = 0; i < N; i++) {
      const uint16_t gh[4] = {m[i].h, m[i].v[0], m[i].v[1], os[i]};
      const uint16_t wh4[4] = {wm2[i].h, wm2[i].v[0], wm2[i].v[1], ws[i]};
      for (int j = 0; j < 4; j++) {
        uint16_t x = gh[j], y = wh4[j];
        if (rt_f16_is_nan(x) && rt_f16_is_nan(y)) x = y;
        g[i * 4 + j] = x, w[i * 4 + j] = y;
      }
      float gf = m[i].f, wf2 = wm2[i].f;
      if (isnan(gf) && isnan(wf2)) gf = wf2;
      if (rt_f32_bits(gf) != rt_f32_bits(wf2)) g[i * 4] |= 0x10000; /* the float field */
    }
    rt_cmp_u32(&rt, "struct {half; float; half2}, half[4]", g, w, N * 4);
  }
  rt_xfree_all();
  return rt_finish(&rt, "%d halves through 35 scalar operations, %d half4, %d structs", N, NV, N);
}
