/* cuda_fp16.c — kcc's <cuda_fp16.h> (CUDA input): CUDA's half-precision device API on KIR's
 * half (KT_F16), so it computes exactly as OpenCL C's half does in every form (half_lower.c).
 *
 * __half is _Float16 and __half2 a 2-vector of it (ext_vector_type), not CUDA's structs: their
 * operators, conversions to and from float and .x/.y members are the language's own, and
 * kcc's front end already lowers both. What CUDA's structs have besides (the raw __x member,
 * __half_raw) is not there. The intrinsics are inline functions over those operators;
 * the bit casts and the conversions with a rounding mode are declarations that builtins.c
 * recognises by name, as it does __int_as_float. */
#include "fe_cuda.h"

static const char h_fp16[] =
    "#ifndef __KCC_CUDA_FP16_H\n#define __KCC_CUDA_FP16_H\n"
    "typedef _Float16 __half;\n"
    "typedef _Float16 __half2 __attribute__((ext_vector_type(2)));\n"
    "typedef __half half;\ntypedef __half2 half2;\n"
    /* CUDA's raw forms, the bits (cuda_fp8.h's conversions take and give them) */
    "typedef struct __half_raw { unsigned short x; } __half_raw;\n"
    "typedef struct __half2_raw { unsigned short x; unsigned short y; } __half2_raw;\n"
    "#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7c00U)\n"
    "#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7fffU)\n"
    "#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7bffU)\n"
    "#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)\n"
    "#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3c00U)\n"
    "#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)\n"
    "#pragma clang force_cuda_host_device begin\n"
    /* recognised by name (builtins.c): bit casts, and conversions whose mode matters */
    "unsigned short __half_as_ushort(__half __h);\n__half __ushort_as_half(unsigned short __u);\n"
    "short __half_as_short(__half __h);\n__half __short_as_half(short __s);\n"
    /* KIR's fma of halves: rounded once (half_lower.c) */
    "__half fma(__half __a, __half __b, __half __c);\n"
    "#define __KCC_H_CONV(F, T) T F##_rn(__half __h); T F##_rz(__half __h); "
    "T F##_ru(__half __h); T F##_rd(__half __h);\n"
    "__KCC_H_CONV(__half2int, int) __KCC_H_CONV(__half2uint, unsigned int)\n"
    "__KCC_H_CONV(__half2short, short) __KCC_H_CONV(__half2ushort, unsigned short)\n"
    "__KCC_H_CONV(__half2ll, long long) __KCC_H_CONV(__half2ull, unsigned long long)\n"
    "#undef __KCC_H_CONV\n"
    "#define __KCC_TO_H(F, T) __half F##_rn(T __x); __half F##_rz(T __x); "
    "__half F##_ru(T __x); __half F##_rd(T __x);\n"
    "__KCC_TO_H(__float2half, float) __KCC_TO_H(__int2half, int)\n"
    "__KCC_TO_H(__uint2half, unsigned int) __KCC_TO_H(__short2half, short)\n"
    "__KCC_TO_H(__ushort2half, unsigned short) __KCC_TO_H(__ll2half, long long)\n"
    "__KCC_TO_H(__ull2half, unsigned long long)\n"
    "#undef __KCC_TO_H\n"
    "#pragma clang force_cuda_host_device end\n"
    "#define __KCC_H static __device__ __forceinline__\n"
    /* conversions */
    "__KCC_H __half __float2half(float __f) { return (__half)__f; }\n"
    "__KCC_H __half __double2half(double __d) { return (__half)__d; }\n"
    "__KCC_H float __half2float(__half __h) { return (float)__h; }\n"
    "__KCC_H __half2 __float2half2_rn(float __f) { __half2 __r; __r.x = (__half)__f; "
    "__r.y = __r.x; return __r; }\n"
    "__KCC_H __half2 __floats2half2_rn(float __a, float __b) { __half2 __r; "
    "__r.x = (__half)__a; __r.y = (__half)__b; return __r; }\n"
    "__KCC_H __half2 __float22half2_rn(float2 __f) { return __floats2half2_rn(__f.x, __f.y); }\n"
    "__KCC_H float2 __half22float2(__half2 __h) { return make_float2((float)__h.x, "
    "(float)__h.y); }\n"
    "__KCC_H float __low2float(__half2 __h) { return (float)__h.x; }\n"
    "__KCC_H float __high2float(__half2 __h) { return (float)__h.y; }\n"
    /* building and taking apart half2 */
    "__KCC_H __half2 __halves2half2(__half __a, __half __b) { __half2 __r; __r.x = __a; "
    "__r.y = __b; return __r; }\n"
    "__KCC_H __half2 make_half2(__half __a, __half __b) { return __halves2half2(__a, __b); }\n"
    "__KCC_H __half2 __half2half2(__half __a) { return __halves2half2(__a, __a); }\n"
    "__KCC_H __half __low2half(__half2 __h) { return __h.x; }\n"
    "__KCC_H __half __high2half(__half2 __h) { return __h.y; }\n"
    "__KCC_H __half2 __low2half2(__half2 __h) { return __half2half2(__h.x); }\n"
    "__KCC_H __half2 __high2half2(__half2 __h) { return __half2half2(__h.y); }\n"
    "__KCC_H __half2 __lows2half2(__half2 __a, __half2 __b) { return __halves2half2(__a.x, "
    "__b.x); }\n"
    "__KCC_H __half2 __highs2half2(__half2 __a, __half2 __b) { return __halves2half2(__a.y, "
    "__b.y); }\n"
    "__KCC_H __half2 __lowhigh2highlow(__half2 __h) { return __halves2half2(__h.y, __h.x); }\n"
    /* arithmetic: each rounded to half, as the operators are; fma once */
    "__KCC_H __half __hadd(__half __a, __half __b) { return __a + __b; }\n"
    "__KCC_H __half __hsub(__half __a, __half __b) { return __a - __b; }\n"
    "__KCC_H __half __hmul(__half __a, __half __b) { return __a * __b; }\n"
    "__KCC_H __half __hdiv(__half __a, __half __b) { return __a / __b; }\n"
    "__KCC_H __half __hfma(__half __a, __half __b, __half __c) { return fma(__a, __b, __c); }\n"
    "__KCC_H __half __hneg(__half __a) { return -__a; }\n"
    "__KCC_H __half __habs(__half __a) { return __ushort_as_half((unsigned short)("
    "__half_as_ushort(__a) & 0x7fffU)); }\n"
    "__KCC_H __half __hmax(__half __a, __half __b) { return (__half)fmaxf((float)__a, "
    "(float)__b); }\n"
    "__KCC_H __half __hmin(__half __a, __half __b) { return (__half)fminf((float)__a, "
    "(float)__b); }\n"
    "__KCC_H __half2 __hadd2(__half2 __a, __half2 __b) { return __a + __b; }\n"
    "__KCC_H __half2 __hsub2(__half2 __a, __half2 __b) { return __a - __b; }\n"
    "__KCC_H __half2 __hmul2(__half2 __a, __half2 __b) { return __a * __b; }\n"
    "__KCC_H __half2 __h2div(__half2 __a, __half2 __b) { return __a / __b; }\n"
    "__KCC_H __half2 __hneg2(__half2 __a) { return -__a; }\n"
    "__KCC_H __half2 __habs2(__half2 __a) { return __halves2half2(__habs(__a.x), "
    "__habs(__a.y)); }\n"
    "__KCC_H __half2 __hfma2(__half2 __a, __half2 __b, __half2 __c) { return "
    "__halves2half2(__hfma(__a.x, __b.x, __c.x), __hfma(__a.y, __b.y, __c.y)); }\n"
    "__KCC_H __half2 __hmax2(__half2 __a, __half2 __b) { return __halves2half2(__hmax(__a.x, "
    "__b.x), __hmax(__a.y, __b.y)); }\n"
    "__KCC_H __half2 __hmin2(__half2 __a, __half2 __b) { return __halves2half2(__hmin(__a.x, "
    "__b.x), __hmin(__a.y, __b.y)); }\n"
    /* comparisons: ordered, and the unordered ones (true when either is NaN) */
    "__KCC_H bool __heq(__half __a, __half __b) { return __a == __b; }\n"
    "__KCC_H bool __hne(__half __a, __half __b) { return __a < __b || __a > __b; }\n"
    "__KCC_H bool __hlt(__half __a, __half __b) { return __a < __b; }\n"
    "__KCC_H bool __hle(__half __a, __half __b) { return __a <= __b; }\n"
    "__KCC_H bool __hgt(__half __a, __half __b) { return __a > __b; }\n"
    "__KCC_H bool __hge(__half __a, __half __b) { return __a >= __b; }\n"
    "__KCC_H bool __hequ(__half __a, __half __b) { return !(__a < __b || __a > __b); }\n"
    "__KCC_H bool __hneu(__half __a, __half __b) { return !(__a == __b); }\n"
    "__KCC_H bool __hltu(__half __a, __half __b) { return !(__a >= __b); }\n"
    "__KCC_H bool __hleu(__half __a, __half __b) { return !(__a > __b); }\n"
    "__KCC_H bool __hgtu(__half __a, __half __b) { return !(__a <= __b); }\n"
    "__KCC_H bool __hgeu(__half __a, __half __b) { return !(__a < __b); }\n"
    "__KCC_H bool __hisnan(__half __a) { return __a != __a; }\n"
    "__KCC_H int __hisinf(__half __a) { unsigned short __u = __half_as_ushort(__a); "
    "return __u == 0x7c00U ? 1 : __u == 0xfc00U ? -1 : 0; }\n"
    "__KCC_H bool __hbeq2(__half2 __a, __half2 __b) { return __a.x == __b.x && __a.y == __b.y; "
    "}\n"
    "__KCC_H bool __hbne2(__half2 __a, __half2 __b) { return __hne(__a.x, __b.x) && "
    "__hne(__a.y, __b.y); }\n"
    "__KCC_H bool __hblt2(__half2 __a, __half2 __b) { return __a.x < __b.x && __a.y < __b.y; }\n"
    "__KCC_H bool __hble2(__half2 __a, __half2 __b) { return __a.x <= __b.x && __a.y <= __b.y; "
    "}\n"
    "__KCC_H bool __hbgt2(__half2 __a, __half2 __b) { return __a.x > __b.x && __a.y > __b.y; }\n"
    "__KCC_H bool __hbge2(__half2 __a, __half2 __b) { return __a.x >= __b.x && __a.y >= __b.y; "
    "}\n"
    "__KCC_H __half hrcp(__half __a) { return (__half)1.0f / __a; }\n";

/* Written out rather than by macros: kcc does not take a vector component access (.x) that
 * a macro's body spells. */
static void math_and_shuffles(KBuf *b) {
  /* math: the float function, rounded */
  static const char *const math[] = {"sqrt",  "rsqrt", "exp", "exp2",  "exp10", "log",   "log2",
                                     "log10", "sin",   "cos", "floor", "ceil",  "trunc", "rint"};
  for (size_t i = 0; i < sizeof math / sizeof *math; i++)
    kbuf_printf(b,
                "__KCC_H __half h%s(__half __a) { return (__half)%sf((float)__a); }\n"
                "__KCC_H __half2 h2%s(__half2 __a) { return __halves2half2(h%s(__a.x), "
                "h%s(__a.y)); }\n",
                math[i], math[i], math[i], math[i], math[i]);
  /* warp shuffles of halves: the 16 (or 32) bits through the int shuffle */
  static const char *const shfl[][2] = {
      {"", "int"}, {"_xor", "int"}, {"_up", "unsigned int"}, {"_down", "unsigned int"}};
  for (size_t i = 0; i < sizeof shfl / sizeof *shfl; i++) {
    const char *s = shfl[i][0], *l = shfl[i][1];
    kbuf_printf(b,
                "__KCC_H __half __shfl%s_sync(unsigned int __m, __half __v, %s __l, int __w = 32) "
                "{ return __ushort_as_half((unsigned short)__shfl%s_sync(__m, "
                "(int)__half_as_ushort(__v), __l, __w)); }\n",
                s, l, s);
    kbuf_printf(b,
                "__KCC_H __half2 __shfl%s_sync(unsigned int __m, __half2 __v, %s __l, "
                "int __w = 32) { int __b = (int)((unsigned int)__half_as_ushort(__v.x) | "
                "((unsigned int)__half_as_ushort(__v.y) << 16)); __b = __shfl%s_sync(__m, __b, "
                "__l, __w); return __halves2half2(__ushort_as_half((unsigned short)__b), "
                "__ushort_as_half((unsigned short)((unsigned int)__b >> 16))); }\n",
                s, l, s);
  }
}

/* The rest of cuda_fp16.h's device API, as cuda_bf16.c has it for __nv_bfloat16: the twelve
 * comparisons of half2 as halves (1.0 or 0.0) and as masks (0xffff per half), the unordered
 * all-lanes forms, __hisnan2; max and min whose NaN operand gives the canonical NaN (0x7fff);
 * the saturating forms (clamped to [0, 1], NaN 0: the toolkit's min(max(r, 0), 1)); fma with
 * relu (negative results 0, NaN the canonical NaN); the _rn forms, which kcc never contracts
 * anyway (each half operation rounds); tanh; the complex multiply-add. */
static void fp16_rest(KBuf *b) {
  static const struct {
    const char *name;
    bool unordered, bool_form; /* __hb%s2 is missing from h_fp16 */
  } cmps[] = {{"eq", false, false}, {"ne", false, false}, {"lt", false, false},
              {"le", false, false}, {"gt", false, false}, {"ge", false, false},
              {"equ", true, true},  {"neu", true, true},  {"ltu", true, true},
              {"leu", true, true},  {"gtu", true, true},  {"geu", true, true}};
  for (size_t i = 0; i < sizeof cmps / sizeof *cmps; i++) {
    const char *n = cmps[i].name;
    kbuf_printf(b,
                "__KCC_H __half2 __h%s2(__half2 __a, __half2 __b) { return "
                "__halves2half2(__h%s(__a.x, __b.x) ? (__half)1.0f : (__half)0.0f, __h%s(__a.y, "
                "__b.y) ? (__half)1.0f : (__half)0.0f); }\n"
                "__KCC_H unsigned int __h%s2_mask(__half2 __a, __half2 __b) { return "
                "(__h%s(__a.x, __b.x) ? 0xffffU : 0U) | (__h%s(__a.y, __b.y) ? 0xffff0000U : 0U); "
                "}\n",
                n, n, n, n, n, n);
    if (cmps[i].bool_form)
      kbuf_printf(b,
                  "__KCC_H bool __hb%s2(__half2 __a, __half2 __b) { return __h%s(__a.x, __b.x) && "
                  "__h%s(__a.y, __b.y); }\n",
                  n, n, n);
  }
  kbuf_printf(
      b,
      "__KCC_H __half2 __hisnan2(__half2 __a) { return __halves2half2(__hisnan(__a.x) ? "
      "(__half)1.0f : (__half)0.0f, __hisnan(__a.y) ? (__half)1.0f : (__half)0.0f); }\n"
      "__KCC_H __half __hmax_nan(__half __a, __half __b) { return __hisnan(__a) || __hisnan(__b) "
      "? __ushort_as_half((unsigned short)0x7fffU) : __hmax(__a, __b); }\n"
      "__KCC_H __half __hmin_nan(__half __a, __half __b) { return __hisnan(__a) || __hisnan(__b) "
      "? __ushort_as_half((unsigned short)0x7fffU) : __hmin(__a, __b); }\n"
      "__KCC_H __half __kcc_h_sat(__half __r) { return __r > (__half)0.0f ? (__r > (__half)1.0f "
      "? (__half)1.0f : __r) : (__half)0.0f; }\n"
      "__KCC_H __half __hadd_sat(__half __a, __half __b) { return __kcc_h_sat(__a + __b); }\n"
      "__KCC_H __half __hsub_sat(__half __a, __half __b) { return __kcc_h_sat(__a - __b); }\n"
      "__KCC_H __half __hmul_sat(__half __a, __half __b) { return __kcc_h_sat(__a * __b); }\n"
      "__KCC_H __half __hfma_sat(__half __a, __half __b, __half __c) { return "
      "__kcc_h_sat(__hfma(__a, __b, __c)); }\n"
      "__KCC_H __half __hfma_relu(__half __a, __half __b, __half __c) { __half __r = "
      "__hfma(__a, __b, __c); return __hisnan(__r) ? __ushort_as_half((unsigned short)0x7fffU) "
      ": (__half_as_ushort(__r) & 0x8000U) ? (__half)0.0f : __r; }\n"
      "__KCC_H __half __hadd_rn(__half __a, __half __b) { return __a + __b; }\n"
      "__KCC_H __half __hsub_rn(__half __a, __half __b) { return __a - __b; }\n"
      "__KCC_H __half __hmul_rn(__half __a, __half __b) { return __a * __b; }\n"
      "__KCC_H __half htanh(__half __a) { return (__half)tanhf((float)__a); }\n"
      "__KCC_H __half htanh_approx(__half __a) { return (__half)tanhf((float)__a); }\n"
      "__KCC_H __half2 h2tanh(__half2 __a) { return __halves2half2(htanh(__a.x), "
      "htanh(__a.y)); }\n"
      "__KCC_H __half2 h2tanh_approx(__half2 __a) { return __halves2half2(htanh(__a.x), "
      "htanh(__a.y)); }\n"
      "__KCC_H __half2 __hcmadd(__half2 __a, __half2 __b, __half2 __c) { __half __re = "
      "__hfma(__a.x, __b.x, __c.x), __im = __hfma(__a.x, __b.y, __c.y); return "
      "__halves2half2(__hfma(-__a.y, __b.y, __re), __hfma(__a.y, __b.x, __im)); }\n");
  static const char *const bin[][2] = {
      {"__hadd2_rn", "__hadd_rn"},   {"__hsub2_rn", "__hsub_rn"},   {"__hmul2_rn", "__hmul_rn"},
      {"__hadd2_sat", "__hadd_sat"}, {"__hsub2_sat", "__hsub_sat"}, {"__hmul2_sat", "__hmul_sat"},
      {"__hmax2_nan", "__hmax_nan"}, {"__hmin2_nan", "__hmin_nan"}};
  for (size_t i = 0; i < sizeof bin / sizeof *bin; i++)
    kbuf_printf(b,
                "__KCC_H __half2 %s(__half2 __a, __half2 __b) { return __halves2half2(%s(__a.x, "
                "__b.x), %s(__a.y, __b.y)); }\n",
                bin[i][0], bin[i][1], bin[i][1]);
  static const char *const tern[][2] = {{"__hfma2_sat", "__hfma_sat"},
                                        {"__hfma2_relu", "__hfma_relu"}};
  for (size_t i = 0; i < sizeof tern / sizeof *tern; i++)
    kbuf_printf(b,
                "__KCC_H __half2 %s(__half2 __a, __half2 __b, __half2 __c) { return "
                "__halves2half2(%s(__a.x, __b.x, __c.x), %s(__a.y, __b.y, __c.y)); }\n",
                tern[i][0], tern[i][1], tern[i][1]);
}

const char *fe_cuda_fp16_header(void) {
  static char *text;
  if (!text) {
    KBuf b = {0};
    kbuf_printf(&b, "%s", h_fp16);
    math_and_shuffles(&b);
    fp16_rest(&b);
    kbuf_printf(&b, "#undef __KCC_H\n#endif\n");
    text = b.data;
  }
  return text;
}
