/* opencl_c.c — KIR as OpenCL C 1.2 source, for the OpenCL drivers that take no SPIR-V
 * (NVIDIA's, AMD's, PoCL as Debian ships it).
 *
 * The module needs allow_generic = false: every pointer then has an address space, printed
 * as __global/__local/__constant/__private on every pointer type.
 *
 * Shared memory. OpenCL C 1.2 declares __local variables only at the top level of a kernel,
 * so every static shared variable a kernel reaches (KFunc.shared, its callees' included) is
 * declared at the top of that kernel, and device functions that use shared variables get them
 * as extra trailing `__local T *name` parameters (arrays as a pointer to their element, other
 * variables as a pointer read through `(*name)`), passed down from the kernel by name. One
 * block-wide array per variable, as in CUDA, whichever device functions (or clones) use it.
 *
 * Dynamic shared memory (`extern shared T s[]`) is one extra `__local T *s` kernel parameter
 * after the kernel's own: the runtime sets it last, with the launch's dynamic size
 * (clSetKernelArg(k, nparams, bytes, NULL)). Several dynamic arrays in one kernel alias that
 * one buffer, as in CUDA.
 *
 * Host-filled constants (`constant T c[N];` without an initializer: the host writes them
 * through kcrt_module_symbol) cannot be program-scope variables, which OpenCL 1.2 never lets
 * the host write: each is a hidden `__constant T (*c)[N]` parameter of every function that
 * reaches it, after the function's own (and its shared pointers), read as `(*c)`. Kernels take
 * them in KFunc.symbols order, before the dynamic shared one; the runtime binds its buffer
 * for the symbol there (docs/bundle.md, SYMBOLS).
 *
 * Launch: global size = grid * block, local size = block; threadIdx = get_local_id,
 * blockIdx = get_group_id, blockDim = get_local_size, gridDim = get_num_groups. */
#include "csource.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct OclState {
  bool int64_base, int64_ext; /* cl_khr_int64_{base,extended}_atomics used */
  unsigned helpers;           /* H_* bits: float atomic helpers to define */
  KList rint_vecs;            /* KType*: vector types that need a kcc_rint_<type> */
  KList cuda;                 /* const char*: CUDA intrinsic helpers to define (cuda_helper) */
  bool subgroups;             /* warp-level operations: cl_khr_subgroup_* used */
  unsigned sg_ext;            /* OpenCL subgroup functions: the extensions used (SGX_*) */
  bool warps;                 /* CUDA's warp operations (through ballots and shuffles) */
} OclState;

enum {
  H_ADD_F32_GLOBAL = 1,
  H_ADD_F32_LOCAL = 2,
  H_ADD_F64_GLOBAL = 4,
  H_ADD_F64_LOCAL = 8,
  H_RINT_F32 = 16,
  H_RINT_F64 = 32,
};

static const char *const helper_names[] = {"kcc_atomic_add_f32_global",
                                           "kcc_atomic_add_f32_local",
                                           "kcc_atomic_add_f64_global",
                                           "kcc_atomic_add_f64_local",
                                           "kcc_rint_f32",
                                           "kcc_rint_f64",
                                           NULL};

/* ---------------------------------------------------------------- reserved words */

static const char *const ocl_words[] = {
    /* C99 keywords */
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict",
    "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
    "unsigned", "void", "volatile", "while", "_Bool", "_Complex", "_Imaginary", "asm", "typeof",
    "__attribute__", "complex", "imaginary",
    /* OpenCL C qualifiers and types */
    "__kernel", "kernel", "__global", "global", "__local", "local", "__constant", "constant",
    "__private", "private", "__generic", "generic", "__read_only", "read_only", "__write_only",
    "write_only", "__read_write", "read_write", "uniform", "pipe", "bool", "true", "false", "uchar",
    "ushort", "uint", "ulong", "half", "quad", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t",
    "image1d_t", "image1d_array_t", "image1d_buffer_t", "image2d_t", "image2d_array_t",
    "image2d_depth_t", "image2d_array_depth_t", "image3d_t", "sampler_t", "event_t",
    "cl_mem_fence_flags", "memory_scope", "memory_order", "NULL",
    /* macros the OpenCL headers define */
    "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "MAXFLOAT", "HUGE_VALF", "HUGE_VAL", "INFINITY",
    "NAN", "FLT_DIG", "FLT_MANT_DIG", "FLT_MAX", "FLT_MIN", "FLT_EPSILON", "DBL_MAX", "DBL_MIN",
    "DBL_EPSILON", "CHAR_BIT", "CHAR_MAX", "CHAR_MIN", "INT_MAX", "INT_MIN", "LONG_MAX", "LONG_MIN",
    "SCHAR_MAX", "SCHAR_MIN", "SHRT_MAX", "SHRT_MIN", "UCHAR_MAX", "USHRT_MAX", "UINT_MAX",
    "ULONG_MAX", "M_E", "M_PI", "M_PI_2", "M_PI_4", "M_1_PI", "M_2_PI", "M_2_SQRTPI", "M_SQRT2",
    "M_SQRT1_2", "M_LN2", "M_LN10", "M_LOG2E", "M_LOG10E", "M_E_F", "M_PI_F", "FP_FAST_FMA",
    "FP_FAST_FMAF", "FP_ILOGB0", "FP_ILOGBNAN", "__OPENCL_VERSION__", "__OPENCL_C_VERSION__",
    "__ENDIAN_LITTLE__", "__IMAGE_SUPPORT__", "__FAST_RELAXED_MATH__", "__FILE__", "__LINE__",
    "CL_VERSION_1_0", "CL_VERSION_1_1", "CL_VERSION_1_2", "CL_VERSION_2_0",
    "CLK_NORMALIZED_COORDS_TRUE", "CLK_NORMALIZED_COORDS_FALSE", "CLK_ADDRESS_NONE",
    "CLK_ADDRESS_CLAMP", "CLK_FILTER_NEAREST", "CLK_FILTER_LINEAR", NULL};

/* Builtin functions: a device function or variable of that name is renamed; a kernel keeps
 * its name (OpenCL compilers accept a kernel that shadows a builtin function). */
static const char *const ocl_builtins[] = {
    /* work-items, synchronisation, memory */
    "get_work_dim", "get_global_size", "get_global_id", "get_local_size", "get_local_id",
    "get_num_groups", "get_group_id", "get_global_offset", "barrier", "mem_fence", "read_mem_fence",
    "write_mem_fence", "async_work_group_copy", "async_work_group_strided_copy",
    "wait_group_events", "prefetch", "printf", "vec_step", "shuffle", "shuffle2", "to_global",
    "to_local", "to_private",
    /* math */
    "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atan2", "atanh", "atanpi",
    "atan2pi", "cbrt", "ceil", "copysign", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2",
    "exp10", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "fract", "frexp",
    "hypot", "ilogb", "ldexp", "lgamma", "lgamma_r", "log", "log2", "log10", "log1p", "logb", "mad",
    "maxmag", "minmag", "modf", "nan", "nextafter", "pow", "pown", "powr", "remainder", "remquo",
    "rint", "rootn", "round", "rsqrt", "sin", "sincos", "sinh", "sinpi", "sqrt", "tan", "tanh",
    "tanpi", "tgamma", "trunc",
    /* integer, common, geometric, relational */
    "abs", "abs_diff", "add_sat", "hadd", "rhadd", "clamp", "clz", "ctz", "mad_hi", "mad_sat",
    "max", "min", "mul_hi", "rotate", "sub_sat", "upsample", "popcount", "mad24", "mul24",
    "degrees", "radians", "mix", "step", "smoothstep", "sign", "cross", "dot", "distance", "length",
    "normalize", "fast_distance", "fast_length", "fast_normalize", "isequal", "isnotequal",
    "isgreater", "isgreaterequal", "isless", "islessequal", "islessgreater", "isfinite", "isinf",
    "isnan", "isnormal", "isordered", "isunordered", "signbit", "any", "all", "bitselect", "select",
    /* images */
    "read_imagef", "read_imagei", "read_imageui", "read_imageh", "write_imagef", "write_imagei",
    "write_imageui", "write_imageh", "get_image_width", "get_image_height", "get_image_depth",
    "get_image_dim", "get_image_channel_data_type", "get_image_channel_order",
    "get_image_array_size", NULL};

/* Whole families of builtin names: convert_int_sat_rte, as_float4, vload16, native_exp... */
static const char *const ocl_prefixes[] = {
    "kcc_sampler_", "convert_", "as_",     "vload",      "vstore",      "native_",
    "half_",        "atom_",    "atomic_", "read_image", "write_image", "sub_group_",
    "work_group_",  "__",       "kcc_",    NULL};

static bool is_vector_type(const char *name) {
  static const char *const bases[] = {"char",  "uchar", "short",  "ushort", "int",  "uint", "long",
                                      "ulong", "float", "double", "half",   "bool", NULL};
  for (const char *const *b = bases; *b; b++) {
    size_t n = strlen(*b);
    if (strncmp(name, *b, n)) continue;
    const char *s = name + n;
    if (!strcmp(s, "2") || !strcmp(s, "3") || !strcmp(s, "4") || !strcmp(s, "8") ||
        !strcmp(s, "16"))
      return true;
  }
  return false;
}

/* Built-ins clang's OpenCL C treats as operators rather than functions a kernel may shadow:
 * vec_step (an operator of the language), as_T (reinterpretation, defined as macros),
 * printf (declared with its own prototype) and OpenCL C 2.0's address-space casts. */
static const char *const ocl_operators[] = {"vec_step", "printf",     "to_global",
                                            "to_local", "to_private", NULL};

static bool ocl_reserved(const char *name, bool family) {
  if (cs_in_list(name, ocl_words) || cs_in_list(name, helper_names) ||
      cs_in_list(name, ocl_operators) || is_vector_type(name) || cs_in_list(name, ocl_builtins))
    return true;
  for (const char *const *p = ocl_prefixes; family && *p; p++)
    if (!strncmp(name, *p, strlen(*p))) return true;
  return false;
}

/* Whether s is a scalar or vector type name of OpenCL C (int, uint4, float16...). */
static bool is_type_name(const char *s) {
  static const char *const scalars[] = {"char", "uchar", "short", "ushort", "int",  "uint",
                                        "long", "ulong", "float", "double", "half", NULL};
  return is_vector_type(s) || cs_in_list(s, scalars);
}

/* Whether name is one of the built-in functions of a family spelled by pattern (OpenCL C 1.2
 * 6.2.3-6.2.4, 6.12): convert_T[_sat][_rte|_rtz|_rtp|_rtn], as_T, atomic_OP and atom_OP,
 * native_F and half_F of a math function, vloadN, vstoreN and their half forms. */
static bool is_builtin_family(const char *name) {
  static const char *const ops[] = {"add", "sub", "xchg", "inc", "dec", "cmpxchg",
                                    "min", "max", "and",  "or",  "xor", NULL};
  if (!strncmp(name, "as_", 3)) return is_type_name(name + 3);
  if (!strncmp(name, "convert_", 8)) {
    size_t len = strcspn(name + 8, "_"); /* the type, then _sat and a rounding mode */
    const char *suffix = name + 8 + len;
    char t[32];
    snprintf(t, sizeof t, "%.*s", (int)len, name + 8);
    if (!strncmp(suffix, "_sat", 4)) suffix += 4;
    if (*suffix && strcmp(suffix, "_rte") && strcmp(suffix, "_rtz") && strcmp(suffix, "_rtp") &&
        strcmp(suffix, "_rtn"))
      return false;
    return is_type_name(t);
  }
  if (!strncmp(name, "atomic_", 7)) return cs_in_list(name + 7, ops);
  if (!strncmp(name, "atom_", 5)) return cs_in_list(name + 5, ops);
  if (!strncmp(name, "native_", 7)) return cs_in_list(name + 7, ocl_builtins);
  if (!strncmp(name, "half_", 5)) return cs_in_list(name + 5, ocl_builtins);
  const char *v = !strncmp(name, "vload", 5)    ? name + 5
                  : !strncmp(name, "vstore", 6) ? name + 6
                                                : NULL;
  if (v) {
    if (*v == 'a') v++; /* vloada_half */
    if (!strncmp(v, "_half", 5)) v += 5;
    if (!*v) return true;
    if (!strcmp(v, "2") || !strcmp(v, "3") || !strcmp(v, "4") || !strcmp(v, "8") ||
        !strcmp(v, "16"))
      return true;
    return !strncmp(v, "_rt", 3) || ((v[0] >= '0' && v[0] <= '9') && strstr(v, "_rt"));
  }
  return false;
}

/* A kernel may not have a built-in function's name either: clang accepts one that shadows an
 * overloaded built-in (normalize, atomic_add, convert_int...), but the driver that links its
 * built-in library then has no such kernel (PoCL: "no kernel 'dot'"); the operators above
 * fail in clang itself. */
static bool ocl_kernel_reserved(const char *name) {
  return ocl_reserved(name, false) || is_builtin_family(name) || !strncmp(name, "__", 2);
}

/* ---------------------------------------------------------------- shared variables */

/* Whether v is reached through a pointer in this function: a device function's extra
 * parameter, or the dynamic buffer (a kernel parameter or an alias of it). */
static bool shared_by_pointer(const CGen *g, const KVar *v) {
  return v->kind == KV_SHARED && g->fn && (!g->fn->is_kernel || v->is_dynamic);
}

/* The type of the pointer that stands for shared variable v. */
static KType *shared_ptr_type(const KVar *v) {
  KType *t = v->type->kind == KT_ARRAY ? v->type->base : v->type;
  return kir_type_ptr(t, KAS_SHARED, 0);
}

static bool ocl_gvar_is_deref(CGen *g, const KVar *v) {
  return (shared_by_pointer(g, v) && v->type->kind != KT_ARRAY) || v->host_filled;
}

/* The hidden parameter that stands for host-filled constant v (or a CUDA __device__
 * variable, which kernels write: global memory): a pointer to all of it. */
static KType *symbol_ptr_type(const KVar *v) {
  return v->is_mutable ? kir_type_ptr(v->type, KAS_GLOBAL, 0)
                       : kir_type_ptr(v->type, KAS_CONSTANT, KQ_CONST);
}

static void symbol_params(CGen *g, const KFunc *f, int *n) {
  for (int i = 0; i < f->symbols.n; i++, (*n)++) {
    const KVar *v = f->symbols.v[i];
    cs_list_item(g, cs_decl(g, symbol_ptr_type(v), cs_var(v), NULL), *n == 0);
  }
}

static void ocl_gvar(CGen *g, const KExpr *e, int prec) {
  (void)prec;
  if (ocl_gvar_is_deref(g, e->var))
    cs_printf(g, "(*%s)", cs_var(e->var));
  else
    cs_puts(g, cs_var(e->var));
}

static void ocl_gvar_addr(CGen *g, const KExpr *e, int prec) {
  const KVar *v = e->a->var;
  bool p = prec > P_UNARY;
  if (p) cs_puts(g, "(");
  if (v->host_filled)
    cs_puts(g, cs_var(v));
  else if (!shared_by_pointer(g, v))
    cs_printf(g, "&%s", cs_var(v));
  else if (v->type->kind == KT_ARRAY)
    cs_printf(g, "(%s)%s", cs_type(g, e->type), cs_var(v));
  else
    cs_puts(g, cs_var(v));
  if (p) cs_puts(g, ")");
}

static void ocl_call_extra(CGen *g, const KFunc *callee, bool any) {
  for (int i = 0; i < callee->shared.n; i++) {
    const KVar *v = callee->shared.v[i];
    bool addr = !shared_by_pointer(g, v) && v->type->kind != KT_ARRAY;
    cs_printf(g, "%s%s%s", any || i ? ", " : "", addr ? "&" : "", cs_var(v));
  }
  for (int i = 0; i < callee->symbols.n; i++)
    cs_printf(g, "%s%s", any || callee->shared.n || i ? ", " : "", cs_var(callee->symbols.v[i]));
}

static const KVar *first_dynamic(const KFunc *f) {
  for (int i = 0; i < f->shared.n; i++)
    if (((KVar *)f->shared.v[i])->is_dynamic) return f->shared.v[i];
  return NULL;
}

static void ocl_prologue(CGen *g, const KFunc *f) {
  if (!f->is_kernel) return;
  const KVar *dyn = first_dynamic(f);
  for (int i = 0; i < f->shared.n; i++) {
    const KVar *v = f->shared.v[i];
    if (v == dyn) continue; /* the parameter itself */
    cs_indent(g);
    if (!v->is_dynamic)
      cs_printf(g, "%s;\n", cs_decl(g, v->type, cs_var(v), "__local"));
    else
      cs_printf(g, "%s = (%s)%s;\n", cs_decl(g, shared_ptr_type(v), cs_var(v), NULL),
                cs_type(g, shared_ptr_type(v)), cs_var(dyn));
  }
}

/* ---------------------------------------------------------------- builtins */

static void args(CGen *g, const KExpr *e, int from) {
  for (int i = from; i < e->nargs; i++) {
    if (i > from) cs_puts(g, ", ");
    cs_expr_exact(g, e->args[i], P_ASSIGN);
  }
}

static void ocl_atomic(CGen *g, const KExpr *e) {
  OclState *st = g->be;
  static const char *const names[] = {
      [BI_ATOMIC_ADD] = "add", [BI_ATOMIC_SUB] = "sub",   [BI_ATOMIC_MIN] = "min",
      [BI_ATOMIC_MAX] = "max", [BI_ATOMIC_AND] = "and",   [BI_ATOMIC_OR] = "or",
      [BI_ATOMIC_XOR] = "xor", [BI_ATOMIC_EXCH] = "xchg", [BI_ATOMIC_CAS] = "cmpxchg",
  };
  const KType *pt = e->args[0]->type, *vt = pt->base;
  if (pt->kind != KT_PTR || (pt->as != KAS_GLOBAL && pt->as != KAS_SHARED)) {
    cs_error(g, e->loc, "%s needs a pointer to global or shared memory in OpenCL C",
             kir_builtin_info(e->builtin)->name);
    return;
  }
  const char *space = pt->as == KAS_GLOBAL ? "global" : "local";
  if (kir_is_float(vt)) {
    bool f64 = vt->kind == KT_F64;
    if (e->builtin == BI_ATOMIC_ADD) {
      st->helpers |= f64 ? (pt->as == KAS_GLOBAL ? H_ADD_F64_GLOBAL : H_ADD_F64_LOCAL)
                         : (pt->as == KAS_GLOBAL ? H_ADD_F32_GLOBAL : H_ADD_F32_LOCAL);
      if (f64) st->int64_base = g->used_f64 = true;
      cs_printf(g, "kcc_atomic_add_%s_%s(", f64 ? "f64" : "f32", space);
      args(g, e, 0);
      cs_puts(g, ")");
    } else if (e->builtin == BI_ATOMIC_EXCH && !f64) {
      cs_puts(g, "atomic_xchg(");
      args(g, e, 0);
      cs_puts(g, ")");
    } else if (e->builtin == BI_ATOMIC_EXCH) {
      st->int64_base = true;
      cs_printf(g, "as_double(atom_xchg((volatile __%s ulong *)", space);
      cs_expr(g, e->args[0], P_UNARY);
      cs_puts(g, ", as_ulong(");
      cs_expr_exact(g, e->args[1], P_ASSIGN);
      cs_puts(g, ")))");
    } else {
      cs_error(g, e->loc, "%s on %s is not supported", kir_builtin_info(e->builtin)->name,
               kir_type_str(vt));
    }
    return;
  }
  if (!kir_is_int(vt) || vt->size < 4) {
    cs_error(g, e->loc, "%s on %s is not supported", kir_builtin_info(e->builtin)->name,
             kir_type_str(vt));
    return;
  }
  if (vt->size == 8) {
    /* 64-bit atomics are extensions in OpenCL 1.2, under their 1.0 names (atom_*). */
    switch (e->builtin) {
    case BI_ATOMIC_ADD:
    case BI_ATOMIC_SUB:
    case BI_ATOMIC_EXCH:
    case BI_ATOMIC_CAS: st->int64_base = true; break;
    default: st->int64_ext = true; break;
    }
  }
  /* Signed or unsigned min/max follows the pointer's type, as in CUDA. */
  cs_printf(g, "%s_%s(", vt->size == 8 ? "atom" : "atomic", names[e->builtin]);
  args(g, e, 0);
  cs_puts(g, ")");
}

static void ocl_printf(CGen *g, const KExpr *e) {
  int s = kir_printf_nonliteral_string(e);
  if (s) {
    cs_error(g, e->args[s]->loc,
             "printf's '%%s' of a string that is not a literal (argument %d) is not available in "
             "OpenCL C output: OpenCL C prints string literals only; use the PTX or CUDA C form",
             s);
    return;
  }
  if (!cs_printf_format(g, e)) return;
  for (int i = 1; i < e->nargs; i++) {
    const KExpr *a = e->args[i];
    /* OpenCL printf takes a float for %f/%e/%g as it is (and converts it only where doubles
     * exist), so the vararg promotion is undone: no fp64 just for printing a float. */
    if (a->kind == KE_CAST && a->type->kind == KT_F64 && a->a->type->kind == KT_F32) a = a->a;
    cs_puts(g, ", ");
    cs_expr(g, a, P_ASSIGN);
  }
  cs_puts(g, ")");
}

/* ---------------------------------------------------------------- CUDA intrinsics, warps */

/* Records helper `key` (ffs_i32, shfl_up_float, reduce_min_int...) and returns it. */
static const char *need(CGen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *need(CGen *g, const char *fmt, ...) {
  OclState *st = g->be;
  char buf[64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  for (int i = 0; i < st->cuda.n; i++)
    if (!strcmp(st->cuda.v[i], buf)) return st->cuda.v[i];
  char *k = kir_strdup(buf);
  klist_push(&st->cuda, k);
  return k;
}

static void call_args(CGen *g, const char *fn, const KExpr *e) {
  cs_printf(g, "kcc_%s(", fn);
  args(g, e, 0);
  cs_puts(g, ")");
}

static const char *elem_name(const KType *t) {
  static const char *const n[] = {[KT_I32] = "int",   [KT_U32] = "uint",  [KT_I64] = "long",
                                  [KT_U64] = "ulong", [KT_F32] = "float", [KT_F64] = "double"};
  return t->kind < sizeof n / sizeof *n && n[t->kind] ? n[t->kind] : "int";
}

/* Warp-level operations through OpenCL subgroups (the runtime runs such a module only where
 * the kernel's subgroups are 32 wide): lanes are subgroup local ids, and every operation is a
 * non-uniform shuffle or ballot, so lanes outside the mask and inactive lanes change nothing
 * that CUDA defines. */
static void ocl_warp(CGen *g, const KExpr *e) {
  OclState *st = g->be;
  KBuiltin b = e->builtin;
  st->subgroups = st->warps = true;
  const char *name = kir_builtin_info(b)->name;
  switch (b) {
  case BI_SHFL:
  case BI_SHFL_UP:
  case BI_SHFL_DOWN:
  case BI_SHFL_XOR: {
    static const char *const m[] = {"", "_up", "_down", "_xor"};
    if (e->type->kind == KT_F64) g->used_f64 = true;
    call_args(g, need(g, "shfl%s_%s", m[b - BI_SHFL], elem_name(e->type)), e);
    return;
  }
  case BI_BALLOT: call_args(g, need(g, "ballot"), e); return;
  case BI_ANY: call_args(g, need(g, "any"), e); return;
  case BI_ALL: call_args(g, need(g, "all"), e); return;
  case BI_ACTIVEMASK: cs_puts(g, "sub_group_ballot(1).x"); return;
  case BI_MATCH_ANY: {
    bool wide = e->args[1]->type->size == 8;
    cs_printf(g, "kcc_%s(", need(g, "match_any_%s", wide ? "u64" : "u32"));
    cs_expr_exact(g, e->args[0], P_ASSIGN);
    cs_printf(g, ", as_%s(", wide ? "ulong" : "uint");
    cs_expr_exact(g, e->args[1], P_ASSIGN);
    cs_puts(g, "))");
    return;
  }
  case BI_SYNCWARP: {
    uint64_t v;
    if (!kir_const_uint(e->args[0], &v) || v != 0xffffffffu) {
      cs_error(g, e->loc,
               "__syncwarp with a mask other than 0xffffffff is not available in OpenCL C output "
               "(a subgroup barrier waits for the whole subgroup)");
      return;
    }
    cs_puts(g, "sub_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)");
    return;
  }
  default: /* __reduce_*_sync */
    call_args(g, need(g, "%s_%s", name + 2, elem_name(e->type)), e);
    return;
  }
}

/* The extended subgroup extensions, beyond cl_khr_subgroups: a program that uses one's
 * functions says so with an #error where the device lacks it, which names it in the build
 * log rather than leaving an undeclared function for the reader to map to its extension. */
enum {
  SGX_NU_VOTE = 1,
  SGX_BALLOT = 2,
  SGX_NU_ARITH = 4,
  SGX_SHUFFLE = 8,
  SGX_SHUFFLE_REL = 16,
  SGX_CLUSTERED = 32,
};
static const char *const sgx_names[] = {
    "cl_khr_subgroup_non_uniform_vote",       "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",       "cl_khr_subgroup_clustered_reduce",
};

static unsigned sg_extension(const KExpr *e) {
  switch (e->builtin) {
  case BI_SG_ELECT:
  case BI_SG_ALL_EQUAL: return SGX_NU_VOTE;
  case BI_SG_ALL:
  case BI_SG_ANY: return e->nonuniform ? SGX_NU_VOTE : 0;
  case BI_SG_BALLOT:
  case BI_SG_BROADCAST_FIRST: return SGX_BALLOT;
  case BI_SG_BROADCAST: return e->nonuniform ? SGX_BALLOT : 0;
  case BI_SG_REDUCE:
  case BI_SG_SCAN_INCLUSIVE:
  case BI_SG_SCAN_EXCLUSIVE: return e->nonuniform ? SGX_NU_ARITH : 0;
  case BI_SG_SHUFFLE:
  case BI_SG_SHUFFLE_XOR: return SGX_SHUFFLE;
  case BI_SG_SHUFFLE_UP:
  case BI_SG_SHUFFLE_DOWN: return SGX_SHUFFLE_REL;
  case BI_SG_CLUSTERED_REDUCE: return SGX_CLUSTERED;
  default: return 0;
  }
}

/* OpenCL's subgroup functions (BI_SG_*): written as the source had them, so the device's own
 * subgroups run them, whatever their width (docs/design.md). */
static void ocl_subgroup(CGen *g, const KExpr *e) {
  OclState *st = g->be;
  KBuiltin b = e->builtin;
  st->subgroups = true;
  st->sg_ext |= sg_extension(e);
  const char *nu = e->nonuniform ? "non_uniform_" : "";
  if (e->type->kind == KT_F64 || (e->nargs && e->args[0]->type->kind == KT_F64)) g->used_f64 = true;
  switch (b) {
  case BI_SG_NUM: cs_puts(g, "get_num_sub_groups()"); return;
  case BI_SG_BARRIER:
    cs_puts(g, "sub_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)");
    return;
  case BI_SG_ALL:
  case BI_SG_ANY:
  case BI_SG_ALL_EQUAL:
  case BI_SG_BROADCAST: cs_printf(g, "sub_group_%s%s(", nu, kir_builtin_info(b)->name + 10); break;
  case BI_SG_REDUCE:
  case BI_SG_SCAN_INCLUSIVE:
  case BI_SG_SCAN_EXCLUSIVE:
    cs_printf(g, "sub_group_%s%s_%s(", nu, kir_builtin_info(b)->name + 10, kir_red_names[e->red]);
    break;
  case BI_SG_CLUSTERED_REDUCE:
    cs_printf(g, "sub_group_clustered_reduce_%s(", kir_red_names[e->red]);
    break;
  default: /* the queries, elect, ballot, broadcast_first, the shuffles: one spelling */
    cs_printf(g, "%s(", kir_builtin_info(b)->name);
    break;
  }
  args(g, e, 0);
  cs_puts(g, ")");
}

/* CUDA's intrinsics that OpenCL C has no single function for. */
static void ocl_cuda(CGen *g, const KExpr *e) {
  KBuiltin b = e->builtin;
  const KType *at = e->nargs ? e->args[0]->type : e->type;
  switch (b) {
  case BI_FFS: call_args(g, need(g, "ffs_%s", at->size == 8 ? "i64" : "i32"), e); return;
  case BI_BREV: call_args(g, need(g, "brev_%s", at->size == 8 ? "u64" : "u32"), e); return;
  case BI_BYTE_PERM: call_args(g, need(g, "byte_perm"), e); return;
  case BI_SAD: call_args(g, need(g, "sad_%s", kir_is_signed(at) ? "i32" : "u32"), e); return;
  case BI_FADD_RN:
  case BI_FSUB_RN:
  case BI_FMUL_RN:
    if (e->type->kind == KT_F64) g->used_f64 = true;
    call_args(g,
              need(g, "%s_rn_%s",
                   b == BI_FADD_RN   ? "add"
                   : b == BI_FSUB_RN ? "sub"
                                     : "mul",
                   e->type->kind == KT_F64 ? "f64" : "f32"),
              e);
    return;
  case BI_FDIVIDE:
    cs_puts(g, "native_divide(");
    args(g, e, 0);
    cs_puts(g, ")");
    return;
  case BI_ATOMIC_INC:
  case BI_ATOMIC_DEC:
    if (at->kind != KT_PTR || (at->as != KAS_GLOBAL && at->as != KAS_SHARED)) {
      cs_error(g, e->loc, "%s needs a pointer to global or shared memory in OpenCL C",
               kir_builtin_info(b)->name);
      return;
    }
    call_args(g,
              need(g, "atomic_%s_%s", b == BI_ATOMIC_INC ? "inc" : "dec",
                   at->as == KAS_GLOBAL ? "global" : "local"),
              e);
    return;
  case BI_NANOSLEEP: /* a hint: sleeping 0 ns is within it; the argument is still evaluated */
    cs_puts(g, "(void)(");
    args(g, e, 0);
    cs_puts(g, ")");
    return;
  default: /* clock, clock64, __trap */
    cs_error(g, e->loc, "%s() is not available in OpenCL C output%s", kir_builtin_info(b)->name,
             b == BI_TRAP ? " (an OpenCL kernel cannot end itself with an error)" : "");
    return;
  }
}

static void print_cuda_helper(CGen *g, const char *k) {
  char t[16];
  if (!strncmp(k, "cvtsat_", 7)) {
    const char *from = strrchr(k, '_') + 1;
    int tl = (int)(from - 1 - (k + 7));
    cs_printf(g, "static %.*s kcc_%s(%s x) {\n  return isnan(x) ? 0 : convert_%.*s_sat(x);\n}\n",
              tl, k + 7, k, from, tl, k + 7);
  } else if (!strcmp(k, "ffs_i32") || !strcmp(k, "ffs_i64")) {
    bool w = k[5] == '6';
    cs_printf(g,
              "static int kcc_%s(%s x) {\n"
              "  %s u = as_%s(x);\n"
              "  return %d - (int)clz(u & (0 - u));\n"
              "}\n",
              k, w ? "long" : "int", w ? "ulong" : "uint", w ? "ulong" : "uint", w ? 64 : 32);
  } else if (!strcmp(k, "brev_u32")) {
    cs_puts(g, "static uint kcc_brev_u32(uint x) {\n"
               "  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);\n"
               "  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);\n"
               "  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);\n"
               "  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);\n"
               "  return (x >> 16) | (x << 16);\n"
               "}\n");
  } else if (!strcmp(k, "brev_u64")) {
    cs_puts(g, "static ulong kcc_brev_u64(ulong x) {\n"
               "  return ((ulong)kcc_brev_u32((uint)x) << 32) | kcc_brev_u32((uint)(x >> 32));\n"
               "}\n");
  } else if (strstr(k, "_rn_f")) {
    /* An operation of its own in a function: FP_CONTRACT fuses only within an expression. */
    const char *T = strstr(k, "f64") ? "double" : "float";
    cs_printf(g,
              "static %s kcc_%s(%s a, %s b) {\n"
              "#pragma OPENCL FP_CONTRACT OFF\n"
              "  return a %c b;\n"
              "}\n",
              T, k, T, T,
              k[0] == 'a'   ? '+'
              : k[0] == 's' ? '-'
                            : '*');
  } else if (!strcmp(k, "byte_perm")) {
    cs_puts(g, "static uint kcc_byte_perm(uint x, uint y, uint s) {\n"
               "  ulong v = ((ulong)y << 32) | x;\n"
               "  uint r = 0;\n"
               "  for (uint i = 0; i < 4; i++)\n"
               "    r |= (uint)((v >> (((s >> (4 * i)) & 7u) * 8)) & 0xffu) << (8 * i);\n"
               "  return r;\n"
               "}\n");
  } else if (!strcmp(k, "sad_i32") || !strcmp(k, "sad_u32")) {
    const char *T = k[4] == 'i' ? "int" : "uint";
    cs_printf(g, "static uint kcc_%s(%s x, %s y, uint z) {\n  return abs_diff(x, y) + z;\n}\n", k,
              T, T);
  } else if (!strncmp(k, "atomic_", 7)) {
    bool inc = k[7] == 'i';
    const char *space = strchr(k + 7, '_') + 1;
    cs_printf(g,
              "static uint kcc_%s(volatile __%s uint *p, uint v) {\n"
              "  uint old = *p, seen;\n"
              "  do {\n"
              "    seen = old;\n"
              "    old = atomic_cmpxchg(p, seen, %s);\n"
              "  } while (old != seen);\n"
              "  return old;\n"
              "}\n",
              k, space,
              inc ? "seen >= v ? 0u : seen + 1u" : "seen == 0u || seen > v ? v : seen - 1u");
  } else if (sscanf(k, "shfl_up_%15s", t) == 1) {
    cs_printf(g,
              "static %s kcc_%s(uint mask, %s v, uint d, int w) {\n"
              "  uint l = get_sub_group_local_id();\n"
              "  d &= 31u;\n"
              "  return sub_group_shuffle(v, (l & (uint)(w - 1)) >= d ? l - d : l);\n"
              "}\n",
              t, k, t);
  } else if (sscanf(k, "shfl_down_%15s", t) == 1 || sscanf(k, "shfl_xor_%15s", t) == 1) {
    bool x = k[5] == 'x';
    cs_printf(g,
              "static %s kcc_%s(uint mask, %s v, %s d, int w) {\n"
              "  uint l = get_sub_group_local_id(), j = l %s ((uint)d & 31u);\n"
              "  return sub_group_shuffle(v, j <= (l | (uint)(w - 1)) ? j : l);\n"
              "}\n",
              t, k, t, x ? "int" : "uint", x ? "^" : "+");
  } else if (sscanf(k, "shfl_%15s", t) == 1) {
    cs_printf(g,
              "static %s kcc_%s(uint mask, %s v, int src, int w) {\n"
              "  uint l = get_sub_group_local_id(), m = (uint)(w - 1);\n"
              "  return sub_group_shuffle(v, (l & ~m) | ((uint)src & m));\n"
              "}\n",
              t, k, t);
  } else if (!strcmp(k, "ballot")) {
    cs_puts(g, "static uint kcc_ballot(uint mask, int p) {\n"
               "  return sub_group_ballot(p).x & mask;\n}\n");
  } else if (!strcmp(k, "any")) {
    cs_puts(g, "static int kcc_any(uint mask, int p) {\n"
               "  return (sub_group_ballot(p).x & mask) != 0;\n}\n");
  } else if (!strcmp(k, "all")) {
    cs_puts(g, "static int kcc_all(uint mask, int p) {\n"
               "  return (sub_group_ballot(!p).x & mask) == 0;\n}\n");
  } else if (!strcmp(k, "match_any_u32") || !strcmp(k, "match_any_u64")) {
    const char *T = k[11] == '6' ? "ulong" : "uint";
    cs_printf(g,
              "static uint kcc_%s(uint mask, %s v) {\n"
              "  uint r = 0;\n"
              "  for (uint i = 0; i < 32; i++) r |= (uint)(sub_group_shuffle(v, i) == v) << i;\n"
              "  return r & mask;\n"
              "}\n",
              k, T);
  } else if (!strncmp(k, "reduce_", 7)) {
    char op[8];
    if (sscanf(k, "reduce_%7[a-z]_sync_%15s", op, t) != 2) return;
    bool sg = !strcmp(t, "int");
    const char *id = !strcmp(op, "min")   ? (sg ? "INT_MAX" : "UINT_MAX")
                     : !strcmp(op, "max") ? (sg ? "INT_MIN" : "0u")
                     : !strcmp(op, "and") ? "~0u"
                                          : "0";
    const char *f = !strcmp(op, "add")   ? "(%s)((uint)r + (uint)x)"
                    : !strcmp(op, "min") ? "min(r, x)"
                    : !strcmp(op, "max") ? "max(r, x)"
                    : !strcmp(op, "and") ? "r & x"
                    : !strcmp(op, "or")  ? "r | x"
                                         : "r ^ x";
    char expr[64];
    snprintf(expr, sizeof expr, f, t);
    cs_printf(g,
              "static %s kcc_%s(uint mask, %s v) {\n"
              "  %s r = (%s)%s;\n"
              "  for (uint i = 0; i < 32; i++) {\n"
              "    %s x = sub_group_shuffle(v, i);\n"
              "    if ((mask >> i) & 1u) r = %s;\n"
              "  }\n"
              "  return r;\n"
              "}\n",
              t, k, t, t, t, id, t, expr);
  }
}

static void print_cuda_helpers(CGen *g) {
  OclState *st = g->be;
  if (!st->cuda.n) return;
  if (st->subgroups)
    cs_puts(g,
            "/* CUDA's intrinsics and warps (as OpenCL subgroups: the runtime runs this only\n"
            " * where the kernel's subgroups are 32 wide, so a lane is a subgroup local id). */\n");
  else
    cs_puts(g, "/* CUDA's intrinsics. */\n");
  /* Printing a helper may record another one (brev_u64 uses brev_u32): each is printed once. */
  KList done = {0};
  for (int i = 0; i < st->cuda.n; i++) {
    bool seen = false;
    for (int j = 0; j < done.n; j++) seen |= !strcmp(done.v[j], st->cuda.v[i]);
    if (seen) continue;
    if (!strcmp(st->cuda.v[i], "brev_u64")) { /* written with brev_u32 */
      bool have = false;
      for (int j = 0; j < done.n; j++) have |= !strcmp(done.v[j], "brev_u32");
      if (!have) {
        print_cuda_helper(g, "brev_u32");
        cs_puts(g, "\n");
        klist_push(&done, (void *)"brev_u32");
      }
    }
    klist_push(&done, st->cuda.v[i]);
    print_cuda_helper(g, st->cuda.v[i]);
    cs_puts(g, "\n");
  }
}

static void ocl_builtin(CGen *g, const KExpr *e, int prec) {
  if (e->kind == KE_SPECIAL) {
    static const char *const fn[] = {[BI_THREAD_IDX] = "get_local_id",
                                     [BI_BLOCK_IDX] = "get_group_id",
                                     [BI_BLOCK_DIM] = "get_local_size",
                                     [BI_GRID_DIM] = "get_num_groups"};
    /* size_t in OpenCL, unsigned int in the dialect (as in CUDA); no need to say so when a
     * cast to an integer type follows at once. */
    if (g->bare_special) {
      g->bare_special = false;
      cs_printf(g, "%s(%d)", fn[e->builtin], e->dim);
      return;
    }
    bool p = prec > P_UNARY;
    cs_printf(g, "%s(uint)%s(%d)%s", p ? "(" : "", fn[e->builtin], e->dim, p ? ")" : "");
    return;
  }
  KBuiltin b = e->builtin;
  bool p;
  g->discard = false;
  if (kir_builtin_is_cuda_intrinsic(b)) {
    ocl_cuda(g, e);
    return;
  }
  switch (b) {
  case BI_SYNCTHREADS: cs_puts(g, "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)"); return;
  case BI_THREADFENCE:
  case BI_THREADFENCE_BLOCK:
    cs_puts(g, "mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)");
    return;
  case BI_PRINTF: ocl_printf(g, e); return;
  case BI_ATOMIC_INC:
  case BI_ATOMIC_DEC: ocl_cuda(g, e); return;
  case BI_MIN:
  case BI_MAX:
    /* min/max on floats are fmin/fmax in CUDA: IEEE behaviour with NaN, which OpenCL's
     * float min/max do not promise. */
    if (kir_is_float(kir_elem(e->type)))
      cs_puts(g, b == BI_MIN ? "fmin(" : "fmax(");
    else
      cs_puts(g, b == BI_MIN ? "min(" : "max(");
    args(g, e, 0);
    cs_puts(g, ")");
    return;
  case BI_ABS:
    if (kir_is_float(kir_elem(e->type)) || !kir_is_signed(kir_elem(e->type))) {
      cs_puts(g, kir_is_float(kir_elem(e->type)) ? "fabs(" : "abs(");
      args(g, e, 0);
      cs_puts(g, ")");
      return;
    }
    if (kir_is_vec(e->type)) { /* a C cast between vector types is an error */
      cs_printf(g, "as_%s(abs(", cs_vec_name(g, e->type));
      args(g, e, 0);
      cs_puts(g, "))");
      return;
    }
    /* OpenCL's abs returns the unsigned type; CUDA's returns the argument's. */
    p = prec > P_UNARY;
    cs_printf(g, "%s(%s)abs(", p ? "(" : "", cs_type(g, e->type));
    args(g, e, 0);
    cs_puts(g, p ? "))" : ")");
    return;
  case BI_POPCOUNT:
  case BI_CLZ:
    if (kir_elem(e->type)->size < 4) {
      /* PoCL 3.1 counts 8- and 16-bit operands promoted to int (docs/driver-bugs.md 30): the
         bits zero-extended to uint, and clz less the 32 - width bits that adds. */
      int bits = (int)kir_elem(e->type)->size * 8, n = (int)e->type->len;
      const char *u = bits == 8 ? "uchar" : "ushort", *f = kir_builtin_info(b)->name;
      const char *less = b == BI_CLZ ? (bits == 8 ? " - 24u" : " - 16u") : "";
      if (kir_is_vec(e->type)) {
        cs_printf(g, "convert_%s(%s(convert_uint%d(as_%s%d(", cs_type(g, e->type), f, n, u, n);
        cs_expr_exact(g, e->args[0], P_ASSIGN);
        cs_printf(g, ")))%s)", less);
      } else {
        cs_printf(g, "((%s)(%s((uint)(%s)(", cs_type(g, e->type), f, u);
        cs_expr_exact(g, e->args[0], P_ASSIGN);
        cs_printf(g, "))%s))", less);
      }
      return;
    }
    /* fall through */
  case BI_MUL_HI:
    if (kir_elem(e->type)->size < 4) { /* (a narrow popcount or clz returned above) */
      /* PoCL 3.1's mul_hi of 8- and 16-bit operands gives 0 (docs/driver-bugs.md 29): their
         product in 32 bits, shifted down by their width; the high half is in the type's range. */
      const KType *et = kir_elem(e->type);
      const char *w = kir_is_signed(et) ? "int" : "uint";
      int bits = (int)et->size * 8;
      if (kir_is_vec(e->type)) {
        int n = (int)e->type->len;
        cs_printf(g, "convert_%s((convert_%s%d(", cs_type(g, e->type), w, n);
        cs_expr_exact(g, e->args[0], P_ASSIGN);
        cs_printf(g, ") * convert_%s%d(", w, n);
        cs_expr_exact(g, e->args[1], P_ASSIGN);
        cs_printf(g, ")) >> %d)", bits);
      } else {
        cs_printf(g, "((%s)(((%s)(", cs_type(g, e->type), w);
        cs_expr_exact(g, e->args[0], P_ASSIGN);
        cs_printf(g, ") * (%s)(", w);
        cs_expr_exact(g, e->args[1], P_ASSIGN);
        cs_printf(g, ")) >> %d))", bits);
      }
      return;
    }
    /* fall through */
  case BI_SELECT:
    cs_printf(g, "%s(", kir_builtin_info(b)->name);
    args(g, e, 0);
    cs_puts(g, ")");
    return;
  case BI_CONVERT_SAT:
    if (!kir_is_vec(e->type) && kir_is_float(e->args[0]->type)) {
      /* NVIDIA's OpenCL gives INT_MIN for convert_int_sat(NaN), which OpenCL defines as 0
         (docs/driver-bugs.md): a helper tests for NaN first, evaluating x once. */
      cs_printf(g, "kcc_%s(",
                need(g, "cvtsat_%s_%s", cs_scalar(g, e->type->kind),
                     cs_scalar(g, e->args[0]->type->kind)));
      args(g, e, 0);
      cs_puts(g, ")");
      return;
    }
    cs_printf(g, "convert_%s_sat(",
              kir_is_vec(e->type) ? cs_vec_name(g, e->type) : cs_scalar(g, e->type->kind));
    args(g, e, 0);
    cs_puts(g, ")");
    return;
  case BI_VLOAD:
  case BI_VSTORE:
    cs_printf(g, "%s%d(", kir_builtin_info(b)->name,
              (int)(b == BI_VLOAD ? e->type : e->args[0]->type)->len);
    args(g, e, 0);
    cs_puts(g, ")");
    return;
  case BI_IMAGE_READ:
  case BI_IMAGE_WRITE: {
    const KType *v = b == BI_IMAGE_READ ? e->type : e->args[2]->type;
    KTypeKind k = kir_elem((KType *)v)->kind;
    cs_printf(g, "%s%s(", b == BI_IMAGE_READ ? "read_image" : "write_image",
              k == KT_F32   ? "f"
              : k == KT_U32 ? "ui"
                            : "i");
    args(g, e, 0);
    cs_puts(g, ")");
    return;
  }
  case BI_IMAGE_ARRAY_SIZE: /* size_t in OpenCL C; int in KIR */
    p = prec > P_UNARY;
    cs_printf(g, "%s(int)get_image_array_size(", p ? "(" : "");
    args(g, e, 0);
    cs_puts(g, p ? "))" : ")");
    return;
  default:
    if (kir_builtin_is_image(b)) { /* the queries: OpenCL C's own names and types */
      cs_printf(g, "%s(", kir_builtin_info(b)->name);
      args(g, e, 0);
      cs_puts(g, ")");
      return;
    }
    if (kir_builtin_is_warp(b)) {
      ocl_warp(g, e);
      return;
    }
    if (kir_builtin_is_subgroup(b)) {
      ocl_subgroup(g, e);
      return;
    }
    break;
  }
  if (kir_builtin_is_atomic(b)) {
    ocl_atomic(g, e);
    return;
  }
  if (b == BI_RINT) {
    /* PoCL 3.1 folds rint() of a constant of 2^31 or more into something that drops the
     * kernel's stores (docs/driver-bugs.md). Every float of 2^23 or more (double: 2^52) is
     * an integer already, so the helper calls rint() only below that; a constant argument
     * then folds to itself. */
    bool f64 = kir_elem(e->type)->kind == KT_F64;
    OclState *st = g->be;
    if (kir_is_vec(e->type)) {
      bool seen = false;
      for (int i = 0; i < st->rint_vecs.n; i++) seen |= st->rint_vecs.v[i] == e->type;
      if (!seen) klist_push(&st->rint_vecs, e->type);
      cs_printf(g, "kcc_rint_%s(", cs_vec_name(g, e->type));
      args(g, e, 0);
      cs_puts(g, ")");
      return;
    }
    st->helpers |= f64 ? H_RINT_F64 : H_RINT_F32;
    cs_printf(g, "kcc_rint_%s(", f64 ? "f64" : "f32");
    args(g, e, 0);
    cs_puts(g, ")");
    return;
  }
  if (kir_builtin_is_math(b)) {
    /* OpenCL's math functions are overloaded on float and double under the C double names.
     * -ffast-math: the float ones that have a native_ form (device precision) take it. */
    static const KBuiltin native[] = {BI_SQRT, BI_RSQRT, BI_EXP, BI_EXP2, BI_EXP10, BI_LOG,
                                      BI_LOG2, BI_LOG10, BI_SIN, BI_COS,  BI_TAN};
    bool nat = false;
    for (size_t i = 0; (g->o->fast_math || e->approx) && kir_elem(e->type)->kind == KT_F32 &&
                       i < sizeof native / sizeof native[0];
         i++)
      nat |= native[i] == b;
    cs_printf(g, "%s%s(", nat ? "native_" : "", kir_builtin_info(b)->name);
    args(g, e, 0);
    cs_puts(g, ")");
    return;
  }
  if (kir_builtin_is_cuda_texture(b) && e->str && !*e->str)
    ; /* refused at another call of the same object */
  else if (kir_builtin_is_cuda_texture(b) && e->str)
    cs_error(g, e->loc, "%s is not available in OpenCL C output: %s", kir_builtin_info(b)->name,
             e->str);
  else if (kir_builtin_is_cuda_texture(b))
    cs_error(g, e->loc,
             "CUDA texture and surface objects (%s) are not available in OpenCL C output "
             "except on a kernel's own texture or surface parameter, in that kernel; use the "
             "PTX or CUDA C form",
             kir_builtin_info(b)->name);
  else
    cs_error(g, e->loc, "builtin '%s' has no OpenCL C equivalent", kir_builtin_info(b)->name);
}

/* ---------------------------------------------------------------- module */

/* Kernel parameters OpenCL C rejects; diagnosed here at the parameter rather than by the
 * driver at run time. */
static void check_kernel_params(CGen *g, const KFunc *f) {
  for (int i = 0; i < f->nparams; i++) {
    const KVar *p = f->params[i];
    const KType *t = p->type;
    if (t->kind == KT_PTR && t->base->kind == KT_PTR)
      cs_error(g, p->loc,
               "kernel parameter '%s' is a pointer to a pointer, which OpenCL C does "
               "not allow; pass a flat buffer and offsets instead",
               p->name);
    if (t->kind == KT_STRUCT && cs_type_contains(t, KT_PTR))
      cs_error(g, p->loc,
               "kernel parameter '%s' is a %s holding a pointer, which OpenCL C "
               "does not allow; pass the pointer as a parameter of its own",
               p->name, kir_struct_kw(t->st));
    if (t->kind == KT_STRUCT && cs_type_contains(t, KT_BOOL))
      cs_error(g, p->loc,
               "kernel parameter '%s' is a %s holding a bool, which OpenCL C "
               "does not allow (its size is up to the device); use unsigned char",
               p->name, kir_struct_kw(t->st));
  }
}

static void print_params(CGen *g, const KFunc *f) {
  cs_puts(g, "(");
  int n = 0;
  for (int i = 0; i < f->nparams; i++, n++) {
    const KVar *p = f->params[i];
    const KType *t = p->type;
    /* bool is no kernel parameter type in OpenCL C: the host passes one byte, 0 or 1. */
    if (f->is_kernel && t->kind == KT_BOOL) t = kir_type_scalar(KT_U8);
    cs_list_item(g, cs_decl(g, t, cs_param_in(g, p), p->is_const ? "const" : NULL), n == 0);
  }
  if (f->is_kernel) {
    symbol_params(g, f, &n);
    const KVar *dyn = first_dynamic(f);
    if (dyn) cs_list_item(g, cs_decl(g, shared_ptr_type(dyn), cs_var(dyn), NULL), n++ == 0);
  } else {
    for (int i = 0; i < f->shared.n; i++, n++) {
      const KVar *v = f->shared.v[i];
      cs_list_item(g, cs_decl(g, shared_ptr_type(v), cs_var(v), NULL), n == 0);
    }
    symbol_params(g, f, &n);
  }
  if (!n) cs_puts(g, "void");
  cs_puts(g, ")");
}

static void print_signature(CGen *g, const KFunc *f) {
  /* The subgroup width the source asked for: the OpenCL device's to honour (or refuse). */
  if (f->is_kernel && f->reqd_subgroup)
    cs_printf(g, "__attribute__((intel_reqd_sub_group_size(%d)))\n", f->reqd_subgroup);
  if (f->is_kernel && f->reqd_block[0])
    cs_printf(g, "__kernel __attribute__((reqd_work_group_size(%d, %d, %d))) void ",
              f->reqd_block[0], f->reqd_block[1] ? f->reqd_block[1] : 1,
              f->reqd_block[2] ? f->reqd_block[2] : 1);
  else if (f->is_kernel)
    cs_puts(g, "__kernel void ");
  else
    cs_printf(g, "static %s%s", f->is_inline ? "inline " : "",
              f->is_cold ? "__attribute__((noinline)) " : "");
  if (!f->is_kernel) cs_printf(g, "%s", cs_decl(g, f->ret, "", NULL));
  if (!f->is_kernel && f->ret->kind != KT_PTR) cs_puts(g, " ");
  cs_puts(g, cs_func(f));
  print_params(g, f);
}

/* rint() on vectors, with the scalar helper's guard (below) applied per component. */
static void print_rint_vecs(CGen *g, const KList *types) {
  for (int i = 0; i < types->n; i++) {
    const KType *t = types->v[i];
    bool f64 = t->base->kind == KT_F64;
    const char *v = cs_vec_name(g, t), *m = cs_vec_name(g, kir_type_mask((KType *)t));
    cs_printf(g,
              "static %s kcc_rint_%s(%s x) {\n"
              "  %s small = fabs(x) < %s;\n"
              "  %s r = rint(select((%s)(0), x, small));\n"
              "  return select(x, r, small);\n"
              "}\n",
              v, v, v, m, f64 ? "0x1p52" : "0x1p23f", v, v);
  }
  if (types->n) cs_puts(g, "\n");
}

static void print_helpers(CGen *g, unsigned h) {
  static const struct {
    unsigned bit;
    const char *space, *ft, *it, *cas, *asf, *asi;
  } hs[] = {
      {H_ADD_F32_GLOBAL, "global", "float", "uint", "atomic_cmpxchg", "as_float", "as_uint"},
      {H_ADD_F32_LOCAL, "local", "float", "uint", "atomic_cmpxchg", "as_float", "as_uint"},
      {H_ADD_F64_GLOBAL, "global", "double", "ulong", "atom_cmpxchg", "as_double", "as_ulong"},
      {H_ADD_F64_LOCAL, "local", "double", "ulong", "atom_cmpxchg", "as_double", "as_ulong"},
  };
  if ((h & (H_RINT_F32 | H_RINT_F64)) || ((OclState *)g->be)->rint_vecs.n)
    cs_puts(g,
            "/* rint() only where it can round: PoCL 3.1 folds rint() of a constant of 2^31 or\n"
            " * more into code that drops the kernel's stores (kcc's docs/driver-bugs.md). */\n");
  static const char *const rint_helper =
      "static %s kcc_rint_%s(%s x) {\n"
      "  int small = fabs(x) < %s;\n"
      "  %s r = rint(small ? x : 0); /* not x: rint() may run whatever the condition says */\n"
      "  return small ? r : x;\n"
      "}\n";
  if (h & H_RINT_F32) cs_printf(g, rint_helper, "float", "f32", "float", "0x1p23f", "float");
  if (h & H_RINT_F64) cs_printf(g, rint_helper, "double", "f64", "double", "0x1p52", "double");
  if (h & (H_RINT_F32 | H_RINT_F64)) cs_puts(g, "\n");
  print_rint_vecs(g, &((OclState *)g->be)->rint_vecs);
  if (!(h & (H_ADD_F32_GLOBAL | H_ADD_F32_LOCAL | H_ADD_F64_GLOBAL | H_ADD_F64_LOCAL))) return;
  cs_puts(g, "/* atomicAdd on floating point: OpenCL 1.2 has none, so a compare-and-swap on the\n"
             " * bits is retried until no other work-item wrote in between. */\n");
  for (int i = 0; i < 4; i++) {
    if (!(h & hs[i].bit)) continue;
    const char *bits = hs[i].ft[0] == 'f' ? "f32" : "f64";
    cs_printf(g,
              "static %s kcc_atomic_add_%s_%s(volatile __%s %s *p, %s v) {\n"
              "  %s old = %s(*p), seen;\n"
              "  do {\n"
              "    seen = old;\n"
              "    old = %s((volatile __%s %s *)p, seen, %s(%s(seen) + v));\n"
              "  } while (old != seen);\n"
              "  return %s(old);\n"
              "}\n\n",
              hs[i].ft, bits, hs[i].space, hs[i].space, hs[i].ft, hs[i].ft, hs[i].it, hs[i].asi,
              hs[i].cas, hs[i].space, hs[i].it, hs[i].asi, hs[i].asf, hs[i].asf);
  }
}

/* PoCL 3.1 gives every work-item the same copy of a struct passed by value, so one that the
 * kernel writes is written by all of them (docs/driver-bugs.md): such a parameter is copied
 * into a private variable first. */
static bool ocl_copy_param(const KFunc *f, const KVar *p) {
  return f->is_kernel && p->type->kind == KT_STRUCT && kir_may_write(f->body, p);
}

bool emit_opencl_c(KModule *m, const KOptions *o, KBuf *out) {
  static const CHooks hooks = {
      .builtin = ocl_builtin,
      .gvar = ocl_gvar,
      .gvar_is_deref = ocl_gvar_is_deref,
      .gvar_addr = ocl_gvar_addr,
      .call_extra = ocl_call_extra,
      .prologue = ocl_prologue,
      .copy_param = ocl_copy_param,
      .reserved = ocl_reserved,
      .kernel_reserved = ocl_kernel_reserved,
      .language = "OpenCL C",
  };
  if (!kcc_check_one_space(m, "the OpenCL C form (.cl)")) return false;
  CGen g;
  OclState st = {0};
  m = kir_module_without_image_impl(m); /* OpenCL C has its own image functions */
  m = kir_module_texobj_view(m);        /* CUDA texture objects as images */
  cs_init(&g, CT_OPENCL, m, o, &hooks);
  g.be = &st;
  cs_name_module(&g, NULL);
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    cs_name_function(&g, f);
    if (f->is_kernel) check_kernel_params(&g, f);
  }
  if (g.failed) return false;

  /* Everything after the pragmas first: what it uses decides the pragmas and helpers. */
  KBuf decls = {0}, funcs = {0}, head = {0};
  g.out = &decls;
  cs_structs(&g);
  bool any_const = false;
  for (int i = 0; i < m->globals.n; i++) {
    KVar *v = m->globals.v[i];
    if (v->kind != KV_CONSTANT || v->host_filled) continue;
    cs_printf(&g, "%s = ", cs_decl(&g, v->type, cs_var(v), "__constant"));
    cs_constant_init(&g, v);
    cs_puts(&g, ";\n");
    any_const = true;
  }
  if (any_const) cs_puts(&g, "\n");

  g.out = &funcs;
  bool protos = false;
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (f->is_kernel || !cs_called_before(m, i)) continue;
    print_signature(&g, f);
    cs_puts(&g, ";\n");
    protos = true;
  }
  if (protos) cs_puts(&g, "\n");
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (!f->body) continue;
    if (i) cs_puts(&g, "\n");
    print_signature(&g, f);
    cs_puts(&g, " ");
    cs_body(&g, f);
  }

  g.out = &head;
  bool dynamic = false;
  for (int i = 0; i < m->funcs.n; i++)
    if (((KFunc *)m->funcs.v[i])->is_kernel && first_dynamic(m->funcs.v[i])) dynamic = true;
  /* read_write images are OpenCL C 2.0's (libkcrt builds such a module as 2.0 or 3.0). */
  bool rw_images = false;
  for (int i = 0; i < m->funcs.n; i++) {
    const KFunc *f = m->funcs.v[i];
    for (int j = 0; j < f->nparams; j++)
      rw_images |=
          kir_is_image(f->params[j]->type) && f->params[j]->type->qual == (KIMG_READ | KIMG_WRITE);
  }
  cs_printf(&g, "/* %s: OpenCL C %s from kcc %s.\n", cs_basename(m->file),
            st.subgroups || rw_images ? "2.0" : "1.2", KCC_VERSION);
  cs_puts(&g, " * generated by kcc; do not edit.\n"
              " * Launch: global size = grid * block, local size = block.");
  if (dynamic)
    cs_puts(&g, "\n * A kernel that uses dynamic shared memory takes it as one extra __local\n"
                " * argument after its own, sized at launch.");
  cs_puts(&g, " */\n");
  bool pragmas = g.used_f64 || st.int64_base || st.int64_ext || !o->fp_contract || st.subgroups;
  if (pragmas) cs_puts(&g, "\n");
  if (g.used_f64) cs_puts(&g, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  if (st.int64_base) cs_puts(&g, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
  if (st.int64_ext)
    cs_puts(&g, "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n");
  if (!o->fp_contract) cs_puts(&g, "#pragma OPENCL FP_CONTRACT OFF\n");
  if (st.subgroups)
    cs_puts(&g, "/* Subgroups: OpenCL C 2.0 or newer with these extensions. */\n"
                "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n");
  if (st.warps)
    cs_puts(&g, "/* and cl_khr_subgroup_ballot, cl_khr_subgroup_shuffle (no pragma) */\n");
  for (size_t i = 0; i < sizeof sgx_names / sizeof *sgx_names; i++)
    if (st.sg_ext & (1u << i))
      cs_printf(&g,
                "#ifndef %s\n#error \"kcc: this program needs %s, which the device lacks\"\n"
                "#endif\n",
                sgx_names[i], sgx_names[i]);
  cs_puts(&g, "\n");
  if (g.samplers) {
    /* OpenCL C passes a constant sampler as a variable of the program's (OpenCL C 1.2
     * 6.12.14.1), so each one kcc folded gets one, named after its bits. */
    static const char *const addr[] = {"CLK_ADDRESS_NONE", "CLK_ADDRESS_CLAMP_TO_EDGE",
                                       "CLK_ADDRESS_CLAMP", "CLK_ADDRESS_REPEAT",
                                       "CLK_ADDRESS_MIRRORED_REPEAT"};
    for (int i = 0; i < 64; i++)
      if (g.samplers >> i & 1)
        cs_printf(&g,
                  "__constant sampler_t kcc_sampler_%d =\n    CLK_NORMALIZED_COORDS_%s | %s | "
                  "CLK_FILTER_%s;\n",
                  i, i & KSAMP_NORMALIZED ? "TRUE" : "FALSE",
                  addr[((i & KSAMP_ADDRESS_MASK) >> 1) % 5],
                  (i & KSAMP_FILTER_MASK) == KSAMP_LINEAR ? "LINEAR" : "NEAREST");
    cs_puts(&g, "\n");
  }
  KBuf helpers = {0};
  g.out = &helpers;
  print_helpers(&g, st.helpers);
  print_cuda_helpers(&g);

  kbuf_append(out, head.data, head.len);
  kbuf_append(out, decls.data, decls.len);
  kbuf_append(out, helpers.data, helpers.len);
  kbuf_append(out, funcs.data, funcs.len);
  kbuf_free(&helpers);
  kbuf_free(&head);
  kbuf_free(&decls);
  kbuf_free(&funcs);
  return !g.failed;
}
