/* cuda_stdlib.c — runs tests/runtime/cuda_stdlib.cu through libkcrt on random inputs (every
 * magnitude, subnormals, signed zeros, infinities, NaN; integers of both signs) and checks the
 * C++ library's device functions against the host's C library: the float overloads in float
 * (bit for bit), the integer and mixed overloads in double, classification and the integer
 * algorithms exactly. */
#include "rt_common.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#define NF 10
#define ND 5
#define NI 17

static float rand_float(Rt *rt) {
  switch (rt_int(rt, 0, 9)) {
  case 0: return rt_int(rt, 0, 1) ? 0.0f : -0.0f;
  case 1: return rt_int(rt, 0, 1) ? INFINITY : -INFINITY;
  case 2: return NAN;
  case 3: return ldexpf(rt_float(rt, -1, 1), -rt_int(rt, 127, 149)); /* subnormal */
  case 4: return (float)rt_int(rt, -20, 20) * 0.5f;
  default: return ldexpf(rt_float(rt, -1, 1), rt_int(rt, -60, 60));
  }
}

static int classify(float x) {
  switch (fpclassify(x)) {
  case FP_NAN: return 0;
  case FP_INFINITE: return 1;
  case FP_ZERO: return 2;
  case FP_SUBNORMAL: return 3;
  default: return 4;
  }
}

static int imin(int a, int b) {
  return a < b ? a : b;
}

static int imax(int a, int b) {
  return a < b ? b : a;
}

/* pow is exact on PoCL but, on CUDA, within its documented 2 ulp (CUDA C++ Programming Guide,
 * "Mathematical functions": libdevice's, nvcc's own, gives 296^2 one ulp low). */
static int pow_near(double got, double want) {
  return fabs(got - want) <= 2 * (nextafter(fabs(want), INFINITY) - fabs(want));
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_stdlib");
  int n = rt_int(&rt, 256, 2048) & ~63;
  float *x = rt_xalloc(n * 4), *y = rt_xalloc(n * 4), *of = rt_xalloc(NF * n * 4),
        *wf = rt_xalloc(NF * n * 4);
  double *od = rt_xalloc(ND * n * 8), *wd = rt_xalloc(ND * n * 8);
  int *is = rt_xalloc(n * 4), *js = rt_xalloc(n * 4), *oi = rt_xalloc(NI * n * 4),
      *wi = rt_xalloc(NI * n * 4);
  for (int t = 0; t < n; t++) {
    x[t] = rand_float(&rt), y[t] = rt_int(&rt, 0, 3) ? rand_float(&rt) : x[t];
    is[t] = rt_int(&rt, -1000, 1000), js[t] = rt_int(&rt, 0, 3) ? rt_int(&rt, -1000, 1000) : is[t];
  }
  kcrt_buffer *dx = rt_upload(&rt, x, n * 4), *dy = rt_upload(&rt, y, n * 4),
              *di = rt_upload(&rt, is, n * 4), *dj = rt_upload(&rt, js, n * 4),
              *dof = rt_alloc(&rt, NF * n * 4), *dod = rt_alloc(&rt, ND * n * 8),
              *doi = rt_alloc(&rt, NI * n * 4);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dx),  KCRT_ARG_BUFFER(dy),  KCRT_ARG_BUFFER(di),
                     KCRT_ARG_BUFFER(dj),  KCRT_ARG_BUFFER(dof), KCRT_ARG_BUFFER(dod),
                     KCRT_ARG_BUFFER(doi), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "stdlib"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args, 8);
  rt_download(&rt, dof, of, NF * n * 4);
  rt_download(&rt, dod, od, ND * n * 8);
  rt_download(&rt, doi, oi, NI * n * 4);
  for (int t = 0; t < n; t++) {
    float a = x[t], b = y[t];
    int i = is[t], j = js[t];
    float half = FLT_MAX / 2;
    wf[0 * n + t] = sqrtf(fabsf(a));
    wf[1 * n + t] = fabsf(a);
    wf[2 * n + t] = b < a ? b : a; /* std::min: the first unless the second is less */
    wf[3 * n + t] = a < b ? b : a;
    wf[4 * n + t] = a < -half ? -half : half < a ? half : a;
    wf[5 * n + t] = fmaf(a, b, a);
    wf[6 * n + t] = fminf(a, b);
    float m = a, tr = truncf(a); /* max of a list: the first of the greatest */
    if (m < b) m = b;
    if (m < tr) m = tr;
    wf[7 * n + t] = m;
    wf[8 * n + t] = copysignf(floorf(a), b);
    wf[9 * n + t] = nextafterf(a, b);
    wd[0 * n + t] = sqrt((double)abs(i));
    wd[1 * n + t] = pow((double)i, 2.0);
    wd[2 * n + t] = ldexp((double)i, 3);
    wd[3 * n + t] = fmax((double)a, (double)b);
    wd[4 * n + t] = fdim((double)i, (double)a);
    int sw[3] = {i, j, i - j}, mx = 0, mn = 0;
    for (int k = 1; k < 3; k++) {
      if (sw[mx] < sw[k]) mx = k;
      if (sw[k] < sw[mn]) mn = k;
    }
    wi[0 * n + t] = imin(i, j);
    wi[1 * n + t] = imax(i, j);
    wi[2 * n + t] = abs(i);
    wi[3 * n + t] = i < -50 ? -50 : i > 50 ? 50 : i;
    wi[4 * n + t] = classify(a);
    wi[5 * n + t] =
        !!isnormal(a) + 2 * !!signbit(a) + 4 * !!isinf(a) + 8 * !!isnan(a) + 16 * !!isfinite(a);
    wi[6 * n + t] = !!isgreater(a, b) + 2 * !!isgreaterequal(a, b) + 4 * !!isless(a, b) +
                    8 * !!islessequal(a, b) + 16 * !!islessgreater(a, b) + 32 * !!isunordered(a, b);
    wi[7 * n + t] = j - 2 * i;
    wi[8 * n + t] = (j < i ? j : i) * 3 + (j < i ? i : j);
    wi[9 * n + t] = mx + 10 * sw[mn];
    wi[10 * n + t] = (i + j) * 6 + j;
    wi[11 * n + t] = i + j + 7 + 3000;
    wi[12 * n + t] = isfinite(a) && fabsf(a) < 1e9f ? (int)lroundf(a) : 0;
    wi[13 * n + t] = a != 0 && isfinite(a) ? ilogbf(a) : 0;
    wi[14 * n + t] = 255;
    wi[15 * n + t] = i - j + 3000 + 10000;
    wi[16 * n + t] = 2 * (i + j + 7) + 3 * (i + j) + 2 * i;
  }
  static const char *const fnames[NF] = {"sqrt", "abs",  "min",       "max",      "clamp",
                                         "fma",  "fmin", "max(list)", "copysign", "nextafter"};
  static const char *const dnames[ND] = {"sqrt(int)", "pow(int, int)", "ldexp(int)",
                                         "fmax(float, double)", "fdim(int, float)"};
  static const char *const inames[NI] = {"min",
                                         "max",
                                         "abs",
                                         "clamp",
                                         "fpclassify",
                                         "isnormal...",
                                         "isgreater...",
                                         "swap",
                                         "minmax",
                                         "min/max_element",
                                         "function objects",
                                         "initializer_list",
                                         "lround",
                                         "ilogb",
                                         "numeric_limits",
                                         "array",
                                         "range for"};
  for (int k = 0; k < NF; k++)
    for (int t = 0; t < n; t++) /* fmin's zero of either sign is C's choice: equal values there. */
      if (!rt_same_f32(of[k * n + t], wf[k * n + t]) &&
          !(k == 6 && of[k * n + t] == wf[k * n + t])) {
        if (rt_skip_sub32(&rt, x[t], y[t], 0, wf[k * n + t])) continue;
        rt_fail(&rt, "std::%s(%a, %a): got %a, want %a", fnames[k], x[t], y[t], of[k * n + t],
                wf[k * n + t]);
        break;
      }
  for (int k = 0; k < ND; k++)
    for (int t = 0; t < n; t++)
      if (!rt_same_f64(od[k * n + t], wd[k * n + t]) &&
          !(k == 3 && od[k * n + t] == wd[k * n + t]) &&
          !(k == 1 && pow_near(od[k * n + t], wd[k * n + t]))) {
        if (rt_skip_sub32(&rt, x[t], y[t], 0, 1) || rt_skip_sub64(&rt, 0, 0, 0, wd[k * n + t]))
          continue;
        rt_fail(&rt, "std::%s(%d, %a): got %a, want %a", dnames[k], is[t], x[t], od[k * n + t],
                wd[k * n + t]);
        break;
      }
  for (int k = 0; k < NI; k++)
    for (int t = 0; t < n; t++)
      if (oi[k * n + t] != wi[k * n + t]) {
        if (rt_skip_sub32(&rt, x[t], y[t], 0, 1)) continue;
        rt_fail(&rt, "std::%s (%a, %a, %d, %d): got %d, want %d", inames[k], x[t], y[t], is[t],
                js[t], oi[k * n + t], wi[k * n + t]);
        break;
      }
  rt_xfree_all();
  return rt_finish(&rt, "%d threads through %d results", n, NF + ND + NI);
}
