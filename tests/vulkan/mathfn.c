/* mathfn.c — runs tests/vulkan/mathfn.cu's math (kcc's own functions in the Vulkan form,
 * compiler/spirv/spirv_vkmath.c) on random arguments of every magnitude (random bit patterns:
 * huge, tiny, subnormal, infinite, NaN), on each function's interesting ranges, and on special
 * values, and measures each result's error against the host's long double libm in ulps of the
 * result's type (math_ref.h's ulps: infinities, zeros with their sign and NaN must match).
 * Every function must stay within the bound of its table, which is what docs/cli.md claims for
 * it: float 1 ulp (0, exact, for fmodf, roundf and copysignf), double 2 ulp (0 for fmod and
 * round; lgamma's below -2 as error_of says); the largest error measured for each
 * function is printed. One table of references by name (refs) serves both types. KCC_MATHFN_N sets
 * the number of arguments. Then 64-bit clz and popcount against the host's. */
#include "rt_common.h"
#include "math_ref.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The host's long double reference of every function tested, by its C name (a float
 * function's, less its f): f1 for those of one argument, f2 for those of two. */
static long double exp10_l(long double x) {
  return powl(10, x);
}
static long double rcbrt_l(long double x) {
  return 1 / cbrtl(x);
}
static long double normcdf_l(long double x) {
  return erfcl(-x / sqrtl(2)) / 2;
}

static const struct ref {
  const char *name;
  long double (*f1)(long double);
  long double (*f2)(long double, long double);
} refs[] = {
    {"exp", expl, NULL},       {"exp2", exp2l, NULL},    {"exp10", exp10_l, NULL},
    {"expm1", expm1l, NULL},   {"log", logl, NULL},      {"log2", log2l, NULL},
    {"log10", log10l, NULL},   {"log1p", log1pl, NULL},  {"sin", sinl, NULL},
    {"cos", cosl, NULL},       {"tan", tanl, NULL},      {"asin", asinl, NULL},
    {"acos", acosl, NULL},     {"atan", atanl, NULL},    {"atan2", NULL, atan2l},
    {"sinh", sinhl, NULL},     {"cosh", coshl, NULL},    {"tanh", tanhl, NULL},
    {"asinh", asinhl, NULL},   {"acosh", acoshl, NULL},  {"atanh", atanhl, NULL},
    {"pow", NULL, powl},       {"cbrt", cbrtl, NULL},    {"hypot", NULL, hypotl},
    {"fmod", NULL, fmodl},     {"round", roundl, NULL},  {"copysign", NULL, copysignl},
    {"erf", erfl, NULL},       {"erfc", erfcl, NULL},    {"normcdf", normcdf_l, NULL},
    {"sinpi", sinpi_l, NULL},  {"rcbrt", rcbrt_l, NULL}, {"tgamma", tgammal, NULL},
    {"lgamma", lgammal, NULL},
};

/* A function tested: its name as printed, the reference's name where it is not the name (less
 * its f for float), its bound in ulps. */
typedef struct Fn {
  const char *name, *ref;
  double bound;
} Fn;

static const struct ref *ref_of(const Fn *f, int dbl) {
  char key[32];
  snprintf(key, sizeof key, "%s", f->ref ? f->ref : f->name);
  size_t len = strlen(key);
  if (!f->ref && !dbl && len > 1 && key[len - 1] == 'f') key[len - 1] = 0;
  for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++)
    if (!strcmp(refs[i].name, key)) return &refs[i];
  fprintf(stderr, "mathfn: no reference for %s\n", f->name);
  exit(1);
}

static long double reference(const struct ref *r, long double x, long double y) {
  return r->f1 ? r->f1(x) : r->f2(x, y);
}

/* lgamma's zeros below -2 (two between each pair of negative integers to -17) are where its
 * reflection formula's terms cancel: there the error counts in ulps of the largest term, log
 * gamma(1 - x), as OpenCL sets lgamma no bound. Elsewhere ulps of the result. */
static double error_of(const Fn *f, long double got, long double want, long double x, int dbl) {
  double e = ulps(got, want, dbl);
  if (!strcmp(f->ref ? f->ref : f->name, "lgamma") && x < -2 && isfinite(want) && isfinite(got)) {
    long double big = fabsl(lgammal(1 - x)), unit = dbl ? 0x1p-52L : 0x1p-23L;
    if (big < 1) big = 1;
    double ea = (double)(fabsl(got - want) / (unit * big));
    if (ea < e) e = ea;
  }
  return e;
}

enum { NFN = 34 };

static const Fn fns[NFN] = {
    {"expf", 0, 1},
    {"exp2f", 0, 1},
    {"exp10f", 0, 1},
    {"expm1f", 0, 1},
    {"logf", 0, 1},
    {"log2f", 0, 1},
    {"log10f", 0, 1},
    {"log1pf", 0, 1},
    {"sinf", 0, 1},
    {"cosf", 0, 1},
    {"tanf", 0, 1},
    {"asinf", 0, 1},
    {"acosf", 0, 1},
    {"atanf", 0, 1},
    {"atan2f", 0, 1},
    {"sinhf", 0, 1},
    {"coshf", 0, 1},
    {"tanhf", 0, 1},
    {"asinhf", 0, 1},
    {"acoshf", 0, 1},
    {"atanhf", 0, 1},
    {"powf", 0, 1},
    {"cbrtf", 0, 1},
    {"hypotf", 0, 1},
    {"sincosf sin", "sin", 1},
    {"sincosf cos", "cos", 1},
    {"fmodf", 0, 0},
    {"roundf", 0, 0},
    {"copysignf", 0, 0},
    {"erff", 0, 1},
    {"erfcf", 0, 1},
    {"normcdff", 0, 1},
    {"tgammaf", 0, 1},
    {"lgammaf", 0, 1},
};

enum { NFN_D = 32 };

static const Fn fns_d[NFN_D] = {
    {"exp", 0, 2},    {"exp2", 0, 2},   {"exp10", 0, 2}, {"expm1", 0, 2}, {"log", 0, 2},
    {"log2", 0, 2},   {"log10", 0, 2},  {"log1p", 0, 2}, {"sin", 0, 2},   {"cos", 0, 2},
    {"tan", 0, 2},    {"pow", 0, 2},    {"atan2", 0, 2}, {"atan", 0, 2},  {"asin", 0, 2},
    {"acos", 0, 2},   {"sinh", 0, 2},   {"cosh", 0, 2},  {"tanh", 0, 2},  {"cbrt", 0, 2},
    {"hypot", 0, 2},  {"round", 0, 0},  {"asinh", 0, 2}, {"acosh", 0, 2}, {"atanh", 0, 2},
    {"fmod", 0, 0},   {"sinpi", 0, 2},  {"rcbrt", 0, 2}, {"erf", 0, 2},   {"erfc", 0, 2},
    {"tgamma", 0, 2}, {"lgamma", 0, 2},
};

/* gamma's hard arguments: near its poles (0 and the negative integers), near lgamma's zeros
 * 1 and 2 and those between -6 and -2, around tgamma's overflow (over) and its results'
 * underflow (below under), and negative ones of every size to -2^53. */
static double gamma_arg(Rt *rt, double over, double under) {
  switch (rt_int(rt, 0, 6)) {
  case 0: return -rt_int(rt, 0, 20) + ldexp(rt_double(rt, -1, 1), rt_int(rt, -50, -1));
  case 1: return 1 + ldexp(rt_double(rt, -1, 1), rt_int(rt, -50, -2));
  case 2: return 2 + ldexp(rt_double(rt, -1, 1), rt_int(rt, -50, -2));
  case 3: return rt_double(rt, -6, -2);
  case 4: return rt_double(rt, over - 5, over + 1);
  case 5: return rt_double(rt, under - 12, under + 3);
  default: return -ldexp(rt_double(rt, 1, 2), rt_int(rt, -3, 52));
  }
}

static double bits_d(uint64_t u) {
  double f;
  memcpy(&f, &u, 8);
  return f;
}

/* The double functions on n arguments of every kind, each within its bound. */
static void run_double(Rt *rt, int n) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  static const double special[] = {0.0,
                                   -0.0,
                                   INFINITY,
                                   -INFINITY,
                                   NAN,
                                   1.0,
                                   -1.0,
                                   0.5,
                                   2.0,
                                   4.9e-324,
                                   1e-310,
                                   DBL_MIN,
                                   DBL_MAX,
                                   709.782712893384,
                                   709.79,
                                   -745.1332191019411,
                                   -708.4,
                                   1023.5,
                                   -1074.0,
                                   -1075.0,
                                   308.25,
                                   -323.5,
                                   1e-17,
                                   -1e-17,
                                   0.99999999999999989,
                                   1.0000000000000002,
                                   10.0,
                                   100.0,
                                   0x1.6a09e667f3bcdp-1,
                                   171.62437695630271,
                                   171.6243769563027,
                                   -2.4570247382208006,
                                   -3.5,
                                   -177.5,
                                   -0.5};
  int ns = (int)(sizeof special / sizeof special[0]);
  for (int i = 0; i < n; i++) {
    switch (i % 9) {
    case 0: a[i] = bits_d(rt_u64(rt)); break;
    case 1: a[i] = rt_double(rt, -750, 750); break;
    case 2: a[i] = rt_double(rt, -2, 2); break;
    case 3: a[i] = ldexp(rt_double(rt, 1, 2), rt_int(rt, -1074, 1023)); break;
    case 4: a[i] = 1 + rt_double(rt, -1e-3, 1e-3) * (rt_int(rt, 0, 1) ? 1 : 1e-9); break;
    case 5: a[i] = ldexp(rt_double(rt, -1, 1), rt_int(rt, -60, 0)); break;
    case 6: a[i] = rt_int(rt, 0, 1) ? rt_double(rt, -1, 0) : rt_double(rt, -30, 30); break;
    case 7: a[i] = gamma_arg(rt, 171.6, -172); break;
    default: a[i] = special[rt_int(rt, 0, ns - 1)]; break;
    }
    /* pow's exponents: any, moderate, integers and halves, large (near overflow) */
    switch (i % 5) {
    case 0: b[i] = bits_d(rt_u64(rt)); break;
    case 1: b[i] = rt_double(rt, -10, 10); break;
    case 2: b[i] = (double)rt_int(rt, -80, 80) / 2; break;
    case 3: b[i] = rt_double(rt, -1, 1) * ldexp(1, rt_int(rt, 0, 40)); break;
    default: b[i] = special[rt_int(rt, 0, ns - 1)]; break;
    }
  }
  for (int i = 0; i < ns && i < n; i++) a[i] = special[i];
  size_t bytes = (size_t)n * sizeof(double);
  kcrt_buffer *da = rt_upload(rt, a, bytes), *db = rt_upload(rt, b, bytes),
              *dout = rt_alloc(rt, bytes * NFN_D);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dout),
                     KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, "mathfn_d"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, args,
            4);
  double *out = malloc(bytes * NFN_D);
  rt_download(rt, dout, out, bytes * NFN_D);
  for (int f = 0; f < NFN_D; f++) {
    double worst = 0;
    int bad = 0, worst_i = 0;
    const struct ref *ref = ref_of(&fns_d[f], 1);
    for (int i = 0; i < n; i++) {
      long double want = reference(ref, a[i], b[i]);
      double e = error_of(&fns_d[f], out[(size_t)f * n + i], want, a[i], 1);
      if (e > fns_d[f].bound && rt_skip_sub64(rt, a[i], b[i], 0, (double)want)) continue;
      if (e > worst) worst = e, worst_i = i;
      if (e > fns_d[f].bound && bad++ < 5)
        printf("FAIL mathfn: %s(%a, %a) = %a, want %La (%.3g ulp, bound %g)\n", fns_d[f].name, a[i],
               b[i], out[(size_t)f * n + i], want, e, fns_d[f].bound);
    }
    if (bad) {
      printf("FAIL mathfn: %s beyond %g ulp on %d of %d arguments (seed %llu)\n", fns_d[f].name,
             fns_d[f].bound, bad, n, (unsigned long long)rt->seed);
      rt->failures++;
    }
    printf("mathfn: %-12s max %.3f ulp (at %a) on %d arguments\n", fns_d[f].name, worst, a[worst_i],
           n);
  }
  free(a), free(b), free(out);
}

static float bits_f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* A float of random sign whose exponent is uniform in [lo, hi] (subnormals below -126). */
static float rand_exp(Rt *rt, int lo, int hi) {
  float m = rt_float(rt, 1, 2);
  float x = ldexpf(m, rt_int(rt, lo, hi));
  return rt_int(rt, 0, 1) ? -x : x;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "mathfn");
  int n = rt_int(&rt, 60000, 80000);
  /* A longer run by hand (KCC_MATHFN_N=2000000): the bounds docs/cli.md reports. */
  const char *nenv = getenv("KCC_MATHFN_N");
  if (nenv && atoi(nenv) > 0) n = atoi(nenv);
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  static const float special[] = {
      0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, 1e-45f, -1e-45f,
      1e-40f, FLT_MIN, FLT_MAX, -FLT_MAX, 88.72283f, 88.72284f, -103.97208f, -87.33654f, 89.41599f,
      0x1.921fb6p+0f, 0x1.921fb6p+1f, 0x1.921fb6p+2f, 1e22f, 0x1.5d1p+126f,
      /* floats closest to multiples of pi/2 (their reduced arguments below 2^-27 of them) */
      0x1.6a8d3cp+91f, 0x1.55cb2ep+125f, 105414350.0f, 0x1.fe8ecap+119f, 0.999999940f, 1.00000012f,
      3.0f, -3.0f, 0.1f, 10.0f, 38.5f, -45.5f, 128.0f, -150.0f, 9.0f, 0.25f,
      /* gamma: overflow, lgamma's first negative zero, results near the least subnormal */
      35.0401001f, 35.0401f, -2.45702475f, -41.5f, -39.5f};
  int nspecial = (int)(sizeof special / sizeof special[0]);
  for (int i = 0; i < n; i++) {
    switch (i % 11) {
    case 0: a[i] = bits_f(rt_u32(&rt)), b[i] = bits_f(rt_u32(&rt)); break;
    case 1: a[i] = rt_float(&rt, -4, 4), b[i] = rt_float(&rt, -4, 4); break;
    case 2: a[i] = rt_float(&rt, -100, 100), b[i] = rt_float(&rt, -30, 30); break;
    case 3: a[i] = rand_exp(&rt, -30, 30), b[i] = (float)rt_int(&rt, -40, 40); break;
    case 4: a[i] = rt_float(&rt, 0.5f, 2), b[i] = rt_float(&rt, -200, 200); break;
    case 5: a[i] = rand_exp(&rt, 20, 127), b[i] = rand_exp(&rt, -20, 20); break;
    case 6: a[i] = rand_exp(&rt, -149, -10), b[i] = rt_float(&rt, -1, 1); break;
    case 9: a[i] = (float)gamma_arg(&rt, 35.04, -35), b[i] = rt_float(&rt, -4, 4); break;
    case 7: a[i] = rt_float(&rt, -1, 1), b[i] = rand_exp(&rt, -149, 127); break;
    case 8: /* x near 1 (log1p, acosh, pow), y halves and integers for pow's signs */
      a[i] = 1 + rt_float(&rt, -1e-3f, 1e-3f) * (rt_int(&rt, 0, 1) ? 1 : 1e-4f);
      if (rt_int(&rt, 0, 1)) a[i] = -a[i] * rt_float(&rt, 0.5f, 4);
      b[i] = (float)rt_int(&rt, -60, 60) / 2;
      break;
    default:
      a[i] = special[rt_int(&rt, 0, nspecial - 1)], b[i] = special[rt_int(&rt, 0, nspecial - 1)];
      break;
    }
  }
  for (int i = 0; i < nspecial * nspecial && i < n; i++) /* every pair once */
    a[i] = special[i / nspecial], b[i] = special[i % nspecial];
  size_t bytes = (size_t)n * sizeof(float);
  kcrt_buffer *da = rt_upload(&rt, a, bytes), *db = rt_upload(&rt, b, bytes),
              *dout = rt_alloc(&rt, bytes * NFN);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dout),
                     KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "mathfn"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, args,
            4);
  float *out = malloc(bytes * NFN);
  rt_download(&rt, dout, out, bytes * NFN);
  for (int f = 0; f < NFN; f++) {
    double worst = 0;
    int bad = 0, worst_i = 0;
    const struct ref *ref = ref_of(&fns[f], 0);
    for (int i = 0; i < n; i++) {
      long double want = reference(ref, a[i], b[i]);
      double e = error_of(&fns[f], out[(size_t)f * n + i], want, a[i], 0);
      if (e > fns[f].bound && rt_skip_sub32(&rt, a[i], b[i], 0, (float)want)) continue;
      if (e > worst) worst = e, worst_i = i;
      if (e > fns[f].bound && bad++ < 5)
        printf("FAIL mathfn: %s(%a, %a) = %a, want %a (%.3g ulp, bound %g)\n", fns[f].name, a[i],
               b[i], out[(size_t)f * n + i], (double)want, e, fns[f].bound);
    }
    if (bad) {
      printf("FAIL mathfn: %s beyond %g ulp on %d of %d arguments (seed %llu)\n", fns[f].name,
             fns[f].bound, bad, n, (unsigned long long)rt.seed);
      rt.failures++;
    }
    printf("mathfn: %-12s max %.3f ulp (at %a, %a) on %d arguments\n", fns[f].name, worst,
           a[worst_i], b[worst_i], n);
  }
  free(a), free(b), free(out);
  run_double(&rt, n);
  /* 64-bit clz and popcount against the host's. */
  uint64_t *w = malloc(n * sizeof *w);
  for (int i = 0; i < n; i++) w[i] = rt_u64(&rt) >> rt_int(&rt, 0, 64) % 64;
  w[0] = 0, w[1] = ~0ull, w[2] = 1ull << 32;
  kcrt_buffer *dw = rt_upload(&rt, w, n * sizeof *w), *dc = rt_alloc(&rt, 2 * n * sizeof(int));
  kcrt_arg bargs[] = {KCRT_ARG_BUFFER(dw), KCRT_ARG_BUFFER(dc), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "bits64"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, bargs,
            3);
  int *cnt = malloc(2 * n * sizeof *cnt), bad64 = 0;
  rt_download(&rt, dc, cnt, 2 * n * sizeof *cnt);
  for (int i = 0; i < n; i++) {
    int clz = w[i] ? __builtin_clzll(w[i]) : 64, pop = __builtin_popcountll(w[i]);
    if ((cnt[2 * i] != clz || cnt[2 * i + 1] != pop) && bad64++ < 5)
      printf("FAIL mathfn: clz/popcount(%#llx) = %d, %d, want %d, %d\n", (unsigned long long)w[i],
             cnt[2 * i], cnt[2 * i + 1], clz, pop);
  }
  if (bad64) rt.failures++;
  free(w), free(cnt);
  return rt_finish(&rt, "%d arguments x %d float and %d double functions", n, NFN, NFN_D);
}
