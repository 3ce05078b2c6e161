/* cl_mathfn.c — runs tests/runtime/cl_mathfn.cl through libkcrt on fresh random inputs (every
 * magnitude, subnormals, zeros of both signs, infinities, NaN, integers and half-integers,
 * remainders' ties) and checks every component of OpenCL C's sinpi ... lgamma_r, pown, rootn,
 * frexp, remquo, fast_length... against the host's libm computed in long double, within the
 * specification's ulp bounds (OpenCL C 2.0 §7.4: sinpi, cospi, sincos 4 ulp; asinpi, acospi,
 * atanpi 5; tanpi, atan2pi 6; pown, rootn 16; logb, ldexp, remainder, remquo, nextafter, fdim,
 * maxmag, minmag, frexp, modf, fract exact), the special values the specification defines
 * (ilogb(0) = FP_ILOGB0, ilogb(NaN) = FP_ILOGBNAN, signed zeros of sinpi at integers...) bit for
 * bit. */
#include "rt_common.h"
#include "math_ref.h"

#include <fenv.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NF 29 /* float results per element (the kernel's of[j]) */
#define NI 6  /* int results */

static long double rootn_l(long double x, int n) {
  if (n == 0 || (x < 0 && !(n & 1))) return NAN;
  long double r = powl(fabsl(x), 1.0L / n);
  return n & 1 ? copysignl(r, x) : r;
}

static long double mag(long double x, long double y, int max) {
  long double ax = fabsl(x), ay = fabsl(y);
  if (ax != ay && !isnan(x) && !isnan(y)) return (ax > ay) == max ? x : y;
  return max ? fmaxl(x, y) : fminl(x, y);
}

static long double fract_l(long double x, int dbl) {
  if (isnan(x) || x == 0) return x;
  if (isinf(x)) return copysignl(0, x);
  long double below1 = dbl ? 0x1.fffffffffffffp-1L : 0x1.fffffep-1L;
  /* One subtraction in the result's type is the correctly rounded x - floor(x) (x + 1 for a
     small negative x needs more bits than long double has: rounding twice would be wrong). */
  long double f = dbl ? (long double)((double)x - floor((double)x))
                      : (long double)((float)x - floorf((float)x));
  return f < below1 ? f : below1;
}

/* The sign lgamma_r reports, where it is defined: finite non-integers and zeros. */
static int gamma_sign_known(long double x) {
  return isfinite(x) && (x == 0 || floorl(x) != x);
}

typedef struct {
  const char *name;
  double tol; /* ulps; 0: bit for bit (a NaN for a NaN) */
} Fn;

static const Fn fns[NF] = {
    {"sinpi", 4},          {"cospi", 4},         {"tanpi", 6},      {"asinpi", 5},
    {"acospi", 5},         {"atanpi", 5},        {"atan2pi", 6},    {"logb", 0},
    {"remainder", 0},      {"nextafter", 0},     {"fdim", 0},       {"maxmag", 0},
    {"minmag", 0},         {"ldexp", 0},         {"pown", 16},      {"rootn", 16},
    {"frexp", 0},          {"modf", 0},          {"modf iptr", 0},  {"fract", 0},
    {"fract iptr", 0},     {"sincos sin", 4},    {"sincos cos", 4}, {"remquo", 0},
    {"lgamma_r", -1},      {"ldexp(v, int)", 0}, {"nan", -2},       {"frexp private", 0},
    {"remquo private", 0},
};

/* The reference of result j for element (x, y, k); ks is the work-item's k.s1. */
static long double reference(int j, long double x, long double y, int k, int ks, int dbl) {
  switch (j) {
  case 0: return sinpi_l(x);
  case 1: return cospi_l(x);
  case 2: return sinpi_l(x) / cospi_l(x);
  case 3: return asinl(x) / PI_L;
  case 4: return acosl(x) / PI_L;
  case 5: return atanl(x) / PI_L;
  case 6: return atan2l(x, y) / PI_L;
  case 7: return dbl ? logb((double)x) : logbf((float)x);
  case 8:
  case 23:
  case 28: return dbl ? remainder((double)x, (double)y) : remainderf((float)x, (float)y);
  case 9: return dbl ? nextafter((double)x, (double)y) : nextafterf((float)x, (float)y);
  case 10: return dbl ? fdim((double)x, (double)y) : fdimf((float)x, (float)y);
  case 11: return mag(x, y, 1);
  case 12: return mag(x, y, 0);
  case 13: return dbl ? ldexp((double)x, k) : ldexpf((float)x, k);
  case 14: return powl(x, k);
  case 15: return rootn_l(x, k);
  case 16:
  case 27: {
    int e;
    return dbl ? frexp((double)x, &e) : frexpf((float)x, &e);
  }
  case 17: return modfl(x, &y);
  case 18: return modfl(x, &y), y;
  case 19: return fract_l(x, dbl);
  case 20: return floorl(x);
  case 21: return sinl(x);
  case 22: return cosl(x);
  case 24: return lgammal(x);
  case 25: return dbl ? ldexp((double)x, ks) : ldexpf((float)x, ks);
  default: return NAN;
  }
}

static void check(Rt *rt, int j, long double got, long double x, long double y, int k, int ks,
                  int dbl, int *bad) {
  const Fn *f = &fns[j];
  long double want = reference(j, x, y, k, ks, dbl);
  bool ok;
  if (f->tol == -2) { /* nan(code): a quiet NaN */
    ok = dbl ? isnan((double)got) && (rt_f64_bits((double)got) >> 51 & 1)
             : isnan((float)got) && (rt_f32_bits((float)got) >> 22 & 1);
  } else if (f->tol == -1) { /* lgamma's accuracy is the device's own lgamma (no ulp bound;
                                 huge arguments may overflow) */
    ok = fabsl(x) > 0x1p100L ||
         (isnan(want)   ? isnan(got)
          : isinf(want) ? got == want
                        : fabsl(got - want) <= (dbl ? 1e-9L : 1e-3L) * (1 + fabsl(want)));
  } else if (want == 0 && (j == 11 || j == 12) && x == 0 && y == 0) {
    ok = got == 0; /* maxmag, minmag of two zeros: fmax's and fmin's either zero */
  } else if (want == 0 && (j == 8 || j == 23 || j == 28)) {
    ok = got == 0 && signbit(got) == signbit(x); /* IEEE 754: a zero remainder has x's sign */
  } else if (f->tol == 0) {
    long double w = dbl ? (long double)(double)want : (long double)(float)want;
    ok = isnan(w) ? isnan(got) : got == w && signbit(got) == signbit(w);
  } else {
    ok = ulps(got, want, dbl) <= f->tol;
  }
  if (!ok && (dbl ? rt_skip_sub64(rt, (double)x, (double)y, 0, (double)want)
                  : rt_skip_sub32(rt, (float)x, (float)y, 0, (float)want)))
    return;
  if (!ok && (*bad)++ < 12)
    rt_fail(rt, "%s %s(%La, %La, %d): got %La, want %La", dbl ? "double" : "float", f->name, x, y,
            k, got, want);
}

static void check_ints(Rt *rt, const int32_t *oi, int n, int w, const long double *x,
                       const long double *y, const int *k, int dbl, int *bad) {
  for (int e = 0; e < n * w; e++) {
    int i = e / w, c = e % w;
    long double a = x[e], b = y[e];
    int il = isnan(a) ? INT_MAX : dbl ? ilogb((double)a) : ilogbf((float)a);
    int ex = 0, q = 0;
    if (isfinite(a)) (void)(dbl ? frexp((double)a, &ex) : frexpf((float)a, &ex));
    long double rem = dbl ? remquo((double)a, (double)b, &q) : remquof((float)a, (float)b, &q);
    int got[NI], want[NI] = {il, ex, q, 0, ex, q};
    for (int r = 0; r < NI; r++) got[r] = oi[(r * n + i) * w + c];
    bool ok = got[0] == want[0] && (!isfinite(a) || (got[1] == ex && got[4] == ex));
    /* remquo: the quotient's sign and its low 3 bits (all libm promises) */
    for (int r = 2; r <= 5; r += 3) {
      bool defined = isfinite(a) && !isnan(b) && b != 0 && q != 0;
      if (defined && ((got[r] < 0) != (q < 0) || (got[r] - q) % 8 != 0)) ok = false;
    }
    if (gamma_sign_known(a)) {
      int s = a == 0 ? (signbit(a) ? -1 : 1) : (a > 0 || fmodl(floorl(a), 2) == 0) ? 1 : -1;
      if (got[3] != s) ok = false;
    }
    /* a denormal argument or remainder, flushed where the device may (which changes frexp's
       and remquo's results too) */
    if (!ok && (dbl ? rt_skip_sub64(rt, (double)a, (double)b, (double)rem, 0)
                    : rt_skip_sub32(rt, (float)a, (float)b, (float)rem, 0)))
      continue;
    if (!ok && (*bad)++ < 12)
      rt_fail(rt,
              "%s ints (%La, %La): ilogb %d (want %d), frexp exp %d/%d (%d), remquo %d/%d (%d), "
              "lgamma_r sign %d",
              dbl ? "double" : "float", a, b, got[0], want[0], got[1], got[4], ex, got[2], got[5],
              q, got[3]);
  }
  (void)k;
}

/* A random value of the type: specials, small integers and half-integers, values in [-1, 1],
 * every magnitude (subnormals included). */
static long double rand_value(Rt *rt, int dbl) {
  static const long double special[] = {0.0L, -0.0L, INFINITY, -INFINITY, NAN,   1,
                                        -1,   0.5L,  -0.5L,    1.5L,      -2.5L, 2,
                                        -3,   0.25L, -0.75L,   1e30L,     -7e18L};
  int kind = rt_int(rt, 0, 15);
  if (kind == 0) return special[rt_int(rt, 0, (int)(sizeof special / sizeof *special) - 1)];
  if (kind == 1) { /* the smallest and largest of the type */
    long double v = rt_int(rt, 0, 3) == 0   ? (dbl ? DBL_TRUE_MIN : FLT_TRUE_MIN) * rt_int(rt, 1, 9)
                    : rt_int(rt, 0, 1) == 0 ? (dbl ? DBL_MIN : FLT_MIN)
                                            : (dbl ? DBL_MAX : FLT_MAX);
    return rt_int(rt, 0, 1) ? v : -v;
  }
  if (kind <= 3) return rt_int(rt, -40, 40) * 0.25L;
  if (kind <= 6) return rt_double(rt, -1, 1);
  int e = kind <= 12 ? rt_int(rt, -30, 30) : dbl ? rt_int(rt, -1074, 1023) : rt_int(rt, -149, 127);
  long double v = ldexpl(rt_double(rt, 1, 2), e) * (rt_int(rt, 0, 1) ? 1 : -1);
  return dbl ? (double)v : (float)v;
}

static int rand_k(Rt *rt) {
  int kind = rt_int(rt, 0, 9);
  if (kind == 0) {
    static const int big[] = {INT_MAX, INT_MIN, 200, -200, 300, -300, 1100, -1100, 2200, -2200};
    return big[rt_int(rt, 0, 9)];
  }
  return rt_int(rt, -40, 40);
}

/* x, y, k for n elements; a fraction of the pairs are remainder's ties (x = (q + 1/2) y). */
static void inputs(Rt *rt, int n, int dbl, long double *x, long double *y, int *k) {
  for (int e = 0; e < n; e++) {
    x[e] = rand_value(rt, dbl);
    y[e] = rand_value(rt, dbl);
    k[e] = rand_k(rt);
    if (rt_int(rt, 0, 9) == 0) {
      y[e] = ldexpl(rt_int(rt, 1, 64), rt_int(rt, -20, 20));
      x[e] = (rt_int(rt, -300, 300) + 0.5L) * y[e];
    }
  }
}

static void run_float(Rt *rt, int n) {
  int ne = 4 * n, bad = 0;
  long double *x = rt_xalloc(ne * sizeof *x), *y = rt_xalloc(ne * sizeof *y);
  int *k = rt_xalloc(ne * sizeof *k);
  inputs(rt, ne, 0, x, y, k);
  float *fx = rt_xalloc(ne * 4), *fy = rt_xalloc(ne * 4), *of = rt_xalloc((size_t)NF * ne * 4);
  int32_t *oi = rt_xalloc((size_t)NI * ne * 4);
  for (int e = 0; e < ne; e++) fx[e] = (float)x[e], fy[e] = (float)y[e];
  kcrt_buffer *dx = rt_upload(rt, fx, ne * 4), *dy = rt_upload(rt, fy, ne * 4),
              *dk = rt_upload(rt, k, ne * 4), *dof = rt_alloc(rt, (size_t)NF * ne * 4),
              *doi = rt_alloc(rt, (size_t)NI * ne * 4);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dx),  KCRT_ARG_BUFFER(dy),  KCRT_ARG_BUFFER(dk),
                     KCRT_ARG_BUFFER(dof), KCRT_ARG_BUFFER(doi), KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, "mathfn_f"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args, 6);
  rt_download(rt, dof, of, (size_t)NF * ne * 4);
  rt_download(rt, doi, oi, (size_t)NI * ne * 4);
  for (int j = 0; j < NF; j++)
    for (int e = 0; e < ne; e++) {
      int i = e / 4, c = e % 4;
      check(rt, j, of[(j * n + i) * 4 + c], fx[e], fy[e], k[e], k[4 * i + 1], 0, &bad);
    }
  for (int e = 0; e < ne; e++) x[e] = fx[e], y[e] = fy[e];
  check_ints(rt, oi, n, 4, x, y, k, 0, &bad);
}

static void run_double(Rt *rt, int n) {
  int ne = 2 * n, bad = 0;
  long double *x = rt_xalloc(ne * sizeof *x), *y = rt_xalloc(ne * sizeof *y);
  int *k = rt_xalloc(ne * sizeof *k);
  inputs(rt, ne, 1, x, y, k);
  double *dxh = rt_xalloc(ne * 8), *dyh = rt_xalloc(ne * 8), *of = rt_xalloc((size_t)NF * ne * 8);
  int32_t *oi = rt_xalloc((size_t)NI * ne * 4);
  for (int e = 0; e < ne; e++) dxh[e] = (double)x[e], dyh[e] = (double)y[e];
  kcrt_buffer *dx = rt_upload(rt, dxh, ne * 8), *dy = rt_upload(rt, dyh, ne * 8),
              *dk = rt_upload(rt, k, ne * 4), *dof = rt_alloc(rt, (size_t)NF * ne * 8),
              *doi = rt_alloc(rt, (size_t)NI * ne * 4);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dx),  KCRT_ARG_BUFFER(dy),  KCRT_ARG_BUFFER(dk),
                     KCRT_ARG_BUFFER(dof), KCRT_ARG_BUFFER(doi), KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, "mathfn_d"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args, 6);
  rt_download(rt, dof, of, (size_t)NF * ne * 8);
  rt_download(rt, doi, oi, (size_t)NI * ne * 4);
  for (int j = 0; j < NF; j++)
    for (int e = 0; e < ne; e++) {
      int i = e / 2, c = e % 2;
      check(rt, j, of[(j * n + i) * 2 + c], dxh[e], dyh[e], k[e], k[2 * i + 1], 1, &bad);
    }
  for (int e = 0; e < ne; e++) x[e] = dxh[e], y[e] = dyh[e];
  check_ints(rt, oi, n, 2, x, y, k, 1, &bad);
}

/* half: each result against the exact value rounded once to half (sinpi within a half ulp). */
static void run_half(Rt *rt, int n) {
  uint16_t *hx = rt_xalloc(n * 2), *hy = rt_xalloc(n * 2), *oh = rt_xalloc(8 * n * 2),
           *wh = rt_xalloc(8 * n * 2);
  int32_t *k = rt_xalloc(n * 4), *oi = rt_xalloc(3 * n * 4);
  for (int i = 0; i < n; i++) {
    hx[i] = rt_f16_rand(rt), hy[i] = rt_f16_rand(rt), k[i] = rt_int(rt, -40, 40);
    if (i % 7 == 3) hy[i] = rt_f16_of_float((float)rt_int(rt, 1, 9), FE_TONEAREST);
  }
  kcrt_buffer *dx = rt_upload(rt, hx, n * 2), *dy = rt_upload(rt, hy, n * 2),
              *dk = rt_upload(rt, k, n * 4), *doh = rt_alloc(rt, 8 * n * 2),
              *doi = rt_alloc(rt, 3 * n * 4);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dx),  KCRT_ARG_BUFFER(dy),  KCRT_ARG_BUFFER(dk),
                     KCRT_ARG_BUFFER(doh), KCRT_ARG_BUFFER(doi), KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, "mathfn_h"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args, 6);
  rt_download(rt, doh, oh, 8 * n * 2);
  rt_download(rt, doi, oi, 3 * n * 4);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    long double a = rt_f16_value(hx[i]), b = rt_f16_value(hy[i]);
    int e = 0, q = 0;
    long double ip;
    (void)ip;
    wh[0 * n + i] = rt_f16_of_long_double(sinpi_l(a));
    wh[1 * n + i] = rt_f16_of_long_double(remquof((float)a, (float)b, &q));
    /* nextafter in half's steps: the neighbour of a's bits toward b */
    uint16_t na = hx[i];
    if (isnan(a) || isnan(b))
      na = 0x7e00;
    else if (a == b)
      na = hy[i];
    else if (a == 0)
      na = b > 0 ? 0x0001 : 0x8001;
    else
      na = (uint16_t)(na + (((a < b) == (a > 0)) ? 1 : -1));
    wh[2 * n + i] = na;
    wh[3 * n + i] = rt_f16_of_long_double(ldexpl(a, k[i]));
    wh[4 * n + i] = rt_f16_of_long_double(isfinite(a) ? frexpl(a, &e) : a);
    long double fr = fract_l(a, 0);
    wh[5 * n + i] = rt_f16_of_long_double(fr > 0x1.ffcp-1L ? 0x1.ffcp-1L : fr);
    wh[6 * n + i] = wh[1 * n + i];
    wh[7 * n + i] = rt_f16_of_long_double(isnan(a) || isnan(b) ? NAN : a > b ? a - b : 0);
    int il = isnan(a) ? INT_MAX : ilogbf((float)a);
    bool defined = isfinite(a) && !isnan(b) && b != 0 && q != 0;
    if ((oi[i] != il || (isfinite(a) && oi[n + i] != e) ||
         (defined && ((oi[2 * n + i] < 0) != (q < 0) || (oi[2 * n + i] - q) % 8 != 0))) &&
        bad++ < 12)
      rt_fail(rt, "half ints (%La, %La): ilogb %d (%d), frexp exp %d (%d), remquo %d (%d)", a, b,
              oi[i], il, oi[n + i], e, oi[2 * n + i], q);
  }
  static const char *const names[] = {"half sinpi",  "half remainder", "half nextafter",
                                      "half ldexp",  "half frexp",     "half fract",
                                      "half remquo", "half fdim"};
  for (int j = 0; j < 8; j++)
    rt_cmp_f16(rt, names[j], oh + j * n, wh + j * n, n, 1, j == 0 ? 1 : 0);
}

static void run_fastgeo(Rt *rt, int n) {
  float *x = rt_xalloc(4 * n * 4), *y = rt_xalloc(4 * n * 4), *ol = rt_xalloc(3 * n * 4),
        *on = rt_xalloc(4 * n * 4);
  for (int i = 0; i < 4 * n; i++) {
    x[i] = i < 4 ? 0.0f : rt_float(rt, -1e3f, 1e3f); /* the zero vector: normalized as it is */
    y[i] = rt_float(rt, -1e3f, 1e3f);
  }
  kcrt_buffer *dx = rt_upload(rt, x, 16 * n), *dy = rt_upload(rt, y, 16 * n),
              *dl = rt_alloc(rt, 12 * n), *dn = rt_alloc(rt, 16 * n);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dx), KCRT_ARG_BUFFER(dy), KCRT_ARG_BUFFER(dl),
                     KCRT_ARG_BUFFER(dn), KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, "fastgeo"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args, 5);
  rt_download(rt, dl, ol, 12 * n);
  rt_download(rt, dn, on, 16 * n);
  float *wl = rt_xalloc(3 * n * 4), *wn = rt_xalloc(4 * n * 4);
  for (int i = 0; i < n; i++) {
    long double s = 0, d = 0;
    for (int c = 0; c < 4; c++) {
      s += (long double)x[4 * i + c] * x[4 * i + c];
      d += ((long double)x[4 * i + c] - y[4 * i + c]) * ((long double)x[4 * i + c] - y[4 * i + c]);
    }
    wl[i] = (float)sqrtl(s);
    wl[n + i] = (float)sqrtl(d);
    wl[2 * n + i] = fabsf(x[4 * i]);
    for (int c = 0; c < 4; c++)
      wn[4 * i + c] = s == 0 ? x[4 * i + c] : (float)(x[4 * i + c] / sqrtl(s));
  }
  /* the specification's bound: 8192 ulps */
  rt_cmp_f32(rt, "fast_length, fast_distance", ol, wl, 3 * (size_t)n, 0x1p-10, 0);
  rt_cmp_f32(rt, "fast_normalize", on, wn, 4 * (size_t)n, 0x1p-10, 1e-30);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_mathfn");
  int n = rt_int(&rt, 128, 1024) & ~63;
  run_float(&rt, n);
  run_double(&rt, n);
  run_half(&rt, n);
  run_fastgeo(&rt, n);
  rt_xfree_all();
  return rt_finish(&rt,
                   "%d float4, %d double2, %d halves through %d functions, fast_* on %d float4", n,
                   n, n, NF, n);
}
