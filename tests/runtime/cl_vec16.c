/* cl_vec16.c — runs tests/runtime/cl_vec16.cl (OpenCL C vectors of 8 and 16 components)
 * through libkcrt on random inputs and checks every component against a C reference of
 * OpenCL C 1.2 (§6.3 operators on vectors: comparisons give -1, arithmetic wraps in the
 * element type; §6.2.3 conversions; §6.2.4.2 as_T; §6.12 built-ins; §6.12.12 shuffles). Also
 * run through the Vulkan form (vulkan.run.cl_vec16), where these vectors are arrays of
 * 4-vectors. */
#include "rt_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 128, FLAT = 8192 + 8 * N };

static int32_t sat_i32(double v) {
  if (isnan(v)) return 0;
  return v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int32_t)v;
}

static int32_t clampi(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static int32_t rotl(int32_t v, int32_t by) {
  uint32_t u = (uint32_t)v, s = (uint32_t)by & 31u;
  return (int32_t)((u << s) | (u >> ((32u - s) & 31u)));
}

static int popcount32(uint32_t v) {
  int n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

static int clz32(uint32_t v) {
  int n = 0;
  for (uint32_t b = 1u << 31; b && !(v & b); b >>= 1) n++;
  return n;
}

/* int to float rounded toward zero and toward +infinity (convert_float_rtz, _rtp). */
static float rtz_i2f(int32_t v) {
  float f = (float)v;
  return fabs((double)f) > fabs((double)v) ? nextafterf(f, 0.0f) : f;
}

static float rtp_i2f(int32_t v) {
  float f = (float)v;
  return (double)f < (double)v ? nextafterf(f, INFINITY) : f;
}

static uint8_t byte_of(const void *p, int k) {
  return ((const uint8_t *)p)[k];
}

static void check_ints(Rt *rt) {
  int32_t *a = malloc(16 * N * 4), *b = malloc(16 * N * 4), *o = malloc(12 * 16 * N * 4),
          *w = malloc(12 * 16 * N * 4);
  uint8_t *ua = malloc(16 * N), *uo = malloc(3 * 16 * N), *uw = malloc(3 * 16 * N);
  int64_t *la = malloc(8 * N * 8), *lo = malloc(2 * 8 * N * 8), *lw = malloc(2 * 8 * N * 8);
  int16_t *sa = malloc(8 * N * 2), *so = malloc(2 * 8 * N * 2), *sw = malloc(2 * 8 * N * 2);
  int32_t pk[8];
  for (int i = 0; i < 16 * N; i++) {
    a[i] = (int32_t)rt_u32(rt) >> (rt_u32(rt) % 28);
    b[i] = (int32_t)rt_u32(rt) >> (rt_u32(rt) % 28);
    if (i % 13 == 0) a[i] = 0;
    if (i % 17 == 0) b[i] = a[i];
    ua[i] = (uint8_t)rt_u32(rt);
  }
  for (int i = 0; i < 8 * N; i++) {
    la[i] = (int64_t)rt_u64(rt) >> (rt_u32(rt) % 60);
    sa[i] = (int16_t)rt_u32(rt);
  }
  for (int j = 0; j < 8; j++) pk[j] = rt_int(rt, -1000, 1000);
  for (int i = 0; i < N; i++) {
    const int32_t *x = a + 16 * i, *y = b + 16 * i;
    int32_t *r = w + 12 * 16 * i, k16[16], t[16];
    for (int j = 0; j < 16; j++) k16[j] = j < 8 ? pk[j] : pk[15 - j];
    for (int j = 0; j < 16; j++) {
      int32_t X = x[j], Y = y[j];
      r[0 * 16 + j] =
          (int32_t)((uint32_t)X + (uint32_t)Y * 3u - (uint32_t)(X >> 3) + (uint32_t)k16[j]);
      r[1 * 16 + j] = (X & Y) | (X ^ ~Y);
      r[2 * 16 + j] = (X >> 1) / (Y | 1) + (X >> 1) % (Y | 1);
      r[3 * 16 + j] = -(X < Y) - 2 * (X == Y) - 4 * (X >= k16[j]) - 8 * (X != Y) - (X == 0);
      r[4 * 16 + j] =
          (int32_t)(((uint32_t)X << (Y & 31)) + (uint32_t)(X >> 5) + ((uint32_t)X >> 7));
      uint32_t absx = X < 0 ? 0u - (uint32_t)X : (uint32_t)X;
      r[5 * 16 + j] = (int32_t)((uint32_t)(X > Y ? Y : X) + (uint32_t)(X > Y ? X : Y) -
                                (uint32_t)(X < 3 ? X : 3) + (uint32_t)clampi(X, -100, 100) + absx +
                                (uint32_t)(int32_t)(((int64_t)X + Y) >> 1));
      r[6 * 16 + j] =
          (int32_t)((uint32_t)popcount32((uint32_t)X) + 3u * (uint32_t)clz32((uint32_t)Y) +
                    (uint32_t)(int32_t)(((int64_t)X * Y) >> 32) + (uint32_t)rotl(X, Y));
      t[j] = X;
    }
    for (int j = 0; j < 8; j++) t[2 * j] = y[2 * j + 1];
    t[3] = 7;
    t[15] += 2;
    for (int j = 0; j < 4; j++) t[8 + j] = t[4 + j];
    t[15] = -t[0];
    for (int j = 0; j < 16; j++) r[7 * 16 + j] = t[j] + 1;
    const int32_t lit[16] = {x[0], x[1], y[2],  y[3],  x[4], x[5], x[6], x[7],
                             y[8], y[9], y[10], y[11], 1,    2,    x[0], x[2]};
    for (int j = 0; j < 16; j++)
      r[8 * 16 + j] =
          (int32_t)((uint32_t)x[15 - j] + (uint32_t)(j < 8 ? y[j] : x[j]) + (uint32_t)lit[j]);
    static const int perm[16] = {1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 14};
    static const int cmask[16] = {31, 0, 30, 1, 29, 2, 28, 3, 16, 15, 17, 14, 4, 5, 6, 7};
    for (int j = 0; j < 16; j++) {
      uint32_t m1 = (uint32_t)y[j] & 15u, m2 = (uint32_t)y[perm[j]] & 15u;
      r[9 * 16 + j] = (int32_t)((uint32_t)x[m1] + (uint32_t)(m2 < 8 ? x[m2] : y[m2 - 8]));
      r[10 * 16 + j] = cmask[j] < 16 ? x[cmask[j]] : y[cmask[j] - 16];
    }
    int any = 0, all = 1;
    for (int j = 0; j < 8; j++) any |= x[j] < 0;
    for (int j = 0; j < 16; j++) all &= y[j] > -5;
    for (int j = 0; j < 8; j++) r[11 * 16 + j] = x[0] > 0 ? x[2 * j + 1] : y[2 * j];
    const int32_t tail[8] = {any + all, 9, x[15], 4, x[10], -1, 0, x[1]};
    for (int j = 0; j < 8; j++) r[11 * 16 + 8 + j] = tail[j];

    const uint8_t *u = ua + 16 * i;
    uint8_t v[16], *ur = uw + 3 * 16 * i;
    for (int j = 0; j < 16; j++) v[j] = byte_of(&x[4 * (j / 4)], j % 4);
    for (int j = 0; j < 16; j++) {
      ur[j] = (uint8_t)(u[j] + v[j] * 2 - (u[j] >> 1));
      int as = u[j] + v[j];
      ur[16 + j] = (uint8_t)(clampi(u[j] * 3 - 200, 0, 255) + (as > 255 ? 255 : as));
      ur[32 + j] = (uint8_t)((u[j] > v[j] ? 0xff : 0) ^ byte_of(&y[1 + j / 4], j % 4) ^
                             (j < 8 ? u[8 + j] : v[j - 8]) ^ (u[j] > v[j] ? u[j] : v[j]));
    }

    const int64_t *l = la + 8 * i;
    int64_t *lr = lw + 2 * 8 * i;
    for (int j = 0; j < 8; j++) {
      uint64_t L = (uint64_t)l[j];
      lr[j] = (int64_t)(L * 7u + (uint64_t)(l[j] >> 2) - (L ^ (uint64_t)(int64_t)pk[0]) -
                        (uint64_t)(l[j] < 0) + (uint64_t)(l[j] / 3));
      uint64_t asl = (uint64_t)(uint32_t)y[2 * j] | (uint64_t)(uint32_t)y[2 * j + 1] << 32;
      __int128 sq = (__int128)l[j] * l[j];
      lr[8 + j] =
          (int64_t)((uint64_t)(int64_t)x[j] * L + asl + u[8 + j] + (uint64_t)(int64_t)(sq >> 64));
    }

    const int16_t *s = sa + 8 * i;
    int16_t *sr = sw + 2 * 8 * i;
    for (int j = 0; j < 8; j++) {
      int16_t ys = (int16_t)((uint32_t)y[j / 2] >> (16 * (j % 2)));
      sr[j] = (int16_t)(clampi(x[8 + j], -32768, 32767) + s[7 - j] + ys * s[j]);
      sr[8 + j] = (int16_t)((int16_t)l[j] - (s[j] >> 2) - (s[j] < 0) + u[j]);
    }
  }
  kcrt_buffer *da = rt_upload(rt, a, 16 * N * 4), *db = rt_upload(rt, b, 16 * N * 4),
              *dout = rt_alloc(rt, 12 * 16 * N * 4), *dua = rt_upload(rt, ua, 16 * N),
              *duo = rt_alloc(rt, 3 * 16 * N), *dla = rt_upload(rt, la, 8 * N * 8),
              *dlo = rt_alloc(rt, 2 * 8 * N * 8), *dsa = rt_upload(rt, sa, 8 * N * 2),
              *dso = rt_alloc(rt, 2 * 8 * N * 2);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da),  KCRT_ARG_BUFFER(db),  KCRT_ARG_BUFFER(dout),
                     KCRT_ARG_BUFFER(dua), KCRT_ARG_BUFFER(duo), KCRT_ARG_BUFFER(dla),
                     KCRT_ARG_BUFFER(dlo), KCRT_ARG_BUFFER(dsa), KCRT_ARG_BUFFER(dso),
                     KCRT_ARG_VALUE(pk)};
  rt_launch(rt, rt_kernel(rt, "ints"), KCRT_DIM1(N / 64), KCRT_DIM1(64), 0, args, 10);
  rt_download(rt, dout, o, 12 * 16 * N * 4);
  rt_download(rt, duo, uo, 3 * 16 * N);
  rt_download(rt, dlo, lo, 2 * 8 * N * 8);
  rt_download(rt, dso, so, 2 * 8 * N * 2);
  static const char *what[12] = {"int16 + * - >>",
                                 "int16 & | ^ ~",
                                 "int16 / %",
                                 "int16 comparisons",
                                 "int16 shifts",
                                 "select max min clamp abs hadd",
                                 "popcount clz mul_hi rotate",
                                 "swizzle writes",
                                 "swizzles and literals",
                                 "shuffle shuffle2",
                                 "constant shuffle2",
                                 "?: any all .even.odd"};
  for (int i = 0; i < N; i++)
    for (int q = 0; q < 12; q++)
      for (int j = 0; j < 16; j++) {
        size_t at = (size_t)(12 * 16 * i + 16 * q + j);
        if (o[at] != w[at])
          rt_fail(rt, "%s [item %d, component %d]: %d, want %d", what[q], i, j, o[at], w[at]);
      }
  for (int i = 0; i < 3 * 16 * N; i++)
    if (uo[i] != uw[i])
      rt_fail(rt, "uchar16 [%d] (result %d): %u, want %u", i, i / 16 % 3, uo[i], uw[i]);
  rt_cmp_i64(rt, "long8", lo, lw, 2 * 8 * N);
  for (int i = 0; i < 2 * 8 * N; i++)
    if (so[i] != sw[i]) rt_fail(rt, "short8 [%d]: %d, want %d", i, so[i], sw[i]);
  free(a), free(b), free(o), free(w), free(ua), free(uo), free(uw);
  free(la), free(lo), free(lw), free(sa), free(so), free(sw);
}

/* Rec as both languages lay it out: float16 and double8 aligned to 64, int8 to 32. */
typedef struct {
  float a;
  float pad[15];
  float v[16];
  int32_t w[8];
  int32_t pad2[8];
  double d[8];
} Rec;

static void check_floats(Rt *rt) {
  float *fa = malloc(16 * N * 4), *ga = malloc(8 * N * 4), *of = malloc(6 * 16 * N * 4),
        *wf = malloc(6 * 16 * N * 4), *om = malloc(2 * 16 * N * 4), *wm = malloc(2 * 16 * N * 4),
        *flat = malloc(FLAT * 4), *wflat = malloc(FLAT * 4);
  double *da = malloc(8 * N * 8), *od = malloc(3 * 8 * N * 8), *wd = malloc(3 * 8 * N * 8);
  int32_t *oi = malloc(4 * 16 * N * 4), *wi = malloc(4 * 16 * N * 4);
  Rec *rec = calloc(N, sizeof *rec), *wrec = calloc(N, sizeof *wrec);
  float pf[16];
  double pd[8];
  for (int i = 0; i < 16 * N; i++) fa[i] = i % 23 == 0 ? 0.0f : rt_float(rt, -1000.0f, 1000.0f);
  fa[1] = -0.0f;
  for (int i = 0; i < 8 * N; i++) {
    ga[i] = i % 31 == 0 ? 0.0f : rt_float(rt, -1000.0f, 1000.0f);
    da[i] = rt_double(rt, -1e6, 1e6);
  }
  for (int i = 0; i < FLAT; i++) flat[i] = rt_float(rt, -100.0f, 100.0f);
  for (int j = 0; j < 16; j++) pf[j] = rt_float(rt, -10.0f, 10.0f);
  for (int j = 0; j < 8; j++) pd[j] = rt_double(rt, -10.0, 10.0);
  for (int i = 0; i < N; i++) {
    rec[i].a = rt_float(rt, -4.0f, 4.0f);
    for (int j = 0; j < 16; j++) rec[i].v[j] = rt_float(rt, -100.0f, 100.0f);
    for (int j = 0; j < 8; j++) rec[i].w[j] = (int32_t)rt_u32(rt) >> 4;
    for (int j = 0; j < 8; j++) rec[i].d[j] = rt_double(rt, -100.0, 100.0);
  }
  memcpy(wflat, flat, FLAT * 4);
  memcpy(wrec, rec, N * sizeof *rec);
  for (int i = 0; i < N; i++) {
    const float *f = fa + 16 * i, *g = ga + 8 * i;
    const double *d = da + 8 * i;
    float g16[16], priv0[16], priv2[16];
    float *r = wf + 6 * 16 * i, *m = wm + 2 * 16 * i;
    int lid = i % 64, base = i - lid;
    for (int j = 0; j < 16; j++) g16[j] = j < 8 ? g[j] : g[15 - j];
    for (int j = 0; j < 16; j++) priv2[j] = pf[j] + g16[j];
    for (int j = 0; j < 16; j++) priv0[j] = j < 8 ? priv2[8 + j] : f[j];
    for (int j = 0; j < 16; j++) {
      float F = f[j], G = g16[j];
      r[j] = F * 2.5f + G - F / 3.0f + pf[j];
      r[16 + j] = sqrtf(fabsf(F)) + fminf(F, G) + fmaxf(F, 1.0f) + floorf(F) + ceilf(G) + truncf(F);
      r[32 + j] = fminf(fmaxf(F, -1.0f), 1.0f) + copysignf(G, F) + (F < G ? G : F) - f[0];
      r[48 + j] = (float)(int32_t)rintf(F) + (float)(rt_f32_bits(F) & 0xff);
      r[64 + j] = fa[16 * (base + 63 - lid) + j] - F;
      r[80 + j] = priv0[j] + priv2[j];
      m[j] = sinf(F) + expf(G * 0.01f);
      m[16 + j] = F + (G - F) * 0.25f + fmaf(F, G, 1.0f) + hypotf(F, G);
      float q = F / G;
      /* the sum wraps on the device: add as uint32_t here (int overflow is undefined in C) */
      wi[64 * i + j] = (int32_t)((uint32_t)(-(F > G) - 2 * (q != q) - 4 * (signbit(F) != 0)) +
                                 (uint32_t)(int32_t)F + (uint32_t)sat_i32((double)(F * 1e8f)) +
                                 (uint32_t)(int32_t)floorf(G));
      float f1 = f[j / 4] + 1.0f;
      wi[64 * i + 16 + j] = (int32_t)(rt_f32_bits(F) ^ byte_of(&f1, j % 4));
      wi[64 * i + 32 + j] = (int32_t)rt_f32_bits(rtz_i2f((int32_t)rt_f32_bits(F)));
      wi[64 * i + 48 + j] = (int32_t)rt_f32_bits(rtp_i2f((int32_t)rt_f32_bits(F) >> 3));
    }
    for (int j = 0; j < 8; j++) {
      double D = d[j];
      wd[24 * i + j] = D * 2.0 + (double)f[j] - sqrt(fabs(D)) + pd[j];
      wd[24 * i + 8 + j] = fmax(D, (double)g[j]) + floor(D) + rt_f64_of_bits(rt_f64_bits(D) ^ 1);
      wd[24 * i + 16 + j] = (double)(float)D + (double)sat_i32(D * 1e3);
    }
    for (int j = 0; j < 16; j++) wflat[4096 + 16 * i + j] = flat[3 + 16 * i + j] + 1.0f;
    for (int j = 0; j < 8; j++)
      wflat[8192 + 8 * i + j] = (float)d[j] + flat[1 + 8 * (2 * i + 1) + j];
    Rec *q = &wrec[i];
    for (int j = 0; j < 16; j++) q->v[j] = q->v[j] * q->a + f[j];
    for (int j = 0; j < 4; j++) q->w[j] = q->w[4 + j] + (int32_t)q->v[j];
    for (int j = 0; j < 8; j++) q->d[j] -= d[j];
    q->v[15] = q->a;
  }
  kcrt_buffer *dfa = rt_upload(rt, fa, 16 * N * 4), *dga = rt_upload(rt, ga, 8 * N * 4),
              *dda = rt_upload(rt, da, 8 * N * 8), *dof = rt_alloc(rt, 6 * 16 * N * 4),
              *dom = rt_alloc(rt, 2 * 16 * N * 4), *doi = rt_alloc(rt, 4 * 16 * N * 4),
              *dod = rt_alloc(rt, 3 * 8 * N * 8), *dflat = rt_upload(rt, flat, FLAT * 4),
              *drec = rt_upload(rt, rec, N * sizeof *rec);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dfa), KCRT_ARG_BUFFER(dga),   KCRT_ARG_BUFFER(dda),
                     KCRT_ARG_BUFFER(dof), KCRT_ARG_BUFFER(dom),   KCRT_ARG_BUFFER(doi),
                     KCRT_ARG_BUFFER(dod), KCRT_ARG_BUFFER(dflat), KCRT_ARG_BUFFER(drec),
                     KCRT_ARG_VALUE(pf),   KCRT_ARG_VALUE(pd)};
  rt_launch(rt, rt_kernel(rt, "floats"), KCRT_DIM1(N / 64), KCRT_DIM1(64), 0, args, 11);
  rt_download(rt, dof, of, 6 * 16 * N * 4);
  rt_download(rt, dom, om, 2 * 16 * N * 4);
  rt_download(rt, doi, oi, 4 * 16 * N * 4);
  rt_download(rt, dod, od, 3 * 8 * N * 8);
  rt_download(rt, dflat, flat, FLAT * 4);
  rt_download(rt, drec, rec, N * sizeof *rec);
  /* Sums of correctly rounded operations, each the same on both sides but for the order a
     compiler may keep; the math functions (sin, exp, hypot) within a few ulp. */
  rt_cmp_f32(rt, "float16 arithmetic, common functions, conversions, memory", of, wf,
             6 * 16 * (size_t)N, 1e-6, 1e-4);
  rt_cmp_f32(rt, "float16 sin exp mix fma hypot", om, wm, 2 * 16 * (size_t)N, 1e-5, 1e-4);
  rt_cmp_i32(rt, "float16 relations, conversions with rounding modes, as_T", oi, wi,
             4 * 16 * (size_t)N);
  rt_cmp_f64(rt, "double8", od, wd, 3 * 8 * (size_t)N, 1e-15, 1e-9);
  rt_cmp_f32(rt, "vload16/vstore16, vload8/vstore8", flat, wflat, FLAT, 0, 0);
  for (int i = 0; i < N; i++) {
    rt_cmp_f32(rt, "struct member float16", rec[i].v, wrec[i].v, 16, 1e-6, 1e-4);
    rt_cmp_i32(rt, "struct member int8", rec[i].w, wrec[i].w, 8);
    rt_cmp_f64(rt, "struct member double8", rec[i].d, wrec[i].d, 8, 0, 0);
  }
  free(fa), free(ga), free(of), free(wf), free(om), free(wm), free(flat), free(wflat);
  free(da), free(od), free(wd), free(oi), free(wi), free(rec), free(wrec);
}

static void check_unions(Rt *rt) {
  float *u = malloc(16 * N * 4), *wu = malloc(16 * N * 4), *o = malloc(2 * N * 4),
        *w = malloc(2 * N * 4);
  for (int i = 0; i < 16 * N; i++) u[i] = rt_float(rt, -100.0f, 100.0f);
  memcpy(wu, u, 16 * N * 4);
  for (int i = 0; i < N; i++) {
    float *x = wu + 16 * i;
    x[3] = rt_f32_of_bits(rt_f32_bits(x[3]) + 5);
    w[2 * i] = x[3] + x[15] + (float)(rt_f32_bits(x[15]) >> 24);
    w[2 * i + 1] = x[i & 15] * 2.0f;
  }
  kcrt_buffer *du = rt_upload(rt, u, 16 * N * 4), *dout = rt_alloc(rt, 2 * N * 4);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(du), KCRT_ARG_BUFFER(dout)};
  rt_launch(rt, rt_kernel(rt, "unions"), KCRT_DIM1(N / 64), KCRT_DIM1(64), 0, args, 2);
  rt_download(rt, du, u, 16 * N * 4);
  rt_download(rt, dout, o, 2 * N * 4);
  rt_cmp_f32(rt, "union of float16, int[16], uchar[64]", o, w, 2 * (size_t)N, 0, 0);
  rt_cmp_f32(rt, "union written back", u, wu, 16 * (size_t)N, 0, 0);
  free(u), free(wu), free(o), free(w);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_vec16");
  check_ints(&rt);
  check_floats(&rt);
  check_unions(&rt);
  return rt_finish(&rt, "%d work-items, three kernels", N);
}
