/* idiom.c — loops that are one instruction, recognised in KIR.
 *
 * Kernighan's bit count, `while (x) { x &= x - 1; c++; }` (and its `for (...; x; c++)` form),
 * runs once per set bit where every target has a population count: PTX popc, OpenCL's
 * popcount, SPIR-V's OpBitCount. LLVM recognises the loop (LoopIdiomRecognize) only where the
 * target's cost model says popcount is fast, and NVPTX's does not say so, so kcc's PTX kept
 * the loop where nvcc's has one popc.b64 (issue 29: HeCBench's popcount, 3.33x). Recognising it
 * here serves every back end alike; at -O0 the code stays as written.
 *
 * The loop is rewritten as `c += popcount(x); x = 0;` only when it is exactly that: a while or
 * for loop whose condition tests x against zero and whose body and step are the two updates,
 * on two distinct local integer variables, x at least as wide as int (narrower ones come
 * wrapped in promotions, and nobody writes them). Each iteration clears x's lowest set bit and
 * adds 1 to c, so the loop runs popcount(x) times, and c wraps the same way either way. */
#include "kcc.h"

/* e without the conversions C's promotions wrapped it in. */
static const KExpr *bare(const KExpr *e) {
  while (e->kind == KE_CAST && kir_is_int(e->type) && kir_is_int(e->a->type)) e = e->a;
  return e;
}

static bool is_const(const KExpr *e, uint64_t v) {
  e = bare(e);
  return e->kind == KE_ICONST && e->ival == v;
}

/* A local variable or parameter of integer type (not bool, not volatile). */
static bool is_int_var(const KExpr *e) {
  return e->kind == KE_VAR && (e->var->kind == KV_LOCAL || e->var->kind == KV_PARAM) &&
         kir_is_int(e->type) && e->type->kind != KT_BOOL && !(e->type->qual & KQ_VOLATILE);
}

static bool is_var(const KExpr *e, const KVar *v) {
  return e->kind == KE_VAR && e->var == v;
}

/* x - 1 (or x + -1) in x's own type. */
static bool is_minus_one(const KExpr *e, const KVar *x) {
  if (e->kind != KE_BINARY || e->type != x->type || !is_var(e->a, x)) return false;
  return (e->op == KB_SUB && is_const(e->b, 1)) ||
         (e->op == KB_ADD && e->b->kind == KE_ICONST &&
          e->b->ival == ~(uint64_t)0 >> (64 - 8 * e->type->size));
}

/* x &= x - 1, or x = x & (x - 1) either way round: the variable x, or NULL. */
static KVar *clears_lowest_bit(const KExpr *e) {
  if (e->kind != KE_ASSIGN || !is_int_var(e->a) || e->a->type->size < 4) return NULL;
  KVar *x = e->a->var;
  if (e->op == KB_AND) return e->optype == x->type && is_minus_one(e->b, x) ? x : NULL;
  if (e->op != KB_NONE || e->b->kind != KE_BINARY || e->b->op != KB_AND) return NULL;
  const KExpr *l = e->b->a, *r = e->b->b;
  return (is_var(l, x) && is_minus_one(r, x)) || (is_var(r, x) && is_minus_one(l, x)) ? x : NULL;
}

/* c++, ++c or c += 1: the variable c, or NULL. */
static KVar *counts(const KExpr *e) {
  if (!is_int_var(e->a)) return NULL;
  if (e->kind == KE_INCDEC && (e->op == KU_POSTINC || e->op == KU_PREINC)) return e->a->var;
  if (e->kind == KE_ASSIGN && e->op == KB_ADD && is_const(e->b, 1)) return e->a->var;
  return NULL;
}

/* The condition `x` (as it is, or converted to bool), `x != 0` or `0 != x`: x, or NULL. */
static KVar *tests_nonzero(const KExpr *e) {
  if (!e) return NULL;
  if (is_int_var(e)) return e->var; /* the .k dialect's condition is the scalar itself */
  if (e->kind == KE_CAST && e->type->kind == KT_BOOL) return is_int_var(e->a) ? e->a->var : NULL;
  if (e->kind != KE_BINARY || e->op != KB_NE) return NULL;
  if (is_int_var(e->a) && is_const(e->b, 0)) return e->a->var;
  if (is_int_var(e->b) && is_const(e->a, 0)) return e->b->var;
  return NULL;
}

/* The loop's body and step as expressions, when they are nothing else; returns how many (at
 * most 2, 3 meaning "something else"). */
static int updates(const KStmt *s, KExpr **out) {
  int n = 0;
  const KStmt *body = s->body;
  if (body && body->kind == KS_BLOCK) {
    for (int i = 0; i < body->list.n; i++) {
      const KStmt *b = body->list.v[i];
      if (b->kind == KS_EMPTY) continue;
      if (b->kind != KS_EXPR || n == 2) return 3;
      out[n++] = b->expr;
    }
  } else if (body && body->kind == KS_EXPR) {
    out[n++] = body->expr;
  } else if (body && body->kind != KS_EMPTY) {
    return 3;
  }
  if (s->kind == KS_FOR && s->step) {
    if (n == 2) return 3;
    out[n++] = s->step;
  }
  return n;
}

static KStmt *expr_stmt(KExpr *e, KLoc loc) {
  KStmt *s = kir_stmt(KS_EXPR, loc);
  s->expr = e;
  return s;
}

/* a = b, or a op= b computed in optype. */
static KExpr *assign(KOp op, KExpr *a, KExpr *b, KType *optype) {
  KExpr *e = kir_expr(KE_ASSIGN, a->type, a->loc);
  e->op = op, e->a = a, e->b = b, e->optype = optype;
  return e;
}

/* s as `[init;] c += popcount(x); x = 0;` when it is Kernighan's loop. */
static void popcount_loop(KStmt *s) {
  KExpr *u[2];
  KVar *x = tests_nonzero(s->cond);
  if (!x || updates(s, u) != 2) return;
  if (clears_lowest_bit(u[1]) == x) {
    KExpr *t = u[0];
    u[0] = u[1], u[1] = t;
  }
  KVar *c = counts(u[1]);
  if (clears_lowest_bit(u[0]) != x || !c || c == x) return;
  KLoc loc = s->loc;
  KExpr *xv = kir_expr(KE_VAR, x->type, loc);
  xv->var = x;
  KExpr *pc = kir_builtin(BI_POPCOUNT, x->type, 1, loc);
  pc->args[pc->nargs++] = xv;
  /* In c's type, or int for narrower counters as C's `c += n` computes. */
  KType *ct = c->type->size >= 4 ? c->type : kir_type_scalar(KT_I32);
  KExpr *cv = kir_expr(KE_VAR, c->type, loc);
  cv->var = c;
  KExpr *add = assign(KB_ADD, cv, kir_cast(pc, ct), ct);
  KExpr *clear = assign(KB_NONE, xv, kir_int(x->type, 0, loc), NULL);
  KStmt *init = s->kind == KS_FOR ? s->init_stmt : NULL;
  *s = (KStmt){.kind = KS_BLOCK, .loc = loc};
  if (init) klist_push(&s->list, init);
  klist_push(&s->list, expr_stmt(add, loc));
  klist_push(&s->list, expr_stmt(clear, loc));
}

static void walk(KStmt *s) {
  if (!s) return;
  for (int i = 0; i < s->list.n; i++) walk(s->list.v[i]);
  walk(s->init_stmt);
  walk(s->then);
  walk(s->els);
  walk(s->body);
  if (s->kind == KS_WHILE || s->kind == KS_FOR) popcount_loop(s);
}

void pass_idioms(KModule *m, const KOptions *o) {
  if (o->opt_level == 0) return;
  for (int i = 0; i < m->funcs.n; i++) walk(KLIST_AT(m->funcs, i, KFunc *)->body);
}
