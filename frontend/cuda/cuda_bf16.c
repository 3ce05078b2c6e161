/* cuda_bf16.c — kcc's <cuda_bf16.h> (CUDA input): CUDA's bfloat16 device API.
 *
 * KIR has no bfloat16 type, and needs none: __nv_bfloat16 is CUDA's own struct (one unsigned
 * short, __x, the bits), and every operation widens to float (exact: a bfloat16 is the top
 * half of a float), computes there and rounds back with integer arithmetic on the bits. So
 * every form (PTX, SPIR-V, OpenCL C, CUDA C) computes it the same way from ordinary float and
 * integer operations, with no bf16 instruction, extension or capability. Single operations give
 * what sm_80's bf16 instructions give: + - * / and sqrt of two bfloat16s are exact in float or
 * rounded once there with 24 >= 2 * 8 + 2 bits, so rounding again to bfloat16 is correct
 * (double rounding is innocuous); fma, whose exact result float may not hold, rounds to float
 * toward odd first (__kcc_bf_fma). Rounding float -> bfloat16 is the toolkit's: to nearest
 * even (or the mode the name says), every NaN the canonical 0x7fff, as cvt.rn.bf16.f32.
 *
 * The struct, its constructors, conversion operators and the free operators are the ones
 * cuda_bf16.hpp declares (kcc's C++ front end lowers them to plain functions on the struct),
 * so overload resolution picks what nvcc picks. The math functions (hsqrt, hexp...) are the
 * float function rounded to bfloat16: at least as accurate as the toolkit's approximations.
 * The families (conversions in four rounding modes, comparisons, math, shuffles) are written
 * out by loops below rather than by macros: kcc does not take a member access that a macro's
 * body spells. */
#include "fe_cuda.h"

#include <string.h>

static const char h_bf16_types[] =
    "#ifndef __KCC_CUDA_BF16_H\n#define __KCC_CUDA_BF16_H\n"
    "#include <cuda_fp16.h>\n"
    "#define __KCC_B static __host__ __device__ __forceinline__\n"
    "#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)\n"
    "#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)\n"
    "#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)\n"
    "#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)\n"
    "#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)\n"
    "#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)\n"
    "#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)\n"
    /* The bits' helpers, before the struct, whose members use them. Rounding modes: 0 to
       nearest even, 1 toward zero, 2 down, 3 up. */
    "__KCC_B float __kcc_bf2f(unsigned short __b) { return __uint_as_float((unsigned int)__b "
    "<< 16); }\n"
    "__KCC_B unsigned short __kcc_f2bf(float __f, int __m) {\n"
    "  unsigned int __u = __float_as_uint(__f);\n"
    "  if ((__u & 0x7fffffffU) > 0x7f800000U) return (unsigned short)0x7fffU;\n"
    "  unsigned int __r = __u & 0xffffU, __h = __u >> 16, __neg = __u >> 31;\n"
    "  if (__m == 0) __h += (__r > 0x8000U || (__r == 0x8000U && (__h & 1U))) ? 1U : 0U;\n"
    "  else if (__m == 2) __h += (__r != 0U && __neg) ? 1U : 0U;\n"
    "  else if (__m == 3) __h += (__r != 0U && !__neg) ? 1U : 0U;\n"
    "  return (unsigned short)__h;\n}\n"
    /* double -> float toward odd (exactly: truncated, sticky bit set when inexact), then to
       nearest even: one correct rounding, as cvt.rn.bf16.f64 */
    "__KCC_B unsigned short __kcc_d2bf(double __d) {\n"
    "  float __f = (float)__d;\n"
    "  double __b = (double)__f;\n"
    "  unsigned int __u = __float_as_uint(__f);\n"
    "  if ((__d > 0.0 && __b > __d) || (__d < 0.0 && __b < __d)) __u--;\n"
    "  if (__b != __d && __d == __d) __u |= 1U;\n"
    "  return __kcc_f2bf(__uint_as_float(__u), 0);\n}\n"
    /* an integer's magnitude -> bfloat16 in mode m, exactly (float would round first) */
    "__KCC_B unsigned short __kcc_u2bf(unsigned long long __v, unsigned int __neg, int __m) {\n"
    "  if (__v == 0ULL) return (unsigned short)0U;\n"
    "  int __lz = __clzll((long long)__v);\n"
    "  unsigned long long __n = __v << __lz, __rest = __n << 8, __mid = 1ULL << 63;\n"
    "  unsigned int __h = (__neg << 15) | ((unsigned int)(190 - __lz) << 7) | "
    "(unsigned int)((__n >> 56) & 0x7fULL);\n"
    "  if (__m == 0) __h += (__rest > __mid || (__rest == __mid && (__h & 1U))) ? 1U : 0U;\n"
    "  else if (__m == 2) __h += (__rest != 0ULL && __neg) ? 1U : 0U;\n"
    "  else if (__m == 3) __h += (__rest != 0ULL && !__neg) ? 1U : 0U;\n"
    "  return (unsigned short)__h;\n}\n"
    "__KCC_B unsigned short __kcc_i2bf(long long __v, int __m) {\n"
    "  return __v < 0 ? __kcc_u2bf(0ULL - (unsigned long long)__v, 1U, __m) : "
    "__kcc_u2bf((unsigned long long)__v, 0U, __m);\n}\n"
    /* bfloat16 -> a narrow integer: rounded in mode m, saturated, NaN 0 (cvt.rni.s16.f32) */
    "__KCC_B long long __kcc_bf2n(unsigned short __b, int __m, float __lo, float __hi) {\n"
    "  float __f = __kcc_bf2f(__b);\n"
    "  if (__f != __f) return 0;\n"
    "  float __r = __m == 0 ? rintf(__f) : __m == 1 ? truncf(__f) : __m == 2 ? floorf(__f) : "
    "ceilf(__f);\n"
    "  return __r < __lo ? (long long)__lo : __r > __hi ? (long long)__hi : (long long)__r;\n}\n"
    /* fma rounded once. p = a*b is exact in float (16 bits) when |p| >= 2^-100; s = p + c
       rounded, TwoSum's e its exact error, s nudged to odd toward e when inexact: rounding to
       odd at 24 bits keeps the rounding to 8 correct. A tiny p beside a c >= 2^-20 cannot move
       c's rounding; a tiny p beside a tiny c is computed scaled by 2^128 (exact: the smaller
       factor scaled) and scaled back toward odd, by 2^-64 twice (the first step exact or the
       result below 2^-190: one rounding; 2^-128 itself is a denormal, 0 where float
       denormals are flushed, as on NVIDIA's Vulkan driver); a p that overflows float beside finite
       a and b, scaled by 2^-128 (a c below 2^64 there only decides by its sign, as +-2^64). */
    "__KCC_B float __kcc_bf_odd(float __s, float __e) {\n"
    "  unsigned int __u = __float_as_uint(__s);\n"
    "  if (__e != 0.0f && (__u & 0x7f800000U) != 0x7f800000U && !(__u & 1U))\n"
    "    __u = __s == 0.0f ? (__e < 0.0f ? 0x80000001U : 1U) : (__e > 0.0f) == (__s > 0.0f) ? "
    "__u + 1U : __u - 1U;\n"
    "  return __uint_as_float(__u);\n}\n"
    "__KCC_B float __kcc_bf_sum_odd(float __p, float __c) {\n"
    "  float __s = __p + __c, __bb = __s - __p;\n"
    "  return __kcc_bf_odd(__s, (__p - (__s - __bb)) + (__c - __bb));\n}\n"
    "__KCC_B unsigned short __kcc_bf_fma(float __a, float __b, float __c) {\n"
    "  const float __up = __uint_as_float(0x5f800000U), __down = __uint_as_float(0x1f800000U);\n"
    "  float __p = __a * __b;\n"
    "  if (fabsf(__p) < __uint_as_float(0x0d800000U)) {\n"
    "    if (fabsf(__c) >= __uint_as_float(0x35800000U)) return __kcc_f2bf(__c, 0);\n"
    "    float __lo = fabsf(__a) < fabsf(__b) ? __a : __b, __hi = fabsf(__a) < fabsf(__b) ? __b "
    ": __a;\n"
    "    float __s = __kcc_bf_sum_odd(((__lo * __up) * __up) * __hi, (__c * __up) * __up);\n"
    "    float __t = (__s * __down) * __down;\n"
    "    return __kcc_f2bf(__kcc_bf_odd(__t, __s - (__t * __up) * __up), 0);\n"
    "  }\n"
    "  if (fabsf(__p) > __uint_as_float(0x7f7fffffU) && fabsf(__a) <= "
    "__uint_as_float(0x7f7fffffU) && fabsf(__b) <= __uint_as_float(0x7f7fffffU)) {\n"
    "    float __cc = __c != 0.0f && fabsf(__c) < __up ? (__c < 0.0f ? -__up : __up) : __c;\n"
    "    float __s = __kcc_bf_sum_odd((__a * __down) * (__b * __down), (__cc * __down) * "
    "__down);\n"
    "    return __kcc_f2bf((__s * __up) * __up, 0);\n"
    "  }\n"
    "  return __kcc_f2bf(__kcc_bf_sum_odd(__p, __c), 0);\n}\n"
    /* the types, as cuda_bf16.h declares them (__x public: kcc has no access control to keep) */
    "struct __nv_bfloat16_raw { unsigned short x; };\n"
    "struct __nv_bfloat162_raw { unsigned short x; unsigned short y; };\n"
    "struct __align__(2) __nv_bfloat16 {\n"
    "  unsigned short __x;\n"
    "  __nv_bfloat16() = default;\n"
    "  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &__r) : __x(__r.x) {}\n"
    "  __host__ __device__ __nv_bfloat16 &operator=(const __nv_bfloat16_raw &__r) { __x = __r.x; "
    "return *this; }\n"
    "  __host__ __device__ operator __nv_bfloat16_raw() const { __nv_bfloat16_raw __r; "
    "__r.x = __x; return __r; }\n"
    "#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)\n"
    "  explicit __host__ __device__ __nv_bfloat16(const __half __h) : "
    "__x(__kcc_f2bf((float)__h, 0)) {}\n"
    "  __host__ __device__ __nv_bfloat16(const float __f) : __x(__kcc_f2bf(__f, 0)) {}\n"
    "  __host__ __device__ __nv_bfloat16(const double __d) : __x(__kcc_d2bf(__d)) {}\n"
    "  __host__ __device__ operator float() const { return __kcc_bf2f(__x); }\n"
    "  __host__ __device__ __nv_bfloat16 &operator=(const float __f) { __x = __kcc_f2bf(__f, 0); "
    "return *this; }\n"
    "  __host__ __device__ __nv_bfloat16 &operator=(const double __d) { __x = __kcc_d2bf(__d); "
    "return *this; }\n";

/* The integer types the struct converts from (rounded to nearest) and to (toward zero). */
static const struct {
  const char *type, *name; /* name: the conversion functions' spelling, NULL for none */
  bool is_signed;
  const char *lo, *hi; /* a narrow type's range (kcc_bf2n); NULL: the float conversion */
} int_types[] = {
    {"short", "short", true, "-32768.0f", "32767.0f"},
    {"unsigned short", "ushort", false, "0.0f", "65535.0f"},
    {"int", "int", true, NULL, NULL},
    {"unsigned int", "uint", false, NULL, NULL},
    {"long", NULL, true, NULL, NULL},
    {"unsigned long", NULL, false, NULL, NULL},
    {"long long", "ll", true, NULL, NULL},
    {"unsigned long long", "ull", false, NULL, NULL},
};

/* The float -> integer builtin (prelude.c) a wide type's conversion uses. */
static const char *float_conv(const char *name) {
  return !strcmp(name, "int")    ? "float2int"
         : !strcmp(name, "uint") ? "float2uint"
         : !strcmp(name, "ll")   ? "float2ll"
                                 : "float2ull";
}

/* bfloat16 -> integer in mode m ("rn"...) as an expression of the bits `b`. */
static void to_int_expr(KBuf *b, size_t t, int m, const char *bits) {
  static const char *const modes[] = {"rn", "rz", "rd", "ru"};
  const char *name = int_types[t].name ? int_types[t].name : int_types[t].is_signed ? "ll" : "ull";
  if (int_types[t].lo)
    kbuf_printf(b, "(%s)__kcc_bf2n(%s, %d, %s, %s)", int_types[t].type, bits, m, int_types[t].lo,
                int_types[t].hi);
  else
    kbuf_printf(b, "(%s)__%s_%s(__kcc_bf2f(%s))", int_types[t].type, float_conv(name), modes[m],
                bits);
}

static void struct_members(KBuf *b) {
  for (size_t t = 0; t < sizeof int_types / sizeof *int_types; t++) {
    const char *T = int_types[t].type;
    const char *cv = int_types[t].is_signed ? "__kcc_i2bf((long long)__v, 0)"
                                            : "__kcc_u2bf((unsigned long long)__v, 0U, 0)";
    kbuf_printf(b, "  __host__ __device__ __nv_bfloat16(%s __v) : __x(%s) {}\n", T, cv);
    if (int_types[t].name) /* as cuda_bf16.h: no assignment from long */
      kbuf_printf(b,
                  "  __host__ __device__ __nv_bfloat16 &operator=(%s __v) { __x = %s; return "
                  "*this; }\n",
                  T, cv);
    kbuf_printf(b, "  __host__ __device__ operator %s() const { return ", T);
    to_int_expr(b, t, 1, "__x");
    kbuf_printf(b, "; }\n");
  }
  /* the char conversions are toward zero, saturated, NaN 0 (__bfloat162char_rz) */
  kbuf_printf(b, "  __host__ __device__ operator signed char() const { return (signed "
                 "char)__kcc_bf2n(__x, 1, -128.0f, 127.0f); }\n"
                 "  __host__ __device__ operator char() const { return "
                 "(char)__kcc_bf2n(__x, 1, -128.0f, 127.0f); }\n"
                 "  __host__ __device__ operator unsigned char() const { return (unsigned "
                 "char)__kcc_bf2n(__x, 1, 0.0f, 255.0f); }\n"
                 "  __host__ __device__ operator bool() const { return (__x & 0x7fffU) != 0U; "
                 "}\n"
                 "#endif\n};\n");
}

/* Every function below works on the bits (__x) of its operands through the __kcc_bfb_*
 * functions and makes its result with __kcc_bf/__kcc_bf2: no __nv_bfloat16 is ever copied from
 * an lvalue, assigned, or passed by value to another function inside the header. Each such
 * copy is an overload resolution over the struct's converting constructors and conversion
 * operators (12 x 14 implicit conversions tried), and the header's bodies did hundreds: 60% of
 * the CPU of a file that includes it (docs/design.md, "What <cuda_bf16.h> cost"). The public
 * signatures stay those of cuda_bf16.hpp (by value, as there). */
static const char h_bf16_pair[] =
    "struct __align__(4) __nv_bfloat162 {\n"
    "  __nv_bfloat16 x;\n  __nv_bfloat16 y;\n"
    "  __nv_bfloat162() = default;\n"
    "  __host__ __device__ __nv_bfloat162(const __nv_bfloat16 &__a, const __nv_bfloat16 &__b) { "
    "x.__x = __a.__x; y.__x = __b.__x; }\n"
    "  __host__ __device__ __nv_bfloat162(const __nv_bfloat162_raw &__r) { x.__x = __r.x; "
    "y.__x = __r.y; }\n"
    "  __host__ __device__ __nv_bfloat162 &operator=(const __nv_bfloat162_raw &__r) { "
    "x.__x = __r.x; y.__x = __r.y; return *this; }\n"
    "  __host__ __device__ operator __nv_bfloat162_raw() const { __nv_bfloat162_raw __r; "
    "__r.x = x.__x; __r.y = y.__x; return __r; }\n"
    "};\n"
    "typedef __nv_bfloat16 nv_bfloat16;\ntypedef __nv_bfloat162 nv_bfloat162;\n"
    "typedef __nv_bfloat16_raw nv_bfloat16_raw;\ntypedef __nv_bfloat162_raw nv_bfloat162_raw;\n"
    /* results from bits */
    "__KCC_B __nv_bfloat16 __kcc_bf(unsigned short __b) { __nv_bfloat16 __r; __r.__x = __b; "
    "return __r; }\n"
    "__KCC_B __nv_bfloat162 __kcc_bf2(unsigned short __a, unsigned short __b) { __nv_bfloat162 "
    "__r; __r.x.__x = __a; __r.y.__x = __b; return __r; }\n"
    "__KCC_B unsigned short __bfloat16_as_ushort(const __nv_bfloat16 __h) { return __h.__x; }\n"
    "__KCC_B short __bfloat16_as_short(const __nv_bfloat16 __h) { return (short)__h.__x; }\n"
    "__KCC_B __nv_bfloat16 __ushort_as_bfloat16(const unsigned short __u) { return "
    "__kcc_bf(__u); }\n"
    "__KCC_B __nv_bfloat16 __short_as_bfloat16(const short __s) { return "
    "__kcc_bf((unsigned short)__s); }\n"
    /* float and double */
    "__KCC_B float __bfloat162float(const __nv_bfloat16 __h) { return __kcc_bf2f(__h.__x); }\n"
    "__KCC_B __nv_bfloat16 __float2bfloat16(const float __f) { return __kcc_bf(__kcc_f2bf(__f, "
    "0)); }\n"
    "__KCC_B __nv_bfloat16 __float2bfloat16_rn(const float __f) { return "
    "__kcc_bf(__kcc_f2bf(__f, 0)); }\n"
    "__KCC_B __nv_bfloat16 __float2bfloat16_rz(const float __f) { return "
    "__kcc_bf(__kcc_f2bf(__f, 1)); }\n"
    "__KCC_B __nv_bfloat16 __float2bfloat16_rd(const float __f) { return "
    "__kcc_bf(__kcc_f2bf(__f, 2)); }\n"
    "__KCC_B __nv_bfloat16 __float2bfloat16_ru(const float __f) { return "
    "__kcc_bf(__kcc_f2bf(__f, 3)); }\n"
    "__KCC_B __nv_bfloat16 __double2bfloat16(const double __d) { return "
    "__kcc_bf(__kcc_d2bf(__d)); }\n"
    /* pairs */
    "__KCC_B __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 __a, const __nv_bfloat16 "
    "__b) { return __kcc_bf2(__a.__x, __b.__x); }\n"
    "__KCC_B __nv_bfloat162 make_bfloat162(const __nv_bfloat16 __a, const __nv_bfloat16 __b) { "
    "return __kcc_bf2(__a.__x, __b.__x); }\n"
    "__KCC_B __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 __a) { return "
    "__kcc_bf2(__a.__x, __a.__x); }\n"
    "__KCC_B __nv_bfloat162 __float2bfloat162_rn(const float __f) { unsigned short __b = "
    "__kcc_f2bf(__f, 0); return __kcc_bf2(__b, __b); }\n"
    "__KCC_B __nv_bfloat162 __floats2bfloat162_rn(const float __a, const float __b) { return "
    "__kcc_bf2(__kcc_f2bf(__a, 0), __kcc_f2bf(__b, 0)); }\n"
    "__KCC_B __nv_bfloat162 __float22bfloat162_rn(const float2 __f) { return "
    "__kcc_bf2(__kcc_f2bf(__f.x, 0), __kcc_f2bf(__f.y, 0)); }\n"
    "__KCC_B float2 __bfloat1622float2(const __nv_bfloat162 __h) { return "
    "make_float2(__kcc_bf2f(__h.x.__x), __kcc_bf2f(__h.y.__x)); }\n"
    "__KCC_B float __low2float(const __nv_bfloat162 __h) { return __kcc_bf2f(__h.x.__x); }\n"
    "__KCC_B float __high2float(const __nv_bfloat162 __h) { return __kcc_bf2f(__h.y.__x); }\n"
    "__KCC_B __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 __h) { return "
    "__kcc_bf(__h.x.__x); }\n"
    "__KCC_B __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 __h) { return "
    "__kcc_bf(__h.y.__x); }\n"
    "__KCC_B __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 __h) { return "
    "__kcc_bf2(__h.x.__x, __h.x.__x); }\n"
    "__KCC_B __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 __h) { return "
    "__kcc_bf2(__h.y.__x, __h.y.__x); }\n"
    "__KCC_B __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 __a, const __nv_bfloat162 "
    "__b) { return __kcc_bf2(__a.x.__x, __b.x.__x); }\n"
    "__KCC_B __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 __a, const __nv_bfloat162 "
    "__b) { return __kcc_bf2(__a.y.__x, __b.y.__x); }\n"
    "__KCC_B __nv_bfloat162 __lowhigh2highlow(const __nv_bfloat162 __h) { return "
    "__kcc_bf2(__h.y.__x, __h.x.__x); }\n"
    /* the operations on bits. Arithmetic in float, rounded once (see the top of cuda_bf16.c);
       NaN results 0x7fff. max and min as max.bf16: a NaN operand gives the other, two NaNs the
       canonical NaN, and +0 is above -0; the _nan forms give the canonical NaN for either NaN.
       _sat: clamped to [0, 1], NaN 0 (the toolkit's __hmin(__hmax(r, 0), 1)). fma.rn.relu.bf16:
       negative results 0, NaN the canonical NaN. */
    "__KCC_B bool __kcc_bfb_isnan(unsigned short __a) { return (__a & 0x7fffU) > 0x7f80U; }\n"
    "__KCC_B unsigned short __kcc_bfb_mm(unsigned short __a, unsigned short __b, bool __max, "
    "bool __nan) {\n"
    "  bool __na = __kcc_bfb_isnan(__a), __nb = __kcc_bfb_isnan(__b);\n"
    "  if ((__na && __nb) || (__nan && (__na || __nb))) return (unsigned short)0x7fffU;\n"
    "  if (__na) return __b;\n  if (__nb) return __a;\n"
    "  float __x = __kcc_bf2f(__a), __y = __kcc_bf2f(__b);\n"
    "  if (__x == __y) return ((__a & 0x8000U) != 0U) == __max ? __b : __a;\n"
    "  return (__x > __y) == __max ? __a : __b;\n}\n"
    "__KCC_B unsigned short __kcc_bfb_sat(unsigned short __r) { return "
    "__kcc_bfb_mm(__kcc_bfb_mm(__r, (unsigned short)0U, true, false), (unsigned short)0x3f80U, "
    "false, false); }\n"
    "__KCC_B unsigned short __kcc_bfb_relu(unsigned short __r) { return __kcc_bfb_isnan(__r) ? "
    "(unsigned short)0x7fffU : (__r & 0x8000U) ? (unsigned short)0U : __r; }\n";

/* The operations on bits (__kcc_bfb_NAME, of 1 to 3 operands __a __b __c), and the public
 * scalar and pair functions that are each one of them. */
static const struct {
  const char *name;
  int arity;
  const char *expr;
} bits_ops[] = {
    {"add", 2, "__kcc_f2bf(__kcc_bf2f(__a) + __kcc_bf2f(__b), 0)"},
    {"sub", 2, "__kcc_f2bf(__kcc_bf2f(__a) - __kcc_bf2f(__b), 0)"},
    {"mul", 2, "__kcc_f2bf(__kcc_bf2f(__a) * __kcc_bf2f(__b), 0)"},
    {"div", 2, "__kcc_f2bf(__kcc_bf2f(__a) / __kcc_bf2f(__b), 0)"},
    {"fma", 3, "__kcc_bf_fma(__kcc_bf2f(__a), __kcc_bf2f(__b), __kcc_bf2f(__c))"},
    {"neg", 1, "(unsigned short)(__a ^ 0x8000U)"},
    {"abs", 1, "(unsigned short)(__a & 0x7fffU)"},
    {"max", 2, "__kcc_bfb_mm(__a, __b, true, false)"},
    {"min", 2, "__kcc_bfb_mm(__a, __b, false, false)"},
    {"max_nan", 2, "__kcc_bfb_mm(__a, __b, true, true)"},
    {"min_nan", 2, "__kcc_bfb_mm(__a, __b, false, true)"},
    {"add_sat", 2, "__kcc_bfb_sat(__kcc_bfb_add(__a, __b))"},
    {"sub_sat", 2, "__kcc_bfb_sat(__kcc_bfb_sub(__a, __b))"},
    {"mul_sat", 2, "__kcc_bfb_sat(__kcc_bfb_mul(__a, __b))"},
    {"fma_sat", 3, "__kcc_bfb_sat(__kcc_bfb_fma(__a, __b, __c))"},
    {"fma_relu", 3, "__kcc_bfb_relu(__kcc_bfb_fma(__a, __b, __c))"},
};

static const struct {
  const char *scalar, *pair, *bits;
} public_ops[] = {
    {"__hadd", "__hadd2", "add"},
    {"__hsub", "__hsub2", "sub"},
    {"__hmul", "__hmul2", "mul"},
    {"__hdiv", "__h2div", "div"},
    {"__hadd_rn", "__hadd2_rn", "add"},
    {"__hsub_rn", "__hsub2_rn", "sub"},
    {"__hmul_rn", "__hmul2_rn", "mul"},
    {"__hfma", "__hfma2", "fma"},
    {"__hneg", "__hneg2", "neg"},
    {"__habs", "__habs2", "abs"},
    {"__hmax", "__hmax2", "max"},
    {"__hmin", "__hmin2", "min"},
    {"__hmax_nan", "__hmax2_nan", "max_nan"},
    {"__hmin_nan", "__hmin2_nan", "min_nan"},
    {"__hadd_sat", "__hadd2_sat", "add_sat"},
    {"__hsub_sat", "__hsub2_sat", "sub_sat"},
    {"__hmul_sat", "__hmul2_sat", "mul_sat"},
    {"__hfma_sat", "__hfma2_sat", "fma_sat"},
    {"__hfma_relu", "__hfma2_relu", "fma_relu"},
};

static const char *const operand[] = {"__a", "__b", "__c"};

/* `__kcc_bfb_NAME(OP.__x, ...)` on operands __a.. (scalar) or on their half `.x`/`.y`. */
static void bits_call(KBuf *b, const char *name, int arity, const char *half) {
  kbuf_printf(b, "__kcc_bfb_%s(", name);
  for (int i = 0; i < arity; i++) kbuf_printf(b, "%s%s%s.__x", i ? ", " : "", operand[i], half);
  kbuf_printf(b, ")");
}

/* The result of bits function NAME on the operands: a bfloat16, or a pair made half by half. */
static void bits_result(KBuf *b, bool pair, const char *name, int arity) {
  if (!pair) {
    kbuf_printf(b, "__kcc_bf(");
    bits_call(b, name, arity, "");
  } else {
    kbuf_printf(b, "__kcc_bf2(");
    bits_call(b, name, arity, ".x");
    kbuf_printf(b, ", ");
    bits_call(b, name, arity, ".y");
  }
  kbuf_printf(b, ")");
}

static int bits_arity(const char *name) {
  for (size_t i = 0; i < sizeof bits_ops / sizeof *bits_ops; i++)
    if (!strcmp(bits_ops[i].name, name)) return bits_ops[i].arity;
  return 0;
}

/* Comparisons: name, float operator, whether it is unordered (true when either is NaN). */
static const struct {
  const char *name, *op;
  bool unordered;
} cmps[] = {{"eq", "==", false}, {"ne", "!=", false}, {"lt", "<", false},  {"le", "<=", false},
            {"gt", ">", false},  {"ge", ">=", false}, {"equ", "==", true}, {"neu", "!=", true},
            {"ltu", "<", true},  {"leu", "<=", true}, {"gtu", ">", true},  {"geu", ">=", true}};

static void arithmetic(KBuf *b) {
  for (size_t i = 0; i < sizeof bits_ops / sizeof *bits_ops; i++) {
    kbuf_printf(b, "__KCC_B unsigned short __kcc_bfb_%s(", bits_ops[i].name);
    for (int k = 0; k < bits_ops[i].arity; k++)
      kbuf_printf(b, "%sunsigned short %s", k ? ", " : "", operand[k]);
    kbuf_printf(b, ") { return %s; }\n", bits_ops[i].expr);
  }
  for (size_t i = 0; i < sizeof public_ops / sizeof *public_ops; i++) {
    int n = bits_arity(public_ops[i].bits);
    for (int p = 0; p < 2; p++) {
      const char *T = p ? "__nv_bfloat162" : "__nv_bfloat16";
      kbuf_printf(b, "__KCC_B %s %s(", T, p ? public_ops[i].pair : public_ops[i].scalar);
      for (int k = 0; k < n; k++) kbuf_printf(b, "%sconst %s %s", k ? ", " : "", T, operand[k]);
      kbuf_printf(b, ") { return ");
      bits_result(b, p, public_ops[i].bits, n);
      kbuf_printf(b, "; }\n");
    }
  }
  kbuf_printf(b, "__KCC_B bool __hisnan(const __nv_bfloat16 __a) { return "
                 "__kcc_bfb_isnan(__a.__x); }\n"
                 "__KCC_B int __hisinf(const __nv_bfloat16 __a) { return __a.__x == 0x7f80U ? 1 "
                 ": __a.__x == 0xff80U ? -1 : 0; }\n"
                 /* complex multiply-add, as the toolkit's four fmas */
                 "__KCC_B __nv_bfloat162 __hcmadd(const __nv_bfloat162 __a, const "
                 "__nv_bfloat162 __b, const __nv_bfloat162 __c) {\n"
                 "  unsigned short __re = __kcc_bfb_fma(__a.x.__x, __b.x.__x, __c.x.__x), __im = "
                 "__kcc_bfb_fma(__a.x.__x, __b.y.__x, __c.y.__x);\n"
                 "  return __kcc_bf2(__kcc_bfb_fma(__kcc_bfb_neg(__a.y.__x), __b.y.__x, __re), "
                 "__kcc_bfb_fma(__a.y.__x, __b.x.__x, __im));\n}\n"
                 "__KCC_B __nv_bfloat162 __hisnan2(const __nv_bfloat162 __a) { return "
                 "__kcc_bf2(__kcc_bfb_isnan(__a.x.__x) ? 0x3f80U : 0U, "
                 "__kcc_bfb_isnan(__a.y.__x) ? 0x3f80U : 0U); }\n");
  for (size_t i = 0; i < sizeof cmps / sizeof *cmps; i++) {
    const char *n = cmps[i].name;
    kbuf_printf(b,
                "__KCC_B bool __kcc_bfb_%s(unsigned short __a, unsigned short __b) { return "
                "%s(__kcc_bf2f(__a) %s __kcc_bf2f(__b))%s; }\n",
                n, cmps[i].unordered ? "__kcc_bfb_isnan(__a) || __kcc_bfb_isnan(__b) || " : "",
                cmps[i].op,
                cmps[i].unordered || strcmp(n, "ne")
                    ? ""
                    : " && !__kcc_bfb_isnan(__a) && !__kcc_bfb_isnan(__b)");
    kbuf_printf(b,
                "__KCC_B bool __h%s(const __nv_bfloat16 __a, const __nv_bfloat16 __b) { return "
                "__kcc_bfb_%s(__a.__x, __b.__x); }\n"
                "__KCC_B bool __hb%s2(const __nv_bfloat162 __a, const __nv_bfloat162 __b) { "
                "return __kcc_bfb_%s(__a.x.__x, __b.x.__x) && __kcc_bfb_%s(__a.y.__x, __b.y.__x); "
                "}\n"
                "__KCC_B __nv_bfloat162 __h%s2(const __nv_bfloat162 __a, const __nv_bfloat162 "
                "__b) { return __kcc_bf2(__kcc_bfb_%s(__a.x.__x, __b.x.__x) ? 0x3f80U : 0U, "
                "__kcc_bfb_%s(__a.y.__x, __b.y.__x) ? 0x3f80U : 0U); }\n"
                "__KCC_B unsigned int __h%s2_mask(const __nv_bfloat162 __a, const __nv_bfloat162 "
                "__b) { return (__kcc_bfb_%s(__a.x.__x, __b.x.__x) ? 0xffffU : 0U) | "
                "(__kcc_bfb_%s(__a.y.__x, __b.y.__x) ? 0xffff0000U : 0U); }\n",
                n, n, n, n, n, n, n, n, n, n, n);
  }
}

/* Integer conversions both ways in each rounding mode, and the char ones (toward zero). */
static void int_conversions(KBuf *b) {
  static const char *const modes[] = {"rn", "rz", "rd", "ru"};
  for (size_t t = 0; t < sizeof int_types / sizeof *int_types; t++) {
    const char *n = int_types[t].name, *T = int_types[t].type;
    if (!n) continue;
    for (int m = 0; m < 4; m++) {
      kbuf_printf(b, "__KCC_B %s __bfloat162%s_%s(const __nv_bfloat16 __h) { return ", T, n,
                  modes[m]);
      to_int_expr(b, t, m, "__h.__x");
      kbuf_printf(b, "; }\n__KCC_B __nv_bfloat16 __%s2bfloat16_%s(const %s __v) { return ", n,
                  modes[m], T);
      if (int_types[t].is_signed)
        kbuf_printf(b, "__kcc_bf(__kcc_i2bf((long long)__v, %d)); }\n", m);
      else
        kbuf_printf(b, "__kcc_bf(__kcc_u2bf((unsigned long long)__v, 0U, %d)); }\n", m);
    }
  }
  kbuf_printf(b, "__KCC_B signed char __bfloat162char_rz(const __nv_bfloat16 __h) { return "
                 "(signed char)__kcc_bf2n(__h.__x, 1, -128.0f, 127.0f); }\n"
                 "__KCC_B unsigned char __bfloat162uchar_rz(const __nv_bfloat16 __h) { return "
                 "(unsigned char)__kcc_bf2n(__h.__x, 1, 0.0f, 255.0f); }\n");
}

/* `LHS.__x = __kcc_bfb_NAME(LHS.__x, RHS.__x)` for a bfloat16, or for both halves of a pair. */
static void bits_update(KBuf *b, bool pair, const char *name, const char *rhs) {
  for (int h = 0; h < (pair ? 2 : 1); h++) {
    const char *half = !pair ? "" : h ? ".y" : ".x";
    kbuf_printf(b, "__a%s.__x = __kcc_bfb_%s(__a%s.__x, %s%s%s); ", half, name, half, rhs,
                *rhs == '_' ? half : "", *rhs == '_' ? ".__x" : "");
  }
}

/* The operators cuda_bf16.hpp defines on both types. */
static void operators(KBuf *b) {
  static const char *const ar[][2] = {{"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}};
  static const char *const rel[][2] = {{"==", "eq"}, {"!=", "neu"}, {">", "gt"},
                                       {"<", "lt"},  {">=", "ge"},  {"<=", "le"}};
  for (int p = 0; p < 2; p++) {
    const char *T = p ? "__nv_bfloat162" : "__nv_bfloat16";
    kbuf_printf(b, "#if !defined(__CUDA_NO_BFLOAT16%s_OPERATORS__)\n", p ? "2" : "");
    for (size_t i = 0; i < sizeof ar / sizeof *ar; i++) {
      kbuf_printf(b, "__KCC_B %s operator%s(const %s &__a, const %s &__b) { return ", T, ar[i][0],
                  T, T);
      bits_result(b, p, ar[i][1], 2);
      kbuf_printf(b, "; }\n__KCC_B %s &operator%s=(%s &__a, const %s &__b) { ", T, ar[i][0], T, T);
      bits_update(b, p, ar[i][1], "__b");
      kbuf_printf(b, "return __a; }\n");
    }
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
      kbuf_printf(b, "__KCC_B bool operator%s(const %s &__a, const %s &__b) { return ", rel[i][0],
                  T, T);
      bits_call(b, rel[i][1], 2, p ? ".x" : "");
      if (p) {
        kbuf_printf(b, " && ");
        bits_call(b, rel[i][1], 2, ".y");
      }
      kbuf_printf(b, "; }\n");
    }
    kbuf_printf(b, "__KCC_B %s operator+(const %s &__a) { return %s; }\n", T, T,
                p ? "__kcc_bf2(__a.x.__x, __a.y.__x)" : "__kcc_bf(__a.__x)");
    kbuf_printf(b, "__KCC_B %s operator-(const %s &__a) { return ", T, T);
    bits_result(b, p, "neg", 1);
    kbuf_printf(b, "; }\n");
    /* ++ and --: add or subtract 1.0 (0x3f80), rounded as __hadd; the postfix forms return the
       old bits */
    for (int d = 0; d < 2; d++) {
      const char *op = d ? "--" : "++", *fn = d ? "sub" : "add";
      kbuf_printf(b, "__KCC_B %s &operator%s(%s &__a) { ", T, op, T);
      bits_update(b, p, fn, "(unsigned short)0x3f80U");
      kbuf_printf(b, "return __a; }\n__KCC_B %s operator%s(%s &__a, int) { %s", T, op, T,
                  p ? "unsigned short __ox = __a.x.__x, __oy = __a.y.__x; "
                    : "unsigned short __o = __a.__x; ");
      bits_update(b, p, fn, "(unsigned short)0x3f80U");
      kbuf_printf(b, "return %s; }\n", p ? "__kcc_bf2(__ox, __oy)" : "__kcc_bf(__o)");
    }
    kbuf_printf(b, "#endif\n");
  }
}

/* atomicAdd of a bfloat16 (and of each half of a pair): a compare-and-swap loop on the aligned
 * 32-bit word that holds it, the sum rounded as __hadd. Every form has a 32-bit CAS; a pair's
 * halves are each added atomically, not the pair as one, as CUDA documents. */
static const char h_bf16_atomics[] =
    "__KCC_B unsigned int __kcc_bf_cas_add(unsigned int *__w, unsigned int __sh, unsigned int "
    "__mask, unsigned short __vx, unsigned short __vy) {\n"
    "  unsigned int __old = *__w, __seen;\n"
    "  do {\n"
    "    __seen = __old;\n"
    "    unsigned int __lo = __kcc_bfb_add((unsigned short)(__seen >> __sh), __vx);\n"
    "    unsigned int __hi = __kcc_bfb_add((unsigned short)(__seen >> 16), __vy);\n"
    "    unsigned int __new = __mask == 0xffffffffU ? __lo | (__hi << 16) : (__seen & ~__mask) | "
    "(__lo << __sh);\n"
    "    __old = atomicCAS(__w, __seen, __new);\n"
    "  } while (__old != __seen);\n"
    "  return __old;\n}\n"
    "__KCC_B __nv_bfloat16 atomicAdd(__nv_bfloat16 *const __p, const __nv_bfloat16 __v) {\n"
    "  unsigned int __off = (unsigned int)((unsigned long long)__p & 2ULL);\n"
    "  unsigned int *__w = (unsigned int *)((char *)__p - __off);\n"
    "  unsigned int __old = __kcc_bf_cas_add(__w, __off * 8U, 0xffffU << (__off * 8U), __v.__x, "
    "__v.__x);\n"
    "  return __kcc_bf((unsigned short)(__old >> (__off * 8U)));\n}\n"
    "__KCC_B __nv_bfloat162 atomicAdd(__nv_bfloat162 *const __p, const __nv_bfloat162 __v) {\n"
    "  unsigned int __old = __kcc_bf_cas_add((unsigned int *)__p, 0U, 0xffffffffU, __v.x.__x, "
    "__v.y.__x);\n"
    "  return __kcc_bf2((unsigned short)__old, (unsigned short)(__old >> 16));\n}\n";

/* Written out rather than by macros: kcc does not take a member access that a macro's body
 * spells. */
static void math_and_shuffles(KBuf *b) {
  /* math: the float function, rounded to nearest even */
  static const char *const math[][2] = {
      {"sqrt", "sqrtf(__f)"},   {"rsqrt", "rsqrtf(__f)"}, {"rcp", "1.0f / __f"},
      {"exp", "expf(__f)"},     {"exp2", "exp2f(__f)"},   {"exp10", "exp10f(__f)"},
      {"log", "logf(__f)"},     {"log2", "log2f(__f)"},   {"log10", "log10f(__f)"},
      {"sin", "sinf(__f)"},     {"cos", "cosf(__f)"},     {"tanh", "tanhf(__f)"},
      {"floor", "floorf(__f)"}, {"ceil", "ceilf(__f)"},   {"trunc", "truncf(__f)"},
      {"rint", "rintf(__f)"}};
  for (size_t i = 0; i < sizeof math / sizeof *math; i++) {
    const char *n = math[i][0];
    kbuf_printf(b,
                "__KCC_B unsigned short __kcc_bfb_%s(unsigned short __a) { float __f = "
                "__kcc_bf2f(__a); return __kcc_f2bf(%s, 0); }\n"
                "__KCC_B __nv_bfloat16 h%s(const __nv_bfloat16 __a) { return ",
                n, math[i][1], n);
    bits_result(b, false, n, 1);
    kbuf_printf(b, "; }\n__KCC_B __nv_bfloat162 h2%s(const __nv_bfloat162 __a) { return ", n);
    bits_result(b, true, n, 1);
    kbuf_printf(b, "; }\n");
  }
  /* warp shuffles: the 16 (or 32) bits through the int shuffle */
  static const char *const shfl[][2] = {
      {"", "int"}, {"_xor", "int"}, {"_up", "unsigned int"}, {"_down", "unsigned int"}};
  for (size_t i = 0; i < sizeof shfl / sizeof *shfl; i++) {
    const char *s = shfl[i][0], *l = shfl[i][1];
    kbuf_printf(b,
                "__KCC_B __nv_bfloat16 __shfl%s_sync(unsigned int __m, __nv_bfloat16 __v, %s __l, "
                "int __w = 32) { return __kcc_bf((unsigned short)__shfl%s_sync(__m, (int)__v.__x, "
                "__l, __w)); }\n"
                "__KCC_B __nv_bfloat162 __shfl%s_sync(unsigned int __m, __nv_bfloat162 __v, %s "
                "__l, int __w = 32) { int __b = __shfl%s_sync(__m, (int)((unsigned int)__v.x.__x | "
                "((unsigned int)__v.y.__x << 16)), __l, __w); return __kcc_bf2((unsigned "
                "short)__b, (unsigned short)((unsigned int)__b >> 16)); }\n",
                s, l, s, s, l, s);
  }
}

const char *fe_cuda_bf16_header(void) {
  static char *text;
  if (!text) {
    KBuf b = {0};
    kbuf_printf(&b, "%s", h_bf16_types);
    struct_members(&b);
    kbuf_printf(&b, "%s", h_bf16_pair);
    arithmetic(&b);
    int_conversions(&b);
    operators(&b);
    math_and_shuffles(&b);
    kbuf_printf(&b, "%s", h_bf16_atomics);
    kbuf_printf(&b, "#undef __KCC_B\n#endif\n");
    text = b.data;
  }
  return text;
}
