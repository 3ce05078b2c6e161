/* cuda_c.c — KIR as CUDA C++ source for nvcc or NVRTC.
 *
 * Kernels are `extern "C" __global__` so their names stay unmangled (cuModuleGetFunction
 * finds them by the source name); device functions are `static __device__`. Shared variables
 * declared in a kernel stay `__shared__` inside it; those declared in device functions or at
 * file scope become file-scope `__shared__` variables, so that one array per block serves
 * every device function and every address-space clone of it, as the dialect says. Dynamic
 * shared memory is `extern __shared__ T s[];`, sized by the launch as usual in CUDA.
 *
 * The module comes from the same allow_generic = false compilation as OpenCL C (CUDA itself
 * would accept generic pointers; address spaces are simply not printed). */
#include "csource.h"

#include <string.h>

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

static bool cuda_reserved(const char *name, bool family) {
  /* __ is the implementation's (CUDA's intrinsics all live there). */
  /* make_float2 & co. are CUDA's too: a user's helper of that name would overload them. */
  return cs_in_list(name, cuda_words) || is_vector_type(name) ||
         (!strncmp(name, "make_", 5) && is_vector_type(name + 5)) ||
         (family && !strncmp(name, "__", 2));
}

/* nvcc rejects an extern "C" kernel named like any function of its headers. */
static bool cuda_kernel_reserved(const char *name) {
  return cuda_reserved(name, false);
}

/* ---------------------------------------------------------------- builtins */

static void args(CGen *g, const KExpr *e) {
  for (int i = 0; i < e->nargs; i++) {
    if (i) cs_puts(g, ", ");
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
  const char *ull = "unsigned long long";
  bool p;
  if (vt->kind == KT_F64 && b == BI_ATOMIC_EXCH) {
    p = prec > P_POSTFIX;
    cs_printf(g, "%s__longlong_as_double((long long)atomicExch((%s *)", p ? "(" : "", ull);
    cs_expr(g, e->args[0], P_UNARY);
    cs_printf(g, ", (%s)__double_as_longlong(", ull);
    cs_expr_exact(g, e->args[1], P_ASSIGN);
    cs_puts(g, p ? "))))" : ")))");
    return;
  }
  if (kir_is_float(vt) && b == BI_ATOMIC_SUB) {
    cs_puts(g, "atomicAdd(");
    cs_expr(g, e->args[0], P_ASSIGN);
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
    cs_printf(g, "atomicAdd(");
    cs_expr(g, e->args[0], P_ASSIGN);
    cs_puts(g, ", 0ULL - ");
    cs_expr_exact(g, e->args[1], P_MUL);
    cs_puts(g, ")");
    return;
  }
  /* CUDA declares most 64-bit atomics on unsigned long long only (min and max also on long
   * long): signed ones go through the unsigned form, which is the same bit operation. */
  if (vt->kind == KT_I64 && b != BI_ATOMIC_MIN && b != BI_ATOMIC_MAX) {
    p = !discard && prec > P_UNARY;
    cs_printf(g, "%s%satomic%s((%s *)", p ? "(" : "", discard ? "" : "(long long)",
              b == BI_ATOMIC_SUB ? "Add" : names[b] + 6, ull);
    cs_expr(g, e->args[0], P_UNARY);
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
  cs_printf(g, "%s(", names[b]);
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
  bool discard = g->discard;
  g->discard = false;
  switch (b) {
  case BI_SYNCTHREADS: cs_puts(g, "__syncthreads()"); return;
  case BI_THREADFENCE: cs_puts(g, "__threadfence()"); return;
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
  case BI_MIN:
  case BI_MAX:
  case BI_ABS: cuda_minmax(g, e, prec); return;
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
    for (size_t i = 0; g->o->fast_math && f32 && i < sizeof fast / sizeof fast[0]; i++)
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
 * which KIR therefore holds once, and nvcc needs a declaration in scope in each kernel. */
static bool in_kernel(const KVar *v) {
  return v->owner && v->owner->is_kernel && !v->is_dynamic;
}

static void shared_decl(CGen *g, const KVar *v) {
  cs_printf(g, "%s%s;\n", v->is_dynamic ? "extern " : "",
            cs_decl(g, v->type, cs_var(v), "__shared__"));
}

static void cuda_prologue(CGen *g, const KFunc *f) {
  for (int i = 0; i < g->m->globals.n; i++) {
    const KVar *v = g->m->globals.v[i];
    if (v->kind == KV_SHARED && v->owner == f && in_kernel(v)) {
      cs_indent(g);
      shared_decl(g, v);
    }
  }
}

/* ---------------------------------------------------------------- module */

static void print_signature(CGen *g, const KFunc *f) {
  if (f->is_kernel) {
    cs_puts(g, "extern \"C\" __global__ ");
    if (f->max_threads && f->min_blocks)
      cs_printf(g, "__launch_bounds__(%d, %d) ", f->max_threads, f->min_blocks);
    else if (f->max_threads)
      cs_printf(g, "__launch_bounds__(%d) ", f->max_threads);
    cs_puts(g, "void ");
  } else {
    cs_printf(g, "static __device__ %s%s", f->is_inline ? "inline " : "",
              cs_decl(g, f->ret, "", NULL));
    if (f->ret->kind != KT_PTR) cs_puts(g, " ");
  }
  cs_printf(g, "%s(", cs_func(f));
  for (int i = 0; i < f->nparams; i++) {
    const KVar *p = f->params[i];
    cs_list_item(g, cs_decl(g, p->type, cs_var(p), p->is_const ? "const" : NULL), i == 0);
  }
  if (!f->nparams) cs_puts(g, "void");
  cs_puts(g, ")");
}

static void find_printf(KExpr *e, void *ctx) {
  if (e->kind == KE_BUILTIN && e->builtin == BI_PRINTF) *(bool *)ctx = true;
}

bool emit_cuda_c(KModule *m, const KOptions *o, KBuf *out) {
  static const CHooks hooks = {
      .builtin = cuda_builtin,
      .prologue = cuda_prologue,
      .reserved = cuda_reserved,
      .kernel_reserved = cuda_kernel_reserved,
      .language = "CUDA C++",
  };
  if (!kcc_check_limits(m, o, KL_CUDA)) return false;
  CGen g;
  cs_init(&g, CT_CUDA, m, o, &hooks);
  g.out = out;
  cs_name_module(&g, NULL);
  for (int i = 0; i < m->funcs.n; i++) cs_name_function(&g, m->funcs.v[i]);

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

  cs_structs(&g);
  bool any = false;
  for (int i = 0; i < m->globals.n; i++) {
    KVar *v = m->globals.v[i];
    if (v->kind == KV_CONSTANT) {
      cs_printf(&g, "__constant__ %s", cs_decl(&g, v->type, cs_var(v), NULL));
      if (!v->host_filled) { /* else the host fills it (cudaMemcpyToSymbol) */
        cs_puts(&g, " = ");
        cs_constant_init(&g, v);
      }
      cs_puts(&g, ";\n");
      any = true;
    } else if (!in_kernel(v)) {
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
  return !g.failed;
}
