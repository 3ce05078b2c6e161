/* bounds.c — `kcc -fbounds-check`: the memory checker, as a KIR-to-KIR pass, so that every
 * back end (PTX, SPIR-V, OpenCL C, CUDA C) gets the same checks.
 *
 * docs/design.md ("Bounds checking") is the design; in short:
 *  - Every pointer value has a provenance: the region (kernel buffer parameter, shared array,
 *    local variable or array, constant table) it points into, as three scalars — the region's
 *    base address, its size in bytes and its region id. Pointer variables carry them in
 *    shadow variables, device functions get them as hidden parameters next to each pointer
 *    parameter, and kernels get each buffer's size as a hidden parameter the runtime fills.
 *    A pointer of unknown provenance (loaded from memory, returned by a function, made from
 *    an integer) has base 0 and size ~0: it is not checked.
 *  - Every load, store, read-modify-write and atomic through a pointer (INDEX and DEREF, with
 *    the MEMBER and SWIZZLE chains over them) evaluates its address once into a temporary,
 *    checks [address, address + size of the element) against the region, and only then
 *    accesses; a failing access is not performed (a load yields 0), and calls kcc_bc_report,
 *    which records the first failure of the launch in the error record (an atomic CAS on its
 *    first word) — kernel index, access site, region, thread, block, byte offset, region size.
 *  - The runtime maps site and region ids back to names through the module's bounds table
 *    (pass_bounds_table), which the bundle carries.
 * Pointers stored in memory (struct fields, arrays of pointers) lose their provenance: such
 * accesses are not checked (docs/bugs.md lists what the checker misses). */
#include "bounds.h"
#include "diag.h"
#include "kcc.h"

#include <string.h>

typedef struct Shadow {
  KVar *base, *size, *region;
} Shadow;

typedef struct Prov {
  KExpr *base, *size, *region; /* all NULL: unknown */
} Prov;

typedef struct Fn {
  KModule *m;
  KFunc *f;
  KBoundsTable *tab;
  bool generic;  /* PTX with a generic address space: compare generic addresses */
  KList decls;   /* KStmt* to put at the top of the body */
  KVar *err;     /* the error record */
  KExpr *kid;    /* the kernel index (a constant in kernels, a parameter in device functions) */
  KVar *kid_var; /* device functions */
  KVar *dyn;     /* the launch's dynamic shared bytes */
  KFunc *report; /* kcc_bc_report */
  int kernel;    /* kernel index, -1 in device functions */
  int serial;    /* names of the pass's locals */
  KList zeros;   /* KVar*: zero-filled locals of struct types (one per type) */
  KList regvars; /* KVar* with a region, and ... */
  KList regids;  /* ... its id (intptr_t) */
} Fn;

static KType *u64t(void) {
  return kir_type_scalar(KT_U64);
}
static KType *u32t(void) {
  return kir_type_scalar(KT_U32);
}

static KExpr *var_ref(KVar *v, KLoc loc) {
  KExpr *e = kir_expr(KE_VAR, v->type, loc);
  e->var = v;
  return e;
}

static KExpr *bin(KOp op, KType *t, KExpr *a, KExpr *b) {
  return kir_binary(op, t, a, b, a->loc);
}

static KExpr *assign(KExpr *lv, KExpr *v) {
  KExpr *e = kir_expr(KE_ASSIGN, lv->type, lv->loc);
  e->a = lv;
  e->b = v;
  return e;
}

static KExpr *comma(KExpr *a, KExpr *b) {
  KExpr *e = kir_expr(KE_COMMA, b->type, b->loc);
  e->a = a;
  e->b = b;
  return e;
}

static KExpr *cond(KExpr *c, KExpr *a, KExpr *b) {
  KExpr *e = kir_expr(KE_COND, a->type, a->loc);
  e->a = c;
  e->b = a;
  e->c = b;
  return e;
}

static KExpr *u64c(uint64_t v, KLoc loc) {
  return kir_int(u64t(), v, loc);
}
static KExpr *u32c(uint32_t v, KLoc loc) {
  return kir_int(u32t(), v, loc);
}

static KExpr *clone(KExpr *e) {
  if (!e) return NULL;
  KExpr *n = kir_alloc(sizeof *n);
  *n = *e;
  n->a = clone(e->a);
  n->b = clone(e->b);
  n->c = clone(e->c);
  if (e->nargs) {
    n->args = kir_alloc(sizeof(KExpr *) * e->nargs);
    for (int i = 0; i < e->nargs; i++) n->args[i] = clone(e->args[i]);
  }
  return n;
}

/* Locals of the pass are declared at the top of the function, so their names are unique in
 * it: a serial number follows the name. */
static KVar *new_local(Fn *F, const char *name, KType *t, KExpr *init) {
  size_t n = strlen(name) + 16;
  char *nm = kir_alloc(n);
  snprintf(nm, n, "%s%d", name, ++F->serial);
  KVar *v = kir_var(F->m, nm, t, KV_LOCAL, F->f->loc);
  KStmt *s = kir_stmt(KS_DECL, F->f->loc);
  s->var = v;
  s->init = init;
  klist_push(&F->decls, s);
  return v;
}

static KVar *new_param(KModule *m, KFunc *f, const char *name, KType *t) {
  KVar *v = kir_var(m, name, t, KV_PARAM, f->loc);
  KVar **ps = kir_alloc(sizeof(KVar *) * (f->nparams + 2));
  memcpy(ps, f->params, sizeof(KVar *) * f->nparams);
  ps[f->nparams++] = v;
  f->params = ps;
  return v;
}

static const char *pname(const char *prefix, const char *name) {
  size_t n = strlen(prefix) + strlen(name ? name : "") + 1;
  char *s = kir_alloc(n);
  snprintf(s, n, "%s%s", prefix, name ? name : "");
  return s;
}

/* An address as a 64-bit integer; generic first where the target has a generic space, so
 * that a pointer and its region's base compare whatever space each expression names. */
static KExpr *addr_int(Fn *F, KExpr *p) {
  if (F->generic && p->type->as != KAS_GENERIC)
    p = kir_cast(p, kir_type_ptr(p->type->base, KAS_GENERIC, p->type->qual));
  return kir_cast(p, u64t());
}

static Prov unknown_prov(KLoc loc) {
  return (Prov){u64c(0, loc), u64c(UINT64_MAX, loc), u32c(0, loc)};
}

static Prov shadow_prov(Shadow *s, KLoc loc) {
  return (Prov){var_ref(s->base, loc), var_ref(s->size, loc), var_ref(s->region, loc)};
}

/* ---------------------------------------------------------------- the table */

static int add_region(KBoundsTable *t, int kind, const char *name, KType *elem, int kernel,
                      int param) {
  KBoundsRegion *r = kir_alloc(sizeof *r);
  while (elem && elem->kind == KT_ARRAY) elem = elem->base;
  r->kind = kind;
  r->name = name ? name : "";
  r->elem = elem && elem->kind != KT_VOID ? kir_type_str(elem) : "char";
  r->elem_size = elem && elem->size > 0 ? (uint32_t)elem->size : 1;
  r->kernel = kernel;
  r->param = param;
  klist_push(&t->regions, r);
  return t->regions.n; /* ids start at 1: 0 is "no region" */
}

static int add_site(KBoundsTable *t, KLoc loc, int access) {
  KBoundsSite *s = kir_alloc(sizeof *s);
  const char *f = loc.file ? loc.file : "";
  const char *slash = strrchr(f, '/');
  s->file = slash ? slash + 1 : f;
  s->line = loc.line;
  s->col = loc.col;
  s->access = access;
  klist_push(&t->sites, s);
  return t->sites.n - 1;
}

/* The region of a variable (local, parameter by value, shared or constant). */
static int var_region(Fn *F, KVar *v) {
  for (int i = 0; i < F->regvars.n; i++)
    if (F->regvars.v[i] == v) return (int)(intptr_t)F->regids.v[i];
  int kind = v->kind == KV_SHARED     ? KB_REGION_SHARED
             : v->kind == KV_CONSTANT ? KB_REGION_CONSTANT
                                      : KB_REGION_LOCAL;
  int id = add_region(F->tab, kind, v->name, v->type, F->kernel, -1);
  klist_push(&F->regvars, v);
  klist_push(&F->regids, (void *)(intptr_t)id);
  return id;
}

/* ---------------------------------------------------------------- provenance */

static bool simple(const KExpr *e) {
  if (!e) return true;
  switch (e->kind) {
  case KE_ICONST:
  case KE_FCONST:
  case KE_VAR:
  case KE_SPECIAL: return true;
  case KE_GVAR: return e->var->kind == KV_CONSTANT || e->type->kind == KT_ARRAY;
  case KE_UNARY:
  case KE_BINARY:
  case KE_COND: return simple(e->a) && simple(e->b) && simple(e->c);
  case KE_CAST: return simple(e->a);
  default: return false;
  }
}

static Prov prov_of(Fn *F, KExpr *e);

/* The region an lvalue's storage belongs to. */
static Prov prov_lv(Fn *F, KExpr *lv) {
  KExpr *r = lv;
  while (r->kind == KE_MEMBER || r->kind == KE_SWIZZLE) r = r->a;
  switch (r->kind) {
  case KE_INDEX:
  case KE_DEREF: return prov_of(F, r->a);
  case KE_VAR:
  case KE_GVAR: {
    KVar *v = r->var;
    if (v->host_filled) break; /* host-filled or __device__: its storage is the runtime's */
    KExpr *a = kir_expr(KE_ADDR, kir_type_ptr(v->type, KAS_PRIVATE, 0), r->loc);
    a->a = clone(r);
    if (v->kind == KV_SHARED) a->type = kir_type_ptr(v->type, KAS_SHARED, 0);
    if (v->kind == KV_CONSTANT) a->type = kir_type_ptr(v->type, KAS_CONSTANT, 0);
    if (v->is_dynamic) {
      /* `extern shared T x[]`: an array of unknown size has no address-of form in every back
       * end; its decay does. */
      a = kir_expr(KE_CAST, kir_type_ptr(v->type->base, KAS_SHARED, 0), r->loc);
      a->a = clone(r);
    }
    if (F->generic && v->kind != KV_SHARED && v->kind != KV_CONSTANT)
      a->type = kir_type_ptr(a->type->base, KAS_GENERIC, 0);
    KExpr *size = v->is_dynamic ? var_ref(F->dyn, r->loc) : u64c((uint64_t)v->type->size, r->loc);
    return (Prov){addr_int(F, a), size, u32c((uint32_t)var_region(F, v), r->loc)};
  }
  default: break;
  }
  return (Prov){0};
}

static Prov prov_of(Fn *F, KExpr *e) {
  if (!e || e->type->kind != KT_PTR) return (Prov){0};
  switch (e->kind) {
  case KE_VAR:
    if (e->var->aux) return shadow_prov(e->var->aux, e->loc);
    break;
  case KE_CAST:
    switch (kir_cast_kind(e->a->type, e->type)) {
    case KC_PTR_TO_PTR: return prov_of(F, e->a);
    case KC_ARRAY_DECAY: return prov_lv(F, e->a);
    default: break;
    }
    break;
  case KE_ADDR: return prov_lv(F, e->a);
  case KE_BINARY:
    if (e->op == KB_PTR_ADD || e->op == KB_PTR_SUB) return prov_of(F, e->a);
    break;
  case KE_ASSIGN:
  case KE_INCDEC:
    if (e->a->kind == KE_VAR && e->a->var->aux) return shadow_prov(e->a->var->aux, e->loc);
    break;
  case KE_COMMA: return prov_of(F, e->b);
  case KE_COND:
    if (simple(e->a)) {
      Prov b = prov_of(F, e->b), c = prov_of(F, e->c);
      if (!b.base && !c.base) break;
      if (!b.base) b = unknown_prov(e->loc);
      if (!c.base) c = unknown_prov(e->loc);
      return (Prov){cond(clone(e->a), b.base, c.base), cond(clone(e->a), b.size, c.size),
                    cond(clone(e->a), b.region, c.region)};
    }
    break;
  default: break;
  }
  return (Prov){0};
}

/* ---------------------------------------------------------------- rewriting */

static KExpr *rw(Fn *F, KExpr *e);

static KExpr *zero_of(Fn *F, KType *t, KLoc loc) {
  switch (t->kind) {
  case KT_VOID: return u32c(0, loc);
  case KT_F32:
  case KT_F64: {
    KExpr *z = kir_expr(KE_FCONST, t, loc);
    z->fval = 0;
    return z;
  }
  case KT_PTR: return kir_cast(u64c(0, loc), t);
  case KT_VEC: return kir_cast(zero_of(F, t->base, loc), t);
  case KT_STRUCT:
  case KT_ARRAY: {
    for (int i = 0; i < F->zeros.n; i++)
      if (((KVar *)F->zeros.v[i])->type == t) return var_ref(F->zeros.v[i], loc);
    int n = t->kind == KT_STRUCT ? t->st->nfields : (int)t->len;
    KExpr *init = kir_expr(KE_INITLIST, t, loc);
    init->nargs = n;
    init->args = kir_alloc(sizeof(KExpr *) * (n + 1));
    KVar *v = new_local(F, "kcc_bc_zero", t, init);
    klist_push(&F->zeros, v);
    return var_ref(v, loc);
  }
  default: return kir_int(t, 0, loc);
  }
}

/* ok: the `bytes` at pointer variable t lie inside the region. */
static KExpr *in_bounds(Fn *F, KVar *t, Prov p, uint64_t bytes, KLoc loc, KExpr **off_out) {
  KType *it = kir_type_scalar(KT_I32);
  KExpr *off = bin(KB_SUB, u64t(), addr_int(F, var_ref(t, loc)), p.base);
  *off_out = clone(off);
  KExpr *c1 = bin(KB_LT, it, off, p.size);
  KExpr *rest = bin(KB_SUB, u64t(), clone(p.size), clone(off));
  KExpr *c2 = bin(KB_GE, it, rest, u64c(bytes, loc));
  return bin(KB_LAND, it, c1, c2);
}

/* An element of a fixed-size array variable (a shared or local array, `s[i]`, `As[ty][i]`) with
 * indices free of side effects: true when each index is below its dimension, which implies
 * the byte check of in_bounds. Per index, the compiler proves what the loop bounds give (`i` of
 * `for (i = 0; i < 16; i++)`) and hoists or merges what does not change (`ty`), where one
 * byte offset of them all would be checked in every iteration. NULL: not such an access. */
static KExpr *index_checks(const KExpr *r) {
  KType *it = kir_type_scalar(KT_I32);
  KExpr *ok = NULL;
  const KExpr *x = r;
  while (x->kind == KE_INDEX) {
    const KExpr *base = x->a;
    if (base->kind != KE_CAST || kir_cast_kind(base->a->type, base->type) != KC_ARRAY_DECAY)
      return NULL;
    const KType *at = base->a->type;
    if (at->kind != KT_ARRAY || at->len <= 0 || !simple(x->b) || !kir_is_int(x->b->type))
      return NULL;
    /* (u64)(i64)index: a negative index is huge, and fails. */
    KExpr *idx = kir_cast(kir_cast(clone(x->b), kir_type_scalar(KT_I64)), u64t());
    KExpr *c = bin(KB_LT, it, idx, u64c((uint64_t)at->len, x->loc));
    ok = ok ? bin(KB_LAND, it, c, ok) : c;
    x = base->a;
  }
  return (x->kind == KE_GVAR || x->kind == KE_VAR) && x->type->kind == KT_ARRAY ? ok : NULL;
}

static KExpr *report_call(Fn *F, int site, Prov p, KExpr *off, KLoc loc) {
  KExpr *c = kir_expr(KE_CALL, kir_type_void(), loc);
  c->callee = F->report;
  c->nargs = 6;
  c->args = kir_alloc(sizeof(KExpr *) * 6);
  c->args[0] = var_ref(F->err, loc);
  c->args[1] = clone(F->kid);
  c->args[2] = u32c((uint32_t)site, loc);
  c->args[3] = clone(p.region);
  c->args[4] = off;
  c->args[5] = clone(p.size);
  return c;
}

/* The root of an lvalue chain (MEMBER and SWIZZLE stripped), and the slot that holds it. */
static KExpr **root_slot(KExpr **pe) {
  while ((*pe)->kind == KE_MEMBER || (*pe)->kind == KE_SWIZZLE) pe = &(*pe)->a;
  return pe;
}

static bool is_mem_root(const KExpr *r) {
  return r->kind == KE_INDEX || r->kind == KE_DEREF;
}

/* Rewrites the sub-expressions of an lvalue chain without accessing it. */
static KExpr *rw_lv_inside(Fn *F, KExpr *lv) {
  KExpr **rs = root_slot(&lv);
  KExpr *r = *rs;
  if (r->kind == KE_INDEX) {
    r->a = rw(F, r->a);
    r->b = rw(F, r->b);
  } else if (r->kind == KE_DEREF) {
    r->a = rw(F, r->a);
  } else if (r->kind != KE_VAR && r->kind != KE_GVAR) {
    *rs = rw(F, r);
  }
  return lv;
}

/* A checked access of the lvalue chain `chain` (whose root is INDEX or DEREF): a read of it
 * when parent is NULL, else parent (an ASSIGN or INCDEC of it). Returns the expression that
 * replaces the access, or NULL when the pointer's provenance is unknown (the chain's
 * sub-expressions are rewritten all the same). */
static KExpr *checked(Fn *F, KExpr *chain, KExpr *parent, int access) {
  KExpr **rs = root_slot(&chain);
  KExpr *r = *rs;
  KLoc loc = r->loc.line ? r->loc : chain->loc;
  Prov p = prov_of(F, r->a);
  if (!p.base || r->type->size <= 0) {
    chain = rw_lv_inside(F, chain);
    if (parent) parent->a = chain;
    return NULL;
  }
  /* The address, once. */
  KExpr *addr =
      r->kind == KE_INDEX ? bin(KB_PTR_ADD, r->a->type, rw(F, r->a), rw(F, r->b)) : rw(F, r->a);
  KVar *t = new_local(F, "kcc_bc_p", addr->type, NULL);
  KExpr *d = kir_expr(KE_DEREF, r->type, r->loc);
  d->a = var_ref(t, loc);
  *rs = d; /* chain itself when the root is the whole chain */
  KExpr *whole = chain;
  if (parent) {
    parent->a = chain;
    whole = parent;
  }
  KExpr *off;
  KExpr *ok = in_bounds(F, t, p, (uint64_t)r->type->size, loc, &off);
  /* Each index within its dimension, or else the byte check: the same accesses fail as with
   * the byte check alone (a row overrun inside the array is C's undefined behaviour but stays
   * unreported, as before), and the common case is decided by the cheap test. */
  KExpr *by_index = r->kind == KE_INDEX ? index_checks(r) : NULL;
  if (by_index) ok = bin(KB_LOR, kir_type_scalar(KT_I32), by_index, ok);
  int site = add_site(F->tab, loc, access);
  KExpr *fail = comma(report_call(F, site, p, off, loc), zero_of(F, whole->type, loc));
  return comma(assign(var_ref(t, loc), addr), cond(ok, whole, fail));
}

static KExpr *rw_call(Fn *F, KExpr *e) {
  KFunc *g = e->callee;
  int n0 = e->nargs;
  /* Provenance of the pointer arguments, from the expressions as written. */
  Prov *ps = kir_alloc(sizeof(Prov) * (n0 + 1));
  for (int i = 0; i < n0; i++)
    if (e->args[i]->type->kind == KT_PTR) {
      ps[i] = prov_of(F, e->args[i]);
      if (!ps[i].base) ps[i] = unknown_prov(e->loc);
    }
  for (int i = 0; i < n0; i++) e->args[i] = rw(F, e->args[i]);
  if (!g || !g->body || g->is_kernel || g == F->report || g->image_impl) return e;
  KExpr **args = kir_alloc(sizeof(KExpr *) * (g->nparams + 1));
  int n = 0;
  for (int i = 0; i < n0; i++) args[n++] = e->args[i];
  for (int i = 0; i < n0; i++)
    if (e->args[i]->type->kind == KT_PTR) {
      args[n++] = ps[i].base;
      args[n++] = ps[i].size;
      args[n++] = ps[i].region;
    }
  args[n++] = var_ref(F->err, e->loc);
  args[n++] = clone(F->kid);
  args[n++] = var_ref(F->dyn, e->loc);
  if (n != g->nparams) {
    diag_ice(e->loc, "bounds check: call of '%s' with %d arguments for %d parameters", g->name, n,
             g->nparams);
    return e;
  }
  e->args = args;
  e->nargs = n;
  return e;
}

/* The shadow assignments for pointer variable v taking provenance p. */
static KExpr *shadow_set(Shadow *s, Prov p, KExpr *then) {
  KLoc loc = then->loc;
  return comma(assign(var_ref(s->base, loc), p.base),
               comma(assign(var_ref(s->size, loc), p.size),
                     comma(assign(var_ref(s->region, loc), p.region), then)));
}

static KExpr *rw(Fn *F, KExpr *e) {
  if (!e) return NULL;
  switch (e->kind) {
  case KE_INDEX:
  case KE_DEREF:
  case KE_MEMBER:
  case KE_SWIZZLE:
    if (kir_is_lvalue(e) && is_mem_root(*root_slot(&e)) && e->type->kind != KT_ARRAY) {
      KExpr *r = checked(F, e, NULL, KB_ACCESS_READ);
      return r ? r : e;
    }
    if (kir_is_lvalue(e)) return rw_lv_inside(F, e);
    e->a = rw(F, e->a);
    e->b = rw(F, e->b);
    return e;
  case KE_ASSIGN:
  case KE_INCDEC: {
    KExpr *lv = e->a;
    Prov p = {0};
    bool shadowed = lv->kind == KE_VAR && lv->var->aux && e->kind == KE_ASSIGN && e->op == KB_NONE;
    if (shadowed) {
      p = prov_of(F, e->b);
      if (!p.base) p = unknown_prov(e->loc);
    }
    if (is_mem_root(*root_slot(&lv))) {
      e->b = rw(F, e->b);
      int access = e->kind == KE_ASSIGN && e->op == KB_NONE ? KB_ACCESS_WRITE : KB_ACCESS_UPDATE;
      KExpr *r = checked(F, lv, e, access);
      return r ? r : e;
    }
    e->a = rw_lv_inside(F, lv);
    e->b = rw(F, e->b);
    if (shadowed) return comma(e, shadow_set(lv->var->aux, p, var_ref(lv->var, e->loc)));
    return e;
  }
  case KE_ADDR: e->a = rw_lv_inside(F, e->a); return e;
  case KE_CAST:
    if (e->a->type->kind == KT_ARRAY && kir_is_lvalue(e->a)) {
      e->a = rw_lv_inside(F, e->a);
      return e;
    }
    e->a = rw(F, e->a);
    return e;
  case KE_CALL: return rw_call(F, e);
  case KE_BUILTIN:
    if (kir_builtin_is_atomic(e->builtin) || e->builtin == BI_VLOAD || e->builtin == BI_VSTORE) {
      int pi = e->builtin == BI_VLOAD ? 1 : e->builtin == BI_VSTORE ? 2 : 0;
      KExpr *ptr = e->args[pi];
      Prov p = prov_of(F, ptr);
      for (int i = 0; i < e->nargs; i++) e->args[i] = rw(F, e->args[i]);
      if (!p.base || ptr->type->base->size <= 0) return e;
      KLoc loc = e->loc;
      KExpr *addr = e->args[pi];
      uint64_t bytes = (uint64_t)ptr->type->base->size;
      if (pi) { /* vloadN(off, p): N elements at p + off * N */
        int n = e->builtin == BI_VLOAD ? (int)e->type->len : (int)e->args[0]->type->len;
        KExpr *off = e->args[pi - 1];
        KExpr *scaled = bin(KB_MUL, off->type, off, kir_int(off->type, (uint64_t)n, loc));
        addr = bin(KB_PTR_ADD, ptr->type, addr, scaled);
        e->args[pi - 1] = kir_int(off->type, 0, loc);
        bytes *= (uint64_t)(n == 3 ? 3 : n);
      }
      KVar *t = new_local(F, "kcc_bc_p", addr->type, NULL);
      e->args[pi] = var_ref(t, loc);
      KExpr *offx;
      KExpr *ok = in_bounds(F, t, p, bytes, loc, &offx);
      int access = e->builtin == BI_VLOAD    ? KB_ACCESS_READ
                   : e->builtin == BI_VSTORE ? KB_ACCESS_WRITE
                                             : KB_ACCESS_UPDATE;
      int site = add_site(F->tab, loc, access);
      KExpr *fail = report_call(F, site, p, offx, loc);
      KExpr *body;
      if (e->type->kind == KT_VOID) { /* ?: of two void calls, typed int for every back end */
        body = cond(ok, comma(e, u32c(0, loc)), comma(fail, u32c(0, loc)));
        body = kir_cast(body, kir_type_void());
      } else {
        body = cond(ok, e, comma(fail, zero_of(F, e->type, loc)));
      }
      return comma(assign(var_ref(t, loc), addr), body);
    }
    for (int i = 0; i < e->nargs; i++) e->args[i] = rw(F, e->args[i]);
    return e;
  default:
    e->a = rw(F, e->a);
    e->b = rw(F, e->b);
    e->c = rw(F, e->c);
    for (int i = 0; i < e->nargs; i++) e->args[i] = rw(F, e->args[i]);
    return e;
  }
}

static void make_shadow(Fn *F, KVar *v, Prov init) {
  Shadow *s = kir_alloc(sizeof *s);
  s->base = new_local(F, pname("kcc_bc_base_", v->name), u64t(), init.base);
  s->size = new_local(F, pname("kcc_bc_size_", v->name), u64t(), init.size);
  s->region = new_local(F, pname("kcc_bc_region_", v->name), u32t(), init.region);
  v->aux = s;
}

static void rw_stmt(Fn *F, KStmt *s) {
  if (!s) return;
  switch (s->kind) {
  case KS_DECL:
    if (s->var->type->kind == KT_PTR && s->var->kind == KV_LOCAL) {
      Prov p = s->init ? prov_of(F, s->init) : (Prov){0};
      make_shadow(F, s->var, unknown_prov(s->loc));
      s->init = rw(F, s->init);
      if (s->init) {
        if (!p.base) p = unknown_prov(s->loc);
        s->init = shadow_set(s->var->aux, p, s->init);
      }
    } else {
      s->init = rw(F, s->init);
    }
    break;
  default:
    s->expr = rw(F, s->expr);
    s->cond = rw(F, s->cond);
    s->step = rw(F, s->step);
    break;
  }
  for (int i = 0; i < s->list.n; i++) rw_stmt(F, s->list.v[i]);
  rw_stmt(F, s->init_stmt);
  rw_stmt(F, s->then);
  rw_stmt(F, s->els);
  rw_stmt(F, s->body);
}

static void clear_aux(KStmt *s) {
  if (!s) return;
  if (s->kind == KS_DECL) s->var->aux = NULL;
  for (int i = 0; i < s->list.n; i++) clear_aux(s->list.v[i]);
  clear_aux(s->init_stmt);
  clear_aux(s->then);
  clear_aux(s->els);
  clear_aux(s->body);
}

/* ---------------------------------------------------------------- kcc_bc_report */

static KExpr *rec_store(KVar *err, int word, KExpr *v) {
  KLoc loc = v->loc;
  KExpr *ix = kir_expr(KE_INDEX, u32t(), loc);
  ix->a = var_ref(err, loc);
  ix->b = kir_int(kir_type_scalar(KT_I32), (uint64_t)word, loc);
  return assign(ix, kir_cast(v, u32t()));
}

static KStmt *expr_stmt(KExpr *e) {
  KStmt *s = kir_stmt(KS_EXPR, e->loc);
  s->expr = e;
  return s;
}

/* void kcc_bc_report(global uint *err, uint kernel, uint site, uint region, ulong off,
 *                    ulong size): the first failure of a launch wins the record's word 0. */
static KFunc *make_report(KModule *m, KType *errt) {
  KFunc *f = kir_alloc(sizeof *f);
  KLoc loc = {0};
  f->name = "kcc_bc_report";
  f->ret = kir_type_void();
  f->is_static = true;
  f->is_cold = true;
  f->params = kir_alloc(sizeof(KVar *) * 7);
  const char *names[] = {"err", "kernel", "site", "region", "off", "size"};
  for (int i = 0; i < 6; i++) {
    KType *t = i == 0 ? errt : i < 4 ? u32t() : u64t();
    f->params[f->nparams++] = kir_var(m, names[i], t, KV_PARAM, loc);
  }
  KVar *err = f->params[0];
  KExpr *cas = kir_expr(KE_BUILTIN, u32t(), loc);
  cas->builtin = BI_ATOMIC_CAS;
  cas->nargs = 3;
  cas->args = kir_alloc(sizeof(KExpr *) * 3);
  cas->args[0] = var_ref(err, loc);
  cas->args[1] = u32c(0, loc);
  cas->args[2] = u32c(1, loc);
  KStmt *body = kir_stmt(KS_BLOCK, loc), *then = kir_stmt(KS_BLOCK, loc);
  KStmt *iff = kir_stmt(KS_IF, loc);
  iff->cond = bin(KB_EQ, kir_type_scalar(KT_I32), cas, u32c(0, loc));
  iff->then = then;
  klist_push(&body->list, iff);
  for (int i = 1; i < 4; i++)
    klist_push(&then->list, expr_stmt(rec_store(err, i, var_ref(f->params[i], loc))));
  for (int w = 0; w < 6; w++) {
    KExpr *sp = kir_expr(KE_SPECIAL, u32t(), loc);
    sp->builtin = w < 3 ? BI_THREAD_IDX : BI_BLOCK_IDX;
    sp->dim = w % 3;
    klist_push(&then->list, expr_stmt(rec_store(err, 4 + w, sp)));
  }
  for (int i = 0; i < 2; i++) {
    KVar *v = f->params[4 + i];
    klist_push(&then->list, expr_stmt(rec_store(err, 10 + 2 * i, var_ref(v, loc))));
    KExpr *hi = bin(KB_SHR, u64t(), var_ref(v, loc), u64c(32, loc));
    klist_push(&then->list, expr_stmt(rec_store(err, 11 + 2 * i, hi)));
  }
  f->body = body;
  return f;
}

/* ---------------------------------------------------------------- the pass */

static void instrument(Fn *F) {
  KFunc *f = F->f;
  KStmt *body = f->body;
  rw_stmt(F, body);
  /* Declarations first: shadows of parameters and every temporary. */
  KList list = {0};
  for (int i = 0; i < F->decls.n; i++) klist_push(&list, F->decls.v[i]);
  if (body->kind == KS_BLOCK) {
    for (int i = 0; i < body->list.n; i++) klist_push(&list, body->list.v[i]);
    body->list = list;
  } else {
    klist_push(&list, body);
    KStmt *b = kir_stmt(KS_BLOCK, body->loc);
    b->list = list;
    f->body = b;
  }
}

bool pass_bounds(KModule *m, bool allow_generic) {
  KBoundsTable *tab = kir_alloc(sizeof *tab);
  m->bounds = tab;
  KType *errt = kir_type_ptr(u32t(), KAS_GLOBAL, 0);
  KFunc *report = make_report(m, errt);

  /* Hidden parameters first, so that every call site knows its callee's final list. The
   * software forms of the image functions (KFunc.image_impl) are left as they are: they reach
   * memory only through surface loads and stores, which drop what is out of range, and the
   * image builtins that call them pass no hidden arguments. */
  int nk = 0;
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (!f->body || f->image_impl) continue;
    int n0 = f->nparams;
    if (f->is_kernel) {
      for (int j = 0; j < n0; j++)
        if (f->params[j]->type->kind == KT_PTR)
          new_param(m, f, pname("kcc_bc_bytes_", f->params[j]->name), u64t());
      new_param(m, f, "kcc_bc_dynshared", u64t());
      new_param(m, f, "kcc_bc_record", errt);
      f->nhidden = f->nparams - n0;
      f->aux = (void *)(intptr_t)nk++;
      continue;
    }
    for (int j = 0; j < n0; j++) {
      KVar *p = f->params[j];
      if (p->type->kind != KT_PTR) continue;
      Shadow *s = kir_alloc(sizeof *s);
      s->base = new_param(m, f, pname("kcc_bc_base_", p->name), u64t());
      s->size = new_param(m, f, pname("kcc_bc_size_", p->name), u64t());
      s->region = new_param(m, f, pname("kcc_bc_region_", p->name), u32t());
      p->aux = s;
    }
    new_param(m, f, "kcc_bc_record", errt);
    new_param(m, f, "kcc_bc_kernel", u32t());
    new_param(m, f, "kcc_bc_dynshared", u64t());
    f->nhidden = f->nparams - n0;
  }
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (!f->body || f->image_impl) continue;
    Fn F = {.m = m, .f = f, .tab = tab, .generic = allow_generic, .report = report};
    int np = f->nparams;
    if (f->is_kernel) {
      F.kernel = (int)(intptr_t)f->aux;
      F.kid = u32c((uint32_t)F.kernel, f->loc);
      F.err = f->params[np - 1];
      F.dyn = f->params[np - 2];
      int h = np - f->nhidden;
      for (int j = 0; j < np - f->nhidden; j++) {
        KVar *p = f->params[j];
        if (p->type->kind != KT_PTR) continue;
        int region = add_region(tab, KB_REGION_PARAM, p->name, p->type->base, F.kernel, j);
        Prov init = {addr_int(&F, var_ref(p, f->loc)), var_ref(f->params[h++], f->loc),
                     u32c((uint32_t)region, f->loc)};
        make_shadow(&F, p, init);
      }
    } else {
      F.kernel = -1;
      F.err = f->params[np - 3];
      F.kid_var = f->params[np - 2];
      F.kid = var_ref(F.kid_var, f->loc);
      F.dyn = f->params[np - 1];
    }
    instrument(&F);
  }
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    f->aux = NULL;
    for (int j = 0; j < f->nparams; j++) f->params[j]->aux = NULL;
    clear_aux(f->body);
  }
  /* The reporter first: C back ends want functions before their callers. */
  KList funcs = {0};
  klist_push(&funcs, report);
  for (int i = 0; i < m->funcs.n; i++) klist_push(&funcs, m->funcs.v[i]);
  m->funcs = funcs;
  if (diag_error_count()) return false;
  return pass_callgraph(m);
}

int kir_user_params(const KFunc *f) {
  return f->nparams - f->nhidden;
}

void bounds_table_text(const KModule *m, KBuf *out) {
  const KBoundsTable *t = m->bounds;
  kbuf_printf(out, "kcc-bounds 1\n");
  for (int i = 0; i < t->regions.n; i++) {
    const KBoundsRegion *r = t->regions.v[i];
    kbuf_printf(out, "region %d %d %d %u %s %s\n", r->kind, r->kernel, r->param, r->elem_size,
                r->name, r->elem);
  }
  for (int i = 0; i < t->sites.n; i++) {
    const KBoundsSite *s = t->sites.v[i];
    kbuf_printf(out, "site %d %d %d %s\n", s->access, s->line, s->col, s->file);
  }
}
