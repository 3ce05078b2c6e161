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

/* Atomics as inline PTX, for what LLVM 19's NVPTX back end does not write:
 *  - CUDA's *_system atomics: `atom.sys`, which LLVM writes for no atomicrmw scope (it ignores
 *    syncscope) and has intrinsics for only some operations (no unsigned min/max), so every
 *    one is inline PTX on the generic address. Needs sm_60.
 *  - atomicInc/atomicDec (and OpenCL C's atomic_inc/dec, which kcc lowers to them): LLVM's
 *    uinc_wrap/udec_wrap become a compare-and-swap loop, where PTX has atom.inc/atom.dec
 *    (402x slower with 16,384 threads on one word, issue 29); here in the pointer's space. */
static LLVMValueRef gen_atomic_asm(LG *g, KExpr *e) {
  const KType *t = e->type;
  int sm = g->o->narchs > 0 ? g->o->archs[0] : 75;
  if (e->sys_scope && sm < 60) {
    diag_error(e->loc, "system-scope atomics need sm_60 or newer (this is sm_%d)", sm);
    return LLVMGetUndef(lg_type(g, t));
  }
  KAddrSpace as = e->args[0]->type->kind == KT_PTR ? e->args[0]->type->as : KAS_GENERIC;
  const char *space = e->sys_scope       ? ""
                      : as == KAS_GLOBAL ? ".global"
                      : as == KAS_SHARED ? ".shared"
                                         : "";
  bool wide = t->size == 8, fp = kir_is_float(t), sg = kir_is_signed(t);
  const char *op = "exch", *ty = wide ? "b64" : "b32";
  switch (e->builtin) {
  case BI_ATOMIC_ADD:
  case BI_ATOMIC_SUB:
    op = "add";
    ty = fp ? (wide ? "f64" : "f32") : wide ? "u64" : "u32";
    break;
  case BI_ATOMIC_MIN:
  case BI_ATOMIC_MAX:
    op = e->builtin == BI_ATOMIC_MIN ? "min" : "max";
    ty = wide ? (sg ? "s64" : "u64") : sg ? "s32" : "u32";
    break;
  case BI_ATOMIC_AND: op = "and"; break;
  case BI_ATOMIC_OR: op = "or"; break;
  case BI_ATOMIC_XOR: op = "xor"; break;
  case BI_ATOMIC_INC: op = "inc", ty = "u32"; break;
  case BI_ATOMIC_DEC: op = "dec", ty = "u32"; break;
  case BI_ATOMIC_CAS: op = "cas"; break;
  default: break; /* exch */
  }
  bool cas = e->builtin == BI_ATOMIC_CAS;
  /* Exchanging a float moves its bits. */
  bool bits = fp && (e->builtin == BI_ATOMIC_EXCH || cas);
  LLVMTypeRef vt = bits ? (wide ? g->t_i64 : g->t_i32) : lg_type(g, t);
  char c = fp && !bits ? (wide ? 'd' : 'f') : wide ? 'l' : 'r';
  char text[64], cons[64];
  snprintf(text, sizeof text, "atom%s%s.%s.%s $0, [$1], $2%s;", e->sys_scope ? ".sys" : "", space,
           op, ty, cas ? ", $3" : "");
  if (cas)
    snprintf(cons, sizeof cons, "=%c,l,%c,%c,~{memory}", c, c, c);
  else
    snprintf(cons, sizeof cons, "=%c,l,%c,~{memory}", c, c);
  KExpr *pe = e->args[0];
  LLVMValueRef p = lg_expr(g, pe);
  if (!*space) p = lg_cast_as(g, p, pe->type->kind == KT_PTR ? lg_as(pe->type->as) : 0, 0);
  LLVMValueRef ops[4] = {LLVMBuildPtrToInt(g->b, p, g->t_i64, ""), NULL, NULL, NULL};
  int n = 1;
  for (int i = 1; i < (cas ? 3 : 2); i++) {
    LLVMValueRef v = lg_expr(g, e->args[i]);
    if (e->builtin == BI_ATOMIC_SUB)
      v = fp ? LLVMBuildFNeg(g->b, v, "") : LLVMBuildNeg(g->b, v, "");
    if (bits) v = LLVMBuildBitCast(g->b, v, vt, "");
    ops[n++] = v;
  }
  LLVMTypeRef at[3] = {g->t_i64, vt, vt};
  LLVMTypeRef fty = LLVMFunctionType(vt, at, (unsigned)n, 0);
  LLVMValueRef asmv = LLVMGetInlineAsm(fty, text, strlen(text), cons, strlen(cons), 1, 0,
                                       LLVMInlineAsmDialectATT, 0);
  LLVMValueRef r = LLVMBuildCall2(g->b, fty, asmv, ops, (unsigned)n, "");
  return bits ? LLVMBuildBitCast(g->b, r, lg_type(g, t), "") : r;
}

static LLVMValueRef gen_atomic(LG *g, KExpr *e) {
  if (e->sys_scope || e->builtin == BI_ATOMIC_INC || e->builtin == BI_ATOMIC_DEC)
    return gen_atomic_asm(g, e);
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
 * working under -ffast-math as nvcc's do. Returns i1. */
static LLVMValueRef gen_classify(LG *g, KBuiltin id, LLVMValueRef x) {
  LLVMTypeRef ty = LLVMTypeOf(x);
  if (id == BI_ISNAN) return LLVMBuildFCmp(g->b, LLVMRealUNO, x, x, "");
  LLVMValueRef ax = lg_call(g, lg_intrinsic(g, "llvm.fabs", &ty, 1), &x, 1);
  LLVMValueRef inf = LLVMConstReal(ty, __builtin_inf());
  return LLVMBuildFCmp(g->b, id == BI_ISINF ? LLVMRealOEQ : LLVMRealONE, ax, inf, "");
}

/* Math on a scalar of floating type t. */
static LLVMValueRef gen_math(LG *g, KExpr *e, const KType *t, LLVMValueRef *a) {
  const MathMap *m = find_math(e->builtin);
  LLVMTypeRef ty = lg_type(g, t);
  if (!m || !kir_is_float(t)) {
    diag_ice(e->loc, "LLVM back end: math builtin %d on '%s'", (int)e->builtin, kir_type_str(t));
    return LLVMGetUndef(ty);
  }
  if (m->intrinsic) return call_intrinsic(g, m->intrinsic, ty, a, (unsigned)e->nargs);
  bool f32 = t->kind == KT_F32;
  char name[64];
  if (f32 && (g->o->fast_math || e->approx) && m->fast)
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

/* min/max/abs on a scalar of type t: integer intrinsics or minnum/maxnum/fabs. For abs, at
 * is the argument's type: OpenCL's abs(int) is an unsigned int, |x| of the signed x. */
static LLVMValueRef gen_minmax(LG *g, KExpr *e, const KType *t, const KType *at, LLVMValueRef *a) {
  LLVMTypeRef ty = lg_type(g, t);
  if (kir_is_float(t)) {
    const char *n = e->builtin == BI_MIN   ? "llvm.minnum"
                    : e->builtin == BI_MAX ? "llvm.maxnum"
                                           : "llvm.fabs";
    return call_intrinsic(g, n, ty, a, e->builtin == BI_ABS ? 1 : 2);
  }
  bool sg = kir_is_signed(t);
  if (e->builtin == BI_ABS) {
    if (!kir_is_signed(at)) return a[0];
    LLVMTypeRef aty = LLVMTypeOf(a[0]);
    LLVMValueRef args[2] = {a[0], LLVMConstInt(g->t_i1, 0, 0)}; /* abs(INT_MIN) wraps, as CUDA */
    return lg_call(g, lg_intrinsic(g, "llvm.abs", &aty, 1), args, 2);
  }
  const char *n =
      e->builtin == BI_MIN ? (sg ? "llvm.smin" : "llvm.umin") : (sg ? "llvm.smax" : "llvm.umax");
  return lg_call(g, lg_intrinsic(g, n, &ty, 1), a, 2);
}

/* ---------------------------------------------------------------- integer helpers */

static LLVMValueRef int_call(LG *g, const char *name, LLVMValueRef *a, unsigned n) {
  LLVMTypeRef ty = LLVMTypeOf(a[0]);
  return lg_call(g, lg_intrinsic(g, name, &ty, 1), a, n);
}

/* mul_hi: the product in twice the width, its high half. NVPTX selects mul.hi for 16, 32
 * and 64 bits from this pattern. */
static LLVMValueRef gen_mul_hi(LG *g, const KType *t, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef ty = LLVMTypeOf(x);
  unsigned bits = LLVMGetIntTypeWidth(ty);
  LLVMTypeRef wide = LLVMIntTypeInContext(g->ctx, 2 * bits);
  bool sg = kir_is_signed(t);
  LLVMValueRef wx = sg ? LLVMBuildSExt(g->b, x, wide, "") : LLVMBuildZExt(g->b, x, wide, "");
  LLVMValueRef wy = sg ? LLVMBuildSExt(g->b, y, wide, "") : LLVMBuildZExt(g->b, y, wide, "");
  LLVMValueRef p = LLVMBuildMul(g->b, wx, wy, "");
  p = LLVMBuildLShr(g->b, p, LLVMConstInt(wide, bits, 0), "");
  return LLVMBuildTrunc(g->b, p, ty, "mulhi");
}

static unsigned bits_of(const KType *t) {
  return (unsigned)t->size * 8;
}

/* convert_T_sat on scalars: x of type from to the integer type to, clamped to its range. */
static LLVMValueRef gen_sat(LG *g, LLVMValueRef x, const KType *from, const KType *to) {
  LLVMTypeRef ty = lg_type(g, to);
  bool ds = kir_is_signed(to);
  if (kir_is_float(from)) { /* LLVM's saturating conversions: NaN gives 0 */
    LLVMTypeRef over[2] = {ty, LLVMTypeOf(x)};
    const char *n = ds ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
    return lg_call(g, lg_intrinsic(g, n, over, 2), &x, 1);
  }
  /* Integers: clamp in the source type to the part of the result's range it can hold,
   * then convert (which then cannot overflow). */
  LLVMTypeRef sty = LLVMTypeOf(x);
  unsigned sb = bits_of(from), db = bits_of(to);
  bool ss = kir_is_signed(from);
  if (ss) {
    if (!ds) { /* below 0 */
      LLVMValueRef a[2] = {x, LLVMConstNull(sty)};
      x = int_call(g, "llvm.smax", a, 2);
    } else if (db < sb) { /* below the result's minimum */
      LLVMValueRef a[2] = {x, LLVMConstInt(sty, (unsigned long long)-(1ll << (db - 1)), 1)};
      x = int_call(g, "llvm.smax", a, 2);
    }
  }
  /* The result's maximum, if the source can exceed it. */
  unsigned mb = ds ? db - 1 : db; /* the maximum is 2^mb - 1 */
  unsigned sm = ss ? sb - 1 : sb; /* the source's: 2^sm - 1 */
  if (mb < sm) {
    LLVMValueRef a[2] = {x, LLVMConstInt(sty, (1ull << mb) - 1, 0)};
    x = int_call(g, ss ? "llvm.smin" : "llvm.umin", a, 2);
  }
  if (db < sb) return LLVMBuildTrunc(g->b, x, ty, "");
  if (db > sb) return ss ? LLVMBuildSExt(g->b, x, ty, "") : LLVMBuildZExt(g->b, x, ty, "");
  return x;
}

/* ---------------------------------------------------------------- select, vload, vstore */

/* select(a, b, c): c != 0 (scalar c) or c's sign bits (vector c) pick b, else a. */
static LLVMValueRef gen_select(LG *g, KExpr *e) {
  LLVMValueRef a = lg_convert(g, lg_expr(g, e->args[0]), e->args[0]->type, e->type);
  LLVMValueRef b = lg_convert(g, lg_expr(g, e->args[1]), e->args[1]->type, e->type);
  LLVMValueRef c = lg_expr(g, e->args[2]);
  LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(c));
  LLVMValueRef pick = kir_is_vec(e->args[2]->type) ? LLVMBuildICmp(g->b, LLVMIntSLT, c, zero, "")
                                                   : LLVMBuildICmp(g->b, LLVMIntNE, c, zero, "");
  return LLVMBuildSelect(g->b, pick, b, a, "select");
}

/* p + offset * n, for vloadn/vstoren: p points to the element type. */
static LLVMValueRef vaddr(LG *g, KExpr *off, KExpr *p, int n) {
  LLVMValueRef o = lg_expr(g, off);
  if (bits_of(off->type) < 64)
    o = kir_is_signed(off->type) ? LLVMBuildSExt(g->b, o, g->t_i64, "")
                                 : LLVMBuildZExt(g->b, o, g->t_i64, "");
  o = LLVMBuildMul(g->b, o, LLVMConstInt(g->t_i64, (unsigned long long)n, 0), "");
  LLVMValueRef base = lg_expr(g, p);
  return LLVMBuildInBoundsGEP2(g->b, lg_type(g, p->type->base), base, &o, 1, "");
}

/* vloadn/vstoren: the vector's n elements (3 for a 3-vector: 12 bytes of floats, not 16),
 * at the elements' own alignment. */
static LLVMValueRef gen_vload(LG *g, KExpr *e) {
  KExpr *p = e->args[1];
  LLVMValueRef v = LLVMBuildLoad2(g->b, lg_type(g, e->type),
                                  vaddr(g, e->args[0], p, (int)e->type->len), "vload");
  LLVMSetAlignment(v, (unsigned)p->type->base->align);
  if (p->type->qual & KQ_VOLATILE) LLVMSetVolatile(v, 1);
  return v;
}

static LLVMValueRef gen_vstore(LG *g, KExpr *e) {
  KExpr *p = e->args[2];
  const KType *vt = e->args[0]->type;
  LLVMValueRef v = lg_expr(g, e->args[0]);
  LLVMValueRef s = LLVMBuildStore(g->b, v, vaddr(g, e->args[1], p, (int)vt->len));
  LLVMSetAlignment(s, (unsigned)p->type->base->align);
  if (p->type->qual & KQ_VOLATILE) LLVMSetVolatile(s, 1);
  return NULL;
}

/* ---------------------------------------------------------------- component-wise builtins */

static bool is_classify(KBuiltin id) {
  return id == BI_ISNAN || id == BI_ISINF || id == BI_ISFINITE;
}

/* The builtin on scalars: t the result's type (the mask element for classification, whose
 * value is then an i1), at[] the arguments'. */
static LLVMValueRef scalar_builtin(LG *g, KExpr *e, const KType *t, const KType **at,
                                   LLVMValueRef *a) {
  switch (e->builtin) {
  case BI_ISNAN:
  case BI_ISINF:
  case BI_ISFINITE: return gen_classify(g, e->builtin, a[0]);
  case BI_MIN:
  case BI_MAX:
  case BI_ABS: return gen_minmax(g, e, t, at[0], a);
  case BI_POPCOUNT: return int_call(g, "llvm.ctpop", a, 1);
  case BI_CLZ: {
    LLVMValueRef args[2] = {a[0], LLVMConstInt(g->t_i1, 0, 0)}; /* clz(0) is the width */
    return int_call(g, "llvm.ctlz", args, 2);
  }
  case BI_MUL_HI: return gen_mul_hi(g, t, a[0], a[1]);
  case BI_CONVERT_SAT: return gen_sat(g, a[0], at[0], t);
  default: return gen_math(g, e, t, a);
  }
}

/* ---------------------------------------------------------------- CUDA intrinsics */

static int ptx_sm(LG *g) {
  return g->o->narchs > 0 ? g->o->archs[0] : 75;
}

/* __byte_perm(x, y, s): byte i of the result is byte (s >> 4i) & 7 of y:x. */
static LLVMValueRef gen_byte_perm(LG *g, LLVMValueRef x, LLVMValueRef y, LLVMValueRef s) {
  LLVMValueRef v = LLVMBuildOr(
      g->b, LLVMBuildZExt(g->b, x, g->t_i64, ""),
      LLVMBuildShl(g->b, LLVMBuildZExt(g->b, y, g->t_i64, ""), LLVMConstInt(g->t_i64, 32, 0), ""),
      "");
  LLVMValueRef r = LLVMConstInt(g->t_i32, 0, 0);
  for (unsigned i = 0; i < 4; i++) {
    LLVMValueRef sel =
        LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, s, lg_i32(g, 4 * i), ""), lg_i32(g, 7), "");
    LLVMValueRef sh = LLVMBuildZExt(g->b, LLVMBuildShl(g->b, sel, lg_i32(g, 3), ""), g->t_i64, "");
    LLVMValueRef byte = LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, v, sh, ""), g->t_i32, "");
    byte = LLVMBuildAnd(g->b, byte, lg_i32(g, 0xff), "");
    r = LLVMBuildOr(g->b, r, LLVMBuildShl(g->b, byte, lg_i32(g, 8 * i), ""), "");
  }
  return r;
}

static LLVMValueRef gen_cuda_int(LG *g, KExpr *e) {
  LLVMValueRef a[3] = {0};
  for (int i = 0; i < e->nargs && i < 3; i++) a[i] = lg_expr(g, e->args[i]);
  switch (e->builtin) {
  case BI_FFS: { /* x ? cttz(x) + 1 : 0 */
    LLVMTypeRef ty = LLVMTypeOf(a[0]);
    LLVMValueRef args[2] = {a[0], LLVMConstInt(g->t_i1, 0, 0)};
    LLVMValueRef tz = int_call(g, "llvm.cttz", args, 2);
    LLVMValueRef r = LLVMBuildAdd(g->b, tz, LLVMConstInt(ty, 1, 0), "");
    LLVMValueRef z = LLVMBuildICmp(g->b, LLVMIntEQ, a[0], LLVMConstNull(ty), "");
    r = LLVMBuildSelect(g->b, z, LLVMConstNull(ty), r, "ffs");
    return lg_convert(g, r, e->args[0]->type, e->type);
  }
  case BI_BREV: return int_call(g, "llvm.bitreverse", a, 1);
  case BI_BYTE_PERM: return gen_byte_perm(g, a[0], a[1], a[2]);
  case BI_SAD: { /* |x - y| as an unsigned 32-bit difference, + z */
    bool sg = kir_is_signed(e->args[0]->type);
    LLVMValueRef lt = LLVMBuildICmp(g->b, sg ? LLVMIntSLT : LLVMIntULT, a[0], a[1], "");
    LLVMValueRef d = LLVMBuildSelect(g->b, lt, LLVMBuildSub(g->b, a[1], a[0], ""),
                                     LLVMBuildSub(g->b, a[0], a[1], ""), "");
    return LLVMBuildAdd(g->b, d, a[2], "sad");
  }
  case BI_FDIVIDE: return lg_call(g, lg_intrinsic(g, "llvm.nvvm.div.approx.f", NULL, 0), a, 2);
  /* Without g->fmf: no `contract` flag, so LLVM never fuses them into an fma. */
  case BI_FADD_RN: return LLVMBuildFAdd(g->b, a[0], a[1], "add_rn");
  case BI_FSUB_RN: return LLVMBuildFSub(g->b, a[0], a[1], "sub_rn");
  case BI_FMUL_RN: return LLVMBuildFMul(g->b, a[0], a[1], "mul_rn");
  case BI_CLOCK: {
    LLVMValueRef c = lg_call(g, lg_intrinsic(g, "llvm.nvvm.read.ptx.sreg.clock", NULL, 0), NULL, 0);
    return LLVMBuildSExt(g->b, c, lg_type(g, e->type), "");
  }
  case BI_CLOCK64:
    return lg_call(g, lg_intrinsic(g, "llvm.nvvm.read.ptx.sreg.clock64", NULL, 0), NULL, 0);
  case BI_TRAP: /* PTX trap: the launch fails with an error */
    return lg_call(g, lg_intrinsic(g, "llvm.trap", NULL, 0), NULL, 0);
  case BI_NANOSLEEP: { /* PTX nanosleep.u32 (sm_70, PTX 6.3): LLVM cannot select it before */
    int sm = g->o->narchs > 0 ? g->o->archs[0] : 75;
    if (sm < 70)
      diag_error(e->loc, "__nanosleep needs sm_70 or newer (this is sm_%d)", sm);
    else
      lg_call(g, lg_intrinsic(g, "llvm.nvvm.nanosleep", NULL, 0), a, 1);
    return NULL;
  }
  default: break;
  }
  diag_ice(e->loc, "LLVM back end: builtin %d", (int)e->builtin);
  return LLVMGetUndef(lg_type(g, e->type));
}

/* ---------------------------------------------------------------- warp-level operations */

/* One 32-bit shfl.sync: mode idx/up/down/bfly. */
static LLVMValueRef shfl32(LG *g, const char *mode, LLVMValueRef mask, LLVMValueRef v,
                           LLVMValueRef b, LLVMValueRef c) {
  char name[48];
  snprintf(name, sizeof name, "llvm.nvvm.shfl.sync.%s.i32", mode);
  LLVMValueRef args[4] = {mask, v, b, c};
  return lg_call(g, lg_intrinsic(g, name, NULL, 0), args, 4);
}

/* shfl.sync of a value of KIR type t (32 or 64 bits, integer or float). */
static LLVMValueRef shfl_val(LG *g, const char *mode, LLVMValueRef mask, LLVMValueRef v,
                             const KType *t, LLVMValueRef b, LLVMValueRef c) {
  LLVMTypeRef ty = lg_type(g, t);
  if (t->size == 4) {
    LLVMValueRef x = kir_is_float(t) ? LLVMBuildBitCast(g->b, v, g->t_i32, "") : v;
    LLVMValueRef r = shfl32(g, mode, mask, x, b, c);
    return kir_is_float(t) ? LLVMBuildBitCast(g->b, r, ty, "") : r;
  }
  LLVMValueRef x = kir_is_float(t) ? LLVMBuildBitCast(g->b, v, g->t_i64, "") : v;
  LLVMValueRef lo = LLVMBuildTrunc(g->b, x, g->t_i32, "");
  LLVMValueRef hi =
      LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, x, LLVMConstInt(g->t_i64, 32, 0), ""), g->t_i32, "");
  lo = LLVMBuildZExt(g->b, shfl32(g, mode, mask, lo, b, c), g->t_i64, "");
  hi = LLVMBuildZExt(g->b, shfl32(g, mode, mask, hi, b, c), g->t_i64, "");
  LLVMValueRef r =
      LLVMBuildOr(g->b, lo, LLVMBuildShl(g->b, hi, LLVMConstInt(g->t_i64, 32, 0), ""), "");
  return kir_is_float(t) ? LLVMBuildBitCast(g->b, r, ty, "") : r;
}

/* __shfl*_sync as CUDA's headers write it: c = ((32 - width) << 8) | clamp, where the clamp
 * is 0 for up and 31 for the others; 64-bit values move as two 32-bit halves. */
static LLVMValueRef gen_shfl(LG *g, KExpr *e) {
  static const char *const modes[] = {"idx", "up", "down", "bfly"};
  const char *mode = modes[e->builtin - BI_SHFL];
  LLVMValueRef mask = lg_expr(g, e->args[0]);
  LLVMValueRef v = lg_expr(g, e->args[1]);
  LLVMValueRef b = lg_expr(g, e->args[2]);
  LLVMValueRef w = lg_expr(g, e->args[3]);
  LLVMValueRef c = LLVMBuildShl(g->b, LLVMBuildSub(g->b, lg_i32(g, 32), w, ""), lg_i32(g, 8), "");
  if (e->builtin != BI_SHFL_UP) c = LLVMBuildOr(g->b, c, lg_i32(g, 0x1f), "");
  return shfl_val(g, mode, mask, v, e->type, b, c);
}

static LLVMValueRef gen_warp(LG *g, KExpr *e) {
  KBuiltin b = e->builtin;
  if (b >= BI_SHFL && b <= BI_SHFL_XOR) return gen_shfl(g, e);
  if (b == BI_ACTIVEMASK)
    return lg_call(g, lg_intrinsic(g, "llvm.nvvm.activemask", NULL, 0), NULL, 0);
  LLVMValueRef mask = lg_expr(g, e->args[0]);
  if (b == BI_SYNCWARP) {
    lg_call(g, lg_intrinsic(g, "llvm.nvvm.bar.warp.sync", NULL, 0), &mask, 1);
    return NULL;
  }
  LLVMValueRef v = lg_expr(g, e->args[1]);
  if (b == BI_BALLOT || b == BI_ANY || b == BI_ALL) {
    LLVMValueRef args[2] = {mask, lg_cond(g, e->args[1])};
    (void)v;
    const char *n = b == BI_BALLOT ? "llvm.nvvm.vote.ballot.sync"
                    : b == BI_ANY  ? "llvm.nvvm.vote.any.sync"
                                   : "llvm.nvvm.vote.all.sync";
    LLVMValueRef r = lg_call(g, lg_intrinsic(g, n, NULL, 0), args, 2);
    return b == BI_BALLOT ? r : LLVMBuildZExt(g->b, r, lg_type(g, e->type), "");
  }
  const KType *vt = e->args[1]->type;
  if (b == BI_MATCH_ANY && ptx_sm(g) >= 70) {
    LLVMTypeRef ity = vt->size == 8 ? g->t_i64 : g->t_i32;
    LLVMValueRef args[2] = {mask, kir_is_float(vt) ? LLVMBuildBitCast(g->b, v, ity, "") : v};
    return lg_call(g,
                   lg_intrinsic(g,
                                vt->size == 8 ? "llvm.nvvm.match.any.sync.i64"
                                              : "llvm.nvvm.match.any.sync.i32",
                                NULL, 0),
                   args, 2);
  }
  bool sg = kir_is_signed(e->type);
  if (b != BI_MATCH_ANY && ptx_sm(g) >= 80) { /* redux.sync */
    const char *n =
        b == BI_REDUCE_ADD   ? "llvm.nvvm.redux.sync.add"
        : b == BI_REDUCE_MIN ? (sg ? "llvm.nvvm.redux.sync.min" : "llvm.nvvm.redux.sync.umin")
        : b == BI_REDUCE_MAX ? (sg ? "llvm.nvvm.redux.sync.max" : "llvm.nvvm.redux.sync.umax")
        : b == BI_REDUCE_AND ? "llvm.nvvm.redux.sync.and"
        : b == BI_REDUCE_OR  ? "llvm.nvvm.redux.sync.or"
                             : "llvm.nvvm.redux.sync.xor";
    LLVMValueRef args[2] = {v, mask};
    return lg_call(g, lg_intrinsic(g, n, NULL, 0), args, 2);
  }
  /* Older targets (match.any.sync is sm_70, redux.sync sm_80): every lane's value in turn,
   * through shfl.sync.idx, counted where its lane is in the mask. Lanes outside the mask
   * give undefined values, which are never used. */
  LLVMValueRef c = lg_i32(g, 0x1f);
  LLVMValueRef bits = LLVMBuildBitCast(g->b, v, vt->size == 8 ? g->t_i64 : g->t_i32, "");
  LLVMValueRef r = b == BI_MATCH_ANY    ? lg_i32(g, 0)
                   : b == BI_REDUCE_MIN ? lg_i32(g, sg ? 0x7fffffffu : 0xffffffffu)
                   : b == BI_REDUCE_MAX ? lg_i32(g, sg ? 0x80000000u : 0)
                   : b == BI_REDUCE_AND ? lg_i32(g, 0xffffffffu)
                                        : lg_i32(g, 0);
  for (unsigned i = 0; i < 32; i++) {
    LLVMValueRef x;
    if (vt->size == 8) {
      LLVMValueRef lo = LLVMBuildTrunc(g->b, bits, g->t_i32, "");
      LLVMValueRef hi = LLVMBuildTrunc(
          g->b, LLVMBuildLShr(g->b, bits, LLVMConstInt(g->t_i64, 32, 0), ""), g->t_i32, "");
      lo = LLVMBuildZExt(g->b, shfl32(g, "idx", mask, lo, lg_i32(g, i), c), g->t_i64, "");
      hi = LLVMBuildZExt(g->b, shfl32(g, "idx", mask, hi, lg_i32(g, i), c), g->t_i64, "");
      x = LLVMBuildOr(g->b, lo, LLVMBuildShl(g->b, hi, LLVMConstInt(g->t_i64, 32, 0), ""), "");
    } else {
      x = shfl32(g, "idx", mask, bits, lg_i32(g, i), c);
    }
    LLVMValueRef in = LLVMBuildICmp(
        g->b, LLVMIntNE, LLVMBuildAnd(g->b, mask, lg_i32(g, 1u << i), ""), lg_i32(g, 0), "");
    LLVMValueRef nr;
    switch (b) {
    case BI_MATCH_ANY:
      nr = LLVMBuildOr(g->b, r,
                       LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, x, bits, ""),
                                       lg_i32(g, 1u << i), lg_i32(g, 0), ""),
                       "");
      break;
    case BI_REDUCE_ADD: nr = LLVMBuildAdd(g->b, r, x, ""); break;
    case BI_REDUCE_MIN:
    case BI_REDUCE_MAX: {
      LLVMValueRef a2[2] = {r, x};
      nr = int_call(g,
                    b == BI_REDUCE_MIN ? (sg ? "llvm.smin" : "llvm.umin")
                                       : (sg ? "llvm.smax" : "llvm.umax"),
                    a2, 2);
      break;
    }
    case BI_REDUCE_AND: nr = LLVMBuildAnd(g->b, r, x, ""); break;
    case BI_REDUCE_OR: nr = LLVMBuildOr(g->b, r, x, ""); break;
    default: nr = LLVMBuildXor(g->b, r, x, ""); break;
    }
    r = LLVMBuildSelect(g->b, in, nr, r, "");
  }
  if (b == BI_MATCH_ANY) r = LLVMBuildAnd(g->b, r, mask, "match");
  return r;
}

/* ---------------------------------------------------------------- OpenCL subgroups */

/* A subgroup is an aligned segment of W lanes of a warp, W the function's width
 * (KFunc.sg_width: its kernels' intel_reqd_sub_group_size, 32 without one): subgroup i of a
 * block is its threads Wi..Wi+W-1 by linear thread index, which lie in one warp since CUDA
 * forms warps of 32 consecutive ones; the last is partial when the block size is not a
 * multiple of W. The uniform functions run with the mask of the subgroup's lanes (every one
 * reaches them), the non-uniform ones with the active mask within the segment. Shuffles use
 * shfl.sync's segment mask (c[12:8] = 32 - W, as CUDA's width argument), so an index stays
 * in the segment: modulo W for idx and bfly, the lane's own value past the segment's ends for
 * up and down, as a whole warp does at its ends. With W = 32 every formula below is the
 * warp's. */

static LLVMValueRef sreg(LG *g, const char *name) {
  char n[64];
  snprintf(n, sizeof n, "llvm.nvvm.read.ptx.sreg.%s", name);
  return lg_call(g, lg_intrinsic(g, n, NULL, 0), NULL, 0);
}

static LLVMValueRef block_size(LG *g) {
  return LLVMBuildMul(g->b, LLVMBuildMul(g->b, sreg(g, "ntid.x"), sreg(g, "ntid.y"), ""),
                      sreg(g, "ntid.z"), "");
}

static LLVMValueRef linear_tid(LG *g) {
  LLVMValueRef nx = sreg(g, "ntid.x");
  LLVMValueRef yz = LLVMBuildAdd(g->b, sreg(g, "tid.y"),
                                 LLVMBuildMul(g->b, sreg(g, "tid.z"), sreg(g, "ntid.y"), ""), "");
  return LLVMBuildAdd(g->b, sreg(g, "tid.x"), LLVMBuildMul(g->b, yz, nx, ""), "");
}

static LLVMValueRef umin32(LG *g, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef x[2] = {a, b};
  return int_call(g, "llvm.umin", x, 2);
}

/* W, the subgroup width of the function being lowered (a power of two <= 32). */
static unsigned sg_w(LG *g) {
  return kir_sg_width(g->kf);
}

static unsigned sg_log2w(LG *g) {
  return (unsigned)__builtin_ctz(sg_w(g));
}

/* The first lane of this thread's segment of the warp: %laneid & ~(W-1). */
static LLVMValueRef sg_base(LG *g) {
  unsigned w = sg_w(g);
  if (w == 32) return lg_i32(g, 0);
  return LLVMBuildAnd(g->b, sreg(g, "laneid"), lg_i32(g, 31u & ~(w - 1)), "sgbase");
}

/* get_sub_group_local_id(): %laneid & (W-1). */
static LLVMValueRef sg_lane(LG *g) {
  unsigned w = sg_w(g);
  LLVMValueRef lane = sreg(g, "laneid");
  return w == 32 ? lane : LLVMBuildAnd(g->b, lane, lg_i32(g, w - 1), "sglane");
}

/* shfl.sync's c operand: the segment mask 32-W in c[12:8], the clamp in c[4:0] (0 for up,
 * 31 for the others), as CUDA's __shfl*_sync with width W. */
static LLVMValueRef sg_c(LG *g, unsigned clamp) {
  return lg_i32(g, ((32u - sg_w(g)) << 8) | clamp);
}

/* The lanes in this thread's subgroup: min(W, block size - W * subgroup id). */
static LLVMValueRef sg_size(LG *g) {
  unsigned w = sg_w(g);
  LLVMValueRef first = LLVMBuildAnd(g->b, linear_tid(g), lg_i32(g, ~(w - 1)), "");
  return umin32(g, lg_i32(g, w), LLVMBuildSub(g->b, block_size(g), first, ""));
}

/* The mask of the lanes a subgroup operation runs with: the subgroup's existing lanes, or
 * (non-uniform) the active ones of its segment. */
static LLVMValueRef sg_mask(LG *g, const KExpr *e) {
  unsigned w = sg_w(g);
  if (e->nonuniform) {
    LLVMValueRef act = lg_call(g, lg_intrinsic(g, "llvm.nvvm.activemask", NULL, 0), NULL, 0);
    if (w == 32) return act;
    LLVMValueRef seg = LLVMBuildShl(g->b, lg_i32(g, 0xffffffffu >> (32 - w)), sg_base(g), "");
    return LLVMBuildAnd(g->b, act, seg, "sgmask");
  }
  LLVMValueRef m = LLVMBuildLShr(g->b, lg_i32(g, 0xffffffffu),
                                 LLVMBuildSub(g->b, lg_i32(g, 32), sg_size(g), ""), "sgmask");
  return w == 32 ? m : LLVMBuildShl(g->b, m, sg_base(g), "sgmask");
}

/* The identity of op on t: what an exclusive scan gives the first lane. */
static LLVMValueRef red_identity(LG *g, KRedOp op, const KType *t) {
  LLVMTypeRef ty = lg_type(g, t);
  bool fl = kir_is_float(t), sg = kir_is_signed(t);
  unsigned bits = (unsigned)t->size * 8;
  uint64_t all = bits == 64 ? ~0ull : 0xffffffffull;
  switch (op) {
  case KR_MUL:
  case KR_LOGICAL_AND: return fl ? LLVMConstReal(ty, 1.0) : LLVMConstInt(ty, 1, 0);
  case KR_MIN:
    return fl ? LLVMConstReal(ty, __builtin_inf()) : LLVMConstInt(ty, sg ? all >> 1 : all, 0);
  case KR_MAX:
    return fl ? LLVMConstReal(ty, -__builtin_inf()) : LLVMConstInt(ty, sg ? (all >> 1) + 1 : 0, 0);
  case KR_AND: return LLVMConstInt(ty, all, 0);
  default: return fl ? LLVMConstReal(ty, 0.0) : LLVMConstInt(ty, 0, 0);
  }
}

/* a op b. Logical operations see 0/1 values (red_operand made them). */
static LLVMValueRef red_apply(LG *g, KRedOp op, const KType *t, LLVMValueRef a, LLVMValueRef b) {
  bool fl = kir_is_float(t), sg = kir_is_signed(t);
  LLVMValueRef x[2] = {a, b};
  switch (op) {
  case KR_ADD: return fl ? LLVMBuildFAdd(g->b, a, b, "") : LLVMBuildAdd(g->b, a, b, "");
  case KR_MUL: return fl ? LLVMBuildFMul(g->b, a, b, "") : LLVMBuildMul(g->b, a, b, "");
  case KR_MIN: return int_call(g, fl ? "llvm.minnum" : sg ? "llvm.smin" : "llvm.umin", x, 2);
  case KR_MAX: return int_call(g, fl ? "llvm.maxnum" : sg ? "llvm.smax" : "llvm.umax", x, 2);
  case KR_AND:
  case KR_LOGICAL_AND: return LLVMBuildAnd(g->b, a, b, "");
  case KR_OR:
  case KR_LOGICAL_OR: return LLVMBuildOr(g->b, a, b, "");
  default: return LLVMBuildXor(g->b, a, b, "");
  }
}

static bool red_logical(KRedOp op) {
  return op == KR_LOGICAL_AND || op == KR_LOGICAL_OR || op == KR_LOGICAL_XOR;
}

/* A reduction over the lanes of mask (any set of lanes of the segment), a scan over those
 * up to this lane (below it: exclusive), or a clustered reduction over those of this lane's
 * cluster of `cluster` lanes: each lane reads every lane of its segment in turn
 * (shfl.sync.idx, by absolute lane number), counting those that take part. Lanes outside the mask
 * give undefined values, which are never used. A loop that is never unrolled: ptxas of CUDA 13.0
 * fails on sm_90 (C7600, "Register allocation failed") on some kernels with the 32 steps unrolled
 * (docs/driver-bugs.md 13). */
static LLVMValueRef sg_each_lane(LG *g, const KExpr *e, LLVMValueRef v, LLVMValueRef mask,
                                 unsigned cluster) {
  const KType *t = e->type;
  KBuiltin b = e->builtin;
  LLVMValueRef lane = sreg(g, "laneid"), r0 = red_identity(g, e->red, t);
  LLVMValueRef lo = sg_base(g), hi = LLVMBuildAdd(g->b, lo, lg_i32(g, sg_w(g)), "");
  LLVMValueRef group = LLVMBuildAnd(g->b, lane, lg_i32(g, ~(cluster - 1)), "");
  LLVMBasicBlockRef entry = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "sg.lane");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "sg.lanes.done");
  LLVMBuildBr(g->b, body);
  LLVMPositionBuilderAtEnd(g->b, body);
  LLVMValueRef i = LLVMBuildPhi(g->b, g->t_i32, "i"), r = LLVMBuildPhi(g->b, lg_type(g, t), "r");
  LLVMValueRef x = shfl_val(g, "idx", mask, v, t, i, lg_i32(g, 0x1f));
  LLVMValueRef in = LLVMBuildICmp(
      g->b, LLVMIntNE, LLVMBuildAnd(g->b, LLVMBuildLShr(g->b, mask, i, ""), lg_i32(g, 1), ""),
      lg_i32(g, 0), "");
  LLVMValueRef also = NULL;
  if (b == BI_SG_SCAN_INCLUSIVE)
    also = LLVMBuildICmp(g->b, LLVMIntULE, i, lane, "");
  else if (b == BI_SG_SCAN_EXCLUSIVE)
    also = LLVMBuildICmp(g->b, LLVMIntULT, i, lane, "");
  else if (b == BI_SG_CLUSTERED_REDUCE)
    also = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, i, lg_i32(g, ~(cluster - 1)), ""),
                         group, "");
  if (also) in = LLVMBuildAnd(g->b, in, also, "");
  LLVMValueRef nr = LLVMBuildSelect(g->b, in, red_apply(g, e->red, t, r, x), r, "");
  LLVMValueRef next = LLVMBuildAdd(g->b, i, lg_i32(g, 1), "");
  LLVMValueRef more = LLVMBuildICmp(g->b, LLVMIntULT, next, hi, "");
  lg_loop_hint(g, LLVMBuildCondBr(g->b, more, body, done), -1);
  LLVMValueRef iv[2] = {lo, next}, rv[2] = {r0, nr};
  LLVMBasicBlockRef from[2] = {entry, body};
  LLVMAddIncoming(i, iv, from, 2);
  LLVMAddIncoming(r, rv, from, 2);
  LLVMPositionBuilderAtEnd(g->b, done);
  return nr;
}

/* Whether redux.sync (sm_80) computes op on t: 32-bit integers, every operation but mul. */
static bool redux_ok(LG *g, const KExpr *e) {
  return ptx_sm(g) >= 80 && kir_is_int(e->type) && e->type->size == 4 && e->red != KR_MUL;
}

static LLVMValueRef redux(LG *g, const KExpr *e, LLVMValueRef v, LLVMValueRef mask) {
  bool sg = kir_is_signed(e->type);
  const char *n;
  switch (e->red) {
  case KR_ADD: n = "llvm.nvvm.redux.sync.add"; break;
  case KR_MIN: n = sg ? "llvm.nvvm.redux.sync.min" : "llvm.nvvm.redux.sync.umin"; break;
  case KR_MAX: n = sg ? "llvm.nvvm.redux.sync.max" : "llvm.nvvm.redux.sync.umax"; break;
  case KR_AND:
  case KR_LOGICAL_AND: n = "llvm.nvvm.redux.sync.and"; break;
  case KR_OR:
  case KR_LOGICAL_OR: n = "llvm.nvvm.redux.sync.or"; break;
  default: n = "llvm.nvvm.redux.sync.xor"; break;
  }
  LLVMValueRef args[2] = {v, mask};
  return lg_call(g, lg_intrinsic(g, n, NULL, 0), args, 2);
}

/* Reductions and scans. The uniform ones run over lanes 0..n-1 of the subgroup (n its size):
 * a tree of shfl.sync.down steps that lane 0 ends with, then broadcast (or redux.sync); a
 * Hillis-Steele scan of shfl.sync.up steps. The non-uniform and clustered ones, over any set
 * of active lanes, read each lane (sg_each_lane), or use redux.sync when they can. */
static LLVMValueRef sg_reduce(LG *g, const KExpr *e) {
  const KType *t = e->type;
  KBuiltin b = e->builtin;
  LLVMValueRef v = lg_expr(g, e->args[0]);
  if (red_logical(e->red))
    v = LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), ""),
                      lg_type(g, t), "");
  LLVMValueRef mask = sg_mask(g, e);
  unsigned w = sg_w(g);
  if (b == BI_SG_CLUSTERED_REDUCE) {
    uint64_t n = e->args[1]->kind == KE_ICONST ? e->args[1]->ival : w;
    unsigned cluster = n >= w || n == 0 ? w : (unsigned)n;
    if (cluster == 1) return v;
    if (cluster == w && redux_ok(g, e)) return redux(g, e, v, mask);
    return sg_each_lane(g, e, v, mask, cluster);
  }
  if (b == BI_SG_REDUCE && redux_ok(g, e)) return redux(g, e, v, mask);
  if (e->nonuniform) return sg_each_lane(g, e, v, mask, w);
  LLVMValueRef lane = sg_lane(g), x = v;
  if (b == BI_SG_REDUCE) {
    /* A whole subgroup (its size is the same in all its lanes: no divergence) takes the
       butterfly, log2(W) shfl.sync.bfly steps that leave the result in every lane (a lane's
       partner lane ^ d, d < W, is in its segment); a partial one the tree, whose missing
       lanes are never combined, then the segment's first lane's value (idx 0 in the
       segment). */
    LLVMValueRef n = sg_size(g);
    LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef full = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "sg.full");
    LLVMBasicBlockRef part = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "sg.partial");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "sg.reduced");
    (void)from;
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, n, lg_i32(g, w), ""), full, part);
    LLVMPositionBuilderAtEnd(g->b, full);
    LLVMValueRef xf = v;
    for (unsigned d = w / 2; d; d >>= 1)
      xf = red_apply(g, e->red, t, xf,
                     shfl_val(g, "bfly", mask, xf, t, lg_i32(g, d), sg_c(g, 0x1f)));
    LLVMBasicBlockRef full_end = LLVMGetInsertBlock(g->b);
    LLVMBuildBr(g->b, done);
    LLVMPositionBuilderAtEnd(g->b, part);
    for (unsigned d = 1; d < w; d <<= 1) {
      LLVMValueRef y = shfl_val(g, "down", mask, x, t, lg_i32(g, d), sg_c(g, 0x1f));
      LLVMValueRef ok =
          LLVMBuildICmp(g->b, LLVMIntULT, LLVMBuildAdd(g->b, lane, lg_i32(g, d), ""), n, "");
      x = LLVMBuildSelect(g->b, ok, red_apply(g, e->red, t, x, y), x, "");
    }
    x = shfl_val(g, "idx", mask, x, t, lg_i32(g, 0), sg_c(g, 0x1f));
    LLVMBasicBlockRef part_end = LLVMGetInsertBlock(g->b);
    LLVMBuildBr(g->b, done);
    LLVMPositionBuilderAtEnd(g->b, done);
    LLVMValueRef r = LLVMBuildPhi(g->b, lg_type(g, t), "reduced");
    LLVMValueRef vals[2] = {xf, x};
    LLVMBasicBlockRef froms[2] = {full_end, part_end};
    LLVMAddIncoming(r, vals, froms, 2);
    return r;
  }
  for (unsigned d = 1; d < w; d <<= 1) {
    LLVMValueRef y = shfl_val(g, "up", mask, x, t, lg_i32(g, d), sg_c(g, 0));
    LLVMValueRef ok = LLVMBuildICmp(g->b, LLVMIntUGE, lane, lg_i32(g, d), "");
    x = LLVMBuildSelect(g->b, ok, red_apply(g, e->red, t, y, x), x, "");
  }
  if (b == BI_SG_SCAN_INCLUSIVE) return x;
  LLVMValueRef y = shfl_val(g, "up", mask, x, t, lg_i32(g, 1), sg_c(g, 0));
  LLVMValueRef first = LLVMBuildICmp(g->b, LLVMIntEQ, lane, lg_i32(g, 0), "");
  return LLVMBuildSelect(g->b, first, red_identity(g, e->red, t), y, "");
}

static LLVMValueRef gen_subgroup(LG *g, KExpr *e) {
  KBuiltin b = e->builtin;
  const KType *t = e->type;
  switch (b) {
  case BI_SG_SIZE: return sg_size(g);
  case BI_SG_MAX_SIZE: return umin32(g, lg_i32(g, sg_w(g)), block_size(g));
  case BI_SG_NUM:
    return LLVMBuildLShr(g->b, LLVMBuildAdd(g->b, block_size(g), lg_i32(g, sg_w(g) - 1), ""),
                         lg_i32(g, sg_log2w(g)), "");
  case BI_SG_ID: return LLVMBuildLShr(g->b, linear_tid(g), lg_i32(g, sg_log2w(g)), "");
  case BI_SG_LOCAL_ID: return sg_lane(g);
  case BI_SG_BARRIER: {
    /* A warp barrier orders memory among the lanes it syncs, as CUDA's __syncwarp does. */
    LLVMValueRef mask = sg_mask(g, e);
    lg_call(g, lg_intrinsic(g, "llvm.nvvm.bar.warp.sync", NULL, 0), &mask, 1);
    return NULL;
  }
  case BI_SG_ELECT: {
    LLVMValueRef m = sg_mask(g, e), z = LLVMConstInt(g->t_i1, 0, 0);
    LLVMValueRef a[2] = {m, z};
    LLVMValueRef first = int_call(g, "llvm.cttz", a, 2);
    return LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, first, sreg(g, "laneid"), ""),
                         lg_type(g, t), "");
  }
  case BI_SG_ALL:
  case BI_SG_ANY: {
    LLVMValueRef args[2] = {sg_mask(g, e), lg_cond(g, e->args[0])};
    LLVMValueRef r = lg_call(
        g,
        lg_intrinsic(g, b == BI_SG_ALL ? "llvm.nvvm.vote.all.sync" : "llvm.nvvm.vote.any.sync",
                     NULL, 0),
        args, 2);
    return LLVMBuildZExt(g->b, r, lg_type(g, t), "");
  }
  case BI_SG_BALLOT: {
    /* Bit i of the result is lane i of the subgroup: the segment's bits, shifted down. */
    LLVMValueRef m = sg_mask(g, e);
    LLVMValueRef args[2] = {m, lg_cond(g, e->args[0])};
    LLVMValueRef r = lg_call(g, lg_intrinsic(g, "llvm.nvvm.vote.ballot.sync", NULL, 0), args, 2);
    if (sg_w(g) < 32) r = LLVMBuildLShr(g->b, LLVMBuildAnd(g->b, r, m, ""), sg_base(g), "");
    LLVMValueRef vec = LLVMConstNull(lg_type(g, t));
    return LLVMBuildInsertElement(g->b, vec, r, lg_i32(g, 0), "ballot");
  }
  case BI_SG_ALL_EQUAL: {
    /* Every active lane's value equals the lowest active lane's. */
    const KType *vt = e->args[0]->type;
    LLVMValueRef v = lg_expr(g, e->args[0]), m = sg_mask(g, e);
    LLVMValueRef a[2] = {m, LLVMConstInt(g->t_i1, 0, 0)};
    LLVMValueRef first =
        shfl_val(g, "idx", m, v, vt, int_call(g, "llvm.cttz", a, 2), lg_i32(g, 0x1f));
    LLVMValueRef same = kir_is_float(vt) ? LLVMBuildFCmp(g->b, LLVMRealOEQ, v, first, "")
                                         : LLVMBuildICmp(g->b, LLVMIntEQ, v, first, "");
    LLVMValueRef args[2] = {m, same};
    LLVMValueRef r = lg_call(g, lg_intrinsic(g, "llvm.nvvm.vote.all.sync", NULL, 0), args, 2);
    return LLVMBuildZExt(g->b, r, lg_type(g, t), "");
  }
  case BI_SG_BROADCAST:
  case BI_SG_BROADCAST_FIRST:
  case BI_SG_SHUFFLE:
  case BI_SG_SHUFFLE_XOR:
  case BI_SG_SHUFFLE_UP:
  case BI_SG_SHUFFLE_DOWN: {
    LLVMValueRef v = lg_expr(g, e->args[0]), m = sg_mask(g, e), x;
    if (b == BI_SG_BROADCAST_FIRST) {
      LLVMValueRef a[2] = {m, LLVMConstInt(g->t_i1, 0, 0)};
      x = int_call(g, "llvm.cttz", a, 2);
    } else {
      x = lg_expr(g, e->args[1]);
    }
    const char *mode = b == BI_SG_SHUFFLE_XOR    ? "bfly"
                       : b == BI_SG_SHUFFLE_UP   ? "up"
                       : b == BI_SG_SHUFFLE_DOWN ? "down"
                                                 : "idx";
    /* The first lane is an absolute lane number: no segment. An xor mask is taken modulo
       W, as a whole warp takes it modulo 32 (bfly reads b[4:0]), so the partner stays in
       the segment. */
    if (b == BI_SG_BROADCAST_FIRST) return shfl_val(g, mode, m, v, t, x, lg_i32(g, 0x1f));
    if (b == BI_SG_SHUFFLE_XOR && sg_w(g) < 32)
      x = LLVMBuildAnd(g->b, x, lg_i32(g, sg_w(g) - 1), "");
    return shfl_val(g, mode, m, v, t, x, sg_c(g, b == BI_SG_SHUFFLE_UP ? 0 : 0x1f));
  }
  default: return sg_reduce(g, e);
  }
}

/* ---------------------------------------------------------------- images (issue 30)
 * Reads and writes call their software form (frontend/opencl/image_lib.c: OpenCL's sampling and
 * conversions over raw texels), which reaches the surface through BI_SURF_LOAD/STORE; the
 * queries read the descriptor the runtime passes for the image (docs/bundle.md). */

LLVMTypeRef lg_image_type(LG *g) {
  LLVMTypeRef el[7] = {g->t_i64, g->t_i32, g->t_i32, g->t_i32, g->t_i32, g->t_i32, g->t_i32};
  return LLVMStructTypeInContext(g->ctx, el, 7, 0);
}

/* The surface instruction's geometry for an image type, and the coordinate operands in its
 * order (the layer first for arrays): x (bytes), y, z as BI_SURF_* take them. */
static const char *surf_geometry(KImageDim d, LLVMValueRef *xyz, LLVMValueRef *ops, int *n) {
  switch (d) {
  case KIMG_1D_ARRAY: ops[0] = xyz[1], ops[1] = xyz[0], *n = 2; return "1d.array";
  case KIMG_2D: ops[0] = xyz[0], ops[1] = xyz[1], *n = 2; return "2d";
  case KIMG_2D_ARRAY: ops[0] = xyz[2], ops[1] = xyz[0], ops[2] = xyz[1], *n = 3; return "2d.array";
  case KIMG_3D: ops[0] = xyz[0], ops[1] = xyz[1], ops[2] = xyz[2], *n = 3; return "3d";
  default: /* 1D (a 1D buffer is linear memory: buffer_texel) */
    ops[0] = xyz[0], *n = 1;
    return "1d";
  }
}

/* The element size in a surface instruction's name: b8/b16/b32 as i8/i16/i32, 8 and 16 bytes
 * as vectors of 32-bit words. */
static const char *surf_size(int bytes) {
  return bytes == 1   ? "i8"
         : bytes == 2 ? "i16"
         : bytes == 4 ? "i32"
         : bytes == 8 ? "v2i32"
                      : "v4i32";
}

/* What llvm.nvvm.suld.* returns for a texel of `bytes`: i16 for 1 and 2 bytes, i32 for 4, a
 * struct of 32-bit words above. */
static LLVMTypeRef suld_type(LG *g, int bytes) {
  LLVMTypeRef el[4] = {g->t_i32, g->t_i32, g->t_i32, g->t_i32};
  if (bytes <= 4) return bytes <= 2 ? g->t_i16 : g->t_i32;
  return LLVMStructTypeInContext(g->ctx, el, (unsigned)(bytes / 4), 0);
}

/* An image1d_buffer_t is linear memory on CUDA, its descriptor's first field the address
 * (runtime/cuda.c: a 1D surface is at most tens of thousands of texels wide, far below the
 * buffers such images view). A texel is a plain global load or store of its size, inside the
 * width only: outside, a load gives zeros and a store does nothing, as the surfaces' .zero. */
static LLVMValueRef buffer_texel(LG *g, LLVMValueRef d, LLVMValueRef x, int bytes,
                                 LLVMValueRef store) {
  LLVMValueRef limit =
      LLVMBuildMul(g->b, LLVMBuildExtractValue(g->b, d, 1, ""), lg_i32(g, (unsigned)bytes), "");
  LLVMValueRef in = LLVMBuildICmp(g->b, LLVMIntULT, x, limit, "");
  LLVMTypeRef vt = bytes == 1   ? g->t_i8
                   : bytes == 2 ? g->t_i16
                   : bytes == 4 ? g->t_i32
                                : LLVMVectorType(g->t_i32, (unsigned)bytes / 4);
  LLVMValueRef base = LLVMBuildIntToPtr(g->b, LLVMBuildExtractValue(g->b, d, 0, ""),
                                        LLVMPointerTypeInContext(g->ctx, 1), "");
  LLVMValueRef off = LLVMBuildSExt(g->b, x, g->t_i64, "");
  LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, g->t_i8, base, &off, 1, "");
  LLVMValueRef zero = LLVMConstNull(LLVMVectorType(g->t_i32, 4));
  LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "texel");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "texel.done");
  LLVMBuildCondBr(g->b, in, yes, done);
  LLVMPositionBuilderAtEnd(g->b, yes);
  LLVMValueRef v = zero;
  if (store) {
    LLVMValueRef w = store;
    if (bytes <= 4) {
      w = LLVMBuildExtractElement(g->b, store, lg_i32(g, 0), "");
      if (bytes < 4) w = LLVMBuildTrunc(g->b, w, vt, "");
    } else if (bytes == 8) { /* the first two words */
      LLVMValueRef m[2] = {lg_i32(g, 0), lg_i32(g, 1)};
      w = LLVMBuildShuffleVector(g->b, store, LLVMGetPoison(LLVMTypeOf(store)),
                                 LLVMConstVector(m, 2), "");
    }
    LLVMSetAlignment(LLVMBuildStore(g->b, w, p), (unsigned)bytes);
  } else {
    LLVMValueRef l = LLVMBuildLoad2(g->b, vt, p, "");
    LLVMSetAlignment(l, (unsigned)bytes);
    for (int i = 0; i < (bytes <= 4 ? 1 : bytes / 4); i++) {
      LLVMValueRef w =
          bytes <= 4 ? l : LLVMBuildExtractElement(g->b, l, lg_i32(g, (unsigned)i), "");
      if (bytes < 4) w = LLVMBuildZExt(g->b, w, g->t_i32, "");
      v = LLVMBuildInsertElement(g->b, v, w, lg_i32(g, (unsigned)i), "");
    }
  }
  LLVMBasicBlockRef yes_end = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, done);
  LLVMPositionBuilderAtEnd(g->b, done);
  if (store) return NULL;
  LLVMValueRef phi = LLVMBuildPhi(g->b, LLVMTypeOf(zero), "");
  LLVMValueRef vals[2] = {v, zero};
  LLVMBasicBlockRef blocks[2] = {yes_end, from};
  LLVMAddIncoming(phi, vals, blocks, 2);
  return phi;
}

static LLVMValueRef gen_surf(LG *g, KExpr *e) {
  bool load = e->builtin == BI_SURF_LOAD;
  KExpr *nb = e->args[load ? 4 : 5];
  int bytes = nb->kind == KE_ICONST ? (int)nb->ival : 0;
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16) {
    diag_ice(e->loc, "LLVM back end: surface access of %d bytes", bytes);
    return load ? LLVMGetUndef(lg_type(g, e->type)) : NULL;
  }
  LLVMValueRef d = lg_expr(g, e->args[0]);
  LLVMValueRef surf = LLVMBuildExtractValue(g->b, d, 0, "surf");
  LLVMValueRef xyz[3], ops[12];
  for (int i = 0; i < 3; i++) xyz[i] = lg_expr(g, e->args[1 + i]);
  if (e->args[0]->type->len == KIMG_1D_BUFFER)
    return buffer_texel(g, d, xyz[0], bytes, load ? NULL : lg_expr(g, e->args[4]));
  int n = 0;
  const char *geo = surf_geometry((KImageDim)e->args[0]->type->len, xyz, ops + 1, &n);
  ops[0] = surf;
  n++;
  /* .zero: outside the surface a load gives 0 and a store is dropped, never a trap. */
  const char *size = surf_size(bytes);
  int words = bytes <= 4 ? 1 : bytes / 4;
  char name[64];
  LLVMTypeRef pt[12];
  for (int i = 0; i < n; i++) pt[i] = LLVMTypeOf(ops[i]);
  if (load) {
    snprintf(name, sizeof name, "llvm.nvvm.suld.%s.%s.zero", geo, size);
    LLVMTypeRef rt = suld_type(g, bytes);
    LLVMValueRef r =
        lg_call(g, lg_decl(g, name, LLVMFunctionType(rt, pt, (unsigned)n, 0)), ops, (unsigned)n);
    LLVMValueRef v = LLVMConstNull(LLVMVectorType(g->t_i32, 4));
    for (int i = 0; i < words; i++) {
      LLVMValueRef w = words == 1 ? r : LLVMBuildExtractValue(g->b, r, (unsigned)i, "");
      if (bytes <= 2) w = LLVMBuildZExt(g->b, w, g->t_i32, "");
      v = LLVMBuildInsertElement(g->b, v, w, lg_i32(g, (unsigned)i), "");
    }
    return v;
  }
  LLVMValueRef v = lg_expr(g, e->args[4]);
  for (int i = 0; i < words; i++) {
    LLVMValueRef w = LLVMBuildExtractElement(g->b, v, lg_i32(g, (unsigned)i), "");
    if (bytes <= 2) w = LLVMBuildTrunc(g->b, w, g->t_i16, "");
    pt[n] = LLVMTypeOf(w);
    ops[n++] = w;
  }
  snprintf(name, sizeof name, "llvm.nvvm.sust.b.%s.%s.zero", geo, size);
  lg_call(g, lg_decl(g, name, LLVMFunctionType(g->t_void, pt, (unsigned)n, 0)), ops, (unsigned)n);
  return NULL;
}

static LLVMValueRef gen_image(LG *g, KExpr *e) {
  if (e->builtin == BI_IMAGE_READ || e->builtin == BI_IMAGE_WRITE) {
    if (!e->callee) {
      diag_ice(e->loc, "LLVM back end: an image %s without its software form",
               e->builtin == BI_IMAGE_READ ? "read" : "write");
      return e->type->kind == KT_VOID ? NULL : LLVMGetUndef(lg_type(g, e->type));
    }
    KExpr call = *e;
    call.kind = KE_CALL;
    return lg_expr(g, &call);
  }
  if (e->builtin == BI_SURF_LOAD || e->builtin == BI_SURF_STORE) return gen_surf(g, e);
  LLVMValueRef d = lg_expr(g, e->args[0]);
  unsigned field = e->builtin == BI_IMAGE_WIDTH           ? 1
                   : e->builtin == BI_IMAGE_HEIGHT        ? 2
                   : e->builtin == BI_IMAGE_DEPTH         ? 3
                   : e->builtin == BI_IMAGE_ARRAY_SIZE    ? 4
                   : e->builtin == BI_IMAGE_CHANNEL_ORDER ? 5
                   : e->builtin == BI_IMAGE_CHANNEL_TYPE  ? 6
                                                          : 0;
  if (field) return LLVMBuildExtractValue(g->b, d, field, "");
  /* BI_IMAGE_DIM: (width, height) or (width, height, depth, 0). */
  LLVMValueRef v = LLVMConstNull(lg_type(g, e->type));
  for (int i = 0; i < e->type->len && i < 3; i++)
    v = LLVMBuildInsertElement(g->b, v, LLVMBuildExtractValue(g->b, d, (unsigned)i + 1, ""),
                               lg_i32(g, (unsigned)i), "");
  return v;
}

/* CUDA's texture and surface objects (.cu input): tex.{1d,2d,3d} through the unified texture
 * mode (the object is the handle) and suld.b / sust.b of the texel's size, the boundary mode
 * the call names. The texel moves between the instruction's registers and T through memory
 * (SROA makes registers of it again). */
static LLVMValueRef texel_alloca(LG *g, const KType *t) {
  return lg_alloca(g, t, "texel");
}

static LLVMValueRef gen_cu_tex(LG *g, KExpr *e) {
  int n = 0;
  const KType *el = kir_texel_elem(e->type, &n);
  if (!el || el->size > 4) {
    diag_error(e->loc,
               "%s<%s>: the texel type must be a scalar of at most 32 bits or a CUDA "
               "vector type of one",
               kir_builtin_info(e->builtin)->name, kir_type_str(e->type));
    return LLVMGetUndef(lg_type(g, e->type));
  }
  KCuTexShape sh = kir_cuda_texture_shape(e->builtin);
  bool fetch = e->builtin == BI_CU_TEX1DFETCH;
  const char *rk = kir_is_float(el) ? "v4f32" : kir_is_signed(el) ? "v4s32" : "v4u32";
  /* tex.{1d,2d,3d}, tex.a1d/a2d (layered: the layer index first), tex.level.* (the level of
   * detail last). */
  char name[80];
  snprintf(name, sizeof name, "llvm.nvvm.tex.unified.%dd%s%s.%s.%s", sh.dims,
           sh.layered ? ".array" : "", sh.lod ? ".level" : "", rk, fetch ? "s32" : "f32");
  LLVMValueRef ops[6];
  LLVMTypeRef pt[6];
  int k = 0;
  ops[k++] = lg_expr(g, e->args[0]); /* the object */
  if (sh.layered) ops[k++] = lg_expr(g, e->args[1 + sh.dims]);
  for (int i = 1; i <= sh.dims; i++) ops[k++] = lg_expr(g, e->args[i]);
  if (sh.lod) ops[k++] = lg_expr(g, e->args[e->nargs - 1]);
  for (int i = 0; i < k; i++) pt[i] = LLVMTypeOf(ops[i]);
  LLVMTypeRef ct = kir_is_float(el) ? g->t_f32 : g->t_i32, el4[4] = {ct, ct, ct, ct};
  LLVMTypeRef rt = LLVMStructTypeInContext(g->ctx, el4, 4, 0);
  LLVMValueRef r =
      lg_call(g, lg_decl(g, name, LLVMFunctionType(rt, pt, (unsigned)k, 0)), ops, (unsigned)k);
  LLVMValueRef a = texel_alloca(g, e->type);
  for (int i = 0; i < n; i++) {
    LLVMValueRef c = LLVMBuildExtractValue(g->b, r, (unsigned)i, "");
    if (!kir_is_float(el) && el->size < 4) c = LLVMBuildTrunc(g->b, c, lg_type(g, el), "");
    LLVMValueRef at = e->type->kind == KT_STRUCT ? lg_field_ptr(g, e->type->st, a, i) : a;
    LLVMBuildStore(g->b, c, at);
  }
  return LLVMBuildLoad2(g->b, lg_type(g, e->type), a, "");
}

static LLVMValueRef gen_cu_surf(LG *g, KExpr *e) {
  KCuTexShape sh = kir_cuda_texture_shape(e->builtin);
  bool write = sh.write;
  int dims = sh.dims;
  const KType *t = write ? e->args[0]->type : e->type;
  int n = 0, bytes = (int)t->size;
  KExpr *mode = e->args[e->nargs - 1];
  if (!kir_texel_elem(t, &n) ||
      (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)) {
    diag_error(e->loc,
               "%s<%s>: the texel type must be a scalar or a CUDA vector type of 1, 2, 4, "
               "8 or 16 bytes",
               kir_builtin_info(e->builtin)->name, kir_type_str(t));
    return write ? NULL : LLVMGetUndef(lg_type(g, e->type));
  }
  if (mode->kind != KE_ICONST || mode->ival > 2) {
    diag_error(e->loc,
               "%s: the boundary mode must be a constant (cudaBoundaryModeZero, "
               "cudaBoundaryModeClamp or cudaBoundaryModeTrap)",
               kir_builtin_info(e->builtin)->name);
    return write ? NULL : LLVMGetUndef(lg_type(g, e->type));
  }
  static const char *const modes[] = {"zero", "clamp", "trap"};
  const char *size = surf_size(bytes);
  int words = bytes <= 4 ? 1 : bytes / 4;
  LLVMTypeRef small = bytes == 1 ? g->t_i8 : bytes == 2 ? g->t_i16 : g->t_i32;
  LLVMValueRef ops[12];
  LLVMTypeRef pt[12];
  int k = 0, first = write ? 1 : 0;
  /* The object, [the layer (a1d, a2d),] then x[, y[, z]]. */
  ops[k++] = lg_expr(g, e->args[first]);
  if (sh.layered) ops[k++] = lg_expr(g, e->args[first + 1 + dims]);
  for (int i = first + 1; i < first + 1 + dims; i++) ops[k++] = lg_expr(g, e->args[i]);
  for (int i = 0; i < k; i++) pt[i] = LLVMTypeOf(ops[i]);
  const char *geo = sh.layered  ? (dims == 1 ? "1d.array" : "2d.array")
                    : dims == 1 ? "1d"
                    : dims == 2 ? "2d"
                                : "3d";
  LLVMValueRef a = texel_alloca(g, t);
  char name[64];
  if (write) {
    LLVMBuildStore(g->b, lg_expr(g, e->args[0]), a);
    for (int i = 0; i < words; i++) {
      LLVMValueRef off = lg_i32(g, (unsigned)(4 * i));
      LLVMValueRef p = words == 1 ? a : LLVMBuildInBoundsGEP2(g->b, g->t_i8, a, &off, 1, "");
      LLVMValueRef w = LLVMBuildLoad2(g->b, small, p, "");
      if (bytes == 1) w = LLVMBuildZExt(g->b, w, g->t_i16, ""); /* the b8 forms take i16 */
      ops[k] = w;
      pt[k++] = LLVMTypeOf(w);
    }
    snprintf(name, sizeof name, "llvm.nvvm.sust.b.%s.%s.%s", geo, size, modes[mode->ival]);
    lg_call(g, lg_decl(g, name, LLVMFunctionType(g->t_void, pt, (unsigned)k, 0)), ops, (unsigned)k);
    return NULL;
  }
  snprintf(name, sizeof name, "llvm.nvvm.suld.%s.%s.%s", geo, size, modes[mode->ival]);
  LLVMTypeRef rt = suld_type(g, bytes);
  LLVMValueRef r =
      lg_call(g, lg_decl(g, name, LLVMFunctionType(rt, pt, (unsigned)k, 0)), ops, (unsigned)k);
  for (int i = 0; i < words; i++) {
    LLVMValueRef w = words == 1 ? r : LLVMBuildExtractValue(g->b, r, (unsigned)i, "");
    if (bytes == 1) w = LLVMBuildTrunc(g->b, w, g->t_i8, "");
    LLVMValueRef off = lg_i32(g, (unsigned)(4 * i));
    LLVMValueRef p = words == 1 ? a : LLVMBuildInBoundsGEP2(g->b, g->t_i8, a, &off, 1, "");
    LLVMBuildStore(g->b, w, p);
  }
  return LLVMBuildLoad2(g->b, lg_type(g, e->type), a, "");
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
    lg_call(g,
            lg_intrinsic(g, e->sys_scope ? "llvm.nvvm.membar.sys" : "llvm.nvvm.membar.gl", NULL, 0),
            NULL, 0);
    return NULL;
  case BI_THREADFENCE_BLOCK:
    lg_call(g, lg_intrinsic(g, "llvm.nvvm.membar.cta", NULL, 0), NULL, 0);
    return NULL;
  case BI_PRINTF: return gen_printf(g, e);
  default: break;
  }
  if (kir_builtin_is_image(e->builtin) || e->builtin == BI_SURF_LOAD || e->builtin == BI_SURF_STORE)
    return gen_image(g, e);
  if (kir_builtin_is_cuda_texture(e->builtin))
    return kir_cuda_texture_shape(e->builtin).surf ? gen_cu_surf(g, e) : gen_cu_tex(g, e);
  if (kir_builtin_is_warp(e->builtin)) return gen_warp(g, e);
  if (kir_builtin_is_subgroup(e->builtin)) return gen_subgroup(g, e);
  if (kir_builtin_is_cuda_intrinsic(e->builtin)) return gen_cuda_int(g, e);
  if (e->builtin >= BI_ATOMIC_ADD && e->builtin <= BI_ATOMIC_CAS) return gen_atomic(g, e);
  switch (e->builtin) {
  case BI_SELECT: return gen_select(g, e);
  case BI_VLOAD: return gen_vload(g, e);
  case BI_VSTORE: return gen_vstore(g, e);
  default: break;
  }
  LLVMValueRef a[3] = {0};
  const KType *at[3] = {0};
  if (e->nargs > 3) {
    diag_ice(e->loc, "LLVM back end: builtin %d with %d arguments", (int)e->builtin, e->nargs);
    return LLVMGetUndef(lg_type(g, e->type));
  }
  /* Arguments typed by the result, except where the argument's own type matters. */
  bool keep = is_classify(e->builtin) || e->builtin == BI_CONVERT_SAT ||
              (e->builtin == BI_ABS && kir_is_int(kir_elem(e->args[0]->type)));
  for (int i = 0; i < e->nargs; i++) {
    a[i] = lg_expr(g, e->args[i]);
    at[i] = e->args[i]->type;
    if (!keep) {
      a[i] = lg_convert(g, a[i], at[i], e->type);
      at[i] = e->type;
    }
  }
  const KType *rt = e->type;
  bool classify = is_classify(e->builtin);
  if (!kir_is_vec(rt)) {
    LLVMValueRef r = scalar_builtin(g, e, rt, at, a);
    if (classify) return LLVMBuildZExt(g->b, r, lg_type(g, rt), ""); /* int 1 or 0 */
    if (e->builtin == BI_ABS) return lg_convert(g, r, at[0], rt);
    return r;
  }
  /* Vectors: component by component (NVPTX has no vector arithmetic to map them to, and
   * libdevice is scalar). Classification gives -1 (true) or 0 per component. */
  LLVMValueRef v = LLVMGetPoison(lg_type(g, rt));
  const KType *et = rt->base;
  for (int c = 0; c < rt->len; c++) {
    LLVMValueRef sa[3];
    const KType *sat[3];
    for (int i = 0; i < e->nargs; i++) {
      bool vec = kir_is_vec(at[i]);
      sa[i] = vec ? LLVMBuildExtractElement(g->b, a[i], lg_i32(g, (unsigned)c), "") : a[i];
      sat[i] = vec ? at[i]->base : at[i];
    }
    LLVMValueRef r = scalar_builtin(g, e, et, sat, sa);
    if (classify)
      r = LLVMBuildSExt(g->b, r, lg_type(g, et), "");
    else if (e->builtin == BI_ABS)
      r = lg_convert(g, r, sat[0], et);
    v = LLVMBuildInsertElement(g->b, v, r, lg_i32(g, (unsigned)c), "");
  }
  return v;
}

/* ---------------------------------------------------------------- inline PTX (KE_ASM)
 *
 * CUDA's asm statement as LLVM inline assembly: GCC's template (%N, %%) in LLVM's syntax
 * ($N, %, $$ for a literal $), each operand of the type its constraint letter names (h: 16,
 * r: 32, l: 64-bit integers, f: float, d: double, n: an immediate), outputs returned by the
 * call and stored through the pointers KIR gives, a "+" output also passed in, tied to
 * itself, after the inputs (GCC numbers it once, as an output). */

static LLVMTypeRef asm_type(LG *g, char letter, LLVMTypeRef given) {
  switch (letter) {
  case 'h': return g->t_i16;
  case 'r': return g->t_i32;
  case 'l': return g->t_i64;
  case 'f': return g->t_f32;
  case 'd': return g->t_f64;
  default: return given;
  }
}

/* The width of an integer or floating-point scalar type. */
static unsigned scalar_bits(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t);
  case LLVMDoubleTypeKind: return 64;
  case LLVMHalfTypeKind: return 16;
  default: return 32;
  }
}

/* v (of KIR type t) as LLVM type to: pointers through integers, equal sizes bit for bit,
 * integers of other sizes truncated or extended as t's signedness says. */
static LLVMValueRef asm_fit(LG *g, LLVMValueRef v, const KType *t, LLVMTypeRef to) {
  LLVMTypeRef from = LLVMTypeOf(v);
  if (from == to) return v;
  if (LLVMGetTypeKind(from) == LLVMPointerTypeKind) return LLVMBuildPtrToInt(g->b, v, to, "");
  if (LLVMGetTypeKind(to) == LLVMPointerTypeKind) return LLVMBuildIntToPtr(g->b, v, to, "");
  bool fi = LLVMGetTypeKind(from) == LLVMIntegerTypeKind,
       ti = LLVMGetTypeKind(to) == LLVMIntegerTypeKind;
  unsigned fb = scalar_bits(from), tb = scalar_bits(to);
  if (fb == tb) return LLVMBuildBitCast(g->b, v, to, "");
  if (!fi) v = LLVMBuildBitCast(g->b, v, LLVMIntTypeInContext(g->ctx, fb), "");
  LLVMTypeRef it = ti ? to : LLVMIntTypeInContext(g->ctx, tb);
  v = fb > tb                 ? LLVMBuildTrunc(g->b, v, it, "")
      : t && kir_is_signed(t) ? LLVMBuildSExt(g->b, v, it, "")
                              : LLVMBuildZExt(g->b, v, it, "");
  return ti ? v : LLVMBuildBitCast(g->b, v, to, "");
}

LLVMValueRef lg_asm(LG *g, KExpr *e) {
  const KAsm *a = e->asm_;
  int n = a->nout + a->nin;
  KBuf text = {0}, cons = {0};
  for (const char *p = a->text; *p; p++) {
    if (*p == '%' && p[1] == '%')
      kbuf_append(&text, p++, 1);
    else if (*p == '%' && p[1] >= '0' && p[1] <= '9')
      kbuf_puts(&text, "$");
    else if (*p == '$')
      kbuf_puts(&text, "$$");
    else
      kbuf_append(&text, p, 1);
  }
  LLVMTypeRef *ot = calloc((size_t)n + 1, sizeof *ot), *it = calloc((size_t)2 * n + 1, sizeof *it);
  LLVMValueRef *iv = calloc((size_t)2 * n + 1, sizeof *iv), *op = calloc((size_t)n + 1, sizeof *op);
  int nin = 0;
  for (int i = 0; i < a->nout; i++) {
    const char *c = a->cons[i];
    const char *body = c + 1; /* after '=' or '+' */
    const KType *pt = e->args[i]->type->base;
    op[i] = lg_expr(g, e->args[i]);
    ot[i] = asm_type(g, body[strspn(body, "&")], lg_type(g, pt));
    kbuf_printf(&cons, "%s=%s", i ? "," : "", body);
  }
  for (int j = 0; j < a->nin; j++) {
    KExpr *x = e->args[a->nout + j];
    const char *c = a->cons[a->nout + j];
    LLVMValueRef v = lg_expr(g, x);
    iv[nin] = c[0] == 'n' ? v : asm_fit(g, v, x->type, asm_type(g, c[0], LLVMTypeOf(v)));
    it[nin] = LLVMTypeOf(iv[nin]);
    nin++;
    kbuf_printf(&cons, "%s%s", a->nout + j ? "," : "", c);
  }
  for (int i = 0; i < a->nout; i++) { /* "+": the output's value goes in too, tied to it */
    if (a->cons[i][0] != '+') continue;
    const KType *pt = e->args[i]->type->base;
    LV lv = {.ptr = op[i], .as = lg_as(e->args[i]->type->as)};
    iv[nin] = asm_fit(g, lg_load(g, lv, pt), pt, ot[i]);
    it[nin++] = ot[i];
    kbuf_printf(&cons, ",%d", i);
  }
  for (int i = 0; i < a->nclobbers; i++) kbuf_printf(&cons, ",~{%s}", a->clobbers[i]);
  LLVMTypeRef rt = a->nout == 0   ? LLVMVoidTypeInContext(g->ctx)
                   : a->nout == 1 ? ot[0]
                                  : LLVMStructTypeInContext(g->ctx, ot, (unsigned)a->nout, 0);
  LLVMTypeRef fty = LLVMFunctionType(rt, it, (unsigned)nin, 0);
  const char *cs = cons.data ? cons.data : "";
  if (*cs == ',') cs++;
  LLVMValueRef asmv =
      LLVMGetInlineAsm(fty, text.data ? text.data : "", text.len, cs, strlen(cs),
                       a->is_volatile || a->nout == 0, 0, LLVMInlineAsmDialectATT, 0);
  LLVMValueRef r = LLVMBuildCall2(g->b, fty, asmv, iv, (unsigned)nin, "");
  for (int i = 0; i < a->nout; i++) {
    const KType *pt = e->args[i]->type->base;
    LLVMValueRef v = a->nout == 1 ? r : LLVMBuildExtractValue(g->b, r, (unsigned)i, "");
    LV lv = {.ptr = op[i], .as = lg_as(e->args[i]->type->as)};
    lg_store(g, lv, pt, asm_fit(g, v, pt, lg_type(g, pt)));
  }
  free(ot), free(it), free(iv), free(op), free(text.data), free(cons.data);
  return NULL;
}
