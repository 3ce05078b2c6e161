/* cl_half.c — runs tests/runtime/cl_half.cl (OpenCL C input) through libkcrt: every one of the
 * 65536 half bit patterns loaded, and random and edge-case floats (halfway cases, subnormal
 * and overflowing magnitudes, infinities, NaN) stored in each rounding mode, compared bit for
 * bit with GCC's _Float16 conversions under fesetround. */
#include "rt_common.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NH 65536

static uint16_t to_half(float f, int mode) {
  fesetround(mode);
  volatile float in = f;
  volatile _Float16 h = (_Float16)in;
  fesetround(FE_TONEAREST);
  uint16_t r;
  memcpy(&r, (const void *)&h, 2);
  if (isnan(f)) r = (uint16_t)((r & 0x8000) | 0x7e00); /* kcc's quiet NaN keeps only the sign */
  return r;
}

static int is_half_nan(uint32_t h) {
  return (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
}

static float from_half(uint16_t h) {
  _Float16 x;
  memcpy(&x, &h, 2);
  return (float)x;
}

/* Compares float bit patterns, NaN equal to any NaN. */
static void cmp_bits(Rt *rt, const char *what, const float *got, const float *want, size_t n) {
  uint32_t *g = rt_xalloc(n * 4), *w = rt_xalloc(n * 4);
  for (size_t i = 0; i < n; i++) {
    g[i] = isnan(got[i]) ? 0x7fc00000u : rt_f32_bits(got[i]);
    w[i] = isnan(want[i]) ? 0x7fc00000u : rt_f32_bits(want[i]);
  }
  rt_cmp_u32(rt, what, g, w, n);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_half");

  /* Loads: every half. */
  uint16_t *h = rt_xalloc(NH * 2);
  for (uint32_t i = 0; i < NH; i++) h[i] = (uint16_t)i;
  float *f = rt_xalloc(NH * 4), *f4 = rt_xalloc(NH * 4), *f3 = rt_xalloc(NH / 4 * 3 * 4);
  float *wf = rt_xalloc(NH * 4), *w3 = rt_xalloc(NH / 4 * 3 * 4);
  for (uint32_t i = 0; i < NH; i++) wf[i] = from_half(h[i]);
  for (uint32_t v = 0; v < NH / 4; v++)
    for (int c = 0; c < 3; c++) w3[v * 3 + c] = wf[v * 4 + c];
  kcrt_buffer *dh = rt_upload(&rt, h, NH * 2), *df = rt_alloc(&rt, NH * 4),
              *df4 = rt_alloc(&rt, NH * 4), *df3 = rt_alloc(&rt, NH / 4 * 3 * 4);
  uint32_t n = NH;
  kcrt_arg la[] = {KCRT_ARG_BUFFER(dh), KCRT_ARG_BUFFER(df), KCRT_ARG_BUFFER(df4),
                   KCRT_ARG_BUFFER(df3), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "load"), KCRT_DIM1(NH / 256), KCRT_DIM1(256), 0, la, 5);
  rt_download(&rt, df, f, NH * 4);
  rt_download(&rt, df4, f4, NH * 4);
  rt_download(&rt, df3, f3, NH / 4 * 3 * 4);
  cmp_bits(&rt, "vload_half", f, wf, NH);
  cmp_bits(&rt, "vload_half4", f4, wf, NH);
  cmp_bits(&rt, "vloada_half3", f3, w3, NH / 4 * 3);

  /* Stores: edge cases, then random bits and random magnitudes around half's range. */
  enum { NS = 1 << 16, B = 128 };
  float *s = rt_xalloc(NS * 4);
  static const uint32_t edge[] = {
      0,          0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x477fe000,
      0x477fefff, 0x477ff000, 0x477ff001, 0x47800000, 0xc77ff000, 0x38800000, 0x387fffff,
      0x33800000, 0x33800001, 0x33000000, 0x33000001, 0x32ffffff, 0x00000001, 0x3f801000,
      0x3f803000, 0x3f801001, 0xbf801000, 0x3c002000, 0x38ffe000};
  size_t ne = sizeof edge / sizeof edge[0];
  for (size_t i = 0; i < NS; i++) {
    if (i < ne)
      s[i] = rt_f32_of_bits(edge[i]);
    else if (i % 2)
      s[i] = rt_f32_of_bits(rt_u32(&rt));
    else /* exponents near half's: normal, subnormal, overflow */
      s[i] = rt_f32_of_bits((rt_u32(&rt) & 0x807fffffu) | ((uint32_t)rt_int(&rt, 96, 145) << 23));
  }
  static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
  static const char *const mname[] = {"vstore_half (rte)", "vstore_half_rtz", "vstore_half_rtp",
                                      "vstore_half_rtn"};
  kcrt_buffer *ds = rt_upload(&rt, s, NS * 4), *dm[4];
  for (int m = 0; m < 4; m++) dm[m] = rt_alloc(&rt, NS * 2);
  kcrt_buffer *dv2 = rt_alloc(&rt, NS * 2), *da3 = rt_alloc(&rt, NS * 2);
  n = NS;
  kcrt_arg sa[] = {KCRT_ARG_BUFFER(ds),    KCRT_ARG_BUFFER(dm[0]), KCRT_ARG_BUFFER(dm[1]),
                   KCRT_ARG_BUFFER(dm[2]), KCRT_ARG_BUFFER(dm[3]), KCRT_ARG_BUFFER(dv2),
                   KCRT_ARG_BUFFER(da3),   kcrt_local(B * 2),      KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "store"), KCRT_DIM1(NS / B), KCRT_DIM1(B), 0, sa, 9);
  uint32_t *got = rt_xalloc(NS * 4), *want = rt_xalloc(NS * 4);
  uint16_t *g16 = rt_xalloc(NS * 2), *a3 = rt_xalloc(NS * 2);
  for (int m = 0; m < 4; m++) {
    rt_download(&rt, dm[m], g16, NS * 2);
    for (size_t i = 0; i < NS; i++) got[i] = g16[i], want[i] = to_half(s[i], modes[m]);
    rt_cmp_u32(&rt, mname[m], got, want, NS);
  }
  rt_download(&rt, dv2, g16, NS * 2);
  for (size_t i = 0; i < NS; i++) {
    got[i] = g16[i];
    /* even i: the value stored to local memory and read back; odd: the next input */
    float x = i % 2 ? s[i] : from_half(to_half(s[i], FE_TONEAREST));
    want[i] = to_half(x, FE_TONEAREST);
  }
  rt_cmp_u32(&rt, "vstore_half2 (through __local)", got, want, NS);
  rt_download(&rt, da3, a3, NS * 2);
  size_t n3 = 0;
  for (size_t v = 0; v < NS / 4; v++)
    for (int c = 0; c < 3; c++, n3++) {
      float x = s[v * 4];
      got[n3] = a3[v * 4 + c];
      want[n3] = to_half(c == 0 ? x : c == 1 ? -x : x * 0.5f, FE_TONEAREST);
      /* -x and x * 0.5 of a NaN: GPUs need not keep its sign (PTX: "NaN inputs yield an
       * unspecified NaN"), so any half NaN will do there. */
      if (c && is_half_nan(want[n3]) && is_half_nan(got[n3])) got[n3] = want[n3];
    }
  rt_cmp_u32(&rt, "vstorea_half3", got, want, n3);
  rt_xfree_all();
  return rt_finish(&rt, "%d halves loaded, %d floats stored in 4 rounding modes", NH, NS);
}
