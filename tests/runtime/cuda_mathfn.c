/* cuda_mathfn.c — runs tests/runtime/cuda_mathfn.cu through libkcrt on random inputs (every
 * magnitude, subnormals, signed zeros, infinities, NaN, integers and half-integers) and checks
 * the CUDA Math API's sinpif ... llroundf and their double forms against the host's libm in
 * long double: bit for bit where the result is exact (logb, ldexp, scalbn, frexp, modf, remquo,
 * remainder, nextafter, fdim, nearbyint, lrint...), within the OpenCL bounds kcc's definitions
 * meet elsewhere (sinpi, cospi 4 ulp; rhypot, rcbrt, norm3d, rnorm3d, norm4d, rnorm4d 4 ulp);
 * ilogb(NaN) is INT_MIN, as CUDA has it. Then umin ... ullmax and device memcpy/memset (the
 * intmem kernel), and the Bessel functions against libquadmath within CUDA's documented bounds
 * (bes_ok), on arguments of every magnitude, a few ulps from the functions' zeros, and special. */
#include "rt_common.h"
#include "math_ref.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO 28

/* y >= 0 with erfc(y) = z, z in (0, 1], by bisection in long double */
static long double erfc_solve(long double z) {
  long double lo = 0, hi = 110;
  for (int i = 0; i < 200 && lo < hi; i++) {
    long double mid = (lo + hi) / 2;
    if (mid == lo || mid == hi) break;
    if (erfcl(mid) > z)
      lo = mid;
    else
      hi = mid;
  }
  return (lo + hi) / 2;
}

static long double erfinv_l(long double x) {
  if (isnan(x) || fabsl(x) > 1) return NAN;
  if (fabsl(x) == 1) return copysignl(INFINITY, x);
  if (fabsl(x) > 0.5L) return copysignl(erfc_solve(1 - fabsl(x)), x);
  /* small |x|: Newton on erf in long double (bisection would lose tiny results) */
  long double y = x * 0.886226925452758013649083741671L;
  for (int i = 0; i < 8; i++) y -= (erfl(y) - x) * 0.886226925452758013649083741671L * expl(y * y);
  return y;
}

static long double erfcinv_l(long double z) {
  if (isnan(z) || z < 0 || z > 2) return NAN;
  if (z == 0) return INFINITY;
  if (z == 2) return -INFINITY;
  if (z >= 0.5L && z <= 1.5L) return erfinv_l(1 - z);
  return z < 1 ? erfc_solve(z) : -erfc_solve(2 - z);
}

static long double erfcx_l(long double x) {
  if (isnan(x)) return NAN;
  if (x < 20) return expl(x * x) * erfcl(x);
  long double t = 1, s = 1, w = 1 / (2 * x * x);
  for (int k = 1; k <= 30; k++) t *= -(2 * k - 1) * w, s += t;
  return s / (x * 1.772453850905516027298167483341145183L);
}

static const struct {
  const char *name;
  int tol; /* ulps; 0 bit for bit; -1 a quiet NaN */
} fns[NO] = {
    {"sinpi", 4},   {"cospi", 4},   {"sincospi sin", 4}, {"sincospi cos", 4}, {"logb", 0},
    {"ldexp", 0},   {"scalbn", 0},  {"scalbln", 0},      {"frexp", 0},        {"modf", 0},
    {"modf ip", 0}, {"remquo", 0},  {"remainder", 0},    {"nextafter", 0},    {"fdim", 0},
    {"nan", -1},    {"rhypot", 4},  {"rcbrt", 4},        {"norm3d", 4},       {"rnorm3d", 4},
    {"norm4d", 4},  {"rnorm4d", 4}, {"nearbyint", 0},    {"erfinv", 4},       {"erfcinv", 4},
    {"erfcx", 4},   {"normcdf", 5}, {"normcdfinv", 5},
};

static long double reference(int j, long double x, long double y, long double u, long double v,
                             int k, int dbl) {
  int e;
  long double ip;
  switch (j) {
  case 0:
  case 2: return sinpi_l(x);
  case 1:
  case 3: return cospi_l(x);
  case 4: return dbl ? logb((double)x) : logbf((float)x);
  case 5:
  case 6: return dbl ? ldexp((double)x, k) : ldexpf((float)x, k);
  case 7: return dbl ? scalbln((double)x, k * 3L) : scalblnf((float)x, k * 3L);
  case 8: return dbl ? frexp((double)x, &e) : frexpf((float)x, &e);
  case 9: return modfl(x, &ip);
  case 10: return modfl(x, &ip), ip;
  case 11:
  case 12: return dbl ? remainder((double)x, (double)y) : remainderf((float)x, (float)y);
  case 13: return dbl ? nextafter((double)x, (double)y) : nextafterf((float)x, (float)y);
  case 14: return dbl ? fdim((double)x, (double)y) : fdimf((float)x, (float)y);
  case 16: return 1 / hypotl(x, y);
  case 17: return 1 / cbrtl(x);
  case 18: /* an infinite component makes the norm infinite, NaNs or not (as hypot) */
    if (isinf(x) || isinf(y)) return INFINITY;
    return sqrtl(2 * x * x + y * y);
  case 19:
    if (isinf(x) || isinf(y)) return 0;
    return 1 / sqrtl(2 * x * x + y * y);
  case 20:
    if (isinf(x) || isinf(y)) return INFINITY;
    return sqrtl(2 * x * x + 2 * y * y);
  case 21:
    if (isinf(x) || isinf(y)) return 0;
    return 1 / sqrtl(2 * x * x + 2 * y * y);
  case 22: return rintl(x);
  case 23: return erfinv_l(u);
  case 24: return erfcinv_l(v);
  case 25: return erfcx_l(x);
  case 26: return 0.5L * erfcl(-x / 1.414213562373095048801688724209698079L);
  case 27: /* the kernel's v / 2, rounded to the type (subnormals lose bits) */
    return -1.414213562373095048801688724209698079L *
           erfcinv_l(2 * (dbl ? (long double)(double)(v / 2) : (long double)(float)(v / 2)));
  default: return NAN;
  }
}

static long double rand_value(Rt *rt, int dbl) {
  static const long double special[] = {0.0L, -0.0L, INFINITY, -INFINITY, NAN,   1,
                                        -1,   0.5L,  -1.5L,    2,         1e30L, -3e-30L};
  int kind = rt_int(rt, 0, 11);
  if (kind == 0) return special[rt_int(rt, 0, (int)(sizeof special / sizeof *special) - 1)];
  if (kind == 1) return (dbl ? DBL_TRUE_MIN : FLT_TRUE_MIN) * rt_int(rt, -9, 9);
  if (kind <= 3) return rt_int(rt, -40, 40) * 0.25L;
  int e = kind <= 9 ? rt_int(rt, -30, 30) : dbl ? rt_int(rt, -1074, 1023) : rt_int(rt, -149, 127);
  long double v = ldexpl(rt_double(rt, 1, 2), e) * (rt_int(rt, 0, 1) ? 1 : -1);
  return dbl ? (double)v : (float)v;
}

static void run(Rt *rt, int n, int dbl) {
  size_t sz = dbl ? 8 : 4;
  long double *x = rt_xalloc(n * sizeof *x), *y = rt_xalloc(n * sizeof *y),
              *u = rt_xalloc(n * sizeof *u), *v = rt_xalloc(n * sizeof *v);
  char *hu = rt_xalloc(2 * n * sz), *hv = hu + n * sz; /* u then v: one buffer */
  int *k = rt_xalloc(n * sizeof *k), *oi = rt_xalloc(3 * n * sizeof *oi), bad = 0;
  char *hx = rt_xalloc(n * sz), *hy = rt_xalloc(n * sz), *o = rt_xalloc(NO * n * sz);
  long long *ol = rt_xalloc(4 * n * sizeof *ol);
  for (int i = 0; i < n; i++) {
    x[i] = rand_value(rt, dbl), y[i] = rand_value(rt, dbl);
    k[i] = rt_int(rt, 0, 9) ? rt_int(rt, -40, 40) : rt_int(rt, 0, 1) ? 1500 : -1500;
    /* u in [-1, 1] (erfinv), v in [0, 2] (erfcinv; normcdfinv of v / 2): uniform, near the
       ends, tiny, the ends themselves */
    int kind = rt_int(rt, 0, 5);
    long double w = kind == 0   ? ldexpl(rt_double(rt, 1, 2), -rt_int(rt, 1, dbl ? 1074 : 149))
                    : kind == 1 ? rt_int(rt, 0, 2)
                                : rt_double(rt, 0, 1);
    u[i] = rt_int(rt, 0, 1) ? (kind == 0 ? 1 - w : w) : -(kind == 0 ? 1 - w : w);
    v[i] = kind == 1 ? w : rt_int(rt, 0, 1) ? w : 2 - w;
    if (dbl) {
      ((double *)hx)[i] = (double)x[i], ((double *)hy)[i] = (double)y[i];
      ((double *)hu)[i] = (double)u[i], ((double *)hv)[i] = (double)v[i];
    } else {
      ((float *)hx)[i] = (float)x[i], ((float *)hy)[i] = (float)y[i];
      ((float *)hu)[i] = (float)u[i], ((float *)hv)[i] = (float)v[i];
    }
    u[i] = dbl ? ((double *)hu)[i] : ((float *)hu)[i];
    v[i] = dbl ? ((double *)hv)[i] : ((float *)hv)[i];
  }
  kcrt_buffer *dx = rt_upload(rt, hx, n * sz), *dy = rt_upload(rt, hy, n * sz),
              *duv = rt_upload(rt, hu, 2 * n * sz), *dk = rt_upload(rt, k, n * 4),
              *d_o = rt_alloc(rt, NO * n * sz), *doi = rt_alloc(rt, 3 * n * 4),
              *dol = rt_alloc(rt, 4 * n * 8);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dx),  KCRT_ARG_BUFFER(dy),  KCRT_ARG_BUFFER(duv),
                     KCRT_ARG_BUFFER(dk),  KCRT_ARG_BUFFER(d_o), KCRT_ARG_BUFFER(doi),
                     KCRT_ARG_BUFFER(dol), KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, dbl ? "mathfn_double" : "mathfn_float"), KCRT_DIM1((unsigned)n / 64),
            KCRT_DIM1(64), 0, args, 8);
  rt_download(rt, d_o, o, NO * n * sz);
  rt_download(rt, doi, oi, 3 * n * 4);
  rt_download(rt, dol, ol, 4 * n * 8);
  for (int j = 0; j < NO; j++)
    for (int i = 0; i < n; i++) {
      long double got = dbl ? ((double *)o)[j * n + i] : ((float *)o)[j * n + i];
      long double want = reference(j, x[i], y[i], u[i], v[i], k[i], dbl);
      bool ok;
      if (fns[j].tol < 0)
        ok = dbl ? isnan((double)got) && (rt_f64_bits((double)got) >> 51 & 1)
                 : isnan((float)got) && (rt_f32_bits((float)got) >> 22 & 1);
      else if ((j == 11 || j == 12) && want == 0)
        ok = got == 0 && signbit(got) == signbit(x[i]); /* IEEE 754: x's sign */
      else if (fns[j].tol == 0) {
        long double w = dbl ? (long double)(double)want : (long double)(float)want;
        ok = isnan(w) ? isnan(got) : got == w && signbit(got) == signbit(w);
      } else
        ok = ulps(got, want, dbl) <= fns[j].tol;
      /* normcdfinv's argument is the kernel's v / 2, which may be a denormal where v is not */
      if (!ok && (dbl ? rt_skip_sub64(rt, (double)x[i], (double)y[i], (double)u[i], (double)want) ||
                            rt_skip_sub64(rt, (double)v[i], (double)v[i] / 2, 0, 0)
                      : rt_skip_sub32(rt, (float)x[i], (float)y[i], (float)u[i], (float)want) ||
                            rt_skip_sub32(rt, (float)v[i], (float)v[i] / 2, 0, 0)))
        continue;
      if (!ok && bad++ < 12)
        rt_fail(rt, "%s %s(%La, %La, %d): got %La, want %La", dbl ? "double" : "float", fns[j].name,
                x[i], y[i], k[i], got, want);
    }
  for (int i = 0; i < n; i++) {
    long double a = x[i], b = y[i];
    int il = isnan(a) ? INT_MIN : dbl ? ilogb((double)a) : ilogbf((float)a), e = 0, q = 0;
    if (isfinite(a)) (void)(dbl ? frexp((double)a, &e) : frexpf((float)a, &e));
    (void)(dbl ? remquo((double)a, (double)b, &q) : remquof((float)a, (float)b, &q));
    bool defined = isfinite(a) && !isnan(b) && b != 0 && q != 0;
    long double r = fabsl(a) > 1e15L || isnan(a) ? 0 : a;
    long long want_l[4] = {(long long)rintl(r), (long long)rintl(r), (long long)roundl(r),
                           (long long)roundl(r)};
    bool ok = oi[i] == il && (!isfinite(a) || oi[n + i] == e) &&
              (!defined || ((oi[2 * n + i] < 0) == (q < 0) && (oi[2 * n + i] - q) % 8 == 0));
    for (int c = 0; c < 4; c++) ok = ok && ol[c * n + i] == want_l[c];
    /* a denormal argument, flushed where the device may (frexp's and remquo's too) */
    if (!ok && (dbl ? rt_skip_sub64(rt, (double)a, (double)b, 0, 0)
                    : rt_skip_sub32(rt, (float)a, (float)b, 0, 0)))
      continue;
    if (!ok && bad++ < 12)
      rt_fail(rt, "%s ints (%La, %La): ilogb %d (%d), frexp %d (%d), remquo %d (%d), lrint %lld",
              dbl ? "double" : "float", a, b, oi[i], il, oi[n + i], e, oi[2 * n + i], q, ol[i]);
  }
}

/* umin ... ullmax against C's comparisons, and intmem's memcpy/memset regions against the same
 * copies done here (cuda_mathfn.cu's intmem says which bytes each writes). */
static void run_intmem(Rt *rt, int n) {
  uint32_t *ua = rt_xalloc(2 * n * 4), *uo = rt_xalloc(2 * n * 4);
  int64_t *la = rt_xalloc(2 * n * 8), *lo = rt_xalloc(6 * n * 8);
  unsigned char *src = rt_xalloc(64 * n), *o = rt_xalloc(160 * n), *w = rt_xalloc(160 * n);
  int *z = rt_xalloc(8 * n * sizeof *z), bad = 0;
  for (int i = 0; i < 2 * n; i++) {
    ua[i] = rt_int(rt, 0, 3) ? rt_u32(rt) : (uint32_t)rt_int(rt, 0, 3);
    la[i] = rt_int(rt, 0, 3) ? (int64_t)rt_u64(rt) : rt_int(rt, -2, 2);
  }
  for (int i = 0; i < 64 * n; i++) src[i] = (unsigned char)rt_u32(rt);
  for (int i = 0; i < n; i++) {
    int *q = z + 8 * i;
    q[0] = rt_int(rt, 0, 15), q[1] = rt_int(rt, 0, 15), q[2] = rt_int(rt, 0, 48);
    q[3] = rt_int(rt, 0, 63), q[4] = rt_int(rt, -300, 300), q[5] = rt_int(rt, 0, 64 - q[3]);
    q[6] = rt_int(rt, 0, 48), q[7] = rt_int(rt, 0, 48);
  }
  kcrt_buffer *dua = rt_upload(rt, ua, 2 * n * 4), *dla = rt_upload(rt, la, 2 * n * 8),
              *duo = rt_alloc(rt, 2 * n * 4), *dlo = rt_alloc(rt, 6 * n * 8),
              *dsrc = rt_upload(rt, src, 64 * n), *d_o = rt_alloc(rt, 160 * n),
              *dz = rt_upload(rt, z, 8 * n * sizeof *z);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dua), KCRT_ARG_BUFFER(dla),  KCRT_ARG_BUFFER(duo),
                     KCRT_ARG_BUFFER(dlo), KCRT_ARG_BUFFER(dsrc), KCRT_ARG_BUFFER(d_o),
                     KCRT_ARG_BUFFER(dz),  KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, "intmem"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args, 8);
  rt_download(rt, duo, uo, 2 * n * 4);
  rt_download(rt, dlo, lo, 6 * n * 8);
  rt_download(rt, d_o, o, 160 * n);
  for (int i = 0; i < n; i++) {
    uint32_t a = ua[2 * i], b = ua[2 * i + 1];
    int64_t c = la[2 * i], d = la[2 * i + 1];
    uint64_t uc = (uint64_t)c, ud = (uint64_t)d;
    int64_t want[4] = {c < d ? c : d, c < d ? d : c, (int64_t)(uc < ud ? uc : ud),
                       (int64_t)(uc < ud ? ud : uc)};
    bool ok = uo[2 * i] == (a < b ? a : b) && uo[2 * i + 1] == (a < b ? b : a);
    for (int j = 0; j < 4; j++) ok = ok && lo[6 * i + j] == want[j];
    if (!ok && bad++ < 12)
      rt_fail(rt, "umin/umax (%u, %u) = %u, %u; llmin... (%lld, %lld) = %lld %lld %lld %lld", a, b,
              uo[2 * i], uo[2 * i + 1], (long long)c, (long long)d, (long long)lo[6 * i],
              (long long)lo[6 * i + 1], (long long)lo[6 * i + 2], (long long)lo[6 * i + 3]);
    /* the same copies on the host */
    const unsigned char *s = src + 64 * i;
    unsigned char *r = w + 160 * i, t[64] = {0};
    const int *q = z + 8 * i;
    memset(r, 0xa5, 64);
    memcpy(r + q[0], s + q[1], (size_t)q[2]);
    memset(r + q[3], q[4], (size_t)q[5]);
    memcpy(r + 64, s + 48, 16);
    r[64] ^= 1; /* w[0] ^= 1u: the low byte, little-endian */
    memcpy(r + 81, s + 3, 13);
    memcpy(t + q[6], s + q[7], 16);
    memcpy(r + 96, t + 8, 32);
    memset(r + 128, q[4] + 1, 8);
    r[136] = 1;
    unsigned char ia[12];
    memset(ia, q[4], sizeof ia);
    memcpy(r + 137, ia, 7);
    memcpy(r + 94, s + 4, 2);
    memcpy(r + 144, s + 32, 16);
    r[148] += 1; /* v4.y += 1u: y's low byte, carrying */
    for (int c = 148; c < 151 && r[c] == 0; c++) r[c + 1] += 1;
    for (int j = 0; j < 160; j++) {
      if (j == 80) continue; /* not written */
      if (o[160 * i + j] != r[j] && bad++ < 12)
        rt_fail(rt, "intmem thread %d byte %d: got %#x, want %#x (sizes %d %d %d %d %d %d %d %d)",
                i, j, o[160 * i + j], r[j], q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]);
    }
  }
}

/* The Bessel functions' references: libquadmath's j0q ... ynq where the compiler has
 * __float128 (tests/runtime.cmake), whose absolute error (1e-34) leaves near-zero values their
 * relative accuracy; glibc's long double forms elsewhere. I0 and I1 are their ascending series,
 * every term positive, in the same type. */
#ifdef KCC_HAVE_QUADMATH
#include <quadmath.h>
typedef __float128 bes_t;
#define BES(f) f##q
#else
typedef long double bes_t;
#define BES(f) f##l
#endif

static bes_t bes_i(bes_t x, int nu) {
  bes_t q = x * x / 4, t = nu ? x / 2 : 1, s = t;
  for (int k = 1; k < 3000 && t > s * (bes_t)1e-40; k++) s += t *= q / ((bes_t)k * (k + nu));
  return s;
}

/* Zeros of J0, J1, Y0, Y1 (A&S table 9.5), where a relative bound is hardest to meet. */
static const long double bes_zeros[] = {
    2.404825557695772768621631879326L, 5.520078110286310649596604112813L,
    3.831705970207512315614435886308L, 7.015586669815618753537049981476L,
    0.893576966279167521584887575546L, 3.957678419314857868375677659L,
    7.086051060301772697623624L,       2.197141326031017035149033916L,
    5.429681040794135132772005L,       24.35247153074930273705794476L};

static long double bes_arg(Rt *rt, int dbl) {
  static const long double special[] = {0.0L, -0.0L, INFINITY, -INFINITY, NAN, 1,
                                        -1,   8,     -8,       25,        0.5L};
  int kind = rt_int(rt, 0, 9);
  long double v;
  if (kind == 0) return special[rt_int(rt, 0, (int)(sizeof special / sizeof *special) - 1)];
  if (kind == 1) { /* a few ulps from a zero */
    long double z = bes_zeros[rt_int(rt, 0, (int)(sizeof bes_zeros / sizeof *bes_zeros) - 1)];
    int steps = rt_int(rt, -4, 4);
    if (dbl) {
      double d = (double)z;
      for (; steps; steps += steps < 0 ? 1 : -1) d = nextafter(d, steps < 0 ? 0 : INFINITY);
      return d;
    }
    float f = (float)z;
    for (; steps; steps += steps < 0 ? 1 : -1) f = nextafterf(f, steps < 0 ? 0 : INFINITY);
    return f;
  }
  if (kind <= 4)
    v = rt_double(rt, -8, 8);
  else if (kind <= 6)
    v = rt_double(rt, 0, 30);
  else if (kind <= 8)
    v = ldexpl(rt_double(rt, 1, 2), rt_int(rt, -30, 30)) * (rt_int(rt, 0, 1) ? 1 : -1);
  else /* huge or tiny */
    v = ldexpl(rt_double(rt, 1, 2), rt_int(rt, 0, 1) ? rt_int(rt, 30, dbl ? 1023 : 127)
                                                     : rt_int(rt, dbl ? -1074 : -149, -30));
  return dbl ? (long double)(double)v : (long double)(float)v;
}

/* CUDA's bounds (Programming Guide, Mathematical Functions): j0 j1 y0 y1 7 ulp in double and 9
 * in float for |x| < 8, else 5e-12 and 2.2e-6 absolute; jn 5e-12 and 2.2e-6 absolute; yn 5e-12
 * absolute for x > 1.5n in double, float's ceil(2 + 2.5n) ulp for x < n and 2.2e-6 absolute
 * beyond (kcc holds double's yn to float's form of bound: the ulps below n, 5e-12 absolute, or
 * relative where |yn| > 1, from n on, where yn has zeros); cyl_bessel_i0 and _i1 6 ulp. n < 0 is
 * NaN for jn and yn, as in CUDA. */
/* The largest errors in ulps where the bound is in ulps (float, double; j0 ... y1, yn, I0 and
 * I1), reported. */
static double bes_worst[2][3];

/* Whether `got` is within CUDA's bound; *slot is the bes_worst column its ulps count in (-1:
 * none), counted by the caller once the case is not one left out for a flushed denormal. */
static bool bes_ok(int j, long double got, long double want, long double x, int n, int dbl,
                   int *slot) {
  *slot = -1;
  double abs_bound = dbl ? 5e-12 : 2.2e-6, tmax = dbl ? DBL_MAX : FLT_MAX;
  if ((j == 4 || j == 5) && n < 0) return isnan(got);
  if (isnan(want)) return isnan(got);
  if (want == 0 && got == 0) return true; /* zeros' signs are not checked */
  long double w = dbl ? (long double)(double)want : (long double)(float)want;
  if (isinf(w)) return got == w || (signbit(got) == signbit(w) && fabsl(got) > tmax / 4);
  if (isnan(got) || isinf(got)) return false;
  long double err = fabsl(got - want);
  double ul = ulps(got, want, dbl);
  switch (j) {
  case 0:
  case 1:
  case 2:
  case 3:
    if (!(fabsl(x) < 8)) return err <= abs_bound;
    *slot = 0;
    return ul <= (dbl ? 7 : 9);
  case 4: return err <= abs_bound;
  case 5:
    if (x >= n) return err <= abs_bound * (fabsl(want) > 1 ? fabsl(want) : 1);
    *slot = 1;
    return ul <= ceil(2 + 2.5 * n);
  default: *slot = 2; return ul <= 6;
  }
}

static void run_bessel(Rt *rt, int n, int dbl) {
  size_t sz = dbl ? 8 : 4;
  long double *x = rt_xalloc(n * sizeof *x);
  int *k = rt_xalloc(n * sizeof *k), bad = 0;
  char *hx = rt_xalloc(n * sz), *o = rt_xalloc(8 * n * sz);
  for (int i = 0; i < n; i++) {
    x[i] = bes_arg(rt, dbl);
    k[i] = rt_int(rt, 0, 3) ? rt_int(rt, 0, 8) : rt_int(rt, -3, 130);
    if (dbl)
      ((double *)hx)[i] = (double)x[i];
    else
      ((float *)hx)[i] = (float)x[i];
  }
  kcrt_buffer *dx = rt_upload(rt, hx, n * sz), *dk = rt_upload(rt, k, n * 4),
              *d_o = rt_alloc(rt, 8 * n * sz);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dx), KCRT_ARG_BUFFER(dk), KCRT_ARG_BUFFER(d_o),
                     KCRT_ARG_VALUE(n)};
  static const char *const kernels[8] = {"j0", "j1", "y0", "y1", "jn", "yn", "i0", "i1"};
  for (int j = 0; j < 8; j++) {
    char name[32];
    snprintf(name, sizeof name, "bessel_%s_%s", kernels[j], dbl ? "double" : "float");
    rt_launch(rt, rt_kernel(rt, name), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args, 4);
  }
  rt_download(rt, d_o, o, 8 * n * sz);
  static const char *const names[8] = {
      "j0", "j1", "y0", "y1", "jn", "yn", "cyl_bessel_i0", "cyl_bessel_i1"};
  for (int i = 0; i < n; i++) {
    bes_t a = (bes_t)x[i], ax = a < 0 ? -a : a;
    int m = k[i];
    bes_t want[8] = {BES(j0)(a),
                     BES(j1)(a),
                     BES(y0)(a),
                     BES(y1)(a),
                     m < 0 ? (bes_t)NAN : BES(jn)(m, a),
                     m < 0 ? (bes_t)NAN : BES(yn)(m, a),
                     isnan(x[i]) ? a : bes_i(ax, 0),
                     isnan(x[i]) ? a : bes_i(ax, 1)};
    if (isinf(x[i])) want[6] = want[7] = INFINITY; /* the series of an infinity */
    if (x[i] < 0) want[7] = -want[7];
    for (int j = 0; j < 8; j++) {
      long double got = dbl ? ((double *)o)[j * n + i] : ((float *)o)[j * n + i];
      long double w = (long double)want[j];
      int slot;
      bool ok = bes_ok(j, got, w, x[i], m, dbl, &slot);
      if (!ok && (dbl ? rt_skip_sub64(rt, (double)x[i], 0, 0, (double)w)
                      : rt_skip_sub32(rt, (float)x[i], 0, 0, (float)w)))
        continue;
      double ul = ulps(got, w, dbl);
      if (slot >= 0 && ul > bes_worst[dbl][slot]) bes_worst[dbl][slot] = ul;
      if (ok) continue;
      if (bad++ < 12)
        rt_fail(rt, "%s %s(%d, %La): got %La, want %La (%.2f ulp)", dbl ? "double" : "float",
                names[j], m, x[i], got, w, ulps(got, w, dbl));
    }
  }
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_mathfn");
  int n = rt_int(&rt, 256, 2048) & ~63;
  run(&rt, n, 0);
  run(&rt, n, 1);
  run_intmem(&rt, n);
  run_bessel(&rt, n, 0);
  run_bessel(&rt, n, 1);
  rt_xfree_all();
  return rt_finish(&rt,
                   "%d floats and %d doubles through %d functions; %d threads' integer "
                   "minima and memcpy/memset; %d floats and doubles through 8 Bessel functions "
                   "(worst ulps: float %.2f %.2f %.2f, double %.2f %.2f %.2f in j0-y1 below 8, "
                   "yn below n, I0 and I1)",
                   n, n, NO + 4, n, n, bes_worst[0][0], bes_worst[0][1], bes_worst[0][2],
                   bes_worst[1][0], bes_worst[1][1], bes_worst[1][2]);
}
