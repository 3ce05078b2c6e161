/* builtins.c — which prelude function is which KIR builtin, and the printf format check. */
#include <string.h>

#include "fe.h"

typedef struct Name {
  const char *name;
  KBuiltin id;
} Name;

static const Name fixed[] = {
    {"__syncthreads", BI_SYNCTHREADS},
    {"barrier", BI_SYNCTHREADS},
    {"__threadfence", BI_THREADFENCE},
    {"__threadfence_block", BI_THREADFENCE_BLOCK},
    {"__threadfence_system", BI_THREADFENCE}, /* at system scope (fe_builtin_is_system) */
    {"atomicAdd", BI_ATOMIC_ADD},
    {"atomicSub", BI_ATOMIC_SUB},
    {"atomicMin", BI_ATOMIC_MIN},
    {"atomicMax", BI_ATOMIC_MAX},
    {"atomicAnd", BI_ATOMIC_AND},
    {"atomicOr", BI_ATOMIC_OR},
    {"atomicXor", BI_ATOMIC_XOR},
    {"atomicExch", BI_ATOMIC_EXCH},
    {"atomicCAS", BI_ATOMIC_CAS},
    {"printf", BI_PRINTF},
    {"min", BI_MIN},
    {"max", BI_MAX},
    {"abs", BI_ABS},
    {"labs", BI_ABS},
    {"llabs", BI_ABS},
    {"isnan", BI_ISNAN},
    {"isinf", BI_ISINF},
    {"isfinite", BI_ISFINITE},
    {"__expf", BI_EXP},
    {"__exp10f", BI_EXP10},
    {"__logf", BI_LOG},
    {"__log2f", BI_LOG2},
    {"__log10f", BI_LOG10},
    {"__sinf", BI_SIN},
    {"__cosf", BI_COS},
    {"__tanf", BI_TAN},
    {"__powf", BI_POW},
    /* CUDA's texture and surface objects (the .cu prelude declares them as templates). */
    {"tex1Dfetch", BI_CU_TEX1DFETCH},
    {"tex1D", BI_CU_TEX1D},
    {"tex2D", BI_CU_TEX2D},
    {"tex3D", BI_CU_TEX3D},
    {"tex1DLod", BI_CU_TEX1DLOD},
    {"tex2DLod", BI_CU_TEX2DLOD},
    {"tex3DLod", BI_CU_TEX3DLOD},
    {"tex1DLayered", BI_CU_TEX1DLAYERED},
    {"tex2DLayered", BI_CU_TEX2DLAYERED},
    {"tex1DLayeredLod", BI_CU_TEX1DLAYEREDLOD},
    {"tex2DLayeredLod", BI_CU_TEX2DLAYEREDLOD},
    {"surf1Dread", BI_CU_SURF1DREAD},
    {"surf2Dread", BI_CU_SURF2DREAD},
    {"surf3Dread", BI_CU_SURF3DREAD},
    {"surf1DLayeredread", BI_CU_SURF1DLAYEREDREAD},
    {"surf2DLayeredread", BI_CU_SURF2DLAYEREDREAD},
    {"surf1Dwrite", BI_CU_SURF1DWRITE},
    {"surf2Dwrite", BI_CU_SURF2DWRITE},
    {"surf3Dwrite", BI_CU_SURF3DWRITE},
    {"surf1DLayeredwrite", BI_CU_SURF1DLAYEREDWRITE},
    {"surf2DLayeredwrite", BI_CU_SURF2DLAYEREDWRITE},
};

bool fe_builtin_is_fast(const char *name) {
  if (strncmp(name, "__", 2)) return false;
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (!strcmp(fixed[i].name, name)) return kir_builtin_is_math(fixed[i].id);
  return false;
}

/* The math functions by their double name; the float name appends 'f' (prelude.c declares
 * both from its own list, which must name the same functions). */
static const Name math[] = {
    {"sqrt", BI_SQRT},         {"rsqrt", BI_RSQRT}, {"cbrt", BI_CBRT},   {"exp", BI_EXP},
    {"exp2", BI_EXP2},         {"exp10", BI_EXP10}, {"expm1", BI_EXPM1}, {"log", BI_LOG},
    {"log2", BI_LOG2},         {"log10", BI_LOG10}, {"log1p", BI_LOG1P}, {"sin", BI_SIN},
    {"cos", BI_COS},           {"tan", BI_TAN},     {"asin", BI_ASIN},   {"acos", BI_ACOS},
    {"atan", BI_ATAN},         {"atan2", BI_ATAN2}, {"sinh", BI_SINH},   {"cosh", BI_COSH},
    {"tanh", BI_TANH},         {"asinh", BI_ASINH}, {"acosh", BI_ACOSH}, {"atanh", BI_ATANH},
    {"pow", BI_POW},           {"fabs", BI_FABS},   {"fmin", BI_FMIN},   {"fmax", BI_FMAX},
    {"floor", BI_FLOOR},       {"ceil", BI_CEIL},   {"round", BI_ROUND}, {"trunc", BI_TRUNC},
    {"rint", BI_RINT},         {"fmod", BI_FMOD},   {"fma", BI_FMA},     {"hypot", BI_HYPOT},
    {"copysign", BI_COPYSIGN}, {"erf", BI_ERF},     {"erfc", BI_ERFC},   {"tgamma", BI_TGAMMA},
    {"lgamma", BI_LGAMMA},
};

/* The length of an atomic's scope suffix: _system (system scope) or _block (block scope, which
 * the plain atomic's device scope includes); 0 for none. */
static size_t scope_suffix(const char *name) {
  size_t n = name ? strlen(name) : 0;
  if (n <= 6 || strncmp(name, "atomic", 6)) return 0;
  if (n > 7 && !strcmp(name + n - 7, "_system")) return 7;
  return !strcmp(name + n - 6, "_block") ? 6 : 0;
}

bool fe_builtin_is_system(const char *name) {
  return scope_suffix(name) == 7 || (name && !strcmp(name, "__threadfence_system"));
}

KBuiltin fe_builtin_lookup(const char *name) {
  if (!name) return BI_NONE;
  size_t scope = scope_suffix(name);
  if (scope) { /* atomicAdd_system: atomicAdd at system scope */
    char base[32];
    size_t n = strlen(name) - scope;
    if (n >= sizeof base) return BI_NONE;
    memcpy(base, name, n);
    base[n] = 0;
    KBuiltin b = !strcmp(base, "atomicInc")   ? BI_ATOMIC_INC
                 : !strcmp(base, "atomicDec") ? BI_ATOMIC_DEC
                                              : fe_builtin_lookup(base);
    return kir_builtin_is_atomic(b) ? b : BI_NONE;
  }
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    if (strcmp(fixed[i].name, name) == 0) return fixed[i].id;
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof math / sizeof *math; i++) {
    size_t m = strlen(math[i].name);
    if (strncmp(math[i].name, name, m) == 0 && (n == m || (n == m + 1 && name[m] == 'f')))
      return math[i].id;
  }
  return BI_NONE;
}

/* A copy of e for each component a vector conversion prints (a tree per use, as KIR's passes
 * expect), or NULL when e has side effects, which printing a component each would repeat. */
static KExpr *dup_pure(const KExpr *e) {
  if (!e) return NULL;
  if (e->kind == KE_ASSIGN || e->kind == KE_INCDEC || e->kind == KE_CALL ||
      (e->kind == KE_BUILTIN && !kir_builtin_is_math(e->builtin)))
    return NULL;
  KExpr *d = kir_alloc(sizeof *d);
  *d = *e;
  const KExpr *sub[3] = {e->a, e->b, e->c};
  KExpr **dst[3] = {&d->a, &d->b, &d->c};
  for (int i = 0; i < 3; i++)
    if (sub[i] && !(*dst[i] = dup_pure(sub[i]))) return NULL;
  if (e->nargs) {
    d->args = kir_alloc(sizeof(KExpr *) * (size_t)e->nargs);
    for (int i = 0; i < e->nargs; i++)
      if (e->args[i] && !(d->args[i] = dup_pure(e->args[i]))) return NULL;
  }
  return d;
}

/* OpenCL C's vector conversions (`%v4hlf`, `%v2d`...): the conversion repeated for each
 * component, separated by commas, each component an argument of its own (floats as double,
 * narrow integers as int, as C's argument promotions would make them). Rewrites the format
 * (args[0]) and the arguments of the printf call e; false after an error. */
bool fe_expand_printf_vectors(KExpr *e, KLoc loc) {
  KExpr *f = e->args[0];
  const char *fmt = f->str;
  size_t len = f->len;
  if (!memchr(fmt, '%', len)) return true;
  KBuf out = {0};
  KList args = {0};
  klist_push(&args, f);
  int next = 1; /* the argument the next conversion takes */
  bool any = false, ok = true;
  for (size_t i = 0; i < len; i++) {
    if (fmt[i] != '%') {
      kbuf_append(&out, fmt + i, 1);
      continue;
    }
    size_t start = i++;
    if (i < len && fmt[i] == '%') {
      kbuf_puts(&out, "%%");
      continue;
    }
    while (i < len && strchr("-+ #0.123456789*", fmt[i])) i++;
    size_t pre_end = i; /* flags, width and precision: kept for each component */
    int vlen = 0;
    if (i < len && fmt[i] == 'v') {
      for (i++; i < len && fmt[i] >= '0' && fmt[i] <= '9'; i++) vlen = vlen * 10 + fmt[i] - '0';
    }
    size_t lstart = i;
    while (i < len && strchr("hljztL", fmt[i])) i++;
    size_t llen = i - lstart;
    char conv = i < len ? fmt[i] : 0;
    KExpr *a = next < e->nargs ? e->args[next] : NULL;
    next++;
    if (!vlen) {
      kbuf_append(&out, fmt + start, (i < len ? i + 1 : len) - start);
      if (a) klist_push(&args, a);
      continue;
    }
    any = true;
    const char *lm = fmt + lstart;
    int want_bits = llen == 2 && lm[0] == 'h' && lm[1] == 'h'   ? 8
                    : llen == 1 && lm[0] == 'h'                 ? 16
                    : llen == 2 && lm[0] == 'h' && lm[1] == 'l' ? 32
                    : llen == 1 && lm[0] == 'l'                 ? 64
                    : llen == 0                                 ? 32 /* as hl, leniently */
                                                                : 0;
    bool is_float = conv && strchr("fFeEgGaA", conv), is_int = conv && strchr("diouxX", conv);
    int spelled = (int)((i < len ? i + 1 : len) - start);
    KType *t = a ? a->type : NULL, *el = t ? kir_elem(t) : NULL;
    if ((vlen != 2 && vlen != 3 && vlen != 4 && vlen != 8 && vlen != 16) || !want_bits ||
        (!is_float && !is_int) || (is_float && want_bits < 16)) { /* %v2hf: half */
      diag_error(loc,
                 "printf conversion '%.*s' is not a valid vector conversion (OpenCL C: %%vN "
                 "with N 2, 3, 4, 8 or 16, a length hh, h, hl or l, then the conversion)",
                 spelled, fmt + start);
      ok = false;
    } else if (!t || !kir_is_vec(t) || t->len != vlen || el->size * 8 != want_bits ||
               (is_float != kir_is_float(el))) {
      diag_error(loc, "printf conversion '%.*s' needs a %d-component vector of %d-bit %s, not '%s'",
                 spelled, fmt + start, vlen, want_bits, is_float ? "floats" : "integers",
                 t ? kir_type_str(t) : "no argument");
      ok = false;
    }
    if (!ok) break;
    for (int c = 0; c < vlen; c++) {
      if (c) kbuf_puts(&out, ",");
      kbuf_append(&out, fmt + start, pre_end - start);
      if (want_bits == 64 && is_int) kbuf_puts(&out, "l");
      kbuf_append(&out, &conv, 1);
      KExpr *x = kir_expr(KE_SWIZZLE, el, a->loc);
      x->a = dup_pure(a);
      if (!x->a) {
        diag_error(a->loc,
                   "the vector printf prints with '%.*s' must have no side effects (it "
                   "is read once per component): print a variable",
                   spelled, fmt + start);
        ok = false;
        break;
      }
      x->swz[0] = (uint8_t)c;
      x->nswz = 1;
      KType *to = is_float                                  ? kir_type_scalar(KT_F64)
                  : el->size >= 4                           ? el
                  : el->kind == KT_U8 || el->kind == KT_U16 ? kir_type_scalar(KT_U32)
                                                            : kir_type_scalar(KT_I32);
      klist_push(&args, fe_convert(x, to));
    }
    if (!ok) break;
  }
  if (!ok || !any) {
    kbuf_free(&out);
    return ok;
  }
  for (; next < e->nargs; next++) klist_push(&args, e->args[next]);
  KExpr *nf = kir_expr(KE_STR, f->type, f->loc);
  nf->str = kir_strndup(out.data ? out.data : "", out.len);
  nf->len = out.len;
  kbuf_free(&out);
  args.v[0] = nf;
  e->args = (KExpr **)args.v;
  e->nargs = args.n;
  return true;
}

/* Each conversion of a checked format (fe_check_printf_format) against its argument: what the
 * back ends pass through vprintf / OpenCL's printf must be what the conversion reads, or the
 * output is garbage (an int for %f, a number for %s): an error naming both. Arguments arrive
 * promoted (float as double, char and short as int). */
bool fe_check_printf_args(const KExpr *e, KLoc loc) {
  const char *fmt = e->args[0]->str;
  size_t len = e->args[0]->len;
  int next = 1;
  bool ok = true;
  for (size_t i = 0; i < len; i++) {
    if (fmt[i] != '%') continue;
    size_t start = i++;
    if (i < len && fmt[i] == '%') continue;
    while (i < len && strchr("-+ #0.123456789", fmt[i])) i++;
    size_t lstart = i;
    while (i < len && strchr("hljztL", fmt[i])) i++;
    bool wide = i > lstart; /* l or ll: 64 bits (the format check allows no other) */
    char conv = i < len ? fmt[i] : 0;
    int spelled = (int)(i + 1 - start);
    if (next >= e->nargs) {
      diag_error(loc, "printf conversion '%.*s' has no argument", spelled, fmt + start);
      return false;
    }
    const KExpr *a = e->args[next++];
    const KType *t = a->type;
    const char *want = NULL;
    if (strchr("diouxXc", conv)) {
      if (!kir_is_int(t) || t->kind == KT_BOOL)
        want = wide ? "a 64-bit integer" : "an integer";
      else if (conv != 'c' && (t->size == 8) != wide)
        want = wide ? "a 64-bit integer (long)" : "an integer of 32 bits or fewer (use %l…)";
    } else if (strchr("fFeEgGaA", conv)) {
      if (!kir_is_float(t)) want = "a floating-point value";
    } else if (conv == 's') {
      /* Any char pointer: CUDA prints what it points to (the OpenCL forms refuse a string
         that is not a literal: kir_printf_nonliteral_string). */
      const KExpr *s = a;
      while (s->kind == KE_CAST) s = s->a;
      if (s->kind != KE_STR && (t->kind != KT_PTR || t->base->size != 1 || !kir_is_int(t->base)))
        want = "a string (a char pointer)";
    } else if (conv == 'p') {
      if (t->kind != KT_PTR) want = "a pointer";
    }
    if (want) {
      diag_error(a->loc.line ? a->loc : loc,
                 "printf conversion '%.*s' needs %s, and argument %d is '%s'", spelled, fmt + start,
                 want, next - 1, kir_type_str((KType *)t));
      ok = false;
    }
  }
  return ok;
}

/* The conversions every back end can print: the CUDA and OpenCL printf common subset. */
bool fe_check_printf_format(const char *fmt, size_t len, KLoc loc) {
  bool ok = true;
  for (size_t i = 0; i < len; i++) {
    if (fmt[i] != '%') continue;
    size_t start = i++;
    if (i < len && fmt[i] == '%') continue;
    bool star = false;
    while (i < len && fmt[i] && strchr("-+ #0", fmt[i])) i++;
    while (i < len && ((fmt[i] >= '0' && fmt[i] <= '9') || fmt[i] == '*')) star |= fmt[i++] == '*';
    if (i < len && fmt[i] == '.') {
      i++;
      while (i < len && ((fmt[i] >= '0' && fmt[i] <= '9') || fmt[i] == '*'))
        star |= fmt[i++] == '*';
    }
    size_t lstart = i;
    while (i < len && fmt[i] && strchr("hljztL", fmt[i])) i++;
    size_t llen = i - lstart;
    const char *lm = fmt + lstart;
    bool no_len = llen == 0;
    bool int_len =
        no_len || (llen == 1 && lm[0] == 'l') || (llen == 2 && lm[0] == 'l' && lm[1] == 'l');
    char conv = i < len ? fmt[i] : 0;
    bool good = false;
    if (star)
      good = false; /* '*' takes its value from an argument: not in every back end */
    else if (conv && strchr("diuxXo", conv))
      good = int_len;
    else if (conv && strchr("fegcsp", conv))
      good = no_len;
    if (!good) {
      size_t end = i < len ? i + 1 : len;
      /* Quotes the whole conversion as written: '%hd', '%5.2Lf', '%n'. */
      diag_error(loc, "printf conversion '%.*s' is not supported in kcc kernels",
                 (int)(end - start), fmt + start);
      ok = false;
      if (i >= len) break;
    }
  }
  return ok;
}

/* ---------------------------------------------------------------- CUDA intrinsics */

static KExpr *node1(KBuiltin b, KType *t, KExpr *x, KLoc loc) {
  KExpr *e = kir_builtin(b, t, 1, loc);
  e->args[e->nargs++] = x;
  return e;
}

/* Intrinsics that are one KIR builtin with the call's own arguments. */
static const Name nodes[] = {
    {"__ffs", BI_FFS},
    {"__ffsll", BI_FFS},
    {"__brev", BI_BREV},
    {"__brevll", BI_BREV},
    {"__byte_perm", BI_BYTE_PERM},
    {"__sad", BI_SAD},
    {"__usad", BI_SAD},
    {"__fdividef", BI_FDIVIDE},
    {"__fadd_rn", BI_FADD_RN},
    {"__dadd_rn", BI_FADD_RN},
    {"__fsub_rn", BI_FSUB_RN},
    {"__dsub_rn", BI_FSUB_RN},
    {"__fmul_rn", BI_FMUL_RN},
    {"__dmul_rn", BI_FMUL_RN},
    {"clock", BI_CLOCK},
    {"clock64", BI_CLOCK64},
    {"__trap", BI_TRAP},
    {"__nanosleep", BI_NANOSLEEP},
    {"__mulhi", BI_MUL_HI},
    {"__umulhi", BI_MUL_HI},
    {"__mul64hi", BI_MUL_HI},
    {"__umul64hi", BI_MUL_HI},
    {"__fsqrt_rn", BI_SQRT},
    {"__dsqrt_rn", BI_SQRT},
    {"atomicInc", BI_ATOMIC_INC},
    {"atomicDec", BI_ATOMIC_DEC},
    {"__shfl_sync", BI_SHFL},
    {"__shfl_up_sync", BI_SHFL_UP},
    {"__shfl_down_sync", BI_SHFL_DOWN},
    {"__shfl_xor_sync", BI_SHFL_XOR},
    {"__ballot_sync", BI_BALLOT},
    {"__any_sync", BI_ANY},
    {"__all_sync", BI_ALL},
    {"__activemask", BI_ACTIVEMASK},
    {"__match_any_sync", BI_MATCH_ANY},
    {"__reduce_add_sync", BI_REDUCE_ADD},
    {"__reduce_min_sync", BI_REDUCE_MIN},
    {"__reduce_max_sync", BI_REDUCE_MAX},
    {"__reduce_and_sync", BI_REDUCE_AND},
    {"__reduce_or_sync", BI_REDUCE_OR},
    {"__reduce_xor_sync", BI_REDUCE_XOR},
    {"__syncwarp", BI_SYNCWARP},
};

/* The rounding of __<from>2<to>_<mode>: the builtin that rounds first (BI_NONE: none). */
static bool conversion_mode(const char *name, KBuiltin *round) {
  static const char *const from[] = {"__float2", "__double2", "__int2",   "__uint2",  "__ll2",
                                     "__ull2",   "__half2",   "__short2", "__ushort2"};
  bool known = false;
  for (size_t i = 0; i < sizeof from / sizeof *from; i++)
    known |= strncmp(name, from[i], strlen(from[i])) == 0;
  size_t n = strlen(name);
  if (!known || n < 4 || name[n - 3] != '_' || name[n - 2] != 'r') return false;
  switch (name[n - 1]) {
  case 'n': *round = BI_RINT; return true;
  case 'z': *round = BI_NONE; return true;
  case 'u': *round = BI_CEIL; return true;
  case 'd': *round = BI_FLOOR; return true;
  default: return false;
  }
}

KExpr *fe_cuda_intrinsic(FeCtx *fe, CXCursor call, const char *name, KLoc loc) {
  if (!name || name[0] == 0) return NULL;
  bool under = name[0] == '_' && name[1] == '_';
  if (!under && strcmp(name, "clock") && strcmp(name, "clock64") && strcmp(name, "atomicInc") &&
      strcmp(name, "atomicDec"))
    return NULL;
  int n = clang_Cursor_getNumArguments(call);
  if (n < 0 || n > 4) return NULL;
  KBuiltin b = BI_NONE, round = BI_NONE;
  for (size_t i = 0; i < sizeof nodes / sizeof *nodes; i++)
    if (strcmp(nodes[i].name, name) == 0) b = nodes[i].id;
  bool bits = !strcmp(name, "__int_as_float") || !strcmp(name, "__float_as_int") ||
              !strcmp(name, "__uint_as_float") || !strcmp(name, "__float_as_uint") ||
              !strcmp(name, "__double_as_longlong") || !strcmp(name, "__longlong_as_double") ||
              !strcmp(name, "__half_as_ushort") || !strcmp(name, "__ushort_as_half") ||
              !strcmp(name, "__half_as_short") || !strcmp(name, "__short_as_half");
  bool conv = conversion_mode(name, &round);
  static const char *const others[] = {"__mul24",   "__umul24",  "__popc",      "__popcll",
                                       "__clz",     "__clzll",   "__saturatef", "__frcp_rn",
                                       "__drcp_rn", "__fdiv_rn", "__ddiv_rn",   NULL};
  bool other = false;
  for (const char *const *o = others; *o; o++) other |= strcmp(*o, name) == 0;
  if (b == BI_NONE && !bits && !conv && !other) return NULL;
  KType *t = fe_type(fe, clang_getCursorType(call), loc);
  if (!t) return fe_poison(loc);
  KExpr *a[4] = {0};
  for (int i = 0; i < n; i++) a[i] = fe_expr(fe, clang_Cursor_getArgument(call, i));
  KType *i32 = kir_type_scalar(KT_I32), *u32 = kir_type_scalar(KT_U32);
  if (b != BI_NONE) {
    bool shfl = b >= BI_SHFL && b <= BI_SHFL_XOR;
    KExpr *e = kir_builtin(b, t, 4, loc);
    for (int i = 0; i < n; i++) e->args[e->nargs++] = a[i];
    if (shfl && n == 3) e->args[e->nargs++] = fe_int_const(i32, 32, loc); /* width: warpSize */
    if (b == BI_SYNCWARP && n == 0) e->args[e->nargs++] = fe_int_const(u32, 0xffffffffu, loc);
    if (shfl && e->args[3]->kind == KE_ICONST) {
      int64_t w = (int64_t)e->args[3]->ival;
      if (w < 1 || w > 32 || (w & (w - 1))) {
        diag_error(loc, "%s: width must be a power of two from 1 to 32, not %lld", name,
                   (long long)w);
        return fe_poison(loc);
      }
    }
    return e;
  }
  if (bits) {
    KExpr *e = kir_expr(KE_BITCAST, t, loc);
    e->a = a[0];
    return e;
  }
  if (conv) {
    KExpr *x = a[0];
    if (kir_is_float(x->type) && kir_is_int(t)) {
      /* PTX's cvt.r*i rounds, then saturates (NaN gives 0): convert_T_sat of the rounded. */
      if (round != BI_NONE) x = node1(round, x->type, x, loc);
      return node1(BI_CONVERT_SAT, t, x, loc);
    }
    if (t->kind == KT_F16 && (x->type->kind == KT_F32 || kir_is_int(x->type)) && round != BI_RINT) {
      /* __float2half_rz & co. */
      return fe_half_round(fe, x, round == BI_NONE ? 2 : round == BI_CEIL ? 3 : 4, loc);
    }
    return fe_convert(x, t);
  }
  if (!strcmp(name, "__mul24") || !strcmp(name, "__umul24")) {
    /* The low 24 bits of each (sign-extended for __mul24), multiplied: the low 32 bits. */
    for (int i = 0; i < 2; i++) {
      if (kir_is_signed(t)) {
        KExpr *eight = fe_int_const(i32, 8, loc);
        a[i] = kir_binary(KB_SHR, t, kir_binary(KB_SHL, t, a[i], eight, loc),
                          fe_int_const(i32, 8, loc), loc);
      } else {
        a[i] = kir_binary(KB_AND, t, a[i], fe_int_const(t, 0xffffff, loc), loc);
      }
    }
    return kir_binary(KB_MUL, t, a[0], a[1], loc);
  }
  if (!strcmp(name, "__popc") || !strcmp(name, "__popcll"))
    return fe_convert(node1(BI_POPCOUNT, a[0]->type, a[0], loc), t);
  if (!strcmp(name, "__clz") || !strcmp(name, "__clzll"))
    return fe_convert(node1(BI_CLZ, a[0]->type, a[0], loc), t);
  if (!strcmp(name, "__saturatef")) {
    /* fmaxf(NaN, 0) is 0, as __saturatef(NaN) is. */
    KExpr *zero = kir_expr(KE_FCONST, t, loc), *one = kir_expr(KE_FCONST, t, loc);
    one->fval = 1.0;
    KExpr *mx = kir_builtin(BI_FMAX, t, 2, loc);
    mx->args[mx->nargs++] = a[0];
    mx->args[mx->nargs++] = zero;
    KExpr *mn = kir_builtin(BI_FMIN, t, 2, loc);
    mn->args[mn->nargs++] = mx;
    mn->args[mn->nargs++] = one;
    return mn;
  }
  if (!strcmp(name, "__frcp_rn") || !strcmp(name, "__drcp_rn")) {
    KExpr *one = kir_expr(KE_FCONST, t, loc);
    one->fval = 1.0;
    return kir_binary(KB_DIV, t, one, a[0], loc);
  }
  /* __fdiv_rn, __ddiv_rn: IEEE division, which KIR's is (no fma contracts a division). */
  return kir_binary(KB_DIV, t, a[0], a[1], loc);
}
