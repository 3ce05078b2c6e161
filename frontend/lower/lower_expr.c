/* lower_expr.c — clang expressions to KIR expressions. Every conversion clang left implicit
 * (its ImplicitCastExpr, an UnexposedExpr to libclang) becomes an explicit KE_CAST, except
 * lvalue-to-rvalue which KIR leaves implicit. Pointer types carry the address space of what
 * they point to where the front end knows it (kernel parameters, shared/constant variables,
 * locals); the address-space pass propagates the rest. */
#include <stdio.h>
#include <string.h>

#include "fe.h"

static KExpr *init_braced(FeCtx *fe, CXCursor list, KType *t, bool wc);

static KType *t_int(void) {
  return kir_type_scalar(KT_I32);
}

KExpr *fe_poison(KLoc loc) {
  return kir_int(t_int(), 0, loc);
}

KExpr *fe_broken(FeCtx *fe, KLoc loc, const char *what) {
  if (diag_error_count() == fe->errors0) diag_ice(loc, "cannot lower %s", what);
  return fe_poison(loc);
}

KExpr *fe_int_const(KType *t, uint64_t v, KLoc loc) {
  if (t->kind == KT_BOOL) {
    v = v != 0;
  } else if (kir_is_int(t) && t->size < 8) {
    /* KIR keeps integer constants as 64-bit patterns: sign-extended for signed types (the
       dump prints them as int64), zero-extended for unsigned ones. */
    int bits = t->size * 8;
    uint64_t mask = (UINT64_C(1) << bits) - 1;
    v &= mask;
    if (kir_is_signed(t) && ((v >> (bits - 1)) & 1)) v |= ~mask;
  }
  return kir_int(t, v, loc);
}

/* v as a value of the floating type t holds it (rounded to nearest even). */
static double fround(const KType *t, double v) {
  if (t->kind == KT_F32) return (double)(float)v;
  if (t->kind == KT_F16) return kir_f16_value(kir_f16_bits(v));
  return v;
}

static KExpr *fconst(KType *t, double v, KLoc loc) {
  KExpr *e = kir_expr(KE_FCONST, t, loc);
  e->fval = fround(t, v);
  return e;
}

/* A constant converted at compile time, as C converts at run time; NULL where C leaves the
 * result undefined (a float out of the integer's range), which keeps the cast. */
static KExpr *fold_conversion(KExpr *e, KType *to) {
  KLoc loc = e->loc;
  if (e->kind == KE_ICONST) {
    bool s = kir_is_signed(e->type);
    int64_t i = (int64_t)e->ival;
    uint64_t u = e->ival;
    if (kir_is_int(to)) return fe_int_const(to, u, loc);
    KExpr *f = kir_expr(KE_FCONST, to, loc);
    if (to->kind == KT_F32)
      f->fval = s ? (double)(float)i : (double)(float)u;
    else
      f->fval = fround(to, s ? (double)i : (double)u);
    return f;
  }
  double d = e->fval;
  if (kir_is_float(to)) {
    KExpr *f = kir_expr(KE_FCONST, to, loc);
    f->fval = fround(to, d);
    return f;
  }
  if (to->kind == KT_BOOL) return fe_int_const(to, d != 0, loc);
  if (!(d > -9.3e18 && d < 1.8e19)) return NULL;
  if (kir_is_signed(to)) {
    if (d >= 9.2e18) return NULL;
    return fe_int_const(to, (uint64_t)(int64_t)d, loc);
  }
  if (d <= -1) return NULL;
  return fe_int_const(to, d < 0 ? 0 : (uint64_t)d, loc);
}

/* A null pointer constant: 0, or 0 cast to pointer types. */
static bool is_null_const(const KExpr *e) {
  while (e->kind == KE_CAST && e->type->kind == KT_PTR) e = e->a;
  return e->kind == KE_ICONST && kir_is_int(e->type) && e->ival == 0;
}

KExpr *fe_convert(KExpr *e, KType *to) {
  if (!e || !to || !e->type) return e;
  if (e->type != to && (kir_is_vec(to) || kir_is_vec(e->type)) && to->kind != KT_VOID) {
    /* Scalars widen to vectors; otherwise clang converts implicitly only between vectors of
       one size (its lax conversions), reinterpreting the bits. */
    if (kir_is_vec(to) && !kir_is_vec(e->type)) return fe_splat(e, to);
    if (kir_is_vec(to) && kir_is_vec(e->type) && to->len == e->type->len &&
        to->base->size == e->type->base->size && kir_is_int(to->base) && kir_is_int(e->type->base))
      return kir_cast(e, to);
    KExpr *b = kir_expr(KE_BITCAST, to, e->loc);
    b->a = e;
    return b;
  }
  /* A null pointer has no address space: it takes the target's, whatever that is. */
  if (to->kind == KT_PTR && e->type != to && is_null_const(e))
    return kir_cast(fe_int_const(kir_type_scalar(KT_I64), 0, e->loc), to);
  if (to->kind == KT_PTR && e->type->kind == KT_PTR && to->as == KAS_GENERIC)
    to = fe_ptr_as(to, e->type->as);
  /* restrict qualifies the pointer object, not the value: dropping it converts nothing. */
  if (to->kind == KT_PTR && e->type->kind == KT_PTR && to->as == e->type->as &&
      to->base == e->type->base && (to->qual & ~KQ_RESTRICT) == (e->type->qual & ~KQ_RESTRICT))
    return e;
  if (e->type != to && (e->kind == KE_ICONST || e->kind == KE_FCONST) && kir_is_arith(to) &&
      kir_is_arith(e->type)) {
    KExpr *f = fold_conversion(e, to);
    if (f) return f;
  }
  return kir_cast(e, to);
}

/* Where an lvalue lives, as far as the front end knows. */
static KAddrSpace lvalue_space(const KExpr *e) {
  switch (e->kind) {
  case KE_VAR: return KAS_PRIVATE;
  case KE_GVAR: return kir_gvar_space(e->var);
  case KE_INDEX:
  case KE_DEREF: return e->a->type->kind == KT_PTR ? e->a->type->as : KAS_GENERIC;
  case KE_MEMBER: return kir_is_lvalue(e->a) ? lvalue_space(e->a) : KAS_PRIVATE;
  default: return KAS_PRIVATE;
  }
}

static KExpr *decay(KExpr *e, int qual) {
  KExpr *c = kir_expr(KE_CAST, kir_type_ptr(e->type->base, lvalue_space(e), qual), e->loc);
  c->a = e;
  return c;
}

static KExpr *binary_node(KExprKind kind, KOp op, KType *t, KExpr *a, KExpr *b, KLoc loc) {
  KExpr *e = kir_expr(kind, t, loc);
  e->op = op;
  e->a = a;
  e->b = b;
  return e;
}

static void side_effect_visit(KExpr *e, void *ctx) {
  if (e->kind == KE_ASSIGN || e->kind == KE_INCDEC) *(bool *)ctx = true;
}

/* C++17 sequences an assignment's right operand, side effects included, before the store
 * (and before the left operand); C leaves them unsequenced, so `r = (r = f(r), r = g(r))`,
 * which a fold expression over a pack writes, is undefined in the C forms. Such a right
 * operand is computed into a temporary first: (t = b, a = t). */
static KExpr *sequenced_assign(FeCtx *fe, KExpr *e) {
  bool side = false;
  if (fe->lang == KL_LANG_CU && e->kind == KE_ASSIGN)
    kir_visit_expr(e->b, side_effect_visit, &side);
  if (!side) return e;
  KExpr *t = fe_temp(fe, e->b->type, fe_zero(e->b->type, e->loc), e->loc);
  KExpr *set = binary_node(KE_ASSIGN, KB_NONE, t->type, t, e->b, e->loc);
  KExpr *read = kir_expr(KE_VAR, t->type, e->loc);
  read->var = t->var;
  e->b = read;
  return binary_node(KE_COMMA, KB_NONE, e->type, set, e, e->loc);
}

/* lv = list, as assignments of its scalars and vectors (KIR takes initializer lists in
 * declarations only), chained with commas; members a list leaves out are zeroed. */
KExpr *fe_assign_list(KExpr *lv, KExpr *list, KLoc loc) {
  KType *t = lv->type;
  if (!list || list->kind != KE_INITLIST || (t->kind != KT_STRUCT && t->kind != KT_ARRAY)) {
    KExpr *v = list && list->kind != KE_INITLIST ? list : fe_zero(t, loc); /* a vector's {} */
    return binary_node(KE_ASSIGN, KB_NONE, t, lv, v, loc);
  }
  int n = t->kind == KT_ARRAY ? (int)t->len : t->st->nfields;
  int only = -1; /* a union's list gives one member (none: the first, zeroed) */
  if (t->kind == KT_STRUCT && t->st->is_union) {
    only = 0;
    for (int i = 0; i < list->nargs; i++)
      if (list->args[i]) only = i;
  }
  KExpr *r = NULL;
  for (int i = 0; i < n; i++) {
    KExpr *item = i < list->nargs ? list->args[i] : NULL;
    if (only >= 0 && i != only) continue;
    KExpr *m;
    if (t->kind == KT_ARRAY) {
      m = fe_array_elem(lv, i, loc);
    } else {
      m = kir_expr(KE_MEMBER, t->st->fields[i].type, loc);
      m->a = lv;
      m->field = i;
    }
    KExpr *a = fe_assign_list(m, item ? item : fe_zero(m->type, loc), loc);
    r = r ? binary_node(KE_COMMA, KB_NONE, a->type, r, a, loc) : a;
  }
  return r ? r : fe_zero(kir_type_scalar(KT_I32), loc); /* an empty struct */
}

static KExpr *deref(KExpr *p, KLoc loc) {
  KExpr *e = kir_expr(KE_DEREF, p->type->base, loc);
  e->a = p;
  return e;
}

KExpr *fe_deref(KExpr *p, KLoc loc) {
  return deref(p, loc);
}

KExpr *fe_array_elem(KExpr *arr, int64_t i, KLoc loc) {
  KExpr *e = kir_expr(KE_INDEX, arr->type->base, loc);
  e->a = decay(arr, 0);
  e->b = fe_int_const(kir_type_scalar(KT_I64), (uint64_t)i, loc);
  return e;
}

KExpr *fe_this(FeCtx *fe, KLoc loc) {
  KExpr *e = kir_expr(KE_VAR, fe->this_var->type, loc);
  e->var = fe->this_var;
  return e;
}

KExpr *fe_temp(FeCtx *fe, KType *t, KExpr *init, KLoc loc) {
  char name[32];
  snprintf(name, sizeof name, "__kcc_tmp%d", ++fe->ntemps);
  KStmt *d = kir_stmt(KS_DECL, loc);
  d->var = kir_var(fe->m, kir_strdup(name), t, KV_LOCAL, loc);
  d->init = init;
  klist_push(&fe->temps, d);
  KExpr *v = kir_expr(KE_VAR, t, loc);
  v->var = d->var;
  return v;
}

/* C++'s lvalues beyond C's: `c ? a : b` with lvalues a and b of one type, and `(x, a)`. A
 * reference bound to one refers to a or b, never to a copy. */
static bool cxx_lvalue(const KExpr *e) {
  if (e->kind == KE_COND)
    return cxx_lvalue(e->b) && cxx_lvalue(e->c) && fe_type_eq_noas(e->b->type, e->c->type);
  if (e->kind == KE_COMMA) return cxx_lvalue(e->b);
  return kir_is_lvalue(e);
}

KExpr *fe_addr_of(FeCtx *fe, KExpr *e, KLoc loc) {
  if (e->kind == KE_COND && cxx_lvalue(e)) {
    /* &(c ? a : b) is c ? &a : &b, in the generic space when a and b live apart (the
       address-space pass narrows it, or says why it cannot). */
    KExpr *pb = fe_addr_of(fe, e->b, loc), *pc = fe_addr_of(fe, e->c, loc);
    KType *pt = pb->type->as == pc->type->as ? pb->type : kir_type_ptr(e->type, KAS_GENERIC, 0);
    KExpr *r = kir_expr(KE_COND, pt, loc);
    r->a = e->a;
    r->b = pb->type == pt ? pb : kir_cast(pb, pt);
    r->c = pc->type == pt ? pc : kir_cast(pc, pt);
    return r;
  }
  if (e->kind == KE_COMMA && cxx_lvalue(e)) {
    KExpr *r = kir_expr(KE_COMMA, NULL, loc);
    r->a = e->a;
    r->b = fe_addr_of(fe, e->b, loc);
    r->type = r->b->type;
    return r;
  }
  if (!kir_is_lvalue(e)) {
    /* A temporary the reference binds to (C++ lifetime extension): a local of the
       function, assigned here. */
    KExpr *v = fe_temp(fe, e->type, NULL, loc);
    KExpr *as = kir_expr(KE_ASSIGN, e->type, loc);
    as->op = KB_NONE;
    as->a = v;
    as->b = e;
    KExpr *r = kir_expr(KE_COMMA, NULL, loc);
    r->a = as;
    r->b = fe_addr_of(fe, v, loc);
    r->type = r->b->type;
    return r;
  }
  KExpr *r = kir_expr(KE_ADDR, kir_type_ptr(e->type, lvalue_space(e), 0), loc);
  r->a = e;
  return r;
}

static int promote_rank(KTypeKind k) {
  switch (k) {
  case KT_I64:
  case KT_U64: return 3;
  case KT_I32:
  case KT_U32: return 2;
  default: return 1;
  }
}

/* C's integer promotions. */
static KType *promote(KType *t) {
  if (kir_is_int(t) && promote_rank(t->kind) < 2) return t_int();
  return t;
}

/* C's usual arithmetic conversions (long and long long are one type in KIR). */
static KType *arith_common(KType *a, KType *b) {
  if (!kir_is_arith(a) || !kir_is_arith(b)) return a;
  if (a->kind == KT_F64 || b->kind == KT_F64) return kir_type_scalar(KT_F64);
  if (a->kind == KT_F32 || b->kind == KT_F32) return kir_type_scalar(KT_F32);
  if (a->kind == KT_F16 || b->kind == KT_F16) return kir_type_scalar(KT_F16);
  a = promote(a);
  b = promote(b);
  if (a == b) return a;
  int ra = promote_rank(a->kind), rb = promote_rank(b->kind);
  if (kir_is_signed(a) == kir_is_signed(b)) return ra >= rb ? a : b;
  KType *u = kir_is_signed(a) ? b : a, *s = kir_is_signed(a) ? a : b;
  int ru = promote_rank(u->kind), rs = promote_rank(s->kind);
  if (ru >= rs) return u;
  return s; /* the signed type is wider and holds every value of the unsigned one */
}

static bool same_extent(CXCursor a, CXCursor b) {
  return clang_equalRanges(clang_getCursorExtent(a), clang_getCursorExtent(b)) != 0;
}

/* The one expression child of a wrapper (ParenExpr, implicit cast), or a null cursor. */
static CXCursor only_expr_child(CXCursor c) {
  FeKids k;
  fe_kids_expr(c, &k);
  CXCursor r = k.n == 1 ? k.v[0] : clang_getNullCursor();
  fe_kids_free(&k);
  return r;
}

static bool is_implicit_cast(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_UnexposedExpr) return false;
  FeKids k;
  fe_kids(c, &k);
  bool r = k.n == 1 && clang_isExpression(clang_getCursorKind(k.v[0])) && same_extent(c, k.v[0]);
  fe_kids_free(&k);
  return r;
}

/* Strips parentheses and implicit conversions (to find a string literal or a callee). */
static CXCursor peel(CXCursor c) {
  for (int guard = 0; guard < 64; guard++) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ParenExpr && !is_implicit_cast(c)) break;
    CXCursor in = only_expr_child(c);
    if (clang_Cursor_isNull(in)) break;
    c = in;
  }
  return c;
}

static bool is_designator(CXCursor c) {
  /* libclang shows a DesignatedInitExpr as a void UnexposedExpr whose children are the
     designators (MemberRef for .field, expressions for [index]) and the value. */
  if (clang_getCursorKind(c) != CXCursor_UnexposedExpr) return false;
  if (clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Void) return false;
  FeKids k;
  fe_kids(c, &k);
  bool r = k.n >= 2;
  fe_kids_free(&k);
  return r;
}

/* The KQ_* bits of a clang pointer type, without lowering its pointee (which may be an
 * array with folded bounds that only the declaration knows). */
static int ptr_qual(CXType ptr) {
  CXType c = clang_getCanonicalType(ptr);
  CXType pc = clang_getCanonicalType(clang_getPointeeType(c));
  int q = 0;
  if (clang_isConstQualifiedType(pc)) q |= KQ_CONST;
  if (clang_isVolatileQualifiedType(pc)) q |= KQ_VOLATILE;
  if (clang_isRestrictQualifiedType(c)) q |= KQ_RESTRICT;
  return q;
}

static KType *type_of(FeCtx *fe, CXCursor c, KLoc loc) {
  return fe_type(fe, clang_getCursorType(c), loc);
}

/* ---------------------------------------------------------------- literals, constants */

static KExpr *eval_const(FeCtx *fe, CXCursor c, KType *t, KLoc loc, bool quiet) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  KExpr *e = NULL;
  if (r) {
    CXEvalResultKind k = clang_EvalResult_getKind(r);
    if (k == CXEval_Int) {
      bool u = clang_EvalResult_isUnsignedInt(r) != 0;
      uint64_t v = u ? (uint64_t)clang_EvalResult_getAsUnsigned(r)
                     : (uint64_t)clang_EvalResult_getAsLongLong(r);
      if (kir_is_float(t))
        e = fconst(t, u ? (double)v : (double)(int64_t)v, loc);
      else if (kir_is_int(t))
        e = fe_int_const(t, v, loc);
    } else if (k == CXEval_Float) {
      double d = clang_EvalResult_getAsDouble(r);
      if (kir_is_float(t))
        e = fconst(t, d, loc);
      else if (t->kind == KT_BOOL)
        e = fe_int_const(t, d != 0, loc);
      else if (kir_is_int(t))
        e = fe_int_const(t, kir_is_signed(t) ? (uint64_t)(int64_t)d : (uint64_t)d, loc);
    }
    clang_EvalResult_dispose(r);
  }
  if (!e && !quiet) {
    (void)fe;
    diag_error(loc, "cannot evaluate this constant");
    return fe_poison(loc);
  }
  return e;
}

KExpr *fe_zero(KType *t, KLoc loc) {
  if (kir_is_float(t)) return fconst(t, 0, loc);
  if (kir_is_int(t)) return fe_int_const(t, 0, loc);
  if (t->kind == KT_PTR) return kir_cast(fe_int_const(kir_type_scalar(KT_I64), 0, loc), t);
  KExpr *l = kir_expr(KE_INITLIST, t, loc);
  int n = t->kind == KT_ARRAY    ? (t->len > 0 ? (int)t->len : 0)
          : t->kind == KT_STRUCT ? t->st->nfields
                                 : 0;
  l->nargs = n;
  l->args = kir_alloc(sizeof(KExpr *) * (size_t)(n ? n : 1));
  return l;
}

/* A string literal's value: a `const char *` to the n bytes of s in constant memory. */
static KExpr *str_node(const char *s, size_t n, KLoc loc) {
  KExpr *e = kir_expr(KE_STR, kir_type_ptr(kir_type_scalar(KT_I8), KAS_CONSTANT, KQ_CONST), loc);
  e->str = kir_strndup(s, n);
  e->len = n;
  return e;
}

/* c is the literal, ev the expression around it that libclang can evaluate: it folds the
 * decayed pointer (the implicit cast), not the array-typed literal itself. */
static KExpr *string_literal(FeCtx *fe, CXCursor c, CXCursor ev, KLoc loc) {
  CXType at = clang_getCanonicalType(clang_getCursorType(c));
  CXType et = clang_getCanonicalType(clang_getArrayElementType(at));
  if (et.kind != CXType_Char_S && et.kind != CXType_Char_U && et.kind != CXType_SChar &&
      et.kind != CXType_UChar) {
    diag_error(loc, "wide string literals are not supported in kcc kernels");
    return fe_poison(loc);
  }
  CXEvalResult r = clang_Cursor_Evaluate(ev);
  const char *s = NULL;
  if (r && clang_EvalResult_getKind(r) == CXEval_StrLiteral) s = clang_EvalResult_getAsStr(r);
  KExpr *e = str_node(s ? s : "", s ? strlen(s) : 0, loc);
  if (r) clang_EvalResult_dispose(r);
  (void)fe;
  return e;
}

/* ---------------------------------------------------------------- names */

static const char *const specials[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};

static int special_index(FeCtx *fe, CXCursor declref) {
  if (clang_getCursorKind(declref) != CXCursor_DeclRefExpr) return -1;
  CXCursor ref = clang_getCursorReferenced(declref);
  if (clang_getCursorKind(ref) != CXCursor_VarDecl || !fe_in_vfile(fe, ref)) return -1;
  CXString s = clang_getCursorSpelling(ref);
  int r = -1;
  for (int i = 0; i < 4; i++)
    if (clang_getCString(s) && strcmp(clang_getCString(s), specials[i]) == 0) r = i;
  clang_disposeString(s);
  return r;
}

/* threadIdx & co. as a whole (`uint3 t = threadIdx;`, `dim3 b(blockDim)`): a temporary of the
 * variable's type (uint3 or dim3) holding the three components. */
static KExpr *special_whole(FeCtx *fe, int sp, CXCursor c, KLoc loc) {
  KType *t = fe_type(fe, clang_getCursorType(c), loc);
  if (!t) return fe_poison(loc);
  if (t->kind != KT_STRUCT || t->st->nfields != 3) return fe_broken(fe, loc, "this use");
  KExpr *l = kir_expr(KE_INITLIST, t, loc);
  l->args = kir_alloc(sizeof(KExpr *) * 3);
  for (int d = 0; d < 3; d++) {
    KExpr *e = kir_expr(KE_SPECIAL, kir_type_scalar(KT_U32), loc);
    e->builtin = (KBuiltin)(BI_THREAD_IDX + sp);
    e->dim = d;
    l->args[l->nargs++] = e;
  }
  return fe_temp(fe, t, l, loc);
}

/* A static data member used at c (var, its declaration): its initializer's value, which
 * must be an arithmetic constant. */
static KExpr *static_member(FeCtx *fe, CXCursor c, CXCursor var, KLoc loc) {
  KType *t = type_of(fe, c, loc);
  KExpr *k = t && kir_is_arith(t) ? eval_const(fe, var, t, loc, true) : NULL;
  if (!k && t && kir_is_arith(t)) k = eval_const(fe, c, t, loc, true);
  if (k) return k;
  diag_error(loc,
             "static data member '%s' is not supported in kcc kernels unless it is an "
             "arithmetic constant",
             fe_spelling(var));
  return fe_poison(loc);
}

/* A variable declared at file or namespace scope. */
static bool at_namespace_scope(CXCursor var) {
  enum CXCursorKind k = clang_getCursorKind(clang_getCursorSemanticParent(var));
  return clang_getCursorKind(var) == CXCursor_VarDecl &&
         (k == CXCursor_TranslationUnit || k == CXCursor_Namespace || k == CXCursor_LinkageSpec);
}

static KExpr *decl_ref(FeCtx *fe, CXCursor c, KLoc loc) {
  CXCursor ref = clang_getCursorReferenced(c);
  if (fe->lang == KL_LANG_CU && clang_Cursor_isNull(ref)) {
    /* In a template specialisation's body, a template parameter's use references nothing
       and shows the substituted value as its only child. */
    KType *t = type_of(fe, c, loc);
    CXCursor v = only_expr_child(c);
    if (!clang_Cursor_isNull(v) && t) return fe_convert(fe_expr(fe, v), t);
  }
  switch (clang_getCursorKind(ref)) {
  case CXCursor_VarDecl:
  case CXCursor_ParmDecl: {
    KVar *v = fe_map_get(&fe->decls, clang_getCanonicalCursor(ref));
    if (!v && !*fe_spelling(ref)) /* C++'s block-scope anonymous union (lower_stmt.c) */
      v = fe_map_get(&fe->decls, clang_getCanonicalCursor(clang_getTypeDeclaration(
                                     clang_getCanonicalType(clang_getCursorType(ref)))));
    if (!v && fe->lang == KL_LANG_CU &&
        fe_is_record_kind(clang_getCursorKind(clang_getCursorSemanticParent(ref)))) {
      return static_member(fe, c, ref, loc); /* `tile<8, 8>::ne` */
    }
    if (!v && fe->lang == KL_LANG_CU && at_namespace_scope(ref) && fe->ops->is_device_var &&
        !fe->ops->is_device_var(ref)) {
      /* A const variable of the host side that device code reads (parse.c lowers only
         device variables up front). */
      CXCursor def = clang_getCursorDefinition(ref);
      v = fe_global_var(fe, clang_Cursor_isNull(def) ? ref : def, true);
      if (!v) return fe_poison(loc);
    }
    if (!v) {
      int sp = special_index(fe, c);
      if (sp >= 0 && fe->lang == KL_LANG_CU) return special_whole(fe, sp, c, loc);
      if (sp >= 0) {
        diag_error(loc, "'%s' can only be used as %s.x, %s.y or %s.z", specials[sp], specials[sp],
                   specials[sp], specials[sp]);
      } else if (!*fe_spelling(ref)) {
        /* Only a block-scope one has a variable (lower_stmt.c); a file-scope one is a
           variable libclang does not show. */
        diag_error(loc, "anonymous unions outside functions are not supported in kcc kernels; "
                        "name the variable");
      } else if (fe_in_vfile(fe, ref)) {
        diag_error(loc, "'%s' is not supported in kcc kernels", fe_spelling(ref));
      } else if (!diag_error_count()) {
        /* Every variable kcc accepts was registered when declared; the others were
           reported then. */
        diag_ice(loc, "no variable for '%s'", fe_spelling(ref));
      }
      return fe_poison(loc);
    }
    KExpr *e =
        kir_expr(v->kind == KV_SHARED || v->kind == KV_CONSTANT ? KE_GVAR : KE_VAR, v->type, loc);
    e->var = v;
    /* A C++ reference bound by address (fe_ref_by_address) is a pointer in KIR. */
    if (fe->lang == KL_LANG_CU && fe_map_get(&fe->refs, clang_getCanonicalCursor(ref)))
      return deref(e, loc);
    return e;
  }
  case CXCursor_EnumConstantDecl: {
    KType *t = type_of(fe, c, loc);
    if (!t || !kir_is_int(t)) t = t_int();
    return fe_int_const(t, (uint64_t)clang_getEnumConstantDeclValue(ref), loc);
  }
  case CXCursor_FunctionDecl:
    diag_error(loc, "function pointers are not supported in kcc kernels");
    return fe_poison(loc);
  default: {
    /* A constant C++ gives a name to (a variable template's specialisation: is_same_v<T, U>). */
    KType *t = type_of(fe, c, loc);
    KExpr *k = t && kir_is_arith(t) ? eval_const(fe, c, t, loc, true) : NULL;
    if (k) return k;
    diag_error(loc, "this name is not supported in kcc kernels");
    return fe_poison(loc);
  }
  }
}

static KExpr *member(FeCtx *fe, CXCursor c, KLoc loc) {
  CXCursor base = only_expr_child(c);
  CXCursor ref = clang_getCursorReferenced(c);
  if (fe->lang == KL_LANG_CU && clang_getCursorKind(ref) == CXCursor_VarDecl)
    return static_member(fe, c, ref, loc); /* `t.ne`: the object is not read */
  bool anon = clang_getCursorKind(ref) == CXCursor_FieldDecl &&
              clang_Cursor_isAnonymousRecordDecl(
                  clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(ref))));
  if (anon && clang_Cursor_isNull(base) && fe->this_var)
    return deref(fe_this(fe, loc), loc); /* an anonymous member of *this: see below */
  if (clang_Cursor_isNull(base) && fe->this_var) {
    /* `x` in a method is this->x; libclang shows no child for the implicit this. */
    return fe_member_of(fe, deref(fe_this(fe, loc), loc), fe_spelling(clang_getCursorReferenced(c)),
                        loc);
  }
  if (clang_Cursor_isNull(base)) {
    diag_error(loc, "this member access is not supported in kcc kernels");
    return fe_poison(loc);
  }
  if (anon)
    /* The implicit access to an anonymous member that libclang shows for some uses of its
       fields: fe_member_of finds the field through the member itself. */
    return fe_expr(fe, base);
  const char *fname = fe_spelling(ref);
  int sp = special_index(fe, base);
  if (sp >= 0) {
    if (strlen(fname) != 1 || fname[0] < 'x' || fname[0] > 'z')
      return fe_broken(fe, loc, "this member");
    KExpr *e = kir_expr(KE_SPECIAL, kir_type_scalar(KT_U32), loc);
    e->builtin = (KBuiltin)(BI_THREAD_IDX + sp);
    e->dim = fname[0] - 'x';
    return e;
  }
  return fe_member_of(fe, fe_expr(fe, base), fname, loc);
}

static KExpr *member_expr(KExpr *b, int i, KLoc loc) {
  KExpr *e = kir_expr(KE_MEMBER, b->type->st->fields[i].type, loc);
  e->a = b;
  e->field = i;
  return e;
}

/* fname in the struct or union b, directly or in its anonymous members (C11 6.7.2.1p13:
 * their fields are the enclosing record's), as the chain of member accesses that reaches it;
 * NULL if absent. */
static KExpr *find_member(KExpr *b, const char *fname, KLoc loc) {
  KStruct *st = b->type->st;
  for (int i = 0; i < st->nfields; i++)
    if (strcmp(st->fields[i].name, fname) == 0) return member_expr(b, i, loc);
  for (int i = 0; i < st->nfields; i++) {
    if (!st->fields[i].anon) continue;
    KExpr *r = find_member(member_expr(b, i, loc), fname, loc);
    if (r) return r;
  }
  return NULL;
}

KExpr *fe_member_of(FeCtx *fe, KExpr *b, const char *fname, KLoc loc) {
  if (b->type->kind == KT_PTR) b = deref(b, b->loc);
  if (b->type->kind != KT_STRUCT) return fe_broken(fe, loc, "this member access");
  KStruct *st = b->type->st;
  KExpr *r = find_member(b, fname, loc);
  if (r) return r;
  /* After an error, an invalid record may have lost fields clang still names. */
  if (diag_error_count() == fe->errors0)
    diag_ice(loc, "no field '%s' in struct %s", fname, st->name);
  return fe_poison(loc);
}

/* ---------------------------------------------------------------- operators */

static KExpr *unary(FeCtx *fe, CXCursor c, KLoc loc) {
  CXCursor sub = only_expr_child(c);
  if (clang_Cursor_isNull(sub)) return fe_broken(fe, loc, "this operator");
  enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
  if (op == CXUnaryOperator_Real || op == CXUnaryOperator_Imag) {
    diag_error(loc, "complex types are not supported in kcc kernels");
    return fe_poison(loc);
  }
  KExpr *a = fe_expr(fe, sub);
  KExpr *e;
  if (op == CXUnaryOperator_AddrOf) {
    if (!kir_is_lvalue(a) || clang_getCanonicalType(clang_getCursorType(c)).kind != CXType_Pointer)
      return fe_broken(fe, loc, "this '&'");
    int q = ptr_qual(clang_getCursorType(c));
    e = kir_expr(KE_ADDR, kir_type_ptr(a->type, lvalue_space(a), q), loc);
    e->a = a;
    return e;
  }
  KType *t = type_of(fe, c, loc);
  if (!t) return fe_poison(loc);
  switch (op) {
  case CXUnaryOperator_PostInc:
  case CXUnaryOperator_PostDec:
  case CXUnaryOperator_PreInc:
  case CXUnaryOperator_PreDec:
    if (!fe_check_swizzle_target(a, loc)) return fe_poison(loc);
    e = kir_expr(KE_INCDEC, a->type, loc);
    e->op = op == CXUnaryOperator_PostInc   ? KU_POSTINC
            : op == CXUnaryOperator_PostDec ? KU_POSTDEC
            : op == CXUnaryOperator_PreInc  ? KU_PREINC
                                            : KU_PREDEC;
    e->a = a;
    return e;
  case CXUnaryOperator_Deref:
    if (a->type->kind != KT_PTR) return fe_broken(fe, loc, "this '*'");
    return deref(a, loc);
  case CXUnaryOperator_Plus: return fe_convert(a, t);
  case CXUnaryOperator_Extension: return a;
  case CXUnaryOperator_Minus:
  case CXUnaryOperator_Not:
    e = kir_expr(KE_UNARY, t, loc);
    e->op = op == CXUnaryOperator_Minus ? KU_NEG : KU_NOT;
    e->a = fe_convert(a, t);
    return e;
  case CXUnaryOperator_LNot:
    if (kir_is_vec(a->type)) return fe_vec_lnot(a, loc);
    e = kir_expr(KE_UNARY, t_int(), loc);
    e->op = KU_LNOT;
    e->a = a;
    return e;
  default: diag_error(loc, "this operator is not supported in kcc kernels"); return fe_poison(loc);
  }
}

KOp fe_binary_op(enum CXBinaryOperatorKind k) {
  switch (k) {
  case CXBinaryOperator_Mul:
  case CXBinaryOperator_MulAssign: return KB_MUL;
  case CXBinaryOperator_Div:
  case CXBinaryOperator_DivAssign: return KB_DIV;
  case CXBinaryOperator_Rem:
  case CXBinaryOperator_RemAssign: return KB_REM;
  case CXBinaryOperator_Add:
  case CXBinaryOperator_AddAssign: return KB_ADD;
  case CXBinaryOperator_Sub:
  case CXBinaryOperator_SubAssign: return KB_SUB;
  case CXBinaryOperator_Shl:
  case CXBinaryOperator_ShlAssign: return KB_SHL;
  case CXBinaryOperator_Shr:
  case CXBinaryOperator_ShrAssign: return KB_SHR;
  case CXBinaryOperator_And:
  case CXBinaryOperator_AndAssign: return KB_AND;
  case CXBinaryOperator_Xor:
  case CXBinaryOperator_XorAssign: return KB_XOR;
  case CXBinaryOperator_Or:
  case CXBinaryOperator_OrAssign: return KB_OR;
  case CXBinaryOperator_LT: return KB_LT;
  case CXBinaryOperator_GT: return KB_GT;
  case CXBinaryOperator_LE: return KB_LE;
  case CXBinaryOperator_GE: return KB_GE;
  case CXBinaryOperator_EQ: return KB_EQ;
  case CXBinaryOperator_NE: return KB_NE;
  case CXBinaryOperator_LAnd: return KB_LAND;
  case CXBinaryOperator_LOr: return KB_LOR;
  default: return KB_NONE;
  }
}

static KExpr *binary(FeCtx *fe, CXCursor c, KLoc loc) {
  FeKids k;
  fe_kids_expr(c, &k);
  if (k.n != 2) {
    fe_kids_free(&k);
    diag_error(loc, "this operator is not supported in kcc kernels");
    return fe_poison(loc);
  }
  CXCursor lc = k.v[0], rc = k.v[1];
  fe_kids_free(&k);
  enum CXBinaryOperatorKind bk = clang_getCursorBinaryOperatorKind(c);
  KExpr *a = fe_expr(fe, lc);
  KExpr *b = fe_expr(fe, rc);
  KType *t = type_of(fe, c, loc);
  if (!t) return fe_poison(loc);
  KOp op = fe_binary_op(bk);
  if (bk >= CXBinaryOperator_MulAssign && bk <= CXBinaryOperator_OrAssign &&
      !fe_check_swizzle_target(a, loc))
    return fe_poison(loc);
  if (bk != CXBinaryOperator_Comma && bk != CXBinaryOperator_Assign &&
      (kir_is_vec(t) || kir_is_vec(a->type) || kir_is_vec(b->type)))
    return fe_vec_binary(fe, bk, t, a, b, loc);
  switch (bk) {
  case CXBinaryOperator_Comma: return binary_node(KE_COMMA, KB_NONE, b->type, a, b, loc);
  case CXBinaryOperator_Assign:
    if (!fe_check_swizzle_target(a, loc)) return fe_poison(loc);
    return sequenced_assign(
        fe, binary_node(KE_ASSIGN, KB_NONE, a->type, a, fe_convert(b, a->type), loc));
  case CXBinaryOperator_MulAssign:
  case CXBinaryOperator_DivAssign:
  case CXBinaryOperator_RemAssign:
  case CXBinaryOperator_AddAssign:
  case CXBinaryOperator_SubAssign:
  case CXBinaryOperator_ShlAssign:
  case CXBinaryOperator_ShrAssign:
  case CXBinaryOperator_AndAssign:
  case CXBinaryOperator_XorAssign:
  case CXBinaryOperator_OrAssign: {
    KExpr *e;
    if (a->type->kind == KT_PTR) {
      e = binary_node(KE_ASSIGN, op == KB_ADD ? KB_PTR_ADD : KB_PTR_SUB, a->type, a, b, loc);
      e->optype = a->type;
    } else if (op == KB_SHL || op == KB_SHR) {
      if (fe->opencl) b = fe_shift_count(b, promote(a->type));
      e = binary_node(KE_ASSIGN, op, a->type, a, b, loc);
      e->optype = promote(a->type);
    } else {
      KType *ct = arith_common(a->type, b->type);
      e = binary_node(KE_ASSIGN, op, a->type, a, fe_convert(b, ct), loc);
      e->optype = ct;
    }
    return sequenced_assign(fe, e);
  }
  case CXBinaryOperator_Add:
    if (a->type->kind == KT_PTR && kir_is_int(b->type))
      return binary_node(KE_BINARY, KB_PTR_ADD, a->type, a, b, loc);
    if (b->type->kind == KT_PTR && kir_is_int(a->type))
      return binary_node(KE_BINARY, KB_PTR_ADD, b->type, b, a, loc);
    break;
  case CXBinaryOperator_Sub:
    if (a->type->kind == KT_PTR && kir_is_int(b->type))
      return binary_node(KE_BINARY, KB_PTR_SUB, a->type, a, b, loc);
    if (a->type->kind == KT_PTR && b->type->kind == KT_PTR)
      return binary_node(KE_BINARY, KB_PTR_DIFF, t, a, b, loc);
    break;
  case CXBinaryOperator_Shl:
  case CXBinaryOperator_Shr:
    if (fe->opencl) b = fe_shift_count(b, t); /* OpenCL C: the count modulo the width */
    return binary_node(KE_BINARY, op, t, fe_convert(a, t), b, loc);
  case CXBinaryOperator_LT:
  case CXBinaryOperator_GT:
  case CXBinaryOperator_LE:
  case CXBinaryOperator_GE:
  case CXBinaryOperator_EQ:
  case CXBinaryOperator_NE:
    if (kir_is_arith(a->type) && kir_is_arith(b->type)) {
      KType *ct = arith_common(a->type, b->type);
      a = fe_convert(a, ct);
      b = fe_convert(b, ct);
    } else if (a->type->kind == KT_PTR && b->type->kind == KT_PTR) {
      if (is_null_const(b))
        b = fe_convert(b, a->type);
      else if (is_null_const(a))
        a = fe_convert(a, b->type);
    }
    return binary_node(KE_BINARY, op, t_int(), a, b, loc);
  case CXBinaryOperator_LAnd:
  case CXBinaryOperator_LOr: return binary_node(KE_BINARY, op, t_int(), a, b, loc);
  default: break;
  }
  if (op == KB_NONE) {
    diag_error(loc, "this operator is not supported in kcc kernels");
    return fe_poison(loc);
  }
  return binary_node(KE_BINARY, op, t, fe_convert(a, t), fe_convert(b, t), loc);
}

static KExpr *conditional(FeCtx *fe, CXCursor c, KLoc loc) {
  FeKids k;
  fe_kids_expr(c, &k);
  if (k.n != 3) {
    fe_kids_free(&k);
    diag_error(loc, "this conditional expression is not supported in kcc kernels");
    return fe_poison(loc);
  }
  CXCursor cc = k.v[0], tc = k.v[1], ec = k.v[2];
  fe_kids_free(&k);
  KExpr *cond = fe_expr(fe, cc);
  KExpr *a = fe_expr(fe, tc);
  KExpr *b = fe_expr(fe, ec);
  KType *t = type_of(fe, c, loc);
  if (!t) return fe_poison(loc);
  if (kir_is_vec(cond->type)) return fe_vec_cond(fe, cond, a, b, t, loc);
  if (t->kind == KT_PTR && a->type->kind == KT_PTR && is_null_const(b)) b = fe_convert(b, a->type);
  if (t->kind == KT_PTR && b->type->kind == KT_PTR && is_null_const(a)) a = fe_convert(a, b->type);
  if (a->type == b->type && fe_type_eq_noas(a->type, t)) t = a->type;
  KExpr *e = kir_expr(KE_COND, t, loc);
  e->a = cond;
  e->b = fe_convert(a, t);
  e->c = fe_convert(b, t);
  return e;
}

static KExpr *subscript(FeCtx *fe, CXCursor c, KLoc loc) {
  FeKids k;
  fe_kids_expr(c, &k);
  if (k.n != 2) {
    fe_kids_free(&k);
    return fe_broken(fe, loc, "this subscript");
  }
  CXCursor x = k.v[0], y = k.v[1];
  fe_kids_free(&k);
  KExpr *a = fe_expr(fe, x);
  if (kir_is_vec(a->type)) return fe_vec_subscript(fe, a, y, loc);
  KExpr *b = fe_expr(fe, y);
  if (a->type->kind != KT_PTR && b->type->kind == KT_PTR) {
    KExpr *t = a; /* i[a] is a[i] */
    a = b;
    b = t;
  }
  if (a->type->kind != KT_PTR) return fe_broken(fe, loc, "this subscript");
  KExpr *e = kir_expr(KE_INDEX, a->type->base, loc);
  e->a = a;
  e->b = b;
  return e;
}

static KExpr *implicit_cast(FeCtx *fe, CXCursor c, CXCursor sub, KLoc loc) {
  KExpr *e = fe_expr(fe, sub);
  CXType ct = clang_getCursorType(c);
  if (e->type->kind == KT_ARRAY && clang_getCanonicalType(ct).kind == CXType_Pointer)
    return decay(e, ptr_qual(ct));
  KType *to = type_of(fe, c, loc);
  if (!to) return fe_poison(loc);
  /* libclang shows a parameter declared `float a[16]` with its written array type; the
     parameter itself is the adjusted pointer. */
  if (e->type->kind == KT_PTR && to->kind == KT_ARRAY) return e;
  if (fe_type_eq_noas(e->type, to)) return e; /* lvalue-to-rvalue, qualifier changes */
  if (e->type->kind == KT_PTR && to->kind == KT_PTR && e->type->base == to->base &&
      (e->type->qual & ~KQ_RESTRICT) == (to->qual & ~KQ_RESTRICT))
    return e; /* lvalue-to-rvalue of a restrict pointer drops the qualifier */
  return fe_convert(e, to);
}

/* Whether C++ cast c is to a reference type (`(float4 &)x`, `reinterpret_cast<T &>(x)`, or a
 * typedef of a reference). clang gives the expression its referenced type, not the written
 * one, so the written type is read back: its tokens (the '&' before the ')' or '>' closing
 * it), or the typedef it names. */
static bool reference_cast(FeCtx *fe, CXCursor c) {
  FeKids k;
  fe_kids(c, &k);
  bool ref = false;
  for (int i = 0; i < k.n && !ref; i++)
    if (clang_getCursorKind(k.v[i]) == CXCursor_TypeRef) {
      enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(k.v[i])).kind;
      ref = tk == CXType_LValueReference || tk == CXType_RValueReference;
    }
  fe_kids_free(&k);
  if (ref) return true;
  enum CXCursorKind ck = clang_getCursorKind(c);
  bool named = ck == CXCursor_CXXReinterpretCastExpr || ck == CXCursor_CXXStaticCastExpr ||
               ck == CXCursor_CXXConstCastExpr;
  if (!named && ck != CXCursor_CStyleCastExpr) return false;
  CXSourceRange ext = clang_getCursorExtent(c);
  if (fe_in_macro(clang_getRangeStart(ext))) return false; /* its tokens are elsewhere */
  CXToken *t = NULL;
  unsigned nt = 0;
  clang_tokenize(fe->tu, ext, &t, &nt);
  /* The written type runs from t[0] '(' (or t[1] '<') to its closing bracket. */
  const char *open = named ? "<" : "(", *close = named ? ">" : ")";
  int depth = 0;
  const char *prev = "";
  char prevbuf[4] = "";
  for (unsigned i = named ? 1 : 0; i < nt; i++) {
    CXString sp = clang_getTokenSpelling(fe->tu, t[i]);
    const char *tok = clang_getCString(sp);
    bool closes = !strcmp(tok, close) || (named && !strcmp(tok, ">>"));
    if (!strcmp(tok, open)) depth++;
    if (closes) depth -= named && !strcmp(tok, ">>") ? 2 : 1;
    if (closes && depth <= 0) {
      ref = !strcmp(prev, "&") || !strcmp(prev, "&&");
      clang_disposeString(sp);
      break;
    }
    snprintf(prevbuf, sizeof prevbuf, "%s", strlen(tok) < sizeof prevbuf ? tok : "");
    prev = prevbuf;
    clang_disposeString(sp);
  }
  clang_disposeTokens(fe->tu, t, nt);
  return ref;
}

static KExpr *explicit_cast(FeCtx *fe, CXCursor c, KLoc loc) {
  FeKids k;
  fe_kids_expr(c, &k);
  CXCursor sub = k.n ? k.v[k.n - 1] : clang_getNullCursor();
  fe_kids_free(&k);
  if (clang_Cursor_isNull(sub)) return fe_broken(fe, loc, "this cast");
  if (clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Void) {
    /* `(void)f` of a function (a macro's way of marking it used): a name, nothing to
       evaluate, and no function pointer. */
    CXCursor in = peel(sub);
    if (clang_getCursorKind(in) == CXCursor_DeclRefExpr) {
      enum CXCursorKind rk = clang_getCursorKind(clang_getCursorReferenced(in));
      if (rk == CXCursor_FunctionDecl || rk == CXCursor_FunctionTemplate ||
          rk == CXCursor_CXXMethod)
        return kir_cast(fe_int_const(t_int(), 0, loc), kir_type_void());
    }
  }
  KExpr *e = fe_expr(fe, sub);
  KType *to = type_of(fe, c, loc);
  if (!to) return fe_poison(loc);
  if (fe->lang == KL_LANG_CU && to != e->type && kir_is_lvalue(e) && reference_cast(fe, c)) {
    /* (T &)x names x's bytes as a T: *(T *)&x, never a converted copy. */
    KExpr *p = fe_addr_of(fe, e, loc);
    return deref(kir_cast(p, kir_type_ptr(to, p->type->as, p->type->qual)), loc);
  }
  if (e->type->kind == KT_ARRAY && to->kind == KT_PTR) e = decay(e, to->qual);
  if (kir_is_vec(to) && !fe->opencl) {
    /* OpenCL C's literal (float4)(a, b, c, d) is, in C, a comma expression widened to every
       component: never what was meant. */
    CXCursor in = peel(sub);
    if (clang_getCursorKind(in) == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(in) == CXBinaryOperator_Comma) {
      diag_error(loc,
                 "(%s)(a, b, ...) is OpenCL C's vector literal; in kcc's dialect it is a comma "
                 "expression widened to every component: write (%s){a, b, ...}",
                 kir_type_str(to), kir_type_str(to));
      return fe_poison(loc);
    }
  }
  if ((kir_is_vec(to) || kir_is_vec(e->type)) && to->kind != KT_VOID) {
    /* A scalar cast to a vector type widens; a cast between vector types (and between a
       vector and a scalar of its size) reinterprets the bits, as clang does in C. OpenCL C
       converts only through convert_T. */
    if (e->type == to) return e;
    KExpr *r = kir_is_vec(to) && !kir_is_vec(e->type) ? fe_splat(e, to) : NULL;
    if (!r) {
      r = kir_expr(KE_BITCAST, to, loc);
      r->a = e;
    }
    r->loc = loc;
    return r;
  }
  KExpr *r = fe_convert(e, to);
  if (r != e) r->loc = loc;
  return r;
}

/* ---------------------------------------------------------------- calls */

static KExpr *printf_call(FeCtx *fe, CXCursor c, KLoc loc) {
  int n = clang_Cursor_getNumArguments(c);
  KExpr *e = kir_builtin(BI_PRINTF, t_int(), n, loc);
  for (int i = 0; i < n; i++) {
    CXCursor arg = clang_Cursor_getArgument(c, i);
    CXCursor lit = peel(arg);
    KLoc aloc = fe_loc(fe, arg);
    KExpr *a;
    if (clang_getCursorKind(lit) == CXCursor_StringLiteral) {
      a = string_literal(fe, lit, arg, fe_loc(fe, lit));
    } else if (i == 0) {
      diag_error(aloc, "printf format must be a string literal");
      a = fe_poison(aloc);
    } else {
      a = fe_expr(fe, arg);
    }
    e->args[e->nargs++] = a;
  }
  KExpr *f = n ? e->args[0] : NULL;
  KLoc floc = n ? fe_loc(fe, clang_Cursor_getArgument(c, 0)) : loc;
  if (f && f->kind == KE_STR && fe_expand_printf_vectors(e, f->loc) &&
      fe_check_printf_format(e->args[0]->str, e->args[0]->len, floc))
    fe_check_printf_args(e, floc);
  return e;
}

/* CUDA's pointer-result texture and surface reads (tex2D(&v, obj, x, y), surf2Dread(&v, obj,
 * x, y)): *p = the value form's result (its T the pointee). */
static KExpr *texture_into(FeCtx *fe, CXCursor c, KBuiltin b, int n, KLoc loc) {
  KExpr *p = fe_expr(fe, clang_Cursor_getArgument(c, 0));
  if (p->type->kind != KT_PTR) return fe_poison(loc);
  KExpr *e = kir_builtin(b, p->type->base, n - 1, loc);
  for (int i = 1; i < n; i++) e->args[e->nargs++] = fe_expr(fe, clang_Cursor_getArgument(c, i));
  if (fe->ops->builtin_made) fe->ops->builtin_made(fe, e);
  KExpr *lv = deref(p, loc);
  return binary_node(KE_ASSIGN, KB_NONE, lv->type, lv, e, loc);
}

static KExpr *builtin_call(FeCtx *fe, CXCursor c, KBuiltin b, KLoc loc) {
  if (b == BI_PRINTF) return printf_call(fe, c, loc);
  KType *t = type_of(fe, c, loc);
  if (!t) return fe_poison(loc);
  int n = clang_Cursor_getNumArguments(c);
  if (kir_builtin_is_cuda_texture(b) && !kir_cuda_texture_shape(b).write && n > 0 &&
      clang_getCursorType(clang_Cursor_getArgument(c, 0)).kind == CXType_Pointer)
    return texture_into(fe, c, b, n, loc);
  if (b == BI_SYNCTHREADS) n = 0; /* barrier(flags): kcc's barrier always fences both */
  KExpr *e = kir_builtin(b, t, n, loc);
  bool relational = b == BI_ISNAN || b == BI_ISINF || b == BI_ISFINITE;
  for (int i = 0; i < n; i++) {
    KExpr *a = fe_expr(fe, clang_Cursor_getArgument(c, i));
    if (b == BI_ABS && kir_is_vec(t) && kir_is_vec(a->type) && kir_is_signed(a->type->base) &&
        !kir_is_signed(t->base) && a->type->len == t->len) {
      /* OpenCL's abs(int4) is a uint4: the absolute value, then its bits as unsigned. */
      e->type = a->type;
      e->args[e->nargs++] = a;
      return kir_cast(e, t);
    }
    /* Builtins on vectors act on each component: scalar arguments are widened. */
    if (b == BI_MIN || b == BI_MAX || b == BI_ABS || (kir_is_vec(t) && !relational))
      a = fe_convert(a, t);
    e->args[e->nargs++] = a;
  }
  if (fe->ops->builtin_made) fe->ops->builtin_made(fe, e);
  return e;
}

/* The function a callee expression names: `f`, `&f`, `*f`, or a template parameter a
 * specialisation substituted one for (`template <float (*op)(float)>`: a use of op references
 * nothing and shows `&f` or `f` as its only child), so that the call is direct. */
static CXCursor named_function(CXCursor e) {
  for (int depth = 0; depth < 16 && !clang_Cursor_isNull(e); depth++) {
    e = peel(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_UnaryOperator) {
      enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
      if (op != CXUnaryOperator_AddrOf && op != CXUnaryOperator_Deref) break;
      e = only_expr_child(e);
      continue;
    }
    if (k != CXCursor_DeclRefExpr) break;
    CXCursor ref = clang_getCursorReferenced(e);
    if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) return ref;
    if (!clang_Cursor_isNull(ref)) break;
    e = only_expr_child(e); /* a substituted template parameter */
  }
  return clang_getNullCursor();
}

/* The callee's FunctionDecl of a direct call, or a null cursor (a call through a pointer). */
static CXCursor direct_callee(CXCursor call) {
  FeKids k;
  fe_kids_expr(call, &k);
  CXCursor callee = k.n ? k.v[0] : clang_getNullCursor();
  fe_kids_free(&k);
  return clang_Cursor_isNull(callee) ? callee : named_function(callee);
}

/* A default argument the call leaves out: libclang shows an UnexposedExpr without children
 * and without a location. */
static bool is_default_arg(CXCursor a) {
  if (clang_getCursorKind(a) != CXCursor_UnexposedExpr) return false;
  unsigned line = 0;
  clang_getExpansionLocation(clang_getCursorLocation(a), NULL, &line, NULL, NULL);
  if (line) return false;
  FeKids k;
  fe_kids(a, &k);
  bool none = k.n == 0;
  fe_kids_free(&k);
  return none;
}

/* The default argument of parameter i of fn, from whichever declaration gives it. */
static CXCursor default_arg(CXCursor fn, int i) {
  CXCursor decls[3] = {fn, clang_getCanonicalCursor(fn), clang_getCursorDefinition(fn)};
  for (int d = 0; d < 3; d++) {
    if (clang_Cursor_isNull(decls[d]) || i >= clang_Cursor_getNumArguments(decls[d])) continue;
    FeKids k;
    fe_kids_expr(clang_Cursor_getArgument(decls[d], i), &k);
    CXCursor e = k.n ? k.v[k.n - 1] : clang_getNullCursor();
    fe_kids_free(&k);
    if (!clang_Cursor_isNull(e)) return e;
  }
  return clang_getNullCursor();
}

bool fe_ref_by_address(CXType t) {
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_LValueReference) return false;
  return !clang_isConstQualifiedType(clang_getPointeeType(t));
}

KExpr *fe_call(FeCtx *fe, CXCursor c, CXCursor fn, KFunc *f, KExpr *self, int arg0, KLoc loc) {
  const char *name = fe_spelling(fn);
  if (fe->ops->note_call) fe->ops->note_call(fe, fn, f, loc);
  if (f->is_kernel) {
    diag_error(loc, "kernel function '%s' cannot be called from device code", name);
    return fe_poison(loc);
  }
  int n = clang_Cursor_getNumArguments(c) - arg0;
  if (clang_isFunctionTypeVariadic(clang_getCursorType(fn))) return fe_poison(loc);
  int first = self ? 1 : 0;
  if (n < 0 || n + first != f->nparams) {
    diag_error(loc, "call to '%s' with %d argument%s, but it takes %d", name, n, n == 1 ? "" : "s",
               f->nparams - first);
    return fe_poison(loc);
  }
  KExpr *e = kir_expr(KE_CALL, f->ret, loc);
  e->callee = f;
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)(f->nparams ? f->nparams : 1));
  if (self) e->args[e->nargs++] = self;
  CXType ft = clang_getCursorType(fn);
  for (int i = 0; i < n; i++) {
    CXCursor a = clang_Cursor_getArgument(c, i + arg0);
    if (fe->lang == KL_LANG_CU && is_default_arg(a)) {
      a = default_arg(fn, i);
      if (clang_Cursor_isNull(a)) {
        e->args[e->nargs++] = fe_broken(fe, loc, "this default argument");
        continue;
      }
    }
    KExpr *v = fe_expr(fe, a);
    if (fe->lang == KL_LANG_CU && fe_ref_by_address(clang_getArgType(ft, (unsigned)i)))
      v = fe_addr_of(fe, v, v->loc);
    else
      v = fe_convert(v, f->params[i + first]->type);
    e->args[e->nargs++] = v;
  }
  CXType rt = clang_getResultType(ft);
  if (fe->lang == KL_LANG_CU && fe_ref_by_address(rt) && f->ret->kind == KT_PTR)
    return deref(e, loc);
  return e;
}

/* A function clang declared itself (CUDA's __syncthreads): no file. */
static bool is_implicit(CXCursor c) {
  CXFile f = NULL;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
  return f == NULL;
}

/* std::move, std::forward & co.: casts the standard spells as functions, which clang treats
 * as builtins (it never instantiates their bodies), so the call is its argument; addressof
 * is its argument's address. */
static KExpr *std_cast_call(FeCtx *fe, CXCursor c, CXCursor fn, const char *name, KLoc loc) {
  static const char *const casts[] = {"move", "forward", "move_if_noexcept", "as_const",
                                      "forward_like"};
  CXCursor ns = clang_getCursorSemanticParent(fn);
  if (clang_getCursorKind(ns) != CXCursor_Namespace || strcmp(fe_spelling(ns), "std") ||
      clang_Cursor_getNumArguments(c) != 1)
    return NULL;
  KExpr *arg = NULL;
  for (size_t i = 0; i < sizeof casts / sizeof *casts && !arg; i++)
    if (!strcmp(name, casts[i])) arg = fe_expr(fe, clang_Cursor_getArgument(c, 0));
  if (arg) return arg;
  if (strcmp(name, "addressof") && strcmp(name, "__addressof")) return NULL;
  return fe_addr_of(fe, fe_expr(fe, clang_Cursor_getArgument(c, 0)), loc);
}

static KExpr *call(FeCtx *fe, CXCursor c, KLoc loc) {
  if (fe->lang == KL_LANG_CU) {
    KExpr *r = fe_cxx_call(fe, c, loc); /* constructors, member and operator calls */
    if (r) return r;
  }
  CXCursor fn = direct_callee(c);
  if (clang_Cursor_isNull(fn) && fe->lang == KL_LANG_CU &&
      clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FunctionDecl)
    fn = clang_getCursorReferenced(c); /* an operator: its callee sits between the operands */
  if (clang_Cursor_isNull(fn)) {
    diag_error(loc, "function pointers are not supported in kcc kernels");
    return fe_poison(loc);
  }
  if (fe->ops->builtin_call) {
    KExpr *r = fe->ops->builtin_call(fe, c, fn, loc); /* OpenCL built-ins clang declared */
    if (r) return r;
  }
  const char *name = fe_spelling(fn);
  if (fe->lang == KL_LANG_CU) {
    KExpr *r = std_cast_call(fe, c, fn, name, loc);
    if (r) return r;
  }
  KFunc *f = fe_map_get(&fe->decls, clang_getCanonicalCursor(fn));
  CXCursor canon = clang_getCanonicalCursor(fn);
  /* CUDA's own builtins (__syncthreads) are declared by clang where first used. */
  bool cu_builtin = fe->lang == KL_LANG_CU &&
                    (is_implicit(canon) || (clang_Cursor_isNull(clang_getCursorDefinition(fn)) &&
                                            fe_builtin_lookup(name) != BI_NONE));
  if (!f && (fe_in_vfile(fe, canon) || cu_builtin)) {
    /* kcc's headers: vector builtins, KIR builtins, then functions they define (dot...). */
    /* An overload the header defines (CUDA's shuffles of a float4) is that function, even
       where the name is a builtin's. */
    bool defined = !clang_Cursor_isNull(clang_getCursorDefinition(fn));
    KExpr *v = defined ? NULL : fe_vec_builtin(fe, c, name, loc);
    if (v) return v;
    KExpr *h = !defined && fe->ops->header_call ? fe->ops->header_call(fe, c, name, loc) : NULL;
    if (h) return h;
    KBuiltin b = defined ? BI_NONE : fe_builtin_lookup(name);
    if (b != BI_NONE) {
      KExpr *r = builtin_call(fe, c, b, loc);
      if (r->kind == KE_BUILTIN) {
        r->approx = fe_builtin_is_fast(name);
        r->sys_scope = fe_builtin_is_system(name);
      }
      return r;
    }
    f = fe_vfile_function(fe, fn);
  }
  if (!f && fe->lang == KL_LANG_CU) f = fe_cxx_function(fe, fn);
  if (f) return fe_call(fe, c, fn, f, NULL, 0, loc);
  if (strncmp(name, "__builtin_", 10) == 0) {
    /* Clang's own builtins: the constant ones (INFINITY, NAN from <math.h>) fold, and
       __builtin_expect is only a hint. */
    KType *t = type_of(fe, c, loc);
    KExpr *k = t ? eval_const(fe, c, t, loc, true) : NULL;
    if (k) return k;
    /* The optimisation hints of the CUDA C++ Programming Guide ("Compiler Optimization Hint
       Functions", clang's too): each promises something kcc does not need to compile
       correctly, so each is its value without the promise. __builtin_assume's argument is
       never evaluated (clang's definition), and __builtin_unreachable is undefined behaviour
       when reached, which doing nothing is a case of. */
    int na = clang_Cursor_getNumArguments(c);
    if (strcmp(name, "__builtin_expect") == 0 && na == 2 && t)
      return fe_convert(fe_expr(fe, clang_Cursor_getArgument(c, 0)), t);
    if (strcmp(name, "__builtin_assume_aligned") == 0 && (na == 2 || na == 3) && t)
      return fe_convert(fe_expr(fe, clang_Cursor_getArgument(c, 0)), t);
    /* nan(tag) with a tag known only at run time: which NaN a tag selects is the
       implementation's (C11 7.12.11.2); kcc's is always nan("")'s, the default quiet NaN. */
    if ((!strcmp(name, "__builtin_nan") || !strcmp(name, "__builtin_nanf")) && na == 1 && t &&
        kir_is_float(t))
      return fconst(t, __builtin_nan(""), loc);
    if ((strcmp(name, "__builtin_assume") == 0 && na == 1) ||
        (strcmp(name, "__builtin_unreachable") == 0 && na == 0))
      return t ? fe_convert(fe_int_const(kir_type_scalar(KT_I32), 0, loc), t) : fe_poison(loc);
  }
  diag_error(loc,
             "call to '%s', which is neither a device function defined in this file nor a "
             "kcc builtin",
             name);
  return fe_poison(loc);
}

/* ---------------------------------------------------------------- dispatch */

static KExpr *unsupported(KLoc loc, const char *what) {
  diag_error(loc, "%s are not supported in kcc kernels", what);
  return fe_poison(loc);
}

/* C++'s std::initializer_list<E> made from a braced list (CXXStdInitializerListExpr, an
 * UnexposedExpr over the list's array to libclang): the array is a temporary, and the
 * initializer_list the pair of its address and length, the layout <initializer_list> gives
 * it (cxxlib.c). NULL when c is not one. */
static KExpr *std_initializer_list(FeCtx *fe, CXCursor c, CXCursor sub, KLoc loc) {
  CXType ct = clang_getCanonicalType(clang_getCursorType(c));
  CXType at = clang_getCanonicalType(clang_getCursorType(sub));
  if (ct.kind != CXType_Record || at.kind != CXType_ConstantArray ||
      !fe_type_named(ct, "std::initializer_list<"))
    return NULL;
  CXCursor list = peel(sub);
  if (clang_getCursorKind(list) != CXCursor_InitListExpr) return NULL;
  KType *t = type_of(fe, c, loc), *arrt = type_of(fe, list, loc);
  if (!t || !arrt) return fe_poison(loc);
  if (t->kind != KT_STRUCT || t->st->nfields != 2 || arrt->kind != KT_ARRAY)
    return fe_broken(fe, loc, "this std::initializer_list");
  KExpr *arr = fe_temp(fe, arrt, fe_zero(arrt, loc), loc);
  KExpr *r = fe_assign_list(arr, init_braced(fe, list, arrt, false), loc);
  KExpr *tmp = fe_temp(fe, t, fe_zero(t, loc), loc);
  for (int i = 0; i < 2; i++) {
    KExpr *m = kir_expr(KE_MEMBER, t->st->fields[i].type, loc);
    m->a = tmp;
    m->field = i;
    KExpr *v = i ? fe_int_const(m->type, arrt->len, loc) : fe_convert(decay(arr, 0), m->type);
    r = binary_node(KE_COMMA, KB_NONE, m->type, r,
                    binary_node(KE_ASSIGN, KB_NONE, m->type, m, v, loc), loc);
  }
  return binary_node(KE_COMMA, KB_NONE, t, r, tmp, loc);
}

static KExpr *lower(FeCtx *fe, CXCursor c) {
  KLoc loc = fe_loc(fe, c);
  enum CXCursorKind kind = clang_getCursorKind(c);
  KExpr *le = fe->ops->expr ? fe->ops->expr(fe, c, loc) : NULL; /* OpenCL: samplers, as_T */
  if (le) return le;
  switch (kind) {
  case CXCursor_UnexposedExpr: {
    if (fe_is_swizzle(fe, c)) return fe_swizzle(fe, c, loc);
    FeKids k;
    fe_kids(c, &k);
    CXCursor sub = k.n == 1 ? k.v[0] : clang_getNullCursor();
    fe_kids_free(&k);
    KExpr *il = fe->lang == KL_LANG_CU && !clang_Cursor_isNull(sub)
                    ? std_initializer_list(fe, c, sub, loc)
                    : NULL;
    if (il) return il;
    if (!clang_Cursor_isNull(sub) && clang_isExpression(clang_getCursorKind(sub)) &&
        same_extent(c, sub))
      return implicit_cast(fe, c, sub, loc);
    if (is_designator(c)) return unsupported(loc, "designated initializers");
    /* offsetof and other integer constant expressions libclang does not expose. */
    KType *t = type_of(fe, c, loc);
    KExpr *folded = t && kir_is_int(t) ? eval_const(fe, c, t, loc, true) : NULL;
    if (folded) return folded;
    diag_error(loc, "this expression is not supported in kcc kernels");
    return fe_poison(loc);
  }
  case CXCursor_ParenExpr: {
    CXCursor sub = only_expr_child(c);
    return clang_Cursor_isNull(sub) ? fe_broken(fe, loc, "this expression") : fe_expr(fe, sub);
  }
  case CXCursor_DeclRefExpr: return decl_ref(fe, c, loc);
  case CXCursor_MemberRefExpr: return member(fe, c, loc);
  case CXCursor_CallExpr: return call(fe, c, loc);
  case CXCursor_IntegerLiteral:
  case CXCursor_CXXBoolLiteralExpr: /* OpenCL C's true and false */
  case CXCursor_CharacterLiteral:
  case CXCursor_FloatingLiteral: {
    KType *t = type_of(fe, c, loc);
    return t ? eval_const(fe, c, t, loc, false) : fe_poison(loc);
  }
  case CXCursor_UnaryExpr: { /* sizeof, _Alignof, offsetof: folded */
    KType *t = type_of(fe, c, loc);
    KExpr *k = t ? eval_const(fe, c, t, loc, true) : NULL;
    if (k) return k;
    /* Only a variable length array has a size clang cannot fold. */
    if (t) diag_error(loc, "sizeof of a variable length array is not supported in kcc kernels");
    return fe_poison(loc);
  }
  case CXCursor_StringLiteral: /* as a value it is decayed (decayed_string) */
    diag_error(loc, "this use of a string literal is not supported in kcc kernels");
    return fe_poison(loc);
  case CXCursor_UnaryOperator: return unary(fe, c, loc);
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: return binary(fe, c, loc);
  case CXCursor_ConditionalOperator: return conditional(fe, c, loc);
  case CXCursor_ArraySubscriptExpr: return subscript(fe, c, loc);
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXReinterpretCastExpr:
  case CXCursor_CXXConstCastExpr:
  case CXCursor_CXXFunctionalCastExpr: return explicit_cast(fe, c, loc);
  case CXCursor_CXXNullPtrLiteralExpr:
  case CXCursor_GNUNullExpr: return fe_int_const(kir_type_scalar(KT_I64), 0, loc);
  case CXCursor_CXXThisExpr:
    if (fe->this_var) return fe_this(fe, loc);
    return fe_broken(fe, loc, "this 'this'");
  case CXCursor_CXXDynamicCastExpr: return unsupported(loc, "'dynamic_cast' expressions");
  case CXCursor_CXXTypeidExpr: return unsupported(loc, "'typeid' expressions");
  case CXCursor_CXXNewExpr:
  case CXCursor_CXXDeleteExpr:
    diag_error(loc, "'new' and 'delete' are not supported in kcc kernels: allocate buffers on the "
                    "host and pass them as kernel parameters");
    return fe_poison(loc);
  case CXCursor_LambdaExpr:
    return fe->lang == KL_LANG_CU ? fe_cxx_lambda(fe, c, loc)
                                  : unsupported(loc, "lambda expressions");
  case CXCursor_CXXThrowExpr: return unsupported(loc, "exceptions");
  case CXCursor_ImaginaryLiteral: return unsupported(loc, "complex types");
  case CXCursor_CompoundLiteralExpr: {
    KType *t = type_of(fe, c, loc);
    if (t && kir_is_vec(t)) {
      FeKids k;
      fe_kids_expr(c, &k);
      CXCursor list = k.n == 1 ? k.v[0] : clang_getNullCursor();
      fe_kids_free(&k);
      if (!clang_Cursor_isNull(list) && clang_getCursorKind(list) == CXCursor_InitListExpr)
        return fe_vec_literal(fe, list, t, loc);
      return fe_broken(fe, loc, "this vector literal");
    }
    return unsupported(loc, "compound literals");
  }
  case CXCursor_StmtExpr: /* as a statement it is its block (lower_stmt.c) */
    return unsupported(loc, "statement expressions whose value is used");
  case CXCursor_AddrLabelExpr: return unsupported(loc, "label addresses");
  case CXCursor_BlockExpr: return unsupported(loc, "blocks");
  case CXCursor_FixedPointLiteral: return unsupported(loc, "fixed-point types");
  case CXCursor_InitListExpr: {
    /* C++'s braced lists as values (`uint3{x, y, z}`, `f({a, b})`, `v = {}`): a temporary
       initialized from the list, as a declaration would be. C has compound literals. */
    if (fe->lang != KL_LANG_CU) return unsupported(loc, "initializer lists outside declarations");
    KType *t = type_of(fe, c, loc);
    if (!t) return fe_poison(loc);
    if (t->kind == KT_VOID) return unsupported(loc, "this initializer list");
    KExpr *v = init_braced(fe, c, t, false);
    if (t->kind != KT_STRUCT && t->kind != KT_ARRAY) return v;
    /* Temporaries are declared at the top of the function (fe_temp) and the list may read
       what is declared later, or be evaluated many times: the temporary is assigned where
       the list is, member by member, and then read. */
    KExpr *tmp = fe_temp(fe, t, fe_zero(t, loc), loc);
    return binary_node(KE_COMMA, KB_NONE, t, fe_assign_list(tmp, v, loc), tmp, loc);
  }
  case CXCursor_GenericSelectionExpr:
    diag_error(loc, "'_Generic' is not supported in kcc kernels");
    return fe_poison(loc);
  default: {
    CXString s = clang_getCursorKindSpelling(kind);
    diag_error(loc, "expression of kind '%s' is not supported in kcc kernels", clang_getCString(s));
    clang_disposeString(s);
    return fe_poison(loc);
  }
  }
}

/* A string literal or __func__ decayed to a pointer (`f("name")`, `report(__FUNCTION__)`):
 * a `const char *` to constant memory (KE_STR), which clang folds from the decay. */
static KExpr *decayed_string(FeCtx *fe, CXCursor c) {
  if (!is_implicit_cast(c)) return NULL;
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  if (t.kind != CXType_Pointer) return NULL;
  CXCursor in = peel(c);
  CXType at = clang_getCanonicalType(clang_getCursorType(in));
  if (clang_equalCursors(in, c) || at.kind != CXType_ConstantArray) return NULL;
  CXEvalResult r = clang_Cursor_Evaluate(c);
  bool str = r && clang_EvalResult_getKind(r) == CXEval_StrLiteral;
  if (r) clang_EvalResult_dispose(r);
  if (str) return string_literal(fe, in, c, fe_loc(fe, in));
  /* __func__, __FUNCTION__, __PRETTY_FUNCTION__: libclang evaluates none of them, but shows
     the string clang made as the child literal's spelling, a name in quotes. */
  CXCursor lit = clang_getCursorKind(in) == CXCursor_StringLiteral ? in : only_expr_child(in);
  if (clang_Cursor_isNull(lit) || clang_getCursorKind(lit) != CXCursor_StringLiteral) return NULL;
  CXString sp = clang_getCursorSpelling(lit);
  const char *q = clang_getCString(sp);
  size_t n = q ? strlen(q) : 0;
  KExpr *e = NULL;
  if (n >= 2 && q[0] == '"' && q[n - 1] == '"' && !memchr(q + 1, '\\', n - 2))
    e = str_node(q + 1, n - 2, fe_loc(fe, c));
  clang_disposeString(sp);
  return e;
}

KExpr *fe_expr(FeCtx *fe, CXCursor c) {
  if (!fe_enter(fe, c)) return fe_poison(fe_loc(fe, c));
  KExpr *e = decayed_string(fe, c);
  if (!e) e = lower(fe, c);
  fe_leave(fe);
  if (!e->type) e->type = t_int();
  fe_mark_contract(fe, e);
  return e;
}

/* ---------------------------------------------------------------- initializers */

static KExpr *init_element(FeCtx *fe, FeKids *k, int *pos, KType *t, bool wc);

static KExpr *init_scalar(FeCtx *fe, CXCursor c, KType *t, bool wc) {
  KLoc loc = fe_loc(fe, c);
  if (wc) {
    if (!kir_is_arith(t)) {
      diag_error(loc, "'constant' variables can only hold arithmetic values in kcc kernels");
      return fe_poison(loc);
    }
    KExpr *e = eval_const(fe, c, t, loc, true);
    if (!e) {
      diag_error(loc, "initializer of a 'constant' variable must be an arithmetic constant");
      return fe_poison(loc);
    }
    return e;
  }
  return fe_convert(fe_expr(fe, c), t);
}

static int aggregate_len(const KType *t) {
  if (t->kind == KT_ARRAY) return t->len > 0 ? (int)t->len : 0;
  if (t->kind == KT_STRUCT) return t->st->nfields;
  if (t->kind == KT_VEC) return (int)t->len;
  return 0;
}

static KType *aggregate_elem(const KType *t, int i) {
  return t->kind == KT_STRUCT ? t->st->fields[i].type : t->base;
}

/* A vector filled from a list of its components (`float4 v[2] = {1, 2, 3, 4, 5...}`): the
 * constant list itself in constant data, else a vector literal. */
static KExpr *vec_of_list(KExpr *l, bool wc) {
  if (wc || l->kind != KE_INITLIST) return l;
  KExpr *e = kir_expr(KE_VECLIT, l->type, l->loc);
  e->args = l->args;
  e->nargs = l->nargs;
  for (int i = 0; i < e->nargs; i++)
    if (!e->args[i]) e->args[i] = fe_zero(l->type->base, l->loc);
  return e;
}

/* The initializer list of a vector literal `(float4)(1, 2, 3, 4)` that c is (parentheses and
 * implicit conversions aside), or a null cursor. */
static CXCursor vec_literal_list(CXCursor c) {
  c = peel(c);
  if (clang_getCursorKind(c) != CXCursor_CompoundLiteralExpr) return clang_getNullCursor();
  CXCursor l = only_expr_child(c);
  return !clang_Cursor_isNull(l) && clang_getCursorKind(l) == CXCursor_InitListExpr
             ? l
             : clang_getNullCursor();
}

/* Whether f is an anonymous struct or union member with a field `name`, at any depth. */
static bool anon_has(KField f, const char *name) {
  if (!f.anon) return false;
  for (int i = 0; i < f.type->st->nfields; i++)
    if (strcmp(f.type->st->fields[i].name, name) == 0 || anon_has(f.type->st->fields[i], name))
      return true;
  return false;
}

/* The list of anonymous member type t that `.name = value` (value at *pos) fills, merged into
 * what an earlier designator gave it (prev). */
static KExpr *init_anon_designated(FeCtx *fe, FeKids *k, int *pos, KExpr *prev, KType *t,
                                   const char *name, bool wc, KLoc loc) {
  KExpr *l = prev;
  int n = t->st->nfields;
  if (!l || l->kind != KE_INITLIST || l->type != t) {
    l = kir_expr(KE_INITLIST, t, loc);
    l->nargs = n;
    l->args = kir_alloc(sizeof(KExpr *) * (size_t)n);
  }
  for (int i = 0; i < n; i++) {
    KField f = t->st->fields[i];
    bool direct = strcmp(f.name, name) == 0;
    if (!direct && !anon_has(f, name)) continue;
    if (t->st->is_union) /* one member: the designated one replaces any other */
      for (int j = 0; j < n; j++)
        if (j != i) l->args[j] = NULL;
    l->args[i] = direct ? init_element(fe, k, pos, f.type, wc)
                        : init_anon_designated(fe, k, pos, l->args[i], f.type, name, wc, loc);
    break;
  }
  return l;
}

/* Where a designator (`.field =` or `[index] =`) points in an aggregate of type t, or -1
 * after reporting why kcc does not take it. On success *value is the initializer after it. */
static int designated_index(FeCtx *fe, CXCursor d, KType *t, CXCursor *value, const char **inner) {
  KLoc loc = fe_loc(fe, d);
  FeKids k;
  fe_kids(d, &k);
  int idx = -1;
  *inner = NULL;
  /* A field of an anonymous member is designated through unnamed designators for the
     anonymous members, which libclang shows before the field's own. */
  int unnamed = 0;
  while (unnamed < k.n - 2 && clang_getCursorKind(k.v[unnamed]) == CXCursor_MemberRef &&
         !*fe_spelling(k.v[unnamed]))
    unnamed++;
  if (k.n - unnamed != 2) {
    diag_error(loc, "nested designators are not supported in kcc kernels");
  } else if (clang_getCursorKind(k.v[unnamed]) == CXCursor_MemberRef && t->kind == KT_STRUCT) {
    const char *name = fe_spelling(k.v[unnamed]);
    for (int i = 0; i < t->st->nfields && idx < 0; i++)
      if (strcmp(t->st->fields[i].name, name) == 0) idx = i;
    /* A field of an anonymous member: the designator reaches it through that member. */
    for (int i = 0; i < t->st->nfields && idx < 0; i++)
      if (anon_has(t->st->fields[i], name)) {
        idx = i;
        *inner = name;
      }
  } else if (clang_isExpression(clang_getCursorKind(k.v[0])) && t->kind == KT_ARRAY) {
    KExpr *e = eval_const(fe, k.v[0], kir_type_scalar(KT_I64), loc, true);
    if (e && (int64_t)e->ival >= 0 && (t->len < 0 || (int64_t)e->ival < t->len)) idx = (int)e->ival;
  }
  if (idx < 0 && k.n - unnamed == 2)
    diag_error(loc, "this designator is not supported in kcc kernels");
  if (idx >= 0) *value = k.v[k.n - 1];
  fe_kids_free(&k);
  return idx;
}

/* Fills an aggregate from the initializers at *pos, taking as many as it needs: C's brace
 * elision (`int m[2][2] = {1, 2, 3}`) as clang's syntactic init lists present it. `braced`:
 * the aggregate has its own braces, so designators in the list address its elements; an
 * elided aggregate stops at a designator, which belongs to an enclosing list. */
static KExpr *init_aggregate(FeCtx *fe, FeKids *k, int *pos, KType *t, bool wc, KLoc loc,
                             bool braced) {
  int n = aggregate_len(t);
  KExpr *l = kir_expr(KE_INITLIST, t, loc);
  l->nargs = n;
  l->args = kir_alloc(sizeof(KExpr *) * (size_t)(n ? n : 1));
  bool is_union = t->kind == KT_STRUCT && t->st->is_union;
  int i = 0;
  while (*pos < k->n) {
    if (is_designator(k->v[*pos])) {
      if (!braced) break;
      CXCursor value;
      const char *inner;
      int at = designated_index(fe, k->v[*pos], t, &value, &inner);
      if (at < 0) {
        (*pos)++;
        continue;
      }
      /* The value takes the designator's place; what follows continues after it. */
      k->v[*pos] = value;
      i = at;
      if (inner) {
        /* Through an anonymous member; what follows continues after that member. */
        if (is_union)
          for (int j = 0; j < n; j++)
            if (j != at) l->args[j] = NULL;
        l->args[at] =
            init_anon_designated(fe, k, pos, l->args[at], aggregate_elem(t, at), inner, wc, loc);
        i = at + 1;
        if (is_union && !(*pos < k->n && is_designator(k->v[*pos]))) break;
        continue;
      }
    }
    if (i >= n) break;
    if (is_union) {
      /* A union's list initializes one member: a later designator replaces it (C11
         6.7.9p19), and without one the list's next value belongs to an enclosing aggregate. */
      for (int j = 0; j < n; j++) l->args[j] = NULL;
    }
    l->args[i] = init_element(fe, k, pos, aggregate_elem(t, i), wc);
    i++;
    if (is_union && !(braced && *pos < k->n && is_designator(k->v[*pos]))) break;
  }
  return l;
}

static KExpr *init_braced(FeCtx *fe, CXCursor list, KType *t, bool wc) {
  KLoc loc = fe_loc(fe, list);
  if (!fe_enter(fe, list)) return fe_poison(loc);
  FeKids k;
  fe_kids_expr(list, &k);
  int pos = 0;
  KExpr *r;
  if (t->kind == KT_VEC && !wc)
    r = fe_vec_literal(fe, list, t, loc);
  else if (t->kind == KT_ARRAY || t->kind == KT_STRUCT || t->kind == KT_VEC) {
    r = init_aggregate(fe, &k, &pos, t, wc, loc, true);
    if (fe->lang == KL_LANG_CU && !wc && r->kind == KE_INITLIST && t->kind == KT_STRUCT)
      fe_cxx_aggregate_defaults(fe, clang_getCursorType(list), r, loc);
  } else
    r = k.n ? init_element(fe, &k, &pos, t, wc) : fe_zero(t, loc);
  fe_kids_free(&k);
  fe_leave(fe);
  return r;
}

static KExpr *init_element(FeCtx *fe, FeKids *k, int *pos, KType *t, bool wc) {
  CXCursor c = k->v[*pos];
  KLoc loc = fe_loc(fe, c);
  if (is_designator(c)) {
    (*pos)++;
    diag_error(loc, "designators inside a scalar initializer are not supported in kcc kernels");
    return fe_poison(loc);
  }
  if (clang_getCursorKind(c) == CXCursor_InitListExpr) {
    (*pos)++;
    return init_braced(fe, c, t, wc);
  }
  if (t->kind == KT_ARRAY || t->kind == KT_STRUCT || t->kind == KT_VEC) {
    KType *ct = fe_type(fe, clang_getCursorType(c), loc);
    if (ct && ct == t && t->kind == KT_STRUCT) {
      (*pos)++;
      if (wc) return unsupported(loc, "struct values in 'constant' initializers");
      return fe_expr(fe, c);
    }
    if (ct && kir_is_vec(ct) && t->kind == KT_VEC) {
      (*pos)++;
      return fe_initializer(fe, c, t, wc);
    }
    if (!fe_enter(fe, c)) {
      (*pos)++;
      return fe_poison(loc);
    }
    KExpr *r = init_aggregate(fe, k, pos, t, wc, loc, false);
    fe_leave(fe);
    return t->kind == KT_VEC ? vec_of_list(r, wc) : r;
  }
  (*pos)++;
  return init_scalar(fe, c, t, wc);
}

KExpr *fe_initializer(FeCtx *fe, CXCursor init, KType *t, bool wc) {
  KLoc loc = fe_loc(fe, init);
  if (clang_getCursorKind(init) == CXCursor_InitListExpr) return init_braced(fe, init, t, wc);
  if (t->kind == KT_ARRAY && fe->lang == KL_LANG_CU &&
      clang_getCursorKind(init) == CXCursor_CallExpr)
    return fe_expr(fe, init); /* `D a[4];`: each element's default constructor */
  if (t->kind == KT_ARRAY) {
    CXCursor lit = peel(init);
    if (clang_getCursorKind(lit) == CXCursor_StringLiteral) {
      diag_error(loc, "char arrays initialized from a string literal are not supported in kcc "
                      "kernels; point to the literal instead (const char *s = \"...\")");
      return fe_poison(loc);
    }
    return unsupported(loc, "array initializers other than braced lists");
  }
  if (t->kind == KT_STRUCT) {
    if (wc) return unsupported(loc, "struct values in 'constant' initializers");
    return fe_expr(fe, init);
  }
  if (t->kind == KT_VEC) {
    CXCursor list = vec_literal_list(init);
    if (wc && !clang_Cursor_isNull(list)) return init_braced(fe, list, t, wc);
    if (wc) {
      diag_error(loc, "initializer of a 'constant' vector must be a vector literal of constants");
      return fe_poison(loc);
    }
    return fe_convert(fe_expr(fe, init), t);
  }
  return init_scalar(fe, init, t, wc);
}
