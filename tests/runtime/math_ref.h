/* math_ref.h — host references shared by cl_mathfn.c and cuda_mathfn.c: sin(pi x) and
 * cos(pi x) in long double, each reduced exactly first so that the result keeps its relative
 * accuracy where it is small, and the distance in ulps the tests bound. */
#ifndef KCC_TESTS_MATH_REF_H
#define KCC_TESTS_MATH_REF_H

#include <math.h>

#define PI_L 3.141592653589793238462643383279502884L

static inline long double sinpi_l(long double x) {
  if (!isfinite(x)) return NAN;
  long double r = fmodl(fabsl(x), 2), s = x < 0 ? -1 : 1;
  if (r >= 1) r -= 1, s = -s;
  if (r > 0.5L) r = 1 - r;
  if (r == 0) return copysignl(0, x);
  return s * sinl(PI_L * r);
}

static inline long double cospi_l(long double x) {
  if (!isfinite(x)) return NAN;
  long double r = fmodl(fabsl(x), 2), s = 1;
  if (r >= 1) r -= 1, s = -s;
  if (r > 0.5L) r = 1 - r, s = -s;
  if (r == 0.5L) return 0;
  /* Near 1/2 the result is small: sin of the exact distance to 1/2 keeps its relative
     accuracy, where cos(PI_L * r) would carry PI_L * r's rounding (tens of double ulps). */
  if (r > 0.25L) return s * sinl(PI_L * (0.5L - r));
  return s * cosl(PI_L * r);
}

/* Error of got against the exact want in ulps of the type (float or double); 0 or HUGE_VAL for
 * want NaN, infinite or zero (those must match, a zero with its sign). */
static inline double ulps(long double got, long double want, int dbl) {
  long double w = dbl ? (long double)(double)want : (long double)(float)want;
  if (isnan(want)) return isnan(got) ? 0 : HUGE_VAL;
  if (isinf(w) || want == 0) return got == w && signbit(got) == signbit(w) ? 0 : HUGE_VAL;
  if (isnan(got) || isinf(got)) return HUGE_VAL;
  int e = ilogbl(want), emin = dbl ? -1022 : -126, m = dbl ? 52 : 23;
  if (e < emin) e = emin;
  return (double)(fabsl(got - want) / ldexpl(1, e - m));
}

#endif
