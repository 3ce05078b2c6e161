/* llvm_builtins.c — builtins to LLVM: special registers, barriers and fences, atomics,
 * printf (vprintf), integer min/max/abs and math.
 *
 * Math that PTX does exactly in hardware (sqrt, fabs, fmin/fmax, rounding, fma, copysign)
 * goes through LLVM intrinsics, which NVPTX selects to single instructions; everything
 * transcendental calls CUDA's libdevice (__nv_*), linked in by llvm.c only when used. */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "llvm_gen.h"

/* ---------------------------------------------------------------- special registers */

LLVMValueRef lg_special(LG *g, KExpr *e) {
  const char *reg;
  switch (e->builtin) {
  case BI_THREAD_IDX: reg = "tid"; break;
  case BI_BLOCK_IDX: reg = "ctaid"; break;
  case BI_BLOCK_DIM: reg = "ntid"; break;
  case BI_GRID_DIM: reg = "nctaid"; break;
  default:
    diag_ice(e->loc, "LLVM back end: special register %d", (int)e->builtin);
    return LLVMConstInt(g->t_i32, 0, 0);
  }
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s.%c", reg, "xyz"[e->dim % 3]);
  return lg_call(g, lg_intrinsic(g, name, NULL, 0), NULL, 0);
}

/* ---------------------------------------------------------------- atomics */

static LLVMValueRef gen_atomic(LG *g, KExpr *e) {
  const KType *t = e->type;
  LLVMValueRef p = lg_expr(g, e->args[0]);
  LLVMValueRef v = lg_expr(g, e->args[1]);
  /* CUDA's atomics are relaxed (monotonic) at device scope; LLVM's default (system)
   * scope emits the same PTX atom instructions. */
  if (e->builtin == BI_ATOMIC_CAS) {
    LLVMValueRef nv = lg_expr(g, e->args[2]);
    LLVMTypeRef ity = NULL;
    if (kir_is_float(t)) { /* cmpxchg wants integers: compare the bits */
      ity = t->kind == KT_F32 ? g->t_i32 : g->t_i64;
      v = LLVMBuildBitCast(g->b, v, ity, "");
      nv = LLVMBuildBitCast(g->b, nv, ity, "");
    }
    LLVMValueRef x = LLVMBuildAtomicCmpXchg(g->b, p, v, nv, LLVMAtomicOrderingMonotonic,
                                            LLVMAtomicOrderingMonotonic, 0);
    LLVMValueRef old = LLVMBuildExtractValue(g->b, x, 0, "old");
    return ity ? LLVMBuildBitCast(g->b, old, lg_type(g, t), "") : old;
  }
  bool fp = kir_is_float(t), sg = kir_is_signed(t);
  LLVMAtomicRMWBinOp op;
  switch (e->builtin) {
  case BI_ATOMIC_ADD: op = fp ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd; break;
  case BI_ATOMIC_SUB: op = fp ? LLVMAtomicRMWBinOpFSub : LLVMAtomicRMWBinOpSub; break;
  case BI_ATOMIC_MIN:
    op = fp ? LLVMAtomicRMWBinOpFMin : sg ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin;
    break;
  case BI_ATOMIC_MAX:
    op = fp ? LLVMAtomicRMWBinOpFMax : sg ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax;
    break;
  case BI_ATOMIC_AND: op = LLVMAtomicRMWBinOpAnd; break;
  case BI_ATOMIC_OR: op = LLVMAtomicRMWBinOpOr; break;
  case BI_ATOMIC_XOR: op = LLVMAtomicRMWBinOpXor; break;
  default: op = LLVMAtomicRMWBinOpXchg; break;
  }
  return LLVMBuildAtomicRMW(g->b, op, p, v, LLVMAtomicOrderingMonotonic, 0);
}

/* ---------------------------------------------------------------- printf */

/* CUDA's device printf: vprintf(format, args) where args points to the arguments laid out
 * one after another at their natural alignment (a struct of the argument types). */
static LLVMValueRef gen_printf(LG *g, KExpr *e) {
  KExpr *fmt = e->args[0];
  LLVMValueRef f = lg_expr(g, fmt);
  f = lg_cast_as(g, f, fmt->type->kind == KT_PTR ? lg_as(fmt->type->as) : 0, 0);
  int n = e->nargs - 1;
  LLVMValueRef buf = LLVMConstNull(g->t_ptr0);
  if (n > 0) {
    LLVMValueRef *vals = calloc((size_t)n, sizeof *vals);
    LLVMTypeRef *tys = calloc((size_t)n, sizeof *tys);
    for (int i = 0; i < n; i++) {
      KExpr *a = e->args[i + 1];
      const KType *t = a->type;
      LLVMValueRef v = lg_expr(g, a);
      /* Default argument promotions, in case the front end left any undone. */
      if (t->kind == KT_F32)
        v = LLVMBuildFPExt(g->b, v, g->t_f64, "");
      else if (kir_is_int(t) && t->size < 4)
        v = kir_is_signed(t) ? LLVMBuildSExt(g->b, v, g->t_i32, "")
                             : LLVMBuildZExt(g->b, v, g->t_i32, "");
      else if (t->kind == KT_PTR)
        v = lg_cast_as(g, v, lg_as(t->as), 0); /* %s, %p: generic */
      vals[i] = v;
      tys[i] = LLVMTypeOf(v);
    }
    LLVMTypeRef st = LLVMStructTypeInContext(g->ctx, tys, (unsigned)n, 0);
    buf = lg_alloca_type(g, st, 8, "printf.args");
    for (int i = 0; i < n; i++) {
      LLVMValueRef slot = LLVMBuildStructGEP2(g->b, st, buf, (unsigned)i, "");
      LLVMValueRef s = LLVMBuildStore(g->b, vals[i], slot);
      LLVMSetAlignment(s, (unsigned)LLVMABIAlignmentOfType(g->td, tys[i]));
    }
    free(vals);
    free(tys);
  }
  LLVMTypeRef pt[2] = {g->t_ptr0, g->t_ptr0};
  LLVMValueRef vp = lg_decl(g, "vprintf", LLVMFunctionType(g->t_i32, pt, 2, 0));
  LLVMValueRef args[2] = {f, buf};
  LLVMValueRef r = lg_call(g, vp, args, 2);
  return lg_convert(g, r, kir_type_scalar(KT_I32), e->type);
}

/* ---------------------------------------------------------------- math */

typedef struct MathMap {
  KBuiltin id;
  const char *intrinsic; /* exact in hardware: an LLVM intrinsic */
  const char *nv;        /* else libdevice: __nv_<nv> (double), __nv_<nv>f (float) */
  const char *fast;      /* -ffast-math, float: libdevice's approximate version */
} MathMap;

static const MathMap math_map[] = {
    {BI_SQRT, "llvm.sqrt", NULL, NULL},
    {BI_FABS, "llvm.fabs", NULL, NULL},
    {BI_FMIN, "llvm.minnum", NULL, NULL},
    {BI_FMAX, "llvm.maxnum", NULL, NULL},
    {BI_FLOOR, "llvm.floor", NULL, NULL},
    {BI_CEIL, "llvm.ceil", NULL, NULL},
    {BI_TRUNC, "llvm.trunc", NULL, NULL},
    {BI_RINT, "llvm.rint", NULL, NULL},
    {BI_ROUND, "llvm.round", NULL, NULL},
    {BI_FMA, "llvm.fma", NULL, NULL},
    {BI_COPYSIGN, "llvm.copysign", NULL, NULL},
    {BI_RSQRT, NULL, "rsqrt", NULL},
    {BI_CBRT, NULL, "cbrt", NULL},
    {BI_EXP, NULL, "exp", "__nv_fast_expf"},
    {BI_EXP2, NULL, "exp2", NULL},
    {BI_EXP10, NULL, "exp10", "__nv_fast_exp10f"},
    {BI_EXPM1, NULL, "expm1", NULL},
    {BI_LOG, NULL, "log", "__nv_fast_logf"},
    {BI_LOG2, NULL, "log2", "__nv_fast_log2f"},
    {BI_LOG10, NULL, "log10", "__nv_fast_log10f"},
    {BI_LOG1P, NULL, "log1p", NULL},
    {BI_SIN, NULL, "sin", "__nv_fast_sinf"},
    {BI_COS, NULL, "cos", "__nv_fast_cosf"},
    {BI_TAN, NULL, "tan", "__nv_fast_tanf"},
    {BI_ASIN, NULL, "asin", NULL},
    {BI_ACOS, NULL, "acos", NULL},
    {BI_ATAN, NULL, "atan", NULL},
    {BI_ATAN2, NULL, "atan2", NULL},
    {BI_SINH, NULL, "sinh", NULL},
    {BI_COSH, NULL, "cosh", NULL},
    {BI_TANH, NULL, "tanh", NULL}, /* __nv_fast_tanhf needs an intrinsic LLVM 19 lacks */
    {BI_ASINH, NULL, "asinh", NULL},
    {BI_ACOSH, NULL, "acosh", NULL},
    {BI_ATANH, NULL, "atanh", NULL},
    {BI_POW, NULL, "pow", "__nv_fast_powf"},
    {BI_FMOD, NULL, "fmod", NULL},
    {BI_HYPOT, NULL, "hypot", NULL},
    {BI_ERF, NULL, "erf", NULL},
    {BI_ERFC, NULL, "erfc", NULL},
    {BI_TGAMMA, NULL, "tgamma", NULL},
    {BI_LGAMMA, NULL, "lgamma", NULL},
};

static const MathMap *find_math(KBuiltin id) {
  for (size_t i = 0; i < sizeof math_map / sizeof math_map[0]; i++)
    if (math_map[i].id == id) return &math_map[i];
  return NULL;
}

static LLVMValueRef call_intrinsic(LG *g, const char *name, LLVMTypeRef ty, LLVMValueRef *a,
                                   unsigned n) {
  return lg_fp(g, lg_call(g, lg_intrinsic(g, name, &ty, 1), a, n));
}

/* isnan/isinf/isfinite: compares on the value itself, without fast-math flags, so they keep
 * working under -ffast-math as nvcc's do. */
static LLVMValueRef gen_classify(LG *g, KExpr *e, LLVMValueRef x) {
  LLVMTypeRef ty = LLVMTypeOf(x);
  LLVMValueRef c;
  if (e->builtin == BI_ISNAN) {
    c = LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, "");
  } else {
    LLVMValueRef ax = lg_call(g, lg_intrinsic(g, "llvm.fabs", &ty, 1), &x, 1);
    LLVMValueRef inf = LLVMConstReal(ty, __builtin_inf());
    c = LLVMBuildFCmp(g->b, e->builtin == BI_ISINF ? LLVMRealOEQ : LLVMRealONE, ax, inf, "");
  }
  return LLVMBuildZExt(g->b, c, lg_type(g, e->type), "");
}

static LLVMValueRef gen_math(LG *g, KExpr *e, LLVMValueRef *a) {
  if (e->builtin == BI_ISNAN || e->builtin == BI_ISINF || e->builtin == BI_ISFINITE)
    return gen_classify(g, e, a[0]);
  const MathMap *m = find_math(e->builtin);
  const KType *t = e->type;
  LLVMTypeRef ty = lg_type(g, t);
  if (!m || !kir_is_float(t)) {
    diag_ice(e->loc, "LLVM back end: math builtin %d on '%s'", (int)e->builtin, kir_type_str(t));
    return LLVMGetUndef(ty);
  }
  if (m->intrinsic) return call_intrinsic(g, m->intrinsic, ty, a, (unsigned)e->nargs);
  bool f32 = t->kind == KT_F32;
  char name[64];
  if (f32 && g->o->fast_math && m->fast)
    snprintf(name, sizeof name, "%s", m->fast);
  else
    snprintf(name, sizeof name, "__nv_%s%s", m->nv, f32 ? "f" : "");
  if (!g->needs_libdevice) {
    g->needs_libdevice = true;
    snprintf(g->libdevice_user_buf, sizeof g->libdevice_user_buf, "%s%s", m->nv, f32 ? "f" : "");
    g->libdevice_user = g->libdevice_user_buf;
    g->libdevice_loc = e->loc;
  }
  LLVMTypeRef pt[3] = {ty, ty, ty};
  LLVMValueRef fn = lg_decl(g, name, LLVMFunctionType(ty, pt, (unsigned)e->nargs, 0));
  return lg_fp(g, lg_call(g, fn, a, (unsigned)e->nargs));
}

/* min/max/abs typed by their result: integer intrinsics or minnum/maxnum/fabs. */
static LLVMValueRef gen_minmax(LG *g, KExpr *e, LLVMValueRef *a) {
  const KType *t = e->type;
  LLVMTypeRef ty = lg_type(g, t);
  if (kir_is_float(t)) {
    const char *n = e->builtin == BI_MIN   ? "llvm.minnum"
                    : e->builtin == BI_MAX ? "llvm.maxnum"
                                           : "llvm.fabs";
    return call_intrinsic(g, n, ty, a, e->builtin == BI_ABS ? 1 : 2);
  }
  bool sg = kir_is_signed(t);
  if (e->builtin == BI_ABS) {
    if (!sg) return a[0];
    LLVMValueRef args[2] = {a[0], LLVMConstInt(g->t_i1, 0, 0)}; /* abs(INT_MIN) wraps, as CUDA */
    return lg_call(g, lg_intrinsic(g, "llvm.abs", &ty, 1), args, 2);
  }
  const char *n =
      e->builtin == BI_MIN ? (sg ? "llvm.smin" : "llvm.umin") : (sg ? "llvm.smax" : "llvm.umax");
  return lg_call(g, lg_intrinsic(g, n, &ty, 1), a, 2);
}

LLVMValueRef lg_builtin(LG *g, KExpr *e) {
  switch (e->builtin) {
  case BI_THREAD_IDX:
  case BI_BLOCK_IDX:
  case BI_BLOCK_DIM:
  case BI_GRID_DIM: return lg_special(g, e);
  case BI_SYNCTHREADS:
    lg_call(g, lg_intrinsic(g, "llvm.nvvm.barrier0", NULL, 0), NULL, 0);
    return NULL;
  case BI_THREADFENCE:
    lg_call(g, lg_intrinsic(g, "llvm.nvvm.membar.gl", NULL, 0), NULL, 0);
    return NULL;
  case BI_THREADFENCE_BLOCK:
    lg_call(g, lg_intrinsic(g, "llvm.nvvm.membar.cta", NULL, 0), NULL, 0);
    return NULL;
  case BI_PRINTF: return gen_printf(g, e);
  default: break;
  }
  if (e->builtin >= BI_ATOMIC_ADD && e->builtin <= BI_ATOMIC_CAS) return gen_atomic(g, e);
  LLVMValueRef a[3] = {0};
  if (e->nargs > 3) {
    diag_ice(e->loc, "LLVM back end: builtin %d with %d arguments", (int)e->builtin, e->nargs);
    return LLVMGetUndef(lg_type(g, e->type));
  }
  bool classify = e->builtin == BI_ISNAN || e->builtin == BI_ISINF || e->builtin == BI_ISFINITE;
  for (int i = 0; i < e->nargs; i++) {
    a[i] = lg_expr(g, e->args[i]);
    if (!classify) a[i] = lg_convert(g, a[i], e->args[i]->type, e->type);
  }
  if (e->builtin == BI_MIN || e->builtin == BI_MAX || e->builtin == BI_ABS)
    return gen_minmax(g, e, a);
  return gen_math(g, e, a);
}
