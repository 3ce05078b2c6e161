/* cl_vecfn.c — runs tests/runtime/cl_vecfn.cl (OpenCL C input) through libkcrt on fresh random
 * inputs (edge values included) and checks every component against a C reference of
 * OpenCL C 1.2 §6.2.3 (conversions: saturation, rounding modes, NaN to 0) and §6.12 (select:
 * the mask's most significant bit; rotate; min/max/clamp with a scalar argument). */
#include "rt_common.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int32_t sat_i32(double v) {
  if (isnan(v)) return 0;
  return v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int32_t)v;
}

static int32_t rotl(int32_t v, int32_t by) {
  uint32_t u = (uint32_t)v, s = (uint32_t)by & 31u;
  return (int32_t)((u << s) | (u >> ((32u - s) & 31u)));
}

static int32_t clampi(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_vecfn");
  int n = rt_int(&rt, 64, 2048) & ~63;
  float *f = malloc(4 * n * sizeof *f), *of = malloc(16 * n * sizeof *of),
        *wf = malloc(16 * n * sizeof *wf);
  int32_t *a = malloc(4 * n * sizeof *a), *oi = malloc(24 * n * sizeof *oi),
          *wi = malloc(24 * n * sizeof *wi);
  uint8_t *ou = malloc(4 * n), *wu = malloc(4 * n);
  int16_t *os = malloc(8 * n * sizeof *os), *ws = malloc(8 * n * sizeof *ws);
  static const float edge[] = {0.5f, -0.5f, 1.5f, -2.5f, 2147.4836f, -2147.4849f, 0.0f, -0.0f};
  for (int i = 0; i < 4 * n; i++) {
    f[i] = i < 8 ? edge[i] : rt_float(&rt, -1000.0f, 1000.0f);
    if (i % 97 == 5) f[i] = (float)(int)f[i] + 0.5f; /* halfway cases */
    a[i] = (int32_t)rt_u32(&rt) >> (rt_u32(&rt) % 24);
  }
  int k = rt_int(&rt, 0, 1 << 20);
  float s = rt_float(&rt, 1.0f, 500.0f);
  for (int i = 0; i < n; i++)
    for (int c = 0; c < 4; c++) {
      float x = f[4 * i + c];
      int32_t y = a[4 * i + c];
      wi[24 * i + 0 + c] = sat_i32(rint((double)(x * 1e7f)));
      wi[24 * i + 4 + c] = (int32_t)floorf(x) + (int32_t)ceilf(x) + (int32_t)x;
      wi[24 * i + 8 + c] = y > k ? y + 1 : y;
      wi[24 * i + 12 + c] = (y > k ? y : k) - (y < k ? y : k);
      wi[24 * i + 16 + c] = (int32_t)rt_f32_bits(x + x);
      wi[24 * i + 20 + c] = rotl(y, y) ^ clampi(y, -k, k);
      wf[16 * i + 0 + c] = fminf(x, s) + fmaxf(x, -s) + fminf(fmaxf(x, -s), s);
      wf[16 * i + 4 + c] = (float)y + rt_f32_of_bits((uint32_t)y & 0x3fffffff);
      wf[16 * i + 8 + c] = x * 57.2957795f + x * 0.0174532925f;
      wf[16 * i + 12 + c] = y < 0 ? -x : x;
      wu[4 * i + c] = (uint8_t)clampi(y, 0, 255);
      ws[8 * i + c] = (int16_t)clampi(y, -32768, 32767);
      ws[8 * i + 4 + c] = (int16_t)clampi(sat_i32((double)y * 3), -32768, 32767);
    }
  kcrt_buffer *df = rt_upload(&rt, f, 4 * n * sizeof *f), *da = rt_upload(&rt, a, 4 * n * 4),
              *doi = rt_alloc(&rt, 24 * n * 4), *dof = rt_alloc(&rt, 16 * n * 4),
              *dou = rt_alloc(&rt, 4 * n), *dos = rt_alloc(&rt, 16 * n);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(df),  KCRT_ARG_BUFFER(da),  KCRT_ARG_BUFFER(doi),
                     KCRT_ARG_BUFFER(dof), KCRT_ARG_BUFFER(dou), KCRT_ARG_BUFFER(dos),
                     KCRT_ARG_VALUE(k),    KCRT_ARG_VALUE(s)};
  rt_launch(&rt, rt_kernel(&rt, "vecfn"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args, 8);
  rt_download(&rt, doi, oi, 24 * n * 4);
  rt_download(&rt, dof, of, 16 * n * 4);
  rt_download(&rt, dou, ou, 4 * n);
  rt_download(&rt, dos, os, 16 * n);
  rt_cmp_i32(&rt, "integer results", oi, wi, 24 * (size_t)n);
  /* y * 3 wraps in int8 arithmetic before the saturating conversion: compare that lane with
     the wrapped product. */
  for (int i = 0; i < n; i++)
    for (int c = 0; c < 4; c++)
      ws[8 * i + 4 + c] = (int16_t)clampi((int32_t)((uint32_t)a[4 * i + c] * 3u), -32768, 32767);
  for (int i = 0; i < 8 * n; i++)
    if (os[i] != ws[i]) rt_fail(&rt, "convert_short8_sat [%d]: %d, want %d", i, os[i], ws[i]);
  for (int i = 0; i < 4 * n; i++)
    if (ou[i] != wu[i]) rt_fail(&rt, "convert_uchar4_sat [%d]: %u, want %u", i, ou[i], wu[i]);
  /* min/max/clamp/select and the conversions are exact; degrees and radians may differ by
     the constant's rounding (OpenCL allows 2 ulp each). */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 16; j++) {
      float g = of[16 * i + j], w = wf[16 * i + j];
      double tol = j >= 8 && j < 12 ? 4 * 1.2e-7 * fabs(w) + 1e-30 : 0.0;
      if (fabs((double)g - w) > tol && !(g == w))
        rt_fail(&rt, "float results [%d][%d]: %.9g, want %.9g", i, j, g, w);
    }
  /* volatile_vectors: io becomes 2v, out 3v (exact in float for these values). */
  float *io = malloc(4 * n * sizeof *io), *vo = malloc(4 * n * sizeof *vo),
        *wio = malloc(4 * n * sizeof *wio), *wvo = malloc(4 * n * sizeof *wvo);
  for (int i = 0; i < 4 * n; i++) {
    io[i] = (float)rt_int(&rt, -1000, 1000) / 8.0f;
    wio[i] = 2.0f * io[i];
    wvo[i] = 3.0f * io[i];
  }
  kcrt_buffer *dio = rt_upload(&rt, io, 4 * n * sizeof *io),
              *dvo = rt_alloc(&rt, 4 * n * sizeof *vo);
  kcrt_arg av[] = {KCRT_ARG_BUFFER(dio), KCRT_ARG_BUFFER(dvo), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "volatile_vectors"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64),
            0, av, 3);
  rt_download(&rt, dio, io, 4 * n * sizeof *io);
  rt_download(&rt, dvo, vo, 4 * n * sizeof *vo);
  rt_cmp_f32(&rt, "volatile_vectors io", io, wio, 4 * (size_t)n, 0, 0);
  rt_cmp_f32(&rt, "volatile_vectors out", vo, wvo, 4 * (size_t)n, 0, 0);
  free(io), free(vo), free(wio), free(wvo);
  /* shuffles: component c takes input mask[c] mod the number of inputs. */
  int32_t *sa = malloc(8 * n * sizeof *sa), *soi = malloc(24 * n * sizeof *soi),
          *swi = malloc(24 * n * sizeof *swi);
  uint8_t *sb = malloc(8 * n), *sou = malloc(16 * n), *swu = malloc(16 * n);
  uint32_t *sm = malloc(8 * n * sizeof *sm);
  float *sof = malloc(4 * n * sizeof *sof), *swf = malloc(4 * n * sizeof *swf);
  for (int i = 0; i < 8 * n; i++) {
    sa[i] = (int32_t)rt_u32(&rt);
    sb[i] = (uint8_t)rt_u32(&rt);
    sm[i] = rt_u32(&rt);
  }
  static const int fixed[8] = {7, 0, 6, 1, 13, 2, 4, 11};
  for (int i = 0; i < n; i++) {
    const int32_t *x = sa + 8 * i; /* x then y (x + 4): shuffle2's eight inputs */
    const uint32_t *mk = sm + 8 * i;
    for (int c = 0; c < 8; c++) {
      swi[24 * i + c] = x[mk[c] & 3];
      swi[24 * i + 8 + c] = x[mk[c] & 7];
      swi[24 * i + 16 + c] = x[fixed[c] & 7];
    }
    uint8_t in[16];
    for (int c = 0; c < 8; c++) in[c] = sb[8 * i + c], in[8 + c] = (uint8_t)(sb[8 * i + c] + 1);
    for (int c = 0; c < 16; c++) {
      uint32_t w = mk[c / 4] * 2654435761u;
      swu[16 * i + c] = in[((w >> (8 * (c % 4))) & 0xff) & 15];
    }
    for (int c = 0; c < 4; c++) swf[4 * i + c] = (float)x[3 - c] + (float)x[mk[2 * c + 1] & 1];
  }
  kcrt_buffer *dsa = rt_upload(&rt, sa, 8 * n * sizeof *sa), *dsb = rt_upload(&rt, sb, 8 * n),
              *dsm = rt_upload(&rt, sm, 8 * n * sizeof *sm), *dsoi = rt_alloc(&rt, 24 * n * 4),
              *dsou = rt_alloc(&rt, 16 * n), *dsof = rt_alloc(&rt, 4 * n * sizeof *sof);
  kcrt_arg as[] = {KCRT_ARG_BUFFER(dsa),  KCRT_ARG_BUFFER(dsb),  KCRT_ARG_BUFFER(dsm),
                   KCRT_ARG_BUFFER(dsoi), KCRT_ARG_BUFFER(dsou), KCRT_ARG_BUFFER(dsof)};
  rt_launch(&rt, rt_kernel(&rt, "shuffles"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, as, 6);
  rt_download(&rt, dsoi, soi, 24 * n * 4);
  rt_download(&rt, dsou, sou, 16 * n);
  rt_download(&rt, dsof, sof, 4 * n * sizeof *sof);
  rt_cmp_i32(&rt, "shuffle/shuffle2 int", soi, swi, 24 * (size_t)n);
  for (int i = 0; i < 16 * n; i++)
    if (sou[i] != swu[i]) rt_fail(&rt, "shuffle2 uchar [%d]: %u, want %u", i, sou[i], swu[i]);
  rt_cmp_f32(&rt, "shuffle float", sof, swf, 4 * (size_t)n, 0, 0);
  free(sa), free(soi), free(swi), free(sb), free(sou), free(swu), free(sm), free(sof), free(swf);
  /* astype_parts: components of as_T results, little-endian reinterpretation. */
  uint32_t *pa = malloc(4 * n * sizeof *pa), *pou = malloc(4 * n * sizeof *pou),
           *pwu = malloc(4 * n * sizeof *pwu);
  float *psc = malloc(2 * n * sizeof *psc), *pof = malloc(2 * n * sizeof *pof),
        *pwf = malloc(2 * n * sizeof *pwf);
  for (int i = 0; i < 4 * n; i++) pa[i] = rt_u32(&rt);
  /* Scales of few bits: every product and sum is exact, fused or not. */
  for (int i = 0; i < 2 * n; i++) psc[i] = (float)rt_int(&rt, -32, 32) / 8.0f;
  for (int i = 0; i < n; i++) {
    uint16_t h[8];
    uint8_t b[16];
    memcpy(h, pa + 4 * i, 16);
    memcpy(b, pa + 4 * i, 16);
    pwu[4 * i + 0] = (uint32_t)h[0] + h[7];
    pwu[4 * i + 1] = b[15];
    pwu[4 * i + 2] = pa[4 * i + 1];
    pwu[4 * i + 3] = h[7];
    float s0 = psc[2 * i], s1 = psc[2 * i + 1], t0 = 0.0f, t1 = 0.0f;
    t0 += (float)(h[0] & 0x000F) * s0;
    t1 += (float)((h[1] >> 4) & 0x000F) * s1;
    t0 += (float)(h[7] >> 12) * s1;
    pwf[2 * i] = t0, pwf[2 * i + 1] = t1;
  }
  kcrt_buffer *dpa = rt_upload(&rt, pa, 4 * n * sizeof *pa),
              *dpsc = rt_upload(&rt, psc, 2 * n * sizeof *psc),
              *dpou = rt_alloc(&rt, 4 * n * sizeof *pou),
              *dpof = rt_alloc(&rt, 2 * n * sizeof *pof);
  kcrt_arg ap[] = {KCRT_ARG_BUFFER(dpa), KCRT_ARG_BUFFER(dpsc), KCRT_ARG_BUFFER(dpou),
                   KCRT_ARG_BUFFER(dpof)};
  rt_launch(&rt, rt_kernel(&rt, "astype_parts"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, ap,
            4);
  rt_download(&rt, dpou, pou, 4 * n * sizeof *pou);
  rt_download(&rt, dpof, pof, 2 * n * sizeof *pof);
  rt_cmp_i32(&rt, "astype_parts integers", (int32_t *)pou, (int32_t *)pwu, 4 * (size_t)n);
  rt_cmp_f32(&rt, "astype_parts in a macro", pof, pwf, 2 * (size_t)n, 0, 0);
  free(pa), free(pou), free(pwu), free(psc), free(pof), free(pwf);
  free(f), free(of), free(wf), free(a), free(oi), free(wi), free(ou), free(wu), free(os), free(ws);
  return rt_finish(&rt, "%d work-items", n);
}
