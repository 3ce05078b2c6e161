/* llvm_expr.c — KIR expressions to LLVM IR: lvalues (addresses), rvalues, conversions,
 * short-circuit logic, assignments and object initialisation. */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "llvm_gen.h"

static unsigned align_of(const KType *t) {
  return (unsigned)(t->align > 0 ? t->align : 1);
}

static bool is_aggregate(const KType *t) {
  return t->kind == KT_STRUCT || t->kind == KT_ARRAY;
}

/* The width of an integer type, or of a vector's integer elements. */
static unsigned int_bits(const KType *t) {
  switch (kir_elem((KType *)t)->kind) {
  case KT_BOOL:
  case KT_I8:
  case KT_U8: return 8;
  case KT_I16:
  case KT_U16: return 16;
  case KT_I32:
  case KT_U32: return 32;
  default: return 64;
  }
}

/* The element type GEP steps over for a pointer to t (void * arithmetic steps bytes). */
static LLVMTypeRef elem_type(LG *g, const KType *t) {
  return t->kind == KT_VOID ? g->t_i8 : lg_type(g, t);
}

LLVMValueRef lg_fp(LG *g, LLVMValueRef inst) {
  if (g->fmf && LLVMIsAInstruction(inst) && LLVMCanValueUseFastMathFlags(inst))
    LLVMSetFastMathFlags(inst, g->fmf);
  return inst;
}

bool lg_block_open(LG *g) {
  return !LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(g->b));
}

void lg_ensure_block(LG *g) {
  if (lg_block_open(g)) return;
  LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->ctx, g->fn, "dead"));
}

static LLVMBasicBlockRef new_block(LG *g, const char *name) {
  return LLVMAppendBasicBlockInContext(g->ctx, g->fn, name);
}

LLVMValueRef lg_cast_as(LG *g, LLVMValueRef p, unsigned from, unsigned to) {
  if (from == to) return p;
  /* PTX converts between a specific space and generic only (cvta); go through generic. */
  if (from != 0 && to != 0) p = lg_cast_as(g, p, from, 0);
  if (LLVMIsConstant(p)) return LLVMConstAddrSpaceCast(p, LLVMPointerTypeInContext(g->ctx, to));
  return LLVMBuildAddrSpaceCast(g->b, p, LLVMPointerTypeInContext(g->ctx, to), "");
}

/* ---------------------------------------------------------------- vectors */

LLVMValueRef lg_i32(LG *g, unsigned v) {
  return LLVMConstInt(g->t_i32, v, 0);
}

/* The vector of n copies of scalar v. */
LLVMValueRef lg_splat(LG *g, LLVMValueRef v, unsigned n) {
  LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), n);
  if (LLVMIsConstant(v)) {
    LLVMValueRef el[16];
    for (unsigned i = 0; i < n; i++) el[i] = v;
    return LLVMConstVector(el, n);
  }
  LLVMValueRef one = LLVMBuildInsertElement(g->b, LLVMGetPoison(vt), v, lg_i32(g, 0), "");
  LLVMValueRef zero = LLVMConstNull(LLVMVectorType(g->t_i32, n));
  return LLVMBuildShuffleVector(g->b, one, LLVMGetPoison(vt), zero, "splat");
}

/* Components idx[0..n) of vector v: the element itself when n == 1, else a vector. An index
 * past v's length (only as_T's 3 -> 4 widening asks) gives an undefined component. */
LLVMValueRef lg_shuffle(LG *g, LLVMValueRef v, const uint8_t *idx, int n) {
  if (n == 1) return LLVMBuildExtractElement(g->b, v, lg_i32(g, idx[0]), "");
  unsigned len = LLVMGetVectorSize(LLVMTypeOf(v));
  LLVMValueRef mask[16];
  for (int i = 0; i < n; i++) mask[i] = idx[i] < len ? lg_i32(g, idx[i]) : LLVMGetUndef(g->t_i32);
  return LLVMBuildShuffleVector(g->b, v, LLVMGetPoison(LLVMTypeOf(v)),
                                LLVMConstVector(mask, (unsigned)n), "");
}

/* The alignment of component i of a vector of type vt stored at an address aligned to vt. */
static unsigned comp_align(const KType *vt, int i) {
  unsigned off = (unsigned)(i * vt->base->size), al = align_of(vt);
  if (off == 0) return al;
  unsigned low = off & -off;
  return low < al ? low : al;
}

static LLVMValueRef comp_ptr(LG *g, LV lv, int i) {
  LLVMValueRef idx = LLVMConstInt(g->t_i64, (unsigned long long)i, 0);
  return LLVMBuildInBoundsGEP2(g->b, lg_type(g, lv.vt->base), lv.ptr, &idx, 1, "");
}

LLVMValueRef lg_load(LG *g, LV lv, const KType *t) {
  if (lv.vt && lv.nswz == 1) { /* one component: read just it */
    LLVMValueRef v = LLVMBuildLoad2(g->b, lg_type(g, t), comp_ptr(g, lv, lv.swz[0]), "");
    LLVMSetAlignment(v, comp_align(lv.vt, lv.swz[0]));
    if (lv.vol) LLVMSetVolatile(v, 1);
    return v;
  }
  if (lv.vt) {
    LV whole = {.ptr = lv.ptr, .as = lv.as, .vol = lv.vol};
    return lg_shuffle(g, lg_load(g, whole, lv.vt), lv.swz, lv.nswz);
  }
  LLVMValueRef v = LLVMBuildLoad2(g->b, lg_type(g, t), lv.ptr, "");
  LLVMSetAlignment(v, align_of(t));
  if (lv.vol) LLVMSetVolatile(v, 1);
  return v;
}

void lg_store(LG *g, LV lv, const KType *t, LLVMValueRef v) {
  if (lv.vt) {
    bool whole = lv.nswz == lv.vt->len;
    for (int i = 0; i < lv.nswz && whole; i++) whole = lv.swz[i] == i;
    if (whole) { /* v.xyzw = ...: the vector in order */
      lg_store(g, (LV){.ptr = lv.ptr, .as = lv.as, .vol = lv.vol}, lv.vt, v);
      return;
    }
    /* Each named component on its own: the others are neither read nor written. */
    for (int i = 0; i < lv.nswz; i++) {
      LLVMValueRef c =
          lv.nswz == 1 ? v : LLVMBuildExtractElement(g->b, v, lg_i32(g, (unsigned)i), "");
      LLVMValueRef s = LLVMBuildStore(g->b, c, comp_ptr(g, lv, lv.swz[i]));
      LLVMSetAlignment(s, comp_align(lv.vt, lv.swz[i]));
      if (lv.vol) LLVMSetVolatile(s, 1);
    }
    return;
  }
  LLVMValueRef s = LLVMBuildStore(g->b, v, lv.ptr);
  LLVMSetAlignment(s, align_of(t));
  if (lv.vol) LLVMSetVolatile(s, 1);
}

static LLVMValueRef size_const(LG *g, int64_t n) {
  return LLVMConstInt(g->t_i64, (unsigned long long)n, 0);
}

/* ---------------------------------------------------------------- conversions */

static LLVMValueRef truth(LG *g, LLVMValueRef v, const KType *t) {
  if (kir_is_float(t))
    return lg_fp(g, LLVMBuildFCmp(g->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), ""));
  if (t->kind == KT_PTR) return LLVMBuildIsNotNull(g->b, v, "");
  return LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
}

LLVMValueRef lg_convert(LG *g, LLVMValueRef v, const KType *from, const KType *to) {
  if (from == to || !v) return v;
  if (to->kind == KT_VOID) return NULL;
  if (to->kind == KT_VEC && from->kind != KT_VEC) /* KC_SPLAT */
    return lg_splat(g, lg_convert(g, v, from, to->base), (unsigned)to->len);
  LLVMTypeRef ty = lg_type(g, to);
  if (to->kind == KT_VEC) {
    /* Component-wise: LLVM's conversions take vectors as they take scalars. */
    if (from->len != to->len) {
      diag_ice((KLoc){0}, "LLVM back end: conversion from '%s' to '%s'", kir_type_str(from),
               kir_type_str(to));
      return LLVMGetUndef(ty);
    }
    from = from->base;
    to = to->base;
    if (from == to) return v;
  }
  if (to->kind == KT_BOOL) return LLVMBuildZExt(g->b, truth(g, v, from), ty, "");
  if (kir_is_int(to)) {
    if (kir_is_int(from)) {
      unsigned fb = int_bits(from), tb = int_bits(to);
      if (fb == tb) return v;
      if (tb < fb) return LLVMBuildTrunc(g->b, v, ty, "");
      return kir_is_signed(from) ? LLVMBuildSExt(g->b, v, ty, "") : LLVMBuildZExt(g->b, v, ty, "");
    }
    if (kir_is_float(from))
      return kir_is_signed(to) ? LLVMBuildFPToSI(g->b, v, ty, "")
                               : LLVMBuildFPToUI(g->b, v, ty, "");
    if (from->kind == KT_PTR) return LLVMBuildPtrToInt(g->b, v, ty, "");
  }
  if (kir_is_float(to)) {
    if (kir_is_int(from))
      return kir_is_signed(from) ? LLVMBuildSIToFP(g->b, v, ty, "")
                                 : LLVMBuildUIToFP(g->b, v, ty, "");
    if (kir_is_float(from)) {
      if (from->kind == to->kind) return v;
      return lg_fp(g, to->kind == KT_F64 ? LLVMBuildFPExt(g->b, v, ty, "")
                                         : LLVMBuildFPTrunc(g->b, v, ty, ""));
    }
  }
  if (to->kind == KT_PTR) {
    if (from->kind == KT_PTR) return lg_cast_as(g, v, lg_as(from->as), lg_as(to->as));
    if (kir_is_int(from)) return LLVMBuildIntToPtr(g->b, v, ty, "");
  }
  if (LLVMTypeOf(v) == ty) return v; /* same struct or array */
  diag_ice((KLoc){0}, "LLVM back end: no conversion from '%s' to '%s'", kir_type_str(from),
           kir_type_str(to));
  return LLVMGetUndef(ty);
}

/* An integer index as i64 for GEP (sign- or zero-extended by its KIR type). */
static LLVMValueRef index64(LG *g, KExpr *e) {
  LLVMValueRef v = lg_expr(g, e);
  if (int_bits(e->type) == 64) return v;
  return kir_is_signed(e->type) ? LLVMBuildSExt(g->b, v, g->t_i64, "")
                                : LLVMBuildZExt(g->b, v, g->t_i64, "");
}

static LLVMValueRef gep1(LG *g, LLVMTypeRef ety, LLVMValueRef p, LLVMValueRef idx) {
  return LLVMBuildInBoundsGEP2(g->b, ety, p, &idx, 1, "");
}

/* ---------------------------------------------------------------- lvalues */

static LV spill(LG *g, KExpr *e) {
  LLVMValueRef tmp = lg_alloca(g, e->type, "tmp");
  LV lv = {.ptr = tmp};
  lg_store(g, lv, e->type, lg_expr(g, e));
  return lv;
}

LV lg_lvalue(LG *g, KExpr *e) {
  switch (e->kind) {
  case KE_VAR:
  case KE_GVAR: {
    KVar *v = e->var;
    if (!v->aux) {
      diag_ice(e->loc, "LLVM back end: '%s' used before its declaration", v->name);
      return spill(g, e);
    }
    unsigned as = v->kind == KV_SHARED || v->kind == KV_CONSTANT ? lg_as(kir_gvar_space(v)) : 0;
    return (LV){.ptr = v->aux, .as = as};
  }
  case KE_INDEX: {
    if (e->a->type->kind == KT_ARRAY) { /* not decayed: index the array object */
      LV base = lg_lvalue(g, e->a);
      LLVMValueRef idx = index64(g, e->b);
      return (LV){
          .ptr = gep1(g, elem_type(g, e->type), base.ptr, idx), .as = base.as, .vol = base.vol};
    }
    const KType *pt = e->a->type;
    LLVMValueRef p = lg_expr(g, e->a);
    LLVMValueRef idx = index64(g, e->b);
    return (LV){.ptr = gep1(g, elem_type(g, e->type), p, idx),
                .as = lg_as(pt->as),
                .vol = (pt->qual & KQ_VOLATILE) != 0};
  }
  case KE_DEREF: {
    const KType *pt = e->a->type;
    LLVMValueRef p = lg_expr(g, e->a);
    return (LV){.ptr = p, .as = lg_as(pt->as), .vol = (pt->qual & KQ_VOLATILE) != 0};
  }
  case KE_MEMBER: {
    LV base = kir_is_lvalue(e->a) ? lg_lvalue(g, e->a) : spill(g, e->a);
    LLVMValueRef p = lg_field_ptr(g, e->a->type->st, base.ptr, e->field);
    return (LV){.ptr = p, .as = base.as, .vol = base.vol};
  }
  case KE_SWIZZLE: {
    if (!kir_is_lvalue(e)) return spill(g, e);
    LV lv;
    if (e->a->kind == KE_SWIZZLE) { /* v.zyx.xy: compose the two selections */
      lv = lg_lvalue(g, e->a);
      uint8_t inner[16];
      memcpy(inner, lv.swz, sizeof inner);
      for (int i = 0; i < e->nswz; i++) lv.swz[i] = inner[e->swz[i]];
    } else {
      lv = lg_lvalue(g, e->a);
      lv.vt = e->a->type;
      memcpy(lv.swz, e->swz, sizeof lv.swz);
    }
    lv.nswz = e->nswz;
    return lv;
  }
  default: /* a struct-valued call or ?: whose member or element is wanted */ return spill(g, e);
  }
}

/* ---------------------------------------------------------------- arithmetic */

static bool is_cmp(KOp op) {
  return op >= KB_EQ && op <= KB_GE;
}

/* A comparison as i1 (a vector of i1 for vectors). */
static LLVMValueRef gen_cmp(LG *g, KExpr *e) {
  const KType *t = kir_elem(e->a->type);
  LLVMValueRef l = lg_expr(g, e->a), r = lg_expr(g, e->b);
  if (kir_is_float(t)) {
    static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                           LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
    return lg_fp(g, LLVMBuildFCmp(g->b, fp[e->op - KB_EQ], l, r, ""));
  }
  static const LLVMIntPredicate s[] = {LLVMIntEQ,  LLVMIntNE,  LLVMIntSLT,
                                       LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  static const LLVMIntPredicate u[] = {LLVMIntEQ,  LLVMIntNE,  LLVMIntULT,
                                       LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
  if (t->kind == KT_PTR && LLVMTypeOf(l) != LLVMTypeOf(r)) /* defensive: mixed spaces */
    r = lg_cast_as(g, r, lg_as(e->b->type->as), lg_as(t->as));
  return LLVMBuildICmp(g->b, kir_is_signed(t) ? s[e->op - KB_EQ] : u[e->op - KB_EQ], l, r, "");
}

/* && and ||: the right operand runs only when the left does not decide. Returns i1. */
static LLVMValueRef gen_logical(LG *g, KExpr *e) {
  bool is_and = e->op == KB_LAND;
  LLVMValueRef l = lg_cond(g, e->a);
  LLVMBasicBlockRef lbb = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef rhs = new_block(g, is_and ? "land.rhs" : "lor.rhs");
  LLVMBasicBlockRef end = new_block(g, is_and ? "land.end" : "lor.end");
  if (is_and)
    LLVMBuildCondBr(g->b, l, rhs, end);
  else
    LLVMBuildCondBr(g->b, l, end, rhs);
  LLVMPositionBuilderAtEnd(g->b, rhs);
  LLVMValueRef r = lg_cond(g, e->b);
  LLVMBasicBlockRef rbb = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, end);
  LLVMPositionBuilderAtEnd(g->b, end);
  LLVMValueRef phi = LLVMBuildPhi(g->b, g->t_i1, "");
  LLVMValueRef vals[2] = {LLVMConstInt(g->t_i1, is_and ? 0 : 1, 0), r};
  LLVMBasicBlockRef bbs[2] = {lbb, rbb};
  LLVMAddIncoming(phi, vals, bbs, 2);
  return phi;
}

LLVMValueRef lg_cond(LG *g, KExpr *e) {
  if (e->kind == KE_BINARY && is_cmp(e->op)) return gen_cmp(g, e);
  if (e->kind == KE_BINARY && (e->op == KB_LAND || e->op == KB_LOR)) return gen_logical(g, e);
  if (e->kind == KE_UNARY && e->op == KU_LNOT) return LLVMBuildNot(g->b, lg_cond(g, e->a), "");
  if (e->kind == KE_CAST && e->type->kind == KT_BOOL && kir_is_scalar(e->a->type))
    return lg_cond(g, e->a); /* (bool)x is as true as x */
  return truth(g, lg_expr(g, e), e->type);
}

/* l op r in type t (r has type rt: differs from t only for shifts). */
static LLVMValueRef arith(LG *g, KOp op, const KType *t, LLVMValueRef l, LLVMValueRef r,
                          const KType *rt) {
  LLVMBuilderRef b = g->b;
  if (kir_is_vec(t) && rt && !kir_is_vec(rt)) { /* a shift count left scalar */
    r = lg_convert(g, r, rt, t->base);
    r = lg_splat(g, r, (unsigned)t->len);
    rt = t;
  }
  if (kir_is_float(kir_elem((KType *)t))) {
    switch (op) {
    case KB_ADD: return lg_fp(g, LLVMBuildFAdd(b, l, r, ""));
    case KB_SUB: return lg_fp(g, LLVMBuildFSub(b, l, r, ""));
    case KB_MUL: return lg_fp(g, LLVMBuildFMul(b, l, r, ""));
    case KB_DIV: return lg_fp(g, LLVMBuildFDiv(b, l, r, ""));
    case KB_REM: return lg_fp(g, LLVMBuildFRem(b, l, r, ""));
    default: break;
    }
  } else {
    bool sg = kir_is_signed(kir_elem((KType *)t));
    /* nsw only on scalars: C promotes narrow scalars first; vector components wrap, as
     * clang has them. */
    bool nsw = sg && !kir_is_vec(t);
    if ((op == KB_SHL || op == KB_SHR) && rt && int_bits(rt) != int_bits(t)) {
      LLVMTypeRef ty = LLVMTypeOf(l);
      r = int_bits(rt) > int_bits(t) ? LLVMBuildTrunc(b, r, ty, "") : LLVMBuildZExt(b, r, ty, "");
    }
    switch (op) {
    /* Signed overflow is undefined in C, as in clang: nsw lets LLVM widen indices. */
    case KB_ADD: return nsw ? LLVMBuildNSWAdd(b, l, r, "") : LLVMBuildAdd(b, l, r, "");
    case KB_SUB: return nsw ? LLVMBuildNSWSub(b, l, r, "") : LLVMBuildSub(b, l, r, "");
    case KB_MUL: return nsw ? LLVMBuildNSWMul(b, l, r, "") : LLVMBuildMul(b, l, r, "");
    case KB_DIV: return sg ? LLVMBuildSDiv(b, l, r, "") : LLVMBuildUDiv(b, l, r, "");
    case KB_REM: return sg ? LLVMBuildSRem(b, l, r, "") : LLVMBuildURem(b, l, r, "");
    case KB_SHL: return LLVMBuildShl(b, l, r, "");
    case KB_SHR: return sg ? LLVMBuildAShr(b, l, r, "") : LLVMBuildLShr(b, l, r, "");
    case KB_AND: return LLVMBuildAnd(b, l, r, "");
    case KB_OR: return LLVMBuildOr(b, l, r, "");
    case KB_XOR: return LLVMBuildXor(b, l, r, "");
    default: break;
    }
  }
  diag_ice((KLoc){0}, "LLVM back end: operator %d on '%s'", (int)op, kir_type_str(t));
  return LLVMGetUndef(LLVMTypeOf(l));
}

static LLVMValueRef ptr_offset(LG *g, const KType *pt, LLVMValueRef p, KExpr *n, bool sub) {
  LLVMValueRef idx = index64(g, n);
  if (sub) idx = LLVMBuildNeg(g->b, idx, "");
  return gep1(g, elem_type(g, pt->base), p, idx);
}

/* arith() under the FP_CONTRACT pragma where e was written (KExpr.contract): the `contract`
 * flag taken off or put on for this one operation, which is what LLVM fuses on. */
static LLVMValueRef arith_contract(LG *g, const KExpr *e, KOp op, const KType *t, LLVMValueRef l,
                                   LLVMValueRef r, const KType *rt) {
  LLVMFastMathFlags saved = g->fmf;
  if (e->contract < 0) g->fmf &= ~(LLVMFastMathFlags)LLVMFastMathAllowContract;
  if (e->contract > 0) g->fmf |= LLVMFastMathAllowContract;
  LLVMValueRef v = arith(g, op, t, l, r, rt);
  g->fmf = saved;
  return v;
}

static LLVMValueRef gen_binary(LG *g, KExpr *e) {
  if (is_cmp(e->op) || e->op == KB_LAND || e->op == KB_LOR) {
    LLVMValueRef c = is_cmp(e->op) ? gen_cmp(g, e) : gen_logical(g, e);
    /* Vectors: each component -1 (true) or 0, in the mask type. */
    if (kir_is_vec(e->type)) return LLVMBuildSExt(g->b, c, lg_type(g, e->type), "");
    return LLVMBuildZExt(g->b, c, lg_type(g, e->type), "");
  }
  if (e->op == KB_PTR_ADD || e->op == KB_PTR_SUB)
    return ptr_offset(g, e->a->type, lg_expr(g, e->a), e->b, e->op == KB_PTR_SUB);
  if (e->op == KB_PTR_DIFF) {
    LLVMValueRef l = LLVMBuildPtrToInt(g->b, lg_expr(g, e->a), g->t_i64, "");
    LLVMValueRef r = LLVMBuildPtrToInt(g->b, lg_expr(g, e->b), g->t_i64, "");
    LLVMValueRef d = LLVMBuildSub(g->b, l, r, "");
    int sz = e->a->type->base->size > 0 ? e->a->type->base->size : 1;
    if (sz > 1) d = LLVMBuildExactSDiv(g->b, d, size_const(g, sz), "");
    return lg_convert(g, d, kir_type_scalar(KT_I64), e->type);
  }
  LLVMValueRef l = lg_expr(g, e->a), r = lg_expr(g, e->b);
  return arith_contract(g, e, e->op, e->a->type, l, r, e->b->type);
}

static LLVMValueRef gen_unary(LG *g, KExpr *e) {
  switch (e->op) {
  case KU_NEG: {
    LLVMValueRef v = lg_expr(g, e->a);
    if (kir_is_float(kir_elem(e->type))) return lg_fp(g, LLVMBuildFNeg(g->b, v, ""));
    return LLVMBuildNeg(g->b, v, "");
  }
  case KU_NOT: return LLVMBuildNot(g->b, lg_expr(g, e->a), "");
  case KU_LNOT: {
    LLVMValueRef c = LLVMBuildNot(g->b, lg_cond(g, e->a), "");
    return LLVMBuildZExt(g->b, c, lg_type(g, e->type), "");
  }
  default: break;
  }
  diag_ice(e->loc, "LLVM back end: unary operator %d", (int)e->op);
  return LLVMGetUndef(lg_type(g, e->type));
}

/* ---------------------------------------------------------------- assignment */

static void copy_object(LG *g, LV dst, LV src, const KType *t) {
  if (t->size <= 0) return;
  LLVMBuildMemCpy(g->b, dst.ptr, align_of(t), src.ptr, align_of(t), size_const(g, t->size));
}

static LLVMValueRef gen_assign(LG *g, KExpr *e) {
  const KType *t = e->a->type;
  if (e->op == KB_NONE) {
    if (is_aggregate(t) && kir_is_lvalue(e->b)) {
      LV src = lg_lvalue(g, e->b);
      LV dst = lg_lvalue(g, e->a);
      copy_object(g, dst, src, t);
      return lg_load(g, dst, t); /* the value, if anyone wants it; dead otherwise */
    }
    LLVMValueRef v = lg_expr(g, e->b);
    LV dst = lg_lvalue(g, e->a);
    lg_store(g, dst, t, v);
    return v;
  }
  LV dst = lg_lvalue(g, e->a);
  LLVMValueRef old = lg_load(g, dst, t);
  LLVMValueRef nv;
  if (e->op == KB_PTR_ADD || e->op == KB_PTR_SUB) {
    nv = ptr_offset(g, t, old, e->b, e->op == KB_PTR_SUB);
  } else {
    const KType *ot = e->optype ? e->optype : t;
    LLVMValueRef l = lg_convert(g, old, t, ot);
    LLVMValueRef r = lg_expr(g, e->b);
    bool shift = e->op == KB_SHL || e->op == KB_SHR;
    if (!shift) r = lg_convert(g, r, e->b->type, ot);
    nv = lg_convert(g, arith_contract(g, e, e->op, ot, l, r, shift ? e->b->type : ot), ot, t);
  }
  lg_store(g, dst, t, nv);
  return nv;
}

static LLVMValueRef gen_incdec(LG *g, KExpr *e) {
  const KType *t = e->a->type;
  bool inc = e->op == KU_PREINC || e->op == KU_POSTINC;
  bool pre = e->op == KU_PREINC || e->op == KU_PREDEC;
  LV lv = lg_lvalue(g, e->a);
  LLVMValueRef old = lg_load(g, lv, t), nv;
  const KType *et = kir_elem((KType *)t);
  LLVMTypeRef ty = lg_type(g, et);
  if (t->kind == KT_PTR) {
    nv = gep1(g, elem_type(g, t->base), old,
              LLVMConstInt(g->t_i64, inc ? 1 : (unsigned long long)-1, 1));
  } else if (kir_is_float(et)) {
    LLVMValueRef one = LLVMConstReal(ty, 1.0);
    if (kir_is_vec(t)) one = lg_splat(g, one, (unsigned)t->len);
    nv = lg_fp(g, inc ? LLVMBuildFAdd(g->b, old, one, "") : LLVMBuildFSub(g->b, old, one, ""));
  } else if (t->kind == KT_BOOL) { /* b++ makes it true; b-- flips it */
    nv = inc ? LLVMConstInt(ty, 1, 0) : LLVMBuildXor(g->b, old, LLVMConstInt(ty, 1, 0), "");
  } else {
    LLVMValueRef one = LLVMConstInt(ty, 1, 0);
    if (kir_is_vec(t)) one = lg_splat(g, one, (unsigned)t->len);
    /* Narrower types wrap via conversion; vector components wrap at their own width. */
    bool sg = kir_is_signed(et) && int_bits(t) >= 32 && !kir_is_vec(t);
    if (inc)
      nv = sg ? LLVMBuildNSWAdd(g->b, old, one, "") : LLVMBuildAdd(g->b, old, one, "");
    else
      nv = sg ? LLVMBuildNSWSub(g->b, old, one, "") : LLVMBuildSub(g->b, old, one, "");
  }
  lg_store(g, lv, t, nv);
  return pre ? nv : old;
}

static LLVMValueRef gen_select(LG *g, KExpr *e) {
  LLVMValueRef c = lg_cond(g, e->a);
  LLVMBasicBlockRef tb = new_block(g, "cond.true"), fb = new_block(g, "cond.false"),
                    end = new_block(g, "cond.end");
  LLVMBuildCondBr(g->b, c, tb, fb);
  LLVMPositionBuilderAtEnd(g->b, tb);
  LLVMValueRef tv = lg_expr(g, e->b);
  LLVMBasicBlockRef tbe = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, end);
  LLVMPositionBuilderAtEnd(g->b, fb);
  LLVMValueRef fv = lg_expr(g, e->c);
  LLVMBasicBlockRef fbe = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, end);
  LLVMPositionBuilderAtEnd(g->b, end);
  if (e->type->kind == KT_VOID || !tv || !fv) return NULL;
  LLVMValueRef phi = LLVMBuildPhi(g->b, lg_type(g, e->type), "");
  LLVMValueRef vals[2] = {tv, fv};
  LLVMBasicBlockRef bbs[2] = {tbe, fbe};
  LLVMAddIncoming(phi, vals, bbs, 2);
  return phi;
}

static LLVMValueRef gen_cast(LG *g, KExpr *e) {
  const KType *from = e->a->type, *to = e->type;
  if (to->kind == KT_VOID) {
    lg_expr(g, e->a);
    return NULL;
  }
  if (from->kind == KT_ARRAY && to->kind == KT_PTR) { /* decay: the array's address */
    LV lv = lg_lvalue(g, e->a);
    return lg_cast_as(g, lv.ptr, lv.as, lg_as(to->as));
  }
  return lg_convert(g, lg_expr(g, e->a), from, to);
}

/* half.c's conversions as PTX's cvt.f32.f16 / cvt.rn.f16.f32. A float NaN becomes what the
 * integer code makes of it, the half 0x7e00 with its sign, so that vstore_half and the
 * conversions give the same bits in every form; a half NaN's payload may change on the way to
 * float (cvt quiets it), as float NaNs already may from one device to the next. */
static LLVMValueRef half_conversion(LG *g, KNative n, LLVMValueRef x) {
  LLVMBuilderRef b = g->b;
  if (n == KN_HALF_TO_FLOAT)
    return LLVMBuildFPExt(b, LLVMBuildBitCast(b, x, LLVMHalfTypeInContext(g->ctx), ""), g->t_f32,
                          "");
  /* Through the NVVM intrinsic, not fptrunc: LLVM shrinks fptrunc(fmul(fpext a, fpext b)) to a
     half multiply, which the back end may then fuse with an add into one fma.rn.f16, where
     KIR rounds twice. */
  LLVMValueRef h = lg_call(g, lg_intrinsic(g, "llvm.nvvm.f2h.rn", NULL, 0), &x, 1);
  LLVMValueRef sign = LLVMBuildAnd(
      b, LLVMBuildLShr(b, LLVMBuildBitCast(b, x, g->t_i32, ""), LLVMConstInt(g->t_i32, 16, 0), ""),
      LLVMConstInt(g->t_i32, 0x8000, 0), "");
  LLVMValueRef qnan =
      LLVMBuildTrunc(b, LLVMBuildOr(b, sign, LLVMConstInt(g->t_i32, 0x7e00, 0), ""), g->t_i16, "");
  return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, x, x, ""), qnan, h, "");
}

static LLVMValueRef gen_call(LG *g, KExpr *e) {
  KFunc *f = e->callee;
  if (!f || !f->aux) {
    diag_error(e->loc, "call to '%s', which has no definition", f ? f->name : "?");
    return e->type->kind == KT_VOID ? NULL : LLVMGetUndef(lg_type(g, e->type));
  }
  if (f->native) return half_conversion(g, f->native, lg_expr(g, e->args[0]));
  LLVMValueRef args[64], *av = e->nargs <= 64 ? args : calloc((size_t)e->nargs, sizeof *av);
  for (int i = 0; i < e->nargs; i++) av[i] = lg_expr(g, e->args[i]);
  LLVMValueRef r = lg_call(g, f->aux, av, (unsigned)e->nargs);
  if (av != args) free(av);
  return e->type->kind == KT_VOID ? NULL : r;
}

/* ---------------------------------------------------------------- initialisation */

static void init_rec(LG *g, LV lv, const KType *t, KExpr *init, bool zeroed) {
  if (!init) {
    if (!zeroed && t->size > 0)
      LLVMBuildMemSet(g->b, lv.ptr, LLVMConstInt(g->t_i8, 0, 0), size_const(g, t->size),
                      align_of(t));
    return;
  }
  if (init->kind == KE_INITLIST && (t->kind == KT_ARRAY || t->kind == KT_STRUCT)) {
    int64_t n = t->kind == KT_ARRAY ? t->len : t->st->nfields;
    bool holes = init->nargs < n;
    for (int i = 0; i < init->nargs && !holes; i++) holes = init->args[i] == NULL;
    /* Anything not named is zero: clear once, then store only what the list gives. */
    if (holes && !zeroed && t->size > 0) {
      LLVMBuildMemSet(g->b, lv.ptr, LLVMConstInt(g->t_i8, 0, 0), size_const(g, t->size),
                      align_of(t));
      zeroed = true;
    }
    LLVMTypeRef ty = lg_type(g, t);
    for (int i = 0; i < init->nargs && i < n; i++) {
      if (!init->args[i]) continue;
      const KType *et;
      LLVMValueRef p;
      if (t->kind == KT_ARRAY) {
        et = t->base;
        LLVMValueRef idx[2] = {LLVMConstInt(g->t_i64, 0, 0),
                               LLVMConstInt(g->t_i64, (unsigned long long)i, 0)};
        p = LLVMBuildInBoundsGEP2(g->b, ty, lv.ptr, idx, 2, "");
      } else {
        et = t->st->fields[i].type;
        p = lg_field_ptr(g, t->st, lv.ptr, i);
      }
      init_rec(g, (LV){.ptr = p, .as = lv.as, .vol = lv.vol}, et, init->args[i], zeroed);
    }
    return;
  }
  if (init->kind == KE_INITLIST && t->kind == KT_VEC) { /* one value per component */
    LLVMValueRef v = LLVMConstNull(lg_type(g, t));
    for (int i = 0; i < init->nargs && i < t->len; i++) {
      KExpr *a = init->args[i];
      if (!a) continue;
      LLVMValueRef c = lg_convert(g, lg_expr(g, a), a->type, t->base);
      v = LLVMBuildInsertElement(g->b, v, c, lg_i32(g, (unsigned)i), "");
    }
    lg_store(g, lv, t, v);
    return;
  }
  if (init->kind == KE_INITLIST) { /* braces around a scalar */
    init_rec(g, lv, t, init->nargs > 0 ? init->args[0] : NULL, zeroed);
    return;
  }
  if (t->kind == KT_ARRAY && init->kind == KE_STR) { /* char s[] = "..." */
    LLVMValueRef c = lg_const_init(g, t, init);
    if (c) lg_store(g, lv, t, c);
    return;
  }
  if (is_aggregate(t) && kir_is_lvalue(init)) {
    copy_object(g, lv, lg_lvalue(g, init), t);
    return;
  }
  LLVMValueRef v = lg_expr(g, init);
  if (v) lg_store(g, lv, t, lg_convert(g, v, init->type, t));
}

void lg_init_object(LG *g, LV lv, const KType *t, KExpr *init) {
  init_rec(g, lv, t, init, false);
}

/* ---------------------------------------------------------------- vector expressions */

static LLVMValueRef gen_swizzle(LG *g, KExpr *e) {
  if (kir_is_lvalue(e)) return lg_load(g, lg_lvalue(g, e), e->type);
  return lg_shuffle(g, lg_expr(g, e->a), e->swz, e->nswz);
}

/* (float4)(a, b.xy, c): the components of the arguments, in order. */
static LLVMValueRef gen_veclit(LG *g, KExpr *e) {
  const KType *t = e->type;
  if (e->nargs == 1 && e->args[0]->type == t) return lg_expr(g, e->args[0]);
  if (e->nargs == 1 && !kir_is_vec(e->args[0]->type)) /* (float4)(x): every component x */
    return lg_convert(g, lg_expr(g, e->args[0]), e->args[0]->type, t);
  LLVMValueRef v = LLVMGetPoison(lg_type(g, t));
  unsigned pos = 0;
  for (int i = 0; i < e->nargs; i++) {
    KExpr *a = e->args[i];
    LLVMValueRef x = lg_expr(g, a);
    if (kir_is_vec(a->type)) {
      for (int j = 0; j < a->type->len && pos < t->len; j++) {
        LLVMValueRef c = LLVMBuildExtractElement(g->b, x, lg_i32(g, (unsigned)j), "");
        v = LLVMBuildInsertElement(g->b, v, c, lg_i32(g, pos++), "");
      }
    } else if (pos < t->len) {
      x = lg_convert(g, x, a->type, t->base);
      v = LLVMBuildInsertElement(g->b, v, x, lg_i32(g, pos++), "");
    }
  }
  if (pos != (unsigned)t->len)
    diag_ice(e->loc, "LLVM back end: vector literal of '%s' with %u components", kir_type_str(t),
             pos);
  return v;
}

/* as_T(x): x's bits as T. A 3-vector has a 4-vector's size in memory but only 3
 * components of bits as a value; as clang does for OpenCL, it is widened to the 4-vector
 * (its 4th component undefined) before the bitcast, and a 3-vector result keeps the first
 * three components of the 4-vector the bits make. */
static LLVMValueRef gen_bitcast(LG *g, KExpr *e) {
  const KType *from = e->a->type, *to = e->type;
  LLVMValueRef v = lg_expr(g, e->a);
  if (from == to || !v) return v;
  LLVMTypeRef ty = lg_type(g, to);
  if (from->kind == KT_PTR && to->kind == KT_PTR)
    return lg_cast_as(g, v, lg_as(from->as), lg_as(to->as));
  if (from->kind == KT_PTR) return LLVMBuildPtrToInt(g->b, v, ty, "");
  if (to->kind == KT_PTR) return LLVMBuildIntToPtr(g->b, v, ty, "");
  static const uint8_t id[4] = {0, 1, 2, 3};
  if (kir_is_vec(from) && from->len == 3) v = lg_shuffle(g, v, id, 4);
  if (kir_is_vec(to) && to->len == 3) {
    LLVMTypeRef t4 = LLVMVectorType(lg_type(g, to->base), 4);
    return lg_shuffle(g, LLVMBuildBitCast(g->b, v, t4, ""), id, 3);
  }
  return LLVMBuildBitCast(g->b, v, ty, "");
}

/* ---------------------------------------------------------------- rvalues */

LLVMValueRef lg_expr(LG *g, KExpr *e) {
  switch (e->kind) {
  case KE_ICONST: {
    LLVMTypeRef ty = lg_type(g, e->type);
    if (e->type->kind == KT_PTR)
      return e->ival == 0 ? LLVMConstNull(ty)
                          : LLVMConstIntToPtr(LLVMConstInt(g->t_i64, e->ival, 0), ty);
    if (kir_is_float(e->type)) return LLVMConstReal(ty, (double)(int64_t)e->ival);
    if (e->type->kind == KT_BOOL) return LLVMConstInt(ty, e->ival != 0, 0);
    return LLVMConstInt(ty, e->ival, 0);
  }
  case KE_FCONST: {
    LLVMTypeRef ty = lg_type(g, e->type);
    if (kir_is_int(e->type)) return LLVMConstInt(ty, (unsigned long long)(int64_t)e->fval, 1);
    return LLVMConstReal(ty, e->fval);
  }
  case KE_STR:
    if (e->type->kind == KT_ARRAY) return lg_const_init(g, e->type, e);
    return lg_string(g, e->str, e->len, e->type->kind == KT_PTR ? lg_as(e->type->as) : 0);
  case KE_VAR:
  case KE_GVAR:
  case KE_INDEX:
  case KE_DEREF: return lg_load(g, lg_lvalue(g, e), e->type);
  case KE_MEMBER:
    if (!kir_is_lvalue(e->a) && !e->a->type->st->is_union) {
      /* a member of a struct value (a call's result); a union's is read through memory */
      LLVMValueRef s = lg_expr(g, e->a);
      return LLVMBuildExtractValue(g->b, s, lg_field_index(g, e->a->type->st, e->field), "");
    }
    return lg_load(g, lg_lvalue(g, e), e->type);
  case KE_SPECIAL: return lg_special(g, e);
  case KE_UNARY: return gen_unary(g, e);
  case KE_BINARY: return gen_binary(g, e);
  case KE_ASSIGN: return gen_assign(g, e);
  case KE_INCDEC: return gen_incdec(g, e);
  case KE_COND: return gen_select(g, e);
  case KE_COMMA: lg_expr(g, e->a); return lg_expr(g, e->b);
  case KE_CAST: return gen_cast(g, e);
  case KE_ADDR: {
    LV lv = lg_lvalue(g, e->a);
    unsigned to = e->type->kind == KT_PTR ? lg_as(e->type->as) : lv.as;
    return lg_cast_as(g, lv.ptr, lv.as, to);
  }
  case KE_CALL: return gen_call(g, e);
  case KE_BUILTIN: return lg_builtin(g, e);
  case KE_INITLIST: {
    LLVMValueRef tmp = lg_alloca(g, e->type, "init");
    LV lv = {.ptr = tmp};
    lg_init_object(g, lv, e->type, e);
    return lg_load(g, lv, e->type);
  }
  case KE_SWIZZLE: return gen_swizzle(g, e);
  case KE_VECLIT: return gen_veclit(g, e);
  case KE_BITCAST: return gen_bitcast(g, e);
  case KE_ASM: return lg_asm(g, e);
  }
  diag_ice(e->loc, "LLVM back end: expression kind %d", (int)e->kind);
  return NULL;
}
