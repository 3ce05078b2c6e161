/* cuda_bf16.c — runs tests/runtime/cuda_bf16.cu (kcc's <cuda_bf16.h>) through libkcrt on random
 * and special bfloat16s, floats, doubles and integers, and compares every element with a host
 * reference written independently of the header: each exact result (a product, a sum, fma's
 * a*b+c, a float, a double, an integer) is decomposed into sign, integer magnitude and binary
 * exponent and rounded to bfloat16 by integer arithmetic in the intrinsic's mode (round_bf16),
 * as CUDA's cvt.r*.bf16 and sm_80's bf16 instructions round; every NaN is any NaN. Bit for bit,
 * except hexp, hlog and hsin (within one bfloat16 ulp: the float function's own error may
 * cross a rounding boundary). */
#include "rt_common.h"

#include <math.h>
#include <stdlib.h>

#define NO 52
#define NI 22
#define NF 4
#define NL 2

enum { RN, RZ, RD, RU };

/* sign * mag * 2^e rounded to bfloat16 in mode m. mag may be wide (__int128): the bits below
 * bfloat16's quantum decide the rounding. */
static uint16_t round_bf16(int neg, unsigned __int128 mag, int e, int m) {
  uint16_t s = neg ? 0x8000 : 0;
  if (mag == 0) return s;
  int top = 127;
  while (!((mag >> top) & 1)) top--;
  int E = top + e;                 /* value in [2^E, 2^(E+1)) */
  int q = E < -126 ? -133 : E - 7; /* the quantum's exponent */
  int shift = q - e;
  unsigned __int128 M, rem = 0, half = 0;
  if (shift <= 0)
    M = mag << -shift;
  else if (shift >= 128)
    M = 0, rem = mag, half = (unsigned __int128)1 << 127;
  else
    M = mag >> shift, rem = mag & (((unsigned __int128)1 << shift) - 1),
    half = (unsigned __int128)1 << (shift - 1);
  if (shift >= 128) rem = 1; /* far below half */
  int up = rem == 0  ? 0
           : m == RN ? rem > half || (rem == half && (M & 1))
           : m == RD ? neg
           : m == RU ? !neg
                     : 0;
  M += (unsigned)up;
  if (q == -133) return s | (uint16_t)M; /* subnormal (M == 128: the smallest normal) */
  if (M == 256) M = 128, q++;
  int field = q + 134;
  if (field >= 255) { /* overflow: infinity, or the largest finite toward zero */
    bool inf = m == RN || (m == RD && neg) || (m == RU && !neg);
    return s | (inf ? 0x7f80 : 0x7f7f);
  }
  return s | (uint16_t)(field << 7) | (uint16_t)(M & 0x7f);
}

static bool bf_nan(uint16_t h) {
  return (h & 0x7fff) > 0x7f80;
}
static float bf_value(uint16_t h);
static uint16_t of_float(float x, int m);
/* A case with a denormal argument or result, left out on a device that may flush them
 * (rt_flushes): bfloat16 arithmetic is float arithmetic there. The products the kernel forms
 * too: its fma and pair expressions multiply x, y and z in every pairing (v * w + v takes
 * x * z), `t += y; t *= z` multiplies x + y (rounded) by z, and a denormal product is flushed
 * before it is summed or rounded (up to the smallest normal, where kept). */
static bool sub_case(Rt *rt, uint16_t a, uint16_t b, uint16_t c, float f, uint16_t want) {
  float x = bf_value(a), y = bf_value(b), z = bf_value(c);
  return rt_skip_sub32(rt, x, y, z, bf_value(want)) || rt_skip_sub32(rt, f, x * y, x * z, y * z) ||
         rt_skip_sub32(rt, bf_value(of_float(x + y, RN)) * z, 0, 0, 0);
}
static float bf_value(uint16_t h) {
  return rt_f32_of_bits((uint32_t)h << 16);
}
static uint16_t of_float(float x, int m) {
  if (isnan(x)) return 0x7fff;
  if (isinf(x)) return x > 0 ? 0x7f80 : 0xff80;
  uint32_t u = rt_f32_bits(x), f = (u >> 23) & 0xff, frac = u & 0x7fffff;
  return round_bf16(u >> 31, f ? frac | 0x800000 : frac, (f ? (int)f : 1) - 150, m);
}
static uint16_t of_double(double x) {
  if (isnan(x)) return 0x7fff;
  if (isinf(x)) return x > 0 ? 0x7f80 : 0xff80;
  uint64_t u = rt_f64_bits(x), f = (u >> 52) & 0x7ff, frac = u & ((1ull << 52) - 1);
  return round_bf16((int)(u >> 63), f ? frac | (1ull << 52) : frac, (f ? (int)f : 1) - 1075, RN);
}
static uint16_t of_int(long long v, int m) {
  return v < 0 ? round_bf16(1, 0ull - (unsigned long long)v, 0, m) : round_bf16(0, v, 0, m);
}
static uint16_t R(float x) { /* a float result rounded: exact for + - * / sqrt of bfloat16s */
  return of_float(x, RN);
}

/* a bfloat16's integer significand and exponent */
static void parts(uint16_t h, unsigned *m, int *e) {
  unsigned f = (h >> 7) & 0xff, frac = h & 0x7f;
  *m = f ? frac | 0x80 : frac, *e = (f ? (int)f : 1) - 134;
}

/* fma(x, y, z) rounded once: x*y exact (16 bits), the sum exact in 128 bits when the terms
 * overlap, else the smaller one a sticky bit below the larger (rounding to odd). */
static uint16_t fma_ref(uint16_t x, uint16_t y, uint16_t z) {
  float fx = bf_value(x), fy = bf_value(y), fz = bf_value(z);
  if (!isfinite(fx) || !isfinite(fy) || !isfinite(fz) || fx == 0 || fy == 0)
    return R(fmaf(fx, fy, fz)); /* exact: specials, zero products */
  unsigned mx, my, mz;
  int ex, ey, ez;
  parts(x, &mx, &ex), parts(y, &my, &ey), parts(z, &mz, &ez);
  int sp = (x ^ y) >> 15, sz = z >> 15;
  unsigned long long mp = (unsigned long long)mx * my;
  int ep = ex + ey;
  if (mz == 0) return round_bf16(sp, mp, ep, RN);
  int tp = ep + 64 - __builtin_clzll(mp), tz = ez + 64 - __builtin_clzll(mz);
  int base = (tp > tz ? tp : tz) - 110;
  unsigned __int128 a[2];
  unsigned long long ms[2] = {mp, mz};
  int es[2] = {ep, ez};
  for (int k = 0; k < 2; k++) {
    int sh = es[k] - base;
    if (sh >= 0)
      a[k] = (unsigned __int128)ms[k] << sh;
    else if (-sh >= 64)
      a[k] = 1;
    else
      a[k] = (ms[k] >> -sh) | ((ms[k] & ((1ull << -sh) - 1)) != 0);
  }
  if (sp == sz) return round_bf16(sp, a[0] + a[1], base, RN);
  if (a[0] == a[1]) return 0; /* exact cancellation: +0 in round to nearest */
  return a[0] > a[1] ? round_bf16(sp, a[0] - a[1], base, RN)
                     : round_bf16(sz, a[1] - a[0], base, RN);
}

static uint16_t mm_ref(uint16_t x, uint16_t y, bool max, bool nan) {
  bool nx = bf_nan(x), ny = bf_nan(y);
  if ((nx && ny) || (nan && (nx || ny))) return 0x7fff;
  if (nx) return y;
  if (ny) return x;
  float a = bf_value(x), b = bf_value(y);
  if (a == b) return max ? (x & 0x8000 ? y : x) : (x & 0x8000 ? x : y);
  return (a > b) == max ? x : y;
}
static uint16_t sat_ref(uint16_t r) {
  return mm_ref(mm_ref(r, 0, true, false), 0x3f80, false, false);
}

/* float -> integer as cvt.r*i: rounded, saturated, NaN 0 */
static long long to_int(float x, int m, double lo, double hi) {
  if (isnan(x)) return 0;
  double r = m == RN ? rint(x) : m == RZ ? trunc(x) : m == RD ? floor(x) : ceil(x);
  return r < lo ? (long long)lo : r > hi ? (long long)hi : (long long)r;
}

static const uint16_t specials[16] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffff,
                                      0x0001, 0x8001, 0x007f, 0x0080, 0x7f7f, 0xff7f,
                                      0x3f80, 0xbf80, 0x4040, 0x3f00};
static const uint32_t fspecials[] = {
    0x7f800001, 0xffc00000, 0x7f800000, 0xff800000, 0x00000000, 0x80000000, 0x7f7fffff, 0x7f7f8000,
    0x7f7f7fff, 0x00000001, 0x00008000, 0x00018000, 0x80018000, 0x3f808000, 0x3f818000, 0xff7f8000};

static uint16_t rand_bf16(Rt *rt) {
  if (rt_u32(rt) & 1) return (uint16_t)rt_u32(rt);
  return of_float(rt_float(rt, -8.0f, 8.0f), RN);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_bf16");
  enum { N = 1 << 14, B = 64 };
  uint16_t *a = rt_xalloc(N * 2), *b = rt_xalloc(N * 2), *c = rt_xalloc(N * 2);
  float *f = rt_xalloc(N * 4);
  double *d = rt_xalloc(N * 8);
  int64_t *l = rt_xalloc(N * 8);
  for (size_t i = 0; i < N; i++) {
    a[i] = rand_bf16(&rt), b[i] = rand_bf16(&rt), c[i] = rand_bf16(&rt);
    if (i < 256) a[i] = specials[i % 16], b[i] = specials[i / 16];
    /* floats at, beside and between bfloat16s' rounding boundaries, and any float */
    uint32_t u = rt_u32(&rt);
    int kind = (int)(i % 4);
    f[i] = kind == 0   ? rt_f32_of_bits(u)
           : kind == 1 ? rt_f32_of_bits((u & 0xffff0000u) | 0x8000u)
           : kind == 2
               ? rt_f32_of_bits(((u & 0xffff0000u) | 0x8000u) + (uint32_t)rt_int(&rt, -2, 2))
               : rt_f32_of_bits((rt_u32(&rt) & 0x80ffffffu) |
                                ((u & 0x1f) << 23)); /* subnormal bf16s */
    if (i < sizeof fspecials / sizeof *fspecials) f[i] = rt_f32_of_bits(fspecials[i]);
    /* doubles: any, bfloat16 midpoints nudged by less than a float ulp, near overflow */
    uint64_t w = rt_u64(&rt);
    double mid = (double)rt_f32_of_bits((u & 0xffff0000u) | 0x8000u);
    d[i] = i % 3 == 0   ? rt_f64_of_bits(w) * 0x1p-900
           : i % 3 == 1 ? mid + mid * 0x1p-40 * rt_int(&rt, -1, 1)
                        : rt_f64_of_bits((w & 0x800fffffffffffffull) |
                                         ((uint64_t)rt_int(&rt, 0x370, 0x480) << 52));
    /* integers of every width, and around bfloat16 midpoints */
    int sh = rt_int(&rt, 0, 63);
    l[i] = (int64_t)(rt_u64(&rt) >> sh);
    if (i % 5 == 0)
      l[i] = (int64_t)((((uint64_t)rt_int(&rt, 0x80, 0xff) << 1) | 1) << rt_int(&rt, 0, 50));
    if (i % 2) l[i] = -l[i];
  }
  l[0] = INT64_MIN, l[1] = INT64_MAX, l[2] = INT32_MIN, l[3] = INT32_MAX, l[4] = 0;
  int n = N;
  kcrt_buffer *da = rt_upload(&rt, a, N * 2), *db = rt_upload(&rt, b, N * 2),
              *dc = rt_upload(&rt, c, N * 2), *df = rt_upload(&rt, f, N * 4),
              *dd = rt_upload(&rt, d, N * 8), *dl = rt_upload(&rt, l, N * 8),
              *dout = rt_alloc(&rt, N * NO * 2), *doi = rt_alloc(&rt, N * NI * 4),
              *dof = rt_alloc(&rt, N * NF * 4), *dol = rt_alloc(&rt, N * NL * 8);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da),   KCRT_ARG_BUFFER(db),  KCRT_ARG_BUFFER(dc),
                     KCRT_ARG_BUFFER(df),   KCRT_ARG_BUFFER(dd),  KCRT_ARG_BUFFER(dl),
                     KCRT_ARG_BUFFER(dout), KCRT_ARG_BUFFER(doi), KCRT_ARG_BUFFER(dof),
                     KCRT_ARG_BUFFER(dol),  KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "ops"), KCRT_DIM1(N / B), KCRT_DIM1(B), 0, args, 11);
  uint16_t *o = rt_xalloc(N * NO * 2), *wo = rt_xalloc(N * NO * 2);
  int32_t *oi = rt_xalloc(N * NI * 4), *wi = rt_xalloc(N * NI * 4);
  float *of = rt_xalloc(N * NF * 4), *wf = rt_xalloc(N * NF * 4);
  int64_t *ol = rt_xalloc(N * NL * 8), *wl = rt_xalloc(N * NL * 8);
  rt_download(&rt, dout, o, N * NO * 2);
  rt_download(&rt, doi, oi, N * NI * 4);
  rt_download(&rt, dof, of, N * NF * 4);
  rt_download(&rt, dol, ol, N * NL * 8);
  for (size_t i = 0; i < N; i++) {
    uint16_t X = a[i], Y = b[i], Z = c[i];
    float x = bf_value(X), y = bf_value(Y), z = bf_value(Z), g = f[i];
    int iv = (int)l[i];
    uint16_t *r = wo + i * NO;
    r[0] = R(x + y);
    r[1] = R(x - y);
    r[2] = R(x * y);
    r[3] = R(x / y);
    r[4] = fma_ref(X, Y, Z);
    r[5] = R(bf_value(R(x * y)) + z);
    r[6] = X ^ 0x8000;
    r[7] = X & 0x7fff;
    r[8] = mm_ref(X, Y, true, false);
    r[9] = mm_ref(X, Y, false, false);
    r[10] = mm_ref(X, Y, true, true);
    r[11] = mm_ref(X, Y, false, true);
    r[12] = of_float(g, RN);
    r[13] = of_float(g, RZ);
    r[14] = of_float(g, RD);
    r[15] = of_float(g, RU);
    r[16] = of_double(d[i]);
    r[17] = of_int(iv, RN);
    r[18] = of_int(iv, RZ);
    r[19] = of_int(iv, RD);
    r[20] = of_int(iv, RU);
    r[21] = of_int(l[i], RN);
    r[22] = round_bf16(0, (uint64_t)l[i], 0, RU);
    r[23] = of_int((unsigned)iv, RD);
    r[24] = of_int((short)iv, RN);
    r[25] = of_int((unsigned short)iv, RZ);
    r[26] = R(sqrtf(x));
    r[27] = R(floorf(x));
    r[28] = R(ceilf(x));
    r[29] = R(truncf(x));
    r[30] = R(rintf(x));
    r[31] = R(expf(x));
    r[32] = R(logf(x));
    r[33] = R(sinf(x));
    r[34] = R(1.0f / x);
    r[35] = sat_ref(R(x + y));
    r[36] = sat_ref(fma_ref(X, Y, Z));
    uint16_t fr = fma_ref(X, Y, Z);
    r[37] = bf_nan(fr) ? 0x7fff : fr & 0x8000 ? 0 : fr;
    /* v = (x, y), w = (z, x), v.yx: fma2 = (fma(x, z, y), fma(y, x, x)) */
    r[38] = fma_ref(X, Z, Y);
    r[39] = fma_ref(Y, X, X);
    /* cmadd(v, w, v.yx): re = fma(-y, x, fma(x, z, y)), im = fma(y, z, fma(x, x, x)) */
    r[40] = fma_ref(Y ^ 0x8000, X, fma_ref(X, Z, Y));
    r[41] = fma_ref(Y, Z, fma_ref(X, X, X));
    r[42] = R(bf_value(R(x * z)) + x);
    r[43] = R(bf_value(R(y * x)) + y);
    r[44] = R(bf_value(R(x + y)) * z);
    r[45] = of_float(g, RN);
    r[46] = of_int(iv, RN);
    r[47] = R(x + 1.0f);
    r[48] = X ^ 0x8000;
    r[49] = R(sqrtf(y));
    r[50] = X ^ 0x8000;
    r[51] = of_float(g, RN);
    int32_t *q = wi + i * NI;
    q[0] = x < y;
    q[1] = !(x == y);
    q[2] = isnan(x) != 0;
    q[3] = isinf(y) ? (y > 0 ? 1 : -1) : 0;
    q[4] = (int32_t)to_int(x, RN, INT32_MIN, INT32_MAX);
    q[5] = (int32_t)to_int(y, RZ, INT32_MIN, INT32_MAX);
    q[6] = (int32_t)to_int(x, RD, INT32_MIN, INT32_MAX);
    q[7] = (int32_t)to_int(y, RU, INT32_MIN, INT32_MAX);
    q[8] = (int16_t)to_int(x, RN, INT16_MIN, INT16_MAX);
    q[9] = (uint16_t)to_int(x, RZ, 0, UINT16_MAX);
    q[10] = (int32_t)(uint32_t)to_int(x, RD, 0, UINT32_MAX);
    q[11] = (int32_t)to_int(x, RZ, INT32_MIN, INT32_MAX);
    bool ge1 = !(x < z), ge2 = !(y < x); /* unordered >= */
    q[12] = ge1 && ge2;
    q[13] = (int32_t)((x == z ? 0xffffu : 0) | (y == x ? 0xffff0000u : 0));
    q[14] = x < y || x > y;
    q[15] = !(x < y || x > y);
    q[16] = x < y;
    q[17] = !(x == y);
    q[18] = (int8_t)to_int(x, RZ, INT8_MIN, INT8_MAX);
    q[19] = x >= y;
    q[20] = !(x <= y);
    q[21] = x <= z && y <= x;
    float *e = wf + i * NF;
    e[0] = x, e[1] = y, e[2] = y, e[3] = z;
    int64_t *u = wl + i * NL;
    u[0] = isnan(x) ? 0 : to_int(x, RN, -0x1p63, 0x1p63);
    u[1] = isnan(y) ? 0 : (y >= 0x1p64 ? -1 : (int64_t)(uint64_t)(y <= 0 ? 0 : ceil(y)));
  }
  /* the 64-bit saturations: INT64_MAX where the float reaches 2^63 */
  for (size_t i = 0; i < N; i++) {
    float x = bf_value(a[i]);
    if (!isnan(x) && rint(x) >= 0x1p63) wl[i * NL] = INT64_MAX;
  }
  static const char *const names[NO] = {"__hadd",
                                        "__hsub",
                                        "__hmul",
                                        "__hdiv",
                                        "__hfma",
                                        "x * y + z",
                                        "__hneg",
                                        "__habs",
                                        "__hmax",
                                        "__hmin",
                                        "__hmax_nan",
                                        "__hmin_nan",
                                        "__float2bfloat16",
                                        "__float2bfloat16_rz",
                                        "__float2bfloat16_rd",
                                        "__float2bfloat16_ru",
                                        "__double2bfloat16",
                                        "__int2bfloat16_rn",
                                        "__int2bfloat16_rz",
                                        "__int2bfloat16_rd",
                                        "__int2bfloat16_ru",
                                        "__ll2bfloat16_rn",
                                        "__ull2bfloat16_ru",
                                        "__uint2bfloat16_rd",
                                        "__short2bfloat16_rn",
                                        "__ushort2bfloat16_rz",
                                        "hsqrt",
                                        "hfloor",
                                        "hceil",
                                        "htrunc",
                                        "hrint",
                                        "hexp",
                                        "hlog",
                                        "hsin",
                                        "hrcp",
                                        "__hadd_sat",
                                        "__hfma_sat",
                                        "__hfma_relu",
                                        "__hfma2 .x",
                                        "__hfma2 .y",
                                        "__hcmadd .x",
                                        "__hcmadd .y",
                                        "bf162 * + .x",
                                        "bf162 * + .y",
                                        "+= *=",
                                        "bf16 = float",
                                        "bf16 = int",
                                        "++",
                                        "unary -",
                                        "h2sqrt .y",
                                        "__short_as_bfloat16",
                                        "__floats2bfloat162_rn .y"};
  for (int j = 0; j < NO; j++) {
    int tol = j == 31 || j == 32 || j == 33;
    uint32_t *g = rt_xalloc(N * 4), *e = rt_xalloc(N * 4);
    for (size_t i = 0; i < N; i++) {
      uint16_t got = o[i * NO + j], want = wo[i * NO + j];
      if (bf_nan(got) && bf_nan(want)) got = want;
      if (tol && !bf_nan(got) && !bf_nan(want)) {
        int32_t og = got & 0x8000 ? -(int32_t)(got & 0x7fff) : got;
        int32_t ow = want & 0x8000 ? -(int32_t)(want & 0x7fff) : want;
        if (abs(og - ow) <= 1) got = want;
      }
      if (got != want && sub_case(&rt, a[i], b[i], c[i], f[i], want)) got = want;
      g[i] = got, e[i] = want;
    }
    rt_cmp_u32(&rt, names[j], g, e, N);
  }
  static const char *const inames[NI] = {"__hlt",
                                         "__hneu",
                                         "__hisnan",
                                         "__hisinf",
                                         "__bfloat162int_rn",
                                         "__bfloat162int_rz",
                                         "__bfloat162int_rd",
                                         "__bfloat162int_ru",
                                         "__bfloat162short_rn",
                                         "__bfloat162ushort_rz",
                                         "__bfloat162uint_rd",
                                         "(int)bf16",
                                         "__hbgeu2",
                                         "__heq2_mask",
                                         "__hne",
                                         "__hequ",
                                         "bf16 <",
                                         "bf16 !=",
                                         "__bfloat162char_rz",
                                         "__hge",
                                         "__hgtu",
                                         "__hble2"};
  for (int j = 0; j < NI; j++) {
    int32_t *g = rt_xalloc(N * 4), *e = rt_xalloc(N * 4);
    for (size_t i = 0; i < N; i++) {
      g[i] = oi[i * NI + j], e[i] = wi[i * NI + j];
      if (g[i] != e[i] && sub_case(&rt, a[i], b[i], c[i], f[i], 0)) g[i] = e[i];
    }
    rt_cmp_i32(&rt, inames[j], g, e, N);
  }
  uint32_t *g = rt_xalloc(N * NF * 4), *e = rt_xalloc(N * NF * 4);
  for (size_t i = 0; i < N * NF; i++) {
    g[i] = isnan(of[i]) ? 0x7fc00000u : rt_f32_bits(of[i]);
    e[i] = isnan(wf[i]) ? 0x7fc00000u : rt_f32_bits(wf[i]);
  }
  rt_cmp_u32(&rt, "__bfloat162float, operator float, __high2float, __bfloat1622float2", g, e,
             N * NF);
  static const char *const lnames[NL] = {"__bfloat162ll_rn", "__bfloat162ull_ru"};
  for (int j = 0; j < NL; j++) {
    int64_t *gl = rt_xalloc(N * 8), *el = rt_xalloc(N * 8);
    for (size_t i = 0; i < N; i++) gl[i] = ol[i * NL + j], el[i] = wl[i * NL + j];
    rt_cmp_i64(&rt, lnames[j], gl, el, N);
  }
  /* atomics: 4 blocks of 64 threads; slot t % 8 of g gets 32 ones, each old value 0..31 once */
  uint16_t zero[8] = {0};
  kcrt_buffer *dg = rt_upload(&rt, zero, 16), *dg2 = rt_upload(&rt, zero, 16),
              *dsh = rt_alloc(&rt, 4 * 8 * 2), *dold = rt_alloc(&rt, 256 * 2);
  kcrt_arg aargs[] = {KCRT_ARG_BUFFER(dg), KCRT_ARG_BUFFER(dg2), KCRT_ARG_BUFFER(dsh),
                      KCRT_ARG_BUFFER(dold)};
  rt_launch(&rt, rt_kernel(&rt, "atomics"), KCRT_DIM1(4), KCRT_DIM1(64), 0, aargs, 4);
  uint16_t gg[8], gg2[8], gsh[32], gold[256];
  rt_download(&rt, dg, gg, 16);
  rt_download(&rt, dg2, gg2, 16);
  rt_download(&rt, dsh, gsh, 64);
  rt_download(&rt, dold, gold, 512);
  uint32_t ga[48], wa[48];
  for (int k = 0; k < 8; k++) ga[k] = gg[k], wa[k] = of_int(32, RN);
  for (int k = 0; k < 4; k++)
    ga[8 + 2 * k] = gg2[2 * k], wa[8 + 2 * k] = of_int(64, RN), ga[9 + 2 * k] = gg2[2 * k + 1],
               wa[9 + 2 * k] = of_int(128, RN);
  for (int k = 0; k < 32; k++) ga[16 + k] = gsh[k], wa[16 + k] = of_int(8, RN);
  rt_cmp_u32(&rt, "atomicAdd: global, pair, shared sums", ga, wa, 48);
  uint32_t seen[8] = {0}, all[8], want_all[8];
  for (int t = 0; t < 256; t++) {
    float v = bf_value(gold[t]);
    if (v >= 0 && v < 32 && v == (int)v) seen[t % 8] |= 1u << (int)v;
  }
  for (int k = 0; k < 8; k++) all[k] = seen[k], want_all[k] = 0xffffffffu;
  rt_cmp_u32(&rt, "atomicAdd: old values 0..31 once per slot", all, want_all, 8);
  rt_xfree_all();
  return rt_finish(&rt, "%d bfloat16 inputs through %d results", N, NO + NI + NF + NL);
}
