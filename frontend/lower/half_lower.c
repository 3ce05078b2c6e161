/* half_lower.c — the front end's last step: OpenCL C's half (KT_F16) becomes storage plus
 * float arithmetic, for every target.
 *
 * A half value is its 16 bits (KT_U16, halfN a ushortN) everywhere after this: in variables,
 * parameters, struct fields, arrays, pointers, constants and vectors. Each operation that
 * computes with halves converts its operands to float (exact: every half is a float),
 * computes in float and rounds the result back to half, to nearest even. For + - * / and
 * sqrt that is the correctly rounded half result (float's 24 bits are more than 2 x 11 + 2,
 * so rounding twice is innocuous); fma, whose exact result can need more than float keeps,
 * rounds to float toward odd first (half_fma; docs/design.md has the argument). Comparisons
 * compare the floats; negation flips the sign bit, as IEEE negation does. The conversions
 * are half.c's integer functions, so every back end gives the same bits on any device, with
 * or without native half support (PoCL and NVIDIA's OpenCL have none). */
#include <string.h>

#include "diag.h"
#include "fe.h"

typedef struct L {
  FeCtx *fe;
  KFunc *func;         /* being lowered */
  KList temps;         /* KS_DECL of temporaries to put at the start of func's body */
  KFunc *vconv[3][17]; /* per length: halfN -> floatN, floatN -> halfN, doubleN -> halfN */
  KFunc *d2h;          /* double -> half */
  KFunc *fma[17];      /* per length: the half fma (half_fma) */
} L;

static KType *ty(KTypeKind k) {
  return kir_type_scalar(k);
}

/* t with half replaced by its bits. Structs are changed in place (their fields), once, by
 * fe_lower_half; a struct type itself stays what it is. */
static KType *lt(KType *t) {
  switch (t->kind) {
  case KT_F16: return ty(KT_U16);
  case KT_VEC: return t->base->kind == KT_F16 ? kir_type_vec(ty(KT_U16), (int)t->len) : t;
  case KT_PTR: {
    KType *b = lt(t->base);
    return b == t->base ? t : kir_type_ptr(b, t->as, t->qual);
  }
  case KT_ARRAY: {
    KType *b = lt(t->base);
    return b == t->base ? t : kir_type_array(b, t->len);
  }
  default: return t;
  }
}

/* The float type (or vector) holding t's values: float for half, floatN for halfN. */
static KType *ftype(KType *t, KTypeKind k) {
  return t->kind == KT_VEC ? kir_type_vec(ty(k), (int)t->len) : ty(k);
}

static KExpr *var_ref(KVar *v, KLoc loc) {
  KExpr *e = kir_expr(KE_VAR, v->type, loc);
  e->var = v;
  return e;
}

static KExpr *call1(KFunc *f, KExpr *x) {
  KExpr *e = kir_expr(KE_CALL, f->ret, x->loc);
  e->callee = f;
  e->args = kir_alloc(sizeof(KExpr *));
  e->args[e->nargs++] = x;
  return e;
}

static KFunc *new_helper(L *l, const char *name, KType *ret, KType *pt, KVar **param, KLoc loc) {
  KFunc *f = kir_alloc(sizeof *f);
  f->name = kir_strdup(name);
  f->loc = loc;
  f->is_static = f->is_inline = true;
  f->ret = ret;
  f->params = kir_alloc(sizeof(KVar *));
  *param = f->params[f->nparams++] = kir_var(l->fe->m, "x", pt, KV_PARAM, loc);
  f->body = kir_stmt(KS_BLOCK, loc);
  fe_add_helper(l->fe, f);
  return f;
}

static void add_return(KFunc *f, KExpr *e) {
  KStmt *s = kir_stmt(KS_RETURN, e->loc);
  s->expr = e;
  klist_push(&f->body->list, s);
}

/* ushort __kcc_double_to_half(double x): x rounded to float toward odd (the float nearest
 * below or above x whose last bit is 1 when x is not a float), then to half: rounding to odd
 * first keeps the second rounding correct, as float has more than 11 + 2 bits. */
static KFunc *double_to_half(L *l, KLoc loc) {
  if (l->d2h) return l->d2h;
  KFunc *f2h = fe_half_helper(l->fe, loc, 1);
  KVar *x;
  KFunc *f = l->d2h = new_helper(l, "__kcc_double_to_half", ty(KT_U16), ty(KT_F64), &x, loc);
  KVar *fv = kir_var(l->fe->m, "f", ty(KT_F32), KV_LOCAL, loc);
  KStmt *d = kir_stmt(KS_DECL, loc);
  d->var = fv;
  d->init = kir_cast(var_ref(x, loc), ty(KT_F32));
  klist_push(&f->body->list, d);
  KVar *u = kir_var(l->fe->m, "u", ty(KT_U32), KV_LOCAL, loc);
  d = kir_stmt(KS_DECL, loc);
  d->var = u;
  d->init = kir_expr(KE_BITCAST, ty(KT_U32), loc);
  d->init->a = var_ref(fv, loc);
  klist_push(&f->body->list, d);
  KType *i32 = ty(KT_I32), *u32 = ty(KT_U32);
  KExpr *inexact =
      kir_binary(KB_NE, i32, kir_cast(var_ref(fv, loc), ty(KT_F64)), var_ref(x, loc), loc);
  KExpr *even =
      kir_binary(KB_EQ, i32, kir_binary(KB_AND, u32, var_ref(u, loc), kir_int(u32, 1, loc), loc),
                 kir_int(u32, 0, loc), loc);
  KExpr *fa = kir_builtin(BI_FABS, ty(KT_F64), 1, loc);
  fa->args[fa->nargs++] = kir_cast(var_ref(fv, loc), ty(KT_F64));
  KExpr *xa = kir_builtin(BI_FABS, ty(KT_F64), 1, loc);
  xa->args[xa->nargs++] = var_ref(x, loc);
  KExpr *step = kir_expr(KE_COND, u32, loc);
  step->a = kir_binary(KB_GT, i32, fa, xa, loc);
  step->b = kir_binary(KB_SUB, u32, var_ref(u, loc), kir_int(u32, 1, loc), loc);
  step->c = kir_binary(KB_ADD, u32, var_ref(u, loc), kir_int(u32, 1, loc), loc);
  KExpr *odd = kir_expr(KE_COND, u32, loc);
  odd->a = kir_binary(KB_LAND, i32, inexact, even, loc);
  odd->b = step;
  odd->c = var_ref(u, loc);
  KExpr *asf = kir_expr(KE_BITCAST, ty(KT_F32), loc);
  asf->a = odd;
  add_return(f, call1(f2h, asf));
  return f;
}

static KVar *decl(L *l, KFunc *f, const char *name, KExpr *init) {
  KVar *v = kir_var(l->fe->m, name, init->type, KV_LOCAL, init->loc);
  KStmt *d = kir_stmt(KS_DECL, init->loc);
  d->var = v;
  d->init = init;
  klist_push(&f->body->list, d);
  return v;
}

static KExpr *fbin(KOp op, KExpr *a, KExpr *b) {
  bool cmp = op >= KB_EQ && op <= KB_LOR;
  return kir_binary(op, cmp ? ty(KT_I32) : a->type, a, b, a->loc);
}

static KExpr *cond3(KExpr *c, KExpr *a, KExpr *b) {
  KExpr *e = kir_expr(KE_COND, a->type, a->loc);
  e->a = c, e->b = a, e->c = b;
  return e;
}

/* ushort __kcc_half_fma(float a, float b, float c), a b c halves: fma rounded once to half,
 * in float alone (no device needs fp64 for it). a*b is exact in float (22 bits); s = a*b + c
 * rounded to float, and TwoSum's e the exact error of that rounding; s nudged to odd toward e
 * when inexact (rounding to odd keeps the next rounding correct with 24 >= 11 + 2 bits), then
 * rounded to half. A back end that fuses a*b into an add changes nothing: the product is
 * exact. The N-vector form applies it per component. */
static KFunc *half_fma(L *l, int n, KLoc loc) {
  if (l->fma[n]) return l->fma[n];
  KFunc *f2h = fe_half_helper(l->fe, loc, 1);
  KFunc *scalar = n > 1 ? half_fma(l, 1, loc) : NULL;
  char name[40];
  snprintf(name, sizeof name, n > 1 ? "__kcc_half_fma%d" : "__kcc_half_fma", n);
  KType *ft = n > 1 ? kir_type_vec(ty(KT_F32), n) : ty(KT_F32);
  KType *rt = n > 1 ? kir_type_vec(ty(KT_U16), n) : ty(KT_U16);
  KVar *p[3];
  KFunc *f = new_helper(l, name, rt, ft, &p[0], loc);
  f->params = kir_alloc(sizeof(KVar *) * 3);
  f->params[0] = p[0];
  for (int i = 1; i < 3; i++)
    f->params[f->nparams++] = p[i] = kir_var(l->fe->m, i == 1 ? "y" : "z", ft, KV_PARAM, loc);
  l->fma[n] = f;
  if (n > 1) {
    KExpr *r = kir_expr(KE_VECLIT, rt, loc);
    r->args = kir_alloc(sizeof(KExpr *) * (size_t)n);
    for (int c = 0; c < n; c++) {
      KExpr *call = kir_expr(KE_CALL, ty(KT_U16), loc);
      call->callee = scalar;
      call->args = kir_alloc(sizeof(KExpr *) * 3);
      for (int i = 0; i < 3; i++) {
        KExpr *comp = kir_expr(KE_SWIZZLE, ty(KT_F32), loc);
        comp->a = var_ref(p[i], loc);
        comp->swz[0] = (uint8_t)c;
        comp->nswz = 1;
        call->args[call->nargs++] = comp;
      }
      r->args[r->nargs++] = call;
    }
    add_return(f, r);
    return f;
  }
#define V(x) var_ref(x, loc)
  KType *u32 = ty(KT_U32);
  KExpr *zero = kir_expr(KE_FCONST, ty(KT_F32), loc);
  KVar *pr = decl(l, f, "p", fbin(KB_MUL, V(p[0]), V(p[1])));
  KVar *s = decl(l, f, "s", fbin(KB_ADD, V(pr), V(p[2])));
  KVar *bb = decl(l, f, "bb", fbin(KB_SUB, V(s), V(pr)));
  KVar *e = decl(
      l, f, "e",
      fbin(KB_ADD, fbin(KB_SUB, V(pr), fbin(KB_SUB, V(s), V(bb))), fbin(KB_SUB, V(p[2]), V(bb))));
  KExpr *bits = kir_expr(KE_BITCAST, u32, loc);
  bits->a = V(s);
  KVar *u = decl(l, f, "u", bits);
  KExpr *finite =
      fbin(KB_NE, fbin(KB_AND, V(u), kir_int(u32, 0x7f800000, loc)), kir_int(u32, 0x7f800000, loc));
  KExpr *even = fbin(KB_EQ, fbin(KB_AND, V(u), kir_int(u32, 1, loc)), kir_int(u32, 0, loc));
  KExpr *nudge = fbin(KB_LAND, fbin(KB_LAND, finite, fbin(KB_NE, V(e), zero)), even);
  KExpr *zero2 = kir_expr(KE_FCONST, ty(KT_F32), loc),
        *zero3 = kir_expr(KE_FCONST, ty(KT_F32), loc);
  KExpr *away = fbin(KB_EQ, fbin(KB_GT, V(e), zero2), fbin(KB_GT, V(s), zero3));
  KExpr *odd = cond3(nudge,
                     cond3(away, fbin(KB_ADD, V(u), kir_int(u32, 1, loc)),
                           fbin(KB_SUB, V(u), kir_int(u32, 1, loc))),
                     V(u));
  KExpr *asf = kir_expr(KE_BITCAST, ty(KT_F32), loc);
  asf->a = odd;
  add_return(f, call1(f2h, asf));
#undef V
  return f;
}

/* The conversion `kind` (0 half->float, 1 float->half, 2 double->half) of a scalar, or of
 * each component of an N-vector through a helper (so the argument is evaluated once). */
static KFunc *conv_fn(L *l, int kind, int n, KLoc loc) {
  KFunc *scalar = kind == 0   ? fe_half_helper(l->fe, loc, 0)
                  : kind == 1 ? fe_half_helper(l->fe, loc, 1)
                              : double_to_half(l, loc);
  if (n == 1) return scalar;
  if (l->vconv[kind][n]) return l->vconv[kind][n];
  static const char *const from[] = {"half", "float", "double"};
  char name[64];
  snprintf(name, sizeof name, "__kcc_%s%d_to_%s%d", from[kind], n, kind ? "half" : "float", n);
  KType *in = kir_type_vec(ty(kind == 0 ? KT_U16 : kind == 1 ? KT_F32 : KT_F64), n);
  KType *out = kir_type_vec(ty(kind ? KT_U16 : KT_F32), n);
  KVar *x;
  KFunc *f = l->vconv[kind][n] = new_helper(l, name, out, in, &x, loc);
  KExpr *r = kir_expr(KE_VECLIT, out, loc);
  r->args = kir_alloc(sizeof(KExpr *) * (size_t)n);
  for (int c = 0; c < n; c++) {
    KExpr *comp = kir_expr(KE_SWIZZLE, in->base, loc);
    comp->a = var_ref(x, loc);
    comp->swz[0] = (uint8_t)c;
    comp->nswz = 1;
    r->args[r->nargs++] = call1(scalar, comp);
  }
  add_return(f, r);
  return f;
}

static int len_of(const KType *t) {
  return t->kind == KT_VEC ? (int)t->len : 1;
}

/* A lowered half value (bits) as float(N). */
static KExpr *to_f(L *l, KExpr *x) {
  if (x->kind == KE_ICONST) { /* a constant: its value */
    KExpr *c = kir_expr(KE_FCONST, ty(KT_F32), x->loc);
    c->fval = kir_f16_value((uint16_t)x->ival);
    return c;
  }
  return call1(conv_fn(l, 0, len_of(x->type), x->loc), x);
}

/* A float(N) or double(N) value rounded to half bits. */
static KExpr *to_h(L *l, KExpr *x) {
  return call1(conv_fn(l, kir_elem(x->type)->kind == KT_F64 ? 2 : 1, len_of(x->type), x->loc), x);
}

/* ---------------------------------------------------------------- expressions */

static KExpr *lw(L *l, KExpr *e);

/* Whether reading e twice is the same as reading it once (no call, assignment or ++). */
static bool pure(const KExpr *e) {
  if (!e) return true;
  switch (e->kind) {
  case KE_ICONST:
  case KE_FCONST:
  case KE_VAR:
  case KE_GVAR:
  case KE_SPECIAL: return true;
  case KE_MEMBER:
  case KE_SWIZZLE:
  case KE_DEREF:
  case KE_CAST:
  case KE_UNARY: return pure(e->a);
  case KE_INDEX:
  case KE_BINARY: return pure(e->a) && pure(e->b);
  default: return false;
  }
}

static KExpr *copy(const KExpr *e) {
  if (!e) return NULL;
  KExpr *c = kir_alloc(sizeof *c);
  *c = *e;
  c->a = copy(e->a);
  c->b = copy(e->b);
  return c;
}

static KVar *temp(L *l, KType *t, KLoc loc) {
  char name[32];
  snprintf(name, sizeof name, "__kcc_h%d", l->temps.n);
  KVar *v = kir_var(l->fe->m, name, t, KV_LOCAL, loc);
  KStmt *d = kir_stmt(KS_DECL, loc);
  d->var = v;
  klist_push(&l->temps, d);
  return v;
}

static KExpr *assign(KExpr *a, KExpr *b) {
  KExpr *e = kir_expr(KE_ASSIGN, a->type, a->loc);
  e->a = a, e->b = b;
  return e;
}

static KExpr *comma(KExpr *a, KExpr *b) {
  KExpr *e = kir_expr(KE_COMMA, b->type, b->loc);
  e->a = a, e->b = b;
  return e;
}

/* Two reads of the lvalue a that evaluate its operands once: copies of a when it is pure,
 * else *t twice after `t = &a` (for a swizzle, of the vector it picks from). *pre receives
 * that assignment, or NULL. Still in front-end (unlowered) types. */
static void lvalue_twice(L *l, KExpr *a, KExpr **x, KExpr **y, KExpr **pre) {
  *pre = NULL;
  if (pure(a)) {
    *x = a;
    *y = copy(a);
    return;
  }
  KExpr *base = a->kind == KE_SWIZZLE ? a->a : a;
  KVar *t = temp(l, kir_type_ptr(base->type, KAS_GENERIC, 0), a->loc);
  KExpr *addr = kir_expr(KE_ADDR, t->type, a->loc);
  addr->a = base;
  *pre = assign(var_ref(t, a->loc), addr);
  KExpr *d[2];
  for (int i = 0; i < 2; i++) {
    d[i] = kir_expr(KE_DEREF, base->type, a->loc);
    d[i]->a = var_ref(t, a->loc);
    if (a->kind == KE_SWIZZLE) {
      KExpr *s = kir_alloc(sizeof *s);
      *s = *a;
      s->a = d[i];
      d[i] = s;
    }
  }
  *x = d[0], *y = d[1];
}

/* a op= b with half in it, as a = (T)((C)a op b) in front-end types, then lowered. */
static KExpr *compound(L *l, KExpr *e) {
  KExpr *x, *y, *pre;
  lvalue_twice(l, e->a, &x, &y, &pre);
  KExpr *v = kir_binary(e->op, e->optype, kir_cast(y, e->optype), e->b, e->loc);
  KExpr *r = assign(x, kir_cast(v, e->a->type));
  return lw(l, pre ? comma(pre, r) : r);
}

/* ++ and -- on half: a += 1 (pre), or (old = a, a = old + 1, old) (post). */
static KExpr *incdec(L *l, KExpr *e) {
  KType *t = e->a->type;
  KExpr *one = kir_expr(KE_FCONST, kir_elem(t), e->loc);
  one->fval = 1;
  if (t->kind == KT_VEC) one = kir_cast(one, t); /* a splat */
  KOp op = e->op == KU_PREINC || e->op == KU_POSTINC ? KB_ADD : KB_SUB;
  if (e->op == KU_PREINC || e->op == KU_PREDEC) {
    KExpr *c = kir_expr(KE_ASSIGN, t, e->loc);
    c->a = e->a, c->b = one, c->op = op, c->optype = t;
    return compound(l, c);
  }
  KExpr *x, *y, *pre;
  lvalue_twice(l, e->a, &x, &y, &pre);
  KVar *old = temp(l, t, e->loc);
  KExpr *r = comma(
      assign(var_ref(old, e->loc), y),
      comma(assign(x, kir_binary(op, t, var_ref(old, e->loc), one, e->loc)), var_ref(old, e->loc)));
  return lw(l, pre ? comma(pre, r) : r);
}

/* A scalar used as a condition: a half tests its value (-0 is false), not its bits. */
static KExpr *lw_cond(L *l, KExpr *e) {
  if (!e) return NULL;
  bool h = kir_is_half(e->type);
  e = lw(l, e);
  return h ? to_f(l, e) : e;
}

/* A conversion whose source or target is half (scalars, or vectors of one length). */
static KExpr *convert(L *l, KExpr *e) {
  KType *from = e->a->type, *to = e->type;
  if (kir_is_half(from) && kir_is_half(to)) { /* the same type, or a splat */
    KExpr *a = lw(l, e->a);
    e->a = a;
    e->type = lt(to);
    return e->type == a->type ? a : e;
  }
  if (to->kind == KT_VEC && from->kind != KT_VEC) { /* convert the scalar, then splat */
    KExpr *a = lw(l, kir_cast(e->a, to->base));
    return kir_cast(a, lt(to));
  }
  KExpr *a = lw(l, e->a);
  if (kir_is_half(from)) return kir_cast(to_f(l, a), to);
  /* to half: floats and doubles round once; integers are exact in float up to 2^24, and
     from there on every one overflows half either way. */
  KTypeKind fk = kir_elem(from)->kind == KT_F64 ? KT_F64 : KT_F32;
  return to_h(l, kir_cast(a, ftype(to, fk)));
}

static bool bits_only(KBuiltin b) {
  /* builtins that move half bits without computing with them */
  return b == BI_SELECT || b == BI_VLOAD || b == BI_VSTORE || b == BI_ATOMIC_EXCH || b == BI_SHFL ||
         b == BI_SHFL_UP || b == BI_SHFL_DOWN || b == BI_SHFL_XOR || b == BI_PRINTF ||
         /* a surface moves a texel's bytes (a half is 2 of them), where a texture filters */
         (kir_builtin_is_cuda_texture(b) && kir_cuda_texture_shape(b).surf);
}

static KExpr *builtin(L *l, KExpr *e) {
  if (e->alt) e->alt = lw(l, e->alt); /* a texture call's image form (cuda_texobj.c) */
  bool any = kir_is_half(e->type);
  for (int i = 0; i < e->nargs; i++) any |= e->args[i] && kir_is_half(e->args[i]->type);
  if (!any || bits_only(e->builtin)) {
    for (int i = 0; i < e->nargs; i++)
      if (e->args[i]) e->args[i] = lw(l, e->args[i]);
    e->type = lt(e->type);
    return e;
  }
  if (e->builtin == BI_FMA && kir_is_half(e->type)) { /* rounded once: half_fma */
    KExpr *c = kir_expr(KE_CALL, lt(e->type), e->loc);
    c->callee = half_fma(l, len_of(e->type), e->loc);
    c->args = kir_alloc(sizeof(KExpr *) * 3);
    for (int i = 0; i < 3; i++) c->args[c->nargs++] = to_f(l, lw(l, e->args[i]));
    return c;
  }
  KTypeKind ck = KT_F32;
  for (int i = 0; i < e->nargs; i++) {
    if (!e->args[i]) continue;
    bool h = kir_is_half(e->args[i]->type);
    e->args[i] = lw(l, e->args[i]);
    if (h) e->args[i] = kir_cast(to_f(l, e->args[i]), ftype(e->args[i]->type, ck));
  }
  KType *t = e->type;
  if (kir_is_half(t)) {
    e->type = ftype(t, ck);
    /* The image form a back end writes in e's place gives the half's bits: as a float too. */
    if (e->alt) e->alt = to_f(l, e->alt);
    return to_h(l, e);
  }
  if (t->kind == KT_VEC &&
      (e->builtin == BI_ISNAN || e->builtin == BI_ISINF || e->builtin == BI_ISFINITE)) {
    /* a relational (isnan...) of halfN: its shortN mask from the floatN one */
    e->type = kir_type_mask(e->args[0]->type);
    return kir_cast(e, t);
  }
  return e;
}

static KExpr *binary(L *l, KExpr *e) {
  bool h = kir_is_half(e->a->type);
  if (e->op == KB_LAND || e->op == KB_LOR) {
    e->a = lw_cond(l, e->a);
    e->b = lw_cond(l, e->b);
    return e;
  }
  e->a = lw(l, e->a);
  e->b = lw(l, e->b);
  if (!h) {
    e->type = lt(e->type);
    return e;
  }
  KExpr *a = to_f(l, e->a), *b = to_f(l, e->b);
  switch (e->op) {
  case KB_ADD:
  case KB_SUB:
  case KB_MUL:
  case KB_DIV: {
    KExpr *r = kir_binary(e->op, a->type, a, b, e->loc);
    return to_h(l, r);
  }
  case KB_EQ:
  case KB_NE:
  case KB_LT:
  case KB_LE:
  case KB_GT:
  case KB_GE: {
    KType *t = e->type; /* int, or the shortN mask */
    KExpr *r = kir_binary(e->op, kir_type_mask(a->type), a, b, e->loc);
    return kir_cast(r, t);
  }
  default: diag_error(e->loc, "this operation on 'half' is not supported by kcc"); return e;
  }
}

static KExpr *lw(L *l, KExpr *e) {
  if (!e) return NULL;
  switch (e->kind) {
  case KE_FCONST:
    if (e->type->kind == KT_F16) return kir_int(ty(KT_U16), kir_f16_bits(e->fval), e->loc);
    return e;
  case KE_VAR:
  case KE_GVAR:
    e->var->type = lt(e->var->type);
    e->type = lt(e->type);
    return e;
  case KE_UNARY:
    if (e->op == KU_LNOT) {
      e->a = lw_cond(l, e->a);
      return e;
    }
    if (e->op == KU_NEG && kir_is_half(e->type)) { /* IEEE negation: the sign bit */
      KType *t = lt(e->type);
      KExpr *a = lw(l, e->a);
      if (a->kind == KE_ICONST) return kir_int(t, a->ival ^ 0x8000, e->loc);
      KExpr *m = kir_int(ty(KT_U16), 0x8000, e->loc);
      return kir_binary(KB_XOR, t, a, kir_cast(m, t), e->loc);
    }
    e->a = lw(l, e->a);
    e->type = lt(e->type);
    return e;
  case KE_BINARY: return binary(l, e);
  case KE_ASSIGN:
    if (e->op != KB_NONE && (kir_is_half(e->a->type) || (e->optype && kir_is_half(e->optype))))
      return compound(l, e);
    e->a = lw(l, e->a);
    e->b = lw(l, e->b);
    e->type = lt(e->type);
    if (e->optype) e->optype = lt(e->optype);
    return e;
  case KE_INCDEC:
    if (kir_is_half(e->a->type)) return incdec(l, e);
    e->a = lw(l, e->a);
    return e;
  case KE_COND:
    e->a = lw_cond(l, e->a);
    e->b = lw(l, e->b);
    e->c = lw(l, e->c);
    e->type = lt(e->type);
    return e;
  case KE_CAST:
    if (kir_is_half(e->type) || kir_is_half(e->a->type)) return convert(l, e);
    e->a = lw(l, e->a);
    e->type = lt(e->type);
    return e->type == e->a->type ? e->a : e; /* (ushort *) of what was a half * */
  case KE_BUILTIN: return builtin(l, e);
  case KE_BITCAST: {
    e->a = lw(l, e->a);
    e->type = lt(e->type);
    return e->type == e->a->type ? e->a : e;
  }
  default:
    e->a = lw(l, e->a);
    e->b = lw(l, e->b);
    e->c = lw(l, e->c);
    for (int i = 0; i < e->nargs; i++) e->args[i] = lw(l, e->args[i]);
    e->type = lt(e->type);
    if (e->optype) e->optype = lt(e->optype);
    return e;
  }
}

/* ---------------------------------------------------------------- statements, module */

/* e's value is not used: a post-increment may be the (cheaper) pre-increment. */
static KExpr *discarded(KExpr *e) {
  if (e && e->kind == KE_INCDEC && kir_is_half(e->a->type))
    e->op = e->op == KU_POSTINC ? KU_PREINC : e->op == KU_POSTDEC ? KU_PREDEC : e->op;
  return e;
}

static void lw_stmt(L *l, KStmt *s) {
  if (!s) return;
  if (s->kind == KS_EXPR) discarded(s->expr);
  if (s->kind == KS_FOR) discarded(s->step);
  switch (s->kind) {
  case KS_BLOCK:
    for (int i = 0; i < s->list.n; i++) lw_stmt(l, s->list.v[i]);
    return;
  case KS_DECL:
    s->var->type = lt(s->var->type);
    s->init = lw(l, s->init);
    return;
  case KS_IF:
  case KS_WHILE:
  case KS_DO:
  case KS_FOR:
    s->cond = lw_cond(l, s->cond);
    s->step = lw(l, s->step);
    lw_stmt(l, s->init_stmt);
    lw_stmt(l, s->then);
    lw_stmt(l, s->els);
    lw_stmt(l, s->body);
    return;
  default:
    s->expr = lw(l, s->expr);
    s->cond = lw(l, s->cond);
    s->init = lw(l, s->init);
    lw_stmt(l, s->then);
    lw_stmt(l, s->els);
    lw_stmt(l, s->body);
    return;
  }
}

void fe_lower_half(FeCtx *fe) {
  KModule *m = fe->m;
  /* Locals and expressions are always visited: a half may live only there. */
  L l = {.fe = fe};
  for (int i = 0; i < m->structs.n; i++) {
    KStruct *st = m->structs.v[i];
    for (int f = 0; f < st->nfields; f++) st->fields[f].type = lt(st->fields[f].type);
  }
  for (int i = 0; i < m->globals.n; i++) {
    KVar *g = m->globals.v[i];
    g->type = lt(g->type);
    g->init = lw(&l, g->init);
  }
  /* Helpers this pass adds go to the front of the list: walk the user's functions only. */
  KList funcs = {0};
  for (int i = 0; i < m->funcs.n; i++) klist_push(&funcs, m->funcs.v[i]);
  for (int i = 0; i < funcs.n; i++) {
    KFunc *f = funcs.v[i];
    l.func = f;
    l.temps = (KList){0};
    f->ret = lt(f->ret);
    for (int p = 0; p < f->nparams; p++) f->params[p]->type = lt(f->params[p]->type);
    if (!f->body) continue;
    lw_stmt(&l, f->body);
    if (l.temps.n) {
      for (int t = 0; t < l.temps.n; t++) {
        KStmt *d = l.temps.v[t];
        d->var->type = lt(d->var->type);
      }
      KList body = l.temps;
      for (int s = 0; s < f->body->list.n; s++) klist_push(&body, f->body->list.v[s]);
      f->body->list = body;
    }
  }
}
