/* cuda_api.c — CUDA input: device functions of the CUDA Math API and Programming Guide that
 * are plain arithmetic or plain memory access, written as C++ over kcc's builtins for the
 * CUDA prelude (cuda.c): every back end computes them alike with nothing of its own.
 *
 *   - the SIMD intrinsics (__vadd2 ... __vsetne4: per-halfword and per-byte arithmetic,
 *     saturation, averages, comparisons, sums of absolute differences);
 *   - the cache-hint loads and stores (__ldg __ldcg __ldca __ldcs __ldlu __ldcv, __stwb __stcg
 *     __stcs __stwt): a hint changes where a value is cached, never the value, so each is the
 *     access itself (PTX may later give them their ld.global.cs & co.);
 *   - __dp4a and __dp2a_lo/_hi (dot products of packed bytes and halfwords);
 *   - sincos / sincosf;
 *   - __isnan[f], __isinf[f], __finite[f] (glibc's spellings, which CUDA declares too);
 *   - the halving additions __hadd (of ints), __rhadd, __uhadd, __urhadd; a double's halves,
 * __double2hiint,
 *     __double2loint, __hiloint2double; the Euclidean norms of an array, norm[f], rnorm[f];
 *   - the directed-rounding arithmetic and conversions (__fadd_rz ... __ull2double_rd);
 *   - <math_constants.h> (CUDART_PI_F & co.), as a header of its own. */
#include <string.h>

#include "fe_cuda.h"

/* SIMD intrinsics: one per operation and lane width. A lane's operands are __x and __y (int,
 * sign- or zero-extended), the lane's result __v is masked back into place, or for the sums of
 * absolute differences added up; LO/HI/UHI are the lane's signed and unsigned bounds, for the
 * saturating forms. */
static const struct {
  const char *name;
  bool is_signed; /* lanes read as signed */
  int nargs;
  const char *expr; /* the lane's value, from __x and __y (LO, HI, UHI: the lane's bounds) */
  bool sum;         /* the result is the lanes' values added up (__vsad*), not the lanes */
} simd_ops[] = {
    {"abs", true, 1, "__x < 0 ? -__x : __x", false},
    {"absss", true, 1, "__x < 0 ? (-__x > HI ? HI : -__x) : __x", false},
    {"absdiffs", true, 2, "__x > __y ? __x - __y : __y - __x", false},
    {"absdiffu", false, 2, "__x > __y ? __x - __y : __y - __x", false},
    {"add", false, 2, "__x + __y", false},
    {"addss", true, 2, "__x + __y < LO ? LO : __x + __y > HI ? HI : __x + __y", false},
    {"addus", false, 2, "__x + __y > UHI ? UHI : __x + __y", false},
    {"avgs", true, 2, "(__x + __y + (__x + __y >= 0 ? 1 : 0)) >> 1", false},
    {"avgu", false, 2, "(__x + __y + 1) >> 1", false},
    {"hadd", false, 2, "(__x + __y) >> 1", false},
    {"cmpeq", false, 2, "__x == __y ? UHI : 0", false},
    {"cmpne", false, 2, "__x != __y ? UHI : 0", false},
    {"cmpges", true, 2, "__x >= __y ? UHI : 0", false},
    {"cmpgeu", false, 2, "__x >= __y ? UHI : 0", false},
    {"cmpgts", true, 2, "__x > __y ? UHI : 0", false},
    {"cmpgtu", false, 2, "__x > __y ? UHI : 0", false},
    {"cmples", true, 2, "__x <= __y ? UHI : 0", false},
    {"cmpleu", false, 2, "__x <= __y ? UHI : 0", false},
    {"cmplts", true, 2, "__x < __y ? UHI : 0", false},
    {"cmpltu", false, 2, "__x < __y ? UHI : 0", false},
    {"maxs", true, 2, "__x > __y ? __x : __y", false},
    {"maxu", false, 2, "__x > __y ? __x : __y", false},
    {"mins", true, 2, "__x < __y ? __x : __y", false},
    {"minu", false, 2, "__x < __y ? __x : __y", false},
    {"neg", true, 1, "-__x", false},
    {"negss", true, 1, "-__x > HI ? HI : -__x", false},
    {"seteq", false, 2, "__x == __y", false},
    {"setne", false, 2, "__x != __y", false},
    {"setges", true, 2, "__x >= __y", false},
    {"setgeu", false, 2, "__x >= __y", false},
    {"setgts", true, 2, "__x > __y", false},
    {"setgtu", false, 2, "__x > __y", false},
    {"setles", true, 2, "__x <= __y", false},
    {"setleu", false, 2, "__x <= __y", false},
    {"setlts", true, 2, "__x < __y", false},
    {"setltu", false, 2, "__x < __y", false},
    {"sub", false, 2, "__x - __y", false},
    {"subss", true, 2, "__x - __y < LO ? LO : __x - __y > HI ? HI : __x - __y", false},
    {"subus", false, 2, "__x - __y < 0 ? 0 : __x - __y", false},
    {"sads", true, 2, "__x > __y ? __x - __y : __y - __x", true},
    {"sadu", false, 2, "__x > __y ? __x - __y : __y - __x", true},
};

/* Lane __s of the word w (bits wide, sign- or zero-extended to int). */
static void simd_lane(KBuf *b, const char *w, bool is_signed, int bits) {
  if (is_signed)
    kbuf_printf(b, "(int)(%s)(%s >> __s)", bits == 8 ? "signed char" : "short", w);
  else
    kbuf_printf(b, "(int)((%s >> __s) & %uu)", w, bits == 8 ? 0xffu : 0xffffu);
}

static void simd_functions(KBuf *b) {
  for (int w = 0; w < 2; w++) {
    int bits = w ? 8 : 16, lanes = 32 / bits;
    unsigned mask = w ? 0xffu : 0xffffu;
    /* The lane's bounds, as the expressions above name them. */
    kbuf_printf(b, "#define LO (%d)\n#define HI %d\n#define UHI %u\n", w ? -128 : -32768,
                w ? 127 : 32767, mask);
    for (size_t i = 0; i < sizeof simd_ops / sizeof *simd_ops; i++) {
      const char *n = simd_ops[i].name;
      bool two = simd_ops[i].nargs == 2;
      /* __vhaddu2/4 is the one spelled with a trailing u but no signed twin. */
      kbuf_printf(b, "static __inline__ unsigned int __v%s%s%d(unsigned int __a%s) { ", n,
                  strcmp(n, "hadd") ? "" : "u", lanes, two ? ", unsigned int __b" : "");
      kbuf_printf(
          b, "unsigned int __r = 0; for (int __s = 0; __s < 32; __s += %d) { int __x = ", bits);
      simd_lane(b, "__a", simd_ops[i].is_signed, bits);
      if (two) {
        kbuf_printf(b, ", __y = ");
        simd_lane(b, "__b", simd_ops[i].is_signed, bits);
      }
      kbuf_printf(b, "; int __v = %s; ", simd_ops[i].expr);
      if (simd_ops[i].sum)
        kbuf_printf(b, "__r += (unsigned int)__v;");
      else
        kbuf_printf(b, "__r |= ((unsigned int)__v & %uu) << __s;", mask);
      kbuf_printf(b, " } return __r; }\n");
    }
    kbuf_printf(b, "#undef LO\n#undef HI\n#undef UHI\n");
  }
}

static const char *const load_hints[] = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"};
static const char *const store_hints[] = {"__stwb", "__stcg", "__stcs", "__stwt"};

static const char dot_products_sincos[] =
    /* __dp4a: four byte products added to c; __dp2a: two halfword by byte products, the low
       or high bytes of b. Signed and unsigned forms, as the Math API declares them. */
    "static __inline__ int __dp4a(int __a, int __b, int __c) { for (int __s = 0; __s < 32; __s "
    "+= 8) __c += (int)(signed char)(__a >> __s) * (int)(signed char)(__b >> __s); return __c; "
    "}\n"
    "static __inline__ unsigned int __dp4a(unsigned int __a, unsigned int __b, unsigned int "
    "__c) { for (int __s = 0; __s < 32; __s += 8) __c += ((__a >> __s) & 0xffu) * ((__b >> "
    "__s) & 0xffu); return __c; }\n"
    "static __inline__ int __dp2a_lo(int __a, int __b, int __c) { return __c + (int)(short)__a "
    "* (int)(signed char)__b + (int)(short)(__a >> 16) * (int)(signed char)(__b >> 8); }\n"
    "static __inline__ unsigned int __dp2a_lo(unsigned int __a, unsigned int __b, unsigned int "
    "__c) { return __c + (__a & 0xffffu) * (__b & 0xffu) + (__a >> 16) * ((__b >> 8) & 0xffu); "
    "}\n"
    "static __inline__ int __dp2a_hi(int __a, int __b, int __c) { return __c + (int)(short)__a "
    "* (int)(signed char)(__b >> 16) + (int)(short)(__a >> 16) * (int)(signed char)(__b >> 24); "
    "}\n"
    "static __inline__ unsigned int __dp2a_hi(unsigned int __a, unsigned int __b, unsigned int "
    "__c) { return __c + (__a & 0xffffu) * ((__b >> 16) & 0xffu) + (__a >> 16) * (__b >> 24); "
    "}\n"
    "static __inline__ void sincosf(float __x, float *__s, float *__c) { *__s = sinf(__x); *__c "
    "= cosf(__x); }\n"
    "static __inline__ void sincos(double __x, double *__s, double *__c) { *__s = sin(__x); "
    "*__c = cos(__x); }\n"
    "static __inline__ void sincos(float __x, float *__s, float *__c) { *__s = sinf(__x); *__c = "
    "cosf(__x); }\n";

/* The halving additions: (x + y) >> 1 and (x + y + 1) >> 1 without the sum, which may overflow
 * (x + y is x ^ y plus twice x & y). A double's halves as ints, and back. The norms of an array
 * of n values (CUDA's norm(dim, p) & co.): scaled by the largest magnitude so that no square
 * overflows or underflows; an infinity makes it infinite, else a NaN NaN, as hypot does. */
static const char halving_halves_norms[] =
    "static __inline__ int __hadd(int __x, int __y) { return (__x & __y) + ((__x ^ __y) >> 1); }\n"
    "static __inline__ int __rhadd(int __x, int __y) { return (__x | __y) - ((__x ^ __y) >> 1); }\n"
    "static __inline__ unsigned int __uhadd(unsigned int __x, unsigned int __y) { return (__x & "
    "__y) + ((__x ^ __y) >> 1); }\n"
    "static __inline__ unsigned int __urhadd(unsigned int __x, unsigned int __y) { return (__x | "
    "__y) - ((__x ^ __y) >> 1); }\n"
    "static __inline__ int __double2hiint(double __d) { return (int)((unsigned long "
    "long)__double_as_longlong(__d) >> 32); }\n"
    "static __inline__ int __double2loint(double __d) { return (int)(unsigned int)(unsigned long "
    "long)__double_as_longlong(__d); }\n"
    "static __inline__ double __hiloint2double(int __hi, int __lo) { return "
    "__longlong_as_double((long long)((unsigned long long)(unsigned int)__hi << 32 | (unsigned "
    "int)__lo)); }\n"
    "#define __KCC_NORM(N, T, SQRT, ABS) static __inline__ T N(int __n, const T *__p) { T __m = "
    "0, __nan = 0; bool __any_nan = false; for (int __i = 0; __i < __n; __i++) { T __a = "
    "ABS(__p[__i]); if (__a != __a) { __any_nan = true; __nan = __a; } else if (__a > __m) __m = "
    "__a; } if (isinf(__m)) return __m; if (__any_nan) return __nan; if (__m == 0) "
    "return 0; T __s = 0; for (int __i = 0; __i < __n; __i++) { T __q = __p[__i] / __m; __s += __q "
    "* __q; } return __m * SQRT(__s); }\n"
    "__KCC_NORM(norm, double, sqrt, fabs)\n__KCC_NORM(normf, float, sqrtf, fabsf)\n#undef "
    "__KCC_NORM\n"
    "static __inline__ double rnorm(int __n, const double *__p) { return 1.0 / norm(__n, __p); }\n"
    "static __inline__ float rnormf(int __n, const float *__p) { return 1.0f / normf(__n, __p); "
    "}\n";

/* Directed rounding: CUDA's _rz/_ru/_rd arithmetic (__fadd_rz ... __dsqrt_rd), the fma
 * intrinsics (__fmaf_r*, __fmaf_ieee_r*, __fma_rn), the float2 forms (__fadd2_r* __fmul2_r*
 * __ffma2_r*), the integer and double conversions to float or double (__int2float_rz ...
 * __double2float_rd) and the correctly rounded __frsqrt_rn. kcc's targets compute to nearest
 * only (SPIR-V and OpenCL C have no rounding-mode instructions), so each is the nearest result
 * r, then one step toward the exact value where r lies on the mode's wrong side; which side, an
 * exact residual says: TwoSum for sums, a float product or quotient checked in double (exact
 * there), a double one scaled to [0.5, 1) by frexp so that its fma residual cannot underflow.
 * An overflow to infinity of finite operands lies above the exact value (or below, for -inf),
 * so a step gives the largest finite value; an exact zero sum is -0 when rounding down, as
 * IEEE 754 says. __fma_rz/ru/rd of doubles, whose residual has three parts, sum them as an
 * expansion (below). */
static const char directed_rounding[] =
    "static __inline__ float __kcc_up(float __r) { unsigned int __u = __float_as_uint(__r); "
    "return __uint_as_float(__u == 0x80000000u ? 1u : (__u >> 31) ? __u - 1u : __u + 1u); }\n"
    "static __inline__ float __kcc_down(float __r) { unsigned int __u = __float_as_uint(__r); "
    "return __uint_as_float(__u == 0u ? 0x80000001u : (__u >> 31) ? __u + 1u : __u - 1u); }\n"
    "static __inline__ double __kcc_up(double __r) { unsigned long long __u = (unsigned long "
    "long)__double_as_longlong(__r); return __longlong_as_double((long long)(__u == "
    "0x8000000000000000ull ? 1ull : (__u >> 63) ? __u - 1ull : __u + 1ull)); }\n"
    "static __inline__ double __kcc_down(double __r) { unsigned long long __u = (unsigned long "
    "long)__double_as_longlong(__r); return __longlong_as_double((long long)(__u == 0ull ? "
    "0x8000000000000001ull : (__u >> 63) ? __u + 1ull : __u - 1ull)); }\n"
    /* __m: 0 toward zero, 1 up, 2 down; __c: the exact value above __r (1), below (-1), at 0 */
    "template <class T> static __inline__ T __kcc_dir(T __r, int __c, int __m) { return __m == 1 "
    "? (__c > 0 ? __kcc_up(__r) : __r) : __m == 2 ? (__c < 0 ? __kcc_down(__r) : __r) : __c > 0 "
    "&& __r < 0 ? __kcc_up(__r) : __c < 0 && __r > 0 ? __kcc_down(__r) : __r; }\n"
    "static __inline__ int __kcc_sgn(double __d) { return __d > 0 ? 1 : __d < 0 ? -1 : 0; }\n"
    "static __inline__ bool __kcc_neg(float __x) { return __float_as_int(__x) < 0; }\n"
    "static __inline__ bool __kcc_neg(double __x) { return __double_as_longlong(__x) < 0; }\n"
    /* finite operands, an infinite nearest result: it overflowed */
    "template <class T> static __inline__ bool __kcc_ovf(T __r, T __a, T __b) { return isinf(__r) "
    "&& isfinite(__a) && isfinite(__b); }\n"
    "template <class T> static __inline__ T __kcc_radd(T __a, T __b, int __m) { T __r = __a + "
    "__b; if (__kcc_ovf(__r, __a, __b)) return __kcc_dir(__r, __r > 0 ? -1 : 1, __m); T __z = __r "
    "- __a; int __c = __kcc_sgn((double)((__a - (__r - __z)) + (__b - __z))); if (__m == 2 && "
    "__r == 0 && __c == 0 && (__kcc_neg(__a) || __kcc_neg(__b))) return -(T)0; return "
    "__kcc_dir(__r, __c, __m); }\n"
    "static __inline__ float __kcc_rmul(float __a, float __b, int __m) { double __p = (double)__a "
    "* (double)__b; float __r = (float)__p; return __kcc_dir(__r, __kcc_sgn(__p - (double)__r), "
    "__m); }\n"
    "static __inline__ float __kcc_rdiv(float __a, float __b, int __m) { float __r = __a / __b; "
    "int __c = __kcc_sgn((double)__a - (double)__r * (double)__b); return __kcc_dir(__r, __b < 0 "
    "? -__c : __c, __m); }\n"
    "static __inline__ float __kcc_rsqrt(float __x, int __m) { float __r = sqrtf(__x); return "
    "__kcc_dir(__r, __kcc_sgn((double)__x - (double)__r * (double)__r), __m); }\n"
    "static __inline__ float __kcc_rfma(float __a, float __b, float __c, int __m) { double __p = "
    "(double)__a * (double)__b, __s = __p + (double)__c, __z = __s - __p; double __e = (__p - (__s "
    "- __z)) + ((double)__c - __z); float __r = (float)__s; double __d = __s - (double)__r; int "
    "__k = __d != 0 ? __kcc_sgn(__d) : __kcc_sgn(__e); if (__m == 2 && __r == 0 && __k == 0 && "
    "(__kcc_neg(__p) || __kcc_neg(__c))) return -0.0f; return __kcc_dir(__r, __k, __m); }\n"
    /* doubles: the operands scaled to [0.5, 1) (frexp, exact), the result by the same powers */
    "static __inline__ double __kcc_rmul(double __a, double __b, int __m) { double __r = __a * "
    "__b; if (__kcc_ovf(__r, __a, __b)) return __kcc_dir(__r, __r > 0 ? -1 : 1, __m); if "
    "(!isfinite(__r) || __a == 0 || __b == 0) return __r; int __ea, __eb; double __fa = "
    "frexp(__a, &__ea), __fb = frexp(__b, &__eb); double __t = ldexp(__r, -__ea - __eb); return "
    "__kcc_dir(__r, __kcc_sgn(fma(__fa, __fb, -__t)), __m); }\n"
    "static __inline__ double __kcc_rdiv(double __a, double __b, int __m) { double __r = __a / "
    "__b; if (__kcc_ovf(__r, __a, __b) && __b != 0) return __kcc_dir(__r, __r > 0 ? -1 : 1, "
    "__m); if (!isfinite(__r) || !isfinite(__b) || __a == 0) return __r; int __ea, __eb; double "
    "__fa = frexp(__a, &__ea), __fb = frexp(__b, &__eb); double __t = ldexp(__r, __eb - __ea); "
    "int __c = __kcc_sgn(fma(-__t, __fb, __fa)); return __kcc_dir(__r, __b < 0 ? -__c : __c, "
    "__m); }\n"
    "static __inline__ double __kcc_rsqrt(double __x, int __m) { double __r = sqrt(__x); if "
    "(!(__x > 0) || isinf(__x)) return __r; int __e; double __f = frexp(__x, &__e); if (__e & 1) "
    "{ __f *= 2; __e -= 1; } double __t = ldexp(__r, -__e / 2); return __kcc_dir(__r, "
    "__kcc_sgn(fma(-__t, __t, __f)), __m); }\n"
    /* fma of doubles: the residual a*b + c - r exactly as an expansion (Shewchuk): a*b = ph +
       pl (TwoProd by fma) of a and b scaled to [0.5, 1) by frexp, c and r scaled by the same
       power, then c and -r added by TwoSums that keep the components nonoverlapping, so that the
       most significant nonzero one has the residual's sign. Where the product is below c's
       rounding (2^60 times smaller), r is c and the residual the product; where c is too small
       to survive the scaling, it decides only an otherwise zero residual. A product that
       overflows where the sum does not gets its nearest result from the scaled operands too:
       Vulkan's fma need not be fused, and kcc's exact one gives up where a*b overflows. */
    "static __inline__ void __kcc_two_sum(double __x, double __y, double *__s, double *__e) { "
    "double __t = __x + __y, __z = __t - __x; *__s = __t; *__e = (__x - (__t - __z)) + (__y - "
    "__z); }\n"
    "static __inline__ double __kcc_rfma(double __a, double __b, double __c, int __m) { double "
    "__r = fma(__a, __b, __c); if (!isfinite(__a) || !isfinite(__b)) return __r; if "
    "(!isfinite(__c)) return __c; int __k = 0, __ea = 0, __eb = 0; bool __pneg = __kcc_neg(__a) "
    "!= __kcc_neg(__b); double __fa = frexp(__a, &__ea), __fb = frexp(__b, &__eb); int __e = __ea "
    "+ __eb; if (!isfinite(__r) && __a != 0 && __b != 0) __r = ldexp(fma(__fa, __fb, ldexp(__c, "
    "-__e)), __e); if (isinf(__r)) return __kcc_dir(__r, __r > 0 ? -1 : 1, __m); if (__a != 0 && "
    "__b != 0) { if (__c != 0 && __e < ilogb(__c) - 60) __k = __pneg ? -1 : 1; else { double "
    "__ph = __fa * __fb, __pl = fma(__fa, __fb, -__ph), __cs = ldexp(__c, -__e), __rs = "
    "ldexp(__r, -__e), __h0, __h1, __h2, __g0, __g1, __g2, __q; __kcc_two_sum(__cs, __pl, &__q, "
    "&__h0); __kcc_two_sum(__q, __ph, &__h2, &__h1); __kcc_two_sum(-__rs, __h0, &__q, &__g0); "
    "__kcc_two_sum(__q, __h1, &__q, &__g1); __kcc_two_sum(__q, __h2, &__q, &__g2); __k = "
    "__kcc_sgn(__q != 0 ? __q : __g2 != 0 ? __g2 : __g1 != 0 ? __g1 : __g0); if (__k == 0 && "
    "ldexp(__cs, __e) != __c) __k = __kcc_sgn(__c); } } if (__m == 2 && __r == 0 && __k == 0 && "
    "(__pneg || __kcc_neg(__c))) return -0.0; return __kcc_dir(__r, __k, __m); }\n"
    /* integers: the nearest T, compared with the source in the source's type (__top: 2^bits or
       2^(bits-1), which the nearest T may reach and no source value does) */
    "template <class T, class I> static __inline__ T __kcc_rcvt(I __x, T __top, int __m) { T __r "
    "= (T)__x; int __c = __r >= __top ? -1 : __x > (I)__r ? 1 : __x < (I)__r ? -1 : 0; return "
    "__kcc_dir(__r, __c, __m); }\n"
    "static __inline__ float __frsqrt_rn(float __x) { if (!(__x > 0) || isinf(__x)) return 1.0f "
    "/ sqrtf(__x); float __r = (float)(1.0 / sqrt((double)__x)); double __hi = ((double)__r + "
    "(double)__kcc_up(__r)) * 0.5, __lo = ((double)__r + (double)__kcc_down(__r)) * 0.5; if "
    "(fma(__hi * __hi, (double)__x, -1.0) < 0) return __kcc_up(__r); if (fma(__lo * __lo, "
    "(double)__x, -1.0) > 0) return __kcc_down(__r); return __r; }\n"
    "static __inline__ float __fmaf_rn(float __a, float __b, float __c) { return fmaf(__a, __b, "
    "__c); }\n"
    "static __inline__ float __fmaf_ieee_rn(float __a, float __b, float __c) { return fmaf(__a, "
    "__b, __c); }\n"
    "static __inline__ double __fma_rn(double __a, double __b, double __c) { return fma(__a, __b, "
    "__c); }\n";

/* The names over those helpers, for each mode. */
static void directed_rounding_names(KBuf *b) {
  kbuf_printf(b, "%s", directed_rounding);
  static const char *const modes[] = {"rz", "ru", "rd"};
  for (int m = 0; m < 3; m++) {
    const char *M = modes[m];
    static const struct {
      const char *f, *d, *args, *call;
    } ops[] = {
        {"__fadd", "__dadd", "T __a, T __b", "__kcc_radd(__a, __b, %d)"},
        {"__fsub", "__dsub", "T __a, T __b", "__kcc_radd(__a, -__b, %d)"},
        {"__fmul", "__dmul", "T __a, T __b", "__kcc_rmul(__a, __b, %d)"},
        {"__fdiv", "__ddiv", "T __a, T __b", "__kcc_rdiv(__a, __b, %d)"},
        {"__frcp", "__drcp", "T __a", "__kcc_rdiv((T)1, __a, %d)"},
        {"__fsqrt", "__dsqrt", "T __a", "__kcc_rsqrt(__a, %d)"},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
      for (int d = 0; d < 2; d++) {
        kbuf_printf(b, "#define T %s\nstatic __inline__ T %s_%s(%s) { return ",
                    d ? "double" : "float", d ? ops[i].d : ops[i].f, M, ops[i].args);
        kbuf_printf(b, ops[i].call, m);
        kbuf_printf(b, "; }\n#undef T\n");
      }
    kbuf_printf(b,
                "static __inline__ float __fmaf_%s(float __a, float __b, float __c) { return "
                "__kcc_rfma(__a, __b, __c, %d); }\n"
                "static __inline__ float __fmaf_ieee_%s(float __a, float __b, float __c) { return "
                "__kcc_rfma(__a, __b, __c, %d); }\n"
                "static __inline__ double __fma_%s(double __a, double __b, double __c) { return "
                "__kcc_rfma(__a, __b, __c, %d); }\n"
                "static __inline__ float __double2float_%s(double __x) { float __r = (float)__x; "
                "return __kcc_dir(__r, __kcc_sgn(__x - (double)__r), %d); }\n",
                M, m, M, m, M, m, M, m);
    static const struct {
      const char *name, *from, *to, *top;
    } cvt[] = {{"int2float", "int", "float", "0x1p31f"},
               {"uint2float", "unsigned int", "float", "0x1p32f"},
               {"ll2float", "long long", "float", "0x1p63f"},
               {"ull2float", "unsigned long long", "float", "0x1p64f"},
               {"ll2double", "long long", "double", "0x1p63"},
               {"ull2double", "unsigned long long", "double", "0x1p64"}};
    for (size_t i = 0; i < sizeof cvt / sizeof *cvt; i++)
      kbuf_printf(b,
                  "static __inline__ %s __%s_%s(%s __x) { return __kcc_rcvt<%s, %s>(__x, %s, %d); "
                  "}\n",
                  cvt[i].to, cvt[i].name, M, cvt[i].from, cvt[i].to, cvt[i].from, cvt[i].top, m);
  }
  /* float2 (sm_100's paired forms): component by component, rn included. */
  static const char *const all[] = {"rn", "rz", "ru", "rd"};
  for (int m = 0; m < 4; m++)
    kbuf_printf(b,
                "static __inline__ float2 __fadd2_%s(float2 __a, float2 __b) { return "
                "make_float2(__fadd_%s(__a.x, __b.x), __fadd_%s(__a.y, __b.y)); }\n"
                "static __inline__ float2 __fmul2_%s(float2 __a, float2 __b) { return "
                "make_float2(__fmul_%s(__a.x, __b.x), __fmul_%s(__a.y, __b.y)); }\n"
                "static __inline__ float2 __ffma2_%s(float2 __a, float2 __b, float2 __c) { return "
                "make_float2(__fmaf_%s(__a.x, __b.x, __c.x), __fmaf_%s(__a.y, __b.y, __c.y)); }\n",
                all[m], all[m], all[m], all[m], all[m], all[m], all[m], all[m], all[m]);
}

void fe_cu_api_decls(KBuf *b) {
  simd_functions(b);
  for (size_t i = 0; i < sizeof load_hints / sizeof *load_hints; i++)
    kbuf_printf(b, "template <class T> static __inline__ T %s(const T *__p) { return *__p; }\n",
                load_hints[i]);
  for (size_t i = 0; i < sizeof store_hints / sizeof *store_hints; i++)
    kbuf_printf(b, "template <class T> static __inline__ void %s(T *__p, T __v) { *__p = __v; }\n",
                store_hints[i]);
  kbuf_printf(b, "%s", dot_products_sincos);
  kbuf_printf(b, "%s", halving_halves_norms);
  fe_mathlib_cu(b);
  directed_rounding_names(b);
  /* The C library's classification spellings CUDA's math header declares for device code. */
  static const char *const classify[][2] = {
      {"__isnan", "isnan"}, {"__isinf", "isinf"}, {"__finite", "isfinite"}};
  for (size_t i = 0; i < sizeof classify / sizeof *classify; i++)
    kbuf_printf(b,
                "static __inline__ int %sf(float __x) { return %s(__x); }\n"
                "static __inline__ int %s(double __x) { return %s(__x); }\n",
                classify[i][0], classify[i][1], classify[i][0], classify[i][1]);
}

/* <math_constants.h>: the toolkit's names for float and double constants (not the _HI/_LO
 * splits of a constant into two doubles, whose exact split kcc cannot promise: those stay
 * undeclared). */
const char fe_cu_math_constants[] =
    "#ifndef __KCC_MATH_CONSTANTS_H\n#define __KCC_MATH_CONSTANTS_H\n"
    "#define CUDART_INF_F __builtin_huge_valf()\n#define CUDART_NAN_F __builtin_nanf(\"\")\n"
    "#define CUDART_MIN_DENORM_F __FLT_DENORM_MIN__\n#define CUDART_MAX_NORMAL_F __FLT_MAX__\n"
    "#define CUDART_NEG_ZERO_F (-0.0f)\n#define CUDART_ZERO_F 0.0f\n#define CUDART_ONE_F 1.0f\n"
    "#define CUDART_SQRT_HALF_F 0.707106781f\n#define CUDART_SQRT_TWO_F 1.414213562f\n"
    "#define CUDART_THIRD_F 0.333333333f\n#define CUDART_PIO4_F 0.785398163f\n"
    "#define CUDART_PIO2_F 1.570796327f\n#define CUDART_3PIO4_F 2.356194490f\n"
    "#define CUDART_2_OVER_PI_F 0.636619772f\n#define CUDART_SQRT_2_OVER_PI_F 0.797884561f\n"
    "#define CUDART_PI_F 3.141592654f\n#define CUDART_L2E_F 1.442695041f\n"
    "#define CUDART_L2T_F 3.321928094f\n#define CUDART_LG2_F 0.301029996f\n"
    "#define CUDART_LGE_F 0.434294482f\n#define CUDART_LN2_F 0.693147181f\n"
    "#define CUDART_LNT_F 2.302585093f\n#define CUDART_LNPI_F 1.144729886f\n"
    "#define CUDART_TWO_TO_M126_F 1.175494351e-38f\n#define CUDART_TWO_TO_126_F 8.507059173e37f\n"
    "#define CUDART_NORM_HUGE_F 3.402823466e38f\n#define CUDART_TWO_TO_23_F 8388608.0f\n"
    "#define CUDART_TWO_TO_24_F 16777216.0f\n#define CUDART_TWO_TO_31_F 2147483648.0f\n"
    "#define CUDART_TWO_TO_32_F 4294967296.0f\n#define CUDART_REMQUO_BITS_F 3\n"
    "#define CUDART_REMQUO_MASK_F (~((~0)<<CUDART_REMQUO_BITS_F))\n"
    "#define CUDART_TRIG_PLOSS_F 105615.0f\n"
    "#define CUDART_INF __builtin_huge_val()\n#define CUDART_NAN __builtin_nan(\"\")\n"
    "#define CUDART_NEG_ZERO (-0.0)\n#define CUDART_MIN_DENORM __DBL_DENORM_MIN__\n"
    "#define CUDART_ZERO 0.0\n#define CUDART_ONE 1.0\n"
    "#define CUDART_SQRT_TWO 1.4142135623730951e+0\n"
    "#define CUDART_SQRT_2PI 2.5066282746310007e+0\n"
    "#define CUDART_SQRT_PIO2 1.2533141373155003e+0\n"
    "#define CUDART_SQRT_HALF 7.0710678118654757e-1\n"
    "#define CUDART_THIRD 3.3333333333333333e-1\n#define CUDART_TWOTHIRD 6.6666666666666667e-1\n"
    "#define CUDART_PIO4 7.8539816339744828e-1\n#define CUDART_PIO2 1.5707963267948966e+0\n"
    "#define CUDART_3PIO4 2.3561944901923448e+0\n#define CUDART_PI 3.1415926535897931e+0\n"
    "#define CUDART_2_OVER_PI 6.3661977236758138e-1\n"
    "#define CUDART_SQRT_2OPI 7.9788456080286536e-1\n"
    "#define CUDART_L2E 1.4426950408889634e+0\n#define CUDART_L2T 3.3219280948873622e+0\n"
    "#define CUDART_LG2 3.0102999566398120e-1\n#define CUDART_LGE 4.3429448190325182e-1\n"
    "#define CUDART_LN2 6.9314718055994529e-1\n#define CUDART_LNT 2.3025850929940459e+0\n"
    "#define CUDART_LNPI 1.1447298858494002e+0\n#define CUDART_LN2_X_1024 7.0978271289338397e+2\n"
    "#define CUDART_LN2_X_1025 7.1047586007394398e+2\n#define CUDART_LN2_X_1075 "
    "7.4513321910194122e+2\n"
    "#define CUDART_LG2_X_1024 3.0825471555991675e+2\n#define CUDART_LG2_X_1075 "
    "3.2360724533877976e+2\n"
    "#define CUDART_TWO_TO_23 8388608.0\n#define CUDART_TWO_TO_52 4503599627370496.0\n"
    "#define CUDART_TWO_TO_53 9007199254740992.0\n#define CUDART_TWO_TO_54 18014398509481984.0\n"
    "#define CUDART_TWO_TO_M54 5.5511151231257827e-17\n"
    "#define CUDART_TWO_TO_M1022 2.22507385850720140e-308\n"
    "#define CUDART_TRIG_PLOSS 2147483648.0\n#define CUDART_DBL2INT_CVT 6755399441055744.0\n"
    "#endif\n";
