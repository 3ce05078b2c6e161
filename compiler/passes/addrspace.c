/* addrspace.c — address-space inference and specialisation of device functions.
 *
 * OpenCL C 1.2 and SPIR-V (without the Generic capability) need the address space of every
 * pointer, while the dialect, like CUDA, leaves it implicit. Kernel pointer parameters point
 * to global memory; shared/constant variables and locals have known homes; everything else
 * follows the data flow. Each device function is analysed once per combination of
 * pointer-argument spaces it is called with, and cloned when one body must serve several
 * (`void f(float *p)` called with a global and a shared array becomes two functions).
 *
 * The analysis is a fixpoint over a small lattice per pointer variable: the set of spaces it
 * may point to (a bit mask). One space: that space. None: never assigned (global is as good as
 * anything). Several: generic, which PTX has and OpenCL C 1.2 / SPIR-V do not.
 *
 * Pointers stored in memory (struct fields, arrays of pointers, what a pointer to a pointer
 * points to) are not tracked: they point to global memory where there is no generic space,
 * and are generic where there is one, exactly as in CUDA — unless the front end gave the
 * pointer type a space (a lambda's capture by reference points where the captured variable
 * lives). One case is: the address of a local pointer variable (`&q`, and every argument of a
 * C++ `T *&` parameter) carries the spaces q points to as its inner mask, so a function that
 * advances or reads the caller's pointer through it is cloned per space, as for `T *`; a
 * pointer of another space stored through it is an error there, not a silent retype. */
#include "diag.h"
#include "kcc.h"

#include <string.h>

typedef unsigned Mask; /* bit per space: 1 << KAS_* */
#define M(as) (1u << (as))
/* A pointer to a pointer may carry the mask of the pointer it points to (strict mode only). */
#define OUTER    0xffu
#define DEEP     (1u << 16)
#define INNER(m) (((m)&OUTER) << 8 | DEEP)
#define TRACKED  (1u << 17) /* the inner mask is an `&q`'s, not where memory points */

static Mask inner_of(Mask m) {
  return (m >> 8) & OUTER;
}

typedef struct Inst {
  KFunc *orig;
  Mask *sig; /* per parameter (pointer parameters only) */
  Mask ret;
  Mask *vars; /* indexed by KVar id; sized for the ids that existed before cloning */
  bool analysed;
  KFunc *out;
} Inst;

typedef struct Ctx {
  KModule *m;
  bool strict;
  int nids;    /* var ids at the start: the size of every Inst.vars */
  KList insts; /* Inst* */
  Inst *cur;
  bool changed;
  bool rewrite; /* second phase: set types, pick clones, fit values into slots */
  Mask ret_acc;
  KList done; /* KFunc* materialised, in order */
  bool failed;
  KLoc last_error;     /* one address-space error per line: the rest are the same mistake */
  const char *capture; /* the lambda capture whose closure field is being filled, or NULL */
  bool slot_tracked;   /* the last `*p` or `p[i]` walked goes through an `&q` */
  bool deep_store;     /* fitting a value into the pointer an `&q` points to */
} Ctx;

/* The end of a refusal: which form needs one space (the driver names the one it writes). */
static const char *one_space(const KModule *m) {
  return m->one_space ? m->one_space : "OpenCL C and SPIR-V need one address space per pointer";
}

static void as_error(Ctx *c, KLoc loc, const char *msg) {
  c->failed = true;
  if (loc.line && loc.line == c->last_error.line && loc.file == c->last_error.file) return;
  c->last_error = loc;
  /* The front end gives a closure's field a generic pointer only for a reference's referee. */
  if (c->capture)
    diag_error(loc,
               "lambda capture '&%s': a reference variable captured by reference may refer to "
               "any memory, so its closure needs a generic pointer, and %s; capture it by copy, "
               "or capture a pointer to it",
               c->capture, one_space(c->m));
  else
    diag_error(loc, "%s; %s", msg, one_space(c->m));
}

/* A conflict only the forms without a generic space have (KModule.space_error): the first is
 * kept for them; the compile goes on. */
static void space_conflict(Ctx *c, KLoc loc, const char *msg) {
  if (c->m->space_error) return;
  c->m->space_error = kir_strdup(msg);
  c->m->space_loc = loc;
}

static bool is_closure(const KType *t) {
  return t->kind == KT_STRUCT && t->st->closure;
}

/* The capture a closure's member names (lhs of the assignment that fills it), or NULL. */
static const char *closure_field(const KExpr *lhs) {
  return lhs->kind == KE_MEMBER && is_closure(lhs->a->type)
             ? lhs->a->type->st->fields[lhs->field].name
             : NULL;
}

static KAddrSpace mem_space(Ctx *c) {
  return c->strict ? KAS_GLOBAL : KAS_GENERIC;
}

static KAddrSpace mask_space(Mask m) {
  static const KAddrSpace order[] = {KAS_GLOBAL, KAS_SHARED, KAS_CONSTANT, KAS_PRIVATE,
                                     KAS_GENERIC};
  m &= OUTER;
  if (!m) return KAS_GLOBAL;
  for (int i = 0; i < 5; i++)
    if (m == M(order[i])) return order[i];
  return KAS_GENERIC;
}

static const char *mask_names(Mask m) {
  static const char *names[] = {[KAS_GLOBAL] = "global",
                                [KAS_SHARED] = "shared",
                                [KAS_CONSTANT] = "constant",
                                [KAS_PRIVATE] = "private",
                                [KAS_GENERIC] = "generic"};
  KBuf b = {0};
  int n = 0;
  for (int as = 0; as <= KAS_PRIVATE; as++)
    if ((m & M(as)) && names[as]) kbuf_printf(&b, "%s%s", n++ ? " and " : "", names[as]);
  char *s = kir_strdup(b.data ? b.data : "");
  kbuf_free(&b);
  return s;
}

/* The type of a pointer as stored in memory: it, and everything it points to, in mem_space. */
static KType *mem_type(Ctx *c, KType *t) {
  /* A space the front end named stays where there is no generic one (a lambda's closure
     field holding the address of a local: lambda.c). */
  if (t->kind == KT_PTR)
    return kir_type_ptr(mem_type(c, t->base),
                        c->strict && t->as != KAS_GENERIC ? t->as : mem_space(c), t->qual);
  if (t->kind == KT_ARRAY) return kir_type_array(mem_type(c, t->base), t->len);
  return t;
}

static KType *with_space(Ctx *c, KType *t, KAddrSpace as) {
  if (t->kind != KT_PTR) return mem_type(c, t);
  return kir_type_ptr(mem_type(c, t->base), as, t->qual);
}

/* The type of a pointer whose value has mask m: its space, and for a pointer to a pointer
 * whose inner mask is known, that pointer's space too. */
static KType *typed(Ctx *c, KType *t, Mask m) {
  KType *n = with_space(c, t, mask_space(m));
  /* An inner pointer of several spaces stays where pointers in memory point
   * (check_one_space and fit say so to the forms that care). */
  if ((m & DEEP) && n->kind == KT_PTR && n->base->kind == KT_PTR &&
      mask_space(inner_of(m)) != KAS_GENERIC)
    n = kir_type_ptr(with_space(c, n->base, mask_space(inner_of(m))), n->as, n->qual);
  return n;
}

static bool ptr_to_ptr(const KType *t) {
  return t->kind == KT_PTR && t->base->kind == KT_PTR;
}

static Mask *var_slot(Ctx *c, KVar *v) {
  KVar *orig = v->aux ? v->aux : v; /* clones point back at the variable they copy */
  return orig->id < c->nids ? &c->cur->vars[orig->id] : NULL;
}

static Mask var_mask(Ctx *c, KVar *v) {
  if (v->type->kind != KT_PTR) return 0;
  if (v->kind == KV_SHARED || v->kind == KV_CONSTANT) return M(mem_space(c));
  Mask *s = var_slot(c, v);
  return s ? *s : 0;
}

static void var_join(Ctx *c, KVar *v, Mask m) {
  Mask *s = var_slot(c, v);
  if (!s || v->type->kind != KT_PTR || (*s | m) == *s) return;
  *s |= m;
  c->changed = true;
}

static Mask walk(Ctx *c, KExpr *e);
static Inst *analyse_call(Ctx *c, KFunc *callee, Mask *sig);
static KFunc *materialise(Ctx *c, Inst *in);

/* Where an lvalue's storage lives. */
static Mask storage(Ctx *c, KExpr *lv) {
  switch (lv->kind) {
  case KE_VAR: return M(KAS_PRIVATE);
  case KE_GVAR: return M(kir_gvar_space(lv->var));
  case KE_DEREF:
  case KE_INDEX: return walk(c, lv->a);
  case KE_MEMBER: return kir_is_lvalue(lv->a) ? storage(c, lv->a) : M(KAS_PRIVATE);
  default: return M(KAS_PRIVATE);
  }
}

/* Makes a value fit a slot of type `want` (assignment, argument, return, branch of ?:). */
static void fit(Ctx *c, KExpr **pe, KType *want) {
  KExpr *e = *pe;
  if (!c->rewrite || !e || e->type == want || want->kind != KT_PTR || e->type->kind != KT_PTR)
    return;
  bool inner_differs =
      c->strict && ptr_to_ptr(e->type) && ptr_to_ptr(want) && e->type->base->as != want->base->as;
  /* Qualifiers differ only: C already checked them. */
  if (e->type->as == want->as && !inner_differs) return;
  KExpr *inner = e;
  while (inner->kind == KE_CAST && inner->a->type->kind == KT_PTR) inner = inner->a;
  if (inner->kind == KE_CAST && kir_cast_kind(inner->a->type, inner->type) == KC_INT_TO_PTR) {
    /* A null (or integer) pointer takes whatever space its slot has. */
    for (KExpr *x = e; x != inner->a; x = x->a) x->type = with_space(c, x->type, want->as);
    return;
  }
  if (want->as == KAS_GENERIC && !c->strict) {
    *pe = kir_cast(e, want);
    return;
  }
  char msg[256];
  if (e->type->as == want->as) {
    snprintf(msg, sizeof msg,
             "pointer to a pointer to %s memory used where a pointer to a pointer to %s memory "
             "is needed",
             mask_names(M(e->type->base->as)), mask_names(M(want->base->as)));
    space_conflict(c, e->loc, msg);
    return;
  }
  snprintf(msg, sizeof msg, "pointer to %s memory used where a pointer to %s memory is needed",
           mask_names(M(e->type->as)), mask_names(M(want->as)));
  if (c->deep_store)
    space_conflict(c, e->loc, msg);
  else
    as_error(c, e->loc, msg);
}

static void set_ptr_type(Ctx *c, KExpr *e, Mask m) {
  if (c->rewrite && e->type->kind == KT_PTR) e->type = typed(c, e->type, m);
}

static Mask walk_call(Ctx *c, KExpr *e) {
  /* A body already rewritten for another instance calls clones; analyse the original. */
  KFunc *f = e->callee->origin ? e->callee->origin : e->callee;
  Mask *sig = kir_alloc(sizeof(Mask) * (f->nparams + 1));
  for (int i = 0; i < e->nargs; i++) {
    Mask m = walk(c, e->args[i]);
    if (i < f->nparams) sig[i] = f->params[i]->type->kind == KT_PTR ? m : 0;
  }
  Inst *in = analyse_call(c, f, sig);
  if (c->rewrite) {
    e->callee = materialise(c, in);
    for (int i = 0; i < e->nargs && i < e->callee->nparams; i++)
      fit(c, &e->args[i], e->callee->params[i]->type);
    e->type = e->callee->ret;
  }
  return in->ret;
}

static Mask walk_expr(Ctx *c, KExpr *e);

/* A pointer to a pointer from anywhere but `&q` points to a pointer in memory: its inner mask
 * is where pointers in memory point, so that joining it with an `&q` is seen. */
static Mask walk(Ctx *c, KExpr *e) {
  Mask m = walk_expr(c, e);
  /* A CUDA texture call's image form (KExpr.alt) calls functions of its own, which the forms
   * that write it need. */
  if (e && e->alt) walk(c, e->alt);
  if (c->strict && e && ptr_to_ptr(e->type) && (m & OUTER) && !(m & DEEP))
    m |= INNER(M(mem_space(c)));
  return m;
}

static Mask walk_expr(Ctx *c, KExpr *e) {
  if (!e) return 0;
  Mask m = 0, ma, mb;
  switch (e->kind) {
  case KE_ICONST:
  case KE_FCONST:
  case KE_SPECIAL: return 0;
  case KE_STR: m = M(KAS_CONSTANT); break;
  case KE_VAR:
  case KE_GVAR: m = var_mask(c, e->var); break;
  case KE_CAST:
    switch (kir_cast_kind(e->a->type, e->type)) {
    case KC_ARRAY_DECAY:
      walk(c, e->a);
      m = storage(c, e->a);
      break;
    case KC_PTR_TO_PTR: m = walk(c, e->a); break;
    default: walk(c, e->a); break; /* an integer turned pointer: unknown (null) */
    }
    break;
  case KE_ADDR:
    walk(c, e->a);
    m = storage(c, e->a);
    if (c->strict && e->a->kind == KE_VAR && e->a->var->type->kind == KT_PTR &&
        (e->a->var->kind == KV_LOCAL || e->a->var->kind == KV_PARAM))
      m |= INNER(var_mask(c, e->a->var)) | TRACKED;
    break;
  case KE_UNARY:
  case KE_INCDEC: m = walk(c, e->a); break;
  case KE_BINARY:
    ma = walk(c, e->a);
    mb = walk(c, e->b);
    if (e->op == KB_PTR_ADD || e->op == KB_PTR_SUB) m = ma;
    if (c->rewrite && e->a->type->kind == KT_PTR && e->b->type->kind == KT_PTR &&
        e->a->type->as != e->b->type->as) {
      /* Comparing or subtracting pointers into different spaces: meet in generic. */
      KType *g = kir_type_ptr(e->a->type->base, KAS_GENERIC, e->a->type->qual);
      fit(c, &e->a, g);
      fit(c, &e->b, kir_type_ptr(e->b->type->base, KAS_GENERIC, e->b->type->qual));
    }
    break;
  case KE_ASSIGN: {
    ma = walk(c, e->a);
    bool deep = (e->a->kind == KE_DEREF || e->a->kind == KE_INDEX) && c->slot_tracked;
    mb = walk(c, e->b);
    if (e->a->kind == KE_VAR && e->op == KB_NONE) var_join(c, e->a->var, mb);
    m = e->a->kind == KE_VAR ? var_mask(c, e->a->var) : ma;
    if (c->rewrite) {
      e->type = e->a->type;
      if (e->op == KB_NONE) {
        c->capture = closure_field(e->a);
        c->deep_store = deep;
        fit(c, &e->b, e->a->type);
        c->capture = NULL;
        c->deep_store = false;
      }
      if (e->optype && e->optype->kind == KT_PTR) e->optype = e->a->type;
      return m;
    }
    break;
  }
  case KE_COND:
    walk(c, e->a);
    m = walk(c, e->b) | walk(c, e->c);
    if (c->rewrite && e->type->kind == KT_PTR) {
      set_ptr_type(c, e, m);
      if (c->strict && (m & DEEP) && mask_space(inner_of(m)) == KAS_GENERIC) {
        char msg[256];
        snprintf(msg, sizeof msg, "this expression may point to pointers to %s memory",
                 mask_names(inner_of(m)));
        space_conflict(c, e->loc, msg);
      }
      if (c->strict && e->type->as == KAS_GENERIC) {
        char msg[256];
        snprintf(msg, sizeof msg, "this expression may point to %s memory", mask_names(m));
        as_error(c, e->loc, msg);
        return m;
      }
      fit(c, &e->b, e->type);
      fit(c, &e->c, e->type);
      return m;
    }
    break;
  case KE_COMMA:
    walk(c, e->a);
    m = walk(c, e->b);
    break;
  case KE_INDEX:
  case KE_MEMBER:
  case KE_DEREF:
    ma = walk(c, e->a);
    walk(c, e->b);
    /* A pointer loaded from memory: where its type says (a space the front end named, as
       mem_type keeps it), else where pointers in memory point; through an `&q`, where q
       points. */
    if (e->type->kind == KT_PTR)
      m = e->kind != KE_MEMBER && (ma & DEEP) && mask_space(inner_of(ma)) != KAS_GENERIC
              ? inner_of(ma)
              : M(c->strict && e->type->as != KAS_GENERIC ? e->type->as : mem_space(c));
    c->slot_tracked = e->kind != KE_MEMBER && (ma & TRACKED);
    break;
  case KE_CALL: m = walk_call(c, e); break;
  case KE_SWIZZLE:
  case KE_BITCAST: walk(c, e->a); break; /* vectors and numbers: no pointer comes out */
  case KE_BUILTIN:
    if (e->callee) { /* an image read or write's software form: a call without pointers */
      for (int i = 0; i < e->nargs; i++) walk(c, e->args[i]);
      KFunc *f = e->callee->origin ? e->callee->origin : e->callee;
      Inst *in = analyse_call(c, f, kir_alloc(sizeof(Mask) * (f->nparams + 1)));
      if (c->rewrite) e->callee = materialise(c, in);
      break;
    }
    /* fall through */
  case KE_VECLIT:
  case KE_ASM:
  case KE_INITLIST:
    for (int i = 0; i < e->nargs; i++) walk(c, e->args[i]);
    if (c->rewrite && e->kind == KE_INITLIST) {
      e->type = mem_type(c, e->type);
      bool closure = is_closure(e->type);
      for (int i = 0; i < e->nargs; i++)
        if (e->args[i] && e->args[i]->type->kind == KT_PTR) {
          c->capture = closure && i < e->type->st->nfields ? e->type->st->fields[i].name : NULL;
          fit(c, &e->args[i], mem_type(c, e->args[i]->type));
          c->capture = NULL;
        }
    }
    return 0;
  }
  if (c->rewrite) {
    if (e->type->kind == KT_PTR)
      set_ptr_type(c, e, m);
    else
      e->type = mem_type(c, e->type);
  }
  return m;
}

/* Where there is no generic space, a pointer variable (and the pointer an `&q` it holds points
 * to) must have one space. */
static void check_one_space(Ctx *c, KVar *v, Mask m) {
  if (!c->strict || v->type->kind != KT_PTR) return;
  char msg[256];
  if (mask_space(m) == KAS_GENERIC)
    snprintf(msg, sizeof msg, "pointer '%s' may point to %s memory", v->name, mask_names(m));
  else if ((m & DEEP) && mask_space(inner_of(m)) == KAS_GENERIC) {
    snprintf(msg, sizeof msg, "pointer '%s' may point to pointers to %s memory", v->name,
             mask_names(inner_of(m)));
    space_conflict(c, v->loc, msg);
    return;
  } else
    return;
  as_error(c, v->loc, msg);
}

static void walk_stmt(Ctx *c, KStmt *s) {
  if (!s) return;
  switch (s->kind) {
  case KS_DECL:
    if (s->init) {
      Mask m = walk(c, s->init);
      if (s->var->type->kind == KT_PTR) var_join(c, s->var, m);
    }
    if (c->rewrite) {
      KVar *v = s->var;
      Mask m = var_mask(c, v);
      v->type = v->type->kind == KT_PTR ? typed(c, v->type, m) : mem_type(c, v->type);
      check_one_space(c, v, m);
      if (s->init) fit(c, &s->init, v->type);
    }
    break;
  case KS_RETURN:
    if (s->expr) {
      c->ret_acc |= walk(c, s->expr);
      if (c->rewrite && c->cur->out) fit(c, &s->expr, c->cur->out->ret);
    }
    break;
  default:
    walk(c, s->expr);
    walk(c, s->cond);
    walk(c, s->step);
    break;
  }
  for (int i = 0; i < s->list.n; i++) walk_stmt(c, s->list.v[i]);
  walk_stmt(c, s->init_stmt);
  walk_stmt(c, s->then);
  walk_stmt(c, s->els);
  walk_stmt(c, s->body);
}

static void analyse(Ctx *c, Inst *in) {
  Inst *saved = c->cur;
  bool saved_changed = c->changed;
  Mask saved_ret = c->ret_acc;
  c->cur = in;
  KFunc *f = in->orig;
  for (int i = 0; i < f->nparams; i++) var_join(c, f->params[i], in->sig[i]);
  /* The lattice is a bit set per variable, so this ends after at most 5 rounds per variable. */
  do {
    c->changed = false;
    c->ret_acc = 0;
    walk_stmt(c, f->body);
  } while (c->changed);
  in->ret = f->ret->kind == KT_PTR ? c->ret_acc : 0;
  in->analysed = true;
  c->cur = saved;
  c->changed = saved_changed;
  c->ret_acc = saved_ret;
}

static Inst *find_inst(Ctx *c, KFunc *f, Mask *sig) {
  for (int i = 0; i < c->insts.n; i++) {
    Inst *in = c->insts.v[i];
    if (in->orig == f && !memcmp(in->sig, sig, sizeof(Mask) * f->nparams)) return in;
  }
  Inst *in = kir_alloc(sizeof *in);
  in->orig = f;
  in->sig = sig;
  in->vars = kir_alloc(sizeof(Mask) * (c->nids + 1));
  klist_push(&c->insts, in);
  return in;
}

static Inst *analyse_call(Ctx *c, KFunc *callee, Mask *sig) {
  Inst *in = find_inst(c, callee, sig);
  if (!in->analysed) analyse(c, in);
  return in;
}

/* ---------------------------------------------------------------- cloning */

static KExpr *clone_expr(KExpr *e);

static KVar *clone_var(KVar *v) {
  if (v->kind == KV_SHARED || v->kind == KV_CONSTANT) return v;
  return v->aux ? v->aux : v; /* locals and params were mapped when their decl was cloned */
}

static KExpr *clone_expr(KExpr *e) {
  if (!e) return NULL;
  KExpr *n = kir_alloc(sizeof *n);
  *n = *e;
  n->a = clone_expr(e->a);
  n->b = clone_expr(e->b);
  n->c = clone_expr(e->c);
  n->alt = clone_expr(e->alt);
  if (e->var) n->var = clone_var(e->var);
  if (e->nargs) {
    n->args = kir_alloc(sizeof(KExpr *) * e->nargs);
    for (int i = 0; i < e->nargs; i++) n->args[i] = clone_expr(e->args[i]);
  }
  return n;
}

static KVar *fresh_var(KModule *m, KVar *v) {
  KVar *n = kir_var(m, v->name, v->type, v->kind, v->loc);
  n->is_const = v->is_const;
  v->aux = n;
  return n;
}

static KStmt *clone_stmt(KModule *m, KStmt *s, KList *cases) {
  if (!s) return NULL;
  KStmt *n = kir_alloc(sizeof *n);
  *n = *s;
  memset(&n->list, 0, sizeof n->list);
  memset(&n->cases, 0, sizeof n->cases);
  if (s->kind == KS_DECL) n->var = fresh_var(m, s->var);
  /* A for loop's init statement first: it declares the variable its condition and step use. */
  n->init_stmt = clone_stmt(m, s->init_stmt, cases);
  n->init = clone_expr(s->init);
  n->expr = clone_expr(s->expr);
  n->cond = clone_expr(s->cond);
  n->step = clone_expr(s->step);
  n->then = clone_stmt(m, s->then, cases);
  n->els = clone_stmt(m, s->els, cases);
  KList *inner = s->kind == KS_SWITCH ? &n->cases : cases;
  n->body = clone_stmt(m, s->body, inner);
  for (int i = 0; i < s->list.n; i++) klist_push(&n->list, clone_stmt(m, s->list.v[i], inner));
  if (s->kind == KS_CASE && cases) klist_push(cases, n);
  return n;
}

/* Clone vars keep `aux` pointing at the original so the analysis (indexed by original ids)
 * still applies; the originals' aux (set while cloning) is cleared afterwards. */
static void unmap_vars(KStmt *s) {
  if (!s) return;
  if (s->kind == KS_DECL && s->var->aux) {
    KVar *n = s->var->aux;
    s->var->aux = NULL;
    n->aux = s->var;
  }
  for (int i = 0; i < s->list.n; i++) unmap_vars(s->list.v[i]);
  unmap_vars(s->init_stmt);
  unmap_vars(s->then);
  unmap_vars(s->els);
  unmap_vars(s->body);
}

static void clear_clone_aux(KStmt *s) {
  if (!s) return;
  if (s->kind == KS_DECL) s->var->aux = NULL;
  for (int i = 0; i < s->list.n; i++) clear_clone_aux(s->list.v[i]);
  clear_clone_aux(s->init_stmt);
  clear_clone_aux(s->then);
  clear_clone_aux(s->els);
  clear_clone_aux(s->body);
}

static KFunc *clone_func(Ctx *c, KFunc *f, int serial) {
  KFunc *n = kir_alloc(sizeof *n);
  *n = *f;
  n->origin = f;
  memset(&n->callees, 0, sizeof n->callees);
  memset(&n->shared, 0, sizeof n->shared);
  memset(&n->symbols, 0, sizeof n->symbols);
  size_t len = strlen(f->name) + 16;
  char *name = kir_alloc(len);
  snprintf(name, len, "%s_%d", f->name, serial);
  n->name = name;
  n->params = kir_alloc(sizeof(KVar *) * (f->nparams + 1));
  for (int i = 0; i < f->nparams; i++) n->params[i] = fresh_var(c->m, f->params[i]);
  n->body = clone_stmt(c->m, f->body, NULL);
  for (int i = 0; i < f->nparams; i++) {
    f->params[i]->aux = NULL;
    n->params[i]->aux = f->params[i];
  }
  unmap_vars(f->body);
  return n;
}

static KFunc *materialise(Ctx *c, Inst *in) {
  if (in->out) return in->out;
  KFunc *f = in->orig;
  int serial = 0;
  for (int i = 0; i < c->done.n; i++)
    if (((KFunc *)c->done.v[i])->origin == f || c->done.v[i] == f) serial++;
  KFunc *out = serial ? clone_func(c, f, serial) : f;
  in->out = out;
  klist_push(&c->done, out);

  Inst *saved = c->cur;
  c->cur = in;
  for (int i = 0; i < out->nparams; i++) {
    KVar *p = out->params[i];
    p->type = p->type->kind == KT_PTR ? typed(c, p->type, var_mask(c, p)) : mem_type(c, p->type);
  }
  out->ret = out->ret->kind == KT_PTR ? typed(c, out->ret, in->ret) : mem_type(c, out->ret);
  walk_stmt(c, out->body);
  for (int i = 0; i < out->nparams; i++)
    check_one_space(c, out->params[i], var_mask(c, out->params[i]));
  c->cur = saved;
  return out;
}

bool kcc_check_one_space(const KModule *m, const char *form) {
  if (!m->space_error) return true;
  diag_error(m->space_loc, "%s; %s needs one address space per pointer", m->space_error, form);
  return false;
}

bool pass_addrspace(KModule *m, bool allow_generic) {
  Ctx c = {.m = m, .strict = !allow_generic, .nids = m->nvars};
  for (int i = 0; i < m->structs.n; i++) {
    KStruct *st = m->structs.v[i];
    for (int j = 0; j < st->nfields; j++) st->fields[j].type = mem_type(&c, st->fields[j].type);
  }
  for (int i = 0; i < m->globals.n; i++) {
    KVar *v = m->globals.v[i];
    v->type = mem_type(&c, v->type);
    if (v->init) {
      c.rewrite = true;
      walk(&c, v->init);
      c.rewrite = false;
    }
  }
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (!f->is_kernel || !f->body) continue;
    Mask *sig = kir_alloc(sizeof(Mask) * (f->nparams + 1));
    for (int j = 0; j < f->nparams; j++)
      /* Kernel pointers point to global memory, except local-memory parameters (kir.h). */
      sig[j] = f->params[j]->type->kind != KT_PTR     ? 0
               : f->params[j]->type->as == KAS_SHARED ? M(KAS_SHARED)
                                                      : M(KAS_GLOBAL);
    Inst *in = analyse_call(&c, f, sig);
    c.rewrite = true;
    materialise(&c, in);
    c.rewrite = false;
  }
  /* Keep source order; clones follow their original; unreachable device functions go. */
  KList funcs = {0};
  for (int i = 0; i < m->funcs.n; i++)
    for (int j = 0; j < c.done.n; j++) {
      KFunc *f = c.done.v[j];
      if (f == m->funcs.v[i] || f->origin == m->funcs.v[i]) klist_push(&funcs, f);
    }
  m->funcs = funcs;
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    for (int j = 0; j < f->nparams; j++) f->params[j]->aux = NULL;
    clear_clone_aux(f->body);
  }
  if (c.failed || diag_error_count()) return false;
  return pass_callgraph(m);
}
