/* cuda_c.c — KIR as CUDA C++ source for nvcc or NVRTC.
 *
 * Kernels are `extern "C" __global__` so their names stay unmangled (cuModuleGetFunction
 * finds them by the source name); device functions are `static __device__`. Shared variables
 * declared in a kernel stay `__shared__` inside it; those declared in device functions or at
 * file scope become file-scope `__shared__` variables, so that one array per block serves
 * every device function and every address-space clone of it, as the dialect says. Dynamic
 * shared memory is `extern __shared__ T s[];`, sized by the launch as usual in CUDA.
 *
 * Address spaces are not printed: a plain `T *` in CUDA device code is a generic pointer, so
 * the module may come from either compilation, the allow_generic = true one of PTX (the
 * command line's .cu form: a pointer that may point to two spaces stays generic, as nvcc
 * would have it) or the OpenCL forms' one. */
#include "csource.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct CudaState {
  KList helper_names; /* const char*: kcc_* device functions defined so far */
  KBuf helpers;       /* their definitions, each after those it calls */
  bool dyn_params;    /* a kernel takes local memory as an offset into kcc_dyn */
  bool subgroups;     /* OpenCL subgroup operations: the subgroup preamble */
  bool images;        /* OpenCL image functions: the image preamble */
  bool textures;      /* CUDA texture or surface objects of a CUDA vector type: kcc_as */
} CudaState;

/* ---------------------------------------------------------------- reserved words */

static const char *const cuda_words[] = {
    /* C++ keywords and alternative tokens (C++20) */
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
    "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
    "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
    "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
    "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
    "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
    "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef",
    "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t",
    "while", "xor", "xor_eq", "restrict", "NULL", "std", "final", "override", "import", "module",
    /* CUDA qualifiers, types and variables */
    "__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__",
    "__restrict__", "__noinline__", "__forceinline__", "__launch_bounds__", "threadIdx", "blockIdx",
    "blockDim", "gridDim", "warpSize", "dim3", "size_t", "ptrdiff_t", "cudaError_t", "half",
    "nv_bfloat16",
    /* CUDA device runtime functions */
    "__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__syncwarp",
    "__threadfence", "__threadfence_block", "__threadfence_system", "atomicAdd", "atomicSub",
    "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec", "atomicCAS", "atomicAnd",
    "atomicOr", "atomicXor", "printf", "malloc", "free", "memcpy", "memset", "assert", "clock",
    "clock64", "abort",
    /* CUDA math API (global namespace in device code) */
    "abs", "labs", "llabs", "min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax",
    "acos", "acosf", "acosh", "acoshf", "asin", "asinf", "asinh", "asinhf", "atan", "atanf",
    "atan2", "atan2f", "atanh", "atanhf", "cbrt", "cbrtf", "ceil", "ceilf", "copysign", "copysignf",
    "cos", "cosf", "cosh", "coshf", "cospi", "cospif", "cyl_bessel_i0", "cyl_bessel_i0f",
    "cyl_bessel_i1", "cyl_bessel_i1f", "erf", "erff", "erfc", "erfcf", "erfcinv", "erfcinvf",
    "erfcx", "erfcxf", "erfinv", "erfinvf", "exp", "expf", "exp10", "exp10f", "exp2", "exp2f",
    "expm1", "expm1f", "fabs", "fabsf", "fdim", "fdimf", "fdivide", "fdividef", "floor", "floorf",
    "fma", "fmaf", "fmax", "fmaxf", "fmin", "fminf", "fmod", "fmodf", "frexp", "frexpf", "hypot",
    "hypotf", "ilogb", "ilogbf", "isfinite", "isinf", "isnan", "j0", "j0f", "j1", "j1f", "jn",
    "jnf", "ldexp", "ldexpf", "lgamma", "lgammaf", "llrint", "llrintf", "llround", "llroundf",
    "log", "logf", "log10", "log10f", "log1p", "log1pf", "log2", "log2f", "logb", "logbf", "lrint",
    "lrintf", "lround", "lroundf", "modf", "modff", "nan", "nanf", "nearbyint", "nearbyintf",
    "nextafter", "nextafterf", "norm", "normf", "norm3d", "norm3df", "norm4d", "norm4df", "normcdf",
    "normcdff", "normcdfinv", "normcdfinvf", "pow", "powf", "powi", "powif", "rcbrt", "rcbrtf",
    "remainder", "remainderf", "remquo", "remquof", "rhypot", "rhypotf", "rint", "rintf", "rnorm",
    "rnormf", "rnorm3d", "rnorm3df", "rnorm4d", "rnorm4df", "round", "roundf", "rsqrt", "rsqrtf",
    "scalbln", "scalblnf", "scalbn", "scalbnf", "signbit", "sin", "sinf", "sincos", "sincosf",
    "sincospi", "sincospif", "sinh", "sinhf", "sinpi", "sinpif", "sqrt", "sqrtf", "tan", "tanf",
    "tanh", "tanhf", "tgamma", "tgammaf", "trunc", "truncf", "y0", "y0f", "y1", "y1f", "yn", "ynf",
    "saturate", "mul24", "umul24", "mulhi", "umulhi", "mul64hi", "umul64hi", "div", "ldiv", "lldiv",
    NULL};

/* Vector types: char1..4, uchar1..4, ..., longlong1..4, double1..4. */
static bool is_vector_type(const char *name) {
  static const char *const bases[] = {"char",  "uchar",  "short", "ushort",   "int",
                                      "uint",  "long",   "ulong", "longlong", "ulonglong",
                                      "float", "double", NULL};
  for (const char *const *b = bases; *b; b++) {
    size_t n = strlen(*b);
    if (!strncmp(name, *b, n) && name[n] >= '1' && name[n] <= '4' && !name[n + 1]) return true;
  }
  return false;
}

/* What the C library headers under cuda_runtime.h declare (nvcc includes them implicitly). */
static const char *const host_names[] = {
#include "cuda_host_names.inc"
};

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool cuda_reserved(const char *name, bool family) {
  /* __ is the implementation's (CUDA's intrinsics all live there). */
  /* make_float2 & co. are CUDA's too: a user's helper of that name would overload them. */
  /* kcc_ is the vector preamble's and the helpers'; cudaX the runtime API's. */
  return cs_in_list(name, cuda_words) || is_vector_type(name) ||
         (!strncmp(name, "make_", 5) && is_vector_type(name + 5)) ||
         (!strncmp(name, "cuda", 4) && name[4] >= 'A' && name[4] <= 'Z') ||
         bsearch(&name, host_names, sizeof host_names / sizeof *host_names, sizeof *host_names,
                 cmp_name) ||
         (family && (!strncmp(name, "__", 2) || !strncmp(name, "kcc_", 4)));
}

/* nvcc rejects an extern "C" kernel named like any function of its headers. */
static bool cuda_kernel_reserved(const char *name) {
  return cuda_reserved(name, false);
}

/* ---------------------------------------------------------------- builtins */

/* The pointer an atomic operates on. CUDA declares its atomics on plain pointers; OpenCL C
 * declares them on volatile ones, so a volatile pointer is cast (atomicity does not need it). */
static void atomic_ptr(CGen *g, const KExpr *p, int prec) {
  const KType *t = p->type;
  if (t->kind == KT_PTR && (t->qual & KQ_VOLATILE)) {
    cs_printf(g, "(%s)", cs_type(g, kir_type_ptr(t->base, t->as, t->qual & ~KQ_VOLATILE)));
    cs_expr(g, p, P_UNARY);
  } else {
    cs_expr(g, p, prec);
  }
}

static void args(CGen *g, const KExpr *e) {
  bool atomic =
      e->kind == KE_BUILTIN && (kir_builtin_is_atomic(e->builtin) || e->builtin == BI_ATOMIC_INC ||
                                e->builtin == BI_ATOMIC_DEC);
  for (int i = 0; i < e->nargs; i++) {
    if (i) cs_puts(g, ", ");
    if (i == 0 && atomic)
      atomic_ptr(g, e->args[0], P_ASSIGN);
    else
      cs_expr_exact(g, e->args[i], P_ASSIGN);
  }
}

/* `(T)expr` with T printed in full. */
static void cast_to(CGen *g, const char *type, const KExpr *e) {
  cs_printf(g, "(%s)", type);
  cs_expr(g, e, P_UNARY);
}

static void cuda_atomic(CGen *g, const KExpr *e, int prec, bool discard) {
  static const char *const names[] = {
      [BI_ATOMIC_ADD] = "atomicAdd", [BI_ATOMIC_SUB] = "atomicSub",   [BI_ATOMIC_MIN] = "atomicMin",
      [BI_ATOMIC_MAX] = "atomicMax", [BI_ATOMIC_AND] = "atomicAnd",   [BI_ATOMIC_OR] = "atomicOr",
      [BI_ATOMIC_XOR] = "atomicXor", [BI_ATOMIC_EXCH] = "atomicExch", [BI_ATOMIC_CAS] = "atomicCAS",
  };
  KBuiltin b = e->builtin;
  const KType *vt = e->args[0]->type->base;
  const char *ull = "unsigned long long", *sys = e->sys_scope ? "_system" : "";
  bool p;
  if (vt->kind == KT_F64 && b == BI_ATOMIC_EXCH) {
    p = prec > P_POSTFIX;
    cs_printf(g, "%s__longlong_as_double((long long)atomicExch%s((%s *)", p ? "(" : "", sys, ull);
    atomic_ptr(g, e->args[0], P_UNARY);
    cs_printf(g, ", (%s)__double_as_longlong(", ull);
    cs_expr_exact(g, e->args[1], P_ASSIGN);
    cs_puts(g, p ? "))))" : ")))");
    return;
  }
  if (kir_is_float(vt) && b == BI_ATOMIC_SUB) {
    cs_printf(g, "atomicAdd%s(", sys);
    atomic_ptr(g, e->args[0], P_ASSIGN);
    cs_puts(g, ", -");
    cs_expr_exact(g, e->args[1], P_PRIMARY);
    cs_puts(g, ")");
    return;
  }
  if (kir_is_float(vt) && b != BI_ATOMIC_ADD && !(b == BI_ATOMIC_EXCH && vt->kind == KT_F32)) {
    cs_error(g, e->loc, "%s on %s is not supported", kir_builtin_info(b)->name, kir_type_str(vt));
    return;
  }
  if (vt->kind == KT_U64 && b == BI_ATOMIC_SUB) {
    cs_printf(g, "atomicAdd%s(", sys);
    atomic_ptr(g, e->args[0], P_ASSIGN);
    cs_puts(g, ", 0ULL - ");
    cs_expr_exact(g, e->args[1], P_MUL);
    cs_puts(g, ")");
    return;
  }
  /* CUDA declares most 64-bit atomics on unsigned long long only (min and max also on long
   * long): signed ones go through the unsigned form, which is the same bit operation. */
  if (vt->kind == KT_I64 && b != BI_ATOMIC_MIN && b != BI_ATOMIC_MAX) {
    p = !discard && prec > P_UNARY;
    cs_printf(g, "%s%satomic%s%s((%s *)", p ? "(" : "", discard ? "" : "(long long)",
              b == BI_ATOMIC_SUB ? "Add" : names[b] + 6, sys, ull);
    atomic_ptr(g, e->args[0], P_UNARY);
    for (int i = 1; i < e->nargs; i++) {
      /* (unsigned long long)x is the sign extension of x already. */
      cs_printf(g, ", %s(%s)", b == BI_ATOMIC_SUB ? "0ULL - " : "", ull);
      cs_expr(g, cs_strip_widen(e->args[i]), P_UNARY);
    }
    cs_puts(g, p ? "))" : ")");
    return;
  }
  if (!(kir_is_int(vt) && vt->size >= 4) && !kir_is_float(vt)) {
    cs_error(g, e->loc, "%s on %s is not supported", kir_builtin_info(b)->name, kir_type_str(vt));
    return;
  }
  cs_printf(g, "%s%s(", names[b], sys);
  args(g, e);
  cs_puts(g, ")");
}

/* min/max/abs: CUDA spells the integer forms by type (umin, llmax, ...); types narrower
 * than int are computed in int and converted back, as C's promotions would. */
static void cuda_minmax(CGen *g, const KExpr *e, int prec) {
  static const struct {
    KTypeKind k;
    const char *min, *max, *abs;
  } fs[] = {
      {KT_I32, "min", "max", "abs"},       {KT_U32, "umin", "umax", NULL},
      {KT_I64, "llmin", "llmax", "llabs"}, {KT_U64, "ullmin", "ullmax", NULL},
      {KT_F32, "fminf", "fmaxf", "fabsf"}, {KT_F64, "fmin", "fmax", "fabs"},
  };
  const KType *t = e->type;
  bool small = kir_is_int(t) && t->size < 4;
  KTypeKind k = small ? KT_I32 : t->kind;
  const char *name = NULL;
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
    if (fs[i].k == k)
      name = e->builtin == BI_MIN ? fs[i].min : e->builtin == BI_MAX ? fs[i].max : fs[i].abs;
  if (e->builtin == BI_ABS && (t->kind == KT_U32 || t->kind == KT_U64)) {
    cs_expr(g, e->args[0], prec); /* |x| of an unsigned value is x */
    return;
  }
  if (!name) {
    cs_error(g, e->loc, "%s on %s is not supported", kir_builtin_info(e->builtin)->name,
             kir_type_str(t));
    return;
  }
  bool p = small && prec > P_UNARY;
  if (p) cs_puts(g, "(");
  if (small) cs_printf(g, "(%s)", cs_type(g, t));
  cs_printf(g, "%s(", name);
  for (int i = 0; i < e->nargs; i++) {
    if (i) cs_puts(g, ", ");
    if (small)
      cast_to(g, "int", e->args[i]);
    else
      cs_expr_exact(g, e->args[i], P_ASSIGN);
  }
  cs_puts(g, p ? "))" : ")");
}

/* ---------------------------------------------------------------- helpers */

/* Short names of scalar types for helper names (kcc_convert_uchar_sat_float). */
static const char *short_name(const KType *t) {
  static const char *const n[] = {
      [KT_I8] = "char",   [KT_I16] = "short",  [KT_I32] = "int",   [KT_I64] = "long",
      [KT_U8] = "uchar",  [KT_U16] = "ushort", [KT_U32] = "uint",  [KT_U64] = "ulong",
      [KT_F32] = "float", [KT_F64] = "double", [KT_BOOL] = "bool",
  };
  return kir_is_vec(t) ? kir_type_str(t) : n[t->kind];
}

static bool have_helper(CudaState *st, const char *name) {
  for (int i = 0; i < st->helper_names.n; i++)
    if (!strcmp(st->helper_names.v[i], name)) return true;
  return false;
}

/* A helper's definition printed by `body` (into a buffer of its own, so that the helpers it
 * defines on the way come first). */
static void add_helper(CGen *g, const char *name, void (*body)(CGen *g, const KExpr *e),
                       const KExpr *e) {
  CudaState *st = g->be;
  KBuf *saved = g->out, b = {0};
  int depth = g->depth;
  klist_push(&st->helper_names, (void *)name);
  g->out = &b;
  g->depth = 0;
  body(g, e);
  g->out = saved;
  g->depth = depth;
  kbuf_append(&st->helpers, b.data, b.len);
  kbuf_puts(&st->helpers, "\n");
  kbuf_free(&b);
}

/* A KE_VAR that prints as `text` (a helper's a.s[i]). */
static KExpr *fake_operand(KType *t, const char *text) {
  KVar *v = kir_alloc(sizeof *v);
  v->name = v->aux = (void *)kir_strdup(text);
  v->type = t;
  v->kind = KV_LOCAL;
  KExpr *e = kir_expr(KE_VAR, t, (KLoc){0});
  e->var = v;
  return e;
}

static void cuda_builtin(CGen *g, const KExpr *e, int prec);

static bool is_relational(KBuiltin b) {
  return b == BI_ISNAN || b == BI_ISINF || b == BI_ISFINITE;
}

static const char *helper_name(CGen *g, const KExpr *e) {
  KBuf b = {0};
  const char *name = kir_builtin_info(e->builtin)->name;
  if (e->builtin == BI_CONVERT_SAT)
    kbuf_printf(&b, "kcc_convert_%s_sat_%s", short_name(e->type), short_name(e->args[0]->type));
  else if (e->builtin == BI_SELECT)
    kbuf_printf(&b, "kcc_select_%s_%s", short_name(e->type), short_name(e->args[2]->type));
  else
    kbuf_printf(&b, "kcc_%s_%s", name, short_name(e->nargs ? e->args[0]->type : e->type));
  (void)g;
  const char *s = kir_strdup(b.data);
  kbuf_free(&b);
  return s;
}

static void helper_head(CGen *g, const KExpr *e, const char *name) {
  cs_printf(g, "static __device__ inline %s(", cs_decl(g, e->type, name, NULL));
  for (int i = 0; i < e->nargs; i++)
    cs_printf(g, "%s%s", i ? ", " : "", cs_decl(g, e->args[i]->type, (char[]){"abc"[i], 0}, NULL));
  cs_puts(g, ") {\n");
}

/* A builtin on vectors, one component at a time: the scalar builtin's own spelling on a.s[i]. */
static void vec_helper_body(CGen *g, const KExpr *e) {
  const char *name = helper_name(g, e);
  KBuiltin b = e->builtin;
  helper_head(g, e, name);
  cs_printf(g, "  %s r;\n", cs_vec_name(g, e->type));
  cs_printf(g, "  for (int i = 0; i < %d; i++)\n    r.s[i] = ", (int)e->type->len);
  if (b == BI_SELECT) {
    cs_puts(g, "c.s[i] < 0 ? b.s[i] : a.s[i];\n");
  } else if (is_relational(b)) {
    cs_printf(g, "%s(a.s[i]) ? -1 : 0;\n", kir_builtin_info(b)->name);
  } else {
    KExpr *s = kir_expr(KE_BUILTIN, e->type->base, e->loc);
    s->builtin = b;
    s->nargs = e->nargs;
    s->args = kir_alloc(sizeof(KExpr *) * e->nargs);
    for (int i = 0; i < e->nargs; i++) {
      char text[8];
      snprintf(text, sizeof text, "%c.s[i]", "abc"[i]);
      s->args[i] = fake_operand(kir_elem(e->args[i]->type), text);
    }
    cuda_builtin(g, s, P_ASSIGN);
    cs_puts(g, ";\n");
  }
  cs_puts(g, "  return r;\n}\n");
}

static void int_limits(const KType *t, int64_t *lo, uint64_t *hi) {
  int bits = 8 * t->size;
  if (kir_is_signed(t)) {
    *lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    *hi = bits == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (bits - 1)) - 1;
  } else {
    *lo = 0;
    *hi = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  }
}

/* convert_T_sat between integers: the bounds of T that the source type passes. */
static bool sat_bounds(const KType *d, const KType *s, bool *need_lo, bool *need_hi) {
  int64_t dlo, slo;
  uint64_t dhi, shi;
  int_limits(d, &dlo, &dhi);
  int_limits(s, &slo, &shi);
  *need_lo = dlo > slo;
  *need_hi = dhi < shi;
  return *need_lo || *need_hi;
}

/* convert_T_sat on scalars. Float sources: PTX's cvt.rzi (CUDA's __float2int_rz & co.)
 * clamps to the destination's range and gives 0 for NaN; narrower types clamp the int. */
static void sat_helper_body(CGen *g, const KExpr *e) {
  const KType *d = e->type, *s = e->args[0]->type;
  const char *dn = cs_scalar(g, d->kind);
  helper_head(g, e, helper_name(g, e));
  int64_t lo;
  uint64_t hi;
  int_limits(d, &lo, &hi);
  if (kir_is_float(s)) {
    const char *src = s->kind == KT_F32 ? "float" : "double";
    bool sg = kir_is_signed(d);
    const char *to = d->size == 8 ? (sg ? "ll" : "ull") : (sg ? "int" : "uint");
    if (d->size >= 4) {
      cs_printf(g, "  return __%s2%s_rz(a);\n}\n", src, to);
      return;
    }
    cs_printf(g, "  %s v = __%s2%s_rz(a);\n", sg ? "int" : "unsigned int", src, to);
    if (sg)
      cs_printf(g, "  return v < %d ? %d : v > %d ? %d : (%s)v;\n}\n", (int)lo, (int)lo, (int)hi,
                (int)hi, dn);
    else
      cs_printf(g, "  return v > %uu ? %uu : (%s)v;\n}\n", (unsigned)hi, (unsigned)hi, dn);
    return;
  }
  bool need_lo, need_hi;
  sat_bounds(d, s, &need_lo, &need_hi);
  cs_puts(g, "  return ");
  if (need_lo) {
    cs_puts(g, "a < ");
    cs_int(g, s, (uint64_t)lo);
    cs_puts(g, " ? ");
    cs_int(g, s, (uint64_t)lo);
    cs_puts(g, " : ");
  }
  if (need_hi) {
    cs_puts(g, "a > ");
    cs_int(g, s, hi);
    cs_puts(g, " ? ");
    cs_int(g, s, hi);
    cs_puts(g, " : ");
  }
  cs_printf(g, "(%s)a;\n}\n", dn);
}

static void select_helper_body(CGen *g, const KExpr *e) {
  helper_head(g, e, helper_name(g, e));
  cs_puts(g, "  return c ? b : a;\n}\n");
}

static void call_helper(CGen *g, const KExpr *e, void (*body)(CGen *g, const KExpr *e)) {
  const char *name = helper_name(g, e);
  if (!have_helper(g->be, name)) add_helper(g, name, body, e);
  cs_printf(g, "%s(", name);
  args(g, e);
  cs_puts(g, ")");
}

/* popcount, clz, mul_hi on scalars: CUDA's intrinsics work on 32 and 64 bits; narrower types
 * go through unsigned int (zero-extended: their own bits) and come back. */
static void cuda_bits(CGen *g, const KExpr *e, int prec) {
  const KType *t = e->type;
  KBuiltin b = e->builtin;
  bool wide = t->size == 8, small = t->size < 4, sg = kir_is_signed(t);
  const char *tn = cs_scalar(g, t->kind);
  const char *ut = t->size == 1 ? "unsigned char" : "unsigned short";
  bool p = prec > P_UNARY;
  if (p) cs_puts(g, "(");
  if (b == BI_MUL_HI) {
    if (small) {
      /* The full product fits in 32 bits. */
      cs_printf(g, "(%s)((%s)", tn, sg ? "int" : "unsigned int");
      cs_expr(g, e->args[0], P_UNARY);
      cs_puts(g, " * ");
      cs_expr(g, e->args[1], P_MUL);
      cs_printf(g, " >> %d)", 8 * t->size);
    } else {
      cs_printf(g, "__%smul%shi(", sg ? "" : "u", wide ? "64" : "");
      args(g, e);
      cs_puts(g, ")");
    }
    if (p) cs_puts(g, ")");
    return;
  }
  const char *fn = b == BI_POPCOUNT ? (wide ? "__popcll" : "__popc") : (wide ? "__clzll" : "__clz");
  if (t->kind != KT_I32) cs_printf(g, "(%s)", tn);
  cs_printf(g, "%s(", fn);
  if (small && sg) { /* its own bits, not its sign extension */
    cs_printf(g, "(%s)", ut);
    cs_expr(g, e->args[0], P_UNARY);
  } else {
    cs_expr_exact(g, e->args[0], P_ASSIGN);
  }
  cs_puts(g, ")");
  if (small && b == BI_CLZ) cs_printf(g, " - %d", 32 - 8 * t->size);
  if (p) cs_puts(g, ")");
}

/* Builtins that take or give vectors. */
static void cuda_vec_builtin(CGen *g, const KExpr *e) {
  switch (e->builtin) {
  case BI_VLOAD:
    cs_printf(g, "kcc_vload<%s>(", cs_vec_name(g, e->type));
    args(g, e);
    cs_puts(g, ")");
    return;
  case BI_VSTORE:
    cs_puts(g, "kcc_vstore(");
    args(g, e);
    cs_puts(g, ")");
    return;
  default: call_helper(g, e, vec_helper_body); return;
  }
}

/* CUDA's own intrinsics (kir_builtin_is_cuda_intrinsic, atomicInc/Dec), under the names the
 * 64-bit and unsigned forms have there. */
static void cuda_intrinsic(CGen *g, const KExpr *e) {
  KBuiltin b = e->builtin;
  const char *name = kir_builtin_info(b)->name;
  const KType *at = e->nargs ? e->args[0]->type : e->type;
  if ((b == BI_FFS || b == BI_BREV) && at->size == 8)
    cs_printf(g, "%sll(", name);
  else if (b == BI_SAD && !kir_is_signed(at))
    cs_puts(g, "__usad(");
  else if (b >= BI_FADD_RN && b <= BI_FMUL_RN && e->type->kind == KT_F64)
    cs_printf(g, "__d%s(", name + 3);
  else
    cs_printf(g, "%s%s(", name, e->sys_scope ? "_system" : ""); /* atomicInc_system */
  args(g, e);
  cs_puts(g, ")");
}

/* ---------------------------------------------------------------- subgroups */

/* OpenCL's subgroups as warps or aligned segments of W lanes of one, printed when the module
 * uses them: the same model as the PTX back end's (llvm_builtins.c), in CUDA's own warp
 * functions, whose width argument is W. Every function takes W (the calling function's
 * KFunc.sg_width) as its last argument, a constant. */
static const char *const sg_preamble =
    "/* OpenCL subgroups as segments of w lanes of a warp (w = 32: the warp): subgroup i of a\n"
    " * block is its threads wi..wi+w-1 by linear index (the last one partial); the uniform\n"
    " * functions run with the mask of the subgroup's lanes, the non-uniform ones with the\n"
    " * active lanes of the segment. */\n"
    "__device__ inline unsigned kcc_sg_tid() {\n"
    "  return threadIdx.x + (threadIdx.y + threadIdx.z * blockDim.y) * blockDim.x;\n"
    "}\n"
    "__device__ inline unsigned kcc_sg_bsize() { return blockDim.x * blockDim.y * blockDim.z; }\n"
    "__device__ inline unsigned kcc_sg_size(unsigned w) {\n"
    "  unsigned n = kcc_sg_bsize() - (kcc_sg_tid() & ~(w - 1u));\n"
    "  return n < w ? n : w;\n"
    "}\n"
    "__device__ inline unsigned kcc_sg_max_size(unsigned w) {\n"
    "  unsigned n = kcc_sg_bsize();\n"
    "  return n < w ? n : w;\n"
    "}\n"
    "__device__ inline unsigned kcc_sg_num(unsigned w) { return (kcc_sg_bsize() + w - 1u) / w; }\n"
    "__device__ inline unsigned kcc_sg_id(unsigned w) { return kcc_sg_tid() / w; }\n"
    "__device__ inline unsigned kcc_sg_lane(unsigned w) { return kcc_sg_tid() & (w - 1u); }\n"
    "/* The first lane of this thread's segment of its warp. */\n"
    "__device__ inline unsigned kcc_sg_base(unsigned w) { return kcc_sg_tid() & 31u & ~(w - 1u); "
    "}\n"
    "__device__ inline unsigned kcc_sg_mask(bool nu, unsigned w) {\n"
    "  unsigned seg = (0xffffffffu >> (32u - w)) << kcc_sg_base(w);\n"
    "  return nu ? __activemask() & seg\n"
    "            : (0xffffffffu >> (32u - kcc_sg_size(w))) << kcc_sg_base(w);\n"
    "}\n"
    "__device__ inline int kcc_sg_elect(unsigned w) {\n"
    "  return (unsigned)(__ffs(kcc_sg_mask(true, w)) - 1) == (kcc_sg_tid() & 31u);\n"
    "}\n"
    "__device__ inline int kcc_sg_all(int p, bool nu, unsigned w) {\n"
    "  return __all_sync(kcc_sg_mask(nu, w), p) != 0;\n"
    "}\n"
    "__device__ inline int kcc_sg_any(int p, bool nu, unsigned w) {\n"
    "  return __any_sync(kcc_sg_mask(nu, w), p) != 0;\n"
    "}\n"
    "/* Bit i is lane i of the subgroup: the segment's bits, shifted down. */\n"
    "template <class V> __device__ inline V kcc_sg_ballot(int p, bool nu, unsigned w) {\n"
    "  V r = {};\n"
    "  unsigned m = kcc_sg_mask(nu, w);\n"
    "  r.s[0] = (__ballot_sync(m, p) & m) >> kcc_sg_base(w);\n"
    "  return r;\n"
    "}\n"
    "/* The lowest active lane by absolute lane number: a shuffle over the whole warp. */\n"
    "template <class T> __device__ inline T kcc_sg_first(T v, unsigned w) {\n"
    "  unsigned m = kcc_sg_mask(true, w);\n"
    "  return __shfl_sync(m, v, __ffs(m) - 1);\n"
    "}\n"
    "template <class T> __device__ inline int kcc_sg_all_equal(T v, unsigned w) {\n"
    "  unsigned m = kcc_sg_mask(true, w);\n"
    "  return __all_sync(m, v == __shfl_sync(m, v, __ffs(m) - 1)) != 0;\n"
    "}\n"
    "template <class T> struct kcc_sg_lim;\n"
    "template <> struct kcc_sg_lim<int> {\n"
    "  __device__ static int lo() { return -2147483647 - 1; }\n"
    "  __device__ static int hi() { return 2147483647; }\n"
    "};\n"
    "template <> struct kcc_sg_lim<unsigned> {\n"
    "  __device__ static unsigned lo() { return 0u; }\n"
    "  __device__ static unsigned hi() { return 0xffffffffu; }\n"
    "};\n"
    "template <> struct kcc_sg_lim<long long> {\n"
    "  __device__ static long long lo() { return -0x7fffffffffffffffLL - 1; }\n"
    "  __device__ static long long hi() { return 0x7fffffffffffffffLL; }\n"
    "};\n"
    "template <> struct kcc_sg_lim<unsigned long long> {\n"
    "  __device__ static unsigned long long lo() { return 0ull; }\n"
    "  __device__ static unsigned long long hi() { return ~0ull; }\n"
    "};\n"
    "template <> struct kcc_sg_lim<float> {\n"
    "  __device__ static float lo() { return __int_as_float(0xff800000); }\n"
    "  __device__ static float hi() { return __int_as_float(0x7f800000); }\n"
    "};\n"
    "template <> struct kcc_sg_lim<double> {\n"
    "  __device__ static double lo() { return __longlong_as_double(0xfff0000000000000LL); }\n"
    "  __device__ static double hi() { return __longlong_as_double(0x7ff0000000000000LL); }\n"
    "};\n"
    "__device__ inline float kcc_sg_min(float a, float b) { return fminf(a, b); }\n"
    "__device__ inline double kcc_sg_min(double a, double b) { return fmin(a, b); }\n"
    "template <class T> __device__ inline T kcc_sg_min(T a, T b) { return b < a ? b : a; }\n"
    "__device__ inline float kcc_sg_max(float a, float b) { return fmaxf(a, b); }\n"
    "__device__ inline double kcc_sg_max(double a, double b) { return fmax(a, b); }\n"
    "template <class T> __device__ inline T kcc_sg_max(T a, T b) { return b > a ? b : a; }\n"
    "#define KCC_SG_OP(NAME, ID, OP, IN)                                              \\\n"
    "  struct kcc_op_##NAME {                                                       \\\n"
    "    template <class T> __device__ static T id() { return ID; }                 \\\n"
    "    template <class T> __device__ static T op(T a, T b) { return OP; }         \\\n"
    "    template <class T> __device__ static T in(T a) { return IN; }              \\\n"
    "  };\n"
    "KCC_SG_OP(add, T(0), a + b, a)\n"
    "KCC_SG_OP(mul, T(1), a * b, a)\n"
    "KCC_SG_OP(min, kcc_sg_lim<T>::hi(), kcc_sg_min(a, b), a)\n"
    "KCC_SG_OP(max, kcc_sg_lim<T>::lo(), kcc_sg_max(a, b), a)\n"
    "KCC_SG_OP(and, T(~T(0)), a & b, a)\n"
    "KCC_SG_OP(or, T(0), a | b, a)\n"
    "KCC_SG_OP(xor, T(0), a ^ b, a)\n"
    "KCC_SG_OP(logical_and, T(1), a & b, T(a != 0))\n"
    "KCC_SG_OP(logical_or, T(0), a | b, T(a != 0))\n"
    "KCC_SG_OP(logical_xor, T(0), a ^ b, T(a != 0))\n"
    "#undef KCC_SG_OP\n"
    "/* Over the lanes of m (any set of the segment's): all of them (kind 0), those up to this\n"
    " * lane (1), below it (2), or in this lane's cluster of c lanes (3); each lane reads every\n"
    " * lane of its segment in turn, by absolute lane number. */\n"
    "template <class Op, class T>\n"
    "__device__ T kcc_sg_lanes(T v, unsigned m, int kind, unsigned c, unsigned w) {\n"
    "  unsigned lane = kcc_sg_tid() & 31u, lo = kcc_sg_base(w);\n"
    "  T r = Op::template id<T>();\n"
    "  /* Not unrolled: ptxas of CUDA 13.0 fails on sm_90 (docs/driver-bugs.md 13). */\n"
    "#pragma unroll 1\n"
    "  for (unsigned i = lo; i < lo + w; i++) {\n"
    "    T x = __shfl_sync(m, v, i);\n"
    "    bool in = (m >> i) & 1u;\n"
    "    if (kind == 1) in = in && i <= lane;\n"
    "    if (kind == 2) in = in && i < lane;\n"
    "    if (kind == 3) in = in && (i & ~(c - 1u)) == (lane & ~(c - 1u));\n"
    "    if (in) r = Op::op(r, x);\n"
    "  }\n"
    "  return r;\n"
    "}\n"
    "/* Uniform: the butterfly for a whole subgroup; for a partial one a tree of shuffles down\n"
    " * over lanes 0..n-1 that lane 0 ends with, broadcast. */\n"
    "template <class Op, class T> __device__ T kcc_sg_reduce(T v, bool nu, unsigned w) {\n"
    "  v = Op::in(v);\n"
    "  unsigned m = kcc_sg_mask(nu, w);\n"
    "  if (nu) return kcc_sg_lanes<Op>(v, m, 0, w, w);\n"
    "  unsigned lane = kcc_sg_lane(w), n = kcc_sg_size(w);\n"
    "  if (n == w) { /* a whole subgroup: the butterfly */\n"
    "    for (unsigned d = w / 2u; d; d >>= 1) v = Op::op(v, __shfl_xor_sync(m, v, d, w));\n"
    "    return v;\n"
    "  }\n"
    "  for (unsigned d = 1; d < w; d <<= 1) {\n"
    "    T y = __shfl_down_sync(m, v, d, w);\n"
    "    if (lane + d < n) v = Op::op(v, y);\n"
    "  }\n"
    "  return __shfl_sync(m, v, 0, w);\n"
    "}\n"
    "/* Uniform: Hillis-Steele steps of shuffles up. */\n"
    "template <class Op, class T>\n"
    "__device__ T kcc_sg_scan(T v, bool nu, bool inclusive, unsigned w) {\n"
    "  v = Op::in(v);\n"
    "  unsigned m = kcc_sg_mask(nu, w);\n"
    "  if (nu) return kcc_sg_lanes<Op>(v, m, inclusive ? 1 : 2, w, w);\n"
    "  unsigned lane = kcc_sg_lane(w);\n"
    "  for (unsigned d = 1; d < w; d <<= 1) {\n"
    "    T y = __shfl_up_sync(m, v, d, w);\n"
    "    if (lane >= d) v = Op::op(y, v);\n"
    "  }\n"
    "  if (inclusive) return v;\n"
    "  T y = __shfl_up_sync(m, v, 1, w);\n"
    "  return lane == 0 ? Op::template id<T>() : y;\n"
    "}\n"
    "template <class Op, class T> __device__ T kcc_sg_clustered(T v, unsigned c, unsigned w) {\n"
    "  v = Op::in(v);\n"
    "  return c <= 1u ? v : kcc_sg_lanes<Op>(v, kcc_sg_mask(true, w), 3, c < w ? c : w, w);\n"
    "}\n\n";

/* The subgroup operations, as calls of sg_preamble's functions or CUDA's warp functions. */
static void cuda_subgroup(CGen *g, const KExpr *e) {
  CudaState *st = g->be;
  st->subgroups = true;
  KBuiltin b = e->builtin;
  int nu = e->nonuniform;
  const char *T = cs_decl(g, e->type, "", NULL);
  unsigned w = kir_sg_width(g->fn);
  switch (b) {
  case BI_SG_SIZE: cs_printf(g, "kcc_sg_size(%uu)", w); return;
  case BI_SG_MAX_SIZE: cs_printf(g, "kcc_sg_max_size(%uu)", w); return;
  case BI_SG_NUM: cs_printf(g, "kcc_sg_num(%uu)", w); return;
  case BI_SG_ID: cs_printf(g, "kcc_sg_id(%uu)", w); return;
  case BI_SG_LOCAL_ID: cs_printf(g, "kcc_sg_lane(%uu)", w); return;
  case BI_SG_BARRIER: cs_printf(g, "__syncwarp(kcc_sg_mask(false, %uu))", w); return;
  case BI_SG_ELECT: cs_printf(g, "kcc_sg_elect(%uu)", w); return;
  case BI_SG_ALL:
  case BI_SG_ANY:
  case BI_SG_BALLOT:
    if (b == BI_SG_BALLOT)
      cs_printf(g, "kcc_sg_ballot<%s>(", T);
    else
      cs_printf(g, "kcc_sg_%s(", b == BI_SG_ALL ? "all" : "any");
    cs_expr_exact(g, e->args[0], P_ASSIGN);
    cs_printf(g, ", %s, %uu)", nu ? "true" : "false", w);
    return;
  case BI_SG_ALL_EQUAL:
    cs_printf(g, "kcc_sg_all_equal<%s>(", cs_decl(g, e->args[0]->type, "", NULL));
    args(g, e);
    cs_printf(g, ", %uu)", w);
    return;
  case BI_SG_BROADCAST_FIRST:
    cs_printf(g, "kcc_sg_first<%s>(", T);
    args(g, e);
    cs_printf(g, ", %uu)", w);
    return;
  case BI_SG_BROADCAST:
  case BI_SG_SHUFFLE:
  case BI_SG_SHUFFLE_XOR:
  case BI_SG_SHUFFLE_UP:
  case BI_SG_SHUFFLE_DOWN:
    /* CUDA's width argument keeps the index in the segment; an xor mask is taken modulo w
       as the PTX form takes it (llvm_builtins.c). */
    cs_printf(g, "__shfl%s_sync(kcc_sg_mask(%s, %uu), ",
              b == BI_SG_SHUFFLE_XOR    ? "_xor"
              : b == BI_SG_SHUFFLE_UP   ? "_up"
              : b == BI_SG_SHUFFLE_DOWN ? "_down"
                                        : "",
              nu ? "true" : "false", w);
    cs_expr_exact(g, e->args[0], P_ASSIGN);
    cs_puts(g, ", ");
    if (b == BI_SG_SHUFFLE_XOR && w < 32) {
      cs_puts(g, "(");
      cs_expr_exact(g, e->args[1], P_BAND);
      cs_printf(g, ") & %uu", w - 1);
    } else {
      cs_expr_exact(g, e->args[1], P_ASSIGN);
    }
    cs_printf(g, ", %u)", w);
    return;
  case BI_SG_CLUSTERED_REDUCE:
    cs_printf(g, "kcc_sg_clustered<kcc_op_%s, %s>(", kir_red_names[e->red], T);
    args(g, e);
    cs_printf(g, ", %uu)", w);
    return;
  default: /* reduce, scans */
    cs_printf(g, "kcc_sg_%s<kcc_op_%s, %s>(", b == BI_SG_REDUCE ? "reduce" : "scan",
              kir_red_names[e->red], T);
    cs_expr_exact(g, e->args[0], P_ASSIGN);
    cs_printf(g, ", %s", nu ? "true" : "false");
    if (b != BI_SG_REDUCE) cs_printf(g, ", %s", b == BI_SG_SCAN_INCLUSIVE ? "true" : "false");
    cs_printf(g, ", %uu)", w);
    return;
  }
}

/* ---------------------------------------------------------------- images (issue 30)
 * As in the PTX form: reads and writes call their software form (frontend/opencl/image_lib.c),
 * which reaches the surface through BI_SURF_LOAD/STORE; the queries read the descriptor. */

static const char image_preamble[] =
    "/* OpenCL images: the descriptor libkcrt passes for each (docs/bundle.md), and one texel's\n"
    " * bytes through its surface object (x in bytes; outside the surface: zeros, no store). */\n"
    "struct kcc_image {\n"
    "  unsigned long long surf;\n"
    "  int width, height, depth, array_size, order, type;\n"
    "};\n";
static const char image_texels[] =
    "__device__ inline kcc_vec<int, 2> kcc_image_dim2(const kcc_image &i) {\n"
    "  kcc_vec<int, 2> r;\n  r.s[0] = i.width, r.s[1] = i.height;\n  return r;\n}\n"
    "__device__ inline kcc_vec<int, 4> kcc_image_dim4(const kcc_image &i) {\n"
    "  kcc_vec<int, 4> r;\n  r.s[0] = i.width, r.s[1] = i.height, r.s[2] = i.depth, r.s[3] = 0;\n"
    "  return r;\n}\n"
    "typedef kcc_vec<unsigned int, 4> kcc_texel;\n"
    "__device__ inline kcc_texel kcc_bits(unsigned int a, unsigned int b = 0, unsigned "
    "int c = 0, unsigned int d = 0) {\n"
    "  kcc_texel r;\n  r.s[0] = a, r.s[1] = b, r.s[2] = c, r.s[3] = d;\n  return r;\n}\n"
    "__device__ inline kcc_texel kcc_bits(uint2 v) { return kcc_bits(v.x, v.y); }\n"
    "__device__ inline kcc_texel kcc_bits(uint4 v) { return kcc_bits(v.x, v.y, v.z, v.w); "
    "}\n"
    "template <class T> __device__ inline T kcc_unbits(const kcc_texel &v) { return (T)v.s[0]; }\n"
    "template <> __device__ inline uint2 kcc_unbits<uint2>(const kcc_texel &v) { return "
    "make_uint2(v.s[0], v.s[1]); }\n"
    "template <> __device__ inline uint4 kcc_unbits<uint4>(const kcc_texel &v) { return "
    "make_uint4(v.s[0], v.s[1], v.s[2], v.s[3]); }\n"
    /* Every geometry takes (x, y, z) as BI_SURF_* gives them; the layer is y (1D arrays) or z
       (2D arrays). */
    "#define KCC_SURF(G, F, ...) \\\n"
    "  template <class T> __device__ inline kcc_texel kcc_load_##G(unsigned long long s, int x, "
    "int y, int z) { \\\n"
    "    (void)y, (void)z; \\\n"
    "    return kcc_bits(F##read<T>(s, __VA_ARGS__, cudaBoundaryModeZero)); \\\n"
    "  } \\\n"
    "  template <class T> __device__ inline void kcc_store_##G(unsigned long long s, int x, int "
    "y, int z, const kcc_texel &v) { \\\n"
    "    (void)y, (void)z; \\\n"
    "    F##write(kcc_unbits<T>(v), s, __VA_ARGS__, cudaBoundaryModeZero); \\\n"
    "  }\n"
    "KCC_SURF(1d, surf1D, x)\n"
    "KCC_SURF(a1d, surf1DLayered, x, y)\n"
    "KCC_SURF(2d, surf2D, x, y)\n"
    "KCC_SURF(a2d, surf2DLayered, x, y, z)\n"
    "KCC_SURF(3d, surf3D, x, y, z)\n"
    "#undef KCC_SURF\n"
    /* image1d_buffer_t: linear memory at the descriptor's address, inside the width only. */
    "template <class T> __device__ inline kcc_texel kcc_load_1db(const kcc_image &i, int x, int, "
    "int) {\n"
    "  if ((unsigned)x >= (unsigned)i.width * (unsigned)sizeof(T)) return kcc_bits(0u);\n"
    "  return kcc_bits(*(const T *)(i.surf + (unsigned long long)x));\n}\n"
    "template <class T> __device__ inline void kcc_store_1db(const kcc_image &i, int x, int, int, "
    "const kcc_texel &v) {\n"
    "  if ((unsigned)x < (unsigned)i.width * (unsigned)sizeof(T))\n"
    "    *(T *)(i.surf + (unsigned long long)x) = kcc_unbits<T>(v);\n}\n\n";

static void cuda_surf(CGen *g, const KExpr *e) {
  bool load = e->builtin == BI_SURF_LOAD;
  const KExpr *nb = e->args[load ? 4 : 5];
  int bytes = nb->kind == KE_ICONST ? (int)nb->ival : 0;
  const char *t = bytes == 1   ? "unsigned char"
                  : bytes == 2 ? "unsigned short"
                  : bytes == 4 ? "unsigned int"
                  : bytes == 8 ? "uint2"
                               : "uint4";
  static const char *const geo[KIMG_DIM_COUNT_] = {
      [KIMG_1D] = "1d", [KIMG_1D_BUFFER] = "1d", [KIMG_1D_ARRAY] = "a1d",
      [KIMG_2D] = "2d", [KIMG_2D_ARRAY] = "a2d", [KIMG_3D] = "3d",
  };
  /* A 1D buffer image is linear memory (runtime/cuda.c): its helpers take the descriptor. */
  bool buffer = e->args[0]->type->len == KIMG_1D_BUFFER;
  cs_printf(g, "kcc_%s_%s<%s>(", load ? "load" : "store",
            buffer ? "1db" : geo[e->args[0]->type->len], t);
  cs_expr(g, e->args[0], buffer ? P_ASSIGN : P_POSTFIX);
  if (!buffer) cs_puts(g, ".surf");
  for (int i = 1; i < (load ? 4 : 5); i++) {
    cs_puts(g, ", ");
    cs_expr(g, e->args[i], P_ASSIGN);
  }
  cs_puts(g, ")");
}

/* CUDA's texture and surface functions, printed as themselves with the texel type's CUDA name
 * (float4); a CUDA vector type is a struct of kcc's in CUDA C (struct float4_), so its value
 * passes through kcc_as, a copy of its bytes (the same layout). */
static void cuda_texture(CGen *g, const KExpr *e) {
  CudaState *st = g->be;
  KBuiltin b = e->builtin;
  KCuTexShape sh = kir_cuda_texture_shape(b);
  bool write = sh.write, surf = sh.surf;
  const KType *t = write ? e->args[0]->type : e->type;
  int n = 0;
  if (!kir_texel_elem(t, &n)) {
    cs_error(g, e->loc, "%s<%s>: the texel type must be a scalar or a CUDA vector type",
             kir_builtin_info(b)->name, kir_type_str(t));
    return;
  }
  bool vec = t->kind == KT_STRUCT;
  const char *native = vec ? t->st->name : cs_scalar(g, t->kind);
  st->textures |= vec;
  int first = write ? 1 : 0;
  if (vec && !write) cs_printf(g, "kcc_as<%s>(", cs_decl(g, t, "", NULL));
  cs_printf(g, "%s<%s>(", kir_builtin_info(b)->name, native);
  if (write) {
    if (vec) cs_printf(g, "kcc_as<%s>(", native);
    cs_expr(g, e->args[0], P_ASSIGN);
    cs_puts(g, vec ? "), " : ", ");
  }
  for (int i = first; i < e->nargs; i++) {
    if (i > first) cs_puts(g, ", ");
    if (surf && i == e->nargs - 1) cs_puts(g, "(cudaSurfaceBoundaryMode)");
    cs_expr(g, e->args[i], surf && i == e->nargs - 1 ? P_UNARY : P_ASSIGN);
  }
  cs_puts(g, vec && !write ? "))" : ")");
}

/* True when it printed e (an image function). */
static bool cuda_image(CGen *g, const KExpr *e, int prec) {
  CudaState *st = g->be;
  st->images = true;
  switch (e->builtin) {
  case BI_IMAGE_READ:
  case BI_IMAGE_WRITE: {
    if (!e->callee) {
      diag_ice(e->loc, "CUDA C back end: an image function without its software form");
      return true;
    }
    KExpr call = *e;
    call.kind = KE_CALL;
    cs_expr(g, &call, prec);
    return true;
  }
  case BI_SURF_LOAD:
  case BI_SURF_STORE: cuda_surf(g, e); return true;
  case BI_IMAGE_DIM:
    /* get_image_dim: (width, height) or (width, height, depth, 0). */
    cs_vec_name(g, e->type); /* the vector preamble (kcc_vec) is then printed */
    cs_printf(g, "kcc_image_dim%d(", (int)e->type->len);
    cs_expr(g, e->args[0], P_ASSIGN);
    cs_puts(g, ")");
    return true;
  default: break;
  }
  static const char *const fields[] = {
      [BI_IMAGE_WIDTH] = "width",         [BI_IMAGE_HEIGHT] = "height",
      [BI_IMAGE_DEPTH] = "depth",         [BI_IMAGE_ARRAY_SIZE] = "array_size",
      [BI_IMAGE_CHANNEL_ORDER] = "order", [BI_IMAGE_CHANNEL_TYPE] = "type",
  };
  if (e->builtin > BI_IMAGE_CHANNEL_TYPE || !fields[e->builtin]) return false;
  bool p = prec > P_POSTFIX;
  if (p) cs_puts(g, "(");
  cs_expr(g, e->args[0], P_POSTFIX);
  cs_printf(g, ".%s", fields[e->builtin]);
  if (p) cs_puts(g, ")");
  return true;
}

static void cuda_builtin(CGen *g, const KExpr *e, int prec) {
  if (e->kind == KE_SPECIAL) {
    static const char *const v[] = {[BI_THREAD_IDX] = "threadIdx",
                                    [BI_BLOCK_IDX] = "blockIdx",
                                    [BI_BLOCK_DIM] = "blockDim",
                                    [BI_GRID_DIM] = "gridDim"};
    cs_printf(g, "%s.%c", v[e->builtin], "xyz"[e->dim % 3]);
    return;
  }
  KBuiltin b = e->builtin;
  if (kir_builtin_is_cuda_texture(b)) {
    cuda_texture(g, e);
    return;
  }
  if ((kir_builtin_is_image(b) || b == BI_SURF_LOAD || b == BI_SURF_STORE) &&
      cuda_image(g, e, prec))
    return;
  bool discard = g->discard;
  g->discard = false;
  switch (b) {
  case BI_SYNCTHREADS: cs_puts(g, "__syncthreads()"); return;
  case BI_THREADFENCE:
    cs_puts(g, e->sys_scope ? "__threadfence_system()" : "__threadfence()");
    return;
  case BI_THREADFENCE_BLOCK: cs_puts(g, "__threadfence_block()"); return;
  case BI_PRINTF: {
    if (!cs_printf_format(g, e)) return;
    for (int i = 1; i < e->nargs; i++) {
      cs_puts(g, ", ");
      cs_expr(g, e->args[i], P_ASSIGN);
    }
    cs_puts(g, ")");
    return;
  }
  case BI_ATOMIC_INC:
  case BI_ATOMIC_DEC: cuda_intrinsic(g, e); return;
  default:
    if (kir_builtin_is_cuda_intrinsic(b)) {
      cuda_intrinsic(g, e);
      return;
    }
    if (kir_builtin_is_subgroup(b)) {
      cuda_subgroup(g, e);
      return;
    }
    if (kir_builtin_is_warp(b)) { /* CUDA's spellings; width always given */
      cs_printf(g, "%s(", kir_builtin_info(b)->name);
      args(g, e);
      cs_puts(g, ")");
      return;
    }
    break;
  }
  if ((kir_is_vec(e->type) || (e->nargs && kir_is_vec(e->args[0]->type))) &&
      !kir_builtin_is_atomic(b)) {
    cuda_vec_builtin(g, e);
    return;
  }
  switch (b) {
  case BI_MIN:
  case BI_MAX:
  case BI_ABS: cuda_minmax(g, e, prec); return;
  case BI_POPCOUNT:
  case BI_CLZ:
  case BI_MUL_HI: cuda_bits(g, e, prec); return;
  case BI_SELECT:
    if (cs_has_side_effects(e->args[0]) || cs_has_side_effects(e->args[1])) {
      call_helper(g, e, select_helper_body); /* all three are evaluated */
    } else {
      bool p = prec > P_COND;
      if (p) cs_puts(g, "(");
      cs_expr_cond(g, e->args[2], P_LOR);
      cs_puts(g, " ? ");
      cs_expr_exact(g, e->args[1], P_COMMA);
      cs_puts(g, " : ");
      cs_expr_exact(g, e->args[0], P_COND);
      if (p) cs_puts(g, ")");
    }
    return;
  case BI_CONVERT_SAT: {
    bool lo, hi;
    if (kir_is_float(e->args[0]->type) || sat_bounds(e->type, e->args[0]->type, &lo, &hi)) {
      call_helper(g, e, sat_helper_body);
    } else { /* every value fits */
      bool p = prec > P_UNARY;
      cs_printf(g, "%s(%s)", p ? "(" : "", cs_scalar(g, e->type->kind));
      cs_expr(g, e->args[0], P_UNARY);
      if (p) cs_puts(g, ")");
    }
    return;
  }
  default: break;
  }
  if (kir_builtin_is_atomic(b)) {
    cuda_atomic(g, e, prec, discard);
    return;
  }
  if (kir_builtin_is_math(b)) {
    /* Float forms carry the f suffix; isnan/isinf/isfinite are overloaded. */
    const char *name = kir_builtin_info(b)->name;
    bool cls = b == BI_ISNAN || b == BI_ISINF || b == BI_ISFINITE;
    const KType *at = e->nargs ? e->args[0]->type : e->type;
    bool f32 = (cls ? at : e->type)->kind == KT_F32;
    bool p = cls && prec > P_UNARY;
    /* -ffast-math: the float functions that have a fast intrinsic (__expf...) take it, as
     * nvcc -use_fast_math would. */
    static const KBuiltin fast[] = {BI_EXP, BI_EXP10, BI_LOG, BI_LOG2, BI_LOG10,
                                    BI_SIN, BI_COS,   BI_TAN, BI_POW};
    bool intrinsic = false;
    for (size_t i = 0; (g->o->fast_math || e->approx) && f32 && i < sizeof fast / sizeof fast[0];
         i++)
      intrinsic |= fast[i] == b;
    /* isnan & co. return bool in C++; KIR says int. */
    cs_printf(g, "%s%s%s%s%s(", p ? "(" : "", cls ? "(int)" : "", intrinsic ? "__" : "", name,
              f32 && !cls ? "f" : "");
    args(g, e);
    cs_puts(g, p ? "))" : ")");
    return;
  }
  cs_error(g, e->loc, "builtin '%s' has no CUDA equivalent", kir_builtin_info(b)->name);
}

/* ---------------------------------------------------------------- shared variables */

/* Static shared arrays of a kernel are declared in it. Dynamic ones go to file scope: every
 * block-scope `extern __shared__ T s[]` of the same name is one entity (C and C++ link them),
 * which KIR therefore holds once, and nvcc needs a declaration in scope in each kernel. So
 * does a kernel's array that another function uses (a lambda's body naming it). */
static bool in_kernel(const CGen *g, const KVar *v) {
  if (!v->owner || !v->owner->is_kernel || v->is_dynamic) return false;
  for (int i = 0; i < g->m->funcs.n; i++) {
    const KFunc *f = g->m->funcs.v[i];
    if (f == v->owner || f->is_kernel) continue;
    for (int j = 0; j < f->shared.n; j++)
      if (f->shared.v[j] == v) return false;
  }
  return true;
}

static void shared_decl(CGen *g, const KVar *v) {
  cs_printf(g, "%s%s;\n", v->is_dynamic ? "extern " : "",
            cs_decl(g, v->type, cs_var(v), "__shared__"));
}

static void cuda_prologue(CGen *g, const KFunc *f) {
  for (int i = 0; i < g->m->globals.n; i++) {
    const KVar *v = g->m->globals.v[i];
    if (v->kind == KV_SHARED && v->owner == f && in_kernel(g, v)) {
      cs_indent(g);
      shared_decl(g, v);
    }
  }
}

/* ---------------------------------------------------------------- local-memory parameters */

/* A kernel's `shared T *p` parameter (OpenCL's __local T *p) arrives as a byte offset into the
 * dynamic shared region, where the runtime placed it; the body starts with
 * `T *p = (T *)(kcc_dyn + p_arg);`. */
static bool is_local_param(const KFunc *f, const KVar *p) {
  return f->is_kernel && p->type->kind == KT_PTR && p->type->as == KAS_SHARED;
}

static void local_param_init(CGen *g, const KVar *p) {
  ((CudaState *)g->be)->dyn_params = true;
  cs_printf(g, "(%s)(kcc_dyn + %s)", cs_type(g, p->type), cs_param_in(g, p));
}

/* ---------------------------------------------------------------- vector preamble */

/* OpenCL's vectors for CUDA C++, printed when the module has any: one struct template with
 * KIR's layout, component-wise operators, and the helpers the printed expressions call. */
static const char *const vec_preamble_1 =
    "/* OpenCL-style vectors with kcc's layout: N components, a 3-vector padded to 4, aligned to\n"
    " * its size. Operators act on each component; comparisons give -1 (true) or 0 in the\n"
    " * signed integers of the component's size; v.s[i] is component i. */\n"
    "template <class T> struct kcc_id { typedef T t; };\n"
    "template <class T, int N> struct alignas(sizeof(T) * (N == 3 ? 4 : N)) kcc_vec {\n"
    "  typedef T elem;\n"
    "  enum { n = N };\n"
    "  T s[N == 3 ? 4 : N];\n"
    /* Stores through a volatile pointer, element by element (reads: kcc_vread). */
    "  kcc_vec &operator=(const kcc_vec &) = default;\n"
    "  __device__ kcc_vec operator=(const kcc_vec &o) volatile { for (int i = 0; i < N; i++) "
    "s[i] = o.s[i]; return o; }\n"
    "};\n"
    "template <class V> __device__ inline V kcc_vread(const volatile V &v) { V r; for (int i = "
    "0; i < V::n; i++) r.s[i] = v.s[i]; return r; }\n"
    "template <int S> struct kcc_int_of;\n"
    "template <> struct kcc_int_of<1> { typedef signed char t; };\n"
    "template <> struct kcc_int_of<2> { typedef short t; };\n"
    "template <> struct kcc_int_of<4> { typedef int t; };\n"
    "template <> struct kcc_int_of<8> { typedef long long t; };\n"
    "#define KCC_V kcc_vec<T, N>\n"
    "#define KCC_M kcc_vec<typename kcc_int_of<sizeof(T)>::t, N>\n"
    "#define KCC_E typename kcc_id<T>::t\n"
    "#define KCC_T template <class T, int N> __device__ inline\n"
    "template <class V> __device__ inline V kcc_splat(typename V::elem x) {\n"
    "  V r;\n"
    "  for (int i = 0; i < V::n; i++) r.s[i] = x;\n"
    "  return r;\n"
    "}\n"
    "template <class V, class T, int N> __device__ inline V kcc_convert(KCC_V a) {\n"
    "  V r;\n"
    "  for (int i = 0; i < N; i++) r.s[i] = (typename V::elem)a.s[i];\n"
    "  return r;\n"
    "}\n"
    "template <class To, class From> __device__ inline To kcc_as(From x) {\n"
    "  static_assert(sizeof(To) == sizeof(From), \"as_type: sizes differ\");\n"
    "  To r;\n"
    "  memcpy(&r, &x, sizeof r);\n"
    "  return r;\n"
    "}\n"
    "template <class T> __device__ inline void kcc_put(T *d, int &k, KCC_E x) { d[k++] = x; }\n"
    "KCC_T void kcc_put(T *d, int &k, KCC_V x) {\n"
    "  for (int i = 0; i < N; i++) d[k++] = x.s[i];\n"
    "}\n"
    "template <class V, class... A> __device__ inline V kcc_make(A... a) {\n"
    "  V r = {};\n"
    "  int k = 0, seq[] = {(kcc_put(r.s, k, a), 0)...};\n"
    "  (void)seq;\n"
    "  return r;\n"
    "}\n"
    "template <class V> __device__ inline V kcc_vload(size_t off, const typename V::elem *p) {\n"
    "  V r = {};\n"
    "  for (int i = 0; i < V::n; i++) r.s[i] = p[off * V::n + i];\n"
    "  return r;\n"
    "}\n"
    "KCC_T void kcc_vstore(KCC_V v, size_t off, KCC_E *p) {\n"
    "  for (int i = 0; i < N; i++) p[off * N + i] = v.s[i];\n"
    "}\n"
    "template <class T> __device__ inline T kcc_mul(T x, T y) { return x * y; }\n";

/* -ffp-contract=off: products that nvcc cannot fuse, as for scalars. */
static const char *const vec_preamble_rn =
    "__device__ inline float kcc_mul(float x, float y) { return __fmul_rn(x, y); }\n"
    "__device__ inline double kcc_mul(double x, double y) { return __dmul_rn(x, y); }\n";

static const char *const vec_preamble_2 =
    "#define KCC_ARITH(OP, X)                                                                \\\n"
    "  KCC_T KCC_V operator OP(KCC_V a, KCC_V b) {                                          \\\n"
    "    for (int i = 0; i < N; i++) a.s[i] = X;                                            \\\n"
    "    return a;                                                                          \\\n"
    "  }                                                                                    \\\n"
    "  KCC_T KCC_V operator OP(KCC_V a, KCC_E b) { return a OP kcc_splat<KCC_V>(b); }       \\\n"
    "  KCC_T KCC_V operator OP(KCC_E a, KCC_V b) { return kcc_splat<KCC_V>(a) OP b; }       \\\n"
    "  KCC_T KCC_V &operator OP##=(KCC_V &a, KCC_V b) { return a = a OP b; }                \\\n"
    "  KCC_T KCC_V &operator OP##=(KCC_V &a, KCC_E b) { return a = a OP b; }\n"
    "KCC_ARITH(+, a.s[i] + b.s[i])\n"
    "KCC_ARITH(-, a.s[i] - b.s[i])\n"
    "KCC_ARITH(*, kcc_mul(a.s[i], b.s[i]))\n"
    "KCC_ARITH(/, a.s[i] / b.s[i])\n"
    "KCC_ARITH(%, a.s[i] % b.s[i])\n"
    "KCC_ARITH(&, a.s[i] & b.s[i])\n"
    "KCC_ARITH(|, a.s[i] | b.s[i])\n"
    "KCC_ARITH(^, a.s[i] ^ b.s[i])\n"
    "#define KCC_SHIFT(OP)                                                                   \\\n"
    "  template <class T, class U, int N>                                                   \\\n"
    "  __device__ inline KCC_V operator OP(KCC_V a, kcc_vec<U, N> b) {                      \\\n"
    "    for (int i = 0; i < N; i++) a.s[i] = a.s[i] OP b.s[i];                             \\\n"
    "    return a;                                                                          \\\n"
    "  }                                                                                    \\\n"
    "  KCC_T KCC_V operator OP(KCC_V a, long long b) {                                      \\\n"
    "    for (int i = 0; i < N; i++) a.s[i] = a.s[i] OP b;                                  \\\n"
    "    return a;                                                                          \\\n"
    "  }                                                                                    \\\n"
    "  template <class T, int N, class B>                                                   \\\n"
    "  __device__ inline KCC_V &operator OP##=(KCC_V &a, B b) { return a = a OP b; }\n"
    "KCC_SHIFT(<<)\n"
    "KCC_SHIFT(>>)\n"
    "#define KCC_CMP(OP)                                                                     \\\n"
    "  KCC_T KCC_M operator OP(KCC_V a, KCC_V b) {                                          \\\n"
    "    KCC_M r;                                                                           \\\n"
    "    for (int i = 0; i < N; i++) r.s[i] = a.s[i] OP b.s[i] ? -1 : 0;                    \\\n"
    "    return r;                                                                          \\\n"
    "  }                                                                                    \\\n"
    "  KCC_T KCC_M operator OP(KCC_V a, KCC_E b) { return a OP kcc_splat<KCC_V>(b); }       \\\n"
    "  KCC_T KCC_M operator OP(KCC_E a, KCC_V b) { return kcc_splat<KCC_V>(a) OP b; }\n"
    "KCC_CMP(==)\n"
    "KCC_CMP(!=)\n"
    "KCC_CMP(<)\n"
    "KCC_CMP(<=)\n"
    "KCC_CMP(>)\n"
    "KCC_CMP(>=)\n"
    "KCC_T KCC_V operator-(KCC_V a) {\n"
    "  for (int i = 0; i < N; i++) a.s[i] = -a.s[i];\n"
    "  return a;\n"
    "}\n"
    "KCC_T KCC_V operator~(KCC_V a) {\n"
    "  for (int i = 0; i < N; i++) a.s[i] = ~a.s[i];\n"
    "  return a;\n"
    "}\n"
    "KCC_T KCC_V &operator++(KCC_V &a) { return a += T(1); }\n"
    "KCC_T KCC_V &operator--(KCC_V &a) { return a -= T(1); }\n"
    "KCC_T KCC_V operator++(KCC_V &a, int) {\n"
    "  KCC_V o = a;\n"
    "  a += T(1);\n"
    "  return o;\n"
    "}\n"
    "KCC_T KCC_V operator--(KCC_V &a, int) {\n"
    "  KCC_V o = a;\n"
    "  a -= T(1);\n"
    "  return o;\n"
    "}\n"
    "/* Swizzles: kcc_swz<2, 0>(v) reads v.zx; kcc_lswz<2, 0>(v) = w writes it (v is bound\n"
    " * once, by reference). */\n"
    "template <int... I, class T, int N>\n"
    "__device__ inline kcc_vec<T, sizeof...(I)> kcc_swz(KCC_V v) {\n"
    "  return {{v.s[I]...}};\n"
    "}\n"
    "template <class T, int N, int... I> struct kcc_lswz_t {\n"
    "  typedef kcc_vec<T, sizeof...(I)> W;\n"
    "  KCC_V &v;\n"
    "  __device__ W get() const { return {{v.s[I]...}}; }\n"
    "  __device__ W operator=(W w) const {\n"
    "    const int k[] = {I...};\n"
    "    for (int i = 0; i < (int)sizeof...(I); i++) v.s[k[i]] = w.s[i];\n"
    "    return w;\n"
    "  }\n"
    "#define KCC_LSWZ(OP)                                                                    \\\n"
    "  __device__ W operator OP##=(W w) const { return *this = get() OP w; }                \\\n"
    "  __device__ W operator OP##=(T w) const { return *this = get() OP w; }\n"
    "  KCC_LSWZ(+) KCC_LSWZ(-) KCC_LSWZ(*) KCC_LSWZ(/) KCC_LSWZ(%)\n"
    "  KCC_LSWZ(&) KCC_LSWZ(|) KCC_LSWZ(^) KCC_LSWZ(<<) KCC_LSWZ(>>)\n"
    "  __device__ W operator++() const { return *this = get() + T(1); }\n"
    "  __device__ W operator--() const { return *this = get() - T(1); }\n"
    "  __device__ W operator++(int) const {\n"
    "    W o = get();\n"
    "    *this = o + T(1);\n"
    "    return o;\n"
    "  }\n"
    "  __device__ W operator--(int) const {\n"
    "    W o = get();\n"
    "    *this = o - T(1);\n"
    "    return o;\n"
    "  }\n"
    "};\n"
    "template <int... I, class T, int N> __device__ inline kcc_lswz_t<T, N, I...> kcc_lswz(KCC_V "
    "&v) {\n"
    "  return {v};\n"
    "}\n"
    "#undef KCC_ARITH\n"
    "#undef KCC_SHIFT\n"
    "#undef KCC_CMP\n"
    "#undef KCC_LSWZ\n"
    "#undef KCC_T\n"
    "#undef KCC_E\n"
    "#undef KCC_M\n"
    "#undef KCC_V\n";

static int cmp_vec(const void *a, const void *b) {
  const KType *x = *(const KType *const *)a, *y = *(const KType *const *)b;
  if (x->base->kind != y->base->kind) return (int)x->base->kind - (int)y->base->kind;
  return (int)(x->len - y->len);
}

static void print_vec_preamble(CGen *g) {
  if (!g->vec_types.n) return;
  cs_puts(g, vec_preamble_1);
  if (!g->o->fp_contract) cs_puts(g, vec_preamble_rn);
  cs_puts(g, vec_preamble_2);
  KList types = g->vec_types; /* sorted copy: float2, float4, int4... */
  types.v = kir_alloc(sizeof(void *) * types.n);
  memcpy(types.v, g->vec_types.v, sizeof(void *) * types.n);
  qsort(types.v, types.n, sizeof(void *), cmp_vec);
  for (int i = 0; i < types.n; i++) {
    const KType *t = types.v[i];
    cs_printf(g, "typedef kcc_vec<%s, %d> kcc_%s;\n", cs_scalar(g, t->base->kind), (int)t->len,
              kir_type_str(t));
  }
  cs_puts(g, "\n");
}

/* ---------------------------------------------------------------- module */

static void print_signature(CGen *g, const KFunc *f) {
  if (f->is_kernel) {
    cs_puts(g, "extern \"C\" __global__ ");
    /* reqd_work_group_size: the block has exactly that many threads, at most. */
    int maxt = f->max_threads;
    if (f->reqd_block[0]) {
      int r = f->reqd_block[0] * (f->reqd_block[1] ? f->reqd_block[1] : 1) *
              (f->reqd_block[2] ? f->reqd_block[2] : 1);
      if (!maxt || r < maxt) maxt = r;
    }
    if (maxt && f->min_blocks)
      cs_printf(g, "__launch_bounds__(%d, %d) ", maxt, f->min_blocks);
    else if (maxt)
      cs_printf(g, "__launch_bounds__(%d) ", maxt);
    cs_puts(g, "void ");
  } else {
    cs_printf(g, "static __device__ %s%s%s", f->is_inline && !f->no_inline ? "inline " : "",
              f->is_cold || f->no_inline ? "__noinline__ " : "", cs_decl(g, f->ret, "", NULL));
    if (f->ret->kind != KT_PTR) cs_puts(g, " ");
  }
  cs_printf(g, "%s(", cs_func(f));
  for (int i = 0; i < f->nparams; i++) {
    const KVar *p = f->params[i];
    if (is_local_param(f, p))
      cs_list_item(g, cs_decl(g, kir_type_scalar(KT_U32), cs_param_in(g, p), NULL), i == 0);
    else
      cs_list_item(g, cs_decl(g, p->type, cs_var(p), p->is_const ? "const" : NULL), i == 0);
  }
  if (!f->nparams) cs_puts(g, "void");
  cs_puts(g, ")");
}

static void find_printf(KExpr *e, void *ctx) {
  if (e->kind == KE_BUILTIN && e->builtin == BI_PRINTF) *(bool *)ctx = true;
}

bool emit_cuda_c(KModule *m, const KOptions *o, KBuf *out) {
  m = kir_module_without_alt_only(m); /* CUDA C reads texture objects itself */
  static const CHooks hooks = {
      .builtin = cuda_builtin,
      .prologue = cuda_prologue,
      .reserved = cuda_reserved,
      .kernel_reserved = cuda_kernel_reserved,
      .copy_param = is_local_param,
      .param_init = local_param_init,
      .language = "CUDA C++",
  };
  if (!kcc_check_limits(m, o, KL_CUDA)) return false;
  CGen g;
  CudaState st = {0};
  cs_init(&g, CT_CUDA, m, o, &hooks);
  g.be = &st;
  KBuf body = {0}, head = {0};
  g.out = &body;
  cs_name_module(&g, NULL);
  for (int i = 0; i < m->funcs.n; i++) cs_name_function(&g, m->funcs.v[i]);

  /* The body first: what it uses decides the preamble, the helpers and kcc_dyn. */
  cs_structs(&g);
  bool any = false;
  for (int i = 0; i < m->globals.n; i++) {
    KVar *v = m->globals.v[i];
    if (v->kind == KV_CONSTANT) {
      cs_printf(&g, "%s %s", v->is_mutable ? "__device__" : "__constant__",
                cs_decl(&g, v->type, cs_var(v), NULL));
      /* Else the host fills it (cudaMemcpyToSymbol). */
      if (!v->host_filled || (v->is_mutable && v->init)) {
        cs_puts(&g, " = ");
        cs_constant_init(&g, v);
      }
      cs_puts(&g, ";\n");
      any = true;
    } else if (!in_kernel(&g, v)) {
      shared_decl(&g, v);
      any = true;
    }
  }
  if (any) cs_puts(&g, "\n");

  bool protos = false;
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (f->is_kernel || !cs_called_before(m, i)) continue;
    print_signature(&g, f);
    cs_puts(&g, ";\n");
    protos = true;
  }
  if (protos) cs_puts(&g, "\n");
  for (int i = 0, n = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (!f->body) continue;
    if (n++) cs_puts(&g, "\n");
    print_signature(&g, f);
    cs_puts(&g, " ");
    cs_body(&g, f);
  }

  g.out = &head;
  cs_printf(&g, "/* %s: CUDA C++ from kcc %s.\n", cs_basename(m->file), KCC_VERSION);
  cs_puts(&g, " * generated by kcc; do not edit.\n"
              " * Kernels are extern \"C\": their names are the source names.");
  if (!o->fp_contract)
    cs_puts(&g,
            "\n * -ffp-contract=off: products are __fmul_rn/__dmul_rn, which nvcc never fuses.");
  cs_puts(&g, " */\n\n");
  /* nvcc declares the device printf only for the device pass; the host pass of `nvcc -c`
   * needs the declaration too. */
  bool uses_printf = false;
  for (int i = 0; i < m->funcs.n; i++)
    if (((KFunc *)m->funcs.v[i])->body)
      kir_visit_stmt(((KFunc *)m->funcs.v[i])->body, find_printf, &uses_printf);
  if (uses_printf) cs_puts(&g, "#include <cstdio>\n\n");
  print_vec_preamble(&g);
  /* An image parameter needs the descriptor's type even where no image function is called. */
  for (int i = 0; i < m->funcs.n && !st.images; i++) {
    const KFunc *f = m->funcs.v[i];
    for (int j = 0; f->body && j < f->nparams; j++)
      st.images |= f->params[j]->type->kind == KT_IMAGE;
  }
  if (st.images) cs_puts(&g, image_preamble);
  if (st.images && g.vec_types.n) cs_puts(&g, image_texels); /* vectors: kcc_vec */
  if (st.textures)
    cs_puts(&g, "/* A CUDA vector type's value as kcc's struct of the same layout, and back. */\n"
                "template <class T, class S> static __device__ inline T kcc_as(const S &s) {\n"
                "  T t;\n  __builtin_memcpy(&t, &s, sizeof t);\n  return t;\n}\n\n");
  if (st.subgroups) cs_puts(&g, sg_preamble);
  if (st.helpers.len) {
    kbuf_append(&head, st.helpers.data, st.helpers.len);
    kbuf_free(&st.helpers);
  }
  if (st.dyn_params)
    cs_puts(&g, "/* Local memory that kernels take as parameters: at the byte offsets the runtime\n"
                " * passes, in the dynamic shared region. */\n"
                "extern __shared__ __align__(16) unsigned char kcc_dyn[];\n\n");
  kbuf_append(out, head.data, head.len);
  kbuf_append(out, body.data, body.len);
  kbuf_free(&head);
  kbuf_free(&body);
  return !g.failed;
}
