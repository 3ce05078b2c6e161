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
  /* nan(tag): clang's builtin, which folds the constant tag kernels pass (kcc's kernels take
     no other string), through an identity function so that the expansion names a function
     when qualified too: std::nan("") is std::__kcc_nan(__builtin_nan("")) (<cmath>). */
  kbuf_printf(b, "#undef __KCC_M\n"
                 "static __inline__ constexpr float __kcc_nanf(float __x) { return __x; }\n"
                 "static __inline__ constexpr double __kcc_nan(double __x) { return __x; }\n"
                 "#define nanf(__tag) __kcc_nanf(__builtin_nanf(__tag))\n"
                 "#define nan(__tag) __kcc_nan(__builtin_nan(__tag))\n");
}
