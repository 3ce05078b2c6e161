/* prelude.c — the text clang sees before the user's file (the dialect's keywords and builtin
 * declarations) and kcc's own system headers. They reach clang as unsaved files under
 * absolute names (/__kcc__/...), so kcc needs no headers on disk and `-nostdinc` keeps the
 * host's libc headers out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

/* The dialect's spellings. The annotate attributes are what the cursor walk looks for. */
static const char prelude_head[] =
    "#define __KCC_PRELUDE__ 1\n"
    "#define kernel __attribute__((annotate(\"kcc.kernel\")))\n"
    "#define __global__ __attribute__((annotate(\"kcc.kernel\")))\n"
    "#define __device__\n"
    "#define __host__\n"
    "#define __forceinline__ __inline__\n"
    "#define __noinline__ __attribute__((noinline))\n"
    "#define __restrict__ restrict\n"
    /* The arguments ride on the annotation, where libclang evaluates them (macros, enums,
     * constant expressions included). */
    "#define __launch_bounds__(...) __attribute__((annotate(\"kcc.launch_bounds\", "
    "__VA_ARGS__)))\n"
    "#define shared __attribute__((annotate(\"kcc.shared\")))\n"
    "#define __shared__ __attribute__((annotate(\"kcc.shared\")))\n"
    "#define constant __attribute__((annotate(\"kcc.constant\")))\n"
    "#define __constant__ __attribute__((annotate(\"kcc.constant\")))\n"
    "#define CLK_LOCAL_MEM_FENCE 1\n"
    "#define CLK_GLOBAL_MEM_FENCE 2\n"
    "#define __KCC_OVL __attribute__((overloadable))\n"
    "extern const struct __kcc_dim3 { unsigned int x, y, z; } threadIdx, blockIdx, blockDim,"
    " gridDim;\n"
    "void __syncthreads(void);\n"
    "void __KCC_OVL barrier(void);\n"
    "void __KCC_OVL barrier(int __flags);\n"
    "void __threadfence(void);\n"
    "void __threadfence_block(void);\n"
    "void __threadfence_system(void);\n"
    "int printf(const char *restrict __fmt, ...) __attribute__((format(printf, 1, 2)));\n"
    "#define __ldg(p) (*(p))\n"
    /* The dialect's types (bool, size_t, int32_t...) need no #include, as in CUDA. */
    "#include <stddef.h>\n"
    "#include <stdbool.h>\n"
    "#include <stdint.h>\n"
    "#include \"" FE_BUILTINS "\"\n";

static const char *const int_types[] = {
    "int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long",
};

/* min/max take every pair of these and return C's usual arithmetic conversion of the pair,
 * so that overload resolution always finds an exact match: with one overload per type,
 * min(long, int) would be ambiguous. Ranks as C ranks them (long long above long). */
static const struct {
  const char *name;
  int rank; /* 0 float, 1 double; integers 2 int, 3 long, 4 long long */
  bool is_unsigned;
} minmax_types[] = {
    {"int", 2, false},          {"unsigned int", 2, true}, {"long", 3, false},
    {"unsigned long", 3, true}, {"long long", 4, false},   {"unsigned long long", 4, true},
    {"float", 0, false},        {"double", 1, false},
};

static int common_type(int a, int b) {
  int ra = minmax_types[a].rank, rb = minmax_types[b].rank;
  if (ra == 1 || rb == 1) return 7;
  if (ra == 0 || rb == 0) return 6;
  bool ua = minmax_types[a].is_unsigned, ub = minmax_types[b].is_unsigned;
  if (ua == ub) return ra >= rb ? a : b;
  int u = ua ? a : b, s = ua ? b : a;
  if (minmax_types[u].rank >= minmax_types[s].rank) return u;
  if (minmax_types[u].rank == 2) return s; /* a 64-bit signed type holds every unsigned int */
  return s + 1;                            /* the unsigned type of the signed one's rank */
}

static const char *const atomic_ops[] = {"Add", "Sub", "Min", "Max", "And", "Or", "Xor", "Exch"};

/* CUDA's integer atomics: every operation for int and unsigned int, all but Sub for unsigned
 * long long, and Min and Max for long long (the C dialect has them all). */
bool fe_cuda_has_atomic(const char *op, const char *t) {
  if (!strcmp(t, "int") || !strcmp(t, "unsigned int")) return true;
  if (!strcmp(t, "unsigned long long")) return strcmp(op, "Sub") != 0;
  if (!strcmp(t, "long long")) return !strcmp(op, "Min") || !strcmp(op, "Max");
  return false;
}

/* Math functions: the double name; the float form appends 'f'. Must agree with builtins.c. */
static const struct {
  const char *name;
  int nargs;
} math_fns[] = {
    {"sqrt", 1},     {"rsqrt", 1}, {"cbrt", 1}, {"exp", 1},    {"exp2", 1},   {"exp10", 1},
    {"expm1", 1},    {"log", 1},   {"log2", 1}, {"log10", 1},  {"log1p", 1},  {"sin", 1},
    {"cos", 1},      {"tan", 1},   {"asin", 1}, {"acos", 1},   {"atan", 1},   {"atan2", 2},
    {"sinh", 1},     {"cosh", 1},  {"tanh", 1}, {"asinh", 1},  {"acosh", 1},  {"atanh", 1},
    {"pow", 2},      {"fabs", 1},  {"fmin", 2}, {"fmax", 2},   {"floor", 1},  {"ceil", 1},
    {"round", 1},    {"trunc", 1}, {"rint", 1}, {"fmod", 2},   {"fma", 3},    {"hypot", 2},
    {"copysign", 2}, {"erf", 1},   {"erfc", 1}, {"tgamma", 1}, {"lgamma", 1},
};

const char *fe_math_fn_name(int i) {
  return i >= 0 && i < (int)(sizeof math_fns / sizeof *math_fns) ? math_fns[i].name : NULL;
}

/* CUDA's fast single-precision spellings; kcc treats them as the ordinary functions. */
static const char *const fast_math[] = {"__expf", "__exp10f", "__logf", "__log2f", "__log10f",
                                        "__sinf", "__cosf",   "__tanf", "__powf"};

static void params(KBuf *b, const char *t, int n) {
  for (int i = 0; i < n; i++) kbuf_printf(b, "%s%s", i ? ", " : "", t);
}

/* CUDA's intrinsics and warp-level operations (builtins.c lowers them by name). Valid C11
 * and valid C++ alike: the CUDA front end reads the same text. */
static const char cuda_intrinsics[] =
    "int __mul24(int __a, int __b);\n"
    "unsigned int __umul24(unsigned int __a, unsigned int __b);\n"
    "int __mulhi(int __a, int __b);\n"
    "unsigned int __umulhi(unsigned int __a, unsigned int __b);\n"
    "long long __mul64hi(long long __a, long long __b);\n"
    "unsigned long long __umul64hi(unsigned long long __a, unsigned long long __b);\n"
    "int __popc(unsigned int __x);\nint __popcll(unsigned long long __x);\n"
    "int __clz(int __x);\nint __clzll(long long __x);\n"
    "int __ffs(int __x);\nint __ffsll(long long __x);\n"
    "unsigned int __brev(unsigned int __x);\n"
    "unsigned long long __brevll(unsigned long long __x);\n"
    "unsigned int __byte_perm(unsigned int __x, unsigned int __y, unsigned int __s);\n"
    "unsigned int __sad(int __x, int __y, unsigned int __z);\n"
    "unsigned int __usad(unsigned int __x, unsigned int __y, unsigned int __z);\n"
    "float __int_as_float(int __x);\nint __float_as_int(float __x);\n"
    "float __uint_as_float(unsigned int __x);\nunsigned int __float_as_uint(float __x);\n"
    "long long __double_as_longlong(double __x);\ndouble __longlong_as_double(long long __x);\n"
    "float __fdividef(float __a, float __b);\nfloat __saturatef(float __x);\n"
    "float __frcp_rn(float __x);\nfloat __fsqrt_rn(float __x);\n"
    "float __fadd_rn(float __a, float __b);\nfloat __fsub_rn(float __a, float __b);\n"
    "float __fmul_rn(float __a, float __b);\nfloat __fdiv_rn(float __a, float __b);\n"
    "double __drcp_rn(double __x);\ndouble __dsqrt_rn(double __x);\n"
    "double __dadd_rn(double __a, double __b);\ndouble __dsub_rn(double __a, double __b);\n"
    "double __dmul_rn(double __a, double __b);\ndouble __ddiv_rn(double __a, double __b);\n"
    "unsigned int atomicInc(unsigned int *__p, unsigned int __v);\n"
    "unsigned int atomicDec(unsigned int *__p, unsigned int __v);\n"
    "typedef long clock_t;\nclock_t clock(void);\nlong long clock64(void);\n"
    "void __trap(void);\nvoid __nanosleep(unsigned int __ns);\n"
    "enum { warpSize = 32 };\n"
    "void __KCC_OVL __syncwarp(void);\nvoid __KCC_OVL __syncwarp(unsigned int __mask);\n"
    "unsigned int __ballot_sync(unsigned int __mask, int __pred);\n"
    "int __any_sync(unsigned int __mask, int __pred);\n"
    "int __all_sync(unsigned int __mask, int __pred);\n"
    "unsigned int __activemask(void);\n"
    "int __KCC_OVL __reduce_add_sync(unsigned int __mask, int __v);\n"
    "unsigned int __KCC_OVL __reduce_add_sync(unsigned int __mask, unsigned int __v);\n"
    "int __KCC_OVL __reduce_min_sync(unsigned int __mask, int __v);\n"
    "unsigned int __KCC_OVL __reduce_min_sync(unsigned int __mask, unsigned int __v);\n"
    "int __KCC_OVL __reduce_max_sync(unsigned int __mask, int __v);\n"
    "unsigned int __KCC_OVL __reduce_max_sync(unsigned int __mask, unsigned int __v);\n"
    "unsigned int __reduce_and_sync(unsigned int __mask, unsigned int __v);\n"
    "unsigned int __reduce_or_sync(unsigned int __mask, unsigned int __v);\n"
    "unsigned int __reduce_xor_sync(unsigned int __mask, unsigned int __v);\n"
    /* A block-wide count through one shared counter: every form has shared memory and an
     * atomic add, so one definition serves them all. The count is read before the last
     * barrier, so no thread can still be reading it when the next call resets it. */
    "static __inline__ int __syncthreads_count(int __p) {\n"
    "  __shared__ int __kcc_count;\n"
    "  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) __kcc_count = 0;\n"
    "  __syncthreads();\n"
    "  if (__p) atomicAdd(&__kcc_count, 1);\n"
    "  __syncthreads();\n"
    "  int __r = __kcc_count;\n"
    "  __syncthreads();\n"
    "  return __r;\n"
    "}\n"
    "static __inline__ int __syncthreads_and(int __p) { return __syncthreads_count(!__p) == 0; }\n"
    "static __inline__ int __syncthreads_or(int __p) { return __syncthreads_count(__p) != 0; }\n";

/* The types the shuffles and __match_any_sync take, as CUDA overloads them. */
static const char *const warp_types[] = {"int",           "unsigned int", "long",
                                         "unsigned long", "long long",    "unsigned long long",
                                         "float",         "double"};

/* __float2int_rn & co.: from, to, and the rounding suffixes each takes. */
static const struct {
  const char *name, *from, *to, *modes;
} conversions[] = {
    {"float2int", "float", "int", "rn rz ru rd"},
    {"float2uint", "float", "unsigned int", "rn rz ru rd"},
    {"float2ll", "float", "long long", "rn rz ru rd"},
    {"float2ull", "float", "unsigned long long", "rn rz ru rd"},
    {"double2int", "double", "int", "rn rz ru rd"},
    {"double2uint", "double", "unsigned int", "rn rz ru rd"},
    {"double2ll", "double", "long long", "rn rz ru rd"},
    {"double2ull", "double", "unsigned long long", "rn rz ru rd"},
    {"int2float", "int", "float", "rn"},
    {"uint2float", "unsigned int", "float", "rn"},
    {"ll2float", "long long", "float", "rn"},
    {"ull2float", "unsigned long long", "float", "rn"},
    {"int2double", "int", "double", "rn"},
    {"uint2double", "unsigned int", "double", "rn"},
    {"ll2double", "long long", "double", "rn"},
    {"ull2double", "unsigned long long", "double", "rn"},
    {"double2float", "double", "float", "rn"},
};

static void cuda_declarations(KBuf *b) {
  kbuf_printf(b, "%s", cuda_intrinsics);
  for (size_t i = 0; i < sizeof warp_types / sizeof *warp_types; i++) {
    const char *T = warp_types[i];
    static const char *const shfl[] = {"", "_up", "_down", "_xor"};
    static const char *const lane[] = {"int __lane", "unsigned int __delta", "unsigned int __delta",
                                       "int __lane_mask"};
    for (int s = 0; s < 4; s++)
      kbuf_printf(b,
                  "%s __KCC_OVL __shfl%s_sync(unsigned int __mask, %s __v, %s);\n"
                  "%s __KCC_OVL __shfl%s_sync(unsigned int __mask, %s __v, %s, int __width);\n",
                  T, shfl[s], T, lane[s], T, shfl[s], T, lane[s]);
    kbuf_printf(b, "unsigned int __KCC_OVL __match_any_sync(unsigned int __mask, %s __v);\n", T);
  }
  for (size_t i = 0; i < sizeof conversions / sizeof *conversions; i++) {
    const char *m = conversions[i].modes;
    for (int k = 0; m[k]; k += m[k + 2] ? 3 : 2)
      kbuf_printf(b, "%s __%s_%.2s(%s __x);\n", conversions[i].to, conversions[i].name, m + k,
                  conversions[i].from);
  }
}

static char *build_prelude(void) {
  KBuf b = {0};
  kbuf_printf(&b, "/* kcc's builtins, for the C dialect's and CUDA's preludes. */\n");
  for (size_t t = 0; t < sizeof int_types / sizeof *int_types; t++) {
    const char *T = int_types[t];
    for (size_t o = 0; o < sizeof atomic_ops / sizeof *atomic_ops; o++) {
      /* CUDA input declares CUDA's overloads only, so that a file may add its own
         (CuPy's atomicAdd(long long *, long long)). */
      bool cuda = fe_cuda_has_atomic(atomic_ops[o], T);
      kbuf_printf(&b, "%s%s __KCC_OVL atomic%s(%s *__p, %s __v);\n%s",
                  cuda ? "" : "#ifndef __CUDACC__\n", T, atomic_ops[o], T, T,
                  cuda ? "" : "#endif\n");
    }
    bool cas = fe_cuda_has_atomic("CAS", T);
    kbuf_printf(&b, "%s%s __KCC_OVL atomicCAS(%s *__p, %s __cmp, %s __v);\n%s",
                cas ? "" : "#ifndef __CUDACC__\n", T, T, T, T, cas ? "" : "#endif\n");
    kbuf_printf(&b, "%s __KCC_OVL abs(%s);\n", T, T);
  }
  kbuf_printf(&b, "float __KCC_OVL atomicAdd(float *__p, float __v);\n"
                  "float __KCC_OVL atomicExch(float *__p, float __v);\n"
                  "double __KCC_OVL atomicAdd(double *__p, double __v);\n"
                  "long labs(long);\nlong long llabs(long long);\n");
  int nmm = (int)(sizeof minmax_types / sizeof *minmax_types);
  for (int a = 0; a < nmm; a++)
    for (int c = 0; c < nmm; c++) {
      const char *r = minmax_types[common_type(a, c)].name;
      const char *A = minmax_types[a].name, *C = minmax_types[c].name;
      kbuf_printf(&b, "%s __KCC_OVL min(%s, %s);\n%s __KCC_OVL max(%s, %s);\n", r, A, C, r, A, C);
    }
  for (size_t i = 0; i < sizeof math_fns / sizeof *math_fns; i++) {
    kbuf_printf(&b, "double %s(", math_fns[i].name);
    params(&b, "double", math_fns[i].nargs);
    kbuf_printf(&b, ");\nfloat %sf(", math_fns[i].name);
    params(&b, "float", math_fns[i].nargs);
    kbuf_printf(&b, ");\n");
  }
  for (size_t i = 0; i < sizeof fast_math / sizeof *fast_math; i++)
    kbuf_printf(&b, "float %s(float%s);\n", fast_math[i],
                strcmp(fast_math[i], "__powf") == 0 ? ", float" : "");
  const char *cls[] = {"isnan", "isinf", "isfinite"};
  for (int i = 0; i < 3; i++)
    kbuf_printf(&b, "int __KCC_OVL %s(float);\nint __KCC_OVL %s(double);\n", cls[i], cls[i]);
  cuda_declarations(&b);
  return b.data;
}

/* ---------------------------------------------------------------- <kcc_vector.h>
 *
 * OpenCL C's vector types and their builtins for the .k dialect. A header rather than the
 * prelude: CUDA code often defines its own float2 or int4 struct, which a predeclared vector
 * type would clash with, and only kernels that use vectors pay for parsing these
 * declarations. */

/* OpenCL's element type names and their C spellings. */
static const struct {
  const char *cl, *c;
  bool is_float, is_unsigned;
  int size;
} vec_elems[] = {
    {"char", "char", false, false, 1},
    {"uchar", "unsigned char", false, true, 1},
    {"short", "short", false, false, 2},
    {"ushort", "unsigned short", false, true, 2},
    {"int", "int", false, false, 4},
    {"uint", "unsigned int", false, true, 4},
    {"long", "long", false, false, 8},
    {"ulong", "unsigned long", false, true, 8},
    {"float", "float", true, false, 4},
    {"double", "double", true, false, 8},
    /* last: OpenCL C only (the derived builtins' half overloads; .k has no half) */
    {"half", "half", true, false, 2},
};
enum { NELEMS = sizeof vec_elems / sizeof *vec_elems, NELEMS_K = NELEMS - 1, HALF = NELEMS - 1 };
static const int vec_lens[] = {2, 3, 4, 8, 16};
enum { NLENS = sizeof vec_lens / sizeof *vec_lens };

/* The type name of element e with n components (1: the scalar's C spelling). */
static const char *vt(int e, int n) {
  static char bufs[16][32]; /* enough for the names one declaration uses */
  static int next;
  char *b = bufs[next++ & 15];
  if (n == 1)
    snprintf(b, 32, "%s", vec_elems[e].c);
  else
    snprintf(b, 32, "%s%d", vec_elems[e].cl, n);
  return b;
}

/* The signed (or unsigned) integer element with element e's size. */
static int int_of_size(int size, bool is_unsigned) {
  for (int e = 0; e < NELEMS_K; e++)
    if (!vec_elems[e].is_float && vec_elems[e].size == size &&
        vec_elems[e].is_unsigned == is_unsigned)
      return e;
  return 4;
}

static const int all_lens[] = {1, 2, 3, 4, 8, 16};
enum { NALL = sizeof all_lens / sizeof *all_lens };

/* Declarations of the builtins that lower_expr.c and vector.c map to KIR builtins. */
static void vector_builtins(KBuf *b) {
  /* convert_T[_sat][_rte|_rtz|_rtp|_rtn](x) and as_T(x): the source type is the argument's
     own, which a variadic parameter keeps (vector.c reads the mode from the first). */
  static const char *const rnd[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
  for (int e = 0; e < NELEMS_K; e++)
    for (int l = 0; l < NALL; l++) {
      const char *T = vt(e, all_lens[l]);
      char cl[32];
      snprintf(cl, sizeof cl, "%s%s", vec_elems[e].cl,
               all_lens[l] == 1 ? "" : T + strlen(vec_elems[e].cl));
      kbuf_printf(b, "%s __kcc_convert_%s(int, ...);\n%s __kcc_as_%s(int, ...);\n", T, cl, T, cl);
      kbuf_printf(b, "#define as_%s(x) __kcc_as_%s(0, (x))\n", cl, cl);
      for (int sat = 0; sat < (vec_elems[e].is_float ? 1 : 2); sat++)
        for (int r = 0; r < 5; r++)
          kbuf_printf(b, "#define convert_%s%s%s(x) __kcc_convert_%s(%d, (x))\n", cl,
                      sat ? "_sat" : "", rnd[r], cl, sat * 8 + r);
    }
  for (int e = 0; e < NELEMS_K; e++) {
    bool fl = vec_elems[e].is_float;
    for (int l = 0; l < NALL; l++) {
      int n = all_lens[l];
      const char *T = vt(e, n), *S = vt(e, 1);
      const char *I = vt(int_of_size(vec_elems[e].size, false), n);
      const char *U = vt(int_of_size(vec_elems[e].size, true), n);
      kbuf_printf(b, "%s __KCC_OVL select(%s, %s, %s);\n%s __KCC_OVL select(%s, %s, %s);\n", T, T,
                  T, I, T, T, T, U);
      if (!fl) {
        kbuf_printf(b,
                    "%s __KCC_OVL popcount(%s);\n%s __KCC_OVL clz(%s);\n"
                    "%s __KCC_OVL mul_hi(%s, %s);\n",
                    T, T, T, T, T, T, T);
      }
      if (n == 1) continue;
      kbuf_printf(b, "%s __KCC_OVL vload%d(size_t, const %s *);\n", T, n, S);
      kbuf_printf(b, "void __KCC_OVL vstore%d(%s, size_t, %s *);\n", n, T, S);
      kbuf_printf(b, "%s __KCC_OVL min(%s, %s);\n%s __KCC_OVL max(%s, %s);\n", T, T, T, T, T, T);
      if (!fl) kbuf_printf(b, "%s __KCC_OVL abs(%s);\n", U, T);
      if (!fl) continue;
      for (size_t i = 0; i < sizeof math_fns / sizeof *math_fns; i++) {
        kbuf_printf(b, "%s __KCC_OVL %s(", T, math_fns[i].name);
        params(b, T, math_fns[i].nargs);
        kbuf_printf(b, ");\n");
      }
      const char *cls[] = {"isnan", "isinf", "isfinite"};
      for (int c = 0; c < 3; c++) kbuf_printf(b, "%s __KCC_OVL %s(%s);\n", I, cls[c], T);
    }
  }
}

/* <kcc_derived.h>: the derived builtins as ordinary functions that vector.c lowers when they
 * are called. Written in the subset of C that OpenCL C shares (no casts between vector types,
 * scalar operands no wider than the vector's element), so that an OpenCL C prelude can include
 * it too, after declaring the vector types and the builtins it uses (min max fmin fmax sqrt
 * isnan as_T); __KCC_DERIVED may be defined first to change how the functions are declared. */
static char *build_derived_header(void) {
  KBuf sb = {0}, *b = &sb;
  static const char *const comp = "0123456789abcdef";
  kbuf_printf(b, "#ifndef __KCC_DERIVED_H\n#define __KCC_DERIVED_H\n"
                 "#ifndef __KCC_DERIVED\n#define __KCC_DERIVED static inline "
                 "__attribute__((overloadable))\n#endif\n"
                 "#ifdef __OPENCL_C_VERSION__\n"
                 "#define __KCC_FMINF fmin\n#define __KCC_FMAXF fmax\n#define __KCC_SQRTF sqrt\n"
                 "#else\n" /* the .k dialect's fmin and sqrt are C's, in double */
                 "#define __KCC_FMINF fminf\n#define __KCC_FMAXF fmaxf\n#define __KCC_SQRTF sqrtf\n"
                 "#endif\n");
  const char *F = "__KCC_DERIVED";
  for (int e = 0; e < NELEMS; e++) {
    if (e == HALF) kbuf_printf(b, "#ifdef __OPENCL_C_VERSION__\n");
    bool fl = vec_elems[e].is_float;
    int bits = vec_elems[e].size * 8;
    for (int l = 0; l < NALL; l++) {
      int n = all_lens[l];
      const char *T = vt(e, n), *S = vt(e, 1);
      bool f32 = fl && n == 1 && vec_elems[e].size == 4;
      const char *mn = !fl ? "min" : f32 ? "__KCC_FMINF" : "fmin";
      const char *mx = !fl ? "max" : f32 ? "__KCC_FMAXF" : "fmax";
      /* Integers compare (no overload resolution among min's many forms: cheaper to parse);
         floats keep fmin/fmax's NaN rule. Equal to min(max(x, lo), hi) when lo <= hi. */
      for (int sc = 0; sc < (n > 1 ? 2 : 1); sc++) {
        const char *A = sc ? S : T;
        if (fl)
          kbuf_printf(b, "%s %s clamp(%s x, %s lo, %s hi) { return %s(%s(x, (%s)lo), (%s)hi); }\n",
                      F, T, T, A, A, mn, mx, T, T);
        else
          kbuf_printf(b,
                      "%s %s clamp(%s x, %s lo, %s hi) { %s l = (%s)lo, h = (%s)hi; "
                      "return x < l ? l : x > h ? h : x; }\n",
                      F, T, T, A, A, T, T, T);
      }
      if (!fl) {
        const char *U = vt(int_of_size(vec_elems[e].size, true), n);
        char ucl[32], tcl[32];
        snprintf(ucl, sizeof ucl, "%s", U);
        snprintf(tcl, sizeof tcl, "%s", T);
        if (n == 1) {
          kbuf_printf(b,
                      "%s %s rotate(%s v, %s i) { %s u = (%s)v, s = (%s)i & (%s)%d; "
                      "return (%s)(%s)((u << s) | (u >> (((%s)%d - s) & (%s)%d))); }\n",
                      F, T, T, T, U, U, U, U, bits - 1, T, U, U, bits, U, bits - 1);
        } else {
          kbuf_printf(b,
                      "%s %s rotate(%s v, %s i) { %s u = as_%s(v), s = as_%s(i) & (%s)%d; "
                      "return as_%s((u << s) | (u >> (((%s)%d - s) & (%s)%d))); }\n",
                      F, T, T, T, ucl, ucl, ucl, ucl, bits - 1, tcl, ucl, bits, ucl, bits - 1);
        }
        kbuf_printf(b,
                    "%s %s hadd(%s x, %s y) { return (x >> (%s)1) + (y >> (%s)1) + (x & y & "
                    "(%s)1); }\n",
                    F, T, T, T, T, T, T);
        kbuf_printf(b,
                    "%s %s rhadd(%s x, %s y) { return (x >> (%s)1) + (y >> (%s)1) + ((x | y) & "
                    "(%s)1); }\n",
                    F, T, T, T, T, T, T);
        kbuf_printf(b, "%s %s bitselect(%s a, %s b, %s c) { return (a & ~c) | (b & c); }\n", F, T,
                    T, T, T);
        if (vec_elems[e].size == 4)
          kbuf_printf(b,
                      "%s %s mul24(%s a, %s b) { return a * b; }\n"
                      "%s %s mad24(%s a, %s b, %s c) { return a * b + c; }\n",
                      F, T, T, T, F, T, T, T, T);
        if (!vec_elems[e].is_unsigned) {
          for (int all = 0; all < 2; all++) {
            kbuf_printf(b, "%s int %s(%s x) { return ", F, all ? "all" : "any", T);
            for (int i = 0; i < n; i++) {
              if (n > 1)
                kbuf_printf(b, "%s(x.s%c < 0)", i ? (all ? " & " : " | ") : "", comp[i]);
              else
                kbuf_printf(b, "x < 0");
            }
            kbuf_printf(b, "; }\n");
          }
        }
        continue;
      }
      const char *I = vt(int_of_size(vec_elems[e].size, false), n);
      const char *sq = vec_elems[e].size == 4 ? "__KCC_SQRTF" : "sqrt";
      char tcl[32];
      snprintf(tcl, sizeof tcl, "%s", n == 1 ? vec_elems[e].cl : T);
      kbuf_printf(b, "%s %s mad(%s a, %s b, %s c) { return a * b + c; }\n", F, T, T, T, T);
      for (int sc = 0; sc < (n > 1 ? 2 : 1); sc++) {
        const char *A = sc ? S : T; /* the scalar forms: mix's a, step's and smoothstep's edges */
        kbuf_printf(b, "%s %s mix(%s x, %s y, %s a) { return x + (y - x) * a; }\n", F, T, T, T, A);
        kbuf_printf(b, "%s %s step(%s edge, %s x) { return x < edge ? (%s)0 : (%s)1; }\n", F, T, A,
                    T, T, T);
        kbuf_printf(b,
                    "%s %s smoothstep(%s e0, %s e1, %s x) { %s t = %s(%s((x - e0) / (e1 - e0), "
                    "(%s)0), (%s)1); return t * t * ((%s)3 - (%s)2 * t); }\n",
                    F, T, A, A, T, T, mn, mx, T, T, S, S);
      }
      kbuf_printf(b,
                  "%s %s sign(%s x) { return x > (%s)0 ? (%s)1 : x < (%s)0 ? (%s)-1 : isnan(x) ? "
                  "(%s)0 : x; }\n",
                  F, T, T, S, T, S, T, T);
      /* (short) for half: C promotes short operands of & and | to int */
      kbuf_printf(b,
                  "%s %s bitselect(%s a, %s b, %s c) { return as_%s(%s((as_%s(a) & ~as_%s(c)) | "
                  "(as_%s(b) & as_%s(c)))); }\n",
                  F, T, T, T, T, tcl, n == 1 && vec_elems[e].size == 2 ? "(short)" : "",
                  n == 1 ? vec_elems[int_of_size(vec_elems[e].size, false)].cl : I,
                  n == 1 ? vec_elems[int_of_size(vec_elems[e].size, false)].cl : I,
                  n == 1 ? vec_elems[int_of_size(vec_elems[e].size, false)].cl : I,
                  n == 1 ? vec_elems[int_of_size(vec_elems[e].size, false)].cl : I);
      if (n > 4) continue;
      kbuf_printf(b, "%s %s dot(%s a, %s b) { return ", F, S, T, T);
      for (int i = 0; i < n; i++) {
        if (n > 1)
          kbuf_printf(b, "%sa.s%c * b.s%c", i ? " + " : "", comp[i], comp[i]);
        else
          kbuf_printf(b, "a * b");
      }
      kbuf_printf(b, "; }\n");
      kbuf_printf(b, "%s %s length(%s p) { return %s(dot(p, p)); }\n", F, S, T, sq);
      kbuf_printf(b, "%s %s distance(%s a, %s b) { return length(a - b); }\n", F, S, T, T);
      kbuf_printf(b, "%s %s normalize(%s p) { return p / length(p); }\n", F, T, T);
      if (n == 3 || n == 4)
        kbuf_printf(b,
                    "%s %s cross(%s a, %s b) { %s r; r.x = a.y * b.z - a.z * b.y; "
                    "r.y = a.z * b.x - a.x * b.z; r.z = a.x * b.y - a.y * b.x;%s return r; }\n",
                    F, T, T, T, T, n == 4 ? " r.w = 0;" : "");
    }
    if (e == HALF) kbuf_printf(b, "#endif\n");
  }
  kbuf_printf(b, "#endif\n");
  return sb.data;
}

static char *build_vector_header(void) {
  KBuf b = {0};
  kbuf_printf(&b, "#ifndef __KCC_VECTOR_H\n#define __KCC_VECTOR_H\n"
                  "typedef unsigned char uchar;\ntypedef unsigned short ushort;\n"
                  "typedef unsigned int uint;\ntypedef unsigned long ulong;\n");
  for (int e = 0; e < NELEMS_K; e++)
    for (int l = 0; l < NLENS; l++)
      kbuf_printf(&b, "typedef %s %s%d __attribute__((ext_vector_type(%d)));\n", vec_elems[e].c,
                  vec_elems[e].cl, vec_lens[l], vec_lens[l]);
  vector_builtins(&b);
  kbuf_printf(&b, "#include <kcc_derived.h>\n#endif\n");
  return b.data;
}

static const char h_stddef[] =
    "#ifndef __KCC_STDDEF_H\n#define __KCC_STDDEF_H\n"
    "typedef unsigned long size_t;\ntypedef long ptrdiff_t;\n"
    "typedef struct { long long __ll; double __d; } max_align_t;\n"
    "#ifdef __cplusplus\n#define NULL __null\n#else\ntypedef int wchar_t;\n"
    "#define NULL ((void *)0)\n#endif\n#define offsetof(t, m) __builtin_offsetof(t, m)\n#endif\n";

static const char h_stdbool[] = "#ifndef __KCC_STDBOOL_H\n#define __KCC_STDBOOL_H\n"
                                "#ifndef __cplusplus\n"
                                "#define bool _Bool\n#define true 1\n#define false 0\n#endif\n"
                                "#define __bool_true_false_are_defined 1\n#endif\n";

static const char h_stdint[] =
    "#ifndef __KCC_STDINT_H\n#define __KCC_STDINT_H\n"
    "typedef signed char int8_t;\ntypedef short int16_t;\ntypedef int int32_t;\n"
    "typedef long int64_t;\ntypedef unsigned char uint8_t;\ntypedef unsigned short uint16_t;\n"
    "typedef unsigned int uint32_t;\ntypedef unsigned long uint64_t;\n"
    "typedef signed char int_least8_t;\ntypedef short int_least16_t;\n"
    "typedef int int_least32_t;\ntypedef long int_least64_t;\n"
    "typedef unsigned char uint_least8_t;\ntypedef unsigned short uint_least16_t;\n"
    "typedef unsigned int uint_least32_t;\ntypedef unsigned long uint_least64_t;\n"
    "typedef signed char int_fast8_t;\ntypedef long int_fast16_t;\n"
    "typedef long int_fast32_t;\ntypedef long int_fast64_t;\n"
    "typedef unsigned char uint_fast8_t;\ntypedef unsigned long uint_fast16_t;\n"
    "typedef unsigned long uint_fast32_t;\ntypedef unsigned long uint_fast64_t;\n"
    "typedef long intptr_t;\ntypedef unsigned long uintptr_t;\n"
    "typedef long intmax_t;\ntypedef unsigned long uintmax_t;\n"
    "#define INT8_MIN (-128)\n#define INT16_MIN (-32767-1)\n#define INT32_MIN (-2147483647-1)\n"
    "#define INT64_MIN (-9223372036854775807L-1)\n#define INT8_MAX 127\n#define INT16_MAX 32767\n"
    "#define INT32_MAX 2147483647\n#define INT64_MAX 9223372036854775807L\n"
    "#define UINT8_MAX 255\n#define UINT16_MAX 65535\n#define UINT32_MAX 4294967295U\n"
    "#define UINT64_MAX 18446744073709551615UL\n"
    "#define INT_LEAST8_MIN INT8_MIN\n#define INT_LEAST16_MIN INT16_MIN\n"
    "#define INT_LEAST32_MIN INT32_MIN\n#define INT_LEAST64_MIN INT64_MIN\n"
    "#define INT_LEAST8_MAX INT8_MAX\n#define INT_LEAST16_MAX INT16_MAX\n"
    "#define INT_LEAST32_MAX INT32_MAX\n#define INT_LEAST64_MAX INT64_MAX\n"
    "#define UINT_LEAST8_MAX UINT8_MAX\n#define UINT_LEAST16_MAX UINT16_MAX\n"
    "#define UINT_LEAST32_MAX UINT32_MAX\n#define UINT_LEAST64_MAX UINT64_MAX\n"
    "#define INTPTR_MIN INT64_MIN\n#define INTPTR_MAX INT64_MAX\n#define UINTPTR_MAX UINT64_MAX\n"
    "#define INTMAX_MIN INT64_MIN\n#define INTMAX_MAX INT64_MAX\n#define UINTMAX_MAX UINT64_MAX\n"
    "#define PTRDIFF_MIN INT64_MIN\n#define PTRDIFF_MAX INT64_MAX\n#define SIZE_MAX UINT64_MAX\n"
    "#define INT8_C(x) x\n#define INT16_C(x) x\n#define INT32_C(x) x\n#define INT64_C(x) x##L\n"
    "#define UINT8_C(x) x\n#define UINT16_C(x) x\n#define UINT32_C(x) x##U\n"
    "#define UINT64_C(x) x##UL\n#define INTMAX_C(x) x##L\n#define UINTMAX_C(x) x##UL\n"
    "#endif\n";

static const char h_limits[] =
    "#ifndef __KCC_LIMITS_H\n#define __KCC_LIMITS_H\n"
    "#define CHAR_BIT 8\n#define SCHAR_MIN (-128)\n#define SCHAR_MAX 127\n#define UCHAR_MAX 255\n"
    "#define CHAR_MIN SCHAR_MIN\n#define CHAR_MAX SCHAR_MAX\n#define MB_LEN_MAX 16\n"
    "#define SHRT_MIN (-32767-1)\n#define SHRT_MAX 32767\n#define USHRT_MAX 65535\n"
    "#define INT_MIN (-2147483647-1)\n#define INT_MAX 2147483647\n#define UINT_MAX 4294967295U\n"
    "#define LONG_MIN (-9223372036854775807L-1)\n#define LONG_MAX 9223372036854775807L\n"
    "#define ULONG_MAX 18446744073709551615UL\n"
    "#define LLONG_MIN (-9223372036854775807LL-1)\n#define LLONG_MAX 9223372036854775807LL\n"
    "#define ULLONG_MAX 18446744073709551615ULL\n#endif\n";

static const char h_float[] =
    "#ifndef __KCC_FLOAT_H\n#define __KCC_FLOAT_H\n"
    "#define FLT_RADIX __FLT_RADIX__\n#define FLT_MANT_DIG __FLT_MANT_DIG__\n"
    "#define DBL_MANT_DIG __DBL_MANT_DIG__\n#define FLT_DIG __FLT_DIG__\n"
    "#define DBL_DIG __DBL_DIG__\n#define FLT_DECIMAL_DIG __FLT_DECIMAL_DIG__\n"
    "#define DBL_DECIMAL_DIG __DBL_DECIMAL_DIG__\n#define DECIMAL_DIG __DBL_DECIMAL_DIG__\n"
    "#define FLT_MIN_EXP __FLT_MIN_EXP__\n#define DBL_MIN_EXP __DBL_MIN_EXP__\n"
    "#define FLT_MIN_10_EXP __FLT_MIN_10_EXP__\n#define DBL_MIN_10_EXP __DBL_MIN_10_EXP__\n"
    "#define FLT_MAX_EXP __FLT_MAX_EXP__\n#define DBL_MAX_EXP __DBL_MAX_EXP__\n"
    "#define FLT_MAX_10_EXP __FLT_MAX_10_EXP__\n#define DBL_MAX_10_EXP __DBL_MAX_10_EXP__\n"
    "#define FLT_MAX __FLT_MAX__\n#define DBL_MAX __DBL_MAX__\n"
    "#define FLT_EPSILON __FLT_EPSILON__\n#define DBL_EPSILON __DBL_EPSILON__\n"
    "#define FLT_MIN __FLT_MIN__\n#define DBL_MIN __DBL_MIN__\n"
    "#define FLT_TRUE_MIN __FLT_DENORM_MIN__\n#define DBL_TRUE_MIN __DBL_DENORM_MIN__\n"
    "#define FLT_EVAL_METHOD 0\n#define FLT_ROUNDS 1\n#endif\n";

static const char h_math[] =
    "#ifndef __KCC_MATH_H\n#define __KCC_MATH_H\n"
    "/* kcc's math functions are declared by the prelude; this header adds the constants. */\n"
    "#define INFINITY (__builtin_inff())\n#define NAN (__builtin_nanf(\"\"))\n"
    "#define HUGE_VALF (__builtin_huge_valf())\n#define HUGE_VAL (__builtin_huge_val())\n"
    "#define M_E 2.7182818284590452354\n#define M_LOG2E 1.4426950408889634074\n"
    "#define M_LOG10E 0.43429448190325182765\n#define M_LN2 0.69314718055994530942\n"
    "#define M_LN10 2.30258509299404568402\n#define M_PI 3.14159265358979323846\n"
    "#define M_PI_2 1.57079632679489661923\n#define M_PI_4 0.78539816339744830962\n"
    "#define M_1_PI 0.31830988618379067154\n#define M_2_PI 0.63661977236758134308\n"
    "#define M_2_SQRTPI 1.12837916709551257390\n#define M_SQRT2 1.41421356237309504880\n"
    "#define M_SQRT1_2 0.70710678118654752440\n#endif\n";

static const char h_stdio[] = "#ifndef __KCC_STDIO_H\n#define __KCC_STDIO_H\n"
                              "/* printf is declared by the prelude. */\n#endif\n";

static FeVFile vfiles[12];
static int nvfiles;

const FeVFile *fe_vfiles(int *n) {
  if (&fe_pregen) {
    *n = fe_pregen.n[0];
    return fe_pregen.files[0];
  }
  if (!nvfiles) {
    /* Built once per process; the text never changes. */
    vfiles[nvfiles++] = (FeVFile){FE_PRELUDE, prelude_head};
    vfiles[nvfiles++] = (FeVFile){FE_BUILTINS, build_prelude()};
    vfiles[nvfiles++] = (FeVFile){FE_INCDIR "/stddef.h", h_stddef};
    vfiles[nvfiles++] = (FeVFile){FE_INCDIR "/stdbool.h", h_stdbool};
    vfiles[nvfiles++] = (FeVFile){FE_INCDIR "/stdint.h", h_stdint};
    vfiles[nvfiles++] = (FeVFile){FE_INCDIR "/limits.h", h_limits};
    vfiles[nvfiles++] = (FeVFile){FE_INCDIR "/float.h", h_float};
    vfiles[nvfiles++] = (FeVFile){FE_INCDIR "/math.h", h_math};
    vfiles[nvfiles++] = (FeVFile){FE_INCDIR "/stdio.h", h_stdio};
    vfiles[nvfiles++] = (FeVFile){FE_INCDIR "/kcc_vector.h", build_vector_header()};
    vfiles[nvfiles++] = (FeVFile){FE_INCDIR "/kcc_derived.h", build_derived_header()};
  }
  *n = nvfiles;
  return vfiles;
}

bool fe_is_vfile_name(const char *name) {
  return name && strncmp(name, FE_VDIR "/", sizeof FE_VDIR) == 0;
}
