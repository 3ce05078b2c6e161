/* mathlib.c — the math functions kcc writes in the input language over its KIR builtins:
 * OpenCL C's sinpi, ldexp, frexp, remquo, fast_length... (every overload the specification
 * has, for the OpenCL prelude) and CUDA's spellings of the same functions (sinpif, ldexpf,
 * remquof..., for the CUDA prelude).
 *
 * Why definitions and not KIR builtins: a builtin needs the function in every form, and the
 * forms disagree (CUDA C has no tanpi, asinpi, pown, rootn, maxmag, fract or lgamma_r;
 * libdevice no tanpi or rootn; OpenCL C's own sinpi or remquo may be as coarse as the
 * device's ulp table lets it). One definition over the builtins every form has (fmod, sin,
 * pow, floor, as_T...) gives the same, tested result in PTX, SPIR-V, OpenCL C and CUDA C, and
 * costs nothing where unused: like the prelude's other functions, a definition is lowered
 * only when a kernel calls it.
 *
 * The scalar cores are one template (core_tmpl) written for float and double in either
 * language; the OpenCL overloads (vectors, half, pointer outputs in each address space) are
 * component-wise wrappers around the cores. */
#include <string.h>

#include "fe.h"

const char *fe_cl_vtype(char *buf, size_t cap, const char *name, int n) {
  if (n == 1)
    snprintf(buf, cap, "%s", name);
  else
    snprintf(buf, cap, "%s%d", name, n);
  return buf;
}

/* The template's tokens: $T the type, $I/$U the signed/unsigned integer of its width, $B( and
 * $F( the bits of a value and the value of bits, $( a math function's suffix (sinf( in C for
 * float), $C( clz, $M mantissa bits, $E the exponent bias, $X the exponent field of inf and
 * NaN, $W the width, $P pi, $Z 1 for float (whose int conversions can be inexact), $N a quiet
 * NaN, $H +inf. */
static const char core_tmpl[] =
    /* ilogb: from the bits, exact; subnormals by their leading zeros. A NaN is told by a
       floating-point comparison first: NVIDIA's Vulkan driver took the subnormal branch for a
       double NaN's bits inside a large kernel (docs/driver-bugs.md 27). */
    "__KCC_M int __kcc_ilogb($T x, int nan_value) {\n"
    "  if (x != x) return nan_value;\n"
    "  $I b = $B(x) & ~(($I)1 << ($W - 1));\n"
    "  if (b == 0) return -2147483647 - 1;\n"
    "  if (b >= ($I)$X << $M) return b == ($I)$X << $M ? 2147483647 : nan_value;\n"
    "  if (b < ($I)1 << $M) return $W - (int)$C(b) - $E - $M;\n"
    "  return (int)(b >> $M) - $E;\n}\n"
    "__KCC_M $T __kcc_logb($T x) {\n"
    "  if (isnan(x)) return x + x;\n"
    "  if (isinf(x)) return fabs$(x);\n"
    "  if (x == ($T)0) return -$H;\n"
    "  return ($T)__kcc_ilogb(x, 0);\n}\n"
    /* ldexp, correctly rounded: powers of two applied in steps that are exact, so that only
       the last multiplication rounds. Scaling down goes by 2^(1-bias+mantissa+1): a step that
       rounds leaves a value below the smallest normal that the rest of the scaling takes
       below half the smallest subnormal, where the one rounding would give zero too. */
    "__KCC_M $T __kcc_ldexp($T x, int n) {\n"
    "  if (n > $E) {\n"
    "    x *= $F(($I)(2 * $E) << $M); n -= $E;\n"
    "    if (n > $E) { x *= $F(($I)(2 * $E) << $M); n -= $E; if (n > $E) n = $E; }\n"
    "  } else if (n < 1 - $E) {\n"
    "    x *= $F(($I)($M + 2) << $M); n += $E - 2 - $M;\n"
    "    if (n < 1 - $E) {\n"
    "      x *= $F(($I)($M + 2) << $M); n += $E - 2 - $M; if (n < 1 - $E) n = 1 - $E;\n"
    "    }\n"
    "  }\n"
    "  return x * $F(($I)(n + $E) << $M);\n}\n"
    "__KCC_M $T __kcc_nan($U code) {\n"
    "  return $F(($I)$X << $M | ($I)1 << ($M - 1) | (($I)code & ((($I)1 << ($M - 1)) - 1)));\n"
    "}\n"
    /* remquo, exact: fmod by 128|y| (exact) leaves the quotient's low seven bits, taken one by
       one with subtractions that are exact (a - s with s <= a <= 2s), then rounded to the
       nearest, ties to even. Where 128|y| overflows, |x| < 128|y| already. */
    "__KCC_M $T __kcc_remquo($T x, $T y, int *quo) {\n"
    "  *quo = 0;\n"
    "  if (isnan(x) || isnan(y)) return x + y;\n"
    "  if (isinf(x) || y == ($T)0) return $N;\n"
    "  if (isinf(y)) return x;\n"
    "  $T ay = fabs$(y), a = fabs$(x), m = ay * ($T)128;\n"
    "  if (!isinf(m)) a = fmod$(a, m);\n"
    "  int q = 0;\n"
    "  for (int i = 6; i >= 0; i--) {\n"
    "    $T s = ay * ($T)(1 << i);\n"
    "    if (a >= s) { a -= s; q += 1 << i; }\n"
    "  }\n"
    "  if (a + a > ay || (a + a == ay && (q & 1))) { a -= ay; q++; }\n"
    /* seven bits; a nonzero quotient whose bits are all zero keeps its sign as 128 */
    "  q &= 127;\n"
    "  if (q == 0 && fabs$(x) + fabs$(x) > ay) q = 128;\n"
    "  *quo = (x < ($T)0) != (y < ($T)0) ? -q : q;\n"
    "  return $B(x) < 0 ? -a : a;\n}\n"
    "__KCC_M $T __kcc_remainder($T x, $T y) {\n"
    "  int q;\n"
    "  return __kcc_remquo(x, y, &q);\n}\n"
    "__KCC_M $T __kcc_nextafter($T x, $T y) {\n"
    "  if (isnan(x) || isnan(y)) return x + y;\n"
    "  if (x == y) return y;\n"
    "  if (x == ($T)0) return y > ($T)0 ? $F(($I)1) : -$F(($I)1);\n"
    "  $I b = $B(x);\n"
    "  b += (x < y) == (x > ($T)0) ? ($I)1 : -($I)1;\n"
    "  return $F(b);\n}\n"
    "__KCC_M $T __kcc_fdim($T x, $T y) {\n"
    "  if (isnan(x) || isnan(y)) return x + y;\n"
    "  return x > y ? x - y : ($T)0;\n}\n"
    "__KCC_M $T __kcc_maxmag($T x, $T y) {\n"
    "  $T ax = fabs$(x), ay = fabs$(y);\n"
    "  return ax > ay ? x : ay > ax ? y : fmax$(x, y);\n}\n"
    "__KCC_M $T __kcc_minmag($T x, $T y) {\n"
    "  $T ax = fabs$(x), ay = fabs$(y);\n"
    "  return ax < ay ? x : ay < ax ? y : fmin$(x, y);\n}\n"
    /* sinpi, cospi: x reduced exactly (fmod by 2, then by symmetry to [0, 1/2]) before the
       one rounding of pi * r, so that large arguments keep their accuracy; near 1/2 the
       complementary function keeps pi * r small. Integers and half-integers give the exact
       zeros the specification's signs ask for. */
    "__KCC_M $T __kcc_sinpi($T x) {\n"
    "  if (!isfinite(x)) return x - x;\n"
    "  $T r = fmod$(fabs$(x), ($T)2), s = x < ($T)0 ? ($T)-1 : ($T)1;\n"
    "  if (r >= ($T)1) { r -= ($T)1; s = -s; }\n"
    "  if (r > ($T)0.5) r = ($T)1 - r;\n"
    "  if (r == ($T)0) return x * ($T)0;\n"
    "  return s * (r <= ($T)0.25 ? sin$($P * r) : cos$($P * (($T)0.5 - r)));\n}\n"
    "__KCC_M $T __kcc_cospi($T x) {\n"
    "  if (!isfinite(x)) return x - x;\n"
    "  $T r = fmod$(fabs$(x), ($T)2), s = ($T)1;\n"
    "  if (r >= ($T)1) { r -= ($T)1; s = -s; }\n"
    "  if (r > ($T)0.5) { r = ($T)1 - r; s = -s; }\n"
    "  if (r == ($T)0.5) return ($T)0;\n"
    "  return s * (r <= ($T)0.25 ? cos$($P * r) : sin$($P * (($T)0.5 - r)));\n}\n"
    /* The quotient gives tanpi's signed zeros at integers and its infinities at
       half-integers, as the specification has them. */
    "__KCC_M $T __kcc_tanpi($T x) { return __kcc_sinpi(x) / __kcc_cospi(x); }\n"
    "__KCC_M $T __kcc_asinpi($T x) { return asin$(x) / $P; }\n"
    "__KCC_M $T __kcc_acospi($T x) { return acos$(x) / $P; }\n"
    "__KCC_M $T __kcc_atanpi($T x) { return atan$(x) / $P; }\n"
    "__KCC_M $T __kcc_atan2pi($T y, $T x) { return atan2$(y, x) / $P; }\n"
    /* pown: pow of |x| with the sign of odd powers. A float's n beyond 2^24 would round:
       split into a multiple of 256 and the rest, both exact and of n's sign. */
    "__KCC_M $T __kcc_pown($T x, int n) {\n"
    "  if (n == 0) return ($T)1;\n"
    "  $T ax = fabs$(x), r;\n"
    "  if ($Z && (n > 16777216 || n < -16777216))\n"
    "    r = pow$(ax, ($T)(n - n % 256)) * pow$(ax, ($T)(n % 256));\n"
    "  else\n"
    "    r = pow$(ax, ($T)n);\n"
    "  return n & 1 ? copysign$(r, x) : r;\n}\n"
    /* rootn: pow by the rounded 1/n, then one Newton step on y^n = |x|, which removes the
       error the rounding of 1/n makes large for large logarithms. */
    "__KCC_M $T __kcc_rootn($T x, int n) {\n"
    "  if (n == 0 || (x < ($T)0 && !(n & 1))) return $N;\n"
    "  $T ax = fabs$(x);\n"
    /* |x| = x' 2^(|n| q) with x' of exponent below |n| (q = ilogb(x) / |n|, truncated):
       the root is x'^(1/n) 2^(q sign(n)), both scalings exact, and x' keeps y^n away from
       overflow and subnormals, where the step would be too coarse. */
    "  int m = 0;\n"
    "  if (ax > ($T)0 && isfinite(ax)) {\n"
    "    int a = n < -2147483647 ? 2147483647 : n < 0 ? -n : n;\n"
    "    m = __kcc_ilogb(ax, 0) / a;\n"
    "    ax = __kcc_ldexp(ax, -a * m);\n"
    "    if (n < 0) m = -m;\n"
    "  }\n"
    "  $T y = pow$(ax, ($T)1 / ($T)n);\n"
    "  if (y > ($T)0 && isfinite(y) && ax > ($T)0 && isfinite(ax)) {\n"
    "    $T p = __kcc_pown(y, n);\n"
    "    if (p > ($T)0 && isfinite(p)) {\n"
    "      $T t = ax / p;\n"
    "      if (t > ($T)0.5 && t < ($T)2) y += y * (t - ($T)1) / ($T)n;\n"
    "    }\n"
    "  }\n"
    "  if (m) y = __kcc_ldexp(y, m);\n"
    "  return n & 1 ? copysign$(y, x) : y;\n}\n"
    /* 1 / |(a, b, c, d)| (CUDA's rhypot, rnorm3d, rnorm4d): the components scaled by the
       largest one's power of two first, so that their squares neither overflow nor
       underflow where it matters, then the sum of the squares by fma, its square root and
       the reciprocal, each within half an ulp in OpenCL: 1.5 ulp at most. hypot (4 ulp in
       OpenCL) twice was 34 ulp off on NVIDIA's OpenCL (rnorm3d(-1.6875, -3.37e7, 32)). */
    "__KCC_M $T __kcc_rnorm($T a, $T b, $T c, $T d) {\n"
    "  if (isinf(a) || isinf(b) || isinf(c) || isinf(d)) return ($T)0;\n"
    "  $T m = fmax$(fmax$(fabs$(a), fabs$(b)), fmax$(fabs$(c), fabs$(d)));\n"
    "  int e = m > ($T)0 && isfinite(m) ? __kcc_ilogb(m, 0) : 0;\n"
    "  $T x = __kcc_ldexp(a, -e), y = __kcc_ldexp(b, -e), z = __kcc_ldexp(c, -e),\n"
    "     w = __kcc_ldexp(d, -e);\n"
    "  $T s = fma$(x, x, fma$(y, y, fma$(z, z, w * w)));\n"
    "  return __kcc_ldexp(($T)1 / sqrt$(s), -e);\n}\n"
    "__KCC_M $T __kcc_frexp($T x, int *e) {\n"
    "  if (x == ($T)0 || !isfinite(x)) { *e = 0; return x + x; }\n"
    "  int k = __kcc_ilogb(x, 0) + 1;\n"
    "  *e = k;\n"
    "  return __kcc_ldexp(x, -k);\n}\n"
    "__KCC_M $T __kcc_modf($T x, $T *ip) {\n"
    "  $T t = trunc$(x);\n"
    "  *ip = t;\n"
    "  return copysign$(isinf(x) ? ($T)0 : x - t, x);\n}\n"
    /* fract: the largest value below 1 caps x - floor(x), which rounds up to 1 for small
       negative x. */
    "__KCC_M $T __kcc_fract($T x, $T *ip) {\n"
    "  $T f = floor$(x);\n"
    "  *ip = f;\n"
    "  if (isnan(x) || x == ($T)0) return x + x;\n"
    "  if (isinf(x)) return copysign$(($T)0, x);\n"
    "  return fmin$(x - f, $F($B(($T)1) - 1));\n}\n"
    "__KCC_M $T __kcc_sincos($T x, $T *c) {\n"
    "  *c = cos$(x);\n"
    "  return sin$(x);\n}\n"
    /* lgamma_r's sign of gamma(x): negative between a negative odd integer and the integer
       above it, and for -0. */
    "__KCC_M $T __kcc_lgamma_r($T x, int *sign) {\n"
    "  $T f = floor$(x);\n"
    "  *sign = (x < ($T)0 && f != x && fmod$(f, ($T)2) != ($T)0) || (x == ($T)0 && $B(x) < 0)"
    " ? -1 : 1;\n"
    "  return lgamma$(x);\n}\n";

/* CUDA's inverse error functions, normcdf and erfcx over erf, erfc and exp (the Math API has
 * them, OpenCL C does not, so no form lacks the builtins they use). */
static const char cu_tmpl[] =
    /* erfc(y) e^(y^2), from the builtins while both are normal, else its asymptotic series
       (whose first omitted term is below half an ulp there) */
    "__KCC_M $T __kcc_erfcx_pos($T y) {\n"
    "  if (y < ($Z ? ($T)9 : ($T)26.5)) {\n"
    "    $T h = y * y, l = fma$(y, y, -h);\n"
    "    return erfc$(y) * (exp$(h) * (($T)1 + l));\n"
    "  }\n"
    "  $T t = ($T)1, s = ($T)1, w = ($T)1 / (($T)2 * y * y);\n"
    "  for (int k = 1; k <= 8; k++) { t *= -($T)(2 * k - 1) * w; s += t; }\n"
    "  return s * ($T)0.56418958354775628695 / y; /* y sqrt(pi) could overflow */\n}\n"
    "__KCC_M $T __kcc_erfcx($T x) {\n"
    "  if (isnan(x)) return x + x;\n"
    "  if (x >= ($T)0) return isinf(x) ? ($T)0 : __kcc_erfcx_pos(x);\n"
    "  if (x < ($Z ? ($T)-9.5 : ($T)-26.7)) return $H; /* e^(x^2) overflows */\n"
    "  $T h = x * x, l = fma$(x, x, -h);\n"
    "  return erfc$(x) * (exp$(h) * (($T)1 + l));\n}\n"
    /* erfc(y) = z for z in (0, 1/2]: Newton on log erfc, which is nearly quadratic in y, from
       the asymptotic solution */
    /* log erfc(y), y >= 0: from erfcx where erfc would be subnormal */
    "__KCC_M $T __kcc_logerfc_pos($T y) {\n"
    "  if (y < ($Z ? ($T)9 : ($T)26.5)) return log$(erfc$(y));\n"
    "  $T h = y * y, l = fma$(y, y, -h);\n"
    "  return log$(__kcc_erfcx_pos(y)) - h - l;\n}\n"
    "__KCC_M $T __kcc_erfcinv_small($T z) {\n"
    "  $T t = sqrt$(-log$(z));\n"
    "  $T y = t - log$(t * ($T)1.7724538509055160273) / (($T)2 * t), lz = log$(z);\n"
    "  for (int i = 0; i < 8; i++)\n"
    "    y += (__kcc_logerfc_pos(y) - lz) * __kcc_erfcx_pos(y) * ($T)0.88622692545275801365;\n"
    "  return y;\n}\n"
    /* |x| <= 1/2: Newton on erf(y) = x from x sqrt(pi)/2; beyond, erfc's inverse of 1 - |x|
       (exact), where erf would have lost the digits */
    "__KCC_M $T __kcc_erfinv($T x) {\n"
    "  $T a = fabs$(x);\n"
    "  if (isnan(x)) return x + x;\n"
    "  if (a > ($T)1) return $N;\n"
    "  if (a == ($T)1) return copysign$($H, x);\n"
    "  if (a > ($T)0.5) return copysign$(__kcc_erfcinv_small(($T)1 - a), x);\n"
    "  $T y = x * ($T)0.88622692545275801365;\n"
    "  for (int i = 0; i < 5; i++)\n"
    "    y -= (erf$(y) - x) * ($T)0.88622692545275801365 * exp$(y * y);\n"
    "  return y;\n}\n"
    "__KCC_M $T __kcc_erfcinv($T z) {\n"
    "  if (isnan(z)) return z + z;\n"
    "  if (z < ($T)0 || z > ($T)2) return $N;\n"
    "  if (z == ($T)0) return $H;\n"
    "  if (z == ($T)2) return -$H;\n"
    "  if (z < ($T)0.5) return __kcc_erfcinv_small(z);\n"
    "  if (z <= ($T)1.5) return __kcc_erfinv(($T)1 - z);\n"
    "  return -__kcc_erfcinv_small(($T)2 - z);\n}\n"
    /* normcdf(x) = erfc(-x / sqrt 2) / 2, the rounding of -x / sqrt 2 (which erfc's slope
       multiplies for large |x|) added back to first order */
    "__KCC_M $T __kcc_normcdf($T x) {\n"
    "  if (isnan(x)) return x + x;\n"
    "  $T c = ($T)0x1.6a09e667f3bcdp-1, cl = $Z ? ($T)0x1.9fcef32422cbfp-27 : "
    "($T)-0x1.bdd3413b26456p-55;\n"
    "  if ($Z) c = ($T)0x1.6a09e6p-1;\n"
    "  $T z = -x * c, dz = fma$(-x, c, -z) - x * cl;\n"
    "  if (isinf(z)) return z > ($T)0 ? ($T)0 : ($T)1;\n"
    "  return ($T)0.5 * (erfc$(z) - dz * ($T)1.1283791670955126 * exp$(-z * z));\n}\n"
    "__KCC_M $T __kcc_normcdfinv($T p) {\n"
    "  return ($T)-1.4142135623730950488 * __kcc_erfcinv(p + p);\n}\n";

typedef struct Flavor {
  const char *T, *I, *U, *bits, *from_bits, *suffix, *clz, *pi;
  int mant, bias, emax, width, is_float;
} Flavor;

static const Flavor cl_flavors[2] = {
    {"float", "int", "uint", "as_int(", "as_float(", "(", "clz(", "0x1.921fb6p+1f", 23, 127, 255,
     32, 1},
    {"double", "long", "ulong", "as_long(", "as_double(", "(", "clz(", "0x1.921fb54442d18p+1", 52,
     1023, 2047, 64, 0},
};
static const Flavor c_flavors[2] = {
    {"float", "int", "unsigned int", "__float_as_int(", "__int_as_float(", "f(", "__clz(",
     "0x1.921fb6p+1f", 23, 127, 255, 32, 1},
    {"double", "long long", "unsigned long long", "__double_as_longlong(", "__longlong_as_double(",
     "(", "__clzll(", "0x1.921fb54442d18p+1", 52, 1023, 2047, 64, 0},
};

static void expand(KBuf *b, const char *tmpl, const Flavor *f) {
  for (const char *p = tmpl; *p; p++) {
    if (*p != '$') {
      kbuf_printf(b, "%c", *p);
      continue;
    }
    switch (*++p) {
    case 'T': kbuf_printf(b, "%s", f->T); break;
    case 'I': kbuf_printf(b, "%s", f->I); break;
    case 'U': kbuf_printf(b, "%s", f->U); break;
    case 'B': kbuf_printf(b, "%s", f->bits), p++; break;
    case 'F': kbuf_printf(b, "%s", f->from_bits), p++; break;
    case '(': kbuf_printf(b, "%s", f->suffix); break;
    case 'C': kbuf_printf(b, "%s", f->clz), p++; break;
    case 'M': kbuf_printf(b, "%d", f->mant); break;
    case 'E': kbuf_printf(b, "%d", f->bias); break;
    case 'X': kbuf_printf(b, "%d", f->emax); break;
    case 'W': kbuf_printf(b, "%d", f->width); break;
    case 'P': kbuf_printf(b, "%s", f->pi); break;
    case 'Z': kbuf_printf(b, "%d", f->is_float); break;
    case 'N':
      kbuf_printf(b, "%s(%s)%d << %d | (%s)1 << %d)", f->from_bits, f->I, f->emax, f->mant, f->I,
                  f->mant - 1);
      break;
    case 'H': kbuf_printf(b, "%s(%s)%d << %d)", f->from_bits, f->I, f->emax, f->mant); break;
    default: kbuf_printf(b, "$%c", *p); break; /* not reached: the template's own tokens */
    }
  }
}

/* ---------------------------------------------------------------- OpenCL C */

/* The OpenCL functions: name, core, shape. Shapes: 'u' T(T), 'b' T(T, T), 'i' int(T),
 * 'l' T(T, int) (ldexp also takes a scalar int with a vector), 'n' T(uint) (nan), 'p' T(T, T *),
 * 'q' T(T, int *), 'r' T(T, T, int *). */
static const struct {
  const char *name, *core;
  char shape;
} cl_fns[] = {
    {"sinpi", "sinpi", 'u'},         {"cospi", "cospi", 'u'},     {"tanpi", "tanpi", 'u'},
    {"asinpi", "asinpi", 'u'},       {"acospi", "acospi", 'u'},   {"atanpi", "atanpi", 'u'},
    {"logb", "logb", 'u'},           {"atan2pi", "atan2pi", 'b'}, {"remainder", "remainder", 'b'},
    {"nextafter", "nextafter", 'b'}, {"fdim", "fdim", 'b'},       {"maxmag", "maxmag", 'b'},
    {"minmag", "minmag", 'b'},       {"ilogb", "ilogb", 'i'},     {"ldexp", "ldexp", 'l'},
    {"pown", "pown", 'l'},           {"rootn", "rootn", 'l'},     {"nan", "nan", 'n'},
    {"frexp", "frexp", 'q'},         {"modf", "modf", 'p'},       {"fract", "fract", 'p'},
    {"sincos", "sincos", 'p'},       {"remquo", "remquo", 'r'},   {"lgamma_r", "lgamma_r", 'q'},
};

static const int cl_lens[] = {1, 2, 3, 4, 8, 16};

/* Component i of a vector expression (x.s0 ... x.sf), or the scalar itself. */
static void comp(KBuf *b, const char *v, int n, int i) {
  if (n == 1)
    kbuf_printf(b, "%s", v);
  else
    kbuf_printf(b, "%s.s%c", v, "0123456789abcdef"[i]);
}

/* The call of the scalar function for component i: the core for float and double, the float
 * core rounded to half for half (exact wherever the specification asks for exactness: the
 * float result of half operands is exact or rounds once). */
static void scalar_call(KBuf *b, const char *elem, const char *core, char shape, int n, int i) {
  bool half = !strcmp(elem, "half");
  bool ilogb = shape == 'i', nan = shape == 'n';
  if (half && !ilogb && !nan) kbuf_printf(b, "(half)");
  if (half && !strcmp(core, "nextafter")) core = "nextafter_h"; /* steps in half's ulps */
  if (half && !strcmp(core, "fract")) core = "fract_h";         /* below half's 1 */
  kbuf_printf(b, "__kcc_%s(", core);
  if (nan && half) {
    kbuf_printf(b, "(ushort)");
  } else if (nan) {
    kbuf_printf(b, "(%s)", !strcmp(elem, "float") ? "uint" : "ulong");
  } else if (half && strcmp(core, "nextafter_h")) {
    kbuf_printf(b, "(float)");
  }
  comp(b, "x", n, i);
  if (shape == 'b' || shape == 'r') {
    kbuf_printf(b, ", %s", half && strcmp(core, "nextafter_h") ? "(float)" : "");
    comp(b, "y", n, i);
  }
  if (shape == 'l') {
    kbuf_printf(b, ", ");
    comp(b, "k", n, i);
  }
  if (shape == 'p' || shape == 'q' || shape == 'r') kbuf_printf(b, ", &o[%d]", i);
  if (ilogb) kbuf_printf(b, ", 2147483647"); /* FP_ILOGBNAN */
  kbuf_printf(b, ")");
}

/* One overload of fns[f] for elem (float, double, half), length n, and (pointer shapes) the
 * address space as. */
static void cl_overload(KBuf *b, int f, const char *elem, int n, const char *as, bool scalar_k) {
  const char *name = cl_fns[f].name, *core = cl_fns[f].core;
  char shape = cl_fns[f].shape;
  char T[16], I[16], R[16], O[16];
  fe_cl_vtype(T, sizeof T, elem, n);
  fe_cl_vtype(I, sizeof I, "int", n);
  bool half = !strcmp(elem, "half");
  const char *ue = !strcmp(elem, "float") ? "uint" : half ? "ushort" : "ulong";
  const char *R0 = shape == 'i' ? "int" : elem; /* the result's element */
  fe_cl_vtype(R, sizeof R, R0, n);
  if (shape == 'n') fe_cl_vtype(T, sizeof T, ue, n);
  kbuf_printf(b, "__KCC_M %s %s(%s x", R, name, T);
  if (shape == 'b' || shape == 'r') kbuf_printf(b, ", %s y", T);
  if (shape == 'l') kbuf_printf(b, ", %s k", scalar_k ? "int" : I);
  const char *oe = shape == 'p' ? elem : "int"; /* the pointer output's element */
  if (shape == 'p' || shape == 'q' || shape == 'r')
    kbuf_printf(b, ", %s%s *out", as, fe_cl_vtype(O, sizeof O, oe, n));
  kbuf_printf(b, ") {");
  if (shape == 'l' && scalar_k) {
    /* ldexp(Tn, int): the vector form with k splat */
    kbuf_printf(b, " return ldexp(x, (%s)k); }\n", I);
    return;
  }
  bool out = shape == 'p' || shape == 'q' || shape == 'r';
  /* half's float cores write float: a float temporary, rounded once to half */
  const char *te = shape == 'p' && half ? "float" : oe;
  if (out) kbuf_printf(b, " %s o[%d];", te, n);
  kbuf_printf(b, " %s r = ", R);
  if (n > 1) kbuf_printf(b, "(%s)(", R);
  for (int i = 0; i < n; i++) {
    if (i) kbuf_printf(b, ", ");
    scalar_call(b, elem, core, shape, n, i);
  }
  if (n > 1) kbuf_printf(b, ")");
  kbuf_printf(b, ";");
  if (out) {
    kbuf_printf(b, " *out = ");
    if (n > 1) kbuf_printf(b, "(%s)(", O);
    for (int i = 0; i < n; i++)
      kbuf_printf(b, "%s%so[%d]", i ? ", " : "", shape == 'p' && half ? "(half)" : "", i);
    if (n > 1) kbuf_printf(b, ")");
    kbuf_printf(b, ";");
  }
  kbuf_printf(b, " return r; }\n");
}

/* half's nextafter steps in half's ulps, on its bits. fract caps below half's 1. */
static const char cl_half_extra[] = "#ifdef cl_khr_fp16\n"
                                    "__KCC_M half __kcc_nextafter_h(half x, half y) {\n"
                                    "  if (isnan(x) || isnan(y)) return x + y;\n"
                                    "  if (x == y) return y;\n"
                                    "  if (x == (half)0) return as_half((ushort)(y > (half)0 ? "
                                    "0x0001 : 0x8001));\n"
                                    "  short b = as_short(x);\n"
                                    "  b += (x < y) == (x > (half)0) ? 1 : -1;\n"
                                    "  return as_half(b);\n}\n"
                                    "__KCC_M float __kcc_fract_h(float x, float *ip) {\n"
                                    "  float r = __kcc_fract(x, ip);\n"
                                    "  return r > 0x1.ffcp-1f ? 0x1.ffcp-1f : r;\n}\n"
                                    "__KCC_M half __kcc_nan(ushort code) {\n"
                                    "  return as_half((ushort)(0x7e00 | (code & 0x1ff)));\n}\n"
                                    "#endif\n";

void fe_mathlib_cl(KBuf *b) {
  kbuf_printf(b, "#define __KCC_M static inline __attribute__((overloadable))\n");
  for (int t = 0; t < 2; t++) expand(b, core_tmpl, &cl_flavors[t]);
  kbuf_printf(b, "%s", cl_half_extra);
  static const char *const elems[] = {"float", "double", "half"};
  /* Pointer outputs: the generic address space where OpenCL C 2.0 has it, else each named
     one that can be written (__private is the unqualified pointer). */
  static const char *const spaces[] = {"", "__global ", "__local "};
  for (int e = 0; e < 3; e++) {
    if (e == 2) kbuf_printf(b, "#ifdef cl_khr_fp16\n");
    for (size_t f = 0; f < sizeof cl_fns / sizeof *cl_fns; f++) {
      char shape = cl_fns[f].shape;
      bool out = shape == 'p' || shape == 'q' || shape == 'r';
      for (size_t l = 0; l < sizeof cl_lens / sizeof *cl_lens; l++) {
        int n = cl_lens[l];
        if (!out) {
          cl_overload(b, (int)f, elems[e], n, "", false);
          if (shape == 'l' && n > 1 && !strcmp(cl_fns[f].name, "ldexp"))
            cl_overload(b, (int)f, elems[e], n, "", true);
          continue;
        }
        cl_overload(b, (int)f, elems[e], n, "", false);
        kbuf_printf(b, "#ifndef __opencl_c_generic_address_space\n");
        for (int s = 1; s < 3; s++) cl_overload(b, (int)f, elems[e], n, spaces[s], false);
        kbuf_printf(b, "#endif\n");
      }
    }
    if (e == 2) kbuf_printf(b, "#endif\n");
  }
  /* fast_length & co. (float only, 1 to 4 components): the full-precision functions, which
     meet the looser bounds; fast_normalize returns a zero vector as it is, as the
     specification asks. */
  for (int n = 1; n <= 4; n++) {
    char T[16];
    fe_cl_vtype(T, sizeof T, "float", n);
    kbuf_printf(b,
                "__KCC_M float fast_length(%s p) { return length(p); }\n"
                "__KCC_M float fast_distance(%s a, %s b) { return length(a - b); }\n"
                "__KCC_M %s fast_normalize(%s p) { float s = dot(p, p); "
                "return s == 0.0f ? p : p * rsqrt(s); }\n",
                T, T, T, T, T);
  }
  kbuf_printf(b, "#undef __KCC_M\n");
}

/* ---------------------------------------------------------------- CUDA */

/* CUDA's spellings: name (the double one; float appends 'f'), then the body over the cores,
 * its parameters after the type. ilogb of NaN is INT_MIN, as the CUDA Math API has it. */
static const struct {
  const char *name, *ret, *params, *body;
} cu_fns[] = {
    {"sinpi", "T", "T x", "return __kcc_sinpi(x);"},
    {"cospi", "T", "T x", "return __kcc_cospi(x);"},
    {"sincospi", "void", "T x, T *s, T *c", "*s = __kcc_sinpi(x); *c = __kcc_cospi(x);"},
    {"logb", "T", "T x", "return __kcc_logb(x);"},
    {"ilogb", "int", "T x", "return __kcc_ilogb(x, -2147483647 - 1);"},
    {"ldexp", "T", "T x, int n", "return __kcc_ldexp(x, n);"},
    {"scalbn", "T", "T x, int n", "return __kcc_ldexp(x, n);"},
    /* a long exponent beyond int's range gives the same infinity or zero as int's bound */
    {"scalbln", "T", "T x, long n",
     "return __kcc_ldexp(x, n > 100000 ? 100000 : n < -100000 ? -100000 : (int)n);"},
    {"frexp", "T", "T x, int *e", "return __kcc_frexp(x, e);"},
    {"modf", "T", "T x, T *ip", "return __kcc_modf(x, ip);"},
    {"remquo", "T", "T x, T y, int *q", "return __kcc_remquo(x, y, q);"},
    {"remainder", "T", "T x, T y", "return __kcc_remainder(x, y);"},
    {"nextafter", "T", "T x, T y", "return __kcc_nextafter(x, y);"},
    {"fdim", "T", "T x, T y", "return __kcc_fdim(x, y);"},
    /* The reciprocal norms in double for float too: rnorm3df of subnormal and tiny components
       was 4.9 ulp off on an H100 (CUDA documents 2). */
    {"rhypot", "T", "T x, T y", "return (T)__kcc_rnorm((double)x, (double)y, 0.0, 0.0);"},
    {"rcbrt", "T", "T x", "return (T)1 / cbrtF(x);"},
    {"norm3d", "T", "T a, T b, T c", "return hypotF(hypotF(a, b), c);"},
    {"rnorm3d", "T", "T a, T b, T c",
     "return (T)__kcc_rnorm((double)a, (double)b, (double)c, 0.0);"},
    {"norm4d", "T", "T a, T b, T c, T d", "return hypotF(hypotF(a, b), hypotF(c, d));"},
    {"rnorm4d", "T", "T a, T b, T c, T d",
     "return (T)__kcc_rnorm((double)a, (double)b, (double)c, (double)d);"},
    {"nearbyint", "T", "T x", "return rintF(x);"},
    /* In double for float too: Newton over erf and erfc cannot be closer than float's erfc
       (4 ulp) lets it, and erfcinvf came out 4.4 ulp from the true value on an H200. */
    {"erfinv", "T", "T x", "return (T)__kcc_erfinv((double)x);"},
    {"erfcinv", "T", "T x", "return (T)__kcc_erfcinv((double)x);"},
    {"erfcx", "T", "T x", "return (T)__kcc_erfcx((double)x);"},
    {"normcdf", "T", "T x", "return (T)__kcc_normcdf((double)x);"},
    {"normcdfinv", "T", "T x", "return (T)__kcc_normcdfinv((double)x);"},
    {"lrint", "long", "T x", "return (long)rintF(x);"},
    {"llrint", "long long", "T x", "return (long long)rintF(x);"},
    {"lround", "long", "T x", "return (long)roundF(x);"},
    {"llround", "long long", "T x", "return (long long)roundF(x);"},
};

/* One body with T, U and F (the math suffix) put in. */
static void cu_subst(KBuf *b, const char *s, const Flavor *f) {
  for (const char *p = s; *p; p++) {
    bool word = p == s || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'));
    if (*p == 'T' && word && !(p[1] >= 'a' && p[1] <= 'z'))
      kbuf_printf(b, "%s", f->T);
    else if (*p == 'U' && word && p[1] == ')')
      kbuf_printf(b, "%s", f->U);
    else if (*p == 'F' && p[1] == '(')
      kbuf_printf(b, "%s", f->is_float ? "f" : "");
    else
      kbuf_printf(b, "%c", *p);
  }
}

/* CUDA's Bessel functions (j0 j1 jn y0 y1 yn cyl_bessel_i0 cyl_bessel_i1 and their float
 * forms, which round the double result), written over kcc's builtins (sin, cos, log, exp, sqrt,
 * fma) in double for every form. J0, J1, Y0, Y1 of x > 0:
 *   - x < 0.5: the ascending series (Y with its logarithm), a few terms;
 *   - x >= 25: Hankel's asymptotic expansion, P and Q summed while their terms shrink, with
 *     cos(x - pi/4) and sin(x - pi/4) from the device's cos x and sin x (whose argument
 *     reduction is exact: x - pi/4 rounded would not be);
 *   - between: a Taylor series about the nearest of a few dozen centres (bessel_*[] below,
 *     scripts/bessel_centers.py), its coefficients from the value and derivative there by the
 *     recurrence Bessel's equation gives. The centres include every zero, held as two doubles,
 *     so that near a zero the result keeps its relative accuracy (2.5 ulp in double at most
 *     in the script's check, where CUDA documents 7 ulp below 8 and 5e-12 absolute above).
 * jn: forward recurrence from J0 and J1 where n < |x| (stable there), else Miller's backward
 * recurrence normalised by J0 + 2(J2 + J4 + ...) = 1; yn: forward recurrence from Y0 and Y1.
 * I0, I1: the ascending series (all terms positive, x^2/4's rounding error added back) below
 * 25, the asymptotic expansion of e^-x I(x) above. CUDA's special values: n < 0 gives NaN for
 * jn and yn, y of 0 is -inf and of x < 0 NaN, every function of an infinity 0 but I0 and I1. */
typedef struct BesselCenter {
  double c, cl, f0, f1; /* the centre c + cl, the function and its derivative there */
} BesselCenter;

static const BesselCenter bessel_j0[] = {
    {0x1.0000000000000p-1, 0, 0x1.e07f1d54c3f34p-1, -0x1.f02a71f4870d7p-3},
    {0x1.4000000000000p-1, 0, 0x1.cf352138d4ab2p-1, -0x1.30a093b16f993p-2},
    {0x1.9000000000000p-1, 0, 0x1.b4ce2084c2561p-1, -0x1.723facc9a93cfp-2},
    {0x1.f000000000000p-1, 0, 0x1.8ebd69d476a55p-1, -0x1.b80bb4c0f4a87p-2},
    {0x1.3800000000000p+0, 0, 0x1.52d045daa1fd8p-1, -0x1.018c2d6e2bc0dp-1},
    {0x1.8800000000000p+0, 0, 0x1.fa3092854a04cp-2, -0x1.1fcce7f61aba7p-1},
    {0x1.e800000000000p+0, 0, 0x1.1cdd0112001a2p-2, -0x1.2978ac15d313bp-1},
    {0x1.33d152e971b40p+1, -0x1.0f539d7da258ep-53, 0, -0x1.09cdb36551280p-1},
    {0x1.7c00000000000p+1, 0, -0x1.fe83f328690e2p-3, -0x1.670b623d54353p-2},
    {0x1.dc00000000000p+1, 0, -0x1.99c55bca65a87p-2, -0x1.798b2a7e92da6p-5},
    {0x1.2a00000000000p+2, 0, -0x1.20165dabc2f69p-2, 0x1.1411e0dbcfff4p-2},
    {0x1.6148f5b2c2e45p+2, 0x1.75054cd60a517p-54, 0, 0x1.5c6e60a097823p-2},
    {0x1.c100000000000p+2, 0, 0x1.33518b34ab4b1p-2, -0x1.81fdf99a8b6d2p-17},
    {0x1.14eb56cccdecap+3, -0x1.51970714c7c25p-52, 0, -0x1.15f7977a772d4p-2},
    {0x1.2d80000000000p+3, 0, -0x1.7211935917ea6p-3, -0x1.6b1ee6f2c3d67p-3},
    {0x1.5400000000000p+3, 0, -0x1.ccdfef6c1a53fp-3, 0x1.b4cebfc336c69p-4},
    {0x1.79544008272b6p+3, 0x1.444fd5821d5b1p-52, 0, 0x1.dc13e66ac2e77p-3},
    {0x1.a100000000000p+3, 0, 0x1.ac1277960b543p-3, 0x1.04bdbcd55fb0cp-4},
    {0x1.c780000000000p+3, 0, 0x1.15ec00cf5d4bbp-3, -0x1.55f6ed120b5cfp-3},
    {0x1.ddca13ef271d2p+3, -0x1.9796609364e85p-51, 0, -0x1.a701d0f967500p-3},
    {0x1.0a40000000000p+4, 0, -0x1.8c94c2151be83p-3, 0x1.0ee40b5e5a1a0p-5},
    {0x1.212313f8a19f6p+4, -0x1.165fd108f46ffp-50, 0, 0x1.8077f56c9b782p-3},
    {0x1.30c0000000000p+4, 0, 0x1.36194044f7e7ep-3, 0x1.934e0a78b2ad3p-4},
    {0x1.4400000000000p+4, 0, 0x1.29d2b1169c045p-3, -0x1.ae242cff0b1bep-4},
    {0x1.5362dd173f792p+4, 0x1.1d2dfa1c3b5a8p-51, 0, -0x1.62d93aa9d05bbp-3},
    {0x1.6a80000000000p+4, 0, -0x1.548c10d47bc62p-3, -0x1.1c8ed7a15903ep-6},
    {0x1.85a3b930156ddp+4, 0x1.0847c620015e0p-50, 0, 0x1.4b2a2ebf61ecep-3},
    {0x1.9100000000000p+4, 0, 0x1.a991795b2edfep-4, 0x1.e68e4e424fd8cp-4},
};
static const BesselCenter bessel_j1[] = {
    {0x1.0000000000000p-1, 0, 0x1.f02a71f4870d7p-3, 0x1.d0d3c8b500d92p-2},
    {0x1.4000000000000p-1, 0, 0x1.30a093b16f993p-2, 0x1.b702efbc29facp-2},
    {0x1.9000000000000p-1, 0, 0x1.723facc9a93cfp-2, 0x1.8fb1266dcac48p-2},
    {0x1.f000000000000p-1, 0, 0x1.b80bb4c0f4a87p-2, 0x1.573d31d97d20ep-2},
    {0x1.3800000000000p+0, 0, 0x1.018c2d6e2bc0dp-1, 0x1.fdf84dcc6e83bp-3},
    {0x1.8800000000000p+0, 0, 0x1.1fcce7f61aba7p-1, 0x1.049305cb9c956p-3},
    {0x1.e800000000000p+0, 0, 0x1.2978ac15d313bp-1, -0x1.b3ce1a45f743dp-6},
    {0x1.3000000000000p+1, 0, 0x1.0d05b61537fabp-1, -0x1.a52f89d397660p-3},
    {0x1.7c00000000000p+1, 0, 0x1.670b623d54353p-2, -0x1.7832f23fc4c41p-2},
    {0x1.ea75575af6f09p+1, -0x1.60155a9d1b256p-53, 0, -0x1.9c6cf582cbf7fp-2},
    {0x1.2a00000000000p+2, 0, -0x1.1411e0dbcfff4p-2, -0x1.c9982aa6a322bp-3},
    {0x1.7400000000000p+2, 0, -0x1.3c9c31bb6db27p-2, 0x1.30afd59f8aaa1p-3},
    {0x1.c0ff5f3b47250p+2, -0x1.b226d9d243827p-54, 0, 0x1.33518b3874e8ap-2},
    {0x1.0700000000000p+3, 0, 0x1.09e29c76b07ccp-2, 0x1.5f4facfb8ccd7p-4},
    {0x1.2d80000000000p+3, 0, 0x1.6b1ee6f2c3d67p-3, -0x1.989bdc420976cp-3},
    {0x1.458d0d0bdfc29p+3, 0x1.02610a51562b6p-51, 0, -0x1.ff654544ebcd1p-3},
    {0x1.7a80000000000p+3, 0, -0x1.da4976bba65b8p-3, 0x1.cbe6105a39c36p-6},
    {0x1.aa5baf310e5a2p+3, 0x1.2bce7fd18e693p-52, 0, 0x1.bf3337873a7d8p-3},
    {0x1.c780000000000p+3, 0, 0x1.55f6ed120b5cfp-3, 0x1.fbcbcaf4264ecp-4},
    {0x1.ee00000000000p+3, 0, 0x1.652b57d692482p-3, -0x1.c1f117705ade9p-4},
    {0x1.0787b360508c5p+4, -0x1.d2a68e88ab317p-50, 0, -0x1.925c6fca08f55p-3},
    {0x1.1d80000000000p+4, 0, -0x1.7b64622c9a2b3p-3, -0x1.07ba66c1a2978p-5},
    {0x1.39da8e7416ca4p+4, -0x1.21830197e9e86p-50, 0, 0x1.70c511227d5aap-3},
    {0x1.4400000000000p+4, 0, 0x1.ae242cff0b1bep-4, 0x1.1f33c619cb267p-3},
    {0x1.5740000000000p+4, 0, 0x1.54a28ee1707d6p-3, -0x1.910a4436b264cp-5},
    {0x1.6c294e3d4d8acp+4, -0x1.1bf33afef88f1p-51, 0, -0x1.5664e13b70622p-3},
    {0x1.7dc0000000000p+4, 0, -0x1.2a03ae8a5d80bp-3, -0x1.23c10fc581d95p-4},
    {0x1.9100000000000p+4, 0, -0x1.e68e4e424fd8cp-4, 0x1.bcfb61aa6ffc5p-4},
    {0x1.9e7570dcea106p+4, 0x1.1a2686480d882p-51, 0, 0x1.40f90793605bbp-3},
};
static const BesselCenter bessel_y0[] = {
    {0x1.0000000000000p-1, 0, -0x1.c72feb3b7b8a2p-2, 0x1.78b26a2b7c4dfp+0},
    {0x1.4000000000000p-1, 0, -0x1.1c3545a563b4ap-2, 0x1.3797262d3470dp+0},
    {0x1.9000000000000p-1, 0, -0x1.af7d911061c7ep-4, 0x1.ffe5856f033b2p-1},
    {0x1.c982eb8d417eap-1, 0x1.ea9d270347f83p-56, 0, 0x1.c24371844b88ap-1},
    {0x1.3800000000000p+0, 0, 0x1.eab2fbfd85d6cp-3, 0x1.36e6b6b7643f7p-1},
    {0x1.8800000000000p+0, 0, 0x1.947e762a0e040p-2, 0x1.9145d558c1484p-2},
    {0x1.e800000000000p+0, 0, 0x1.fdc8c09225a41p-2, 0x1.493e623a80455p-3},
    {0x1.3000000000000p+1, 0, 0x1.068b13f5a6b10p-1, -0x1.6b450e1e688eep-4},
    {0x1.7c00000000000p+1, 0, 0x1.8c25d0989ede4p-2, -0x1.43ae9e2d0cfefp-2},
    {0x1.fa9534d98569cp+1, -0x1.f06ae7804384ep-54, 0, -0x1.9c34256a12a0cp-2},
    {0x1.2a00000000000p+2, 0, -0x1.e840b4bbef854p-3, -0x1.07b3c2fd7514bp-2},
    {0x1.7400000000000p+2, 0, -0x1.43d28aab66cdbp-2, 0x1.f78b951cb239fp-4},
    {0x1.c581dc4e72103p+2, -0x1.9774a495f56cfp-54, 0, 0x1.334cca0697a5bp-2},
    {0x1.0700000000000p+3, 0, 0x1.0221e6a30c4cfp-2, 0x1.a2fe25f0da438p-4},
    {0x1.2d80000000000p+3, 0, 0x1.7e2d486f0c311p-3, -0x1.86cea7d3d73c4p-3},
    {0x1.471d735a47d58p+3, -0x1.cb49ff791c495p-51, 0, -0x1.ff635cc72b9f1p-3},
    {0x1.7a80000000000p+3, 0, -0x1.da99edc16aa4ap-3, 0x1.2b745a4093791p-6},
    {0x1.ab8e1c4a1e74ap+3, -0x1.7df81de86f24dp-51, 0, 0x1.bf32a27594007p-3},
    {0x1.c780000000000p+3, 0, 0x1.4c02c25c58ce7p-3, 0x1.0a71a5adc2718p-3},
    {0x1.ee00000000000p+3, 0, 0x1.6b829f7ee6feep-3, -0x1.ab66ebc7f836dp-4},
    {0x1.0803c74003214p+4, 0x1.25a237d12159bp-50, 0, -0x1.925c35988ee29p-3},
    {0x1.1d80000000000p+4, 0, -0x1.78cdb51e4a50dp-3, -0x1.32b60f85ac24dp-5},
    {0x1.3a42cdf5febd7p+4, -0x1.8bf92d51fbaebp-50, 0, 0x1.70c4f66cab47fp-3},
    {0x1.4400000000000p+4, 0, 0x1.9f511812aa249p-4, 0x1.24ca088ea8cdcp-3},
    {0x1.5740000000000p+4, 0, 0x1.5682043b9b780p-3, -0x1.71885ab629d69p-5},
    {0x1.6c832fd77ac07p+4, 0x1.ca75080cf53a8p-50, 0, -0x1.5664d37c37d7bp-3},
    {0x1.7dc0000000000p+4, 0, -0x1.26a1ee4f58256p-3, -0x1.30760a1740fb9p-4},
    {0x1.9100000000000p+4, 0, -0x1.eef1c4a3fa577p-4, 0x1.b385e56410c3ep-4},
    {0x1.9ec46f3e80146p+4, -0x1.03e052bd9c0afp-52, 0, 0x1.40f8ffdf09a5fp-3},
};
static const BesselCenter bessel_y1[] = {
    {0x1.0000000000000p-1, 0, -0x1.78b26a2b7c4dfp+0, 0x1.3fcc6cc40cdcbp+1},
    {0x1.4000000000000p-1, 0, -0x1.3797262d3470dp+0, 0x1.ab7e1edefafa8p+0},
    {0x1.9000000000000p-1, 0, -0x1.ffe5856f033b2p-1, 0x1.2ca549218b510p+0},
    {0x1.f000000000000p-1, 0, -0x1.9e1e67092de92p-1, 0x1.cbf225c9bc23ep-1},
    {0x1.3800000000000p+0, 0, -0x1.36e6b6b7643f7p-1, 0x1.79c5f275090c3p-1},
    {0x1.8800000000000p+0, 0, -0x1.9145d558c1484p-2, 0x1.4d465c2cc8bb9p-1},
    {0x1.e800000000000p+0, 0, -0x1.493e623a80455p-3, 0x1.2a1253fccfb55p-1},
    {0x1.193bed4dff243p+1, -0x1.bd1e50d219bfdp-55, 0, 0x1.0aa48442f014bp-1},
    {0x1.7c00000000000p+1, 0, 0x1.43ae9e2d0cfefp-2, 0x1.1f1e32389a7dap-2},
    {0x1.dc00000000000p+1, 0, 0x1.aa7ad9ab728f4p-2, -0x1.c1fcc5c2f7803p-7},
    {0x1.2a00000000000p+2, 0, 0x1.07b3c2fd7514bp-2, -0x1.2cc2aa0af3b27p-2},
    {0x1.5b7fe4e87b02ep+2, 0x1.dfe7bac228e8cp-52, 0, -0x1.5c7c556f0c19ap-2},
    {0x1.c100000000000p+2, 0, -0x1.359e301049183p-2, 0x1.6668110c678c4p-6},
    {0x1.13127ae6169b4p+3, 0x1.479cc068d9046p-52, 0, 0x1.15f993fceab5cp-2},
    {0x1.2d80000000000p+3, 0, 0x1.86cea7d3d73c4p-3, 0x1.54b2bb80e536fp-3},
    {0x1.5400000000000p+3, 0, 0x1.c42620a09747ap-3, -0x1.de349d1820a0dp-4},
    {0x1.77f9138d43206p+3, 0x1.0fc786ce06080p-55, 0, -0x1.dc14ea14e89f9p-3},
    {0x1.a100000000000p+3, 0, -0x1.b200f3a0b2d86p-3, -0x1.c57078c57e478p-5},
    {0x1.c780000000000p+3, 0, -0x1.0a71a5adc2718p-3, 0x1.5ebaa7c860d8ap-3},
    {0x1.dcb7d88de848bp+3, -0x1.5e091a50f8e05p-51, 0, 0x1.a7022be084d99p-3},
    {0x1.0a40000000000p+4, 0, 0x1.8b158fcb1c347p-3, -0x1.3e2336b3100f4p-5},
    {0x1.20b1c695f1e3bp+4, -0x1.a1ee4c5487edep-50, 0, -0x1.80781c32422e7p-3},
    {0x1.30c0000000000p+4, 0, -0x1.3bb4ddf8ea6e0p-3, -0x1.8247b862bb751p-4},
    {0x1.4400000000000p+4, 0, -0x1.24ca088ea8cdcp-3, 0x1.bc3bf627134f0p-4},
    {0x1.53025492188cdp+4, 0x1.391b14410528fp-50, 0, 0x1.62d94d97e859cp-3},
    {0x1.6a80000000000p+4, 0, 0x1.5594738baaf72p-3, 0x1.bfe9a90c5ba2ap-7},
    {0x1.854fa303820cap+4, 0x1.52f75f025b205p-52, 0, -0x1.4b2a38f1ab9b4p-3},
    {0x1.9100000000000p+4, 0, -0x1.b385e56410c3ep-4, -0x1.dd91224554f6ep-4},
};
static const BesselCenter bessel_i0[] = {
    {0x1.0000000000000p-1, 0, 0x1.104072392c800p+0, 0x1.081571ddea056p-2},
    {0x1.4000000000000p-1, 0, 0x1.199df4afef914p+0, 0x1.4fe1a2f6fbf29p-2},
    {0x1.9000000000000p-1, 0, 0x1.2893ffd23a183p+0, 0x1.af4dba576d2afp-2},
    {0x1.f000000000000p-1, 0, 0x1.3fadbc1c5345dp+0, 0x1.1640bdfc5f76ep-1},
    {0x1.3800000000000p+0, 0, 0x1.6842a165c8de1p+0, 0x1.75a07e4b0f227p-1},
    {0x1.8800000000000p+0, 0, 0x1.ad8a1c670035cp+0, 0x1.0357261d12e79p+0},
    {0x1.e800000000000p+0, 0, 0x1.1183443d4c85fp+1, 0x1.74f0e7a7e8de3p+0},
    {0x1.3000000000000p+1, 0, 0x1.7f08aeef213a6p+1, 0x1.1f89f194856bdp+1},
    {0x1.7c00000000000p+1, 0, 0x1.309304e0a5763p+2, 0x1.ebfa4e0902ba8p+1},
    {0x1.dc00000000000p+1, 0, 0x1.1c22a17544c13p+3, 0x1.e4083d7994990p+2},
    {0x1.2a00000000000p+2, 0, 0x1.410e3f7e154b2p+4, 0x1.1c0dc42be0f8bp+4},
    {0x1.7400000000000p+2, 0, 0x1.c56dd5c81dd89p+5, 0x1.9c529d4610854p+5},
    {0x1.c100000000000p+2, 0, 0x1.56199540074f5p+7, 0x1.3caf1fe772c99p+7},
    {0x1.0700000000000p+3, 0, 0x1.065d838fb08dbp+9, 0x1.ebaff6ad0399ep+8},
    {0x1.2d80000000000p+3, 0, 0x1.97275b58b9efep+10, 0x1.80e64367a52f9p+10},
    {0x1.5400000000000p+3, 0, 0x1.3eb33a54d6b85p+12, 0x1.2f4f67e904e73p+12},
    {0x1.7a80000000000p+3, 0, 0x1.f6563d20af001p+13, 0x1.e09bedb542af8p+13},
    {0x1.a100000000000p+3, 0, 0x1.8e0f1635c0f17p+15, 0x1.7e778a1bd347dp+15},
    {0x1.c780000000000p+3, 0, 0x1.3cd71544292d2p+17, 0x1.317ff217e144bp+17},
    {0x1.ee00000000000p+3, 0, 0x1.fa44fb152afc8p+18, 0x1.e99658e258fecp+18},
    {0x1.0a40000000000p+4, 0, 0x1.95c1515bca924p+20, 0x1.895e3afcea288p+20},
    {0x1.1d80000000000p+4, 0, 0x1.46141e93dbf2cp+22, 0x1.3cce3e173cbe1p+22},
    {0x1.30c0000000000p+4, 0, 0x1.06a9f74a61589p+24, 0x1.ff589877a971dp+23},
    {0x1.4400000000000p+4, 0, 0x1.a808ef6ba3e0bp+25, 0x1.9d6dc01a24d2ap+25},
    {0x1.5740000000000p+4, 0, 0x1.56e522c1cca52p+27, 0x1.4ece36030bb98p+27},
    {0x1.6a80000000000p+4, 0, 0x1.15bac43ec63cdp+29, 0x1.0f878dd4ae5bdp+29},
    {0x1.7dc0000000000p+4, 0, 0x1.c28c32be391fep+30, 0x1.b900a69196882p+30},
    {0x1.9100000000000p+4, 0, 0x1.6ded58c23577dp+32, 0x1.668d090aee03dp+32},
};
static const BesselCenter bessel_i1[] = {
    {0x1.0000000000000p-1, 0, 0x1.081571ddea056p-2, 0x1.186b72946efa9p-1},
    {0x1.4000000000000p-1, 0, 0x1.4fe1a2f6fbf29p-2, 0x1.26876700af2d3p-1},
    {0x1.9000000000000p-1, 0, 0x1.af4dba576d2afp-2, 0x1.3d1f3676bdae9p-1},
    {0x1.f000000000000p-1, 0, 0x1.1640bdfc5f76ep-1, 0x1.6020e5a7bfdf6p-1},
    {0x1.3800000000000p+0, 0, 0x1.75a07e4b0f227p-1, 0x1.9df47224f4e82p-1},
    {0x1.8800000000000p+0, 0, 0x1.0357261d12e79p+0, 0x1.042ca03f1da8fp+0},
    {0x1.e800000000000p+0, 0, 0x1.74f0e7a7e8de3p+0, 0x1.5f6262e390329p+0},
    {0x1.3000000000000p+1, 0, 0x1.1f89f194856bdp+1, 0x1.05f705d903ff7p+1},
    {0x1.7c00000000000p+1, 0, 0x1.ebfa4e0902ba8p+1, 0x1.bb6e050703f0fp+1},
    {0x1.dc00000000000p+1, 0, 0x1.e4083d7994990p+2, 0x1.b61c52a76c4e8p+2},
    {0x1.2a00000000000p+2, 0, 0x1.1c0dc42be0f8bp+4, 0x1.040d027660aeap+4},
    {0x1.7400000000000p+2, 0, 0x1.9c529d4610854p+5, 0x1.7e7de6c4520ebp+5},
    {0x1.c100000000000p+2, 0, 0x1.3caf1fe772c99p+7, 0x1.28f5c9b7d7050p+7},
    {0x1.0700000000000p+3, 0, 0x1.ebaff6ad0399ep+8, 0x1.d0e7ced3d194dp+8},
    {0x1.2d80000000000p+3, 0, 0x1.80e64367a52f9p+10, 0x1.6e4d5357ea359p+10},
    {0x1.5400000000000p+3, 0, 0x1.2f4f67e904e73p+12, 0x1.22273c9942aeap+12},
    {0x1.7a80000000000p+3, 0, 0x1.e09bedb542af8p+13, 0x1.cdb4420e50c28p+13},
    {0x1.a100000000000p+3, 0, 0x1.7e778a1bd347dp+15, 0x1.70b57dcc7b51dp+15},
    {0x1.c780000000000p+3, 0, 0x1.317ff217e144bp+17, 0x1.2760c81f5b635p+17},
    {0x1.ee00000000000p+3, 0, 0x1.e99658e258fecp+18, 0x1.da8e281c4559ep+18},
    {0x1.0a40000000000p+4, 0, 0x1.895e3afcea288p+20, 0x1.7e1dba76a88c8p+20},
    {0x1.1d80000000000p+4, 0, 0x1.3cce3e173cbe1p+22, 0x1.3452fc29a56f0p+22},
    {0x1.30c0000000000p+4, 0, 0x1.ff589877a971dp+23, 0x1.f27b2c16c5f9ep+23},
    {0x1.4400000000000p+4, 0, 0x1.9d6dc01a24d2ap+25, 0x1.939e613175cffp+25},
    {0x1.5740000000000p+4, 0, 0x1.4ece36030bb98p+27, 0x1.4749e75f0615ep+27},
    {0x1.6a80000000000p+4, 0, 0x1.0f878dd4ae5bdp+29, 0x1.09beab9fabd3cp+29},
    {0x1.7dc0000000000p+4, 0, 0x1.b900a69196882p+30, 0x1.b010722ca323ep+30},
    {0x1.9100000000000p+4, 0, 0x1.668d090aee03dp+32, 0x1.5f9ef0f9f3caap+32},
};

static const char cu_bessel[] =
    /* the Taylor series about c + cl of the solution of x^2 f'' + x f' + (g x^2 - nu^2) f = 0
       (g = 1 for J and Y, -1 for I) with f = f0 and f' = f1 there: c^2 (k+2)(k+1) a[k+2] =
       -(c (k+1)(2k+1) a[k+1] + (k^2 + g c^2 - nu^2) a[k] + g (2c a[k-1] + a[k-2])) */
    "static __inline__ double __kcc_bes_taylor(double x, double nu, double g, double c, double "
    "cl, double f0, double f1) {\n"
    "  double a[24], t = (x - c) - cl, cc = c * c;\n"
    "  a[0] = f0; a[1] = f1;\n"
    "  for (int k = 0; k < 22; k++) {\n"
    "    double s = c * (double)((k + 1) * (2 * k + 1)) * a[k + 1] + ((double)(k * k) + g * cc - "
    "nu * nu) * a[k];\n"
    "    if (k >= 1) s += g * 2.0 * c * a[k - 1];\n"
    "    if (k >= 2) s += g * a[k - 2];\n"
    "    a[k + 2] = -s / (cc * (double)((k + 2) * (k + 1)));\n"
    "  }\n"
    "  double r = a[23];\n"
    "  for (int k = 22; k >= 0; k--) r = fma(r, t, a[k]);\n"
    "  return r;\n}\n"
    /* x < 0.5: J = (x/2)^nu sum (-x^2/4)^k / (k! (k+nu)!), Y from the same terms weighted by
       psi(k+1) + psi(k+nu+1) (A&S 9.1.11) */
    "static __inline__ double __kcc_bes_small(double x, int nu, bool y) {\n"
    "  double q = -0.25 * x * x, t = 1.0, sj = 1.0, p0 = -0.57721566490153286061, p1 = nu ? "
    "0.42278433509846713939 : p0, sy = p0 + p1;\n"
    "  for (int k = 1; k < 12; k++) {\n"
    "    t *= q / (double)(k * (k + nu));\n"
    "    p0 += 1.0 / (double)k; p1 += 1.0 / (double)(k + nu);\n"
    "    sj += t; sy += (p0 + p1) * t;\n"
    "  }\n"
    "  if (!y) return nu ? 0.5 * x * sj : sj;\n"
    "  double l = log(x) - 0.69314718055994530942;\n"
    "  if (!nu) return 0.63661977236758134308 * (l * sj - 0.5 * sy);\n"
    "  return -0.63661977236758134308 / x + 0.31830988618379067154 * (l * x * sj - 0.5 * x * "
    "sy);\n}\n"
    /* x >= 25: sqrt(2 / (pi x)) (P cos chi - Q sin chi) for J, (P sin chi + Q cos chi) for Y,
       chi = x - (2 nu + 1) pi / 4 */
    "static __inline__ double __kcc_bes_asym(double x, int nu, bool y) {\n"
    "  double mu = (double)(4 * nu * nu), w = 0.125 / x, a = 1.0, p = 0.0, q = 0.0;\n"
    "  for (int k = 1; k < 60; k++) {\n"
    "    double b = a * (mu - (double)((2 * k - 1) * (2 * k - 1))) * w / (double)k;\n"
    "    if (fabs(b) >= fabs(a)) break;\n"
    "    a = b;\n"
    "    if ((k & 3) == 1) q += a; else if ((k & 3) == 2) p -= a; else if ((k & 3) == 3) q -= "
    "a; else p += a;\n"
    "    if (fabs(a) < 1e-18) break;\n"
    "  }\n"
    "  p += 1.0; /* P's first term last: the others' roundings are theirs */\n"
    "  double sx = sin(x), cx = cos(x), u = cx + sx, v = sx - cx;\n"
    "  double r = nu ? (y ? q * v - p * u : p * v + q * u) : (y ? p * v + q * u : p * u - q * "
    "v);\n"
    "  return r * (0.56418958354775628695 / sqrt(x));\n}\n";

/* The centre nearest x among a function's (x in [0.5, 25]), by comparisons with the midpoints:
 * assignments only, so that the one Taylor series after them is all the code of its own. */
static void bessel_centers(KBuf *b, const char *name, const BesselCenter *t, size_t n) {
  kbuf_printf(b,
              "static __inline__ void __kcc_bes_%s_ctr(double x, double *c, double *cl, double "
              "*f0, double *f1) {\n",
              name);
  for (size_t i = 0; i < n; i++) {
    if (i + 1 < n)
      kbuf_printf(b, "  %sif (x < %a)", i ? "else " : "", (t[i].c + t[i + 1].c) / 2);
    else
      kbuf_printf(b, "  else");
    kbuf_printf(b, " { *c = %a; *cl = %a; *f0 = %a; *f1 = %a; }\n", t[i].c, t[i].cl, t[i].f0,
                t[i].f1);
  }
  kbuf_printf(b, "}\n");
}

/* The public names: special values, symmetry, then the cores above. */
static const char cu_bessel_names[] =
    "static __inline__ double __kcc_bes(double x, int nu, bool y) {\n"
    "  if (x < 0.5) return __kcc_bes_small(x, nu, y);\n"
    "  if (x >= 25.0) return __kcc_bes_asym(x, nu, y);\n"
    "  double c, cl, f0, f1;\n"
    "  if (y && nu) __kcc_bes_y1_ctr(x, &c, &cl, &f0, &f1);\n"
    "  else if (y) __kcc_bes_y0_ctr(x, &c, &cl, &f0, &f1);\n"
    "  else if (nu) __kcc_bes_j1_ctr(x, &c, &cl, &f0, &f1);\n"
    "  else __kcc_bes_j0_ctr(x, &c, &cl, &f0, &f1);\n"
    "  return __kcc_bes_taylor(x, (double)nu, 1.0, c, cl, f0, f1);\n}\n"
    "static __inline__ double j0(double x) {\n"
    "  if (isnan(x)) return x + x;\n"
    "  x = fabs(x);\n"
    "  return isinf(x) ? 0.0 : __kcc_bes(x, 0, false);\n}\n"
    "static __inline__ double j1(double x) {\n"
    "  if (isnan(x)) return x + x;\n"
    "  double a = fabs(x), r = isinf(a) ? 0.0 : __kcc_bes(a, 1, false);\n"
    "  return x < 0.0 || (x == 0.0 && 1.0 / x < 0.0) ? -r : r;\n}\n"
    "static __inline__ double __kcc_bes_y(double x, int nu) {\n"
    "  if (isnan(x)) return x + x;\n"
    "  if (x < 0.0) return __builtin_nan(\"\");\n"
    "  if (x == 0.0) return -__builtin_huge_val();\n"
    "  return isinf(x) ? 0.0 : __kcc_bes(x, nu, true);\n}\n"
    "static __inline__ double y0(double x) { return __kcc_bes_y(x, 0); }\n"
    "static __inline__ double y1(double x) { return __kcc_bes_y(x, 1); }\n"
    /* jn and yn take J0 and J1 (Y0 and Y1) from one call of the core in a loop, which Vulkan
       drivers, inlining every call, then compile once: lavapipe took minutes over a kernel with
       a dozen inlined cores */
    "static __inline__ double jn(int n, double x) {\n"
    "  if (n < 0 || isnan(x)) return n < 0 ? __builtin_nan(\"\") : x + x;\n"
    "  double a = fabs(x), r;\n"
    "  if (isinf(a) || (n > 1 && (a == 0.0 || (double)n * log(1.359140914229522617 * a / "
    "(double)n) < -760.0)))\n"
    "    r = 0.0; /* J(n, x) is below (e x / 2n)^n, which underflows */\n"
    "  else if (n > 1 && a < 1e-5) {\n"
    /* tiny x: (x/2)^n / n! (1 - (x/2)^2 / (n+1)), the next term below the rounding */
    "    r = 1.0;\n"
    "    for (int k = 1; k <= n && r != 0.0; k++) r *= 0.5 * a / (double)k;\n"
    "    r *= 1.0 - 0.25 * a * a / ((double)n + 1.0);\n"
    "  } else if (n <= 1 || (double)n < a) {\n"
    /* forward: J(k+1) = (2k / x) J(k) - J(k-1), stable while k < x */
    "    double p = 0.0, c = 0.0;\n"
    "    for (int v = 0; v <= (n ? 1 : 0); v++) { p = c; c = __kcc_bes(a, v, false); }\n"
    "    for (int k = 1; k < n; k++) { double t = 2.0 * (double)k / a * c - p; p = c; c = t; }\n"
    "    r = c;\n"
    "  } else {\n"
    /* Miller: from far enough above n downward, from 0 and a tiny start, rescaled before it
       overflows; J(n) is the value met at n over the sum J0 + 2 (J2 + J4 ...), which is 1 */
    "    long long m = (long long)n + 20 + (long long)sqrt(40.0 * (double)n);\n"
    "    m += m & 1;\n"
    "    double up = 0.0, c = 1e-300, s = 0.0, at = 0.0;\n"
    "    for (long long k = m; k >= 1; k--) {\n"
    "      double dn = 2.0 * (double)k / a * c - up;\n"
    "      up = c; c = dn;\n"
    "      if (k - 1 == n) at = c;\n"
    "      if (((k - 1) & 1) == 0 && k > 1) s += 2.0 * c;\n"
    "      if (fabs(c) > 1e250) { c *= 1e-250; up *= 1e-250; s *= 1e-250; at *= 1e-250; }\n"
    "    }\n"
    "    r = at / (c + s);\n"
    "  }\n"
    "  return (x < 0.0 || (x == 0.0 && 1.0 / x < 0.0)) && (n & 1) ? -r : r;\n}\n"
    "static __inline__ double yn(int n, double x) {\n"
    "  if (n < 0) return __builtin_nan(\"\");\n"
    "  if (isnan(x)) return x + x;\n"
    "  if (x < 0.0) return __builtin_nan(\"\");\n"
    "  if (x == 0.0) return -__builtin_huge_val();\n"
    "  if (isinf(x)) return 0.0;\n"
    "  double p = 0.0, c = 0.0;\n"
    "  for (int v = 0; v <= (n ? 1 : 0); v++) { p = c; c = __kcc_bes(x, v, true); }\n"
    /* forward: Y grows with n, stable; an overflow stays -inf */
    "  for (int k = 1; k < n && !isinf(c); k++) { double t = 2.0 * (double)k / x * c - p; p = c; "
    "c = t; }\n"
    "  return c;\n}\n"
    /* I(nu, x), x >= 0: the series (x/2)^nu sum (x^2/4)^k / (k! (k+nu)!) below 0.5, the Taylor
       series about the nearest centre (as J's, g = -1) below 25, and above, the asymptotic e^x
       / sqrt(2 pi x) (1 - (mu - 1) / (8x) + (mu - 1)(mu - 9) / (2! (8x)^2) - ...) with e^x as
       e^r 2^k, x = k ln 2 + r (ln 2 in two parts, k ln2_hi exact), e^r its Taylor polynomial:
       the device's exp may be 3 ulp off (OpenCL's bound), which would leave little of CUDA's 6
       ulp */
    "static __inline__ double __kcc_bes_i(double x, int nu) {\n"
    "  if (isnan(x)) return x + x;\n"
    "  if (isinf(x)) return x;\n"
    "  if (x < 0.5) {\n"
    "    double q = 0.25 * x * x, t = 1.0, s = 1.0;\n"
    "    for (int k = 1; k < 10; k++) { t *= q / (double)(k * (k + nu)); s += t; }\n"
    "    return nu ? 0.5 * x * s : s;\n"
    "  }\n"
    "  if (x < 25.0) {\n"
    "    double c, cl, f0, f1;\n"
    "    if (nu) __kcc_bes_i1_ctr(x, &c, &cl, &f0, &f1);\n"
    "    else __kcc_bes_i0_ctr(x, &c, &cl, &f0, &f1);\n"
    "    return __kcc_bes_taylor(x, (double)nu, -1.0, c, cl, f0, f1);\n"
    "  }\n"
    /* the terms after the first summed apart, so that their roundings are the tail's */
    "  double mu = (double)(4 * nu * nu), w = 0.125 / x, a = 1.0, s = 0.0;\n"
    "  for (int k = 1; k < 60; k++) {\n"
    "    double b = -a * (mu - (double)((2 * k - 1) * (2 * k - 1))) * w / (double)k;\n"
    "    if (fabs(b) >= fabs(a)) break;\n"
    "    a = b; s += a;\n"
    "    if (fabs(a) < 1e-18) break;\n"
    "  }\n"
    "  s += 1.0;\n"
    "  if (x > 720.0) return __builtin_huge_val();\n"
    "  double k = rint(x * 1.4426950408889634074);\n"
    "  double r = (x - k * 0x1.62e42feep-1) - k * 0x1.a39ef35793c76p-33, e = 1.0 / 17.0;\n"
    "  for (int i = 16; i >= 1; i--) e = fma(e, r, 1.0) / (double)i;\n"
    "  e = fma(e, r, 1.0);\n"
    "  return __kcc_ldexp(e * (s * (0.39894228040143267794 / sqrt(x))), (int)k);\n}\n"
    "static __inline__ double cyl_bessel_i0(double x) { return __kcc_bes_i(fabs(x), 0); }\n"
    "static __inline__ double cyl_bessel_i1(double x) {\n"
    "  double r = __kcc_bes_i(fabs(x), 1);\n"
    "  return x < 0.0 ? -r : r;\n}\n"
    "static __inline__ float j0f(float x) { return (float)j0((double)x); }\n"
    "static __inline__ float j1f(float x) { return (float)j1((double)x); }\n"
    "static __inline__ float y0f(float x) { return (float)y0((double)x); }\n"
    "static __inline__ float y1f(float x) { return (float)y1((double)x); }\n"
    "static __inline__ float jnf(int n, float x) { return (float)jn(n, (double)x); }\n"
    "static __inline__ float ynf(int n, float x) { return (float)yn(n, (double)x); }\n"
    "static __inline__ float cyl_bessel_i0f(float x) { return (float)cyl_bessel_i0((double)x); "
    "}\n"
    "static __inline__ float cyl_bessel_i1f(float x) { return (float)cyl_bessel_i1((double)x); "
    "}\n";

static void bessel_functions(KBuf *b) {
  kbuf_printf(b, "%s", cu_bessel);
  bessel_centers(b, "j0", bessel_j0, sizeof bessel_j0 / sizeof *bessel_j0);
  bessel_centers(b, "j1", bessel_j1, sizeof bessel_j1 / sizeof *bessel_j1);
  bessel_centers(b, "y0", bessel_y0, sizeof bessel_y0 / sizeof *bessel_y0);
  bessel_centers(b, "y1", bessel_y1, sizeof bessel_y1 / sizeof *bessel_y1);
  bessel_centers(b, "i0", bessel_i0, sizeof bessel_i0 / sizeof *bessel_i0);
  bessel_centers(b, "i1", bessel_i1, sizeof bessel_i1 / sizeof *bessel_i1);
  kbuf_printf(b, "%s", cu_bessel_names);
}

void fe_mathlib_cu(KBuf *b) {
  kbuf_printf(b, "#define __KCC_M static __inline__\n");
  for (int t = 0; t < 2; t++) {
    expand(b, core_tmpl, &c_flavors[t]);
    expand(b, cu_tmpl, &c_flavors[t]);
  }
  for (int t = 0; t < 2; t++)
    for (size_t i = 0; i < sizeof cu_fns / sizeof *cu_fns; i++) {
      kbuf_printf(b, "static __inline__ ");
      cu_subst(b, cu_fns[i].ret, &c_flavors[t]);
      kbuf_printf(b, " %s%s(", cu_fns[i].name, t == 0 ? "f" : "");
      cu_subst(b, cu_fns[i].params, &c_flavors[t]);
      kbuf_printf(b, ") { ");
      cu_subst(b, cu_fns[i].body, &c_flavors[t]);
      kbuf_printf(b, " }\n");
    }
  /* The float overloads CUDA's C++ math header gives these (frexp(float, int *) is frexpf),
     so that a float argument stays in float. Not the norms: CUDA has no float overload of
     rhypot, norm3d, rnorm3d, norm4d, rnorm4d (only their f spellings). */
  for (size_t i = 0; i < sizeof cu_fns / sizeof *cu_fns; i++) {
    const char *n = cu_fns[i].name;
    if (!strcmp(n, "rhypot") || !strncmp(n, "norm", 4) || !strncmp(n, "rnorm", 5)) continue;
    kbuf_printf(b, "static __inline__ ");
    cu_subst(b, cu_fns[i].ret, &c_flavors[0]);
    kbuf_printf(b, " %s(", n);
    cu_subst(b, cu_fns[i].params, &c_flavors[0]);
    kbuf_printf(b, ") { return %sf(", n);
    /* The arguments: each parameter's name, the last word of its declaration. */
    for (const char *p = cu_fns[i].params; *p;) {
      const char *end = strchr(p, ',');
      if (!end) end = p + strlen(p);
      const char *w = end;
      while (w > p && (w[-1] == '_' || (w[-1] >= 'a' && w[-1] <= 'z'))) w--;
      kbuf_printf(b, "%s%.*s", p == cu_fns[i].params ? "" : ", ", (int)(end - w), w);
      p = *end ? end + 2 : end;
    }
    kbuf_printf(b, "); }\n");
  }
  bessel_functions(b);
  /* nan(tag): clang's builtin, which folds the constant tag kernels pass (kcc's kernels take
     no other string), through an identity function so that the expansion names a function
     when qualified too: std::nan("") is std::__kcc_nan(__builtin_nan("")) (<cmath>). */
  kbuf_printf(b, "#undef __KCC_M\n"
                 "static __inline__ constexpr float __kcc_nanf(float __x) { return __x; }\n"
                 "static __inline__ constexpr double __kcc_nan(double __x) { return __x; }\n"
                 "#define nanf(__tag) __kcc_nanf(__builtin_nanf(__tag))\n"
                 "#define nan(__tag) __kcc_nan(__builtin_nan(__tag))\n");
}
